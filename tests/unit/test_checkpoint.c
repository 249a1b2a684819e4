/*
 * Checkpoint blocks: sealing and verifying the CRC in both checksum forms,
 * where the version bitmaps live, and the choice between the two packs of
 * an image (read from a temporary file).
 */
#include <check.h>

#include <f2fs/fs/meta_read.h>
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/crc.h>
#include <f2fs/io/dev.h>
#include <f2fs/format/endian.h>
#include <f2fs/util/error.h>
#include <f2fs/format/format.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

static void fill_random(void *buf, size_t len, uint32_t seed)
{
	uint8_t *p = buf;

	for (size_t i = 0; i < len; i++) {
		seed = seed * 1664525u + 1013904223u;
		p[i] = (uint8_t)(seed >> 24);
	}
}

/* Bitwise F2FS CRC: the reference for what seal must store. */
static uint32_t ref_crc(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
	}
	return crc;
}

static void cp_init(uint8_t *b, uint64_t ver, uint32_t csum_off, uint32_t flags, uint32_t seed)
{
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)b;

	fill_random(b, F2FS_BLKSIZE, seed);
	cp->checkpoint_ver = le64_put(ver);
	cp->checksum_offset = le32_put(csum_off);
	cp->ckpt_flags = le32_put(flags);
}

/* ---- seal / verify ------------------------------------------------------ */

START_TEST(test_seal_4092)
{
	uint8_t b[F2FS_BLKSIZE];
	struct f2fs_error err;

	cp_init(b, 0x3837B7FDull, 4092, 0x185, 1);
	f2fs_cp_seal(b);
	ck_assert_uint_eq(le32_load(b + 4092), ref_crc(F2FS_SUPER_MAGIC, b, 4092));
	ck_assert_uint_eq(f2fs_cp_stored_crc(b), le32_load(b + 4092));
	ck_assert_int_eq(f2fs_cp_verify(b, 512, &err), 0);

	/* any change to a covered byte is caught, with the block named */
	b[100] ^= 4;
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(f2fs_cp_verify(b, 512, &err), -F2FS_E_BAD_CHECKSUM);
	ck_assert_int_eq(err.code, -F2FS_E_BAD_CHECKSUM);
	ck_assert_ptr_nonnull(strstr(err.msg, "512"));
	b[100] ^= 4;
	ck_assert_int_eq(f2fs_cp_verify(b, 512, &err), 0);
	b[4093] ^= 1;   /* the stored CRC itself */
	ck_assert_int_eq(f2fs_cp_verify(b, 1029, &err), -F2FS_E_BAD_CHECKSUM);
	ck_assert_ptr_nonnull(strstr(err.msg, "1029"));
}
END_TEST

START_TEST(test_seal_192)
{
	uint8_t b[F2FS_BLKSIZE];
	uint32_t want;
	struct f2fs_error err;

	cp_init(b, 42, 192, F2FS_CP_LARGE_NAT_BITMAP, 2);
	f2fs_cp_seal(b);
	want = ref_crc(F2FS_SUPER_MAGIC, b, 192);
	want = ref_crc(want, b + 196, 4096 - 196);
	ck_assert_uint_eq(le32_load(b + 192), want);
	ck_assert_uint_eq(f2fs_cp_stored_crc(b), want);
	ck_assert_int_eq(f2fs_cp_verify(b, 0, &err), 0);
	/* bytes 4092..4095 are covered in this form */
	b[4095] ^= 0x40;
	ck_assert_int_eq(f2fs_cp_verify(b, 0, &err), -F2FS_E_BAD_CHECKSUM);
}
END_TEST

START_TEST(test_bad_offset)
{
	static const uint32_t bad[] = { 0, 191, 4093, 4096, 100000 };
	uint8_t b[F2FS_BLKSIZE], copy[F2FS_BLKSIZE];
	struct f2fs_error err;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cp_init(b, 5, bad[i], 0, 3);
		memcpy(copy, b, sizeof(b));
		f2fs_cp_seal(b);   /* nothing to do: the block stays as it was */
		ck_assert_mem_eq(b, copy, sizeof(b));
		ck_assert_uint_eq(f2fs_cp_stored_crc(b), 0);
		memset(&err, 0, sizeof(err));
		ck_assert_int_eq(f2fs_cp_verify(b, 77, &err), -F2FS_E_CORRUPT);
		ck_assert_ptr_nonnull(strstr(err.msg, "checksum_offset"));
	}
}
END_TEST

/* ---- bitmaps ------------------------------------------------------------ */

START_TEST(test_bitmaps_no_payload)
{
	uint8_t *pack = calloc(1, F2FS_BLKSIZE);
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)pack;

	ck_assert_ptr_nonnull(pack);
	cp->checksum_offset = le32_put(4092);
	cp->sit_ver_bitmap_bytesize = le32_put(64);
	cp->nat_ver_bitmap_bytesize = le32_put(128);
	ck_assert_ptr_eq(f2fs_cp_sit_bitmap(pack, 0), pack + 192);
	ck_assert_ptr_eq(f2fs_cp_nat_bitmap(pack, 0), pack + 192 + 64);
	cp->sit_ver_bitmap_bytesize = le32_put(128);
	ck_assert_ptr_eq(f2fs_cp_nat_bitmap(pack, 0), pack + 192 + 128);
	free(pack);
}
END_TEST

START_TEST(test_bitmaps_payload)
{
	/* 4 TiB: SIT bitmap (4800 B) in 2 payload blocks, NAT at 192 */
	uint8_t *pack = calloc(3, F2FS_BLKSIZE);
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)pack;

	ck_assert_ptr_nonnull(pack);
	cp->checksum_offset = le32_put(4092);
	cp->sit_ver_bitmap_bytesize = le32_put(4800);
	cp->nat_ver_bitmap_bytesize = le32_put(3840);
	ck_assert_ptr_eq(f2fs_cp_nat_bitmap(pack, 2), pack + 192);
	ck_assert_ptr_eq(f2fs_cp_sit_bitmap(pack, 2), pack + 4096);
	/* the NAT bitmap ends before the CRC */
	ck_assert_uint_le(192 + 3840, 4092);
	free(pack);
}
END_TEST

START_TEST(test_bitmaps_large_nat)
{
	uint8_t *pack = calloc(2, F2FS_BLKSIZE);
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)pack;

	ck_assert_ptr_nonnull(pack);
	cp->checksum_offset = le32_put(192);
	cp->ckpt_flags = le32_put(F2FS_CP_LARGE_NAT_BITMAP | F2FS_CP_UMOUNT);
	cp->sit_ver_bitmap_bytesize = le32_put(64);
	cp->nat_ver_bitmap_bytesize = le32_put(3712);
	ck_assert_ptr_eq(f2fs_cp_nat_bitmap(pack, 0), pack + 196);
	ck_assert_ptr_eq(f2fs_cp_sit_bitmap(pack, 0), pack + 196 + 3712);
	ck_assert_ptr_eq(f2fs_cp_nat_bitmap(pack, 1), pack + 196);
	ck_assert_ptr_eq(f2fs_cp_sit_bitmap(pack, 1), pack + 196 + 3712);
	/* writing the bitmaps does not touch the CRC at 192 */
	memset(f2fs_cp_nat_bitmap(pack, 0), 0xFF, 3712);
	memset(f2fs_cp_sit_bitmap(pack, 0), 0xFF, 64);
	ck_assert_uint_eq(le32_load(pack + 192), 0);
	free(pack);
}
END_TEST

/* ---- flags as the pack bears them out ------------------------------------ */

/* A pack of 1 + orphans + sums + 1 blocks, its summaries from start. */
static void layout(struct f2fs_checkpoint *cp, uint32_t start, uint32_t sums, uint32_t flags,
		   uint32_t crc_off)
{
	memset(cp, 0, sizeof(*cp));
	cp->cp_pack_start_sum = le32_put(start);
	cp->cp_pack_total_block_count = le32_put(start + sums + 1);
	cp->ckpt_flags = le32_put(flags);
	cp->checksum_offset = le32_put(crc_off);
}

START_TEST(test_effective_flags)
{
	struct f2fs_checkpoint cp;
	const uint32_t U = F2FS_CP_UMOUNT, C = F2FS_CP_COMPACT_SUM, R = F2FS_CP_CRC_RECOVERY;

	/* as the kernel writes them: kept */
	layout(&cp, 1, 5, U | C | R | F2FS_CP_NAT_BITS, 4092);
	ck_assert_uint_eq(f2fs_cp_effective_flags(&cp), U | C | R | F2FS_CP_NAT_BITS);
	layout(&cp, 1, 3, R, 4092);
	ck_assert_uint_eq(f2fs_cp_effective_flags(&cp), R);
	/* the compacted flag against the count of summary blocks */
	layout(&cp, 1, 6, U | C, 4092);
	ck_assert_uint_eq(f2fs_cp_effective_flags(&cp), U);
	layout(&cp, 2, 2, 0, 4092);
	ck_assert_uint_eq(f2fs_cp_effective_flags(&cp), C);
	/* the large NAT bitmap flag without its CRC place */
	layout(&cp, 1, 6, U | F2FS_CP_LARGE_NAT_BITMAP, 4092);
	ck_assert_uint_eq(f2fs_cp_effective_flags(&cp), U);
	layout(&cp, 1, 6, U | F2FS_CP_LARGE_NAT_BITMAP, 192);
	ck_assert_uint_eq(f2fs_cp_effective_flags(&cp), U | F2FS_CP_LARGE_NAT_BITMAP);
	/* a word of garbage: what the layout shows, the recovery mode */
	layout(&cp, 1, 5, 0xffffffffu, 4092);
	ck_assert_uint_eq(f2fs_cp_effective_flags(&cp), U | C | R | F2FS_CP_NAT_BITS);
	layout(&cp, 1, 3, 0xffff0000u | C, 4092);
	ck_assert_uint_eq(f2fs_cp_effective_flags(&cp), 0);
}
END_TEST

/* ---- choosing a pack ---------------------------------------------------- */

#define CP_BLK 512u

struct image {
	char path[64];
	struct f2fs_dev *dev;
};

static void image_open(struct image *im)
{
	struct f2fs_error err;
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(im->path, sizeof(im->path), "%s/f2fs-cp-XXXXXX",
		 dir && strlen(dir) < 40 ? dir : "/tmp");
	fd = mkstemp(im->path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 8ll << 20), 0);
	close(fd);
	ck_assert_msg(f2fs_dev_open(&im->dev, im->path, F2FS_DEV_RDWR, &err) == 0,
		      "%s", err.msg);
}

static void image_close(struct image *im)
{
	f2fs_dev_close(im->dev);
	unlink(im->path);
}

/* Write a pack: header (+payload), a filler block, footer at total - 1. */
static void write_pack(struct image *im, int p, uint64_t ver, uint64_t footer_ver,
		       uint32_t payload, uint32_t total)
{
	uint64_t start = CP_BLK + (uint64_t)p * 512;
	uint8_t *blk = calloc(1 + payload, F2FS_BLKSIZE);
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)blk;
	struct f2fs_error err;

	ck_assert_ptr_nonnull(blk);
	cp->checkpoint_ver = le64_put(ver);
	cp->checksum_offset = le32_put(4092);
	cp->cp_pack_total_block_count = le32_put(total);
	cp->cp_pack_start_sum = le32_put(1 + payload);
	cp->ckpt_flags = le32_put(0x185);
	for (uint32_t i = 0; i < payload; i++)   /* recognisable payload */
		memset(blk + (1 + i) * F2FS_BLKSIZE, 0x10 + p * 2 + (int)i, F2FS_BLKSIZE);
	f2fs_cp_seal(blk);
	ck_assert_int_eq(f2fs_dev_write(im->dev, start, blk, 1 + payload, &err), 0);
	cp->checkpoint_ver = le64_put(footer_ver);
	f2fs_cp_seal(blk);
	ck_assert_int_eq(f2fs_dev_write(im->dev, start + total - 1, blk, 1, &err), 0);
	free(blk);
}

static int choose(struct image *im, uint32_t payload, uint8_t *buf,
		  struct f2fs_cp_choice *c, struct f2fs_error *err)
{
	memset(c, 0xAA, sizeof(*c));
	memset(err, 0, sizeof(*err));
	return f2fs_cp_choose(im->dev, CP_BLK, payload, buf, c, err);
}

START_TEST(test_choose_newer)
{
	struct image im;
	uint8_t buf[F2FS_BLKSIZE];
	struct f2fs_cp_choice c;
	struct f2fs_error err;

	image_open(&im);
	/* mkfs: pack 1 newer */
	write_pack(&im, 0, 0x73A92AD5, 0x73A92AD5, 0, 6);
	write_pack(&im, 1, 0x73A92AD4, 0x73A92AD4, 0, 2);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.pack, 0);
	ck_assert_uint_eq(c.version, 0x73A92AD5);
	ck_assert_int_eq(c.other_valid, 1);
	ck_assert_uint_eq(le64_load(buf), 0x73A92AD5);
	ck_assert_int_eq(f2fs_cp_verify(buf, CP_BLK, &err), 0);

	/* after a kernel checkpoint pack 2 can be the newer one */
	write_pack(&im, 1, 0x73A92AD6, 0x73A92AD6, 0, 6);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.pack, 1);
	ck_assert_uint_eq(c.version, 0x73A92AD6);
	ck_assert_uint_eq(le64_load(buf), 0x73A92AD6);
	ck_assert_int_eq(c.other_valid, 1);
	/* versions are compared as 64-bit numbers */
	write_pack(&im, 0, 0x100000000ull, 0x100000000ull, 0, 6);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.pack, 0);
	image_close(&im);
}
END_TEST

START_TEST(test_choose_torn)
{
	struct image im;
	uint8_t buf[F2FS_BLKSIZE];
	struct f2fs_cp_choice c;
	struct f2fs_error err;

	image_open(&im);
	/* pack 1's footer is from another checkpoint: fall back to pack 2 */
	write_pack(&im, 0, 11, 9, 0, 6);
	write_pack(&im, 1, 10, 10, 0, 6);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.pack, 1);
	ck_assert_uint_eq(c.version, 10);
	ck_assert_int_eq(c.other_valid, 0);
	ck_assert_int_eq(c.other_err.code, -F2FS_E_CORRUPT);
	ck_assert_ptr_nonnull(strstr(c.other_err.msg, "footer"));
	/* its header verifies (version 11, newer) and its footer is an earlier
	 * checkpoint's: a checkpoint cut short, not a lost one */
	ck_assert_int_eq(c.other_age, F2FS_CP_UNFINISHED);
	ck_assert_uint_eq(c.other_version, 11);

	/* a bad header CRC in pack 2 with a good pack 1 */
	write_pack(&im, 0, 12, 12, 0, 6);
	{
		uint8_t blk[F2FS_BLKSIZE];

		ck_assert_int_eq(f2fs_dev_read(im.dev, CP_BLK + 512, blk, 1, &err), 0);
		blk[50] ^= 1;
		ck_assert_int_eq(f2fs_dev_write(im.dev, CP_BLK + 512, blk, 1, &err), 0);
	}
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.pack, 0);
	ck_assert_uint_eq(c.version, 12);
	ck_assert_int_eq(c.other_valid, 0);
	ck_assert_int_eq(c.other_err.code, -F2FS_E_BAD_CHECKSUM);
	/* a damaged header whose footer (version 10) verifies: older */
	ck_assert_int_eq(c.other_age, F2FS_CP_OLDER);
	ck_assert_uint_eq(c.other_version, 10);
	image_close(&im);
}
END_TEST

/* Flip a bit of a pack's header after its version: the CRC fails, the
 * version field stays. */
static void damage_header(struct image *im, int p)
{
	uint8_t blk[F2FS_BLKSIZE];
	struct f2fs_error err;

	ck_assert_int_eq(f2fs_dev_read(im->dev, CP_BLK + p * 512u, blk, 1, &err), 0);
	blk[50] ^= 1;
	ck_assert_int_eq(f2fs_dev_write(im->dev, CP_BLK + p * 512u, blk, 1, &err), 0);
}

/* A pack with a sealed header whose total block count is out of range. */
static void write_bad_total(struct image *im, int p, uint64_t ver)
{
	uint8_t blk[F2FS_BLKSIZE];
	struct f2fs_error err;

	write_pack(im, p, ver, ver, 0, 6);
	ck_assert_int_eq(f2fs_dev_read(im->dev, CP_BLK + p * 512u, blk, 1, &err), 0);
	le32_store(blk + 136, 1000);
	f2fs_cp_seal(blk);
	ck_assert_int_eq(f2fs_dev_write(im->dev, CP_BLK + p * 512u, blk, 1, &err), 0);
}

START_TEST(test_choose_broken_age)
{
	struct image im;
	uint8_t buf[F2FS_BLKSIZE], zero[F2FS_BLKSIZE] = { 0 };
	struct f2fs_cp_choice c;
	struct f2fs_error err;

	image_open(&im);
	/* both valid: the other pack is the older one */
	write_pack(&im, 0, 40, 40, 0, 6);
	write_pack(&im, 1, 41, 41, 0, 6);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.pack, 1);
	ck_assert_int_eq(c.other_age, F2FS_CP_OLDER);
	ck_assert_uint_eq(c.other_version, 40);

	/* committed (its footer 41 verifies), its header damaged since: lost */
	damage_header(&im, 1);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.pack, 0);
	ck_assert_int_eq(c.other_valid, 0);
	ck_assert_int_eq(c.other_age, F2FS_CP_NEWER);
	ck_assert_uint_eq(c.other_version, 41);

	/* a torn header (version 41 = 40 + 1) over an older pack's footer:
	 * a crash while it was written */
	write_pack(&im, 1, 41, 39, 0, 6);
	damage_header(&im, 1);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.other_age, F2FS_CP_UNFINISHED);
	ck_assert_uint_eq(c.other_version, 41);

	/* a torn older header, or one of the version in use (a copied pack) */
	write_pack(&im, 1, 39, 37, 0, 6);
	damage_header(&im, 1);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.other_age, F2FS_CP_OLDER);
	ck_assert_uint_eq(c.other_version, 39);
	write_pack(&im, 1, 40, 37, 0, 6);
	damage_header(&im, 1);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.other_age, F2FS_CP_OLDER);

	/* a damaged header with a garbage version: the slot's footer (37)
	 * says what was committed there last, an older pack */
	write_pack(&im, 1, 0x0102030405060708ull, 37, 0, 6);
	damage_header(&im, 1);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.pack, 0);
	ck_assert_int_eq(c.other_age, F2FS_CP_OLDER);
	ck_assert_uint_eq(c.other_version, 37);
	/* its header zeroed (resize.f2fs), the older footer intact: older */
	write_pack(&im, 1, 39, 39, 0, 6);
	ck_assert_int_eq(f2fs_dev_write(im.dev, CP_BLK + 512, zero, 1, &err), 0);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.other_age, F2FS_CP_OLDER);
	ck_assert_uint_eq(c.other_version, 39);
	/* a garbage version over a footer newer than the pack in use: that
	 * checkpoint was committed, and is lost */
	write_pack(&im, 1, 0x0102030405060708ull, 41, 0, 6);
	damage_header(&im, 1);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.other_age, F2FS_CP_NEWER);
	ck_assert_uint_eq(c.other_version, 41);
	/* a footer newer than the header's total says (a stale one beyond
	 * it is older): the newest footer in the slot counts */
	write_pack(&im, 1, 41, 41, 0, 6);
	damage_header(&im, 1);
	{
		uint8_t blk[F2FS_BLKSIZE];

		/* the header's total no longer reaches the footer */
		ck_assert_int_eq(f2fs_dev_read(im.dev, CP_BLK + 512, blk, 1, &err), 0);
		le32_store(blk + 136, 3);
		ck_assert_int_eq(f2fs_dev_write(im.dev, CP_BLK + 512, blk, 1, &err), 0);
	}
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.other_age, F2FS_CP_NEWER);
	ck_assert_uint_eq(c.other_version, 41);
	/* no version to trust and no footer at all: nothing shows a loss */
	for (uint32_t k = 0; k < 8; k++)
		ck_assert_int_eq(f2fs_dev_write(im.dev, CP_BLK + 512 + k, zero, 1, &err), 0);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.other_age, F2FS_CP_UNORDERED);
	ck_assert_uint_eq(c.other_version, 0);

	/* a verified newer header without an intact footer of its version is
	 * a checkpoint cut short: the footer stale, torn (CRC) or not there */
	write_pack(&im, 1, 41, 39, 0, 6);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.other_age, F2FS_CP_UNFINISHED);
	ck_assert_uint_eq(c.other_version, 41);
	write_pack(&im, 1, 41, 41, 0, 6);
	{
		uint8_t blk[F2FS_BLKSIZE];

		ck_assert_int_eq(f2fs_dev_read(im.dev, CP_BLK + 512 + 5, blk, 1, &err), 0);
		blk[600] ^= 1;
		ck_assert_int_eq(f2fs_dev_write(im.dev, CP_BLK + 512 + 5, blk, 1, &err), 0);
	}
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.other_age, F2FS_CP_UNFINISHED);
	ck_assert_int_eq(f2fs_dev_write(im.dev, CP_BLK + 512 + 5, zero, 1, &err), 0);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.other_age, F2FS_CP_UNFINISHED);
	ck_assert_ptr_nonnull(strstr(c.other_err.msg, "checksum_offset"));
	/* an older pack with a stale footer is only older */
	write_pack(&im, 1, 39, 37, 0, 6);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.other_age, F2FS_CP_OLDER);

	/* bad sizes under a verified header: no crash writes that; its version
	 * is trusted, far or not */
	write_bad_total(&im, 1, 45);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.pack, 0);
	ck_assert_int_eq(c.other_age, F2FS_CP_NEWER);
	ck_assert_uint_eq(c.other_version, 45);
	ck_assert_ptr_nonnull(strstr(c.other_err.msg, "cp_pack_total_block_count"));
	write_bad_total(&im, 1, 30);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.other_age, F2FS_CP_OLDER);
	ck_assert_uint_eq(c.other_version, 30);

	/* versions ordered as the kernel's ver_after: 0 comes after 2^64 - 1 */
	write_pack(&im, 0, UINT64_MAX, UINT64_MAX, 0, 6);
	write_pack(&im, 1, 0, 0, 0, 6);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.pack, 1);
	ck_assert_uint_eq(c.version, 0);
	write_pack(&im, 1, 0, UINT64_MAX - 1, 0, 6);
	ck_assert_int_eq(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(c.pack, 0);
	ck_assert_int_eq(c.other_age, F2FS_CP_UNFINISHED);
	image_close(&im);
}
END_TEST

START_TEST(test_choose_none)
{
	struct image im;
	uint8_t buf[F2FS_BLKSIZE];
	struct f2fs_cp_choice c;
	struct f2fs_error err;

	image_open(&im);
	/* all zero: checksum_offset 0 in both packs */
	ck_assert_int_lt(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_int_eq(err.code, -F2FS_E_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "no valid checkpoint"));
	/* total block count out of range in both */
	write_pack(&im, 0, 3, 3, 0, 6);
	write_pack(&im, 1, 2, 2, 0, 6);
	{
		uint8_t blk[F2FS_BLKSIZE];

		for (int p = 0; p < 2; p++) {
			ck_assert_int_eq(f2fs_dev_read(im.dev, CP_BLK + p * 512, blk, 1, &err), 0);
			le32_store(blk + 136, 1000);
			f2fs_cp_seal(blk);
			ck_assert_int_eq(f2fs_dev_write(im.dev, CP_BLK + p * 512, blk, 1, &err), 0);
		}
	}
	ck_assert_int_lt(choose(&im, 0, buf, &c, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "cp_pack_total_block_count"));
	image_close(&im);
}
END_TEST

START_TEST(test_choose_payload)
{
	struct image im;
	uint8_t *buf = malloc(3 * F2FS_BLKSIZE);
	struct f2fs_cp_choice c;
	struct f2fs_error err;

	ck_assert_ptr_nonnull(buf);
	image_open(&im);
	write_pack(&im, 0, 21, 21, 2, 8);
	write_pack(&im, 1, 20, 20, 2, 8);
	memset(buf, 0, 3 * F2FS_BLKSIZE);
	ck_assert_int_eq(choose(&im, 2, buf, &c, &err), 0);
	ck_assert_int_eq(c.pack, 0);
	/* header and both payload blocks of pack 1 are returned */
	ck_assert_uint_eq(le64_load(buf), 21);
	ck_assert_uint_eq(buf[F2FS_BLKSIZE], 0x10);
	ck_assert_uint_eq(buf[2 * F2FS_BLKSIZE + 4095], 0x11);
	ck_assert_ptr_eq(f2fs_cp_sit_bitmap(buf, 2), buf + F2FS_BLKSIZE);
	/* the footer of a payload pack is at total - 1 = block 7 */
	{
		uint8_t blk[F2FS_BLKSIZE];

		ck_assert_int_eq(f2fs_dev_read(im.dev, CP_BLK + 7, blk, 1, &err), 0);
		blk[8] ^= 1;   /* damage pack 1's footer */
		ck_assert_int_eq(f2fs_dev_write(im.dev, CP_BLK + 7, blk, 1, &err), 0);
	}
	ck_assert_int_eq(choose(&im, 2, buf, &c, &err), 0);
	ck_assert_int_eq(c.pack, 1);
	ck_assert_uint_eq(buf[F2FS_BLKSIZE], 0x12);
	ck_assert_uint_eq(buf[2 * F2FS_BLKSIZE], 0x13);
	image_close(&im);
	free(buf);
}
END_TEST

static Suite *checkpoint_suite(void)
{
	Suite *s = suite_create("checkpoint");
	TCase *crc = tcase_create("crc");
	TCase *bm = tcase_create("bitmaps");
	TCase *ch = tcase_create("choose");

	tcase_add_test(crc, test_seal_4092);
	tcase_add_test(crc, test_seal_192);
	tcase_add_test(crc, test_bad_offset);
	tcase_add_test(bm, test_bitmaps_no_payload);
	tcase_add_test(bm, test_bitmaps_payload);
	tcase_add_test(bm, test_bitmaps_large_nat);
	tcase_add_test(bm, test_effective_flags);
	tcase_add_test(ch, test_choose_newer);
	tcase_add_test(ch, test_choose_torn);
	tcase_add_test(ch, test_choose_none);
	tcase_add_test(ch, test_choose_payload);
	tcase_add_test(ch, test_choose_broken_age);
	suite_add_tcase(s, crc);
	suite_add_tcase(s, bm);
	suite_add_tcase(s, ch);
	return s;
}

int main(void)
{
	return unit_run(checkpoint_suite());
}
