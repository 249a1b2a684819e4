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

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXIT_OK     0
#define EXIT_ERROR  1
#define EXIT_USAGE  16

static const char *prog = "dump.f2fs";

enum {
	OPT_SB = 256,
	OPT_CP,
	OPT_LS,
};

struct cli {
	const char *image;
	int show_sb, show_cp;      /* full listings */
	int ls;
	const char *ls_path;
	int inode;
	uint32_t ino;
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
"  -V, --version     print the version and exit\n"
"  -h, --help        print this help and exit\n"
"\n"
"Exit status: 0 success, 1 error (not F2FS, damaged, bad path), 16 usage error.\n",
		prog);
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	return EXIT_USAGE;
}

static int error_line(const char *msg)
{
	fprintf(stderr, "%s: %s\n", prog, msg);
	return EXIT_ERROR;
}

/* ---- formatting helpers ---------------------------------------------- */

struct flag_name {
	uint32_t bit;
	const char *name;
};

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

/* Print bytes with control characters, DEL and '\' escaped as \ooo. */
static void put_escaped(const uint8_t *s, size_t len)
{
	for (size_t k = 0; k < len; k++) {
		if (s[k] < 0x20 || s[k] == 0x7f || s[k] == '\\')
			printf("\\%03o", s[k]);
		else
			putchar(s[k]);
	}
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

#define FIELD_WIDTH 28
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

static const char *const log_names[F2FS_NR_CURSEG_TYPE] = {
	"hot data", "warm data", "cold data", "hot node", "warm node", "cold node",
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
		return error_line(err.msg);
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
};

static void ls_line(struct ls_ctx *c, uint32_t ino, const uint8_t *name, size_t len)
{
	struct f2fs_error err;
	char mode[11];

	if (f2fs_read_inode(c->fs, ino, &c->node, &err)) {
		printf("?????????? %3s %5s %5s %10s ", "?", "?", "?", "?");
		put_escaped(name, len);
		printf("\n");
		fflush(stdout);
		fprintf(stderr, "%s: ", prog);
		fwrite(name, 1, len, stderr);
		fprintf(stderr, ": %s\n", err.msg);
		c->failures++;
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
		return error_line(err.msg);
	}
	if ((le16_get(c->node.i.i_mode) & F2FS_S_IFMT) != F2FS_S_IFDIR) {
		const char *base = strrchr(path, '/');

		base = base && base[1] ? base + 1 : path;
		ls_line(c, ino, (const uint8_t *)base, strlen(base));
		ret = 0;
	} else {
		ret = f2fs_dir_foreach(fs, ino, ls_cb, c, &err);
	}
	fflush(stdout);
	if (ret < 0) {
		free(c);
		return error_line(err.msg);
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

static int parse_args(struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "sb", no_argument, NULL, OPT_SB },
		{ "cp", no_argument, NULL, OPT_CP },
		{ "ls", optional_argument, NULL, OPT_LS },
		{ "inode", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, npos;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":i:hV", longopts, NULL)) != -1) {
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
	return 0;
}

int main(int argc, char **argv)
{
	struct cli c = { 0 };
	struct f2fs_fs *fs;
	struct f2fs_error err;
	int ret, status = EXIT_OK;

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
	if (!c.show_sb && !c.show_cp && !c.ls && !c.inode) {
		print_sb_summary(fs);
		printf("\n");
		print_cp_summary(fs);
	}
	if (c.show_sb)
		print_sb_full(fs);
	if (c.show_cp) {
		if (c.show_sb)
			printf("\n");
		print_cp_full(fs);
	}
	if (c.ls) {
		if (c.show_sb || c.show_cp)
			printf("\n");
		fflush(stdout);
		status = do_ls(fs, c.ls_path);
	}
	if (c.inode && status == EXIT_OK) {
		if (c.show_sb || c.show_cp || c.ls)
			printf("\n");
		fflush(stdout);
		status = show_inode(fs, c.ino);
	}
	f2fs_fs_close(fs);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: write error on standard output\n", prog);
		return EXIT_ERROR;
	}
	return status;
}
