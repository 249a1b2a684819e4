/*
 * The hash levels of a directory, against sums written out by hand: level
 * L of dir_level 0 starts at 2 * (2^L - 1) and holds 2^L two-block
 * buckets; a dir_level shifts the bucket counts; from level 31 on a bucket
 * has four blocks and the count stops at 2^30.
 */
#include <check.h>

#include <f2fs/format/dir_levels.h>
#include <f2fs/format/format.h>

#include "unit.h"

START_TEST(test_counts)
{
	ck_assert_uint_eq(f2fs_dir_buckets(0, 0), 1);
	ck_assert_uint_eq(f2fs_dir_buckets(3, 0), 8);
	ck_assert_uint_eq(f2fs_dir_buckets(3, 2), 32);
	ck_assert_uint_eq(f2fs_dir_buckets(30, 0), 1u << 30);
	ck_assert_uint_eq(f2fs_dir_buckets(31, 0), F2FS_MAX_DIR_BUCKETS);
	ck_assert_uint_eq(f2fs_dir_buckets(20, 20), F2FS_MAX_DIR_BUCKETS);
	ck_assert_uint_eq(f2fs_dir_bucket_blocks(30), 2);
	ck_assert_uint_eq(f2fs_dir_bucket_blocks(31), 4);
}
END_TEST

START_TEST(test_starts)
{
	for (uint32_t l = 0; l <= 30; l++)
		ck_assert_uint_eq(f2fs_dir_level_start(l, 0), 2 * ((1ull << l) - 1));
	/* dir_level 1: 2, 4, 8 buckets of two blocks */
	ck_assert_uint_eq(f2fs_dir_level_start(1, 1), 4);
	ck_assert_uint_eq(f2fs_dir_level_start(2, 1), 12);
	/* hash 7 at level 2 (4 buckets from block 6): bucket 3, blocks 12 and 13 */
	ck_assert_uint_eq(f2fs_dir_bucket_start(2, 0, 7), 12);
}
END_TEST

START_TEST(test_bucket_of)
{
	uint32_t level;
	uint64_t bucket, nb;

	ck_assert(f2fs_dir_bucket_of(0, 0, &level, &bucket, &nb));
	ck_assert_uint_eq(level, 0);
	ck_assert_uint_eq(bucket, 0);
	ck_assert_uint_eq(nb, 1);
	ck_assert(f2fs_dir_bucket_of(5, 0, &level, &bucket, &nb));
	ck_assert_uint_eq(level, 1);
	ck_assert_uint_eq(bucket, 1);
	ck_assert_uint_eq(nb, 2);
	/* every block of the first levels maps back to its bucket's start */
	for (uint32_t dl = 0; dl < 3; dl++)
		for (uint64_t f = 0; f < 200; f++) {
			ck_assert(f2fs_dir_bucket_of(f, dl, &level, &bucket, &nb));
			ck_assert_uint_le(f2fs_dir_level_start(level, dl) + bucket * 2, f);
			ck_assert_uint_gt(f2fs_dir_level_start(level, dl) + bucket * 2 + 2, f);
		}
	/* past the deepest level */
	ck_assert(!f2fs_dir_bucket_of(UINT64_MAX, 0, &level, &bucket, &nb));
}
END_TEST

static Suite *dir_levels_suite(void)
{
	Suite *s = suite_create("dir_levels");
	TCase *t = tcase_create("levels");

	tcase_add_test(t, test_counts);
	tcase_add_test(t, test_starts);
	tcase_add_test(t, test_bucket_of);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return unit_run(dir_levels_suite());
}
