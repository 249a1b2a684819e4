/*
 * nat_bits: area size, header, the full and empty bitmaps (LSB-first),
 * the count of entries in use per NAT block, the tally against the NAT,
 * and on an image mkfs made, where they lie and how they compare.
 */
#include <check.h>

#include <f2fs/format/endian.h>
#include <f2fs/format/format.h>
#include <f2fs/format/layout.h>
#include <f2fs/format/nat_bits.h>
#include <f2fs/fs/fs.h>
#include <f2fs/fs/nat_bits_read.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#define GiB (1ull << 30)
#define TiB (1ull << 40)

static uint32_t nat_blocks_of(uint64_t bytes)
{
	struct f2fs_layout l;

	unit_layout(bytes, &l);
	return f2fs_layout_nat_blocks(&l);
}

START_TEST(test_area_size)
{
	/* 1 GiB: 2 NAT segments per copy, 1024 blocks, 128-byte bitmaps */
	ck_assert_uint_eq(nat_blocks_of(GiB), 1024);
	ck_assert_uint_eq(f2fs_nat_bits_bytes(1024), 128);
	ck_assert_uint_eq(f2fs_nat_bits_blocks(1024), 1);
	/* 4 TiB: 60 segments per copy, 3840-byte bitmaps, 2 blocks */
	ck_assert_uint_eq(nat_blocks_of(4 * TiB), 30720);
	ck_assert_uint_eq(f2fs_nat_bits_bytes(30720), 3840);
	ck_assert_uint_eq(f2fs_nat_bits_blocks(30720), 2);
	/* the edge: 8 + 2 * 2044 = 4096 bytes is one block, 2045 two */
	ck_assert_uint_eq(f2fs_nat_bits_blocks(2044 * 8), 1);
	ck_assert_uint_eq(f2fs_nat_bits_blocks(2045 * 8), 2);
	ck_assert_uint_eq(f2fs_nat_bits_blocks(512), 1);
}
END_TEST

START_TEST(test_header)
{
	ck_assert_uint_eq(f2fs_nat_bits_header(0x3837B7FDull, 0xE548BCEFu),
			  0xE548BCEF3837B7FDull);
	ck_assert_uint_eq(f2fs_nat_bits_header(1, 0), 1);
	ck_assert_uint_eq(f2fs_nat_bits_header(0, 0xFFFFFFFFu), 0xFFFFFFFF00000000ull);
}
END_TEST

START_TEST(test_bit_helpers)
{
	uint8_t map[4] = { 0 };

	f2fs_nat_bit_set(map, 0);
	ck_assert_uint_eq(map[0], 0x01);   /* LSB first */
	f2fs_nat_bit_set(map, 7);
	ck_assert_uint_eq(map[0], 0x81);
	f2fs_nat_bit_set(map, 9);
	ck_assert_uint_eq(map[1], 0x02);
	f2fs_nat_bit_set(map, 31);
	ck_assert_uint_eq(map[3], 0x80);
	ck_assert(f2fs_nat_bit_test(map, 0));
	ck_assert(f2fs_nat_bit_test(map, 9));
	ck_assert(!f2fs_nat_bit_test(map, 8));
	ck_assert(!f2fs_nat_bit_test(map, 30));
}
END_TEST

START_TEST(test_encode_mkfs)
{
	/* what mkfs writes on 1 GiB: full all 0, empty all 1 but block 0 */
	uint8_t area[4096];
	uint16_t *used = calloc(1024, sizeof(*used));

	ck_assert_ptr_nonnull(used);
	used[0] = 4;   /* nid 0 plus nids 1, 2, 3 */
	memset(area, 0xCC, sizeof(area));
	f2fs_nat_bits_encode(area, 1, 1024, used, 0x3837B7FDull, 0xE548BCEFu);
	ck_assert_uint_eq(le64_load(area), 0xE548BCEF3837B7FDull);
	for (int i = 0; i < 128; i++)
		ck_assert_uint_eq(area[8 + i], 0);
	ck_assert_uint_eq(area[8 + 128], 0xFE);
	for (int i = 1; i < 128; i++)
		ck_assert_uint_eq(area[8 + 128 + i], 0xFF);
	for (size_t i = 8 + 256; i < sizeof(area); i++)
		ck_assert_uint_eq(area[i], 0);
	free(used);
}
END_TEST

START_TEST(test_encode_mixed)
{
	/* 16360 NAT blocks: 2045-byte bitmaps spill into a second block */
	const uint32_t n = 16360, nb = n / 8;
	uint8_t *area = malloc(2 * 4096);
	uint16_t *used = malloc(n * sizeof(*used));

	ck_assert_ptr_nonnull(area);
	ck_assert_ptr_nonnull(used);
	for (uint32_t i = 0; i < n; i++)
		used[i] = (uint16_t)(i % 3 == 0 ? 455 : i % 3 == 1 ? 0 : 1 + i % 454);
	memset(area, 0x5A, 2 * 4096);
	f2fs_nat_bits_encode(area, 2, n, used, 7, 0x12345678u);
	ck_assert_uint_eq(le64_load(area), 0x1234567800000007ull);
	for (uint32_t i = 0; i < n; i++) {
		int full = (area[8 + i / 8] >> (i % 8)) & 1;
		int empty = (area[8 + nb + i / 8] >> (i % 8)) & 1;

		ck_assert_msg(full == (used[i] == 455), "full bit %u", i);
		ck_assert_msg(empty == (used[i] == 0), "empty bit %u", i);
	}
	for (size_t i = 8 + 2 * nb; i < 2 * 4096; i++)
		ck_assert_uint_eq(area[i], 0);
	free(area);
	free(used);
}
END_TEST

static void set_entry(struct f2fs_nat_block *b, int i, uint32_t ino, uint32_t blk)
{
	b->entries[i].ino = le32_put(ino);
	b->entries[i].block_addr = le32_put(blk);
}

START_TEST(test_block_used)
{
	struct f2fs_nat_block *b = calloc(1, sizeof(*b));

	ck_assert_ptr_nonnull(b);
	/* nid 0 counts as used in block 0 only */
	ck_assert_uint_eq(f2fs_nat_block_used(b, 0), 1);
	ck_assert_uint_eq(f2fs_nat_block_used(b, 1), 0);
	ck_assert_uint_eq(f2fs_nat_block_used(b, 512), 0);
	/* mkfs's block 0: nids 1 and 2 at block 1, root at 5120 */
	set_entry(b, 1, 1, 1);
	set_entry(b, 2, 2, 1);
	set_entry(b, 3, 3, 5120);
	ck_assert_uint_eq(f2fs_nat_block_used(b, 0), 4);
	ck_assert_uint_eq(f2fs_nat_block_used(b, 7), 3);
	/* an entry with an ino but no block is free */
	set_entry(b, 10, 10, 0);
	ck_assert_uint_eq(f2fs_nat_block_used(b, 7), 3);
	/* NEW_ADDR counts as used */
	set_entry(b, 454, 454, F2FS_NEW_ADDR);
	ck_assert_uint_eq(f2fs_nat_block_used(b, 7), 4);
	/* all 455 */
	for (int i = 0; i < 455; i++)
		set_entry(b, i, (uint32_t)i + 1, 1000 + (uint32_t)i);
	ck_assert_uint_eq(f2fs_nat_block_used(b, 0), 455);
	ck_assert_uint_eq(f2fs_nat_block_used(b, 3), 455);
	/* the padding byte is not an entry */
	b->pad[0] = 0xFF;
	ck_assert_uint_eq(f2fs_nat_block_used(b, 3), 455);
	free(b);
}
END_TEST

/* The comparison fsck and dump share: a bit that disagrees is named. */
START_TEST(test_mismatch)
{
	uint16_t used[16] = { 1, F2FS_NAT_ENTRY_PER_BLOCK, 0, 7 };
	uint8_t area[F2FS_BLKSIZE];

	f2fs_nat_bits_encode(area, 1, 16, used, 1, 2);
	for (uint32_t b = 0; b < 16; b++)
		ck_assert_uint_eq(f2fs_nat_bits_mismatch(area, 16, b, used[b]), 0);
	/* a full block that lost an entry, an empty one that gained one */
	ck_assert_uint_eq(f2fs_nat_bits_mismatch(area, 16, 1, F2FS_NAT_ENTRY_PER_BLOCK - 1),
			  F2FS_NAT_BITS_FULL_WRONG);
	ck_assert_uint_eq(f2fs_nat_bits_mismatch(area, 16, 2, 1), F2FS_NAT_BITS_EMPTY_WRONG);
	/* a partly used block that became full, and one that became empty */
	ck_assert_uint_eq(f2fs_nat_bits_mismatch(area, 16, 3, F2FS_NAT_ENTRY_PER_BLOCK),
			  F2FS_NAT_BITS_FULL_WRONG);
	ck_assert_uint_eq(f2fs_nat_bits_mismatch(area, 16, 3, 0), F2FS_NAT_BITS_EMPTY_WRONG);
}
END_TEST

/* The tally dump -M prints: bits set, blocks full or empty, disagreements. */
START_TEST(test_tally)
{
	uint16_t used[16] = { 1, F2FS_NAT_ENTRY_PER_BLOCK, 0, 7, F2FS_NAT_ENTRY_PER_BLOCK };
	uint8_t area[F2FS_BLKSIZE];
	struct f2fs_nat_bits_tally t = { 0 };

	f2fs_nat_bits_encode(area, 1, 16, used, 1, 2);
	/* the NAT now: block 1 lost an entry, block 2 gained one */
	used[1]--;
	used[2]++;
	for (uint32_t b = 0; b < 16; b++)
		f2fs_nat_bits_tally_add(&t, area, 16, b, used[b]);
	ck_assert_uint_eq(t.full_bits, 2);    /* blocks 1 and 4 */
	ck_assert_uint_eq(t.full_nat, 1);     /* block 4 */
	ck_assert_uint_eq(t.empty_bits, 12);  /* 2 and 5..15 */
	ck_assert_uint_eq(t.empty_nat, 11);   /* 5..15 */
	ck_assert_uint_eq(t.disagree, 2);
}
END_TEST

/* On an image mkfs made: where the nat_bits lie, their header, and no
 * block whose bits disagree with the NAT. */
START_TEST(test_fs_nat_bits)
{
	const char *dir = getenv("TMPDIR");
	char path[160];
	struct f2fs_mkfs_options o;
	struct f2fs_mkfs_report rep;
	struct f2fs_error err = { 0 };
	struct f2fs_nat_bits_tally t;
	struct f2fs_fs *fs;
	uint8_t area[F2FS_BLKSIZE];
	uint32_t blocks, nat_blocks;
	uint64_t at;

	snprintf(path, sizeof(path), "%s/f2fs-nat-bits-%ld",
		 dir && strlen(dir) < 80 ? dir : "/tmp", (long)getpid());
	unit_sparse_file(path, GiB);
	unit_mkfs_opts(&o, path);
	ck_assert_msg(f2fs_mkfs(&o, &rep, &err) == 0, "mkfs: %s", err.msg);
	ck_assert_int_eq(f2fs_fs_open(&fs, path, &err), 0);
	nat_blocks = f2fs_fs_nat_blocks(fs);
	ck_assert(f2fs_fs_nat_bits_where(fs, &blocks, &at));
	ck_assert_uint_eq(blocks, 1);
	ck_assert_uint_eq(at, f2fs_fs_cp_start(fs) + F2FS_BLOCKS_PER_SEG - 1);
	ck_assert_int_eq(f2fs_fs_nat_bits_read(fs, area, &err), 0);
	ck_assert_uint_eq(le64_load(area), f2fs_fs_nat_bits_want(fs));
	ck_assert_int_eq(f2fs_fs_nat_bits_tally(fs, area, &t, &err), 0);
	ck_assert_uint_eq(t.disagree, 0);
	ck_assert_uint_eq(t.full_bits, 0);
	ck_assert_uint_eq(t.empty_bits, nat_blocks - 1);   /* all but block 0 */
	ck_assert_uint_eq(t.empty_nat, nat_blocks - 1);
	f2fs_fs_close(fs);
	unlink(path);
}
END_TEST

static Suite *nat_bits_suite(void)
{
	Suite *s = suite_create("nat_bits");
	TCase *tc = tcase_create("nat_bits");

	tcase_add_test(tc, test_area_size);
	tcase_add_test(tc, test_header);
	tcase_add_test(tc, test_mismatch);
	tcase_add_test(tc, test_bit_helpers);
	tcase_add_test(tc, test_encode_mkfs);
	tcase_add_test(tc, test_encode_mixed);
	tcase_add_test(tc, test_block_used);
	tcase_add_test(tc, test_tally);
	tcase_add_test(tc, test_fs_nat_bits);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(nat_bits_suite());
}
