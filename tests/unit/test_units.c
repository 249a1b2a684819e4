/* f2fs_human_size: the byte counts mkfs and dump print. */
#include <check.h>

#include <f2fs/util/units.h>

#include <stdint.h>
#include <stdlib.h>

#include "unit.h"

START_TEST(test_bytes_exact)
{
	char b[32];

	ck_assert_str_eq(f2fs_human_size(0, b, sizeof(b)), "0 B");
	ck_assert_str_eq(f2fs_human_size(1023, b, sizeof(b)), "1023 B");
}
END_TEST

START_TEST(test_units_step_at_1024)
{
	char b[32];

	ck_assert_str_eq(f2fs_human_size(1024, b, sizeof(b)), "1.00 KiB");
	ck_assert_str_eq(f2fs_human_size(1536, b, sizeof(b)), "1.50 KiB");
	ck_assert_str_eq(f2fs_human_size(1ull << 30, b, sizeof(b)), "1.00 GiB");
	ck_assert_str_eq(f2fs_human_size(3ull << 40, b, sizeof(b)), "3.00 TiB");
	ck_assert_str_eq(f2fs_human_size(1ull << 50, b, sizeof(b)), "1.00 PiB");
}
END_TEST

START_TEST(test_largest_and_short_buffer)
{
	char b[32], small[5];

	ck_assert_str_eq(f2fs_human_size(UINT64_MAX, b, sizeof(b)), "16.00 EiB");
	/* cut, never overrun */
	ck_assert_str_eq(f2fs_human_size(1ull << 30, small, sizeof(small)), "1.00");
}
END_TEST

static Suite *units_suite(void)
{
	Suite *s = suite_create("units");
	TCase *t = tcase_create("human_size");

	tcase_add_test(t, test_bytes_exact);
	tcase_add_test(t, test_units_step_at_1024);
	tcase_add_test(t, test_largest_and_short_buffer);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return unit_run(units_suite());
}
