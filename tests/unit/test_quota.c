/*
 * Quota file builder and walker. The reference files were made by
 * f2fs-tools 1.15 (mkfs.f2fs -O extra_attr,quota,project_quota; sload.f2fs -P
 * followed by its quota fix-up) and are kept here as their nonzero le32
 * words, or as a length and FNV-1a hash when large.
 */
#include <check.h>

#include <f2fs/format/endian.h>
#include <f2fs/util/error.h>
#include <f2fs/format/quota.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

struct word { uint32_t off, val; };

/* mkfs.f2fs, user quota, root owns 1 inode and 4096 bytes. */
static const struct word ref_mkfs[] = {
	{0x0, 0xd9c01f11}, {0x4, 0x1}, {0x8, 0x93a80}, {0xc, 0x93a80},
	{0x14, 0x6}, {0x1c, 0x5}, {0x400, 0x2}, {0x800, 0x3}, {0xc00, 0x4},
	{0x1000, 0x5}, {0x1408, 0x1}, {0x1428, 0x1}, {0x1440, 0x1000},
};

/* The user quota file f2fs-tools' fsck writes for these 20 ids. */
static const struct f2fs_quota_usage ids20[] = {
	{65535, 3, 0}, {1000, 1, 0}, {0, 4, 4096}, {57600, 1, 0}, {1, 2, 0},
	{10240, 1, 0}, {2, 1, 0}, {3, 1, 0}, {5, 1, 0}, {6, 1, 0}, {7, 1, 0},
	{8, 1, 0}, {9, 1, 0}, {10, 1, 0}, {255, 1, 0}, {256, 1, 0},
	{257, 1, 0}, {1001, 1, 0}, {4464, 1, 0}, {65534, 1, 0},
};

static const struct word ref_ids20[] = {
	{0x0, 0xd9c01f11}, {0x4, 0x1}, {0x8, 0x93a80}, {0xc, 0x93a80},
	{0x14, 0xd}, {0x1c, 0x8}, {0x400, 0x2}, {0x800, 0x3}, {0xc00, 0x4},
	{0xc04, 0x6}, {0xc0c, 0x7}, {0xc44, 0x9}, {0xca0, 0xa}, {0xf84, 0xb},
	{0xffc, 0xc}, {0x1000, 0x5}, {0x1004, 0x5}, {0x1008, 0x5},
	{0x100c, 0x5}, {0x1014, 0x5}, {0x1018, 0x5}, {0x101c, 0x5},
	{0x1020, 0x5}, {0x1024, 0x5}, {0x1028, 0x5}, {0x13fc, 0x5},
	{0x1408, 0xe}, {0x1428, 0x4}, {0x1440, 0x1000}, {0x1458, 0x1},
	{0x1470, 0x2}, {0x14a0, 0x2}, {0x14b8, 0x1}, {0x14e8, 0x3},
	{0x1500, 0x1}, {0x1530, 0x5}, {0x1548, 0x1}, {0x1578, 0x6},
	{0x1590, 0x1}, {0x15c0, 0x7}, {0x15d8, 0x1}, {0x1608, 0x8},
	{0x1620, 0x1}, {0x1650, 0x9}, {0x1668, 0x1}, {0x1698, 0xa},
	{0x16b0, 0x1}, {0x16e0, 0xff}, {0x16f8, 0x1}, {0x1728, 0x100},
	{0x1740, 0x1}, {0x1770, 0x101}, {0x1788, 0x1}, {0x17b8, 0x3e8},
	{0x17d0, 0x1}, {0x1800, 0x5}, {0x1804, 0x5}, {0x1fa0, 0x5},
	{0x1fa4, 0x8}, {0x2008, 0x6}, {0x2010, 0x3e9}, {0x2028, 0x1},
	{0x2058, 0x1170}, {0x2070, 0x1}, {0x20a0, 0x2800}, {0x20b8, 0x1},
	{0x20e8, 0xe100}, {0x2100, 0x1}, {0x2130, 0xfffe}, {0x2148, 0x1},
	{0x2178, 0xffff}, {0x2190, 0x3}, {0x25c0, 0x8}, {0x2800, 0x8},
	{0x2c00, 0x8}, {0x33f8, 0x8}, {0x33fc, 0x8},
};

#define NWORDS(a) (sizeof(a) / sizeof((a)[0]))

static uint8_t *expand(const struct word *w, size_t n, size_t len)
{
	uint8_t *buf = calloc(1, len);

	ck_assert_ptr_nonnull(buf);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_le(w[i].off + 4, len);
		le32_store(buf + w[i].off, w[i].val);
	}
	return buf;
}

static uint64_t fnv1a(const uint8_t *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* Build into a buffer of exactly f2fs_quota_file_size() bytes. */
static uint8_t *build(enum f2fs_quota_type type,
		      const struct f2fs_quota_usage *ids, size_t n, size_t *len)
{
	struct f2fs_error err;
	uint8_t *buf;
	int ret;

	*len = f2fs_quota_file_size(ids, n);
	ck_assert_uint_gt(*len, 0);
	ck_assert_uint_eq(*len % F2FS_QUOTA_BLKSIZE, 0);
	buf = malloc(*len);
	ck_assert_ptr_nonnull(buf);
	ret = f2fs_quota_file_build(type, ids, n, NULL, buf, *len, &err);
	ck_assert_msg(ret == 0, "build: %s", err.msg);
	return buf;
}

struct collect {
	struct f2fs_quota_usage *u;
	size_t n, cap;
};

static int collect_fn(const struct f2fs_quota_usage *u, void *arg)
{
	struct collect *c = arg;

	ck_assert_uint_lt(c->n, c->cap);
	c->u[c->n++] = *u;
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	uint32_t x = ((const struct f2fs_quota_usage *)a)->id;
	uint32_t y = ((const struct f2fs_quota_usage *)b)->id;

	return (x > y) - (x < y);
}

/* Build, walk back, and expect the same ids in ascending order. */
static void round_trip(enum f2fs_quota_type type,
		       const struct f2fs_quota_usage *ids, size_t n)
{
	struct collect c = { .u = calloc(n + 1, sizeof(*c.u)), .cap = n };
	struct f2fs_quota_usage *sorted = calloc(n + 1, sizeof(*sorted));
	enum f2fs_quota_type got = (enum f2fs_quota_type)-1;
	struct f2fs_error err;
	size_t len;
	uint8_t *buf = build(type, ids, n, &len);
	int ret;

	ck_assert_ptr_nonnull(c.u);
	ck_assert_ptr_nonnull(sorted);
	ret = f2fs_quota_file_walk(buf, len, &got, collect_fn, &c, &err);
	ck_assert_msg(ret == 0, "walk: %s", err.msg);
	ck_assert_int_eq(got, type);
	ck_assert_uint_eq(c.n, n);
	if (n)
		memcpy(sorted, ids, n * sizeof(*ids));
	qsort(sorted, n, sizeof(*sorted), cmp_id);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(c.u[i].id, sorted[i].id);
		ck_assert_uint_eq(c.u[i].inodes, sorted[i].inodes);
		ck_assert_uint_eq(c.u[i].space_bytes, sorted[i].space_bytes);
		ck_assert_mem_eq(&c.u[i].lim, &sorted[i].lim, sizeof(sorted[i].lim));
	}
	free(buf);
	free(sorted);
	free(c.u);
}

/* ---- byte-exact against f2fs-tools ------------------------------------ */

START_TEST(test_mkfs_reference)
{
	static const uint32_t magic[] = {
		F2FS_QUOTA_MAGIC_USR, F2FS_QUOTA_MAGIC_GRP, F2FS_QUOTA_MAGIC_PRJ,
	};
	struct f2fs_quota_usage root = { 0, 1, 4096 };
	enum f2fs_quota_type type = (enum f2fs_quota_type)_i;
	uint8_t *want = expand(ref_mkfs, NWORDS(ref_mkfs), 6144);
	size_t len;
	uint8_t *got = build(type, &root, 1, &len);

	le32_store(want, magic[_i]);   /* the files differ only in magic */
	ck_assert_uint_eq(len, 6144);
	ck_assert_mem_eq(got, want, len);
	free(got);
	free(want);
}
END_TEST

/* With lost+found, mkfs counts 2 inodes and 8192 bytes for the root owner. */
START_TEST(test_mkfs_lost_found)
{
	struct f2fs_quota_usage root = { 0, 2, 8192 };
	uint8_t *want = expand(ref_mkfs, NWORDS(ref_mkfs), 6144);
	size_t len;
	uint8_t *got = build(F2FS_QUOTA_USR, &root, 1, &len);

	le32_store(want + 0x1428, 2);
	le32_store(want + 0x1440, 8192);
	ck_assert_mem_eq(got, want, len);
	free(got);
	free(want);
}
END_TEST

/*
 * mkfs.f2fs -R 1000:1000 writes id 1000 under tree slots 0,0,0,0, where the
 * kernel never looks; f2fs-tools' fsck rewrites it under slots 0,0,3,0xe8,
 * which is the file expected here.
 */
START_TEST(test_root_owner_1000)
{
	struct f2fs_quota_usage root = { 1000, 1, 4096 };
	uint8_t *want = expand(ref_mkfs, NWORDS(ref_mkfs), 6144);
	size_t len;
	uint8_t *got = build(F2FS_QUOTA_USR, &root, 1, &len);

	le32_store(want + 0x0c00, 0);
	le32_store(want + 0x0c00 + 3 * 4, 4);
	le32_store(want + 0x1000, 0);
	le32_store(want + 0x1000 + 0xe8 * 4, 5);
	le32_store(want + 0x1410, 1000);
	ck_assert_mem_eq(got, want, len);
	free(got);
	free(want);
}
END_TEST

START_TEST(test_ids20_reference)
{
	size_t n = NWORDS(ids20), len;
	uint8_t *want = expand(ref_ids20, NWORDS(ref_ids20), 13312);
	uint8_t *got = build(F2FS_QUOTA_USR, ids20, n, &len);

	ck_assert_uint_eq(len, 13312);
	ck_assert_mem_eq(got, want, len);
	free(got);
	free(want);
}
END_TEST

/* 1000 files with uid 61*i, gid 7*i mod 3001 (i = 1..1000), root dir id 0. */
static void check_1001(enum f2fs_quota_type type, uint32_t mul, uint32_t mod,
		       size_t want_len, uint64_t want_hash)
{
	struct f2fs_quota_usage *ids = calloc(1001, sizeof(*ids));
	size_t len;
	uint8_t *got;

	ck_assert_ptr_nonnull(ids);
	ids[0] = (struct f2fs_quota_usage){ 0, 1, 24576 };
	for (uint32_t i = 1; i <= 1000; i++)
		ids[1001 - i] = (struct f2fs_quota_usage){ i * mul % mod, 1, 0 };
	got = build(type, ids, 1001, &len);
	ck_assert_uint_eq(len, want_len);
	ck_assert_uint_eq(fnv1a(got, len), want_hash);
	round_trip(type, ids, 1001);
	free(got);
	free(ids);
}

START_TEST(test_1001_reference)
{
	check_1001(F2FS_QUOTA_USR, 61, UINT32_MAX, 322560, 0x970b5f0c64641ec8ull);
	check_1001(F2FS_QUOTA_GRP, 7, 3001, 90112, 0xc3b91897eed755a5ull);
}
END_TEST

/* ---- building ---------------------------------------------------------- */

START_TEST(test_empty)
{
	round_trip(F2FS_QUOTA_PRJ, NULL, 0);
	ck_assert_uint_eq(f2fs_quota_file_size(NULL, 0), 2048);
}
END_TEST

/* An all-zero record would read as a free slot, so itime is set to 1. */
START_TEST(test_zero_usage_itime)
{
	struct f2fs_quota_usage z[] = { { 0, 0, 0 }, { 7, 0, 0 } };
	size_t len;
	uint8_t *buf = build(F2FS_QUOTA_GRP, z, 2, &len);
	const uint8_t *rec = buf + 5 * 1024 + 16;

	ck_assert_uint_eq(le64_load(rec + 64), 1);          /* id 0 */
	ck_assert_uint_eq(le64_load(rec + 72 + 64), 0);     /* id 7 */
	free(buf);
	round_trip(F2FS_QUOTA_GRP, z, 2);
}
END_TEST

/* Limits, deadlines and grace periods go in and come back (a repair that
 * rebuilds the file keeps them); an id with limits but no usage stays. */
START_TEST(test_limits_kept)
{
	static const struct f2fs_quota_usage ids[] = {
		{ 0, 10, 40960, { 100, 90, 4096, 2048, 0, 0 } },
		{ 1000, 0, 0, { 0, 0, 1024, 512, 1700000000, 0 } },
		{ 0, 0, 0, { 0 } },
	};
	const struct f2fs_quota_grace g = { 3600, 7200, 1 };
	struct f2fs_quota_grace back;
	struct f2fs_error err;
	size_t len = f2fs_quota_file_size(ids, 2);
	uint8_t *buf = malloc(len);

	ck_assert_int_eq(f2fs_quota_file_build(F2FS_QUOTA_USR, ids, 2, &g, buf, len, &err), 0);
	ck_assert_int_eq(f2fs_quota_file_grace(buf, len, &back, &err), 0);
	ck_assert_uint_eq(back.bgrace, 3600);
	ck_assert_uint_eq(back.igrace, 7200);
	ck_assert_uint_eq(back.flags, 1);
	free(buf);
	round_trip(F2FS_QUOTA_USR, ids, 2);
	/* the in-use mark of an all-zero record is not read back as a deadline */
	round_trip(F2FS_QUOTA_USR, ids + 2, 1);
}
END_TEST

/* Ids sharing tree blocks at every depth, and ids beyond 2^24. */
START_TEST(test_wide_ids)
{
	static const struct f2fs_quota_usage ids[] = {
		{ 0xffffffffu, 9, 1 }, { 0x01000000, 1, 2 }, { 0x01000001, 1, 3 },
		{ 0x01000100, 1, 4 }, { 0x01010000, 1, 5 }, { 0x80000000u, 1, 6 },
		{ 1, 2, 7 }, { 1000, 3, 8 }, { 0xfffffffeu, 4, 9 },
		{ 70000, 5, UINT64_MAX }, { 0, UINT64_MAX, 0 },
	};
	size_t n = NWORDS(ids);

	/* header, root, 4 + 6 + 8 tree blocks, one data block */
	ck_assert_uint_eq(f2fs_quota_file_size(ids, n), (2 + 18 + 1) * 1024);
	round_trip(F2FS_QUOTA_USR, ids, n);
}
END_TEST

/* Many ids: data blocks fill in turn and only the last stays on the list. */
START_TEST(test_many_ids)
{
	size_t n = 5000;
	struct f2fs_quota_usage *ids = calloc(n, sizeof(*ids));
	uint32_t x = 12345;

	ck_assert_ptr_nonnull(ids);
	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		ids[i] = (struct f2fs_quota_usage){ (uint32_t)i * 2654435761u,
						    x % 1000, x };
	}
	round_trip(F2FS_QUOTA_PRJ, ids, n);
	free(ids);
}
END_TEST

START_TEST(test_duplicate_id)
{
	static const struct f2fs_quota_usage ids[] = {
		{ 5, 1, 0 }, { 1000, 1, 0 }, { 5, 2, 0 },
	};
	struct f2fs_error err;
	size_t len = f2fs_quota_file_size(ids, 3);
	uint8_t *buf = malloc(len);

	ck_assert_int_eq(f2fs_quota_file_build(F2FS_QUOTA_USR, ids, 3, NULL, buf, len,
					       &err), -F2FS_E_BAD_OPTION);
	ck_assert_int_eq(err.code, -F2FS_E_BAD_OPTION);
	ck_assert_ptr_nonnull(strstr(err.msg, "5"));
	free(buf);
}
END_TEST

START_TEST(test_bad_arguments)
{
	struct f2fs_quota_usage u = { 0, 1, 4096 };
	uint8_t buf[6144];
	struct f2fs_error err;

	ck_assert_int_eq(f2fs_quota_file_build(F2FS_QUOTA_USR, &u, 1, NULL, buf,
					       sizeof(buf) - 1, &err),
			 -F2FS_E_NO_SPACE);
	ck_assert_int_eq(f2fs_quota_file_build((enum f2fs_quota_type)3, &u, 1, NULL,
					       buf, sizeof(buf), &err),
			 -F2FS_E_BAD_OPTION);
	ck_assert_int_eq(f2fs_quota_file_build(F2FS_QUOTA_USR, NULL, 1, NULL, buf,
					       sizeof(buf), &err), -EINVAL);
}
END_TEST

/* A larger buffer is accepted and its tail zeroed. */
START_TEST(test_padded_buffer)
{
	struct f2fs_quota_usage u = { 0, 1, 4096 };
	uint8_t buf[8192];
	uint8_t *want = expand(ref_mkfs, NWORDS(ref_mkfs), sizeof(buf));
	struct f2fs_error err;

	memset(buf, 0xa5, sizeof(buf));
	ck_assert_int_eq(f2fs_quota_file_build(F2FS_QUOTA_USR, &u, 1, NULL, buf,
					       sizeof(buf), &err), 0);
	ck_assert_mem_eq(buf, want, sizeof(buf));
	ck_assert_int_eq(f2fs_quota_file_walk(buf, sizeof(buf), NULL, NULL,
					      NULL, &err), 0);
	free(want);
}
END_TEST

/* ---- walking damaged files --------------------------------------------- */

static int walk(const uint8_t *buf, size_t len)
{
	struct f2fs_error err;
	int ret = f2fs_quota_file_walk(buf, len, NULL, NULL, NULL, &err);

	if (ret)
		ck_assert_int_eq(err.code, ret);
	return ret;
}

START_TEST(test_walk_truncated)
{
	size_t len;
	uint8_t *buf = build(F2FS_QUOTA_USR, ids20, NWORDS(ids20), &len);

	for (size_t cut = 0; cut < len; cut += 256) {
		uint8_t *copy = malloc(cut ? cut : 1);

		memcpy(copy, buf, cut);
		ck_assert_int_eq(walk(copy, cut), -F2FS_E_CORRUPT);
		free(copy);
	}
	ck_assert_int_eq(walk(NULL, 0), -F2FS_E_CORRUPT);
	free(buf);
}
END_TEST

static uint8_t *mkfs_file(void)
{
	return expand(ref_mkfs, NWORDS(ref_mkfs), 6144);
}

START_TEST(test_walk_bad_header)
{
	uint8_t *buf = mkfs_file();

	le32_store(buf, 0x12345678);
	ck_assert_int_eq(walk(buf, 6144), -F2FS_E_CORRUPT);
	le32_store(buf, F2FS_QUOTA_MAGIC_USR);
	le32_store(buf + 4, 0);
	ck_assert_int_eq(walk(buf, 6144), -F2FS_E_UNSUPPORTED);
	le32_store(buf + 4, 2);
	ck_assert_int_eq(walk(buf, 6144), -F2FS_E_CORRUPT);
	le32_store(buf + 4, 1);
	le32_store(buf + 0x14, 7);                    /* blocks beyond len */
	ck_assert_int_eq(walk(buf, 6144), -F2FS_E_CORRUPT);
	le32_store(buf + 0x14, 1);                    /* no room for a root */
	ck_assert_int_eq(walk(buf, 6144), -F2FS_E_CORRUPT);
	le32_store(buf + 0x14, 6);
	le32_store(buf + 0x1c, 6);                    /* free_entry too big */
	ck_assert_int_eq(walk(buf, 6144), -F2FS_E_CORRUPT);
	le32_store(buf + 0x1c, 4);                    /* a tree block */
	ck_assert_int_eq(walk(buf, 6144), -F2FS_E_CORRUPT);
	le32_store(buf + 0x1c, 5);
	ck_assert_int_eq(walk(buf, 6144), 0);
	free(buf);
}
END_TEST

START_TEST(test_walk_bad_tree)
{
	uint8_t *buf = mkfs_file();

	le32_store(buf + 0x400, 1);                   /* root points to itself */
	ck_assert_int_eq(walk(buf, 6144), -F2FS_E_CORRUPT);
	le32_store(buf + 0x400, 6);                   /* past the end */
	ck_assert_int_eq(walk(buf, 6144), -F2FS_E_CORRUPT);
	le32_store(buf + 0x400, 2);
	le32_store(buf + 0x1000, 3);                  /* data ref to a tree block */
	ck_assert_int_eq(walk(buf, 6144), -F2FS_E_CORRUPT);
	le32_store(buf + 0x1000, 5);
	le32_store(buf + 0x1408, 2);                  /* entry count mismatch */
	ck_assert_int_eq(walk(buf, 6144), -F2FS_E_CORRUPT);
	le32_store(buf + 0x1408, 1);
	le32_store(buf + 0x1410, 1000);               /* id not where its path leads */
	ck_assert_int_eq(walk(buf, 6144), -F2FS_E_CORRUPT);
	free(buf);
}
END_TEST

static int stop_fn(const struct f2fs_quota_usage *u, void *arg)
{
	(void)arg;
	return u->id == 1000 ? 42 : 0;
}

START_TEST(test_walk_stop)
{
	size_t len;
	uint8_t *buf = build(F2FS_QUOTA_USR, ids20, NWORDS(ids20), &len);
	struct f2fs_error err;

	ck_assert_int_eq(f2fs_quota_file_walk(buf, len, NULL, stop_fn, NULL,
					      &err), 42);
	free(buf);
}
END_TEST

/* Random damage must give 0 or an error, never an out-of-bounds read. */
START_TEST(test_walk_garbage)
{
	size_t len;
	uint8_t *good = build(F2FS_QUOTA_USR, ids20, NWORDS(ids20), &len);
	uint8_t *buf = malloc(len);
	uint32_t x = 1;

	for (int round = 0; round < 20000; round++) {
		int flips = 1 + round % 8;

		memcpy(buf, good, len);
		for (int i = 0; i < flips; i++) {
			x = x * 1664525u + 1013904223u;
			/* aim half the damage at the header and first tree blocks */
			size_t at = (x >> 8) % (x & 1 ? len : 0x1400);
			buf[at] = (uint8_t)(x >> 24);
		}
		ck_assert_int_le(walk(buf, len), 0);
	}
	for (int round = 0; round < 200; round++) {
		for (size_t i = 0; i < len; i++) {
			x = x * 1664525u + 1013904223u;
			buf[i] = (uint8_t)(x >> 24);
		}
		le32_store(buf, F2FS_QUOTA_MAGIC_GRP);
		le32_store(buf + 4, 1);
		le32_store(buf + 0x14, (uint32_t)(len / 1024));
		ck_assert_int_le(walk(buf, len), 0);
	}
	free(buf);
	free(good);
}
END_TEST

static Suite *quota_suite(void)
{
	Suite *s = suite_create("quota");
	TCase *ref = tcase_create("reference");
	TCase *bld = tcase_create("build");
	TCase *wlk = tcase_create("walk");

	tcase_add_loop_test(ref, test_mkfs_reference, 0, 3);
	tcase_add_test(ref, test_mkfs_lost_found);
	tcase_add_test(ref, test_root_owner_1000);
	tcase_add_test(ref, test_ids20_reference);
	tcase_add_test(ref, test_1001_reference);
	tcase_add_test(bld, test_empty);
	tcase_add_test(bld, test_zero_usage_itime);
	tcase_add_test(bld, test_wide_ids);
	tcase_add_test(bld, test_limits_kept);
	tcase_add_test(bld, test_many_ids);
	tcase_add_test(bld, test_duplicate_id);
	tcase_add_test(bld, test_bad_arguments);
	tcase_add_test(bld, test_padded_buffer);
	tcase_add_test(wlk, test_walk_truncated);
	tcase_add_test(wlk, test_walk_bad_header);
	tcase_add_test(wlk, test_walk_bad_tree);
	tcase_add_test(wlk, test_walk_stop);
	tcase_add_test(wlk, test_walk_garbage);
	tcase_set_timeout(wlk, 60);
	suite_add_tcase(s, ref);
	suite_add_tcase(s, bld);
	suite_add_tcase(s, wlk);
	return s;
}

int main(void)
{
	return unit_run(quota_suite());
}
