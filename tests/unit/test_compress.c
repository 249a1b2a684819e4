/*
 * Compressed clusters: the COMPRESS_ADDR pointers and the blocks saved,
 * counted per cluster as the kernel charges them (include/f2fs/format/
 * compress.h).
 */
#include <check.h>

#include <f2fs/format/compress.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/format.h>

#include <string.h>

#include "unit.h"

#define C F2FS_COMPRESS_ADDR
#define N F2FS_NEW_ADDR

static struct f2fs_compr_count count(const uint32_t *a, uint32_t n, uint32_t log_cs)
{
	f2fs_le32 p[64];
	struct f2fs_compr_count cc;

	ck_assert_uint_le(n, 64);
	for (uint32_t i = 0; i < n; i++)
		p[i] = le32_put(a[i]);
	memset(&cc, 0xAB, sizeof(cc));
	f2fs_compr_count(p, n, log_cs, &cc);
	return cc;
}

START_TEST(test_reserved_clusters)
{
	/* 4-block clusters: compressed to 1 and to 2 blocks, then a raw one */
	const uint32_t a[12] = { C, 100, N, N,  C, 101, 102, N,  200, 201, 202, 203 };
	struct f2fs_compr_count cc = count(a, 12, 2);

	ck_assert_uint_eq(cc.caddrs, 2);
	ck_assert_uint_eq(cc.saved, 3 + 2);
}
END_TEST

START_TEST(test_released_clusters)
{
	/* after F2FS_IOC_RELEASE_COMPRESS_BLOCKS the NEW_ADDRs are NULL: the
	 * clusters still save as much, which i_compr_blocks no longer says */
	const uint32_t a[8] = { C, 100, 0, 0,  C, 101, 102, 0 };
	struct f2fs_compr_count cc = count(a, 8, 2);

	ck_assert_uint_eq(cc.caddrs, 2);
	ck_assert_uint_eq(cc.saved, 5);
}
END_TEST

START_TEST(test_cluster_size)
{
	/* one 8-block cluster, or two 4-block ones of which only the first
	 * is compressed: NEW_ADDR of a raw cluster saves nothing */
	const uint32_t a[8] = { C, 100, 101, N,  N, N, N, N };
	struct f2fs_compr_count c8 = count(a, 8, 3), c4 = count(a, 8, 2);

	ck_assert_uint_eq(c8.caddrs, 1);
	ck_assert_uint_eq(c8.saved, 6);
	ck_assert_uint_eq(c4.caddrs, 1);
	ck_assert_uint_eq(c4.saved, 2);
}
END_TEST

START_TEST(test_no_compression)
{
	const uint32_t a[6] = { 0, 100, N, 0, 0, 7 };
	struct f2fs_compr_count cc = count(a, 6, 2);

	ck_assert_uint_eq(cc.caddrs, 0);
	ck_assert_uint_eq(cc.saved, 0);
	cc = count(a, 0, 2);
	ck_assert_uint_eq(cc.caddrs, 0);
	ck_assert_uint_eq(cc.saved, 0);
}
END_TEST

START_TEST(test_stray_and_cut_short)
{
	/* COMPRESS_ADDR not at a cluster start leads nothing but is counted;
	 * a cluster cut off by the end of the pointers counts what it holds */
	const uint32_t a[6] = { 100, C, 101, 102,  C, 103 };
	struct f2fs_compr_count cc = count(a, 6, 2);

	ck_assert_uint_eq(cc.caddrs, 2);
	ck_assert_uint_eq(cc.saved, 3);
}
END_TEST

static Suite *compress_suite(void)
{
	Suite *s = suite_create("compress");
	TCase *tc = tcase_create("clusters");

	tcase_add_test(tc, test_reserved_clusters);
	tcase_add_test(tc, test_released_clusters);
	tcase_add_test(tc, test_cluster_size);
	tcase_add_test(tc, test_no_compression);
	tcase_add_test(tc, test_stray_and_cut_short);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(compress_suite());
}
