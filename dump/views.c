/* dump.f2fs views of NAT, SIT, SSA, block owners, segment counts and GC. */
#include "dump.h"

#include <f2fs/format/endian.h>
#include <f2fs/fs/gc.h>
#include <f2fs/format/inode.h>
#include <f2fs/fs/nat.h>
#include <f2fs/format/nat_bits.h>
#include <f2fs/fs/nat_bits_read.h>
#include <f2fs/fs/sit.h>
#include <f2fs/fs/ssa.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const state_names[F2FS_STATE_MAX] = { "free", "partial", "full", "current" };

static const char *type_key(uint8_t t)
{
	return t < F2FS_NR_CURSEG_TYPE ? log_keys[t] : "invalid";
}

/* Clamp r to [0, count); error when the start is out of bounds. */
static int clamp_range(struct range *r, uint64_t count, const char *what)
{
	if (r->start >= count)
		return error_line("%s %" PRIu64 " is out of range (0..%" PRIu64 ")", what,
				  r->start, count ? count - 1 : 0);
	if (r->end == UINT64_MAX)
		r->end = count - 1;
	if (r->end >= count)
		return error_line("%s %" PRIu64 " is out of range (0..%" PRIu64 ")", what,
				  r->end, count - 1);
	if (r->end < r->start)
		return error_line("%s range %" PRIu64 "~%" PRIu64 " is empty", what, r->start, r->end);
	return 0;
}

int load_sit(struct f2fs_fs *fs, unsigned flags, struct f2fs_sit **sit)
{
	struct f2fs_error err;

	if (f2fs_sit_load(fs, flags, sit, &err))
		return error_line("%s", err.msg);
	if ((*sit)->n_journal_bad)
		fprintf(stderr, "%s: warning: SIT journal: %u entries name a segment beyond the main area\n",
			prog, (*sit)->n_journal_bad);
	return 0;
}

/* ---- -n: NAT entries ---------------------------------------------------- */

int view_nat(struct dump *d, struct range r)
{
	struct out *o = &d->out;
	struct f2fs_fs *fs = d->fs;
	static const struct out_col cols[] = {
		{ "nid", "nid", 10, OUT_COL_U },
		{ "ino", "ino", 10, OUT_COL_U },
		{ "blkaddr", "blkaddr", 10, OUT_COL_U },
		{ "version", "ver", 3, OUT_COL_U },
		{ "source", "source", -7, OUT_COL_S },
	};
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	uint64_t nat = le32_get(sb->nat_blkaddr);
	struct f2fs_error err;
	struct out_table t;
	int ret;

	ret = clamp_range(&r, f2fs_fs_max_nid(fs), "nid");
	if (ret)
		return ret;
	out_tab_begin(o, &t, "nat", "NAT entries in use (journal entries override the NAT blocks):",
		      cols, 5);
	for (uint64_t nid = r.start; nid <= r.end; nid++) {
		struct f2fs_nat_info ne;
		int from_j;
		const char *src;

		if (f2fs_nat_lookup(fs, (uint32_t)nid, &ne, &from_j, &err)) {
			out_tab_end(o, &t);
			out_end(o);
			return error_line("%s", err.msg);
		}
		if (ne.blkaddr == 0 && ne.ino == 0)
			continue;
		if (from_j)
			src = "journal";
		else
			src = ((ne.nat_blkaddr - nat) / F2FS_BLOCKS_PER_SEG) % 2 ? "copy2" : "copy1";
		out_tab_row(o, &t, (struct out_cell[]){ OUT_U(nid), OUT_U(ne.ino), OUT_U(ne.blkaddr),
			OUT_U(ne.version), OUT_S(src) });
	}
	out_tab_end(o, &t);
	return EXIT_OK;
}

/* ---- -s: SIT entries ---------------------------------------------------- */

static const char *sit_src_name(uint8_t src)
{
	return src == F2FS_SIT_SRC_JOURNAL ? "journal" : src ? "copy2" : "copy1";
}

static void seg_flags_str(uint8_t f, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", f & F2FS_SEG_CURRENT ? "current," : "",
		 f & F2FS_SEG_BAD_COUNT ? "count!=map," : "",
		 f & F2FS_SEG_BAD_TYPE ? "bad-type," : "",
		 f & F2FS_SEG_OVERFULL ? "overfull," : "");
	if (buf[0])
		buf[strlen(buf) - 1] = '\0';
	else
		snprintf(buf, len, "-");
}

/* A segment's valid map as 8 rows of 64 blocks, each row led by its
 * first block's offset. */
static void map_rows(struct out *o, const uint8_t *m)
{
	char row[F2FS_BLOCKS_PER_SEG / 8 + 1];

	for (uint32_t r = 0; r < 8; r++) {
		for (uint32_t b = 0; b < 64; b++) {
			uint32_t k = r * 64 + b;

			row[b] = (m[k / 8] & (0x80u >> (k % 8))) ? '#' : '.';
		}
		row[64] = '\0';
		out_text(o, "          %3u %s\n", r * 64, row);
	}
}

int view_sit(struct dump *d, struct range r)
{
	struct out *o = &d->out;
	struct f2fs_fs *fs = d->fs;
	static const struct out_col cols[] = {
		{ "segno", "segno", 7, OUT_COL_U },
		{ "type", "type", -9, OUT_COL_S },
		{ "valid", "valid", 5, OUT_COL_U },
		{ "state", "state", -7, OUT_COL_S },
		{ "mtime", "mtime", 10, OUT_COL_U },
		{ "source", "source", -7, OUT_COL_S },
		{ "flags", "flags", -10, OUT_COL_S },
		{ "map", "valid map (hex, block 0 = MSB of byte 0)", -1, OUT_COL_S },
	};
	/* text gives the map as rows of dots below the entry, JSON as hex */
	bool text = !out_json(o);
	struct f2fs_sit *sit;
	struct out_table t;
	char map[2 * F2FS_SIT_VBLOCK_MAP_SIZE + 1], flags[64];
	int ret = load_sit(fs, F2FS_SIT_WANT_MAPS, &sit);

	if (ret)
		return ret;
	ret = clamp_range(&r, sit->nsegs, "segment");
	if (ret) {
		f2fs_sit_free(sit);
		return ret;
	}
	out_tab_begin(o, &t, "sit", text ?
		      "SIT entries (live copy, SIT journal applied; valid map: # valid, . not):" :
		      "SIT entries (live copy, SIT journal applied):", cols, text ? 7 : 8);
	for (uint64_t s = r.start; s <= r.end; s++) {
		const struct f2fs_seg *e = &sit->seg[s];
		const uint8_t *m = sit->maps + s * F2FS_SIT_VBLOCK_MAP_SIZE;

		for (int k = 0; k < F2FS_SIT_VBLOCK_MAP_SIZE; k++) {
			map[2 * k] = "0123456789abcdef"[m[k] >> 4];
			map[2 * k + 1] = "0123456789abcdef"[m[k] & 15];
		}
		map[2 * F2FS_SIT_VBLOCK_MAP_SIZE] = '\0';
		seg_flags_str(e->flags, flags, sizeof(flags));
		out_tab_row(o, &t, (struct out_cell[]){ OUT_U(s), OUT_S(type_key(e->type)),
			OUT_U(e->valid), OUT_S(state_names[f2fs_sit_seg_state(sit, (uint32_t)s)]),
			OUT_U(e->mtime), OUT_S(sit_src_name(e->src)), OUT_S(flags), OUT_S(map) });
		if (text)
			map_rows(o, m);
	}
	out_tab_end(o, &t);
	f2fs_sit_free(sit);
	return EXIT_OK;
}

/* ---- -a: SSA entries ---------------------------------------------------- */

int view_ssa(struct dump *d, struct range r)
{
	struct out *o = &d->out;
	struct f2fs_fs *fs = d->fs;
	static const struct out_col cols[] = {
		{ "segno", "segno", 7, OUT_COL_U },
		{ "offset", "off", 3, OUT_COL_U },
		{ "blkaddr", "blkaddr", 10, OUT_COL_U },
		{ "kind", "kind", -4, OUT_COL_S },
		{ "nid", "nid", 10, OUT_COL_U },
		{ "version", "ver", 3, OUT_COL_U },
		{ "ofs_in_node", "ofs_in_node", 11, OUT_COL_U },
		{ "valid", "valid", 5, OUT_COL_I },
		{ "source", "source", -12, OUT_COL_S },
	};
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	struct f2fs_summary_block *sum = malloc(sizeof(*sum));
	struct f2fs_sit *sit;
	struct f2fs_error err;
	struct out_table t;
	int ret;

	if (!sum)
		return error_line("out of memory");
	ret = load_sit(fs, F2FS_SIT_WANT_MAPS, &sit);
	if (ret) {
		free(sum);
		return ret;
	}
	ret = clamp_range(&r, sit->nsegs, "segment");
	if (ret)
		goto out;
	out_tab_begin(o, &t, "ssa", "SSA entries (empty entries of free blocks omitted):", cols, 9);
	for (uint64_t s = r.start; s <= r.end; s++) {
		enum f2fs_sum_src src;
		int is_node;

		if (f2fs_ssa_get(fs, (uint32_t)s, sum, &src, &err)) {
			out_tab_end(o, &t);
			out_end(o);
			ret = error_line("%s", err.msg);
			goto out;
		}
		if (sit->seg[s].flags & F2FS_SEG_CURRENT)
			is_node = sit->seg[s].cur_type >= F2FS_SEG_HOT_NODE;
		else
			is_node = sum->footer.entry_type == F2FS_SUM_TYPE_NODE;
		for (uint32_t k = 0; k < F2FS_ENTRIES_IN_SUM; k++) {
			const struct f2fs_summary *e = &sum->entries[k];
			int valid = f2fs_sit_block_valid(sit, (uint32_t)s, k);

			if (!valid && le32_get(e->nid) == 0 && e->version == 0 &&
			    le16_get(e->ofs_in_node) == 0)
				continue;
			out_tab_row(o, &t, (struct out_cell[]){
				OUT_U(s), OUT_U(k),
				OUT_U(le32_get(sb->main_blkaddr) + s * F2FS_BLOCKS_PER_SEG + k),
				OUT_S(is_node ? "node" : "data"), OUT_U(le32_get(e->nid)),
				OUT_U(e->version), OUT_U(le16_get(e->ofs_in_node)), OUT_I(valid),
				OUT_S(f2fs_sum_src_name(src)) });
		}
	}
	out_tab_end(o, &t);
out:
	f2fs_sit_free(sit);
	free(sum);
	return ret;
}

/* ---- -b: block owner ---------------------------------------------------- */

static const char *const node_kind_names[] = {
	"inode", "direct node", "indirect node", "double indirect node", "xattr node",
};

/* On a volume over several devices: which one holds the block, and where. */
static void owner_device(struct out *o, const struct f2fs_dev *dev, uint64_t blkaddr)
{
	struct f2fs_dev_member m;
	uint64_t offset;
	unsigned i;

	if (f2fs_dev_nmembers(dev) <= 1)
		return;
	i = f2fs_dev_map(dev, blkaddr, &offset);
	f2fs_dev_member(dev, i, &m);
	out_u(o, "device", "device (1 = first):", i + 1);
	out_s(o, "device_path", "device path:", m.path);
	out_u(o, "device_blkaddr", "block on the device:", offset);
}

int view_owner(struct dump *d, uint64_t blkaddr)
{
	struct out *o = &d->out;
	struct f2fs_fs *fs = d->fs;
	struct f2fs_sit *sit = NULL;
	struct f2fs_owner own;
	struct f2fs_error err;
	int ret;

	if (f2fs_area_of(fs, blkaddr) == F2FS_AREA_MAIN) {
		ret = load_sit(fs, F2FS_SIT_WANT_MAPS, &sit);
		if (ret)
			return ret;
	}
	ret = f2fs_block_owner(fs, sit, blkaddr, &own, &err);
	f2fs_sit_free(sit);
	if (ret)
		return error_line("%s", err.msg);
	out_obj_begin(o, "block", NULL);
	out_text(o, "Block %" PRIu64 "\n", blkaddr);
	out_u(o, "blkaddr", "block address:", blkaddr);
	owner_device(o, f2fs_fs_dev(fs), blkaddr);
	out_s(o, "area", "area:", f2fs_area_name(own.area));
	if (own.area != F2FS_AREA_MAIN) {
		out_s(o, "status", "owner:", "none (file system metadata)");
		out_obj_end(o);
		return EXIT_OK;
	}
	out_u(o, "segno", "segment:", own.segno);
	out_u(o, "offset", "offset in segment:", own.offset);
	out_u(o, "secno", "section:", own.secno);
	out_s(o, "seg_type", "segment type (SIT):", type_key(own.seg_type));
	out_i(o, "valid", "valid in SIT:", own.valid);
	out_s(o, "kind", "summary kind:", own.is_node ? "node" : "data");
	out_s(o, "summary_source", "summary from:", f2fs_sum_src_name(own.sum_src));
	out_u(o, "nid", own.is_node ? "nid:" : "owner nid:", own.nid);
	out_u(o, "version", "summary version:", own.version);
	if (!own.is_node)
		out_u(o, "ofs_in_node", "ofs_in_node:", own.ofs_in_node);
	if (own.ino) {
		struct f2fs_node *n = malloc(sizeof(*n));

		out_u(o, "ino", "inode:", own.ino);
		if (n && !f2fs_read_inode(fs, own.ino, n, &err)) {
			uint32_t len = le32_get(n->i.i_namelen);

			out_bytes(o, "name", "inode name:", n->i.i_name,
				  len < F2FS_NAME_LEN ? len : F2FS_NAME_LEN);
		}
		free(n);
		out_u(o, "node_offset", "node offset in tree:", own.node_ofs);
		out_s(o, "node_kind", "node kind:", own.node_kind >= 0 && own.node_kind <= 4 ?
			node_kind_names[own.node_kind] : "unknown");
	}
	if (!own.is_node && own.fofs != UINT64_MAX) {
		out_u(o, "file_block", "file block:", own.fofs);
		out_u(o, "file_offset", "file byte offset:", own.fofs * F2FS_BLKSIZE);
	}
	out_s(o, "status", "status:", f2fs_owner_status_name(own.status));
	if (own.note[0])
		out_s(o, "note", "note:", own.note);
	out_obj_end(o);
	return EXIT_OK;
}

/* ---- -M: nat_bits and the block map ------------------------------------ */

static int nat_bits_check(struct out *o, struct f2fs_fs *fs)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	struct f2fs_nat_bits_tally t;
	uint8_t *area = NULL;
	struct f2fs_error err;
	uint32_t n;
	uint64_t at;

	out_obj_begin(o, "nat_bits", "nat_bits:");
	if (!(le32_get(cp->ckpt_flags) & F2FS_CP_NAT_BITS)) {
		out_s(o, "present", "present:", "no");
		out_obj_end(o);
		return EXIT_OK;
	}
	out_s(o, "present", "present:", "yes");
	if (f2fs_fs_nat_bits_where(fs, &n, &at))
		area = malloc((size_t)n * F2FS_BLKSIZE);
	if (!area) {
		out_s(o, "state", "state:", "unusable size");
		goto done;
	}
	if (f2fs_fs_nat_bits_read(fs, area, &err))
		goto failed;
	out_u(o, "blocks", "blocks:", n);
	out_u(o, "first_block", "at block:", at);
	out_x(o, "header", "header:", le64_load(area));
	out_s(o, "header_state", "header matches checkpoint:",
	      le64_load(area) == f2fs_fs_nat_bits_want(fs) ? "yes" : "no (stale)");
	/* compare every bit with the NAT content */
	if (f2fs_fs_nat_bits_tally(fs, area, &t, &err))
		goto failed;
	out_u(o, "nat_blocks", "NAT blocks:", f2fs_fs_nat_blocks(fs));
	out_u(o, "full_bits", "full (nat_bits):", t.full_bits);
	out_u(o, "full_nat", "full in the NAT blocks:", t.full_nat);
	out_u(o, "empty_bits", "empty (nat_bits):", t.empty_bits);
	out_u(o, "empty_nat", "empty in the NAT blocks:", t.empty_nat);
	out_u(o, "disagree", "blocks whose bits disagree:", t.disagree);
	out_text(o, "  (NAT journal entries are not in the NAT blocks; the kernel writes nat_bits\n"
		 "   after flushing the journal, so disagreement can be journal-only changes)\n");
done:
	out_obj_end(o);
	free(area);
	return EXIT_OK;
failed:
	out_obj_end(o);
	free(area);
	return error_line("%s", err.msg);
}

int view_map(struct dump *d)
{
	struct out *o = &d->out;
	struct f2fs_fs *fs = d->fs;
	static const struct out_col cols[] = {
		{ "first_segno", "segno", 7, OUT_COL_U },
		{ "map", "map (. free, 0-9 tenths valid, # full, C current)", -1, OUT_COL_S },
	};
	struct f2fs_sit *sit;
	struct out_table t;
	char line[65];
	int ret = nat_bits_check(o, fs);

	if (ret)
		return ret;
	ret = load_sit(fs, 0, &sit);
	if (ret)
		return ret;
	out_text(o, "\n");
	out_tab_begin(o, &t, "block_map", "Block map, one character per segment:", cols, 2);
	for (uint32_t s = 0; s < sit->nsegs; s += 64) {
		uint32_t k;

		for (k = 0; k < 64 && s + k < sit->nsegs; k++) {
			const struct f2fs_seg *e = &sit->seg[s + k];

			switch (f2fs_sit_seg_state(sit, s + k)) {
			case F2FS_STATE_FREE:    line[k] = '.'; break;
			case F2FS_STATE_FULL:    line[k] = '#'; break;
			case F2FS_STATE_CURRENT: line[k] = 'C'; break;
			default:
				line[k] = (char)('0' + e->valid * 10 / F2FS_BLOCKS_PER_SEG);
				break;
			}
		}
		line[k] = '\0';
		out_tab_row(o, &t, (struct out_cell[]){ OUT_U(s), OUT_S(line) });
	}
	out_tab_end(o, &t);
	f2fs_sit_free(sit);
	return EXIT_OK;
}

/* ---- --segments --------------------------------------------------------- */

#define BAR_WIDTH 50

/* A bar of n's share of total, BAR_WIDTH for all of it (one mark for any). */
static const char *bar(char out[BAR_WIDTH + 1], uint64_t n, uint64_t total)
{
	uint64_t w = total ? (n * BAR_WIDTH + total - 1) / total : 0;

	memset(out, '#', (size_t)w);
	out[w] = '\0';
	return out;
}

int view_segments(struct dump *d, uint32_t bucket)
{
	struct out *o = &d->out;
	struct f2fs_fs *fs = d->fs;
	static const struct out_col tcols[] = {
		{ "type", "type", -9, OUT_COL_S },
		{ "free_segs", "free", 8, OUT_COL_U },
		{ "partial_segs", "partial", 8, OUT_COL_U },
		{ "full_segs", "full", 8, OUT_COL_U },
		{ "current_segs", "current", 7, OUT_COL_U },
		{ "free_secs", "free sec", 8, OUT_COL_U },
		{ "partial_secs", "part sec", 8, OUT_COL_U },
		{ "full_secs", "full sec", 8, OUT_COL_U },
		{ "current_secs", "cur sec", 7, OUT_COL_U },
		{ "valid_blocks", "valid blocks", 12, OUT_COL_U },
	};
	static const struct out_col hcols[] = {
		{ "from", "from", 5, OUT_COL_U },
		{ "to", "to", 5, OUT_COL_U },
		{ "segments", "segments", 9, OUT_COL_U },
		{ "percent", "%", 6, OUT_COL_F2 },
		{ "bar", "share", -1, OUT_COL_S },
	};
	char bars[BAR_WIDTH + 1];
	static const struct out_col ccols[] = {
		{ "log", "log", -9, OUT_COL_S },
		{ "segno", "segno", 10, OUT_COL_U },
		{ "next_blkoff", "next blk", 8, OUT_COL_U },
		{ "valid", "valid", 5, OUT_COL_U },
		{ "sit_type", "SIT type", -9, OUT_COL_S },
	};
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	uint32_t hist[F2FS_BLOCKS_PER_SEG];
	struct f2fs_sit_stats st;
	struct f2fs_sit *sit;
	struct out_table t;
	uint32_t ovp, rsvd;
	int ret = load_sit(fs, 0, &sit);

	if (ret)
		return ret;
	f2fs_sit_stats(sit, bucket, hist, &st);
	ovp = le32_get(cp->overprov_segment_count);
	rsvd = le32_get(cp->rsvd_segment_count);
	out_obj_begin(o, "segments", "Segments:");
	out_u(o, "main_segments", "main segments:", sit->nsegs);
	out_u(o, "segs_per_sec", "segments per section:", sit->segs_per_sec);
	out_u(o, "sections", "sections:", sit->nsecs);
	out_u(o, "free_segments", "free segments (SIT):", st.free_segs);
	out_u(o, "free_segments_cp", "free segments (checkpoint):",
	      le32_get(cp->free_segment_count));
	out_u(o, "free_sections", "free sections:", st.free_secs);
	out_u(o, "valid_blocks", "valid blocks (SIT):", st.total_valid);
	out_u(o, "valid_blocks_cp", "valid blocks (checkpoint):", le64_get(cp->valid_block_count));
	out_u(o, "user_blocks", "user blocks (checkpoint):", le64_get(cp->user_block_count));
	out_u(o, "overprov_segments", "overprovision segments:", ovp);
	out_u(o, "reserved_segments", "reserved segments:", rsvd);
	out_u(o, "free_beyond_overprov", "free segments beyond ovp:",
	      st.free_segs > ovp ? st.free_segs - ovp : 0);
	out_u(o, "overprov_in_use", "overprovision segs in use:",
	      st.free_segs < ovp ? ovp - st.free_segs : 0);
	out_u(o, "reserved_in_use", "reserved segs in use:",
	      st.free_segs < rsvd ? rsvd - st.free_segs : 0);
	out_u(o, "min_mtime", "SIT mtime min:", st.min_mtime);
	out_u(o, "max_mtime", "SIT mtime max:", st.max_mtime);
	out_u(o, "elapsed_time", "checkpoint elapsed time:", le64_get(cp->elapsed_time));
	out_u(o, "journal_entries", "SIT journal entries applied:", sit->n_journal);
	out_u(o, "bad_counts", "entries count != map:", sit->n_bad_count);
	out_u(o, "bad_types", "entries with a bad type:", sit->n_bad_type);
	out_obj_end(o);
	out_text(o, "\n");
	out_tab_begin(o, &t, "by_type", "By log type (a free segment counts under the type it last had;\n"
		      "a section under the type of its first segment):", tcols, 10);
	for (unsigned row = 0; row < F2FS_SIT_NTYPES; row++) {
		const uint32_t *sg = st.segs[row], *sc = st.secs[row];

		if (row == F2FS_NR_CURSEG_TYPE && !sg[0] && !sg[1] && !sg[2] && !sg[3])
			continue;
		out_tab_row(o, &t, (struct out_cell[]){
			OUT_S(row < F2FS_NR_CURSEG_TYPE ? log_keys[row] : "invalid"),
			OUT_U(sg[F2FS_STATE_FREE]), OUT_U(sg[F2FS_STATE_PARTIAL]),
			OUT_U(sg[F2FS_STATE_FULL]), OUT_U(sg[F2FS_STATE_CURRENT]),
			OUT_U(sc[F2FS_STATE_FREE]), OUT_U(sc[F2FS_STATE_PARTIAL]),
			OUT_U(sc[F2FS_STATE_FULL]), OUT_U(sc[F2FS_STATE_CURRENT]),
			OUT_U(st.valid_blocks[row]) });
	}
	{
		uint32_t tot[2][F2FS_STATE_MAX] = { { 0 } };

		for (unsigned row = 0; row < F2FS_SIT_NTYPES; row++)
			for (int k = 0; k < F2FS_STATE_MAX; k++) {
				tot[0][k] += st.segs[row][k];
				tot[1][k] += st.secs[row][k];
			}
		out_tab_row(o, &t, (struct out_cell[]){ OUT_S("total"),
			OUT_U(tot[0][0]), OUT_U(tot[0][1]), OUT_U(tot[0][2]), OUT_U(tot[0][3]),
			OUT_U(tot[1][0]), OUT_U(tot[1][1]), OUT_U(tot[1][2]), OUT_U(tot[1][3]),
			OUT_U(st.total_valid) });
	}
	out_tab_end(o, &t);
	out_text(o, "\n");
	/* text draws each bucket's share as a bar (JSON has the numbers) */
	out_tab_begin(o, &t, "histogram", "Valid blocks per segment:", hcols, out_json(o) ? 4 : 5);
	out_tab_row(o, &t, (struct out_cell[]){ OUT_U(0), OUT_U(0), OUT_U(st.hist_zero),
		OUT_F(sit->nsegs ? 100.0 * st.hist_zero / sit->nsegs : 0),
		OUT_S(bar(bars, st.hist_zero, sit->nsegs)) });
	for (uint32_t b = 0; b < st.nbuckets; b++) {
		uint32_t to = (b + 1) * st.bucket;

		out_tab_row(o, &t, (struct out_cell[]){ OUT_U(b * st.bucket + 1),
			OUT_U(to > F2FS_BLOCKS_PER_SEG ? F2FS_BLOCKS_PER_SEG : to), OUT_U(hist[b]),
			OUT_F(sit->nsegs ? 100.0 * hist[b] / sit->nsegs : 0),
			OUT_S(bar(bars, hist[b], sit->nsegs)) });
	}
	out_tab_end(o, &t);
	out_text(o, "\n");
	out_tab_begin(o, &t, "current", "Current segments:", ccols, 5);
	for (int k = 0; k < F2FS_NR_CURSEG_TYPE; k++) {
		uint32_t s = sit->cur_segno[k];
		int ok = s < sit->nsegs;

		out_tab_row(o, &t, (struct out_cell[]){ OUT_S(log_keys[k]), OUT_U(s),
			OUT_U(sit->cur_blkoff[k]), OUT_U(ok ? sit->seg[s].valid : 0),
			OUT_S(ok ? type_key(sit->seg[s].type) : "-") });
	}
	out_tab_end(o, &t);
	f2fs_sit_free(sit);
	return EXIT_OK;
}

/* ---- --gc, --gc-free, --gc-sim ------------------------------------------ */

int load_gc(struct f2fs_fs *fs, struct f2fs_gc **gc)
{
	struct f2fs_sit *sit;
	struct f2fs_error err;
	int ret = load_sit(fs, 0, &sit);

	if (ret)
		return ret;
	ret = f2fs_gc_init(gc, sit, le64_get(f2fs_fs_cp(fs)->elapsed_time), &err);
	f2fs_sit_free(sit);
	if (ret)
		return error_line("%s", err.msg);
	return 0;
}

void gc_opts(const struct gc_cli *g, struct f2fs_gc_opts *opts)
{
	enum f2fs_gc_policy p = g->policy_set ? g->policy : g->fg ? F2FS_GC_GREEDY : F2FS_GC_CB;

	f2fs_gc_opts_default(opts, p, g->fg);
	if (g->max_search_set)
		opts->max_search = g->max_search;
}

size_t gc_rank(struct f2fs_gc_cand *cand, size_t n, const struct f2fs_gc_opts *opts)
{
	if (opts->policy == F2FS_GC_AT) {   /* unevaluated ones have no cost */
		size_t m = 0;

		for (size_t k = 0; k < n; k++)
			if (cand[k].cost != UINT32_MAX || cand[k].age)
				cand[m++] = cand[k];
		n = m;
	}
	f2fs_gc_sort(cand, n, opts->policy);
	return n;
}

int view_gc(struct dump *d, const struct gc_cli *g)
{
	struct out *o = &d->out;
	struct f2fs_fs *fs = d->fs;
	static const struct out_col cols[] = {
		{ "rank", "rank", 4, OUT_COL_U },
		{ "secno", "section", 8, OUT_COL_U },
		{ "segno", "segment", 8, OUT_COL_U },
		{ "kind", "kind", -4, OUT_COL_S },
		{ "valid", "valid", 6, OUT_COL_U },
		{ "mtime", "mtime", 10, OUT_COL_U },
		{ "age", "age", 20, OUT_COL_U },
		{ "u", "u", 20, OUT_COL_U },
		{ "cost", "cost", 10, OUT_COL_U },
	};
	struct f2fs_gc_opts opts;
	struct f2fs_gc *gc;
	struct f2fs_gc_cand *cand;
	struct f2fs_gc_scan_info info;
	struct out_table t;
	size_t n;
	long v;
	int ret = load_gc(fs, &gc);

	if (ret)
		return ret;
	gc_opts(g, &opts);
	cand = malloc((gc->nsecs ? gc->nsecs : 1) * sizeof(*cand));
	if (!cand) {
		f2fs_gc_free(gc);
		return error_line("out of memory");
	}
	out_obj_begin(o, "gc", "GC victim selection:");
	out_s(o, "policy", "policy:", f2fs_gc_policy_name(opts.policy));
	out_s(o, "mode", "mode:", opts.fg ? "foreground" : "background");
	out_u(o, "max_victim_search", "max_victim_search:", opts.max_search);
	out_u(o, "dirty_sections", "dirty sections:", gc->nr_dirty);
	out_u(o, "free_sections", "free sections:", gc->nr_free);
	f2fs_gc_select(gc, &opts, 0, cand, &n, &v, NULL, &info);
	out_u(o, "window_start", "window start (segno):", info.start_segno);
	out_u(o, "window", "window (dirty sections):", info.max_search);
	out_u(o, "searched", "dirty sections visited:", info.searched);
	if (opts.policy == F2FS_GC_AT) {
		out_u(o, "young", "too young (ATGC):", info.young);
		out_u(o, "retried", "retried with threshold 0:", (uint64_t)info.retried);
		out_u(o, "evaluated", "candidates evaluated:", n);
	} else {
		out_u(o, "min_mtime", "mtime min (running):", gc->min_mtime);
		out_u(o, "max_mtime", "mtime max (running):", gc->max_mtime);
	}
	if (v >= 0) {
		out_u(o, "victim_secno", "victim section:", cand[v].secno);
		out_u(o, "victim_valid", "victim valid blocks:", cand[v].valid);
	} else {
		out_s(o, "victim_secno", "victim section:", "none");
	}
	out_obj_end(o);
	out_text(o, "\n");
	n = gc_rank(cand, n, &opts);
	out_tab_begin(o, &t, "victims", "Candidates by cost (rank 1 is the kernel's pick):",
		      cols, 9);
	for (size_t k = 0; k < n && k < g->top; k++) {
		const struct f2fs_gc_cand *c = &cand[k];

		out_tab_row(o, &t, (struct out_cell[]){ OUT_U(k + 1), OUT_U(c->secno),
			OUT_U((uint64_t)c->secno * gc->segs_per_sec),
			OUT_S(gc->sec[c->secno].is_node ? "node" : "data"), OUT_U(c->valid),
			OUT_U(c->mtime), OUT_U(c->age), OUT_U(c->u), OUT_U(c->cost) });
	}
	out_tab_end(o, &t);
	free(cand);
	f2fs_gc_free(gc);
	return EXIT_OK;
}

int view_gc_free(struct dump *d, const struct gc_cli *g)
{
	struct out *o = &d->out;
	struct f2fs_fs *fs = d->fs;
	struct f2fs_gc *gc;
	uint64_t empty, net;
	uint32_t victims;
	int ret = load_gc(fs, &gc), ok;

	if (ret)
		return ret;
	ok = f2fs_gc_cost_to_free(gc, g->free_k, &empty, &net, &victims) == 0;
	out_obj_begin(o, "gc_free", "Cost of freeing sections (cheapest victims first):");
	out_u(o, "sections", "sections wanted:", g->free_k);
	out_u(o, "free_sections", "free sections now:", gc->nr_free);
	out_u(o, "blocks_per_section", "blocks per section:", gc->sec_blocks);
	out_s(o, "possible", "possible:", ok ? "yes" : "no (too few used sections)");
	if (ok) {
		out_u(o, "blocks_to_empty", "blocks moved to empty K:", empty);
		out_u(o, "blocks_net", "blocks moved for K net:", net);
		out_u(o, "victims_net", "victims for K net:", victims);
	}
	out_obj_end(o);
	f2fs_gc_free(gc);
	return EXIT_OK;
}

int view_gc_sim(struct dump *d, const struct gc_cli *g)
{
	struct out *o = &d->out;
	struct f2fs_fs *fs = d->fs;
	static const struct out_col cols[] = {
		{ "policy", "policy", -6, OUT_COL_S },
		{ "window", "window", 10, OUT_COL_U },
		{ "victims", "victims", 8, OUT_COL_U },
		{ "moved", "moved", 10, OUT_COL_U },
		{ "reclaimed", "reclaimed", 10, OUT_COL_U },
		{ "wa", "WA", 6, OUT_COL_F2 },
		{ "free_before", "free", 8, OUT_COL_U },
		{ "free_after", "free after", 10, OUT_COL_U },
		{ "stop", "stopped", -1, OUT_COL_S },
	};
	uint32_t windows[3] = { 20, F2FS_GC_DEF_MAX_VICTIM_SEARCH, 0 };
	struct f2fs_gc *gc;
	struct f2fs_error err;
	struct out_table t;
	uint32_t target;
	int ret = load_gc(fs, &gc);

	if (ret)
		return ret;
	if (g->max_search_set)
		windows[1] = g->max_search;
	target = g->sim_target;
	if (!target)
		target = gc->nr_free + 64 < gc->nsecs ? gc->nr_free + 64 : gc->nsecs;
	out_obj_begin(o, "gc_sim", "GC simulation (victims' valid blocks move to the GC logs):");
	out_u(o, "target_free_sections", "target free sections:", target);
	out_u(o, "free_sections", "free sections now:", gc->nr_free);
	out_u(o, "dirty_sections", "dirty sections:", gc->nr_dirty);
	out_obj_end(o);
	out_text(o, "\n");
	out_tab_begin(o, &t, "runs",
		      "Window 0 = every dirty section (foreground); WA = (moved + reclaimed) / reclaimed:",
		      cols, 9);
	for (int p = 0; p < F2FS_GC_NPOLICY; p++) {
		for (int w = 0; w < 3; w++) {
			struct f2fs_gc_opts opts;
			struct f2fs_gc_sim r;

			if (p == F2FS_GC_AT && w != 2)
				continue;   /* ATGC ignores the window */
			f2fs_gc_opts_default(&opts, (enum f2fs_gc_policy)p, windows[w] == 0);
			opts.max_search = windows[w];
			if (f2fs_gc_simulate(gc, &opts, target, &r, &err)) {
				out_tab_end(o, &t);
				out_end(o);
				f2fs_gc_free(gc);
				return error_line("%s", err.msg);
			}
			out_tab_row(o, &t, (struct out_cell[]){
				OUT_S(f2fs_gc_policy_name((enum f2fs_gc_policy)p)), OUT_U(windows[w]),
				OUT_U(r.victims), OUT_U(r.moved), OUT_U(r.reclaimed),
				OUT_F(r.reclaimed ? (double)(r.moved + r.reclaimed) / r.reclaimed : 0),
				OUT_U(r.free_before), OUT_U(r.free_after), OUT_S(r.stop) });
		}
	}
	out_tab_end(o, &t);
	f2fs_gc_free(gc);
	return EXIT_OK;
}
