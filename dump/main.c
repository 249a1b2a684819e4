/* dump.f2fs: print the metadata of an F2FS image (read-only). */
#include <f2fs/crc.h>
#include <f2fs/dir.h>
#include <f2fs/endian.h>
#include <f2fs/error.h>
#include <f2fs/feature.h>
#include <f2fs/format.h>
#include <f2fs/fs.h>
#include <f2fs/inode.h>
#include <f2fs/nat.h>
#include <f2fs/nat_bits.h>
#include <f2fs/super.h>

#include "dump.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *prog = "dump.f2fs";

static void usage(FILE *f);

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	return EXIT_USAGE;
}

int error_line(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_ERROR;
}

/* ---- formatting helpers ---------------------------------------------- */

static const struct flag_name cp_flags[] = {
	{ F2FS_CP_UMOUNT, "umount" },
	{ F2FS_CP_ORPHAN_PRESENT, "orphan_present" },
	{ F2FS_CP_COMPACT_SUM, "compacted_summary" },
	{ F2FS_CP_ERROR, "error" },
	{ F2FS_CP_FSCK, "fsck" },
	{ F2FS_CP_FASTBOOT, "fastboot" },
	{ F2FS_CP_CRC_RECOVERY, "crc_recovery" },
	{ F2FS_CP_NAT_BITS, "nat_bits" },
	{ F2FS_CP_TRIMMED, "trimmed" },
	{ F2FS_CP_NOCRC_RECOVERY, "nocrc_recovery" },
	{ F2FS_CP_LARGE_NAT_BITMAP, "large_nat_bitmap" },
	{ F2FS_CP_QUOTA_NEED_FSCK, "quota_need_fsck" },
	{ F2FS_CP_DISABLED, "disabled" },
	{ F2FS_CP_DISABLED_QUICK, "disabled_quick" },
	{ F2FS_CP_RESIZEFS, "resizefs" },
	{ 0, NULL },
};

static const struct flag_name inline_flags[] = {
	{ F2FS_INLINE_XATTR, "inline_xattr" },
	{ F2FS_INLINE_DATA, "inline_data" },
	{ F2FS_INLINE_DENTRY, "inline_dentry" },
	{ F2FS_DATA_EXIST, "data_exist" },
	{ F2FS_INLINE_DOTS, "inline_dots" },
	{ F2FS_EXTRA_ATTR, "extra_attr" },
	{ F2FS_PIN_FILE, "pin_file" },
	{ F2FS_COMPRESS_RELEASED, "compress_released" },
	{ 0, NULL },
};

static const struct flag_name inode_flags[] = {
	{ F2FS_COMPR_FL, "compr" },
	{ F2FS_SYNC_FL, "sync" },
	{ F2FS_IMMUTABLE_FL, "immutable" },
	{ F2FS_APPEND_FL, "append" },
	{ F2FS_NODUMP_FL, "nodump" },
	{ F2FS_NOATIME_FL, "noatime" },
	{ F2FS_NOCOMP_FL, "nocomp" },
	{ F2FS_INDEX_FL, "index" },
	{ F2FS_DIRSYNC_FL, "dirsync" },
	{ F2FS_PROJINHERIT_FL, "projinherit" },
	{ F2FS_CASEFOLD_FL, "casefold" },
	{ 0, NULL },
};

/* "0x185 (umount,compacted_summary,...)"; unknown bits as hex. */
static void print_flags(uint32_t v, const struct flag_name *t)
{
	uint32_t rest = v;
	int first = 1;

	printf("0x%x", v);
	if (!v) {
		printf(" (none)\n");
		return;
	}
	printf(" (");
	for (; t->name; t++) {
		if (!(v & t->bit))
			continue;
		printf("%s%s", first ? "" : ",", t->name);
		rest &= ~t->bit;
		first = 0;
	}
	if (rest)
		printf("%s0x%x", first ? "" : ",", rest);
	printf(")\n");
}

/* A fixed-size NUL-padded on-disk string. */
static void put_cstr(const uint8_t *s, size_t max)
{
	size_t len = 0;

	while (len < max && s[len])
		len++;
	put_escaped(s, len);
}

static const char *human(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%" PRIu64 " B", bytes);
	else
		snprintf(buf, len, "%.2f %s", v, unit[u]);
	return buf;
}

static void print_uuid(const uint8_t u[16])
{
	for (int k = 0; k < 16; k++)
		printf("%02x%s", u[k], k == 3 || k == 5 || k == 7 || k == 9 ? "-" : "");
}

static void print_time(uint64_t sec, uint32_t nsec)
{
	time_t t = (time_t)sec;
	struct tm tm;
	char buf[64];

	if ((uint64_t)t == sec && localtime_r(&t, &tm) &&
	    strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm))
		printf("%s.%09u (%" PRIu64 ")\n", buf, nsec, sec);
	else
		printf("%" PRIu64 ".%09u\n", sec, nsec);
}

static uint32_t count_bits(const uint8_t *map, uint32_t bytes)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < bytes; k++)
		n += (uint32_t)__builtin_popcount(map[k]);
	return n;
}

#define FIELD(name) printf("  %-*s ", FIELD_WIDTH, name)

/* ---- superblock ------------------------------------------------------- */

static void print_sb_source(struct f2fs_fs *fs)
{
	const struct f2fs_error *why;
	int copy = f2fs_fs_sb_copy(fs, &why);

	if (copy == 0)
		printf("Superblock: copy 0 (primary, block 0 byte 1024)\n");
	else
		printf("Superblock: copy 1 (backup, block 1 byte 1024); copy 0 rejected: %s\n",
		       why && why->msg[0] ? why->msg : "unknown reason");
}

static void print_sb_summary(struct f2fs_fs *fs)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	uint64_t blocks = le64_get(sb->block_count);
	char label[4 * F2FS_VOLUME_NAME_UNITS + 1], feat[512], h[32];

	f2fs_sb_label(sb, label, sizeof(label));
	f2fs_feature_format(le32_get(sb->feature), feat, sizeof(feat));
	print_sb_source(fs);
	FIELD("label:");
	if (label[0])
		put_escaped((const uint8_t *)label, strlen(label));
	else
		printf("(none)");
	printf("\n");
	FIELD("uuid:");
	print_uuid(sb->uuid);
	printf("\n");
	FIELD("format version:");
	printf("%u.%u\n", le16_get(sb->major_ver), le16_get(sb->minor_ver));
	FIELD("kernel (last / at mkfs):");
	put_cstr(sb->version, F2FS_VERSION_LEN);
	printf(" / ");
	put_cstr(sb->init_version, F2FS_VERSION_LEN);
	printf("\n");
	FIELD("features:");
	printf("%s (0x%x)\n", feat, le32_get(sb->feature));
	FIELD("size:");
	printf("%" PRIu64 " blocks (%s)\n", blocks, human(blocks * F2FS_BLKSIZE, h, sizeof(h)));
	FIELD("segments:");
	printf("%u total, %u main, %u sections (%u segs/section, %u sections/zone)\n",
	       le32_get(sb->segment_count), le32_get(sb->segment_count_main),
	       le32_get(sb->section_count), le32_get(sb->segs_per_sec),
	       le32_get(sb->secs_per_zone));
	FIELD("areas (block):");
	printf("cp %u, sit %u, nat %u, ssa %u, main %u\n",
	       le32_get(sb->cp_blkaddr), le32_get(sb->sit_blkaddr),
	       le32_get(sb->nat_blkaddr), le32_get(sb->ssa_blkaddr),
	       le32_get(sb->main_blkaddr));
	FIELD("cp_payload:");
	printf("%u\n", le32_get(sb->cp_payload));
	if (le32_get(sb->feature) & F2FS_FEATURE_QUOTA_INO) {
		FIELD("quota inodes (usr/grp/prj):");
		printf("%u/%u/%u\n", le32_get(sb->qf_ino[0]), le32_get(sb->qf_ino[1]),
		       le32_get(sb->qf_ino[2]));
	}
	if (le32_get(sb->feature) & F2FS_FEATURE_CASEFOLD) {
		FIELD("encoding:");
		printf("%u%s\n", le16_get(sb->s_encoding),
		       le16_get(sb->s_encoding) == F2FS_ENC_UTF8_12_1 ? " (utf8-12.1)" : "");
	}
}

static void json_sb_summary(struct f2fs_fs *fs)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	const struct f2fs_error *why;
	char label[4 * F2FS_VOLUME_NAME_UNITS + 1], feat[512], uuid[40];
	int copy = f2fs_fs_sb_copy(fs, &why);

	f2fs_sb_label(sb, label, sizeof(label));
	f2fs_feature_format(le32_get(sb->feature), feat, sizeof(feat));
	for (int k = 0, o = 0; k < 16; k++)
		o += snprintf(uuid + o, sizeof(uuid) - (size_t)o, "%02x%s", sb->uuid[k],
			      k == 3 || k == 5 || k == 7 || k == 9 ? "-" : "");
	out_obj_begin("superblock", NULL);
	kv_u("copy", NULL, (uint64_t)copy);
	if (copy)
		kv_s("copy0_rejected", NULL, why && why->msg[0] ? why->msg : "unknown reason");
	kv_s("label", NULL, label);
	kv_s("uuid", NULL, uuid);
	kv_u("major_ver", NULL, le16_get(sb->major_ver));
	kv_u("minor_ver", NULL, le16_get(sb->minor_ver));
	kv_bytes("version", NULL, sb->version, strnlen((const char *)sb->version, F2FS_VERSION_LEN));
	kv_bytes("init_version", NULL, sb->init_version,
		 strnlen((const char *)sb->init_version, F2FS_VERSION_LEN));
	kv_s("features", NULL, feat);
	kv_u("feature", NULL, le32_get(sb->feature));
	kv_u("block_count", NULL, le64_get(sb->block_count));
	kv_u("segment_count", NULL, le32_get(sb->segment_count));
	kv_u("segment_count_main", NULL, le32_get(sb->segment_count_main));
	kv_u("section_count", NULL, le32_get(sb->section_count));
	kv_u("segs_per_sec", NULL, le32_get(sb->segs_per_sec));
	kv_u("secs_per_zone", NULL, le32_get(sb->secs_per_zone));
	kv_u("cp_blkaddr", NULL, le32_get(sb->cp_blkaddr));
	kv_u("sit_blkaddr", NULL, le32_get(sb->sit_blkaddr));
	kv_u("nat_blkaddr", NULL, le32_get(sb->nat_blkaddr));
	kv_u("ssa_blkaddr", NULL, le32_get(sb->ssa_blkaddr));
	kv_u("main_blkaddr", NULL, le32_get(sb->main_blkaddr));
	kv_u("cp_payload", NULL, le32_get(sb->cp_payload));
	out_obj_end();
}

static void print_sb_full(struct f2fs_fs *fs)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	uint32_t next = le32_get(sb->extension_count);
	char label[4 * F2FS_VOLUME_NAME_UNITS + 1], feat[512];

	print_sb_source(fs);
#define U32(f) do { FIELD(#f); printf("%u\n", le32_get(sb->f)); } while (0)
#define X32(f) do { FIELD(#f); printf("0x%08x\n", le32_get(sb->f)); } while (0)
	X32(magic);
	FIELD("major_ver");
	printf("%u\n", le16_get(sb->major_ver));
	FIELD("minor_ver");
	printf("%u\n", le16_get(sb->minor_ver));
	U32(log_sectorsize);
	U32(log_sectors_per_block);
	U32(log_blocksize);
	U32(log_blocks_per_seg);
	U32(segs_per_sec);
	U32(secs_per_zone);
	U32(checksum_offset);
	FIELD("block_count");
	printf("%" PRIu64 "\n", le64_get(sb->block_count));
	U32(section_count);
	U32(segment_count);
	U32(segment_count_ckpt);
	U32(segment_count_sit);
	U32(segment_count_nat);
	U32(segment_count_ssa);
	U32(segment_count_main);
	U32(segment0_blkaddr);
	U32(cp_blkaddr);
	U32(sit_blkaddr);
	U32(nat_blkaddr);
	U32(ssa_blkaddr);
	U32(main_blkaddr);
	U32(root_ino);
	U32(node_ino);
	U32(meta_ino);
	FIELD("uuid");
	print_uuid(sb->uuid);
	printf("\n");
	f2fs_sb_label(sb, label, sizeof(label));
	FIELD("volume_name");
	put_escaped((const uint8_t *)label, strlen(label));
	printf("\n");
	U32(extension_count);
	FIELD("hot_ext_count");
	printf("%u\n", sb->hot_ext_count);
	if (next > F2FS_MAX_EXTENSION)
		next = F2FS_MAX_EXTENSION;
	for (int pass = 0; pass < 2; pass++) {
		uint32_t from = pass ? next : 0;
		uint32_t to = pass ? next + sb->hot_ext_count : next;

		if (to > F2FS_MAX_EXTENSION)
			to = F2FS_MAX_EXTENSION;
		FIELD(pass ? "extension_list (hot)" : "extension_list (cold)");
		for (uint32_t k = from; k < to; k++) {
			if (k > from)
				putchar(' ');
			put_cstr(sb->extension_list[k], F2FS_EXTENSION_LEN);
		}
		printf("\n");
	}
	U32(cp_payload);
	FIELD("version");
	put_cstr(sb->version, F2FS_VERSION_LEN);
	printf("\n");
	FIELD("init_version");
	put_cstr(sb->init_version, F2FS_VERSION_LEN);
	printf("\n");
	f2fs_feature_format(le32_get(sb->feature), feat, sizeof(feat));
	FIELD("feature");
	printf("0x%08x (%s)\n", le32_get(sb->feature), feat);
	FIELD("encryption_level");
	printf("%u\n", sb->encryption_level);
	for (int d = 0; d < F2FS_MAX_DEVICES && sb->devs[d].path[0]; d++) {
		printf("  devs[%d]%*s ", d, FIELD_WIDTH - 7, "");
		put_cstr(sb->devs[d].path, F2FS_MAX_DEVICE_PATH);
		printf(", %u segments\n", le32_get(sb->devs[d].total_segments));
	}
	for (int q = 0; q < F2FS_MAX_QUOTAS; q++) {
		static const char *const qn[] = { "qf_ino[usr]", "qf_ino[grp]", "qf_ino[prj]" };

		FIELD(qn[q]);
		printf("%u\n", le32_get(sb->qf_ino[q]));
	}
	FIELD("s_encoding");
	printf("%u\n", le16_get(sb->s_encoding));
	FIELD("s_encoding_flags");
	printf("0x%x\n", le16_get(sb->s_encoding_flags));
	X32(crc);
	if (le32_get(sb->feature) & F2FS_FEATURE_SB_CHKSUM) {
		FIELD("crc (computed)");
		printf("0x%08x\n", f2fs_sb_crc(sb));
	}
#undef U32
#undef X32
}

/* ---- checkpoint ------------------------------------------------------- */

static void print_cp_source(struct f2fs_fs *fs)
{
	const struct f2fs_cp_choice *c = f2fs_fs_cp_choice(fs);

	printf("Checkpoint: pack %d at block %u", c->pack + 1, f2fs_fs_cp_start(fs));
	if (c->other_valid)
		printf(" (pack %d also valid, older)\n", 2 - c->pack);
	else
		printf(" (pack %d invalid: %s)\n", 2 - c->pack,
		       c->other_err.msg[0] ? c->other_err.msg : "unknown reason");
}

const char *const log_names[F2FS_NR_CURSEG_TYPE] = {
	"hot data", "warm data", "cold data", "hot node", "warm node", "cold node",
};

const char *const log_keys[F2FS_NR_CURSEG_TYPE] = {
	"hot_data", "warm_data", "cold_data", "hot_node", "warm_node", "cold_node",
};

static void print_cp_summary(struct f2fs_fs *fs)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);

	print_cp_source(fs);
	FIELD("version:");
	printf("0x%" PRIx64 " (%" PRIu64 ")\n", le64_get(cp->checkpoint_ver),
	       le64_get(cp->checkpoint_ver));
	FIELD("flags:");
	print_flags(le32_get(cp->ckpt_flags), cp_flags);
	FIELD("user blocks:");
	printf("%" PRIu64 "\n", le64_get(cp->user_block_count));
	FIELD("valid blocks:");
	printf("%" PRIu64 "\n", le64_get(cp->valid_block_count));
	FIELD("valid nodes / inodes:");
	printf("%u / %u\n", le32_get(cp->valid_node_count), le32_get(cp->valid_inode_count));
	FIELD("next free nid:");
	printf("%u\n", le32_get(cp->next_free_nid));
	FIELD("free segments:");
	printf("%u\n", le32_get(cp->free_segment_count));
	FIELD("reserved / overprov segs:");
	printf("%u / %u\n", le32_get(cp->rsvd_segment_count),
	       le32_get(cp->overprov_segment_count));
	FIELD("current segments:");
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++) {
		uint32_t seg = t < 3 ? le32_get(cp->cur_data_segno[t])
				     : le32_get(cp->cur_node_segno[t - 3]);
		uint16_t off = t < 3 ? le16_get(cp->cur_data_blkoff[t])
				     : le16_get(cp->cur_node_blkoff[t - 3]);

		printf("%s%s %u+%u", t ? ", " : "", log_names[t], seg, off);
	}
	printf("\n");
	FIELD("elapsed time:");
	printf("%" PRIu64 " s\n", le64_get(cp->elapsed_time));
	FIELD("journals:");
	printf("%u NAT, %u SIT entries\n", le16_get(f2fs_fs_nat_journal(fs)->n_entries),
	       le16_get(f2fs_fs_sit_journal(fs)->n_entries));
}

static void json_cp_summary(struct f2fs_fs *fs)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	const struct f2fs_cp_choice *c = f2fs_fs_cp_choice(fs);
	struct table t;
	static const struct col cols[] = {
		{ "log", "log", -9, COL_S },
		{ "segno", "segno", 10, COL_U },
		{ "blkoff", "blkoff", 6, COL_U },
	};

	out_obj_begin("checkpoint", NULL);
	kv_u("pack", NULL, (uint64_t)c->pack + 1);
	kv_u("blkaddr", NULL, f2fs_fs_cp_start(fs));
	kv_u("other_pack_valid", NULL, (uint64_t)c->other_valid);
	kv_u("version", NULL, le64_get(cp->checkpoint_ver));
	kv_flags("flags", NULL, le32_get(cp->ckpt_flags), cp_flags);
	kv_u("user_block_count", NULL, le64_get(cp->user_block_count));
	kv_u("valid_block_count", NULL, le64_get(cp->valid_block_count));
	kv_u("valid_node_count", NULL, le32_get(cp->valid_node_count));
	kv_u("valid_inode_count", NULL, le32_get(cp->valid_inode_count));
	kv_u("next_free_nid", NULL, le32_get(cp->next_free_nid));
	kv_u("free_segment_count", NULL, le32_get(cp->free_segment_count));
	kv_u("rsvd_segment_count", NULL, le32_get(cp->rsvd_segment_count));
	kv_u("overprov_segment_count", NULL, le32_get(cp->overprov_segment_count));
	kv_u("elapsed_time", NULL, le64_get(cp->elapsed_time));
	kv_u("nat_journal_entries", NULL, le16_get(f2fs_fs_nat_journal(fs)->n_entries));
	kv_u("sit_journal_entries", NULL, le16_get(f2fs_fs_sit_journal(fs)->n_entries));
	tab_begin(&t, "current_segments", NULL, cols, 3);
	for (int k = 0; k < F2FS_NR_CURSEG_TYPE; k++)
		tab_row(&t, (struct cell[]){ CS(log_keys[k]),
			CU(k < 3 ? le32_get(cp->cur_data_segno[k]) : le32_get(cp->cur_node_segno[k - 3])),
			CU(k < 3 ? le16_get(cp->cur_data_blkoff[k]) : le16_get(cp->cur_node_blkoff[k - 3])) });
	tab_end(&t);
	out_obj_end();
}

static void print_nat_bits(struct f2fs_fs *fs)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	uint32_t n = f2fs_nat_bits_blocks(f2fs_fs_nat_blocks(fs));
	uint64_t want = f2fs_nat_bits_header(le64_get(cp->checkpoint_ver),
					     f2fs_cp_stored_crc(cp));
	struct f2fs_error err;
	uint8_t *blk;

	FIELD("nat_bits");
	if (!(le32_get(cp->ckpt_flags) & F2FS_CP_NAT_BITS)) {
		printf("absent\n");
		return;
	}
	blk = malloc(F2FS_BLKSIZE);
	if (!blk || n == 0 || n >= F2FS_BLOCKS_PER_SEG ||
	    f2fs_fs_read_block(fs, (uint64_t)f2fs_fs_cp_start(fs) + F2FS_BLOCKS_PER_SEG - n,
			       blk, &err)) {
		printf("unreadable\n");
	} else {
		uint64_t hdr = le64_load(blk);

		printf("%u block(s) at %u, header 0x%016" PRIx64 " (%s)\n", n,
		       f2fs_fs_cp_start(fs) + F2FS_BLOCKS_PER_SEG - n, hdr,
		       hdr == want ? "matches the checkpoint" : "stale: does not match");
	}
	free(blk);
}

static void print_cp_full(struct f2fs_fs *fs)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	const struct f2fs_journal *nj = f2fs_fs_nat_journal(fs);
	const struct f2fs_journal *sj = f2fs_fs_sit_journal(fs);
	const uint8_t *map;
	uint32_t bytes;

	print_cp_source(fs);
#define U32(f) do { FIELD(#f); printf("%u\n", le32_get(cp->f)); } while (0)
#define U64(f) do { FIELD(#f); printf("%" PRIu64 "\n", le64_get(cp->f)); } while (0)
	FIELD("checkpoint_ver");
	printf("0x%" PRIx64 " (%" PRIu64 ")\n", le64_get(cp->checkpoint_ver),
	       le64_get(cp->checkpoint_ver));
	U64(user_block_count);
	U64(valid_block_count);
	U32(rsvd_segment_count);
	U32(overprov_segment_count);
	U32(free_segment_count);
	for (int k = 0; k < F2FS_MAX_ACTIVE_NODE_LOGS; k++) {
		printf("  cur_node_segno[%d]%*s %u (blkoff %u)\n", k, FIELD_WIDTH - 17, "",
		       le32_get(cp->cur_node_segno[k]), le16_get(cp->cur_node_blkoff[k]));
	}
	for (int k = 0; k < F2FS_MAX_ACTIVE_DATA_LOGS; k++) {
		printf("  cur_data_segno[%d]%*s %u (blkoff %u)\n", k, FIELD_WIDTH - 17, "",
		       le32_get(cp->cur_data_segno[k]), le16_get(cp->cur_data_blkoff[k]));
	}
	FIELD("ckpt_flags");
	print_flags(le32_get(cp->ckpt_flags), cp_flags);
	U32(cp_pack_total_block_count);
	U32(cp_pack_start_sum);
	U32(valid_node_count);
	U32(valid_inode_count);
	U32(next_free_nid);
	U32(sit_ver_bitmap_bytesize);
	U32(nat_ver_bitmap_bytesize);
	U32(checksum_offset);
	U64(elapsed_time);
	FIELD("alloc_type");
	for (int k = 0; k < F2FS_MAX_ACTIVE_LOGS; k++)
		printf("%s%u", k ? " " : "", cp->alloc_type[k]);
	printf("\n");
	FIELD("crc");
	printf("0x%08x\n", f2fs_cp_stored_crc(cp));
	map = f2fs_fs_sit_bitmap(fs, &bytes);
	FIELD("SIT bitmap");
	printf("%u of %u blocks in copy 2\n", count_bits(map, bytes), bytes * 8);
	map = f2fs_fs_nat_bitmap(fs, &bytes);
	FIELD("NAT bitmap");
	printf("%u of %u blocks in copy 2\n", count_bits(map, bytes), bytes * 8);
	print_nat_bits(fs);
	FIELD("NAT journal");
	printf("%u entries\n", le16_get(nj->n_entries));
	for (uint32_t k = 0; k < le16_get(nj->n_entries); k++) {
		const struct f2fs_nat_journal_entry *e = &nj->nat_j.entries[k];

		printf("    nid %u: ino %u, block %u, version %u\n", le32_get(e->nid),
		       le32_get(e->ne.ino), le32_get(e->ne.block_addr), e->ne.version);
	}
	FIELD("SIT journal");
	printf("%u entries\n", le16_get(sj->n_entries));
	for (uint32_t k = 0; k < le16_get(sj->n_entries); k++) {
		const struct f2fs_sit_journal_entry *e = &sj->sit_j.entries[k];
		uint16_t vb = le16_get(e->se.vblocks);
		uint32_t type = vb >> F2FS_SIT_VBLOCKS_SHIFT;

		printf("    segno %u: %u valid blocks, type %u (%s)\n", le32_get(e->segno),
		       vb & F2FS_SIT_VBLOCKS_MASK, type,
		       type < F2FS_NR_CURSEG_TYPE ? log_names[type] : "invalid");
	}
#undef U32
#undef U64
}

/* ---- inodes ----------------------------------------------------------- */

static void mode_string(uint16_t mode, char out[11])
{
	static const char rwx[] = "rwxrwxrwx";

	switch (mode & F2FS_S_IFMT) {
	case F2FS_S_IFDIR:  out[0] = 'd'; break;
	case F2FS_S_IFREG:  out[0] = '-'; break;
	case F2FS_S_IFLNK:  out[0] = 'l'; break;
	case F2FS_S_IFCHR:  out[0] = 'c'; break;
	case F2FS_S_IFBLK:  out[0] = 'b'; break;
	case F2FS_S_IFIFO:  out[0] = 'p'; break;
	case F2FS_S_IFSOCK: out[0] = 's'; break;
	default:            out[0] = '?'; break;
	}
	for (int k = 0; k < 9; k++)
		out[1 + k] = (mode & (0400 >> k)) ? rwx[k] : '-';
	if (mode & 04000)
		out[3] = (mode & 0100) ? 's' : 'S';
	if (mode & 02000)
		out[6] = (mode & 0010) ? 's' : 'S';
	if (mode & 01000)
		out[9] = (mode & 0001) ? 't' : 'T';
	out[10] = '\0';
}

static const char *type_name(uint16_t mode)
{
	switch (mode & F2FS_S_IFMT) {
	case F2FS_S_IFDIR:  return "directory";
	case F2FS_S_IFREG:  return "regular file";
	case F2FS_S_IFLNK:  return "symbolic link";
	case F2FS_S_IFCHR:  return "character device";
	case F2FS_S_IFBLK:  return "block device";
	case F2FS_S_IFIFO:  return "fifo";
	case F2FS_S_IFSOCK: return "socket";
	default:            return "unknown type";
	}
}

/* Bytes of inline data (or dentries) an inode can hold; 0 if the inode's
 * sizes leave no room. */
static uint32_t inline_room(const struct f2fs_inode *i, uint32_t features)
{
	uint32_t used = f2fs_inode_extra_words(i) + f2fs_inode_inline_xattr_words(i, features) + 1;

	return used < F2FS_DEF_ADDRS_PER_INODE ? 4 * (F2FS_DEF_ADDRS_PER_INODE - used) : 0;
}

/* Print a symlink target (inline or in the first data block). */
static int print_link_target(struct f2fs_fs *fs, const struct f2fs_node *n)
{
	const struct f2fs_inode *i = &n->i;
	uint64_t size = le64_get(i->i_size);
	struct f2fs_error err;

	if (i->i_inline & F2FS_INLINE_DATA) {
		uint32_t room = inline_room(i, f2fs_fs_features(fs));

		if (room == 0)
			return -1;
		put_escaped((const uint8_t *)&i->i_addr[f2fs_inode_extra_words(i) + 1],
			    size < room ? (size_t)size : room);
		return 0;
	} else {
		uint8_t *blk;
		uint32_t addr;
		int ret = -1;

		if (f2fs_file_block(fs, n, 0, &addr, NULL, &err) || !f2fs_fs_in_main(fs, addr))
			return -1;
		blk = malloc(F2FS_BLKSIZE);
		if (blk && !f2fs_fs_read_block(fs, addr, blk, &err)) {
			put_escaped(blk, size < F2FS_BLKSIZE ? (size_t)size : F2FS_BLKSIZE);
			ret = 0;
		}
		free(blk);
		return ret;
	}
}

static void json_inode(struct f2fs_fs *fs, uint32_t ino, const struct f2fs_node *n,
		       const struct f2fs_nat_info *ne, int from_journal)
{
	const struct f2fs_inode *i = &n->i;
	uint32_t features = f2fs_fs_features(fs);
	uint16_t m = le16_get(i->i_mode);
	char mode[11];

	mode_string(m, mode);
	out_obj_begin("inode", NULL);
	kv_u("ino", NULL, ino);
	kv_u("node_blkaddr", NULL, ne->blkaddr);
	kv_s("nat_source", NULL, from_journal ? "journal" : "block");
	kv_u("nat_version", NULL, ne->version);
	kv_s("type", NULL, type_name(m));
	kv_u("mode", NULL, m);
	kv_s("mode_string", NULL, mode);
	kv_u("uid", NULL, le32_get(i->i_uid));
	kv_u("gid", NULL, le32_get(i->i_gid));
	kv_u("links", NULL, le32_get(i->i_links));
	kv_u("size", NULL, le64_get(i->i_size));
	kv_u("blocks", NULL, le64_get(i->i_blocks));
	kv_u("atime", NULL, le64_get(i->i_atime));
	kv_u("atime_nsec", NULL, le32_get(i->i_atime_nsec));
	kv_u("ctime", NULL, le64_get(i->i_ctime));
	kv_u("ctime_nsec", NULL, le32_get(i->i_ctime_nsec));
	kv_u("mtime", NULL, le64_get(i->i_mtime));
	kv_u("mtime_nsec", NULL, le32_get(i->i_mtime_nsec));
	if ((i->i_inline & F2FS_EXTRA_ATTR) &&
	    le16_get(i->extra.i_extra_isize) >= F2FS_EXTRA_ISIZE_CRTIME) {
		kv_u("crtime", NULL, le64_get(i->extra.i_crtime));
		kv_u("crtime_nsec", NULL, le32_get(i->extra.i_crtime_nsec));
	}
	kv_u("generation", NULL, le32_get(i->i_generation));
	kv_u("current_depth", NULL, le32_get(i->i_current_depth));
	kv_u("xattr_nid", NULL, le32_get(i->i_xattr_nid));
	kv_flags("flags", NULL, le32_get(i->i_flags), inode_flags);
	kv_flags("inline", NULL, i->i_inline, inline_flags);
	kv_u("advise", NULL, i->i_advise);
	kv_u("pino", NULL, le32_get(i->i_pino));
	kv_bytes("name", NULL, i->i_name, le32_get(i->i_namelen) < F2FS_NAME_LEN ?
				le32_get(i->i_namelen) : F2FS_NAME_LEN);
	kv_u("dir_level", NULL, i->i_dir_level);
	kv_u("extent_fofs", NULL, le32_get(i->i_ext.fofs));
	kv_u("extent_blk", NULL, le32_get(i->i_ext.blk));
	kv_u("extent_len", NULL, le32_get(i->i_ext.len));
	if (i->i_inline & F2FS_EXTRA_ATTR) {
		uint16_t isize = le16_get(i->extra.i_extra_isize);

		kv_u("extra_isize", NULL, isize);
		kv_u("inline_xattr_size", NULL, le16_get(i->extra.i_inline_xattr_size));
		if (isize >= F2FS_EXTRA_ISIZE_PROJID)
			kv_u("projid", NULL, le32_get(i->extra.i_projid));
		if (isize >= F2FS_EXTRA_ISIZE_CHKSUM) {
			kv_u("inode_checksum", NULL, le32_get(i->extra.i_inode_checksum));
			if (f2fs_inode_has_checksum(n, features))
				kv_s("inode_checksum_state", NULL,
				     f2fs_inode_crc(n, f2fs_fs_inode_crc_seed(fs)) ==
				     le32_get(i->extra.i_inode_checksum) ? "ok" : "bad");
		}
	}
	if (!(i->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))) {
		kv_u("data_pointers", NULL, f2fs_inode_addrs(i, features));
		for (int k = 0; k < F2FS_DEF_NIDS_PER_INODE; k++) {
			static const char *const key[] = { "nid_direct1", "nid_direct2", "nid_indirect1",
							   "nid_indirect2", "nid_double_indirect" };

			kv_u(key[k], NULL, le32_get(i->i_nid[k]));
		}
	}
	kv_u("footer_nid", NULL, le32_get(n->footer.nid));
	kv_u("footer_ino", NULL, le32_get(n->footer.ino));
	kv_u("footer_flag", NULL, le32_get(n->footer.flag));
	kv_u("footer_cp_ver", NULL, le64_get(n->footer.cp_ver));
	kv_u("footer_next_blkaddr", NULL, le32_get(n->footer.next_blkaddr));
	out_obj_end();
}

static int show_inode(struct f2fs_fs *fs, uint32_t ino)
{
	struct f2fs_node *n = malloc(sizeof(*n));
	const struct f2fs_inode *i;
	struct f2fs_nat_info ne;
	struct f2fs_error err;
	uint32_t features = f2fs_fs_features(fs);
	int from_journal = 0, ret;
	char mode[11];
	uint16_t m;

	if (!n)
		return error_line("out of memory");
	ret = f2fs_nat_lookup(fs, ino, &ne, &from_journal, &err);
	if (!ret)
		ret = f2fs_read_inode(fs, ino, n, &err);
	if (ret) {
		free(n);
		return error_line("%s", err.msg);
	}
	if (out_json()) {
		json_inode(fs, ino, n, &ne, from_journal);
		free(n);
		return EXIT_OK;
	}
	i = &n->i;
	m = le16_get(i->i_mode);
	mode_string(m, mode);
	printf("Inode %u\n", ino);
	FIELD("node block:");
	printf("%u (NAT %s, version %u)\n", ne.blkaddr,
	       from_journal ? "journal" : "block", ne.version);
	FIELD("type:");
	printf("%s\n", type_name(m));
	FIELD("mode:");
	printf("0%06o (%s)\n", m, mode);
	FIELD("uid / gid:");
	printf("%u / %u\n", le32_get(i->i_uid), le32_get(i->i_gid));
	FIELD("links:");
	printf("%u\n", le32_get(i->i_links));
	FIELD("size:");
	printf("%" PRIu64 "\n", le64_get(i->i_size));
	FIELD("blocks:");
	printf("%" PRIu64 " (4 KiB, the inode included)\n", le64_get(i->i_blocks));
	FIELD("atime:");
	print_time(le64_get(i->i_atime), le32_get(i->i_atime_nsec));
	FIELD("ctime:");
	print_time(le64_get(i->i_ctime), le32_get(i->i_ctime_nsec));
	FIELD("mtime:");
	print_time(le64_get(i->i_mtime), le32_get(i->i_mtime_nsec));
	if ((i->i_inline & F2FS_EXTRA_ATTR) &&
	    le16_get(i->extra.i_extra_isize) >= F2FS_EXTRA_ISIZE_CRTIME) {
		FIELD("crtime:");
		print_time(le64_get(i->extra.i_crtime), le32_get(i->extra.i_crtime_nsec));
	}
	FIELD("generation:");
	printf("%u\n", le32_get(i->i_generation));
	FIELD((m & F2FS_S_IFMT) == F2FS_S_IFDIR ? "current_depth:" : "gc_failures:");
	printf("%u\n", (m & F2FS_S_IFMT) == F2FS_S_IFDIR ? le32_get(i->i_current_depth)
						      : (uint16_t)le32_get(i->i_current_depth));
	FIELD("xattr_nid:");
	printf("%u\n", le32_get(i->i_xattr_nid));
	FIELD("flags:");
	print_flags(le32_get(i->i_flags), inode_flags);
	FIELD("inline:");
	print_flags(i->i_inline, inline_flags);
	FIELD("advise:");
	printf("0x%x\n", i->i_advise);
	FIELD("parent (pino):");
	printf("%u\n", le32_get(i->i_pino));
	FIELD("name:");
	put_escaped(i->i_name, le32_get(i->i_namelen) < F2FS_NAME_LEN ?
				le32_get(i->i_namelen) : F2FS_NAME_LEN);
	printf("\n");
	FIELD("dir_level:");
	printf("%u\n", i->i_dir_level);
	FIELD("extent (fofs, blk, len):");
	printf("%u, %u, %u\n", le32_get(i->i_ext.fofs), le32_get(i->i_ext.blk),
	       le32_get(i->i_ext.len));
	if (i->i_inline & F2FS_EXTRA_ATTR) {
		uint16_t isize = le16_get(i->extra.i_extra_isize);

		FIELD("extra_isize:");
		printf("%u\n", isize);
		FIELD("inline_xattr_size:");
		printf("%u words\n", le16_get(i->extra.i_inline_xattr_size));
		if (isize >= F2FS_EXTRA_ISIZE_PROJID) {
			FIELD("projid:");
			printf("%u\n", le32_get(i->extra.i_projid));
		}
		if (isize >= F2FS_EXTRA_ISIZE_CHKSUM) {
			FIELD("inode_checksum:");
			printf("0x%08x", le32_get(i->extra.i_inode_checksum));
			if (f2fs_inode_has_checksum(n, features)) {
				uint32_t c = f2fs_inode_crc(n, f2fs_fs_inode_crc_seed(fs));

				if (c == le32_get(i->extra.i_inode_checksum))
					printf(" (ok)\n");
				else
					printf(" (bad: computed 0x%08x)\n", c);
			} else {
				printf(" (not used)\n");
			}
		}
	}
	if (i->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)) {
		FIELD("data:");
		printf("inline, %u bytes of room\n", inline_room(i, features));
	} else {
		uint32_t p = f2fs_inode_addrs(i, features);
		uint32_t show = p < 8 ? p : 8;

		FIELD("data pointers:");
		printf("%u in the inode; first:", p);
		for (uint32_t k = 0; k < show; k++)
			printf(" %u", f2fs_inode_get_addr(i, k));
		printf("\n");
		FIELD("i_nid (dn, dn, in, in, din):");
		for (int k = 0; k < F2FS_DEF_NIDS_PER_INODE; k++)
			printf("%s%u", k ? " " : "", le32_get(i->i_nid[k]));
		printf("\n");
	}
	if ((m & F2FS_S_IFMT) == F2FS_S_IFLNK) {
		FIELD("target:");
		if (print_link_target(fs, n))
			printf("(unreadable)");
		printf("\n");
	}
	FIELD("footer:");
	printf("nid %u, ino %u, flag 0x%x, cp_ver 0x%" PRIx64 ", next_blkaddr %u\n",
	       le32_get(n->footer.nid), le32_get(n->footer.ino), le32_get(n->footer.flag),
	       le64_get(n->footer.cp_ver), le32_get(n->footer.next_blkaddr));
	free(n);
	return EXIT_OK;
}

/* ---- ls --------------------------------------------------------------- */

struct ls_ctx {
	struct f2fs_fs *fs;
	struct f2fs_node node;
	int failures;
	struct table t;
};

static const struct col ls_cols[] = {
	{ "mode", "mode", -10, COL_S },
	{ "links", "links", 3, COL_U },
	{ "uid", "uid", 5, COL_U },
	{ "gid", "gid", 5, COL_U },
	{ "size", "size", 10, COL_U },
	{ "ino", "ino", 10, COL_U },
	{ "name", "name", -1, COL_S },
	{ "target", "target", -1, COL_S },
};

/* Symlink target into buf (NUL-terminated, at most cap - 1 bytes); -1 if unreadable. */
static int link_target(struct f2fs_fs *fs, const struct f2fs_node *n, char *buf, size_t cap)
{
	const struct f2fs_inode *i = &n->i;
	uint64_t size = le64_get(i->i_size);
	struct f2fs_error err;
	size_t len = size < cap - 1 ? (size_t)size : cap - 1;

	if (i->i_inline & F2FS_INLINE_DATA) {
		uint32_t room = inline_room(i, f2fs_fs_features(fs));

		if (room == 0)
			return -1;
		if (len > room)
			len = room;
		memcpy(buf, &i->i_addr[f2fs_inode_extra_words(i) + 1], len);
	} else {
		uint8_t *blk;
		uint32_t addr;

		if (f2fs_file_block(fs, n, 0, &addr, NULL, &err) || !f2fs_fs_in_main(fs, addr))
			return -1;
		blk = malloc(F2FS_BLKSIZE);
		if (!blk || f2fs_fs_read_block(fs, addr, blk, &err)) {
			free(blk);
			return -1;
		}
		if (len > F2FS_BLKSIZE)
			len = F2FS_BLKSIZE;
		memcpy(buf, blk, len);
		free(blk);
	}
	buf[len] = '\0';
	return 0;
}

static void ls_json(struct ls_ctx *c, uint32_t ino, const uint8_t *name, size_t len, int ok)
{
	char nm[F2FS_NAME_LEN + 1], mode[11], target[F2FS_BLKSIZE + 1];
	const struct f2fs_inode *i = &c->node.i;
	int is_link = ok && (le16_get(i->i_mode) & F2FS_S_IFMT) == F2FS_S_IFLNK;

	snprintf(nm, sizeof(nm), "%.*s", (int)len, (const char *)name);
	if (ok)
		mode_string(le16_get(i->i_mode), mode);
	if (is_link && link_target(c->fs, &c->node, target, sizeof(target)))
		snprintf(target, sizeof(target), "?");
	tab_row(&c->t, (struct cell[]){ CS(ok ? mode : NULL), CU(ok ? le32_get(i->i_links) : 0),
		CU(ok ? le32_get(i->i_uid) : 0), CU(ok ? le32_get(i->i_gid) : 0),
		CU(ok ? le64_get(i->i_size) : 0), CU(ino), CS(nm), CS(is_link ? target : NULL) });
}

static void ls_line(struct ls_ctx *c, uint32_t ino, const uint8_t *name, size_t len)
{
	struct f2fs_error err;
	char mode[11];

	if (f2fs_read_inode(c->fs, ino, &c->node, &err)) {
		if (out_json())
			ls_json(c, ino, name, len, 0);
		else
			printf("?????????? %3s %5s %5s %10s ", "?", "?", "?", "?");
		if (!out_json()) {
			put_escaped(name, len);
			printf("\n");
		}
		fflush(stdout);
		fprintf(stderr, "%s: ", prog);
		fwrite(name, 1, len, stderr);
		fprintf(stderr, ": %s\n", err.msg);
		c->failures++;
		return;
	}
	if (out_json()) {
		ls_json(c, ino, name, len, 1);
		return;
	}
	mode_string(le16_get(c->node.i.i_mode), mode);
	printf("%s %3u %5u %5u %10" PRIu64 " ", mode, le32_get(c->node.i.i_links),
	       le32_get(c->node.i.i_uid), le32_get(c->node.i.i_gid),
	       le64_get(c->node.i.i_size));
	put_escaped(name, len);
	if ((le16_get(c->node.i.i_mode) & F2FS_S_IFMT) == F2FS_S_IFLNK) {
		printf(" -> ");
		if (print_link_target(c->fs, &c->node))
			printf("?");
	}
	printf("\n");
}

static int ls_cb(const struct f2fs_dirent *de, void *arg)
{
	struct ls_ctx *c = arg;

	if ((de->name_len == 1 && de->name[0] == '.') ||
	    (de->name_len == 2 && de->name[0] == '.' && de->name[1] == '.'))
		return 0;
	ls_line(c, de->ino, de->name, de->name_len);
	return 0;
}

static int do_ls(struct f2fs_fs *fs, const char *path)
{
	struct ls_ctx *c = calloc(1, sizeof(*c));
	struct f2fs_error err;
	uint32_t ino;
	int ret;

	if (!c)
		return error_line("out of memory");
	c->fs = fs;
	ret = f2fs_path_lookup(fs, path, &ino, &err);
	if (!ret)
		ret = f2fs_read_inode(fs, ino, &c->node, &err);
	if (ret) {
		free(c);
		return error_line("%s", err.msg);
	}
	if (out_json())
		tab_begin(&c->t, "ls", NULL, ls_cols, 8);
	if ((le16_get(c->node.i.i_mode) & F2FS_S_IFMT) != F2FS_S_IFDIR) {
		const char *base = strrchr(path, '/');

		base = base && base[1] ? base + 1 : path;
		ls_line(c, ino, (const uint8_t *)base, strlen(base));
		ret = 0;
	} else {
		ret = f2fs_dir_foreach(fs, ino, ls_cb, c, &err);
	}
	if (out_json())
		tab_end(&c->t);
	fflush(stdout);
	if (ret < 0) {
		free(c);
		return error_line("%s", err.msg);
	}
	ret = c->failures ? EXIT_ERROR : EXIT_OK;
	free(c);
	return ret;
}

/* ---- main ------------------------------------------------------------- */

static int parse_ino(const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v;

	if (s[0] == '-' || s[0] == '\0')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (s[0] == '-' || s[0] == '\0' || s[0] == ' ')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* "N", "A~B" or "A~-1" (to the end). */
static int parse_range(const char *s, struct range *r)
{
	const char *t = strchr(s, '~');
	char a[64];

	if (!t)
		return parse_u64(s, &r->start) ? -1 : (r->end = r->start, 0);
	if ((size_t)(t - s) >= sizeof(a))
		return -1;
	memcpy(a, s, (size_t)(t - s));
	a[t - s] = '\0';
	if (parse_u64(a, &r->start))
		return -1;
	if (!strcmp(t + 1, "-1")) {
		r->end = UINT64_MAX;
		return 0;
	}
	return parse_u64(t + 1, &r->end);
}

enum {
	OPT_SB = 256,
	OPT_CP,
	OPT_LS,
	OPT_SEGMENTS,
	OPT_GC,
	OPT_POLICY,
	OPT_FG,
	OPT_BG,
	OPT_MAX_SEARCH,
	OPT_TOP,
	OPT_GC_FREE,
	OPT_GC_SIM,
	OPT_JSON,
	OPT_EXTRACT,
};

struct cli {
	const char *image;
	int show_sb, show_cp;      /* full listings */
	int ls;
	const char *ls_path;
	int inode;
	uint32_t ino;
	int nat, sit, ssa, owner, map, segments, gc, gc_free, gc_sim, json;
	struct range nat_r, sit_r, ssa_r;
	uint64_t blkaddr;
	uint32_t bucket;
	struct gc_cli g;
	const char *extract, *outdir;
	int nviews;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [options] IMAGE\n"
"Print the metadata of an F2FS image or device (never writes to it).\n"
"Without options: a summary of the superblock and the checkpoint in use.\n"
"\n"
"      --sb          list every superblock field\n"
"      --cp          list every field of the checkpoint in use, and its journals\n"
"      --ls [PATH]   list directory PATH (default /) like ls -l; as a separate\n"
"                    word PATH must come before IMAGE (or use --ls=PATH)\n"
"  -i, --inode INO   details of inode INO\n"
"  -n A~B            NAT entries in use for nids A..B (B = -1: to the end)\n"
"  -s A~B            SIT entries of segments A..B\n"
"  -a A~B            SSA entries of segments A..B\n"
"  -b BLKADDR        who owns block BLKADDR (inode, node, file offset)\n"
"  -M                nat_bits check and a block map (one character per segment)\n"
"      --segments[=W]  segment and section counts per log type, a histogram of\n"
"                    valid blocks per segment (buckets of W, default 64),\n"
"                    current segments, overprovision and reserved space\n"
"      --gc          rank GC victims as the kernel would (see --policy ...)\n"
"      --policy P    greedy, cb (cost-benefit) or age (ATGC)\n"
"      --fg, --bg    foreground (greedy, whole dirty map) or background GC\n"
"                    (cost-benefit, window of --max-search); default --bg\n"
"      --max-search N  max_victim_search (default 4096; 0 = no limit)\n"
"      --top N       candidates to list (default 10)\n"
"      --gc-free K   blocks that must move to free K sections\n"
"      --gc-sim[=K]  simulate repeated GC until K free sections, per policy and\n"
"                    window; report blocks moved and write amplification\n"
"      --extract PATH|INO -o DEST  copy a file or a tree out of the image\n"
"  -o DEST           destination of --extract\n"
"      --json        print the views as one JSON object\n"
"  -V, --version     print the version and exit\n"
"  -h, --help        print this help and exit\n"
"\n"
"Exit status: 0 success, 1 error (not F2FS, damaged, bad path, out of range),\n"
"16 usage error.\n",
		prog);
}

static int parse_args(struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "sb", no_argument, NULL, OPT_SB },
		{ "cp", no_argument, NULL, OPT_CP },
		{ "ls", optional_argument, NULL, OPT_LS },
		{ "inode", required_argument, NULL, 'i' },
		{ "segments", optional_argument, NULL, OPT_SEGMENTS },
		{ "gc", no_argument, NULL, OPT_GC },
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "fg", no_argument, NULL, OPT_FG },
		{ "bg", no_argument, NULL, OPT_BG },
		{ "max-search", required_argument, NULL, OPT_MAX_SEARCH },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "gc-free", required_argument, NULL, OPT_GC_FREE },
		{ "gc-sim", optional_argument, NULL, OPT_GC_SIM },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "extract", required_argument, NULL, OPT_EXTRACT },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, npos;
	uint64_t v;

	opterr = 0;
	c->g.top = 10;
	c->bucket = 64;
	while ((opt = getopt_long(argc, argv, ":i:n:s:a:b:Mo:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_SB:
			c->show_sb = 1;
			break;
		case OPT_CP:
			c->show_cp = 1;
			break;
		case OPT_LS:
			c->ls = 1;
			c->ls_path = optarg;
			break;
		case 'i':
			if (parse_ino(optarg, &c->ino))
				return usage_error("-i %s: not an inode number", optarg);
			c->inode = 1;
			break;
		case 'n':
			if (parse_range(optarg, &c->nat_r))
				return usage_error("-n %s: not a range (A~B)", optarg);
			c->nat = 1;
			break;
		case 's':
			if (parse_range(optarg, &c->sit_r))
				return usage_error("-s %s: not a range (A~B)", optarg);
			c->sit = 1;
			break;
		case 'a':
			if (parse_range(optarg, &c->ssa_r))
				return usage_error("-a %s: not a range (A~B)", optarg);
			c->ssa = 1;
			break;
		case 'b':
			if (parse_u64(optarg, &c->blkaddr))
				return usage_error("-b %s: not a block address", optarg);
			c->owner = 1;
			break;
		case 'M':
			c->map = 1;
			break;
		case 'o':
			c->outdir = optarg;
			break;
		case OPT_SEGMENTS:
			c->segments = 1;
			if (optarg) {
				if (parse_u64(optarg, &v) || v == 0 || v > F2FS_BLOCKS_PER_SEG)
					return usage_error("--segments=%s: bucket width must be 1..512", optarg);
				c->bucket = (uint32_t)v;
			}
			break;
		case OPT_GC:
			c->gc = 1;
			break;
		case OPT_POLICY:
			if (!strcmp(optarg, "greedy"))
				c->g.policy = F2FS_GC_GREEDY;
			else if (!strcmp(optarg, "cb") || !strcmp(optarg, "cost-benefit"))
				c->g.policy = F2FS_GC_CB;
			else if (!strcmp(optarg, "age") || !strcmp(optarg, "atgc"))
				c->g.policy = F2FS_GC_AT;
			else
				return usage_error("--policy %s: use greedy, cb or age", optarg);
			c->g.policy_set = 1;
			break;
		case OPT_FG:
			c->g.fg = 1;
			break;
		case OPT_BG:
			c->g.fg = 0;
			break;
		case OPT_MAX_SEARCH:
			if (parse_u64(optarg, &v) || v > UINT32_MAX)
				return usage_error("--max-search %s: not a number", optarg);
			c->g.max_search = (uint32_t)v;
			c->g.max_search_set = 1;
			break;
		case OPT_TOP:
			if (parse_u64(optarg, &v) || v > UINT32_MAX)
				return usage_error("--top %s: not a number", optarg);
			c->g.top = (uint32_t)v;
			break;
		case OPT_GC_FREE:
			if (parse_u64(optarg, &v) || v > UINT32_MAX)
				return usage_error("--gc-free %s: not a number", optarg);
			c->g.free_k = (uint32_t)v;
			c->gc_free = 1;
			break;
		case OPT_GC_SIM:
			if (optarg) {
				if (parse_u64(optarg, &v) || v == 0 || v > UINT32_MAX)
					return usage_error("--gc-sim=%s: not a section count", optarg);
				c->g.sim_target = (uint32_t)v;
			}
			c->gc_sim = 1;
			break;
		case OPT_JSON:
			c->json = 1;
			break;
		case OPT_EXTRACT:
			c->extract = optarg;
			break;
		case 'h':
			usage(stdout);
			return -1;
		case 'V':
			printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION);
			return -1;
		case ':':
			return usage_error("option %s needs an argument", argv[optind - 1]);
		default:
			return usage_error("unknown option %s", argv[optind - 1]);
		}
	}
	npos = argc - optind;
	if (c->ls && !c->ls_path && npos == 2) {
		c->ls_path = argv[optind++];
		npos--;
	}
	if (npos == 0)
		return usage_error("%s", "no image given");
	if (npos > 1)
		return usage_error("unexpected argument %s", argv[optind + 1]);
	c->image = argv[optind];
	if (c->ls && !c->ls_path)
		c->ls_path = "/";
	if (c->extract && !c->outdir)
		return usage_error("%s", "--extract needs -o DEST");
	if (c->outdir && !c->extract)
		return usage_error("%s", "-o needs --extract");
	c->nviews = c->show_sb + c->show_cp + c->ls + c->inode + c->nat + c->sit + c->ssa +
		    c->owner + c->map + c->segments + c->gc + c->gc_free + c->gc_sim + !!c->extract;
	return 0;
}

/* Run one view; a blank line separates text views. */
static int run_view(int *shown, int status)
{
	if (status != EXIT_OK)
		return 0;
	if ((*shown)++ && !out_json())
		printf("\n");
	fflush(stdout);
	return 1;
}

int main(int argc, char **argv)
{
	struct cli c = { 0 };
	struct f2fs_fs *fs;
	struct f2fs_error err;
	int ret, status = EXIT_OK, shown = 0;

	ret = parse_args(&c, argc, argv);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	ret = f2fs_fs_open(&fs, c.image, &err);
	if (ret) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return EXIT_ERROR;
	}
	for (int k = 0; k < f2fs_fs_nnotes(fs); k++)
		fprintf(stderr, "%s: warning: %s\n", prog, f2fs_fs_note(fs, k));
	out_init(c.json);
	out_begin();
	if (c.nviews == 0) {
		if (out_json()) {
			json_sb_summary(fs);
			json_cp_summary(fs);
		} else {
			print_sb_summary(fs);
			printf("\n");
			print_cp_summary(fs);
		}
	}
	if (c.show_sb && run_view(&shown, status)) {
		if (out_json())
			json_sb_summary(fs);
		else
			print_sb_full(fs);
	}
	if (c.show_cp && run_view(&shown, status)) {
		if (out_json())
			json_cp_summary(fs);
		else
			print_cp_full(fs);
	}
	if (c.ls && run_view(&shown, status))
		status = do_ls(fs, c.ls_path);
	if (c.inode && run_view(&shown, status))
		status = show_inode(fs, c.ino);
	if (c.nat && run_view(&shown, status))
		status = view_nat(fs, c.nat_r);
	if (c.sit && run_view(&shown, status))
		status = view_sit(fs, c.sit_r);
	if (c.ssa && run_view(&shown, status))
		status = view_ssa(fs, c.ssa_r);
	if (c.owner && run_view(&shown, status))
		status = view_owner(fs, c.blkaddr);
	if (c.map && run_view(&shown, status))
		status = view_map(fs);
	if (c.segments && run_view(&shown, status))
		status = view_segments(fs, c.bucket);
	if (c.gc && run_view(&shown, status))
		status = view_gc(fs, &c.g);
	if (c.gc_free && run_view(&shown, status))
		status = view_gc_free(fs, &c.g);
	if (c.gc_sim && run_view(&shown, status))
		status = view_gc_sim(fs, &c.g);
	if (c.extract && run_view(&shown, status))
		status = do_extract(fs, c.extract, c.outdir);
	out_end();
	f2fs_fs_close(fs);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: write error on standard output\n", prog);
		return EXIT_ERROR;
	}
	return status;
}
