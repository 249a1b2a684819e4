/* The table of the on-disk structures' fields (see <f2fs/format/fields.h>).
 * The numbers are written out; tests/unit/test_fields.c holds each one
 * against offsetof()/sizeof() of <f2fs/format/format.h>. */
#include <f2fs/format/fields.h>

#include <string.h>

static const struct f2fs_fkind kinds[F2FS_FK_COUNT] = {
	[F2FS_FK_SB]                = { "sb",            F2FS_FB_SB,       1024, 3072,   1,    0 },
	[F2FS_FK_CP]                = { "cp",            F2FS_FB_CP,          0, 4096,   1,    0 },
	[F2FS_FK_ORPHAN]            = { "orphan",        F2FS_FB_ORPHAN,      0, 4096,   1,    0 },
	[F2FS_FK_NAT]               = { "nat",           F2FS_FB_NAT,         0,    9, 455,    9 },
	[F2FS_FK_SIT]               = { "sit",           F2FS_FB_SIT,         0,   74,  55,   74 },
	[F2FS_FK_SSA]               = { "ssa",           F2FS_FB_SUMMARY,     0,    7, 512,    7 },
	[F2FS_FK_SSA_FOOTER]        = { "ssa_footer",    F2FS_FB_SUMMARY,  4091,    5,   1,    0 },
	[F2FS_FK_NAT_JOURNAL]       = { "nat_journal",   F2FS_FB_SUMMARY,  3584,  507,   1,    0 },
	[F2FS_FK_NAT_JOURNAL_ENTRY] = { "nat_journal_entry", F2FS_FB_SUMMARY, 3586, 13, 38,   13 },
	[F2FS_FK_SIT_JOURNAL]       = { "sit_journal",   F2FS_FB_SUMMARY,  3584,  507,   1,    0 },
	[F2FS_FK_SIT_JOURNAL_ENTRY] = { "sit_journal_entry", F2FS_FB_SUMMARY, 3586, 78,  6,   78 },
	[F2FS_FK_NODE_FOOTER]       = { "node_footer",   F2FS_FB_NODE,     4072,   24,   1,    0 },
	[F2FS_FK_INODE]             = { "inode",         F2FS_FB_NODE,        0, 4072,   1,    0 },
	[F2FS_FK_DNODE]             = { "dnode",         F2FS_FB_NODE,        0, 4072,   1,    0 },
	[F2FS_FK_INDNODE]           = { "indnode",       F2FS_FB_NODE,        0, 4072,   1,    0 },
	[F2FS_FK_DENTRY_BLOCK]      = { "dentry_block",  F2FS_FB_DENTRY,      0, 4096,   1,    0 },
	[F2FS_FK_DENTRY]            = { "dent",          F2FS_FB_DENTRY,     30,   11, 214,   11 },
	[F2FS_FK_XATTR_HEADER]      = { "xattr_header",  F2FS_FB_XATTR,       0,   24,   1,    0 },
	[F2FS_FK_XATTR_ENTRY]       = { "xattr_entry",   F2FS_FB_XATTR,      24,    4,   1,    0 },
	[F2FS_FK_NAT_BITS]          = { "nat_bits",      F2FS_FB_NAT_BITS,    0,    8,   1,    0 },
	[F2FS_FK_QUOTA_RECORD]      = { "quota",         F2FS_FB_QUOTA,      16,   72,  14,   72 },
};

#define B F2FS_FF_BYTES
#define C F2FS_FF_CRC
#define X F2FS_FF_EXTRA
#define O F2FS_FF_OVERLAY
/* one scalar; an array of n elements of size s, packed; an array whose
 * elements lie st bytes apart */
#define S(k, n, f, o, s)          { n, F2FS_FK_##k, f, o, s, 1, s }
#define A(k, n, f, o, s, c)       { n, F2FS_FK_##k, f, o, s, c, s }
#define AS(k, n, f, o, s, c, st)  { n, F2FS_FK_##k, f, o, s, c, st }

static const struct f2fs_field fields[] = {
	/* superblock */
	S(SB, "magic",                  0,    0, 4),
	S(SB, "major_ver",              0,    4, 2),
	S(SB, "minor_ver",              0,    6, 2),
	S(SB, "log_sectorsize",         0,    8, 4),
	S(SB, "log_sectors_per_block",  0,   12, 4),
	S(SB, "log_blocksize",          0,   16, 4),
	S(SB, "log_blocks_per_seg",     0,   20, 4),
	S(SB, "segs_per_sec",           0,   24, 4),
	S(SB, "secs_per_zone",          0,   28, 4),
	S(SB, "checksum_offset",        0,   32, 4),
	S(SB, "block_count",            0,   36, 8),
	S(SB, "section_count",          0,   44, 4),
	S(SB, "segment_count",          0,   48, 4),
	S(SB, "segment_count_ckpt",     0,   52, 4),
	S(SB, "segment_count_sit",      0,   56, 4),
	S(SB, "segment_count_nat",      0,   60, 4),
	S(SB, "segment_count_ssa",      0,   64, 4),
	S(SB, "segment_count_main",     0,   68, 4),
	S(SB, "segment0_blkaddr",       0,   72, 4),
	S(SB, "cp_blkaddr",             0,   76, 4),
	S(SB, "sit_blkaddr",            0,   80, 4),
	S(SB, "nat_blkaddr",            0,   84, 4),
	S(SB, "ssa_blkaddr",            0,   88, 4),
	S(SB, "main_blkaddr",           0,   92, 4),
	S(SB, "root_ino",               0,   96, 4),
	S(SB, "node_ino",               0,  100, 4),
	S(SB, "meta_ino",               0,  104, 4),
	S(SB, "uuid",                   B,  108, 16),
	A(SB, "volume_name",            0,  124, 2, 512),
	S(SB, "extension_count",        0, 1148, 4),
	A(SB, "extension_list",         B, 1152, 8, 64),
	S(SB, "cp_payload",             0, 1664, 4),
	S(SB, "version",                B, 1668, 256),
	S(SB, "init_version",           B, 1924, 256),
	S(SB, "feature",                0, 2180, 4),
	S(SB, "encryption_level",       0, 2184, 1),
	S(SB, "encrypt_pw_salt",        B, 2185, 16),
	AS(SB, "devs.path",             B, 2201, 64, 8, 68),
	AS(SB, "devs.total_segments",   0, 2265, 4, 8, 68),
	A(SB, "qf_ino",                 0, 2745, 4, 3),
	S(SB, "hot_ext_count",          0, 2757, 1),
	S(SB, "s_encoding",             0, 2758, 2),
	S(SB, "s_encoding_flags",       0, 2760, 2),
	A(SB, "s_stop_reason",          0, 2762, 1, 32),
	A(SB, "s_errors",               0, 2794, 1, 16),
	S(SB, "reserved",               B, 2810, 258),
	S(SB, "crc",                    C, 3068, 4),

	/* checkpoint block */
	S(CP, "checkpoint_ver",             0,   0, 8),
	S(CP, "user_block_count",           0,   8, 8),
	S(CP, "valid_block_count",          0,  16, 8),
	S(CP, "rsvd_segment_count",         0,  24, 4),
	S(CP, "overprov_segment_count",     0,  28, 4),
	S(CP, "free_segment_count",         0,  32, 4),
	A(CP, "cur_node_segno",             0,  36, 4, 8),
	A(CP, "cur_node_blkoff",            0,  68, 2, 8),
	A(CP, "cur_data_segno",             0,  84, 4, 8),
	A(CP, "cur_data_blkoff",            0, 116, 2, 8),
	S(CP, "ckpt_flags",                 0, 132, 4),
	S(CP, "cp_pack_total_block_count",  0, 136, 4),
	S(CP, "cp_pack_start_sum",          0, 140, 4),
	S(CP, "valid_node_count",           0, 144, 4),
	S(CP, "valid_inode_count",          0, 148, 4),
	S(CP, "next_free_nid",              0, 152, 4),
	S(CP, "sit_ver_bitmap_bytesize",    0, 156, 4),
	S(CP, "nat_ver_bitmap_bytesize",    0, 160, 4),
	S(CP, "checksum_offset",            0, 164, 4),
	S(CP, "elapsed_time",               0, 168, 8),
	A(CP, "alloc_type",                 0, 176, 1, 16),
	S(CP, "crc",                        C, 4092, 4),

	/* orphan block */
	A(ORPHAN, "ino",          0,    0, 4, 1020),
	S(ORPHAN, "reserved",     0, 4080, 4),
	S(ORPHAN, "blk_addr",     0, 4084, 2),
	S(ORPHAN, "blk_count",    0, 4086, 2),
	S(ORPHAN, "entry_count",  0, 4088, 4),
	S(ORPHAN, "check_sum",    0, 4092, 4),

	/* NAT entry */
	S(NAT, "version",     0, 0, 1),
	S(NAT, "ino",         0, 1, 4),
	S(NAT, "block_addr",  0, 5, 4),

	/* SIT entry */
	S(SIT, "vblocks",     0,  0, 2),
	A(SIT, "valid_map",   0,  2, 1, 64),
	S(SIT, "mtime",       0, 66, 8),

	/* summary entry and footer */
	S(SSA, "nid",                0, 0, 4),
	S(SSA, "version",            0, 4, 1),
	S(SSA, "ofs_in_node",        0, 5, 2),
	S(SSA_FOOTER, "entry_type",  0, 0, 1),
	S(SSA_FOOTER, "check_sum",   0, 1, 4),

	/* journals */
	S(NAT_JOURNAL, "n_nats",                  0, 0, 2),
	S(NAT_JOURNAL_ENTRY, "nid",               0, 0, 4),
	S(NAT_JOURNAL_ENTRY, "version",           0, 4, 1),
	S(NAT_JOURNAL_ENTRY, "ino",               0, 5, 4),
	S(NAT_JOURNAL_ENTRY, "block_addr",        0, 9, 4),
	S(SIT_JOURNAL, "n_sits",                  0, 0, 2),
	S(SIT_JOURNAL_ENTRY, "segno",             0, 0, 4),
	S(SIT_JOURNAL_ENTRY, "vblocks",           0, 4, 2),
	A(SIT_JOURNAL_ENTRY, "valid_map",         0, 6, 1, 64),
	S(SIT_JOURNAL_ENTRY, "mtime",             0, 70, 8),

	/* node footer */
	S(NODE_FOOTER, "nid",           0,  0, 4),
	S(NODE_FOOTER, "ino",           0,  4, 4),
	S(NODE_FOOTER, "flag",          0,  8, 4),
	S(NODE_FOOTER, "cp_ver",        0, 12, 8),
	S(NODE_FOOTER, "next_blkaddr",  0, 20, 4),

	/* inode */
	S(INODE, "i_mode",                0,    0, 2),
	S(INODE, "i_advise",              0,    2, 1),
	S(INODE, "i_inline",              0,    3, 1),
	S(INODE, "i_uid",                 0,    4, 4),
	S(INODE, "i_gid",                 0,    8, 4),
	S(INODE, "i_links",               0,   12, 4),
	S(INODE, "i_size",                0,   16, 8),
	S(INODE, "i_blocks",              0,   24, 8),
	S(INODE, "i_atime",               0,   32, 8),
	S(INODE, "i_ctime",               0,   40, 8),
	S(INODE, "i_mtime",               0,   48, 8),
	S(INODE, "i_atime_nsec",          0,   56, 4),
	S(INODE, "i_ctime_nsec",          0,   60, 4),
	S(INODE, "i_mtime_nsec",          0,   64, 4),
	S(INODE, "i_generation",          0,   68, 4),
	S(INODE, "i_current_depth",       0,   72, 4),
	S(INODE, "i_xattr_nid",           0,   76, 4),
	S(INODE, "i_flags",               0,   80, 4),
	S(INODE, "i_pino",                0,   84, 4),
	S(INODE, "i_namelen",             0,   88, 4),
	S(INODE, "i_name",                B,   92, 255),
	S(INODE, "i_dir_level",           0,  347, 1),
	S(INODE, "i_ext.fofs",            0,  348, 4),
	S(INODE, "i_ext.blk_addr",        0,  352, 4),
	S(INODE, "i_ext.len",             0,  356, 4),
	A(INODE, "i_addr",                O,  360, 4, 923),
	S(INODE, "i_extra_isize",         X,  360, 2),
	S(INODE, "i_inline_xattr_size",   X,  362, 2),
	S(INODE, "i_projid",              X,  364, 4),
	S(INODE, "i_inode_checksum",      X | C, 368, 4),
	S(INODE, "i_crtime",              X,  372, 8),
	S(INODE, "i_crtime_nsec",         X,  380, 4),
	S(INODE, "i_compr_blocks",        X,  384, 8),
	S(INODE, "i_compress_algorithm",  X,  392, 1),
	S(INODE, "i_log_cluster_size",    X,  393, 1),
	S(INODE, "i_compress_flag",       X,  394, 2),
	A(INODE, "i_nid",                 0, 4052, 4, 5),

	/* direct and indirect nodes (inject.f2fs calls both arrays "addr") */
	A(DNODE, "addr",    0, 0, 4, 1018),
	A(INDNODE, "addr",  0, 0, 4, 1018),

	/* dentry block and entry */
	A(DENTRY_BLOCK, "d_bitmap",  0,    0, 1, 27),
	A(DENTRY_BLOCK, "reserved",  0,   27, 1, 3),
	A(DENTRY_BLOCK, "filename",  B, 2384, 8, 214),
	S(DENTRY, "d_hash",          0,  0, 4),
	S(DENTRY, "d_ino",           0,  4, 4),
	S(DENTRY, "name_len",        0,  8, 2),
	S(DENTRY, "d_ftype",         0, 10, 1),

	/* xattrs */
	S(XATTR_HEADER, "h_magic",       0, 0, 4),
	S(XATTR_HEADER, "h_refcount",    0, 4, 4),
	A(XATTR_HEADER, "h_reserved",    0, 8, 4, 4),
	S(XATTR_ENTRY, "e_name_index",   0, 0, 1),
	S(XATTR_ENTRY, "e_name_len",     0, 1, 1),
	S(XATTR_ENTRY, "e_value_size",   0, 2, 2),

	/* nat_bits: checkpoint_ver | (the checkpoint's crc << 32) */
	S(NAT_BITS, "header",  0, 0, 8),

	/* quota records (1 KiB quota blocks, after a 16-byte header) */
	S(QUOTA_RECORD, "id",          0,  0, 4),
	S(QUOTA_RECORD, "pad",         0,  4, 4),
	S(QUOTA_RECORD, "ihardlimit",  0,  8, 8),
	S(QUOTA_RECORD, "isoftlimit",  0, 16, 8),
	S(QUOTA_RECORD, "curinodes",   0, 24, 8),
	S(QUOTA_RECORD, "bhardlimit",  0, 32, 8),
	S(QUOTA_RECORD, "bsoftlimit",  0, 40, 8),
	S(QUOTA_RECORD, "curspace",    0, 48, 8),
	S(QUOTA_RECORD, "btime",       0, 56, 8),
	S(QUOTA_RECORD, "itime",       0, 64, 8),
};

#undef B
#undef C
#undef X
#undef O
#undef S
#undef A
#undef AS

const struct f2fs_field *f2fs_fields(size_t *n)
{
	*n = sizeof(fields) / sizeof(fields[0]);
	return fields;
}

const struct f2fs_fkind *f2fs_fkind(unsigned id)
{
	return id < F2FS_FK_COUNT ? &kinds[id] : NULL;
}

int f2fs_fkind_find(const char *name)
{
	for (unsigned i = 0; i < F2FS_FK_COUNT; i++)
		if (!strcmp(kinds[i].name, name))
			return (int)i;
	return -1;
}

const struct f2fs_field *f2fs_fields_of(unsigned kind, size_t *n)
{
	size_t total = sizeof(fields) / sizeof(fields[0]), i = 0, j;

	while (i < total && fields[i].kind != kind)
		i++;
	for (j = i; j < total && fields[j].kind == kind; j++)
		;
	*n = j - i;
	return *n ? &fields[i] : NULL;
}

const struct f2fs_field *f2fs_field_find(unsigned kind, const char *name)
{
	size_t n;
	const struct f2fs_field *f = f2fs_fields_of(kind, &n);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return &f[i];
	return NULL;
}

uint64_t f2fs_field_mask(const struct f2fs_field *f)
{
	switch (f->size) {
	case 1: return 0xffu;
	case 2: return 0xffffu;
	case 4: return 0xffffffffu;
	case 8: return UINT64_MAX;
	default: return 0;
	}
}

uint64_t f2fs_field_get(const void *inst, const struct f2fs_field *f, unsigned idx)
{
	const uint8_t *p = (const uint8_t *)inst + f2fs_field_pos(f, idx);
	uint64_t v = 0;

	if (f->flags & F2FS_FF_BYTES || !f2fs_field_mask(f))
		return 0;
	for (unsigned i = f->size; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

void f2fs_field_set(void *inst, const struct f2fs_field *f, unsigned idx, uint64_t v)
{
	uint8_t *p = (uint8_t *)inst + f2fs_field_pos(f, idx);

	if (f->flags & F2FS_FF_BYTES || !f2fs_field_mask(f))
		return;
	for (unsigned i = 0; i < f->size; i++, v >>= 8)
		p[i] = (uint8_t)v;
}
