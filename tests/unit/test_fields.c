/*
 * The field table (<f2fs/format/fields.h>) against the packed structures of
 * <f2fs/format/format.h>: every row's offset, element size, count and
 * stride must be what offsetof() and sizeof() say, every row must be
 * listed here and every entry here must be a row. A change to a structure
 * fails this test; the table, whose numbers are written out, does not
 * follow it silently.
 */
#include <check.h>

#include <f2fs/format/fields.h>
#include <f2fs/format/format.h>
#include <f2fs/format/quota.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "unit.h"

struct want {
	unsigned kind;
	const char *name;
	size_t offset, size, count, stride;
};

#define MSZ(T, m) sizeof(((T *)0)->m)
#define ELEM(T, m) sizeof(((T *)0)->m[0])
/* a scalar member m of struct T, named n */
#define W(k, n, T, m) { F2FS_FK_##k, n, offsetof(T, m), MSZ(T, m), 1, MSZ(T, m) }
/* an array member of scalars */
#define WA(k, n, T, m) { F2FS_FK_##k, n, offsetof(T, m), ELEM(T, m), \
	MSZ(T, m) / ELEM(T, m), ELEM(T, m) }
/* a byte array taken whole (a string) */
#define WS(k, n, T, m) { F2FS_FK_##k, n, offsetof(T, m), MSZ(T, m), 1, MSZ(T, m) }
/* member m of each element of array member arr, of element type E */
#define WE(k, n, T, arr, E, m) { F2FS_FK_##k, n, offsetof(T, arr) + offsetof(E, m), \
	MSZ(E, m), MSZ(T, arr) / sizeof(E), sizeof(E) }

typedef struct f2fs_super_block SB;
typedef struct f2fs_checkpoint CP;
typedef struct f2fs_orphan_block OB;
typedef struct f2fs_nat_entry NE;
typedef struct f2fs_sit_entry SE;
typedef struct f2fs_summary SU;
typedef struct f2fs_summary_footer SF;
typedef struct f2fs_journal J;
typedef struct f2fs_nat_journal_entry NJE;
typedef struct f2fs_sit_journal_entry SJE;
typedef struct f2fs_node_footer NF;
typedef struct f2fs_inode IN;
typedef struct f2fs_direct_node DN;
typedef struct f2fs_indirect_node IDN;
typedef struct f2fs_dentry_block DB;
typedef struct f2fs_dir_entry DE;
typedef struct f2fs_xattr_header XH;
typedef struct f2fs_xattr_entry XE;
typedef struct f2fs_quota_record QR;

static const struct want wants[] = {
	W(SB, "magic", SB, magic),
	W(SB, "major_ver", SB, major_ver),
	W(SB, "minor_ver", SB, minor_ver),
	W(SB, "log_sectorsize", SB, log_sectorsize),
	W(SB, "log_sectors_per_block", SB, log_sectors_per_block),
	W(SB, "log_blocksize", SB, log_blocksize),
	W(SB, "log_blocks_per_seg", SB, log_blocks_per_seg),
	W(SB, "segs_per_sec", SB, segs_per_sec),
	W(SB, "secs_per_zone", SB, secs_per_zone),
	W(SB, "checksum_offset", SB, checksum_offset),
	W(SB, "block_count", SB, block_count),
	W(SB, "section_count", SB, section_count),
	W(SB, "segment_count", SB, segment_count),
	W(SB, "segment_count_ckpt", SB, segment_count_ckpt),
	W(SB, "segment_count_sit", SB, segment_count_sit),
	W(SB, "segment_count_nat", SB, segment_count_nat),
	W(SB, "segment_count_ssa", SB, segment_count_ssa),
	W(SB, "segment_count_main", SB, segment_count_main),
	W(SB, "segment0_blkaddr", SB, segment0_blkaddr),
	W(SB, "cp_blkaddr", SB, cp_blkaddr),
	W(SB, "sit_blkaddr", SB, sit_blkaddr),
	W(SB, "nat_blkaddr", SB, nat_blkaddr),
	W(SB, "ssa_blkaddr", SB, ssa_blkaddr),
	W(SB, "main_blkaddr", SB, main_blkaddr),
	W(SB, "root_ino", SB, root_ino),
	W(SB, "node_ino", SB, node_ino),
	W(SB, "meta_ino", SB, meta_ino),
	WS(SB, "uuid", SB, uuid),
	WA(SB, "volume_name", SB, volume_name),
	W(SB, "extension_count", SB, extension_count),
	WA(SB, "extension_list", SB, extension_list),
	W(SB, "cp_payload", SB, cp_payload),
	WS(SB, "version", SB, version),
	WS(SB, "init_version", SB, init_version),
	W(SB, "feature", SB, feature),
	W(SB, "encryption_level", SB, encryption_level),
	WS(SB, "encrypt_pw_salt", SB, encrypt_pw_salt),
	WE(SB, "devs.path", SB, devs, struct f2fs_device, path),
	WE(SB, "devs.total_segments", SB, devs, struct f2fs_device, total_segments),
	WA(SB, "qf_ino", SB, qf_ino),
	W(SB, "hot_ext_count", SB, hot_ext_count),
	W(SB, "s_encoding", SB, s_encoding),
	W(SB, "s_encoding_flags", SB, s_encoding_flags),
	WA(SB, "s_stop_reason", SB, s_stop_reason),
	WA(SB, "s_errors", SB, s_errors),
	WS(SB, "reserved", SB, reserved),
	W(SB, "crc", SB, crc),

	W(CP, "checkpoint_ver", CP, checkpoint_ver),
	W(CP, "user_block_count", CP, user_block_count),
	W(CP, "valid_block_count", CP, valid_block_count),
	W(CP, "rsvd_segment_count", CP, rsvd_segment_count),
	W(CP, "overprov_segment_count", CP, overprov_segment_count),
	W(CP, "free_segment_count", CP, free_segment_count),
	WA(CP, "cur_node_segno", CP, cur_node_segno),
	WA(CP, "cur_node_blkoff", CP, cur_node_blkoff),
	WA(CP, "cur_data_segno", CP, cur_data_segno),
	WA(CP, "cur_data_blkoff", CP, cur_data_blkoff),
	W(CP, "ckpt_flags", CP, ckpt_flags),
	W(CP, "cp_pack_total_block_count", CP, cp_pack_total_block_count),
	W(CP, "cp_pack_start_sum", CP, cp_pack_start_sum),
	W(CP, "valid_node_count", CP, valid_node_count),
	W(CP, "valid_inode_count", CP, valid_inode_count),
	W(CP, "next_free_nid", CP, next_free_nid),
	W(CP, "sit_ver_bitmap_bytesize", CP, sit_ver_bitmap_bytesize),
	W(CP, "nat_ver_bitmap_bytesize", CP, nat_ver_bitmap_bytesize),
	W(CP, "checksum_offset", CP, checksum_offset),
	W(CP, "elapsed_time", CP, elapsed_time),
	WA(CP, "alloc_type", CP, alloc_type),
	/* the CRC sits at the block's end, past the structure */
	{ F2FS_FK_CP, "crc", F2FS_CP_CHKSUM_OFFSET, 4, 1, 4 },

	WA(ORPHAN, "ino", OB, ino),
	W(ORPHAN, "reserved", OB, reserved),
	W(ORPHAN, "blk_addr", OB, blk_addr),
	W(ORPHAN, "blk_count", OB, blk_count),
	W(ORPHAN, "entry_count", OB, entry_count),
	W(ORPHAN, "check_sum", OB, check_sum),

	W(NAT, "version", NE, version),
	W(NAT, "ino", NE, ino),
	W(NAT, "block_addr", NE, block_addr),

	W(SIT, "vblocks", SE, vblocks),
	WA(SIT, "valid_map", SE, valid_map),
	W(SIT, "mtime", SE, mtime),

	W(SSA, "nid", SU, nid),
	W(SSA, "version", SU, version),
	W(SSA, "ofs_in_node", SU, ofs_in_node),
	W(SSA_FOOTER, "entry_type", SF, entry_type),
	W(SSA_FOOTER, "check_sum", SF, check_sum),

	W(NAT_JOURNAL, "n_nats", J, n_entries),
	W(NAT_JOURNAL_ENTRY, "nid", NJE, nid),
	W(NAT_JOURNAL_ENTRY, "version", NJE, ne.version),
	W(NAT_JOURNAL_ENTRY, "ino", NJE, ne.ino),
	W(NAT_JOURNAL_ENTRY, "block_addr", NJE, ne.block_addr),
	W(SIT_JOURNAL, "n_sits", J, n_entries),
	W(SIT_JOURNAL_ENTRY, "segno", SJE, segno),
	W(SIT_JOURNAL_ENTRY, "vblocks", SJE, se.vblocks),
	WA(SIT_JOURNAL_ENTRY, "valid_map", SJE, se.valid_map),
	W(SIT_JOURNAL_ENTRY, "mtime", SJE, se.mtime),

	W(NODE_FOOTER, "nid", NF, nid),
	W(NODE_FOOTER, "ino", NF, ino),
	W(NODE_FOOTER, "flag", NF, flag),
	W(NODE_FOOTER, "cp_ver", NF, cp_ver),
	W(NODE_FOOTER, "next_blkaddr", NF, next_blkaddr),

	W(INODE, "i_mode", IN, i_mode),
	W(INODE, "i_advise", IN, i_advise),
	W(INODE, "i_inline", IN, i_inline),
	W(INODE, "i_uid", IN, i_uid),
	W(INODE, "i_gid", IN, i_gid),
	W(INODE, "i_links", IN, i_links),
	W(INODE, "i_size", IN, i_size),
	W(INODE, "i_blocks", IN, i_blocks),
	W(INODE, "i_atime", IN, i_atime),
	W(INODE, "i_ctime", IN, i_ctime),
	W(INODE, "i_mtime", IN, i_mtime),
	W(INODE, "i_atime_nsec", IN, i_atime_nsec),
	W(INODE, "i_ctime_nsec", IN, i_ctime_nsec),
	W(INODE, "i_mtime_nsec", IN, i_mtime_nsec),
	W(INODE, "i_generation", IN, i_generation),
	W(INODE, "i_current_depth", IN, i_current_depth),
	W(INODE, "i_xattr_nid", IN, i_xattr_nid),
	W(INODE, "i_flags", IN, i_flags),
	W(INODE, "i_pino", IN, i_pino),
	W(INODE, "i_namelen", IN, i_namelen),
	WS(INODE, "i_name", IN, i_name),
	W(INODE, "i_dir_level", IN, i_dir_level),
	W(INODE, "i_ext.fofs", IN, i_ext.fofs),
	W(INODE, "i_ext.blk_addr", IN, i_ext.blk),
	W(INODE, "i_ext.len", IN, i_ext.len),
	WA(INODE, "i_addr", IN, i_addr),
	W(INODE, "i_extra_isize", IN, extra.i_extra_isize),
	W(INODE, "i_inline_xattr_size", IN, extra.i_inline_xattr_size),
	W(INODE, "i_projid", IN, extra.i_projid),
	W(INODE, "i_inode_checksum", IN, extra.i_inode_checksum),
	W(INODE, "i_crtime", IN, extra.i_crtime),
	W(INODE, "i_crtime_nsec", IN, extra.i_crtime_nsec),
	W(INODE, "i_compr_blocks", IN, extra.i_compr_blocks),
	W(INODE, "i_compress_algorithm", IN, extra.i_compress_algorithm),
	W(INODE, "i_log_cluster_size", IN, extra.i_log_cluster_size),
	W(INODE, "i_compress_flag", IN, extra.i_compress_flag),
	WA(INODE, "i_nid", IN, i_nid),

	WA(DNODE, "addr", DN, addr),
	WA(INDNODE, "addr", IDN, nid),

	WA(DENTRY_BLOCK, "d_bitmap", DB, dentry_bitmap),
	WA(DENTRY_BLOCK, "reserved", DB, reserved),
	WA(DENTRY_BLOCK, "filename", DB, filename),
	W(DENTRY, "d_hash", DE, hash_code),
	W(DENTRY, "d_ino", DE, ino),
	W(DENTRY, "name_len", DE, name_len),
	W(DENTRY, "d_ftype", DE, file_type),

	W(XATTR_HEADER, "h_magic", XH, h_magic),
	W(XATTR_HEADER, "h_refcount", XH, h_refcount),
	WA(XATTR_HEADER, "h_reserved", XH, h_reserved),
	W(XATTR_ENTRY, "e_name_index", XE, e_name_index),
	W(XATTR_ENTRY, "e_name_len", XE, e_name_len),
	W(XATTR_ENTRY, "e_value_size", XE, e_value_size),

	{ F2FS_FK_NAT_BITS, "header", 0, F2FS_NAT_BITS_HEADER_SIZE, 1, F2FS_NAT_BITS_HEADER_SIZE },
	W(QUOTA_RECORD, "id", QR, id),
	W(QUOTA_RECORD, "pad", QR, pad),
	W(QUOTA_RECORD, "ihardlimit", QR, ihardlimit),
	W(QUOTA_RECORD, "isoftlimit", QR, isoftlimit),
	W(QUOTA_RECORD, "curinodes", QR, curinodes),
	W(QUOTA_RECORD, "bhardlimit", QR, bhardlimit),
	W(QUOTA_RECORD, "bsoftlimit", QR, bsoftlimit),
	W(QUOTA_RECORD, "curspace", QR, curspace),
	W(QUOTA_RECORD, "btime", QR, btime),
	W(QUOTA_RECORD, "itime", QR, itime),
};

#define NWANTS (sizeof(wants) / sizeof(wants[0]))

START_TEST(test_rows_match_structs)
{
	size_t n;
	const struct f2fs_field *t = f2fs_fields(&n);

	ck_assert_uint_eq(n, NWANTS);
	for (size_t i = 0; i < NWANTS; i++) {
		const struct want *w = &wants[i];
		const struct f2fs_field *f = f2fs_field_find(w->kind, w->name);

		ck_assert_msg(f != NULL, "%s.%s: not in the table",
			      f2fs_fkind(w->kind)->name, w->name);
		ck_assert_msg(f->offset == w->offset && f->size == w->size &&
			      f->count == w->count && f->stride == w->stride,
			      "%s.%s: table %u+%ux%u/%u, struct %zu+%zux%zu/%zu",
			      f2fs_fkind(w->kind)->name, w->name, f->offset, f->size,
			      f->count, f->stride, w->offset, w->size, w->count, w->stride);
	}
	/* every row is listed once (names are unique in a kind) */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			ck_assert_msg(t[i].kind != t[j].kind || strcmp(t[i].name, t[j].name),
				      "%s listed twice", t[i].name);
}
END_TEST

/* Each kind: where it lies in its block, against the block structures. */
START_TEST(test_kinds_match_structs)
{
	static const struct { unsigned id; size_t base, size, count, stride; } k[] = {
		{ F2FS_FK_SB, F2FS_SUPER_OFFSET, sizeof(SB), 1, 0 },
		{ F2FS_FK_CP, 0, F2FS_BLKSIZE, 1, 0 },
		{ F2FS_FK_ORPHAN, 0, sizeof(OB), 1, 0 },
		{ F2FS_FK_NAT, offsetof(struct f2fs_nat_block, entries), sizeof(NE),
		  F2FS_NAT_ENTRY_PER_BLOCK, sizeof(NE) },
		{ F2FS_FK_SIT, offsetof(struct f2fs_sit_block, entries), sizeof(SE),
		  F2FS_SIT_ENTRY_PER_BLOCK, sizeof(SE) },
		{ F2FS_FK_SSA, offsetof(struct f2fs_summary_block, entries), sizeof(SU),
		  F2FS_ENTRIES_IN_SUM, sizeof(SU) },
		{ F2FS_FK_SSA_FOOTER, offsetof(struct f2fs_summary_block, footer), sizeof(SF), 1, 0 },
		{ F2FS_FK_NAT_JOURNAL, offsetof(struct f2fs_summary_block, journal), sizeof(J), 1, 0 },
		{ F2FS_FK_NAT_JOURNAL_ENTRY, offsetof(struct f2fs_summary_block, journal) +
		  offsetof(J, nat_j.entries), sizeof(NJE), F2FS_NAT_JOURNAL_ENTRIES, sizeof(NJE) },
		{ F2FS_FK_SIT_JOURNAL, offsetof(struct f2fs_summary_block, journal), sizeof(J), 1, 0 },
		{ F2FS_FK_SIT_JOURNAL_ENTRY, offsetof(struct f2fs_summary_block, journal) +
		  offsetof(J, sit_j.entries), sizeof(SJE), F2FS_SIT_JOURNAL_ENTRIES, sizeof(SJE) },
		{ F2FS_FK_NODE_FOOTER, offsetof(struct f2fs_node, footer), sizeof(NF), 1, 0 },
		{ F2FS_FK_INODE, offsetof(struct f2fs_node, i), sizeof(IN), 1, 0 },
		{ F2FS_FK_DNODE, offsetof(struct f2fs_node, dn), sizeof(DN), 1, 0 },
		{ F2FS_FK_INDNODE, offsetof(struct f2fs_node, in), sizeof(IDN), 1, 0 },
		{ F2FS_FK_DENTRY_BLOCK, 0, sizeof(DB), 1, 0 },
		{ F2FS_FK_DENTRY, offsetof(DB, dentry), sizeof(DE), F2FS_NR_DENTRY_IN_BLOCK, sizeof(DE) },
		{ F2FS_FK_XATTR_HEADER, 0, sizeof(XH), 1, 0 },
		{ F2FS_FK_XATTR_ENTRY, sizeof(XH), sizeof(XE), 1, 0 },
		{ F2FS_FK_NAT_BITS, 0, F2FS_NAT_BITS_HEADER_SIZE, 1, 0 },
		{ F2FS_FK_QUOTA_RECORD, sizeof(struct f2fs_quota_data_header), sizeof(QR),
		  F2FS_QUOTA_RECS_PER_BLK, sizeof(QR) },
	};

	ck_assert_uint_eq(sizeof(k) / sizeof(k[0]), F2FS_FK_COUNT);
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		const struct f2fs_fkind *f = f2fs_fkind(k[i].id);

		ck_assert_msg(f->base == k[i].base && f->size == k[i].size &&
			      f->count == k[i].count && f->stride == k[i].stride,
			      "kind %s: table %u+%u x%u/%u", f->name, f->base, f->size,
			      f->count, f->stride);
		ck_assert_int_eq(f2fs_fkind_find(f->name), (int)k[i].id);
		/* every field of the kind lies inside one instance (the CP's CRC
		 * inside its block) */
		size_t nf;
		const struct f2fs_field *fl = f2fs_fields_of(k[i].id, &nf);
		ck_assert_msg(nf > 0, "kind %s has no fields", f->name);
		for (size_t j = 0; j < nf; j++)
			ck_assert_msg(f2fs_field_pos(&fl[j], fl[j].count - 1) + fl[j].size <= f->size,
				      "%s.%s runs past its structure", f->name, fl[j].name);
	}
	ck_assert_ptr_null(f2fs_fkind(F2FS_FK_COUNT));
}
END_TEST

START_TEST(test_get_set)
{
	struct f2fs_node n;
	const struct f2fs_field *f = f2fs_field_find(F2FS_FK_INODE, "i_size");
	const struct f2fs_field *a = f2fs_field_find(F2FS_FK_INODE, "i_addr");
	const struct f2fs_field *name = f2fs_field_find(F2FS_FK_INODE, "i_name");
	const struct f2fs_field *dp = f2fs_field_find(F2FS_FK_SB, "devs.total_segments");
	struct f2fs_super_block sb;

	memset(&n, 0, sizeof(n));
	ck_assert_ptr_nonnull(f);
	f2fs_field_set(&n.i, f, 0, 0x1122334455667788ull);
	ck_assert_uint_eq(f2fs_field_get(&n.i, f, 0), 0x1122334455667788ull);
	ck_assert_uint_eq(((uint8_t *)&n.i.i_size)[0], 0x88);
	f2fs_field_set(&n.i, a, 7, 0xdeadbeef);
	ck_assert_uint_eq(f2fs_field_get(&n.i, a, 7), 0xdeadbeef);
	ck_assert_uint_eq(((uint8_t *)&n.i.i_addr[7])[3], 0xde);
	ck_assert_uint_eq(f2fs_field_mask(a), 0xffffffffu);
	/* strings are not numbers */
	f2fs_field_set(&n.i, name, 0, 1);
	ck_assert_uint_eq(n.i.i_name[0], 0);
	ck_assert_uint_eq(f2fs_field_get(&n.i, name, 0), 0);
	memset(&sb, 0, sizeof(sb));
	f2fs_field_set(&sb, dp, 3, 77);
	ck_assert_uint_eq(((uint8_t *)&sb.devs[3].total_segments)[0], 77);
	ck_assert_ptr_null(f2fs_field_find(F2FS_FK_SB, "no_such_field"));
	ck_assert_int_eq(f2fs_fkind_find("no_such_kind"), -1);
}
END_TEST

static Suite *fields_suite(void)
{
	Suite *s = suite_create("fields");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, test_rows_match_structs);
	tcase_add_test(tc, test_kinds_match_structs);
	tcase_add_test(tc, test_get_set);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(fields_suite());
}
