/*
 * f2fs_mkfs on temporary image files, checked through the library's own
 * readers (superblock, checkpoint choice, NAT) and raw block reads against
 * what mkfs.f2fs 1.15 writes; and failures that must leave the target alone.
 */
#include <check.h>

#include <f2fs/fs/meta_read.h>
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/crc.h>
#include <f2fs/io/dev.h>
#include <f2fs/format/endian.h>
#include <f2fs/util/error.h>
#include <f2fs/format/feature.h>
#include <f2fs/format/format.h>
#include <f2fs/format/hash.h>
#include <f2fs/build/mkfs.h>
#include <f2fs/format/nat_bits.h>
#include <f2fs/format/super.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)
#define BLK F2FS_BLKSIZE

static char path[160];

static void tmp_path(const char *tag)
{
	const char *dir = getenv("TMPDIR");

	snprintf(path, sizeof(path), "%s/f2fs-mkfs-%s-%ld",
		 dir && strlen(dir) < 80 ? dir : "/tmp", tag, (long)getpid());
}

static void teardown(void)
{
	if (path[0])
		unlink(path);
}

static void sparse_file(const char *tag, uint64_t bytes)
{
	tmp_path(tag);
	unit_sparse_file(path, bytes);
}

/* A known, non-zero pattern (no recognisable signature). */
static uint8_t *pattern(size_t bytes)
{
	uint64_t *buf = malloc(bytes), x = 0x9E3779B97F4A7C15ull;

	ck_assert_ptr_nonnull(buf);
	for (size_t i = 0; i < bytes / 8; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = x;
	}
	return (uint8_t *)buf;
}

static void pattern_file(const char *tag, size_t bytes)
{
	uint8_t *buf = pattern(bytes);
	int fd;

	tmp_path(tag);
	fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, bytes), (ssize_t)bytes);
	close(fd);
	free(buf);
}

static void assert_pattern_intact(size_t bytes)
{
	uint8_t *want = pattern(bytes), *buf = malloc(bytes + 1);
	struct stat st;
	int fd = open(path, O_RDONLY);

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_size, (off_t)bytes);
	ck_assert_int_eq(read(fd, buf, bytes + 1), (ssize_t)bytes);
	close(fd);
	ck_assert_msg(memcmp(buf, want, bytes) == 0, "the target's bytes changed");
	free(want);
	free(buf);
}

static void run_mkfs_ok(const struct f2fs_mkfs_options *o, struct f2fs_mkfs_report *rep)
{
	struct f2fs_error err;

	memset(&err, 0, sizeof(err));
	ck_assert_msg(f2fs_mkfs(o, rep, &err) == 0, "mkfs: %s", err.msg);
}

static void base_opts(struct f2fs_mkfs_options *o)
{
	unit_mkfs_opts(o, path);
}

static struct f2fs_dev *open_ro(void)
{
	struct f2fs_dev *dev;
	struct f2fs_error err;

	ck_assert_msg(f2fs_dev_open(&dev, path, F2FS_DEV_RDONLY, &err) == 0, "%s", err.msg);
	return dev;
}

static void read_blk(struct f2fs_dev *dev, uint64_t blk, void *buf)
{
	struct f2fs_error err;

	ck_assert_msg(f2fs_dev_read(dev, blk, buf, 1, &err) == 0, "%s", err.msg);
}

/* Node block of a nid, looked up in NAT block 0 (copy 1). */
static uint32_t nat_addr(const struct f2fs_nat_block *nb, uint32_t nid, uint32_t *ino)
{
	if (ino)
		*ino = le32_get(nb->entries[nid].ino);
	return le32_get(nb->entries[nid].block_addr);
}

/* ---- default 1 GiB -------------------------------------------------------- */

START_TEST(test_default_1g)
{
	struct f2fs_mkfs_options o;
	struct f2fs_mkfs_report rep;
	struct f2fs_super_block sb;
	struct f2fs_error err, perr;
	struct f2fs_cp_choice ch;
	struct f2fs_dev *dev;
	uint8_t cp[BLK], blk[BLK], blk2[BLK];
	const struct f2fs_checkpoint *c = (const struct f2fs_checkpoint *)cp;
	struct f2fs_nat_block nb;
	const struct f2fs_node *root = (const struct f2fs_node *)blk;
	int copy = -1;
	uint32_t ino;

	sparse_file("1g", GiB);
	base_opts(&o);
	run_mkfs_ok(&o, &rep);

	/* the report */
	ck_assert_uint_eq(rep.layout.segment_count, 511);
	ck_assert_uint_eq(rep.layout.main_blkaddr, 5120);
	ck_assert_uint_eq(rep.device_bytes[0], GiB);
	ck_assert_uint_eq(rep.sector_size, 512);
	ck_assert_uint_eq(rep.root_ino, 3);
	ck_assert_uint_eq(rep.lost_found_ino, 0);
	ck_assert_uint_eq(rep.features, 0);
	ck_assert(rep.trimmed);
	ck_assert_ptr_null(rep.existing);
	ck_assert_uint_eq(rep.checkpoint_version & 1, 1);
	/* only a handful of blocks are written on a sparse image */
	ck_assert_uint_gt(rep.bytes_written, 10 * BLK);
	ck_assert_uint_lt(rep.bytes_written, 64 * BLK);

	dev = open_ro();
	ck_assert_uint_eq(f2fs_dev_bytes(dev), GiB);
	memset(&err, 0, sizeof(err));
	ck_assert_msg(f2fs_sb_read(dev, &sb, &copy, &perr, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(copy, 0);
	ck_assert_int_eq(perr.code, 0);
	ck_assert_uint_eq(le64_get(sb.block_count), 262144);
	ck_assert_uint_eq(le32_get(sb.segment_count_main), 502);
	ck_assert_uint_eq(le32_get(sb.feature), 0);
	ck_assert_uint_eq(le32_get(sb.extension_count), 36);
	ck_assert_uint_eq(sb.hot_ext_count, 4);
	ck_assert_mem_eq(sb.uuid, rep.uuid, 16);
	ck_assert_str_eq((const char *)sb.version, "6.1.0-unit");
	/* both superblock copies are identical, at byte 1024 */
	read_blk(dev, 0, blk);
	read_blk(dev, 1, blk2);
	ck_assert_mem_eq(blk, blk2, BLK);
	ck_assert_mem_eq(blk + 1024, &sb, sizeof(sb));
	for (int i = 0; i < 1024; i++)
		ck_assert_uint_eq(blk[i], 0);

	/* the checkpoint: pack 1, the reported version */
	memset(&err, 0, sizeof(err));
	ck_assert_msg(f2fs_cp_choose(dev, 512, 0, cp, &ch, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(ch.pack, 0);
	ck_assert_uint_eq(ch.version, rep.checkpoint_version);
	ck_assert_uint_eq(le64_get(c->checkpoint_ver), rep.checkpoint_version);
	ck_assert_uint_eq(le32_get(c->ckpt_flags), 0x185);
	ck_assert_uint_eq(le64_get(c->user_block_count), 222208);
	ck_assert_uint_eq(le64_get(c->valid_block_count), 2);
	ck_assert_uint_eq(le32_get(c->rsvd_segment_count), 39);
	ck_assert_uint_eq(le32_get(c->overprov_segment_count), 68);
	ck_assert_uint_eq(le32_get(c->free_segment_count), 496);
	ck_assert_uint_eq(le32_get(c->cur_node_segno[0]), 0);
	ck_assert_uint_eq(le32_get(c->cur_node_segno[1]), 1);
	ck_assert_uint_eq(le32_get(c->cur_node_segno[2]), 2);
	ck_assert_uint_eq(le32_get(c->cur_node_segno[3]), 0xFFFFFFFFu);
	ck_assert_uint_eq(le32_get(c->cur_data_segno[0]), 3);
	ck_assert_uint_eq(le32_get(c->cur_data_segno[1]), 250);
	ck_assert_uint_eq(le32_get(c->cur_data_segno[2]), 124);
	ck_assert_uint_eq(le32_get(c->cur_data_segno[7]), 0xFFFFFFFFu);
	ck_assert_uint_eq(le16_get(c->cur_node_blkoff[0]), 1);
	ck_assert_uint_eq(le16_get(c->cur_node_blkoff[1]), 0);
	ck_assert_uint_eq(le16_get(c->cur_data_blkoff[0]), 1);
	ck_assert_uint_eq(le16_get(c->cur_data_blkoff[1]), 0);
	ck_assert_uint_eq(le32_get(c->cp_pack_total_block_count), 6);
	ck_assert_uint_eq(le32_get(c->cp_pack_start_sum), 1);
	ck_assert_uint_eq(le32_get(c->valid_node_count), 1);
	ck_assert_uint_eq(le32_get(c->valid_inode_count), 1);
	ck_assert_uint_eq(le32_get(c->next_free_nid), 4);
	ck_assert_uint_eq(le32_get(c->sit_ver_bitmap_bytesize), 64);
	ck_assert_uint_eq(le32_get(c->nat_ver_bitmap_bytesize), 128);
	ck_assert_uint_eq(le32_get(c->checksum_offset), 4092);
	/* all version bitmap bits 0: copy 1 live everywhere */
	for (int i = 192; i < 192 + 64 + 128; i++)
		ck_assert_uint_eq(cp[i], 0);
	/* footer = header */
	read_blk(dev, 517, blk);
	ck_assert_mem_eq(blk, cp, BLK);

	/* compacted summary: the NAT set of block 0 (reserved nids) is written
	 * to its block, so the NAT journal is empty; 6 SIT entries */
	read_blk(dev, 513, blk);
	ck_assert_uint_eq(le16_get(*(const uint16_t *)blk), 0);
	ck_assert_uint_eq(blk[507] | blk[508] << 8, 6);
	ck_assert_uint_eq(le32_load(blk + 1014), 3);   /* hot data entry 0: nid 3 */

	/* nat_bits in the last block of pack 1's segment */
	read_blk(dev, 1023, blk);
	ck_assert_uint_eq(le64_load(blk),
			  f2fs_nat_bits_header(rep.checkpoint_version, f2fs_cp_stored_crc(cp)));
	for (int i = 0; i < 128; i++)
		ck_assert_uint_eq(blk[8 + i], 0);
	ck_assert_uint_eq(blk[8 + 128], 0xFE);
	ck_assert_uint_eq(blk[8 + 255], 0xFF);

	/* NAT block 0: nids 1 and 2 at block 1, root at 5120 */
	read_blk(dev, 2560, &nb);
	ck_assert_uint_eq(nat_addr(&nb, 1, &ino), 1);
	ck_assert_uint_eq(ino, 1);
	ck_assert_uint_eq(nat_addr(&nb, 2, &ino), 1);
	ck_assert_uint_eq(ino, 2);
	ck_assert_uint_eq(nat_addr(&nb, 3, &ino), 5120);
	ck_assert_uint_eq(ino, 3);
	ck_assert_uint_eq(nat_addr(&nb, 4, &ino), 0);
	ck_assert_uint_eq(f2fs_nat_block_used(&nb, 0), 4);

	/* root inode and its dentry block */
	read_blk(dev, 5120, blk);
	ck_assert_uint_eq(le16_get(root->i.i_mode), 040755);
	ck_assert_uint_eq(le32_get(root->i.i_links), 2);
	ck_assert_uint_eq(le64_get(root->i.i_size), 4096);
	ck_assert_uint_eq(le64_get(root->i.i_blocks), 2);
	ck_assert_uint_eq(le32_get(root->i.i_current_depth), 1);
	ck_assert_uint_eq(le32_get(root->i.i_addr[0]), 6656);
	ck_assert_uint_eq(le32_get(root->footer.nid), 3);
	ck_assert_uint_eq(le32_get(root->footer.ino), 3);
	ck_assert_uint_eq(le64_get(root->footer.cp_ver), rep.checkpoint_version);
	ck_assert_uint_eq(le32_get(root->footer.next_blkaddr), 5121);
	read_blk(dev, 6656, blk);
	{
		const struct f2fs_dentry_block *d = (const struct f2fs_dentry_block *)blk;

		ck_assert_uint_eq(d->dentry_bitmap[0], 0x03);
		ck_assert_uint_eq(le32_get(d->dentry[0].ino), 3);
		ck_assert_uint_eq(le16_get(d->dentry[0].name_len), 1);
		ck_assert_uint_eq(d->dentry[0].file_type, 2);
		ck_assert_uint_eq(le32_get(d->dentry[1].ino), 3);
		ck_assert_uint_eq(le16_get(d->dentry[1].name_len), 2);
		ck_assert_mem_eq(d->filename[0], ".", 1);
		ck_assert_mem_eq(d->filename[1], "..", 2);
	}
	f2fs_dev_close(dev);
}
END_TEST

START_TEST(test_backup_superblock)
{
	/* copy 0 damaged: f2fs_sb_read falls back to copy 1 and says why */
	struct f2fs_mkfs_options o;
	struct f2fs_mkfs_report rep;
	struct f2fs_super_block sb;
	struct f2fs_error err, perr;
	struct f2fs_dev *dev;
	uint8_t blk[BLK];
	int copy = -1;

	sparse_file("backup", 256 * MiB);
	base_opts(&o);
	run_mkfs_ok(&o, &rep);
	ck_assert_int_eq(f2fs_dev_open(&dev, path, F2FS_DEV_RDWR, &err), 0);
	read_blk(dev, 0, blk);
	le32_store(blk + 1024, 0xF2F52000u);
	ck_assert_int_eq(f2fs_dev_write(dev, 0, blk, 1, &err), 0);
	ck_assert_int_eq(f2fs_dev_flush(dev, &err), 0);
	memset(&perr, 0, sizeof(perr));
	ck_assert_msg(f2fs_sb_read(dev, &sb, &copy, &perr, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(copy, 1);
	ck_assert_int_eq(perr.code, -F2FS_E_NOT_F2FS);
	ck_assert_ptr_nonnull(strstr(perr.msg, "magic"));
	/* both damaged: an error */
	read_blk(dev, 1, blk);
	le32_store(blk + 1024 + 0x10, 13);
	ck_assert_int_eq(f2fs_dev_write(dev, 1, blk, 1, &err), 0);
	ck_assert_int_eq(f2fs_dev_flush(dev, &err), 0);
	ck_assert_int_lt(f2fs_sb_read(dev, &sb, &copy, &perr, &err), 0);
	ck_assert_int_eq(err.code, -F2FS_E_CORRUPT);
	f2fs_dev_close(dev);
}
END_TEST

/* ---- features ------------------------------------------------------------- */

START_TEST(test_features)
{
	struct f2fs_mkfs_options o;
	struct f2fs_mkfs_report rep;
	struct f2fs_super_block sb;
	struct f2fs_error err;
	struct f2fs_cp_choice ch;
	struct f2fs_dev *dev;
	struct f2fs_nat_block nb;
	uint8_t cp[BLK], blk[BLK];
	const struct f2fs_checkpoint *c = (const struct f2fs_checkpoint *)cp;
	const struct f2fs_node *n = (const struct f2fs_node *)blk;
	uint32_t features = 0, seed;

	sparse_file("feat", GiB);
	base_opts(&o);
	ck_assert_int_eq(f2fs_feature_parse("extra_attr,inode_checksum,quota,lost_found,"
					    "project_quota,sb_checksum", &features, &err), 0);
	o.features = features;
	o.label = "m\xc3\xbcsli";
	run_mkfs_ok(&o, &rep);
	ck_assert_uint_eq(rep.features, 0x0800 | 0x0200 | 0x0080 | 0x0020 | 0x0010 | 0x0008);
	ck_assert_uint_eq(rep.quota_ino[0], 4);
	ck_assert_uint_eq(rep.quota_ino[1], 5);
	ck_assert_uint_eq(rep.quota_ino[2], 6);
	ck_assert_uint_eq(rep.lost_found_ino, 7);

	dev = open_ro();
	ck_assert_msg(f2fs_sb_read(dev, &sb, NULL, NULL, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(le32_get(sb.feature), rep.features);
	ck_assert_uint_eq(le32_get(sb.checksum_offset), 3068);
	ck_assert_uint_eq(le32_get(sb.crc), f2fs_sb_crc(&sb));
	ck_assert_uint_eq(le32_get(sb.qf_ino[0]), 4);
	ck_assert_uint_eq(le32_get(sb.qf_ino[1]), 5);
	ck_assert_uint_eq(le32_get(sb.qf_ino[2]), 6);
	{
		char label[32];

		f2fs_sb_label(&sb, label, sizeof(label));
		ck_assert_str_eq(label, "m\xc3\xbcsli");
	}

	ck_assert_msg(f2fs_cp_choose(dev, 512, 0, cp, &ch, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(ch.pack, 0);
	ck_assert_uint_eq(ch.version, rep.checkpoint_version);
	ck_assert_uint_eq(le64_get(c->valid_block_count), 13);
	ck_assert_uint_eq(le32_get(c->valid_node_count), 5);
	ck_assert_uint_eq(le32_get(c->valid_inode_count), 5);
	ck_assert_uint_eq(le32_get(c->next_free_nid), 8);
	ck_assert_uint_eq(le16_get(c->cur_node_blkoff[0]), 5);
	ck_assert_uint_eq(le16_get(c->cur_data_blkoff[0]), 8);

	/* every inode is where NAT says, names itself and has a good checksum */
	read_blk(dev, 2560, &nb);
	seed = f2fs_inode_crc_seed(sb.uuid);
	for (uint32_t nid = 3; nid <= 7; nid++) {
		uint32_t ino, addr = nat_addr(&nb, nid, &ino);

		ck_assert_uint_eq(ino, nid);
		/* hot node log order: root, lost+found, then the quota files */
		ck_assert_uint_eq(addr, nid == 3 ? 5120 : nid == 7 ? 5121 : 5122 + (nid - 4));
		read_blk(dev, addr, blk);
		ck_assert_uint_eq(le32_get(n->footer.nid), nid);
		ck_assert_uint_eq(le32_get(n->footer.ino), nid);
		ck_assert_uint_eq(n->i.i_inline & F2FS_EXTRA_ATTR, F2FS_EXTRA_ATTR);
		ck_assert_uint_ge(le16_get(n->i.extra.i_extra_isize), 12);
		ck_assert_msg(le32_get(n->i.extra.i_inode_checksum) == f2fs_inode_crc(n, seed),
			      "inode %u checksum 0x%08x, computed 0x%08x", nid,
			      le32_get(n->i.extra.i_inode_checksum), f2fs_inode_crc(n, seed));
		if (nid >= 4 && nid <= 6) {   /* quota files */
			ck_assert_uint_eq(le16_get(n->i.i_mode), 0100600);
			ck_assert_uint_eq(le32_get(n->i.i_flags), F2FS_IMMUTABLE_FL);
			ck_assert_uint_eq(le64_get(n->i.i_size), 6144);
		}
	}
	ck_assert_uint_eq(nat_addr(&nb, 8, NULL), 0);

	/* root: links 3, lost+found in its dentry block */
	read_blk(dev, 5120, blk);
	ck_assert_uint_eq(le32_get(n->i.i_links), 3);
	{
		uint32_t daddr = le32_get(n->i.i_addr[le16_get(n->i.extra.i_extra_isize) / 4]);
		const struct f2fs_dentry_block *d = (const struct f2fs_dentry_block *)blk;
		int found = 0;

		ck_assert_uint_ge(daddr, 5120 + 3 * 512);
		read_blk(dev, daddr, blk);
		for (int s = 0; s < F2FS_NR_DENTRY_IN_BLOCK; s++) {
			if (!(d->dentry_bitmap[s / 8] >> (s % 8) & 1) ||
			    le16_get(d->dentry[s].name_len) != 10)
				continue;
			ck_assert_mem_eq(d->filename[s], "lost+fou", 8);
			ck_assert_mem_eq(d->filename[s + 1], "nd", 2);
			ck_assert_uint_eq(le32_get(d->dentry[s].hash_code), 0x2DBF9E80u);
			ck_assert_uint_eq(le32_get(d->dentry[s].hash_code),
					  f2fs_dentry_hash((const uint8_t *)"lost+found", 10));
			ck_assert_uint_eq(le32_get(d->dentry[s].ino), 7);
			ck_assert_uint_eq(d->dentry[s].file_type, 2);
			found = 1;
		}
		ck_assert(found);
	}
	f2fs_dev_close(dev);
}
END_TEST

START_TEST(test_fixed_version_and_new_file)
{
	/* the target does not exist: a sector count creates it */
	struct f2fs_mkfs_options o;
	struct f2fs_mkfs_report rep;
	struct f2fs_error err;
	struct f2fs_cp_choice ch;
	struct f2fs_dev *dev;
	uint8_t cp[BLK];
	struct stat st;

	tmp_path("newfile");
	unlink(path);
	base_opts(&o);
	o.sector_count = 200 * MiB / 512;
	o.fixed_version = true;
	run_mkfs_ok(&o, &rep);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_size, (off_t)(200 * MiB));
	ck_assert_uint_eq(rep.checkpoint_version, 1804289383);   /* as mkfs.f2fs -r */
	dev = open_ro();
	ck_assert_msg(f2fs_cp_choose(dev, 512, 0, cp, &ch, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(ch.pack, 0);
	ck_assert_uint_eq(ch.version, 1804289383);
	ck_assert_int_eq(ch.other_valid, 1);
	f2fs_dev_close(dev);
}
END_TEST

/* Read a whole (small) image. */
static uint8_t *slurp(size_t bytes)
{
	uint8_t *buf = malloc(bytes);
	int fd = open(path, O_RDONLY);

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(read(fd, buf, bytes), (ssize_t)bytes);
	close(fd);
	return buf;
}

START_TEST(test_reproducible)
{
	/* same UUID and timestamp: the same bytes, even over an old image */
	struct f2fs_mkfs_options o;
	struct f2fs_mkfs_report rep;
	uint8_t *a, *b;
	const size_t bytes = 64 * MiB;

	sparse_file("repro", bytes);
	base_opts(&o);
	memset(o.uuid, 0x5A, 16);
	o.uuid_set = true;
	o.timestamp = 1700000000;
	o.timestamp_set = true;
	o.force = true;
	run_mkfs_ok(&o, &rep);
	a = slurp(bytes);
	o.features = F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_QUOTA_INO;
	run_mkfs_ok(&o, &rep);
	o.features = 0;
	run_mkfs_ok(&o, &rep);
	b = slurp(bytes);
	ck_assert(memcmp(a, b, bytes) == 0);
	ck_assert_mem_eq(rep.uuid, o.uuid, 16);
	free(a);
	free(b);
}
END_TEST

/* ---- failures leave the target alone -------------------------------------- */

static void expect_fail(const struct f2fs_mkfs_options *o, int code, const char *word)
{
	struct f2fs_mkfs_report rep;
	struct f2fs_error err;

	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(f2fs_mkfs(o, &rep, &err), code);
	ck_assert_int_eq(err.code, code);
	ck_assert_msg(strstr(err.msg, word) != NULL, "message \"%s\" lacks \"%s\"",
		      err.msg, word);
}

START_TEST(test_bad_feature_untouched)
{
	struct f2fs_mkfs_options o;
	const size_t bytes = 8 * MiB;

	pattern_file("badfeat", bytes);
	base_opts(&o);
	o.features = F2FS_FEATURE_INODE_CHKSUM;
	expect_fail(&o, -F2FS_E_BAD_OPTION, "extra_attr");
	assert_pattern_intact(bytes);
	o.features = F2FS_FEATURE_CASEFOLD;   /* no encoding */
	expect_fail(&o, -F2FS_E_BAD_OPTION, "casefold");
	o.features = 0;
	o.encoding = F2FS_ENC_UTF8_12_1;      /* encoding without casefold */
	expect_fail(&o, -F2FS_E_BAD_OPTION, "-C");
	assert_pattern_intact(bytes);
}
END_TEST

START_TEST(test_too_small_untouched)
{
	struct f2fs_mkfs_options o;
	const size_t bytes = 48 * MiB;

	pattern_file("small", bytes);
	base_opts(&o);
	expect_fail(&o, -F2FS_E_TOO_SMALL, "small");
	assert_pattern_intact(bytes);
	/* asking for less than the file holds changes nothing either */
	o.sector_count = 20 * MiB / 512;
	expect_fail(&o, -F2FS_E_TOO_SMALL, "small");
	assert_pattern_intact(bytes);
}
END_TEST

START_TEST(test_bad_layout_options_untouched)
{
	struct f2fs_mkfs_options o;
	const size_t bytes = 64 * MiB;   /* big enough to get past the layout */

	pattern_file("badopt", bytes);
	base_opts(&o);
	o.overprovision = 100;
	expect_fail(&o, -F2FS_E_BAD_OPTION, "-o");
	o.overprovision = 0;
	o.segs_per_sec = 0;
	expect_fail(&o, -F2FS_E_BAD_OPTION, "-s");
	o.segs_per_sec = 1;
	o.sector_size = 1000;
	expect_fail(&o, -F2FS_E_BAD_OPTION, "1000");
	o.sector_size = 256;   /* below the smallest sector */
	expect_fail(&o, -F2FS_E_BAD_OPTION, "-w");
	o.sector_size = 0;
	o.zoned = true;        /* a file is not zoned */
	expect_fail(&o, -F2FS_E_BAD_OPTION, "-m");
	o.zoned = false;
	o.label = "bad\xff";
	expect_fail(&o, -F2FS_E_BAD_OPTION, "-l");
	o.label = NULL;
	o.cold_exts = "toolongext";
	expect_fail(&o, -F2FS_E_BAD_OPTION, "-e");
	assert_pattern_intact(bytes);
}
END_TEST

START_TEST(test_missing_target)
{
	struct f2fs_mkfs_options o;

	tmp_path("missing");
	unlink(path);
	base_opts(&o);
	/* no size given: nothing to create */
	expect_fail(&o, -ENOENT, path);
	ck_assert_int_eq(access(path, F_OK), -1);
	/* a size too small: the new file is removed again */
	o.sector_count = 10 * MiB / 512;
	expect_fail(&o, -F2FS_E_TOO_SMALL, "small");
	ck_assert_int_eq(access(path, F_OK), -1);
	/* a bad option: never created */
	o.sector_count = 100 * MiB / 512;
	o.overprovision = 120;
	expect_fail(&o, -F2FS_E_BAD_OPTION, "-o");
	ck_assert_int_eq(access(path, F_OK), -1);
	/* device count */
	o.overprovision = 0;
	o.ndevs = 0;
	expect_fail(&o, -F2FS_E_BAD_OPTION, "-c");
	ck_assert_int_eq(access(path, F_OK), -1);
}
END_TEST

START_TEST(test_empty_file)
{
	struct f2fs_mkfs_options o;

	sparse_file("empty", 0);
	base_opts(&o);
	expect_fail(&o, -F2FS_E_TOO_SMALL, "empty");
}
END_TEST

/* ---- existing file systems ------------------------------------------------ */

static int have_mkfs_ext4(void)
{
	return system("command -v mkfs.ext4 >/dev/null 2>&1") == 0;
}

START_TEST(test_existing_ext4)
{
	struct f2fs_mkfs_options o;
	struct f2fs_mkfs_report rep;
	struct f2fs_super_block sb;
	struct f2fs_error err;
	struct f2fs_dev *dev;
	const size_t bytes = 64 * MiB;
	char cmd[256];
	uint8_t *before, *after;

	if (!have_mkfs_ext4()) {
		fprintf(stderr, "mkfs.ext4 not found: ext4 refusal not checked\n");
		return;
	}
	sparse_file("ext4", bytes);
	snprintf(cmd, sizeof(cmd), "mkfs.ext4 -q -F -L unitlbl '%s' >/dev/null 2>&1", path);
	ck_assert_int_eq(system(cmd), 0);
	before = slurp(bytes);

	base_opts(&o);
	o.force = false;
	expect_fail(&o, -F2FS_E_HAS_DATA, "ext4");
	after = slurp(bytes);
	ck_assert(memcmp(before, after, bytes) == 0);
	free(after);

	/* forced: formatted, and the report names what was there */
	o.force = true;
	run_mkfs_ok(&o, &rep);
	ck_assert_ptr_nonnull(rep.existing);
	ck_assert_ptr_nonnull(strstr(rep.existing, "ext4"));
	dev = open_ro();
	ck_assert_msg(f2fs_sb_read(dev, &sb, NULL, NULL, &err) == 0, "%s", err.msg);
	f2fs_dev_close(dev);

	/* now it holds F2FS: again refused without -f */
	o.force = false;
	expect_fail(&o, -F2FS_E_HAS_DATA, "f2fs");
	free(before);
}
END_TEST

static Suite *mkfs_suite(void)
{
	Suite *s = suite_create("mkfs");
	TCase *ok = tcase_create("format");
	TCase *bad = tcase_create("refuse");

	tcase_add_checked_fixture(ok, NULL, teardown);
	tcase_add_checked_fixture(bad, NULL, teardown);
	tcase_add_test(ok, test_default_1g);
	tcase_add_test(ok, test_backup_superblock);
	tcase_add_test(ok, test_features);
	tcase_add_test(ok, test_fixed_version_and_new_file);
	tcase_add_test(ok, test_reproducible);
	tcase_add_test(bad, test_bad_feature_untouched);
	tcase_add_test(bad, test_too_small_untouched);
	tcase_add_test(bad, test_bad_layout_options_untouched);
	tcase_add_test(bad, test_missing_target);
	tcase_add_test(bad, test_empty_file);
	tcase_add_test(bad, test_existing_ext4);
	tcase_set_timeout(ok, 30);
	tcase_set_timeout(bad, 30);
	suite_add_tcase(s, ok);
	suite_add_tcase(s, bad);
	return s;
}

int main(void)
{
	return unit_run(mkfs_suite());
}
