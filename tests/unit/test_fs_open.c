/*
 * f2fs_fs_open is all or nothing: a checkpoint whose version bitmap sizes
 * (or CRC place) do not fit the superblock makes it fail with a corruption
 * code and a message, leaves *out NULL, and reads nothing out of bounds
 * (run under the sanitizer build to see the last part); the same image
 * opens again once the checkpoint is put back. The checkpoint is resealed
 * each time, so that only the sizes are wrong.
 */
#include <check.h>

#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/fs/fs.h>
#include <f2fs/build/mkfs.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#define BLK F2FS_BLKSIZE

static char path[160];
static uint32_t cp_start, cp_total;
static uint8_t cp_orig[BLK];

static void setup(void)
{
	const char *dir = getenv("TMPDIR");
	struct f2fs_mkfs_options o;
	struct f2fs_mkfs_report rep;
	struct f2fs_error err = { 0 };
	struct f2fs_fs *fs;

	snprintf(path, sizeof(path), "%s/f2fs-open-%ld",
		 dir && strlen(dir) < 80 ? dir : "/tmp", (long)getpid());
	unit_sparse_file(path, 256 << 20);
	unit_mkfs_opts(&o, path);
	ck_assert_msg(f2fs_mkfs(&o, &rep, &err) == 0, "mkfs: %s", err.msg);
	ck_assert_int_eq(f2fs_fs_open(&fs, path, &err), 0);
	cp_start = f2fs_fs_cp_start(fs);
	memcpy(cp_orig, f2fs_fs_cp(fs), BLK);
	cp_total = le32_get(((const struct f2fs_checkpoint *)cp_orig)->cp_pack_total_block_count);
	f2fs_fs_close(fs);
}

static void teardown(void)
{
	unlink(path);
}

/* Store blk as header and footer of the pack in use. */
static void put_cp(const uint8_t *blk)
{
	int fd = open(path, O_RDWR);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, blk, BLK, (off_t)cp_start * BLK), BLK);
	ck_assert_int_eq(pwrite(fd, blk, BLK, (off_t)(cp_start + cp_total - 1) * BLK), BLK);
	close(fd);
}

/* Open must fail cleanly with the checkpoint edited as given. */
static void expect_refused(uint32_t sit_bytes, uint32_t nat_bytes, uint32_t csum_off)
{
	uint8_t blk[BLK];
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)blk;
	struct f2fs_fs *fs = (struct f2fs_fs *)(uintptr_t)1;   /* must become NULL */
	struct f2fs_error err = { 0 };
	int ret;

	memcpy(blk, cp_orig, BLK);
	cp->sit_ver_bitmap_bytesize = le32_put(sit_bytes);
	cp->nat_ver_bitmap_bytesize = le32_put(nat_bytes);
	cp->checksum_offset = le32_put(csum_off);
	f2fs_cp_seal(blk);
	put_cp(blk);
	ret = f2fs_fs_open(&fs, path, &err);
	ck_assert_int_eq(ret, -F2FS_E_CORRUPT);
	ck_assert_ptr_null(fs);
	ck_assert_int_eq(err.code, ret);
	ck_assert_msg(strstr(err.msg, "bitmap") != NULL, "message: %s", err.msg);
	/* nothing of the failed open lingers: the good checkpoint opens */
	put_cp(cp_orig);
	ck_assert_int_eq(f2fs_fs_open(&fs, path, &err), 0);
	ck_assert_ptr_nonnull(fs);
	f2fs_fs_close(fs);
}

START_TEST(test_bad_bitmap_sizes)
{
	const struct f2fs_checkpoint *cp = (const struct f2fs_checkpoint *)cp_orig;
	uint32_t sit = le32_get(cp->sit_ver_bitmap_bytesize);
	uint32_t nat = le32_get(cp->nat_ver_bitmap_bytesize);
	uint32_t csum = le32_get(cp->checksum_offset);

	expect_refused(0, nat, csum);
	expect_refused(sit + 1, nat, csum);
	expect_refused(sit, nat - 1, csum);
	expect_refused(sit, 0xFFFFFFFFu, csum);
	expect_refused(0xFFFFFFF0u, 0xFFFFFFF0u, csum);
	expect_refused(sit, 2 * nat, csum);
}
END_TEST

START_TEST(test_bitmaps_over_crc)
{
	const struct f2fs_checkpoint *cp = (const struct f2fs_checkpoint *)cp_orig;

	/* sizes right, but the CRC sits where the bitmaps are */
	expect_refused(le32_get(cp->sit_ver_bitmap_bytesize),
		       le32_get(cp->nat_ver_bitmap_bytesize), F2FS_CP_BITMAP_OFFSET);
}
END_TEST

static Suite *fs_open_suite(void)
{
	Suite *s = suite_create("fs_open");
	TCase *tc = tcase_create("bitmaps");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_bad_bitmap_sizes);
	tcase_add_test(tc, test_bitmaps_over_crc);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(fs_open_suite());
}
