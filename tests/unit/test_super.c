/*
 * Superblock: f2fs_sb_build from a layout, the label, features and
 * extension lists it records, f2fs_sb_validate on good and damaged copies,
 * and multi-device entries.
 */
#include <check.h>

#include <f2fs/format/crc.h>
#include <f2fs/format/endian.h>
#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/format/layout.h>
#include <f2fs/format/super.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)

static const uint8_t test_uuid[16] = {
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
};


static struct f2fs_sb_options opts(void)
{
	struct f2fs_sb_options o;

	memset(&o, 0, sizeof(o));
	memcpy(o.uuid, test_uuid, 16);
	o.version = "6.1.0-test";
	return o;
}

/* Build a 1 GiB superblock that must succeed. */
static struct f2fs_super_block *build(const struct f2fs_sb_options *o)
{
	struct f2fs_super_block *sb = malloc(sizeof(*sb));
	struct f2fs_layout l;
	struct f2fs_error err;

	ck_assert_ptr_nonnull(sb);
	unit_layout(GiB, &l);
	memset(&err, 0, sizeof(err));
	ck_assert_msg(f2fs_sb_build(sb, &l, o, &err) == 0, "build: %s", err.msg);
	return sb;
}

static void validate_ok(const struct f2fs_super_block *sb, uint64_t dev_blocks)
{
	struct f2fs_error err;

	memset(&err, 0, sizeof(err));
	ck_assert_msg(f2fs_sb_validate(sb, dev_blocks, &err) == 0, "validate: %s", err.msg);
}

static int validate(const struct f2fs_super_block *sb, struct f2fs_error *err)
{
	memset(err, 0, sizeof(*err));
	return f2fs_sb_validate(sb, 0, err);
}

static void ext_at(const struct f2fs_super_block *sb, int i, const char *want)
{
	char got[F2FS_EXTENSION_LEN + 1] = { 0 };

	memcpy(got, sb->extension_list[i], F2FS_EXTENSION_LEN);
	ck_assert_msg(strcmp(got, want) == 0, "extension %d is \"%s\", expected \"%s\"",
		      i, got, want);
	/* NUL padded */
	for (size_t k = strlen(want); k < F2FS_EXTENSION_LEN; k++)
		ck_assert_uint_eq(sb->extension_list[i][k], 0);
}

/* ---- build -------------------------------------------------------------- */

START_TEST(test_geometry)
{
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *sb = build(&o);
	const uint8_t *raw = (const uint8_t *)sb;

	/* fields at the offsets real images have (read raw, not by struct) */
	ck_assert_uint_eq(le32_load(raw + 0x00), 0xF2F52010u);
	ck_assert_uint_eq(raw[0x04] | raw[0x05] << 8, 1);
	ck_assert_uint_eq(raw[0x06] | raw[0x07] << 8, 15);
	ck_assert_uint_eq(le32_load(raw + 0x08), 9);
	ck_assert_uint_eq(le32_load(raw + 0x0C), 3);
	ck_assert_uint_eq(le32_load(raw + 0x10), 12);
	ck_assert_uint_eq(le32_load(raw + 0x14), 9);
	ck_assert_uint_eq(le32_load(raw + 0x18), 1);
	ck_assert_uint_eq(le32_load(raw + 0x1C), 1);
	ck_assert_uint_eq(le32_load(raw + 0x20), 0);   /* no sb_checksum */
	ck_assert_uint_eq(le64_load(raw + 0x24), 262144);
	ck_assert_uint_eq(le32_load(raw + 0x2C), 502);
	ck_assert_uint_eq(le32_load(raw + 0x30), 511);
	ck_assert_uint_eq(le32_load(raw + 0x34), 2);
	ck_assert_uint_eq(le32_load(raw + 0x38), 2);
	ck_assert_uint_eq(le32_load(raw + 0x3C), 4);
	ck_assert_uint_eq(le32_load(raw + 0x40), 1);
	ck_assert_uint_eq(le32_load(raw + 0x44), 502);
	ck_assert_uint_eq(le32_load(raw + 0x48), 512);
	ck_assert_uint_eq(le32_load(raw + 0x4C), 512);
	ck_assert_uint_eq(le32_load(raw + 0x50), 1536);
	ck_assert_uint_eq(le32_load(raw + 0x54), 2560);
	ck_assert_uint_eq(le32_load(raw + 0x58), 4608);
	ck_assert_uint_eq(le32_load(raw + 0x5C), 5120);
	ck_assert_uint_eq(le32_load(raw + 0x60), 3);
	ck_assert_uint_eq(le32_load(raw + 0x64), 1);
	ck_assert_uint_eq(le32_load(raw + 0x68), 2);
	ck_assert_mem_eq(raw + 0x6C, test_uuid, 16);
	ck_assert_uint_eq(le32_load(raw + 0x680), 0);          /* cp_payload */
	ck_assert_str_eq((const char *)raw + 0x684, "6.1.0-test");
	ck_assert_str_eq((const char *)raw + 0x784, "6.1.0-test");
	ck_assert_uint_eq(le32_load(raw + 0x884), 0);          /* no features */
	ck_assert_uint_eq(le32_load(raw + 0xBFC), 0);          /* no crc */
	/* no label: the name is all zero */
	for (int i = 0x7C; i < 0x47C; i++)
		ck_assert_uint_eq(raw[i], 0);
	validate_ok(sb, 262144);
	free(sb);
}
END_TEST

START_TEST(test_sb_checksum)
{
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *sb;
	const uint8_t *raw;

	o.features = F2FS_FEATURE_SB_CHKSUM | F2FS_FEATURE_EXTRA_ATTR |
		     F2FS_FEATURE_INODE_CHKSUM;
	sb = build(&o);
	raw = (const uint8_t *)sb;
	ck_assert_uint_eq(le32_load(raw + 0x884), 0x0828);
	ck_assert_uint_eq(le32_load(raw + 0x20), 3068);
	ck_assert_uint_eq(le32_load(raw + 0xBFC), f2fs_crc32(0xF2F52010u, raw, 3068));
	ck_assert_uint_eq(le32_get(sb->crc), f2fs_sb_crc(sb));
	validate_ok(sb, 0);
	free(sb);
}
END_TEST

START_TEST(test_quota_inodes_and_encoding)
{
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *sb;
	const uint8_t *raw;

	o.features = F2FS_FEATURE_QUOTA_INO | F2FS_FEATURE_CASEFOLD;
	o.qf_ino[0] = 4;
	o.qf_ino[1] = 5;
	o.qf_ino[2] = 6;
	o.encoding = F2FS_ENC_UTF8_12_1;
	o.encoding_flags = F2FS_ENC_STRICT_MODE_FL;
	sb = build(&o);
	raw = (const uint8_t *)sb;
	ck_assert_uint_eq(le32_load(raw + 0xAB9), 4);
	ck_assert_uint_eq(le32_load(raw + 0xABD), 5);
	ck_assert_uint_eq(le32_load(raw + 0xAC1), 6);
	ck_assert_uint_eq(raw[0xAC6] | raw[0xAC7] << 8, 1);
	ck_assert_uint_eq(raw[0xAC8] | raw[0xAC9] << 8, 1);
	free(sb);

	/* without casefold the encoding is not recorded */
	o.features = 0;
	sb = build(&o);
	ck_assert_uint_eq(le16_get(sb->s_encoding), 0);
	ck_assert_uint_eq(le16_get(sb->s_encoding_flags), 0);
	free(sb);
}
END_TEST

/* ---- label -------------------------------------------------------------- */

START_TEST(test_label_ascii)
{
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *sb;
	const uint8_t *name;
	char buf[64];

	o.label = "TESTLBL";
	sb = build(&o);
	name = (const uint8_t *)sb + 0x7C;
	/* "T\0E\0S\0T\0L\0B\0L\0" then zero */
	ck_assert_mem_eq(name, "T\0E\0S\0T\0L\0B\0L\0\0\0", 16);
	f2fs_sb_label(sb, buf, sizeof(buf));
	ck_assert_str_eq(buf, "TESTLBL");
	/* a short buffer truncates and stays terminated */
	f2fs_sb_label(sb, buf, 4);
	ck_assert_str_eq(buf, "TES");
	free(sb);
}
END_TEST

START_TEST(test_label_unicode)
{
	/* é (2 bytes), ✓ (3 bytes), 𝄞 (4 bytes: a surrogate pair) */
	static const char label[] = "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9d\x84\x9e";
	static const uint16_t units[] = { 'c', 'a', 'f', 0xE9, ' ', 0x2713, ' ',
					  0xD834, 0xDD1E, 0 };
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *sb;
	char buf[64];

	o.label = label;
	o.features = F2FS_FEATURE_SB_CHKSUM;
	sb = build(&o);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		ck_assert_msg(le16_get(sb->volume_name[i]) == units[i],
			      "unit %zu: 0x%04x, expected 0x%04x", i,
			      le16_get(sb->volume_name[i]), units[i]);
	f2fs_sb_label(sb, buf, sizeof(buf));
	ck_assert_str_eq(buf, label);
	validate_ok(sb, 0);
	/* a truncating buffer does not split a character */
	f2fs_sb_label(sb, buf, 5);
	ck_assert_str_eq(buf, "caf");
	free(sb);
}
END_TEST

START_TEST(test_label_limits)
{
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *sb = malloc(sizeof(*sb));
	struct f2fs_layout l;
	struct f2fs_error err;
	char *label = malloc(1024);
	char *back = malloc(2048);

	ck_assert_ptr_nonnull(sb);
	ck_assert_ptr_nonnull(label);
	ck_assert_ptr_nonnull(back);
	unit_layout(GiB, &l);
	/* 512 units fit exactly */
	memset(label, 'x', 512);
	label[512] = '\0';
	o.label = label;
	ck_assert_int_eq(f2fs_sb_build(sb, &l, &o, &err), 0);
	f2fs_sb_label(sb, back, 2048);
	ck_assert_str_eq(back, label);
	/* 513 do not */
	memset(label, 'x', 513);
	label[513] = '\0';
	ck_assert_int_eq(f2fs_sb_build(sb, &l, &o, &err), -F2FS_E_BAD_OPTION);
	ck_assert_ptr_nonnull(strstr(err.msg, "-l"));
	/* invalid UTF-8 */
	o.label = "bad\xff";
	ck_assert_int_eq(f2fs_sb_build(sb, &l, &o, &err), -F2FS_E_BAD_OPTION);
	ck_assert_ptr_nonnull(strstr(err.msg, "-l"));
	o.label = "\xc0\xaf";   /* overlong '/' */
	ck_assert_int_eq(f2fs_sb_build(sb, &l, &o, &err), -F2FS_E_BAD_OPTION);
	free(label);
	free(back);
	free(sb);
}
END_TEST

/* ---- extensions ---------------------------------------------------------- */

static const char *const default_cold[] = {
	"mp", "wm", "og", "jp", "avi", "m4v", "m4p", "mkv", "mov", "webm",
	"wav", "m4a", "3gp", "opus", "flac", "gif", "png", "svg", "webp",
	"jar", "deb", "iso", "gz", "xz", "zst", "pdf", "pyc", "ttc", "ttf",
	"exe", "apk", "cnt", "exo", "odex", "vdex", "so",
};
static const char *const default_hot[] = { "db", "vmdk", "vdi", "qcow2" };

START_TEST(test_default_extensions)
{
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *sb = build(&o);

	ck_assert_uint_eq(le32_get(sb->extension_count), 36);
	ck_assert_uint_eq(sb->hot_ext_count, 4);
	for (int i = 0; i < 36; i++)
		ext_at(sb, i, default_cold[i]);
	for (int i = 0; i < 4; i++)
		ext_at(sb, 36 + i, default_hot[i]);
	for (int i = 40; i < F2FS_MAX_EXTENSION; i++)
		ext_at(sb, i, "");
	free(sb);
}
END_TEST

START_TEST(test_added_extensions)
{
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *sb;

	/* duplicates (of defaults and within the list) and empty items skip */
	o.cold_exts = "txt,mp,,foo,txt,1234567";
	o.hot_exts = "sqlite,db,qcow2,sqlite";
	sb = build(&o);
	ck_assert_uint_eq(le32_get(sb->extension_count), 39);
	ck_assert_uint_eq(sb->hot_ext_count, 5);
	ext_at(sb, 35, "so");
	ext_at(sb, 36, "txt");
	ext_at(sb, 37, "foo");
	ext_at(sb, 38, "1234567");
	ext_at(sb, 39, "db");
	ext_at(sb, 42, "qcow2");
	ext_at(sb, 43, "sqlite");
	ext_at(sb, 44, "");
	validate_ok(sb, 0);
	free(sb);
}
END_TEST

START_TEST(test_hot_duplicate_of_cold)
{
	/* an extension already in the cold list is not added as hot */
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *sb;

	o.hot_exts = "mkv,newhot";
	sb = build(&o);
	ck_assert_uint_eq(le32_get(sb->extension_count), 36);
	ck_assert_uint_eq(sb->hot_ext_count, 5);
	ext_at(sb, 40, "newhot");
	free(sb);
}
END_TEST

START_TEST(test_extension_limits)
{
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *sb = malloc(sizeof(*sb));
	struct f2fs_layout l;
	struct f2fs_error err;
	char list[512];
	size_t n = 0;

	ck_assert_ptr_nonnull(sb);
	unit_layout(GiB, &l);
	/* 8 characters do not fit an 8-byte slot with its NUL */
	o.cold_exts = "abcdefgh";
	ck_assert_int_eq(f2fs_sb_build(sb, &l, &o, &err), -F2FS_E_BAD_OPTION);
	ck_assert_ptr_nonnull(strstr(err.msg, "-e"));
	ck_assert_ptr_nonnull(strstr(err.msg, "abcdefgh"));
	o.cold_exts = NULL;
	o.hot_exts = "ok,waytoolong";
	ck_assert_int_eq(f2fs_sb_build(sb, &l, &o, &err), -F2FS_E_BAD_OPTION);
	ck_assert_ptr_nonnull(strstr(err.msg, "-E"));

	/* 36 defaults + 24 cold + 4 hot = 64: fits */
	for (int i = 0; i < 24; i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%se%02d", i ? "," : "", i);
	o.cold_exts = list;
	o.hot_exts = NULL;
	ck_assert_int_eq(f2fs_sb_build(sb, &l, &o, &err), 0);
	ck_assert_uint_eq(le32_get(sb->extension_count), 60);
	ck_assert_uint_eq(sb->hot_ext_count, 4);
	validate_ok(sb, 0);
	/* one more hot one is 65: the -E list overflows */
	o.hot_exts = "h1";
	ck_assert_int_eq(f2fs_sb_build(sb, &l, &o, &err), -F2FS_E_BAD_OPTION);
	ck_assert_ptr_nonnull(strstr(err.msg, "-E"));
	ck_assert_ptr_nonnull(strstr(err.msg, "64"));
	/* 29 cold additions overflow in -e already (36 + 29 = 65) */
	n = 0;
	for (int i = 0; i < 29; i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%sc%02d", i ? "," : "", i);
	o.hot_exts = NULL;
	ck_assert_int_eq(f2fs_sb_build(sb, &l, &o, &err), -F2FS_E_BAD_OPTION);
	ck_assert_ptr_nonnull(strstr(err.msg, "-e"));
	free(sb);
}
END_TEST

/* ---- validation ---------------------------------------------------------- */

/* Damage a copy with sb_checksum on, reseal the CRC, expect code + words. */
static void expect_bad(struct f2fs_super_block *sb, int reseal, int code, const char *word)
{
	struct f2fs_error err;

	if (reseal)
		sb->crc = le32_put(f2fs_sb_crc(sb));
	ck_assert_int_eq(validate(sb, &err), code);
	ck_assert_int_eq(err.code, code);
	ck_assert_msg(strstr(err.msg, word) != NULL, "message \"%s\" lacks \"%s\"",
		      err.msg, word);
}

START_TEST(test_corruptions)
{
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *good, *sb = malloc(sizeof(*sb));

	ck_assert_ptr_nonnull(sb);
	o.features = F2FS_FEATURE_SB_CHKSUM;
	good = build(&o);
	validate_ok(good, 262144);

#define FRESH() memcpy(sb, good, sizeof(*sb))
	FRESH();
	sb->magic = le32_put(0xF2F52000u);
	expect_bad(sb, 1, -F2FS_E_NOT_F2FS, "magic");

	FRESH();
	sb->log_blocksize = le32_put(13);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "log_blocksize");

	FRESH();
	sb->log_blocks_per_seg = le32_put(10);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "log_blocks_per_seg");

	FRESH();
	sb->log_sectorsize = le32_put(8);
	sb->log_sectors_per_block = le32_put(4);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "log_sectorsize");

	FRESH();
	sb->log_sectors_per_block = le32_put(2);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "log_sectors_per_block");

	FRESH();
	sb->root_ino = le32_put(4);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "inode");

	/* main moved by one segment: the SSA no longer ends where main starts */
	FRESH();
	sb->main_blkaddr = le32_put(5120 + 512);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "SSA");
	FRESH();
	sb->nat_blkaddr = le32_put(2560 + 1);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "NAT");
	FRESH();
	sb->cp_blkaddr = le32_put(1024);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "cp_blkaddr");
	FRESH();
	sb->segment_count_main = le32_put(501);
	sb->section_count = le32_put(501);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "main");

	/* more segments than block_count holds */
	FRESH();
	sb->block_count = le64_put(511 * 512 - 1);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "block_count");
	FRESH();
	sb->segment_count = le32_put(0);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "segment_count");
	FRESH();
	sb->section_count = le32_put(503);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "section_count");
	FRESH();
	sb->segs_per_sec = le32_put(0);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "segs_per_sec");
	FRESH();
	sb->secs_per_zone = le32_put(0);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "secs_per_zone");
	FRESH();
	sb->segment_count_ckpt = le32_put(3);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "segment_count_ckpt");
	FRESH();
	sb->segment_count_sit = le32_put(3);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "SIT");
	FRESH();
	sb->extension_count = le32_put(65);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "extension");
	FRESH();
	sb->cp_payload = le32_put(500);
	expect_bad(sb, 1, -F2FS_E_CORRUPT, "cp_payload");

	/* crc: a changed byte without resealing, and a changed crc */
	FRESH();
	sb->uuid[0] ^= 1;
	expect_bad(sb, 0, -F2FS_E_BAD_CHECKSUM, "CRC");
	FRESH();
	sb->crc ^= le32_put(0x100);
	expect_bad(sb, 0, -F2FS_E_BAD_CHECKSUM, "CRC");
	FRESH();
	sb->checksum_offset = le32_put(0);
	expect_bad(sb, 0, -F2FS_E_CORRUPT, "checksum_offset");
	/* the label is covered too */
	FRESH();
	sb->volume_name[3] = le16_put('Z');
	expect_bad(sb, 0, -F2FS_E_BAD_CHECKSUM, "CRC");
#undef FRESH
	free(good);
	free(sb);
}
END_TEST

START_TEST(test_no_checksum_accepts_zero_crc)
{
	/* mkfs 1.15 without -O: checksum_offset 0, crc 0, and that is valid */
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *sb = build(&o);
	struct f2fs_error err;

	ck_assert_uint_eq(le32_get(sb->crc), 0);
	validate_ok(sb, 0);
	/* damage is then caught by the structure checks alone */
	sb->main_blkaddr = le32_put(5120 + 512);
	ck_assert_int_eq(validate(sb, &err), -F2FS_E_CORRUPT);
	free(sb);
}
END_TEST

START_TEST(test_device_bound)
{
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *sb = build(&o);
	struct f2fs_error err;

	validate_ok(sb, 262144);
	validate_ok(sb, 262145);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(f2fs_sb_validate(sb, 262143, &err), -F2FS_E_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "end of the device"));
	free(sb);
}
END_TEST

/* ---- multiple devices ---------------------------------------------------- */

static void multi_layout(struct f2fs_layout *l)
{
	struct f2fs_layout_params p;
	struct f2fs_error err;

	memset(&p, 0, sizeof(p));
	p.ndevs = 3;
	p.dev_bytes[0] = GiB;
	p.dev_bytes[1] = 512 * MiB;
	p.dev_bytes[2] = 300 * MiB;
	p.sector_size = 512;
	p.segs_per_sec = 1;
	p.secs_per_zone = 1;
	ck_assert_msg(f2fs_layout_compute(&p, l, &err) == 0, "%s", err.msg);
}

START_TEST(test_multi_device)
{
	static const char *const paths[] = { "/dev/vda", "/dev/disk/by-id/second", "/dev/vdc" };
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *sb = malloc(sizeof(*sb));
	struct f2fs_layout l;
	struct f2fs_error err;
	const uint8_t *raw = (const uint8_t *)sb;

	ck_assert_ptr_nonnull(sb);
	multi_layout(&l);
	for (int i = 0; i < 3; i++)
		o.dev_paths[i] = paths[i];
	o.features = F2FS_FEATURE_SB_CHKSUM;
	ck_assert_int_eq(f2fs_sb_build(sb, &l, &o, &err), 0);
	/* devs[] at 0x899: path[64] + le32 total_segments */
	ck_assert_str_eq((const char *)raw + 0x899, "/dev/vda");
	ck_assert_uint_eq(le32_load(raw + 0x899 + 64), 511);
	ck_assert_str_eq((const char *)raw + 0x899 + 68, "/dev/disk/by-id/second");
	ck_assert_uint_eq(le32_load(raw + 0x899 + 68 + 64), 256);
	ck_assert_str_eq((const char *)raw + 0x899 + 136, "/dev/vdc");
	ck_assert_uint_eq(le32_load(raw + 0x899 + 136 + 64), 150);
	for (int i = 3; i < F2FS_MAX_DEVICES; i++) {
		ck_assert_uint_eq(sb->devs[i].path[0], 0);
		ck_assert_uint_eq(le32_get(sb->devs[i].total_segments), 0);
	}
	ck_assert_uint_eq(le32_get(sb->segment_count), 511 + 256 + 150);
	ck_assert_uint_eq(le64_get(sb->block_count), (GiB + 812 * MiB) / 4096);
	validate_ok(sb, 0);

	/* the device segments must add up to segment_count */
	sb->devs[1].total_segments = le32_put(255);
	sb->crc = le32_put(f2fs_sb_crc(sb));
	ck_assert_int_eq(validate(sb, &err), -F2FS_E_CORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "devices"));
	free(sb);
}
END_TEST

START_TEST(test_multi_device_paths)
{
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *sb = malloc(sizeof(*sb));
	struct f2fs_layout l;
	struct f2fs_error err;
	char longpath[80];

	ck_assert_ptr_nonnull(sb);
	multi_layout(&l);
	/* a missing path */
	o.dev_paths[0] = "/dev/vda";
	o.dev_paths[1] = "/dev/vdb";
	ck_assert_int_eq(f2fs_sb_build(sb, &l, &o, &err), -F2FS_E_BAD_OPTION);
	ck_assert_ptr_nonnull(strstr(err.msg, "-c"));
	/* 63 bytes fit with the NUL; 64 do not */
	memset(longpath, 'p', sizeof(longpath));
	longpath[0] = '/';
	longpath[63] = '\0';
	o.dev_paths[2] = longpath;
	ck_assert_int_eq(f2fs_sb_build(sb, &l, &o, &err), 0);
	ck_assert_uint_eq(strnlen((const char *)sb->devs[2].path, 64), 63);
	longpath[63] = 'p';
	longpath[64] = '\0';
	ck_assert_int_eq(f2fs_sb_build(sb, &l, &o, &err), -F2FS_E_BAD_OPTION);
	ck_assert_ptr_nonnull(strstr(err.msg, "-c"));
	free(sb);
}
END_TEST

START_TEST(test_single_device_no_paths)
{
	/* one device: devs[] stays empty even if a path is given */
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *sb;

	o.dev_paths[0] = "/dev/vda";
	sb = build(&o);
	for (int i = 0; i < F2FS_MAX_DEVICES; i++)
		ck_assert_uint_eq(sb->devs[i].path[0], 0);
	free(sb);
}
END_TEST

START_TEST(test_zoned_feature)
{
	struct f2fs_layout_params p;
	struct f2fs_layout l;
	struct f2fs_error err;
	struct f2fs_sb_options o = opts();
	struct f2fs_super_block *sb = malloc(sizeof(*sb));

	ck_assert_ptr_nonnull(sb);
	memset(&p, 0, sizeof(p));
	p.ndevs = 1;
	p.dev_bytes[0] = 16 * GiB;
	p.sector_size = 4096;
	p.zone_bytes = 256 * MiB;
	ck_assert_int_eq(f2fs_layout_compute(&p, &l, &err), 0);
	ck_assert_int_eq(f2fs_sb_build(sb, &l, &o, &err), 0);
	ck_assert_uint_eq(le32_get(sb->feature) & F2FS_FEATURE_BLKZONED, F2FS_FEATURE_BLKZONED);
	ck_assert_uint_eq(le32_get(sb->segs_per_sec), 128);
	ck_assert_uint_eq(le32_get(sb->log_sectorsize), 12);
	ck_assert_uint_eq(le32_get(sb->log_sectors_per_block), 0);
	validate_ok(sb, 0);
	free(sb);
}
END_TEST

static Suite *super_suite(void)
{
	Suite *s = suite_create("super");
	TCase *b = tcase_create("build");
	TCase *lab = tcase_create("label");
	TCase *ext = tcase_create("extensions");
	TCase *val = tcase_create("validate");
	TCase *dev = tcase_create("devices");

	tcase_add_test(b, test_geometry);
	tcase_add_test(b, test_sb_checksum);
	tcase_add_test(b, test_quota_inodes_and_encoding);
	tcase_add_test(lab, test_label_ascii);
	tcase_add_test(lab, test_label_unicode);
	tcase_add_test(lab, test_label_limits);
	tcase_add_test(ext, test_default_extensions);
	tcase_add_test(ext, test_added_extensions);
	tcase_add_test(ext, test_hot_duplicate_of_cold);
	tcase_add_test(ext, test_extension_limits);
	tcase_add_test(val, test_corruptions);
	tcase_add_test(val, test_no_checksum_accepts_zero_crc);
	tcase_add_test(val, test_device_bound);
	tcase_add_test(dev, test_multi_device);
	tcase_add_test(dev, test_multi_device_paths);
	tcase_add_test(dev, test_single_device_no_paths);
	tcase_add_test(dev, test_zoned_feature);
	suite_add_tcase(s, b);
	suite_add_tcase(s, lab);
	suite_add_tcase(s, ext);
	suite_add_tcase(s, val);
	suite_add_tcase(s, dev);
	return s;
}

int main(void)
{
	return unit_run(super_suite());
}
