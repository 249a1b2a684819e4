/*
 * Block I/O on a temporary sparse image file: batched writes land in the
 * order they were issued, zeroing reports what it did, byte counts,
 * injected failures and the errors of open; a set of devices (a volume
 * over several) maps and splits its addresses.
 */
#include <check.h>

#include <f2fs/io/dev.h>
#include <f2fs/io/zones.h>
#include <f2fs/util/error.h>
#include <f2fs/format/format.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

#define BLK F2FS_BLKSIZE
#define NBLK 4096u   /* a 16 MiB image */

static char path[128];

static void tmp_path(const char *tag)
{
	const char *dir = getenv("TMPDIR");

	snprintf(path, sizeof(path), "%s/f2fs-dev-%s-%ld",
		 dir && strlen(dir) < 60 ? dir : "/tmp", tag, (long)getpid());
}

/* A sparse image of NBLK blocks. */
static void make_image(const char *tag)
{
	int fd;

	tmp_path(tag);
	fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)NBLK * BLK), 0);
	close(fd);
}

static struct f2fs_dev *open_dev(int flags)
{
	struct f2fs_dev *dev;
	struct f2fs_error err;

	memset(&err, 0, sizeof(err));
	ck_assert_msg(f2fs_dev_open(&dev, path, flags, &err) == 0, "open: %s", err.msg);
	ck_assert_ptr_nonnull(dev);
	return dev;
}

static void fill(uint8_t *b, size_t nblocks, uint8_t tag)
{
	for (size_t i = 0; i < nblocks * BLK; i++)
		b[i] = (uint8_t)(tag ^ (i * 7));
}

/* Read blocks straight from the file, around the library. */
static void raw_read(uint64_t blk, void *buf, size_t nblocks)
{
	int fd = open(path, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, buf, nblocks * BLK, (off_t)(blk * BLK)),
			 (ssize_t)(nblocks * BLK));
	close(fd);
}

static int is_zero(const uint8_t *b, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (b[i])
			return 0;
	return 1;
}

static void teardown(void)
{
	if (path[0])
		unlink(path);
}

START_TEST(test_open_info)
{
	struct f2fs_dev *dev;

	make_image("info");
	dev = open_dev(F2FS_DEV_RDWR | F2FS_DEV_EXCL);
	ck_assert_str_eq(f2fs_dev_path(dev), path);
	ck_assert_uint_eq(f2fs_dev_bytes(dev), (uint64_t)NBLK * BLK);
	ck_assert_uint_eq(f2fs_dev_sector_size(dev), 512);
	ck_assert(!f2fs_dev_is_blockdev(dev));
	ck_assert_uint_eq(f2fs_dev_start_sector(dev), 0);
	ck_assert_uint_eq(f2fs_dev_zone_bytes(dev), 0);
	ck_assert_uint_eq(f2fs_dev_bytes_written(dev), 0);
	f2fs_dev_close(dev);
}
END_TEST

START_TEST(test_write_read)
{
	struct f2fs_dev *dev;
	struct f2fs_error err;
	uint8_t *a = malloc(8 * BLK), *b = malloc(8 * BLK), *r = malloc(8 * BLK);

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(r);
	make_image("rw");
	dev = open_dev(F2FS_DEV_RDWR);
	fill(a, 8, 0x11);
	fill(b, 8, 0x22);
	/* out of order and not contiguous */
	ck_assert_int_eq(f2fs_dev_write(dev, 100, a, 3, &err), 0);
	ck_assert_int_eq(f2fs_dev_write(dev, 10, b, 2, &err), 0);
	ck_assert_int_eq(f2fs_dev_write(dev, 103, b, 1, &err), 0);   /* joins 100..102 */
	ck_assert_int_eq(f2fs_dev_write(dev, NBLK - 1, a, 1, &err), 0);
	/* a read sees the queued writes */
	ck_assert_int_eq(f2fs_dev_read(dev, 100, r, 4, &err), 0);
	ck_assert_mem_eq(r, a, 3 * BLK);
	ck_assert_mem_eq(r + 3 * BLK, b, BLK);
	ck_assert_int_eq(f2fs_dev_read(dev, 10, r, 2, &err), 0);
	ck_assert_mem_eq(r, b, 2 * BLK);
	ck_assert_int_eq(f2fs_dev_flush(dev, &err), 0);
	ck_assert_uint_eq(f2fs_dev_bytes_written(dev), 7 * BLK);
	/* the bytes are in the file, and the gaps are zero */
	raw_read(NBLK - 1, r, 1);
	ck_assert_mem_eq(r, a, BLK);
	for (uint64_t blk = 12; blk < 100; blk += 8) {
		raw_read(blk, r, 8);
		ck_assert(is_zero(r, 8 * BLK));
	}
	raw_read(9, r, 1);
	ck_assert(is_zero(r, BLK));
	f2fs_dev_close(dev);
	free(a);
	free(b);
	free(r);
}
END_TEST

START_TEST(test_last_write_wins)
{
	struct f2fs_dev *dev;
	struct f2fs_error err;
	uint8_t *a = malloc(4 * BLK), *b = malloc(4 * BLK), *c = malloc(4 * BLK);
	uint8_t *r = malloc(6 * BLK);

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(r);
	make_image("lww");
	dev = open_dev(F2FS_DEV_RDWR);
	fill(a, 4, 0xA0);
	fill(b, 4, 0xB0);
	fill(c, 4, 0xC0);
	/* 200..203 = a, then 202..205 = b over half of it, then 201 = c */
	ck_assert_int_eq(f2fs_dev_write(dev, 200, a, 4, &err), 0);
	ck_assert_int_eq(f2fs_dev_write(dev, 202, b, 4, &err), 0);
	ck_assert_int_eq(f2fs_dev_write(dev, 201, c, 1, &err), 0);
	/* and the same block three times */
	ck_assert_int_eq(f2fs_dev_write(dev, 50, a, 1, &err), 0);
	ck_assert_int_eq(f2fs_dev_write(dev, 50, b, 1, &err), 0);
	ck_assert_int_eq(f2fs_dev_write(dev, 50, c + BLK, 1, &err), 0);
	/* a later write at a lower address overlapping an earlier one:
	 * sorting by address alone would let the earlier write win */
	ck_assert_int_eq(f2fs_dev_write(dev, 302, a, 4, &err), 0);
	ck_assert_int_eq(f2fs_dev_write(dev, 300, b, 3, &err), 0);
	ck_assert_int_eq(f2fs_dev_flush(dev, &err), 0);
	raw_read(300, r, 6);
	ck_assert_mem_eq(r, b, 3 * BLK);
	ck_assert_mem_eq(r + 3 * BLK, a + BLK, 3 * BLK);
	raw_read(200, r, 6);
	ck_assert_mem_eq(r, a, BLK);
	ck_assert_mem_eq(r + BLK, c, BLK);
	ck_assert_mem_eq(r + 2 * BLK, b, 4 * BLK);
	raw_read(50, r, 1);
	ck_assert_mem_eq(r, c + BLK, BLK);
	f2fs_dev_close(dev);
	free(a);
	free(b);
	free(c);
	free(r);
}
END_TEST

START_TEST(test_many_writes)
{
	/* more than the queue holds (8 MiB): automatic flushes keep order */
	struct f2fs_dev *dev;
	struct f2fs_error err;
	uint8_t blk[BLK], r[BLK];

	make_image("many");
	dev = open_dev(F2FS_DEV_RDWR);
	for (uint32_t round = 0; round < 2; round++)
		for (uint32_t i = 0; i < 3000; i++) {
			uint32_t at = (i * 7919u) % 3000u;

			memset(blk, 0, sizeof(blk));
			memcpy(blk, &at, sizeof(at));
			memcpy(blk + 8, &round, sizeof(round));
			ck_assert_int_eq(f2fs_dev_write(dev, at, blk, 1, &err), 0);
		}
	ck_assert_int_eq(f2fs_dev_flush(dev, &err), 0);
	ck_assert_uint_eq(f2fs_dev_bytes_written(dev), 6000ull * BLK);
	for (uint32_t at = 0; at < 3000; at += 97) {
		uint32_t got, round;

		raw_read(at, r, 1);
		memcpy(&got, r, 4);
		memcpy(&round, r + 8, 4);
		ck_assert_uint_eq(got, at);
		ck_assert_uint_eq(round, 1);
	}
	f2fs_dev_close(dev);
}
END_TEST

START_TEST(test_close_flushes)
{
	struct f2fs_dev *dev;
	struct f2fs_error err;
	uint8_t blk[BLK], r[BLK];

	make_image("close");
	dev = open_dev(F2FS_DEV_RDWR);
	fill(blk, 1, 0x5C);
	ck_assert_int_eq(f2fs_dev_write(dev, 7, blk, 1, &err), 0);
	f2fs_dev_close(dev);
	raw_read(7, r, 1);
	ck_assert_mem_eq(r, blk, BLK);
}
END_TEST

START_TEST(test_write_bounds)
{
	struct f2fs_dev *dev;
	struct f2fs_error err;
	uint8_t blk[2 * BLK] = { 0 };

	make_image("bounds");
	dev = open_dev(F2FS_DEV_RDWR);
	ck_assert_int_eq(f2fs_dev_write(dev, NBLK, blk, 1, &err), -ENOSPC);
	ck_assert_ptr_nonnull(strstr(err.msg, path));
	ck_assert_int_eq(f2fs_dev_write(dev, NBLK - 1, blk, 2, &err), -ENOSPC);
	/* reading past the end is a short read */
	ck_assert_int_eq(f2fs_dev_read(dev, NBLK, blk, 1, &err), -F2FS_E_SHORT_IO);
	/* growing the file makes room */
	ck_assert_int_eq(f2fs_dev_grow(dev, (uint64_t)(NBLK + 2) * BLK, &err), 0);
	ck_assert_uint_eq(f2fs_dev_bytes(dev), (uint64_t)(NBLK + 2) * BLK);
	ck_assert_int_eq(f2fs_dev_write(dev, NBLK, blk, 2, &err), 0);
	/* growing never shrinks */
	ck_assert_int_eq(f2fs_dev_grow(dev, BLK, &err), 0);
	ck_assert_uint_eq(f2fs_dev_bytes(dev), (uint64_t)(NBLK + 2) * BLK);
	f2fs_dev_close(dev);
	{
		struct stat st;

		ck_assert_int_eq(stat(path, &st), 0);
		ck_assert_int_eq(st.st_size, (off_t)(NBLK + 2) * BLK);
	}
}
END_TEST

START_TEST(test_pread)
{
	struct f2fs_dev *dev;
	struct f2fs_error err;
	uint8_t blk[BLK], r[16];

	make_image("pread");
	dev = open_dev(F2FS_DEV_RDWR);
	fill(blk, 1, 0x3D);
	ck_assert_int_eq(f2fs_dev_write(dev, 1, blk, 1, &err), 0);
	ck_assert_int_eq(f2fs_dev_flush(dev, &err), 0);
	ck_assert_int_eq(f2fs_dev_pread(dev, BLK + 1024, r, sizeof(r), &err), 0);
	ck_assert_mem_eq(r, blk + 1024, sizeof(r));
	ck_assert_int_eq(f2fs_dev_pread(dev, (uint64_t)NBLK * BLK - 8, r, 16, &err),
			 -F2FS_E_SHORT_IO);
	f2fs_dev_close(dev);
}
END_TEST

START_TEST(test_zero)
{
	struct f2fs_dev *dev;
	struct f2fs_error err;
	enum f2fs_zero_how how;
	uint8_t *d = malloc(16 * BLK), *r = malloc(16 * BLK);
	uint64_t before;

	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(r);
	make_image("zero");
	dev = open_dev(F2FS_DEV_RDWR);
	/* a hole needs nothing */
	how = F2FS_ZERO_WRITTEN;
	ck_assert_int_eq(f2fs_dev_zero(dev, 1024, 256, &how, &err), 0);
	ck_assert_int_eq(how, F2FS_ZERO_SKIPPED);
	ck_assert_uint_eq(f2fs_dev_bytes_written(dev), 0);
	/* beyond the end of the file neither */
	how = F2FS_ZERO_WRITTEN;
	ck_assert_int_eq(f2fs_dev_zero(dev, NBLK + 10, 4, &how, &err), 0);
	ck_assert_int_eq(how, F2FS_ZERO_SKIPPED);
	/* data is punched out (the write is still queued: it must land first) */
	fill(d, 16, 0x77);
	ck_assert_int_eq(f2fs_dev_write(dev, 2000, d, 16, &err), 0);
	before = f2fs_dev_bytes_written(dev);
	ck_assert_int_eq(f2fs_dev_zero(dev, 2004, 8, &how, &err), 0);
	ck_assert_int_eq(how, F2FS_ZERO_PUNCHED);
	ck_assert_uint_eq(f2fs_dev_bytes_written(dev), before + 16 * BLK);
	ck_assert_int_eq(f2fs_dev_read(dev, 2000, r, 16, &err), 0);
	ck_assert_mem_eq(r, d, 4 * BLK);
	ck_assert(is_zero(r + 4 * BLK, 8 * BLK));
	ck_assert_mem_eq(r + 12 * BLK, d + 12 * BLK, 4 * BLK);
	raw_read(2004, r, 8);
	ck_assert(is_zero(r, 8 * BLK));
	/* zeroing it again finds the hole */
	ck_assert_int_eq(f2fs_dev_zero(dev, 2004, 8, &how, &err), 0);
	ck_assert_int_eq(how, F2FS_ZERO_SKIPPED);
	/* a range that only partly holds data is punched */
	ck_assert_int_eq(f2fs_dev_zero(dev, 1990, 11, &how, &err), 0);
	ck_assert_int_eq(how, F2FS_ZERO_PUNCHED);
	raw_read(2000, r, 1);
	ck_assert(is_zero(r, BLK));
	raw_read(2001, r, 1);
	ck_assert_mem_eq(r, d + BLK, BLK);
	/* zero blocks: nothing at all */
	how = F2FS_ZERO_PUNCHED;
	ck_assert_int_eq(f2fs_dev_zero(dev, 0, 0, &how, &err), 0);
	ck_assert_int_eq(how, F2FS_ZERO_SKIPPED);
	/* how may be NULL */
	ck_assert_int_eq(f2fs_dev_zero(dev, 2012, 4, NULL, &err), 0);
	raw_read(2012, r, 4);
	ck_assert(is_zero(r, 4 * BLK));
	f2fs_dev_close(dev);
	free(d);
	free(r);
}
END_TEST

START_TEST(test_discard_all)
{
	struct f2fs_dev *dev;
	struct f2fs_error err;
	uint8_t blk[BLK], r[BLK];
	struct stat st;

	make_image("discard");
	dev = open_dev(F2FS_DEV_RDWR);
	fill(blk, 1, 0x42);
	ck_assert_int_eq(f2fs_dev_write(dev, 5, blk, 1, &err), 0);
	ck_assert_int_eq(f2fs_dev_write(dev, NBLK - 1, blk, 1, &err), 0);
	ck_assert_int_eq(f2fs_dev_discard_all(dev, &err), 1);
	raw_read(5, r, 1);
	ck_assert(is_zero(r, BLK));
	raw_read(NBLK - 1, r, 1);
	ck_assert(is_zero(r, BLK));
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_size, (off_t)NBLK * BLK);   /* size kept */
	f2fs_dev_close(dev);
}
END_TEST

START_TEST(test_fail_after)
{
	struct f2fs_dev *dev;
	struct f2fs_error err;
	uint8_t *d = malloc(8 * BLK), r[BLK];
	int ret;

	ck_assert_ptr_nonnull(d);
	make_image("fail");
	dev = open_dev(F2FS_DEV_RDWR);
	fill(d, 8, 0x99);
	f2fs_dev_fail_after(dev, 3);
	/* queued writes succeed; the failure shows when they are written */
	ck_assert_int_eq(f2fs_dev_write(dev, 10, d, 2, &err), 0);
	ck_assert_int_eq(f2fs_dev_flush(dev, &err), 0);   /* 2 of 3 used */
	ck_assert_int_eq(f2fs_dev_write(dev, 20, d, 2, &err), 0);
	memset(&err, 0, sizeof(err));
	ret = f2fs_dev_flush(dev, &err);
	ck_assert_int_eq(ret, -EIO);
	ck_assert_int_eq(err.code, -EIO);
	ck_assert_ptr_nonnull(strstr(err.msg, "injected"));
	/* every later write fails too */
	ck_assert_int_eq(f2fs_dev_write(dev, 30, d, 1, &err), 0);
	ck_assert_int_eq(f2fs_dev_flush(dev, &err), -EIO);
	/* a read-back sees only the blocks written before the failure: the
	 * budget's last block went out, the one after it did not */
	raw_read(10, r, 1);
	ck_assert_mem_eq(r, d, BLK);
	raw_read(20, r, 1);
	ck_assert_mem_eq(r, d, BLK);
	raw_read(21, r, 1);
	ck_assert(is_zero(r, BLK));
	raw_read(30, r, 1);
	ck_assert(is_zero(r, BLK));
	/* -1 turns it off */
	f2fs_dev_fail_after(dev, -1);
	ck_assert_int_eq(f2fs_dev_write(dev, 40, d, 1, &err), 0);
	ck_assert_int_eq(f2fs_dev_flush(dev, &err), 0);
	raw_read(40, r, 1);
	ck_assert_mem_eq(r, d, BLK);
	f2fs_dev_close(dev);
	free(d);
}
END_TEST

START_TEST(test_fail_after_zero_budget)
{
	struct f2fs_dev *dev;
	struct f2fs_error err;
	uint8_t d[BLK];

	make_image("fail0");
	dev = open_dev(F2FS_DEV_RDWR);
	memset(d, 1, sizeof(d));
	f2fs_dev_fail_after(dev, 0);
	ck_assert_int_eq(f2fs_dev_write(dev, 0, d, 1, &err), 0);
	ck_assert_int_eq(f2fs_dev_read(dev, 0, d, 1, &err), -EIO);
	ck_assert_uint_eq(f2fs_dev_bytes_written(dev), 0);
	f2fs_dev_close(dev);
}
END_TEST

START_TEST(test_open_missing)
{
	struct f2fs_dev *dev = (struct f2fs_dev *)&dev;   /* must be reset */
	struct f2fs_error err;

	tmp_path("missing");
	unlink(path);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(f2fs_dev_open(&dev, path, F2FS_DEV_RDWR, &err), -ENOENT);
	ck_assert_ptr_null(dev);
	ck_assert_int_eq(err.code, -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, path));
	ck_assert_int_eq(f2fs_dev_open(&dev, path, F2FS_DEV_RDONLY, &err), -ENOENT);
	ck_assert_int_eq(access(path, F_OK), -1);   /* nothing created */

	/* with CREATE it appears, empty */
	ck_assert_int_eq(f2fs_dev_open(&dev, path, F2FS_DEV_RDWR | F2FS_DEV_CREATE, &err), 0);
	ck_assert_uint_eq(f2fs_dev_bytes(dev), 0);
	ck_assert_int_eq(f2fs_dev_grow(dev, 8 * BLK, &err), 0);
	f2fs_dev_close(dev);
	{
		struct stat st;

		ck_assert_int_eq(stat(path, &st), 0);
		ck_assert_int_eq(st.st_size, 8 * BLK);
	}
}
END_TEST

START_TEST(test_open_not_a_file)
{
	struct f2fs_dev *dev;
	struct f2fs_error err;

	memset(&err, 0, sizeof(err));
	ck_assert_int_lt(f2fs_dev_open(&dev, "/", F2FS_DEV_RDONLY, &err), 0);
	ck_assert_ptr_null(dev);
	ck_assert_ptr_nonnull(strstr(err.msg, "/"));
	ck_assert_int_lt(f2fs_dev_open(&dev, "/dev/null", F2FS_DEV_RDONLY, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "/dev/null"));
}
END_TEST

START_TEST(test_read_only)
{
	struct f2fs_dev *dev;
	struct f2fs_error err;
	uint8_t blk[BLK], r[BLK];
	enum f2fs_zero_how how;

	make_image("ro");
	dev = open_dev(F2FS_DEV_RDWR);
	fill(blk, 1, 0x31);
	ck_assert_int_eq(f2fs_dev_write(dev, 3, blk, 1, &err), 0);
	f2fs_dev_close(dev);

	dev = open_dev(F2FS_DEV_RDONLY);
	memset(&err, 0, sizeof(err));
	ck_assert_int_lt(f2fs_dev_write(dev, 3, r, 1, &err), 0);
	ck_assert_int_eq(err.code, -EBADF);
	ck_assert_ptr_nonnull(strstr(err.msg, "read-only"));
	ck_assert_int_eq(f2fs_dev_flush(dev, &err), 0);
	ck_assert_int_eq(f2fs_dev_read(dev, 3, r, 1, &err), 0);
	ck_assert_mem_eq(r, blk, BLK);
	/* zeroing refuses too and the data survives */
	ck_assert_int_lt(f2fs_dev_zero(dev, 3, 1, &how, &err), 0);
	f2fs_dev_close(dev);
	raw_read(3, r, 1);
	ck_assert_mem_eq(r, blk, BLK);
}
END_TEST

/* A file has no zones: an empty report, not an error (mkfs -m and fsck
 * decide what that means); a device's zones are looked up by sector. */
START_TEST(test_zones_of_a_file)
{
	struct f2fs_dev *dev;
	struct f2fs_zones zs;
	struct f2fs_error err;

	make_image("zones");
	dev = open_dev(F2FS_DEV_RDONLY);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(f2fs_zones_report(dev, &zs, &err), 0);
	ck_assert_uint_eq(zs.count, 0);
	ck_assert_ptr_null(f2fs_zones_find(&zs, 0));
	f2fs_zones_free(&zs);
	f2fs_dev_close(dev);
}
END_TEST

START_TEST(test_zones_find)
{
	struct f2fs_zone z[3] = {
		{ .start = 0, .len = 128, .capacity = 128, .type = F2FS_ZONE_CONVENTIONAL },
		{ .start = 128, .len = 128, .capacity = 128, .wp = 130,
		  .type = F2FS_ZONE_SEQ_REQUIRED, .cond = F2FS_ZONE_IMP_OPEN },
		{ .start = 256, .len = 64, .capacity = 64, .wp = 256,
		  .type = F2FS_ZONE_SEQ_REQUIRED, .cond = F2FS_ZONE_EMPTY },
	};
	struct f2fs_zones zs = { z, 3, 128 };

	ck_assert_ptr_eq(f2fs_zones_find(&zs, 0), &z[0]);
	ck_assert_ptr_eq(f2fs_zones_find(&zs, 255), &z[1]);
	ck_assert_ptr_eq(f2fs_zones_find(&zs, 300), &z[2]);   /* a smaller last zone */
	ck_assert_ptr_null(f2fs_zones_find(&zs, 320));
	ck_assert(!f2fs_zone_is_seq_required(&z[0]));
	ck_assert(f2fs_zone_is_seq_required(&z[1]));
	ck_assert_str_eq(f2fs_zone_type_name(z[1].type), "seq-required");
	ck_assert_str_eq(f2fs_zone_cond_name(z[1].cond), "open-implicit");
	ck_assert_str_eq(f2fs_zone_cond_name(0x7), "unknown");
}
END_TEST

START_TEST(test_error_names)
{
	ck_assert_str_ne(f2fs_strerror(-F2FS_E_BAD_OPTION), "");
	ck_assert_str_ne(f2fs_strerror(-F2FS_E_TOO_SMALL), f2fs_strerror(-F2FS_E_TOO_LARGE));
	ck_assert_str_eq(f2fs_strerror(-ENOENT), strerror(ENOENT));
}
END_TEST


/*
 * A set of three images, the table giving them 100, 50 and 200 blocks (the
 * last one's file is larger): addresses map to (member, offset); reads and
 * writes across a boundary land on both members; a read failure injected
 * at a volume address fails on the member that holds it; byte counts add up.
 */
static char set_paths[3][160];

static void set_teardown(void)
{
	for (int i = 0; i < 3; i++)
		if (set_paths[i][0])
			unlink(set_paths[i]);
}

START_TEST(test_set)
{
	static const uint64_t blocks[3] = { 100, 50, 200 };
	struct f2fs_dev *m[3], *set;
	struct f2fs_dev_member info;
	struct f2fs_error err;
	uint64_t off;
	uint8_t *a = malloc(8 * BLK), *r = malloc(8 * BLK);

	for (int i = 0; i < 3; i++) {
		char tag[16];

		snprintf(tag, sizeof(tag), "set%d", i);
		make_image(tag);
		snprintf(set_paths[i], sizeof(set_paths[i]), "%s", path);
		path[0] = '\0';
		ck_assert_int_eq(f2fs_dev_open(&m[i], set_paths[i], F2FS_DEV_RDWR, &err), 0);
	}
	ck_assert_int_eq(f2fs_dev_set_join(&set, m, blocks, 3, &err), 0);
	ck_assert_uint_eq(f2fs_dev_nmembers(set), 3);
	ck_assert_uint_eq(f2fs_dev_bytes(set), 3ull * NBLK * BLK);
	ck_assert_uint_eq(f2fs_dev_map(set, 99, &off), 0);
	ck_assert_uint_eq(off, 99);
	ck_assert_uint_eq(f2fs_dev_map(set, 100, &off), 1);
	ck_assert_uint_eq(off, 0);
	ck_assert_uint_eq(f2fs_dev_map(set, 150, &off), 2);
	ck_assert_uint_eq(off, 0);
	ck_assert_uint_eq(f2fs_dev_map(set, 400, &off), 2);   /* past the table: the last one */
	ck_assert_uint_eq(off, 250);
	f2fs_dev_member(set, 1, &info);
	ck_assert_str_eq(info.path, set_paths[1]);
	ck_assert_uint_eq(info.start, 100);
	ck_assert_uint_eq(info.blocks, 50);
	ck_assert_int_ge(info.fd, 0);

	/* 8 blocks over blocks 146..153: 4 on member 1, 4 on member 2 */
	fill(a, 8, 7);
	ck_assert_int_eq(f2fs_dev_write(set, 146, a, 8, &err), 0);
	ck_assert_int_eq(f2fs_dev_flush(set, &err), 0);
	ck_assert_uint_eq(f2fs_dev_bytes_written(set), 8 * BLK);
	ck_assert_int_eq(f2fs_dev_read(set, 146, r, 8, &err), 0);
	ck_assert_mem_eq(r, a, 8 * BLK);
	ck_assert_int_eq(f2fs_dev_read(m[1], 46, r, 4, &err), 0);
	ck_assert_mem_eq(r, a, 4 * BLK);
	ck_assert_int_eq(f2fs_dev_read(m[2], 0, r, 4, &err), 0);
	ck_assert_mem_eq(r, a + 4 * BLK, 4 * BLK);
	/* bytes across the boundary */
	ck_assert_int_eq(f2fs_dev_pread(set, 150ull * BLK - 10, r, 20, &err), 0);
	ck_assert_mem_eq(r, a + 4 * BLK - 10, 20);

	f2fs_dev_fail_read(set, 150, 1);
	ck_assert_int_eq(f2fs_dev_read(set, 149, r, 1, &err), 0);
	ck_assert_int_eq(f2fs_dev_read(set, 148, r, 4, &err), -EIO);
	ck_assert_msg(strstr(err.msg, set_paths[2]) != NULL, "%s", err.msg);
	f2fs_dev_fail_read(set, 0, 0);
	ck_assert_int_eq(f2fs_dev_read(set, 148, r, 4, &err), 0);
	f2fs_dev_close(set);
	free(a);
	free(r);
}
END_TEST

static Suite *dev_suite(void)
{
	Suite *s = suite_create("dev");
	TCase *io = tcase_create("io");
	TCase *op = tcase_create("open");
	TCase *set = tcase_create("set");

	tcase_add_checked_fixture(io, NULL, teardown);
	tcase_add_checked_fixture(op, NULL, teardown);
	tcase_add_test(io, test_open_info);
	tcase_add_test(io, test_write_read);
	tcase_add_test(io, test_last_write_wins);
	tcase_add_test(io, test_many_writes);
	tcase_add_test(io, test_close_flushes);
	tcase_add_test(io, test_write_bounds);
	tcase_add_test(io, test_pread);
	tcase_add_test(io, test_zero);
	tcase_add_test(io, test_discard_all);
	tcase_add_test(io, test_fail_after);
	tcase_add_test(io, test_fail_after_zero_budget);
	tcase_add_test(op, test_open_missing);
	tcase_add_test(op, test_open_not_a_file);
	tcase_add_test(op, test_read_only);
	tcase_add_test(op, test_error_names);
	tcase_add_test(op, test_zones_of_a_file);
	tcase_add_test(op, test_zones_find);
	tcase_set_timeout(io, 30);
	tcase_add_checked_fixture(set, NULL, set_teardown);
	tcase_add_test(set, test_set);
	suite_add_tcase(s, io);
	suite_add_tcase(s, set);
	suite_add_tcase(s, op);
	return s;
}

int main(void)
{
	return unit_run(dev_suite());
}
