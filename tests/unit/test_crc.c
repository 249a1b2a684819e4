/*
 * f2fs_crc32 and the structure checksums built on it. The vectors were
 * checked against CRCs stored on images made by mkfs.f2fs 1.15 and by the
 * Linux kernel; a bitwise CRC written here serves as an independent model.
 */
#include <check.h>

#include <f2fs/format/crc.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/format.h>

#include <stdlib.h>
#include <string.h>

#include "unit.h"

/* Bitwise reflected CRC-32, seeded, no final XOR: the F2FS definition. */
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

static void fill_random(void *buf, size_t len, uint32_t seed)
{
	uint8_t *p = buf;

	for (size_t i = 0; i < len; i++) {
		seed = seed * 1664525u + 1013904223u;
		p[i] = (uint8_t)(seed >> 24);
	}
}

/* ---- f2fs_crc32 --------------------------------------------------------- */

START_TEST(test_vectors)
{
	static const uint8_t zero4[4];

	ck_assert_uint_eq(f2fs_crc32(F2FS_SUPER_MAGIC, "", 0), 0xF2F52010u);
	ck_assert_uint_eq(f2fs_crc32(F2FS_SUPER_MAGIC, "123456789", 9), 0x1657A0C3u);
	ck_assert_uint_eq(f2fs_crc32(F2FS_SUPER_MAGIC, zero4, 4), 0x522C97B7u);
	ck_assert_uint_eq(f2fs_crc32(F2FS_SUPER_MAGIC, "f2fs", 4), 0x9125E231u);
	ck_assert_uint_eq(f2fs_crc32(0xFFFFFFFFu, "123456789", 9), 0x340BC6D9u);
	/* the model agrees with the vectors, so it can judge other inputs */
	ck_assert_uint_eq(ref_crc(F2FS_SUPER_MAGIC, "123456789", 9), 0x1657A0C3u);
	ck_assert_uint_eq(ref_crc(0xFFFFFFFFu, "123456789", 9), 0x340BC6D9u);
}
END_TEST

START_TEST(test_no_final_xor)
{
	/* zlib's crc32("123456789") is 0xCBF43926 = ~0x340BC6D9 */
	ck_assert_uint_ne(f2fs_crc32(0xFFFFFFFFu, "123456789", 9), 0xCBF43926u);
	ck_assert_uint_eq(f2fs_crc32(0xFFFFFFFFu, "123456789", 9) ^ 0xFFFFFFFFu,
			  0xCBF43926u);
	/* seed 0 over zero bytes stays 0 (no pre-inversion) */
	ck_assert_uint_eq(f2fs_crc32(0, "\0\0\0\0\0\0\0\0", 8), 0);
}
END_TEST

START_TEST(test_random_against_model)
{
	uint8_t buf[5000];

	fill_random(buf, sizeof(buf), 7);
	for (size_t len = 0; len < sizeof(buf); len += 97) {
		uint32_t seed = 0x9E3779B9u * (uint32_t)(len + 1);

		ck_assert_uint_eq(f2fs_crc32(seed, buf, len), ref_crc(seed, buf, len));
	}
}
END_TEST

START_TEST(test_chaining)
{
	uint8_t buf[4096];

	fill_random(buf, sizeof(buf), 11);
	for (size_t cut = 0; cut <= sizeof(buf); cut += 331) {
		uint32_t c = f2fs_crc32(F2FS_SUPER_MAGIC, buf, cut);

		c = f2fs_crc32(c, buf + cut, sizeof(buf) - cut);
		ck_assert_uint_eq(c, f2fs_crc32(F2FS_SUPER_MAGIC, buf, sizeof(buf)));
	}
}
END_TEST

/* ---- superblock --------------------------------------------------------- */

START_TEST(test_sb_crc)
{
	struct f2fs_super_block *sb = malloc(sizeof(*sb));
	uint32_t c;

	ck_assert_ptr_nonnull(sb);
	fill_random(sb, sizeof(*sb), 3);
	c = f2fs_sb_crc(sb);
	ck_assert_uint_eq(c, ref_crc(F2FS_SUPER_MAGIC, sb, 3068));
	/* the crc field itself is outside the covered range */
	sb->crc = ~sb->crc;
	ck_assert_uint_eq(f2fs_sb_crc(sb), c);
	/* the last covered byte is */
	((uint8_t *)sb)[3067] ^= 1;
	ck_assert_uint_ne(f2fs_sb_crc(sb), c);
	((uint8_t *)sb)[3067] ^= 1;
	((uint8_t *)sb)[0] ^= 0x80;
	ck_assert_uint_ne(f2fs_sb_crc(sb), c);
	free(sb);
}
END_TEST

/* ---- checkpoint --------------------------------------------------------- */

static void cp_block(uint8_t *b, uint32_t off, uint32_t seed)
{
	fill_random(b, F2FS_BLKSIZE, seed);
	le32_store(b + 164, off);   /* checksum_offset */
}

START_TEST(test_cp_crc_4092)
{
	uint8_t b[F2FS_BLKSIZE];
	uint32_t crc = 0, crc2 = 0;

	cp_block(b, 4092, 21);
	ck_assert_int_eq(f2fs_cp_crc(b, &crc), 1);
	ck_assert_uint_eq(crc, ref_crc(F2FS_SUPER_MAGIC, b, 4092));
	/* the stored CRC (4092..4095) is not covered */
	b[4092] ^= 0xFF;
	b[4095] ^= 0x01;
	ck_assert_int_eq(f2fs_cp_crc(b, &crc2), 1);
	ck_assert_uint_eq(crc2, crc);
	/* byte 4091 is */
	b[4091] ^= 0x10;
	ck_assert_int_eq(f2fs_cp_crc(b, &crc2), 1);
	ck_assert_uint_ne(crc2, crc);
}
END_TEST

START_TEST(test_cp_crc_192)
{
	uint8_t b[F2FS_BLKSIZE];
	uint32_t crc = 0, crc2 = 0, want;

	cp_block(b, 192, 22);
	ck_assert_int_eq(f2fs_cp_crc(b, &crc), 1);
	want = ref_crc(F2FS_SUPER_MAGIC, b, 192);
	want = ref_crc(want, b + 196, F2FS_BLKSIZE - 196);
	ck_assert_uint_eq(crc, want);
	/* it differs from the plain 4092 form of the same bytes */
	ck_assert_uint_ne(crc, ref_crc(F2FS_SUPER_MAGIC, b, 4092));
	/* its own four bytes are skipped ... */
	for (int i = 192; i < 196; i++)
		b[i] ^= 0xA5;
	ck_assert_int_eq(f2fs_cp_crc(b, &crc2), 1);
	ck_assert_uint_eq(crc2, crc);
	/* ... but the bytes just after them and the last byte are covered */
	b[196] ^= 1;
	ck_assert_int_eq(f2fs_cp_crc(b, &crc2), 1);
	ck_assert_uint_ne(crc2, crc);
	b[196] ^= 1;
	b[4095] ^= 1;
	ck_assert_int_eq(f2fs_cp_crc(b, &crc2), 1);
	ck_assert_uint_ne(crc2, crc);
}
END_TEST

START_TEST(test_cp_crc_middle_offset)
{
	/* any offset inside [192, 4092] is accepted and skips its 4 bytes */
	uint8_t b[F2FS_BLKSIZE];
	uint32_t crc = 0, want;

	cp_block(b, 1000, 23);
	ck_assert_int_eq(f2fs_cp_crc(b, &crc), 1);
	want = ref_crc(F2FS_SUPER_MAGIC, b, 1000);
	want = ref_crc(want, b + 1004, F2FS_BLKSIZE - 1004);
	ck_assert_uint_eq(crc, want);
}
END_TEST

START_TEST(test_cp_crc_bad_offset)
{
	static const uint32_t bad[] = { 0, 4, 164, 191, 4093, 4094, 4096, 8192, 0xFFFFFFFFu };
	uint8_t b[F2FS_BLKSIZE];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint32_t crc = 0xDEADBEEFu;

		cp_block(b, bad[i], 24);
		ck_assert_msg(f2fs_cp_crc(b, &crc) == 0, "offset %u accepted", bad[i]);
		ck_assert_uint_eq(crc, 0xDEADBEEFu);
	}
}
END_TEST

/* ---- inode -------------------------------------------------------------- */

static const uint8_t uuid[16] = {
	0x5a, 0x1c, 0x93, 0x0e, 0x7f, 0x44, 0x4b, 0x52,
	0x9e, 0x11, 0x2c, 0x3d, 0x80, 0xfe, 0x01, 0x77,
};

/* The inode checksum as the kernel computes it, written out step by step. */
static uint32_t ref_inode_crc(const uint8_t *node)
{
	static const uint8_t zero[4];
	uint32_t c = ref_crc(0xFFFFFFFFu, uuid, 16);

	c = ref_crc(c, node + 4072 + 4, 4);   /* footer.ino */
	c = ref_crc(c, node + 68, 4);         /* i_generation */
	c = ref_crc(c, node, 368);
	c = ref_crc(c, zero, 4);
	return ref_crc(c, node + 372, 4096 - 372);
}

START_TEST(test_inode_seed)
{
	ck_assert_uint_eq(f2fs_inode_crc_seed(uuid), ref_crc(0xFFFFFFFFu, uuid, 16));
	ck_assert_uint_eq(f2fs_inode_crc_seed(uuid), f2fs_crc32(0xFFFFFFFFu, uuid, 16));
}
END_TEST

START_TEST(test_inode_crc)
{
	struct f2fs_node *n = malloc(sizeof(*n));
	uint8_t *b = (uint8_t *)n;
	uint32_t seed = f2fs_inode_crc_seed(uuid), c, c2;

	ck_assert_ptr_nonnull(n);
	fill_random(n, sizeof(*n), 31);
	c = f2fs_inode_crc(n, seed);
	ck_assert_uint_eq(c, ref_inode_crc(b));

	/* the checksum field does not feed itself */
	n->i.extra.i_inode_checksum = le32_put(c);
	ck_assert_uint_eq(f2fs_inode_crc(n, seed), c);

	/* the footer is covered: cp_ver, next_blkaddr and ino all count */
	n->footer.cp_ver = le64_put(le64_get(n->footer.cp_ver) + 1);
	c2 = f2fs_inode_crc(n, seed);
	ck_assert_uint_ne(c2, c);
	ck_assert_uint_eq(c2, ref_inode_crc(b));
	n->footer.next_blkaddr ^= le32_put(1);
	ck_assert_uint_ne(f2fs_inode_crc(n, seed), c2);
	c2 = f2fs_inode_crc(n, seed);
	n->footer.ino = le32_put(le32_get(n->footer.ino) ^ 0x100);
	ck_assert_uint_ne(f2fs_inode_crc(n, seed), c2);
	ck_assert_uint_eq(f2fs_inode_crc(n, seed), ref_inode_crc(b));

	/* i_generation and the seed matter too */
	c2 = f2fs_inode_crc(n, seed);
	n->i.i_generation ^= le32_put(0x80000000u);
	ck_assert_uint_ne(f2fs_inode_crc(n, seed), c2);
	ck_assert_uint_ne(f2fs_inode_crc(n, seed ^ 1), f2fs_inode_crc(n, seed));
	free(n);
}
END_TEST

static Suite *crc_suite(void)
{
	Suite *s = suite_create("crc");
	TCase *raw = tcase_create("crc32");
	TCase *st = tcase_create("structures");

	tcase_add_test(raw, test_vectors);
	tcase_add_test(raw, test_no_final_xor);
	tcase_add_test(raw, test_random_against_model);
	tcase_add_test(raw, test_chaining);
	tcase_add_test(st, test_sb_crc);
	tcase_add_test(st, test_cp_crc_4092);
	tcase_add_test(st, test_cp_crc_192);
	tcase_add_test(st, test_cp_crc_middle_offset);
	tcase_add_test(st, test_cp_crc_bad_offset);
	tcase_add_test(st, test_inode_seed);
	tcase_add_test(st, test_inode_crc);
	suite_add_tcase(s, raw);
	suite_add_tcase(s, st);
	return s;
}

int main(void)
{
	return unit_run(crc_suite());
}
