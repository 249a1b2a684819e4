/*
 * The checkpoint views: a short human summary (the default text view), and
 * every field with the version bitmaps, nat_bits and both journals (--cp,
 * and the checkpoint of every JSON document), described once for both.
 */
#include "dump.h"

#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/format.h>
#include <f2fs/format/nat_bits.h>
#include <f2fs/fs/nat_bits_read.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static void print_cp_source(struct dump *d)
{
	const struct f2fs_cp_choice *c = f2fs_fs_cp_choice(d->fs);

	out_text(&d->out, "Checkpoint: pack %d at block %u", c->pack + 1, f2fs_fs_cp_start(d->fs));
	if (c->other_valid)
		out_text(&d->out, " (pack %d also valid, older)\n", 2 - c->pack);
	else
		out_text(&d->out, " (pack %d invalid: %s)\n", 2 - c->pack,
			 c->other_err.msg[0] ? c->other_err.msg : "unknown reason");
}

/* alloc_type[] is indexed like log_names: data logs, then node logs. */
static const char *alloc_name(uint8_t a)
{
	return a == 0 ? "lfs" : a == 1 ? "ssr" : "unknown";
}

void view_cp_summary(struct dump *d)
{
	struct out *o = &d->out;
	struct f2fs_fs *fs = d->fs;
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);

	print_cp_source(d);
	out_label(o, "version:");
	out_text(o, "0x%" PRIx64 " (%" PRIu64 ")\n", le64_get(cp->checkpoint_ver),
		 le64_get(cp->checkpoint_ver));
	out_flags(o, "flags", "flags:", le32_get(cp->ckpt_flags), cp_flag_names);
	out_label(o, "user blocks:");
	out_text(o, "%" PRIu64 "\n", le64_get(cp->user_block_count));
	out_label(o, "valid blocks:");
	out_text(o, "%" PRIu64 "\n", le64_get(cp->valid_block_count));
	out_label(o, "valid nodes / inodes:");
	out_text(o, "%u / %u\n", le32_get(cp->valid_node_count), le32_get(cp->valid_inode_count));
	out_label(o, "next free nid:");
	out_text(o, "%u\n", le32_get(cp->next_free_nid));
	out_label(o, "free segments:");
	out_text(o, "%u\n", le32_get(cp->free_segment_count));
	out_label(o, "reserved / overprov segs:");
	out_text(o, "%u / %u\n", le32_get(cp->rsvd_segment_count),
		 le32_get(cp->overprov_segment_count));
	out_label(o, "current segments:");
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++)
		out_text(o, "%s%s %u+%u", t ? ", " : "", log_names[t], f2fs_cp_log_segno(cp, t),
			 f2fs_cp_log_blkoff(cp, t));
	out_text(o, "\n");
	out_label(o, "elapsed time:");
	out_text(o, "%" PRIu64 " s\n", le64_get(cp->elapsed_time));
	out_label(o, "journals:");
	out_text(o, "%u NAT, %u SIT entries\n", le16_get(f2fs_fs_nat_journal(fs)->n_entries),
		 le16_get(f2fs_fs_sit_journal(fs)->n_entries));
}

static void cp_source_fields(struct out *o, struct f2fs_fs *fs)
{
	const struct f2fs_cp_choice *c = f2fs_fs_cp_choice(fs);

	/* JSON only: text says it in the heading line */
	out_u(o, "pack", NULL, (uint64_t)c->pack + 1);
	out_u(o, "blkaddr", NULL, f2fs_fs_cp_start(fs));
	out_u(o, "other_pack_valid", NULL, (uint64_t)c->other_valid);
	if (!c->other_valid)
		out_s(o, "other_pack_error", NULL,
		      c->other_err.msg[0] ? c->other_err.msg : "unknown reason");
}

static void cp_counters(struct out *o, const struct f2fs_checkpoint *cp)
{
#define U32(f) out_u(o, #f, #f, le32_get(cp->f))
#define U64(f) out_u(o, #f, #f, le64_get(cp->f))
	U64(checkpoint_ver);
	U64(user_block_count);
	U64(valid_block_count);
	U32(rsvd_segment_count);
	U32(overprov_segment_count);
	U32(free_segment_count);
	out_flags(o, "ckpt_flags", "ckpt_flags", le32_get(cp->ckpt_flags), cp_flag_names);
	U32(cp_pack_total_block_count);
	U32(cp_pack_start_sum);
	U32(valid_node_count);
	U32(valid_inode_count);
	U32(next_free_nid);
	U32(sit_ver_bitmap_bytesize);
	U32(nat_ver_bitmap_bytesize);
	U32(checksum_offset);
	U64(elapsed_time);
	out_x(o, "crc", "crc", f2fs_cp_stored_crc(cp));
#undef U32
#undef U64
}

/* The raw arrays (all slots, used or not), then the six logs by name. */
static void cp_logs(struct out *o, const struct f2fs_checkpoint *cp)
{
	static const struct out_col cols[] = {
		{ "log", "log", -9, OUT_COL_S },
		{ "segno", "segno", 10, OUT_COL_U },
		{ "blkoff", "blkoff", 6, OUT_COL_U },
		{ "alloc", "alloc", -5, OUT_COL_S },
	};
	struct out_table t;

#define ARRAY(f, get, n) do {                   \
		out_list_begin(o, #f, #f);                  \
		for (int k = 0; k < (n); k++) {         \
			out_list_u(o, get(cp->f[k]));       \
		}                                       \
		out_list_end(o);                          \
	} while (0)
	ARRAY(cur_node_segno, le32_get, F2FS_MAX_ACTIVE_NODE_LOGS);
	ARRAY(cur_node_blkoff, le16_get, F2FS_MAX_ACTIVE_NODE_LOGS);
	ARRAY(cur_data_segno, le32_get, F2FS_MAX_ACTIVE_DATA_LOGS);
	ARRAY(cur_data_blkoff, le16_get, F2FS_MAX_ACTIVE_DATA_LOGS);
	ARRAY(alloc_type, (uint8_t), F2FS_MAX_ACTIVE_LOGS);
#undef ARRAY
	out_tab_begin(o, &t, "current_segments", "  current segments:", cols, 4);
	for (int k = 0; k < F2FS_NR_CURSEG_TYPE; k++)
		out_tab_row(o, &t, (struct out_cell[]){ OUT_S(log_keys[k]), OUT_U(f2fs_cp_log_segno(cp, k)),
			OUT_U(f2fs_cp_log_blkoff(cp, k)), OUT_S(alloc_name(cp->alloc_type[k])) });
	out_tab_end(o, &t);
}

static void cp_bitmaps(struct out *o, struct f2fs_fs *fs)
{
	const uint8_t *map;
	uint32_t bytes;

	map = f2fs_fs_sit_bitmap(fs, &bytes);
	out_u(o, "sit_bitmap_blocks", "SIT bitmap blocks", (uint64_t)bytes * 8);
	out_u(o, "sit_bitmap_copy2", "SIT blocks in copy 2", count_bits(map, bytes));
	map = f2fs_fs_nat_bitmap(fs, &bytes);
	out_u(o, "nat_bitmap_blocks", "NAT bitmap blocks", (uint64_t)bytes * 8);
	out_u(o, "nat_bitmap_copy2", "NAT blocks in copy 2", count_bits(map, bytes));
}

/* nat_bits: present, where, and whether its header matches this pack. */
static void cp_nat_bits(struct out *o, struct f2fs_fs *fs)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	uint32_t n;
	uint64_t at;
	bool fits = f2fs_fs_nat_bits_where(fs, &n, &at);
	struct f2fs_error err;
	uint8_t *blk;

	if (!(le32_get(cp->ckpt_flags) & F2FS_CP_NAT_BITS)) {
		out_s(o, "nat_bits", "nat_bits", "absent");
		return;
	}
	blk = malloc(F2FS_BLKSIZE);
	if (!blk || !fits || f2fs_fs_read_block(fs, at, blk, &err)) {
		out_s(o, "nat_bits", "nat_bits", "unreadable");
	} else {
		uint64_t hdr = le64_load(blk);

		out_s(o, "nat_bits", "nat_bits", hdr == f2fs_fs_nat_bits_want(fs) ?
						 "matches the checkpoint" : "stale: does not match");
		out_u(o, "nat_bits_blocks", "nat_bits blocks", n);
		out_u(o, "nat_bits_blkaddr", "nat_bits at block", at);
		out_x(o, "nat_bits_header", "nat_bits header", hdr);
	}
	free(blk);
}

static void cp_journals(struct out *o, struct f2fs_fs *fs)
{
	static const struct out_col ncols[] = {
		{ "nid", "nid", 10, OUT_COL_U }, { "ino", "ino", 10, OUT_COL_U },
		{ "blkaddr", "blkaddr", 10, OUT_COL_U }, { "version", "version", 7, OUT_COL_U },
	};
	static const struct out_col scols[] = {
		{ "segno", "segno", 10, OUT_COL_U }, { "valid", "valid", 5, OUT_COL_U },
		{ "type", "type", 4, OUT_COL_U }, { "type_name", "log", -9, OUT_COL_S },
	};
	const struct f2fs_journal *nj = f2fs_fs_nat_journal(fs);
	const struct f2fs_journal *sj = f2fs_fs_sit_journal(fs);
	struct out_table t;

	out_u(o, "nat_journal_entries", "NAT journal entries", le16_get(nj->n_entries));
	out_tab_begin(o, &t, "nat_journal", NULL, ncols, 4);
	for (uint32_t k = 0; k < le16_get(nj->n_entries); k++) {
		const struct f2fs_nat_journal_entry *e = &nj->nat_j.entries[k];

		out_tab_row(o, &t, (struct out_cell[]){ OUT_U(le32_get(e->nid)),
			OUT_U(le32_get(e->ne.ino)), OUT_U(le32_get(e->ne.block_addr)),
			OUT_U(e->ne.version) });
	}
	out_tab_end(o, &t);
	out_u(o, "sit_journal_entries", "SIT journal entries", le16_get(sj->n_entries));
	out_tab_begin(o, &t, "sit_journal", NULL, scols, 4);
	for (uint32_t k = 0; k < le16_get(sj->n_entries); k++) {
		const struct f2fs_sit_journal_entry *e = &sj->sit_j.entries[k];
		uint16_t vb = le16_get(e->se.vblocks);
		uint32_t type = vb >> F2FS_SIT_VBLOCKS_SHIFT;

		out_tab_row(o, &t, (struct out_cell[]){ OUT_U(le32_get(e->segno)),
			OUT_U(vb & F2FS_SIT_VBLOCKS_MASK), OUT_U(type),
			OUT_S(type < F2FS_NR_CURSEG_TYPE ? log_keys[type] : "invalid") });
	}
	out_tab_end(o, &t);
}

void view_cp(struct dump *d)
{
	struct out *o = &d->out;
	struct f2fs_fs *fs = d->fs;
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);

	if (!out_json(o))
		print_cp_source(d);
	out_obj_begin(o, "checkpoint", NULL);
	cp_source_fields(o, fs);
	cp_counters(o, cp);
	cp_logs(o, cp);
	cp_bitmaps(o, fs);
	cp_nat_bits(o, fs);
	cp_journals(o, fs);
	out_obj_end(o);
}
