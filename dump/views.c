/* dump.f2fs views of NAT, SIT, SSA, block owners, segment counts and GC. */
#include "dump.h"

#include <f2fs/format/endian.h>
#include <f2fs/fs/gc.h>
#include <f2fs/format/inode.h>
#include <f2fs/fs/nat.h>
#include <f2fs/format/nat_bits.h>
#include <f2fs/fs/sit.h>
#include <f2fs/fs/ssa.h>
#include <f2fs/format/ver_bitmap.h>

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

static int load_sit(struct f2fs_fs *fs, unsigned flags, struct f2fs_sit **sit)
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

int view_nat(struct f2fs_fs *fs, struct range r)
{
	static const struct col cols[] = {
		{ "nid", "nid", 10, COL_U },
		{ "ino", "ino", 10, COL_U },
		{ "blkaddr", "blkaddr", 10, COL_U },
		{ "version", "ver", 3, COL_U },
		{ "source", "source", -7, COL_S },
	};
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	uint64_t nat = le32_get(sb->nat_blkaddr);
	struct f2fs_error err;
	struct table t;
	int ret;

	ret = clamp_range(&r, f2fs_fs_max_nid(fs), "nid");
	if (ret)
		return ret;
	tab_begin(&t, "nat", "NAT entries in use (journal entries override the NAT blocks):",
		  cols, 5);
	for (uint64_t nid = r.start; nid <= r.end; nid++) {
		struct f2fs_nat_info ne;
		int from_j;
		const char *src;

		if (f2fs_nat_lookup(fs, (uint32_t)nid, &ne, &from_j, &err)) {
			tab_end(&t);
			out_end();
			fflush(stdout);
			return error_line("%s", err.msg);
		}
		if (ne.blkaddr == 0 && ne.ino == 0)
			continue;
		if (from_j)
			src = "journal";
		else
			src = ((ne.nat_blkaddr - nat) / F2FS_BLOCKS_PER_SEG) % 2 ? "copy2" : "copy1";
		tab_row(&t, (struct cell[]){ CU(nid), CU(ne.ino), CU(ne.blkaddr), CU(ne.version),
					    CS(src) });
	}
	tab_end(&t);
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

int view_sit(struct f2fs_fs *fs, struct range r)
{
	static const struct col cols[] = {
		{ "segno", "segno", 7, COL_U },
		{ "type", "type", -9, COL_S },
		{ "valid", "valid", 5, COL_U },
		{ "state", "state", -7, COL_S },
		{ "mtime", "mtime", 10, COL_U },
		{ "source", "source", -7, COL_S },
		{ "flags", "flags", -10, COL_S },
		{ "map", "valid map (hex, block 0 = MSB of byte 0)", -1, COL_S },
	};
	struct f2fs_sit *sit;
	struct table t;
	char map[2 * F2FS_SIT_VBLOCK_MAP_SIZE + 1], flags[64];
	int ret = load_sit(fs, F2FS_SIT_WANT_MAPS, &sit);

	if (ret)
		return ret;
	ret = clamp_range(&r, sit->nsegs, "segment");
	if (ret) {
		f2fs_sit_free(sit);
		return ret;
	}
	tab_begin(&t, "sit", "SIT entries (live copy, SIT journal applied):", cols, 8);
	for (uint64_t s = r.start; s <= r.end; s++) {
		const struct f2fs_seg *e = &sit->seg[s];
		const uint8_t *m = sit->maps + s * F2FS_SIT_VBLOCK_MAP_SIZE;

		for (int k = 0; k < F2FS_SIT_VBLOCK_MAP_SIZE; k++) {
			map[2 * k] = "0123456789abcdef"[m[k] >> 4];
			map[2 * k + 1] = "0123456789abcdef"[m[k] & 15];
		}
		map[2 * F2FS_SIT_VBLOCK_MAP_SIZE] = '\0';
		seg_flags_str(e->flags, flags, sizeof(flags));
		tab_row(&t, (struct cell[]){ CU(s), CS(type_key(e->type)), CU(e->valid),
					    CS(state_names[f2fs_sit_seg_state(sit, (uint32_t)s)]),
					    CU(e->mtime), CS(sit_src_name(e->src)), CS(flags),
					    CS(map) });
	}
	tab_end(&t);
	f2fs_sit_free(sit);
	return EXIT_OK;
}

/* ---- -a: SSA entries ---------------------------------------------------- */

int view_ssa(struct f2fs_fs *fs, struct range r)
{
	static const struct col cols[] = {
		{ "segno", "segno", 7, COL_U },
		{ "offset", "off", 3, COL_U },
		{ "blkaddr", "blkaddr", 10, COL_U },
		{ "kind", "kind", -4, COL_S },
		{ "nid", "nid", 10, COL_U },
		{ "version", "ver", 3, COL_U },
		{ "ofs_in_node", "ofs_in_node", 11, COL_U },
		{ "valid", "valid", 5, COL_I },
		{ "source", "source", -12, COL_S },
	};
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	struct f2fs_summary_block *sum = malloc(sizeof(*sum));
	struct f2fs_sit *sit;
	struct f2fs_error err;
	struct table t;
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
	tab_begin(&t, "ssa", "SSA entries (empty entries of free blocks omitted):", cols, 9);
	for (uint64_t s = r.start; s <= r.end; s++) {
		enum f2fs_sum_src src;
		int is_node;

		if (f2fs_ssa_get(fs, (uint32_t)s, sum, &src, &err)) {
			tab_end(&t);
			out_end();
			fflush(stdout);
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
			tab_row(&t, (struct cell[]){
				CU(s), CU(k),
				CU(le32_get(sb->main_blkaddr) + s * F2FS_BLOCKS_PER_SEG + k),
				CS(is_node ? "node" : "data"), CU(le32_get(e->nid)), CU(e->version),
				CU(le16_get(e->ofs_in_node)), CI(valid), CS(f2fs_sum_src_name(src)) });
		}
	}
	tab_end(&t);
out:
	f2fs_sit_free(sit);
	free(sum);
	return ret;
}

/* ---- -b: block owner ---------------------------------------------------- */

static const char *const node_kind_names[] = {
	"inode", "direct node", "indirect node", "double indirect node", "xattr node",
};

int view_owner(struct f2fs_fs *fs, uint64_t blkaddr)
{
	struct f2fs_sit *sit = NULL;
	struct f2fs_owner o;
	struct f2fs_error err;
	int ret;

	if (f2fs_area_of(fs, blkaddr) == F2FS_AREA_MAIN) {
		ret = load_sit(fs, F2FS_SIT_WANT_MAPS, &sit);
		if (ret)
			return ret;
	}
	ret = f2fs_block_owner(fs, sit, blkaddr, &o, &err);
	f2fs_sit_free(sit);
	if (ret)
		return error_line("%s", err.msg);
	out_obj_begin("block", NULL);
	out_text("Block %" PRIu64 "\n", blkaddr);
	kv_u("blkaddr", "block address:", blkaddr);
	kv_s("area", "area:", f2fs_area_name(o.area));
	if (o.area != F2FS_AREA_MAIN) {
		kv_s("status", "owner:", "none (file system metadata)");
		out_obj_end();
		return EXIT_OK;
	}
	kv_u("segno", "segment:", o.segno);
	kv_u("offset", "offset in segment:", o.offset);
	kv_u("secno", "section:", o.secno);
	kv_s("seg_type", "segment type (SIT):", type_key(o.seg_type));
	kv_i("valid", "valid in SIT:", o.valid);
	kv_s("kind", "summary kind:", o.is_node ? "node" : "data");
	kv_s("summary_source", "summary from:", f2fs_sum_src_name(o.sum_src));
	kv_u("nid", o.is_node ? "nid:" : "owner nid:", o.nid);
	kv_u("version", "summary version:", o.version);
	if (!o.is_node)
		kv_u("ofs_in_node", "ofs_in_node:", o.ofs_in_node);
	if (o.ino) {
		struct f2fs_node *n = malloc(sizeof(*n));

		kv_u("ino", "inode:", o.ino);
		if (n && !f2fs_read_inode(fs, o.ino, n, &err)) {
			uint32_t len = le32_get(n->i.i_namelen);

			kv_bytes("name", "inode name:", n->i.i_name,
				 len < F2FS_NAME_LEN ? len : F2FS_NAME_LEN);
		}
		free(n);
		kv_u("node_offset", "node offset in tree:", o.node_ofs);
		kv_s("node_kind", "node kind:", o.node_kind >= 0 && o.node_kind <= 4 ?
			node_kind_names[o.node_kind] : "unknown");
	}
	if (!o.is_node && o.fofs != UINT64_MAX) {
		kv_u("file_block", "file block:", o.fofs);
		kv_u("file_offset", "file byte offset:", o.fofs * F2FS_BLKSIZE);
	}
	kv_s("status", "status:", f2fs_owner_status_name(o.status));
	if (o.note[0])
		kv_s("note", "note:", o.note);
	out_obj_end();
	return EXIT_OK;
}

/* ---- -M: nat_bits and the block map ------------------------------------ */

static int nat_bits_check(struct f2fs_fs *fs)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	uint32_t nblocks = f2fs_fs_nat_blocks(fs);
	uint32_t n = f2fs_nat_bits_blocks(nblocks), bytes = f2fs_nat_bits_bytes(nblocks);
	uint64_t want = f2fs_nat_bits_header(le64_get(cp->checkpoint_ver), f2fs_cp_stored_crc(cp));
	uint32_t vbytes;
	const uint8_t *vmap = f2fs_fs_nat_bitmap(fs, &vbytes);
	uint32_t full_bits = 0, empty_bits = 0, full_real = 0, empty_real = 0, wrong = 0;
	uint8_t *area = NULL, *blk = NULL;
	struct f2fs_error err;
	int ret = EXIT_OK;

	out_obj_begin("nat_bits", "nat_bits:");
	if (!(le32_get(cp->ckpt_flags) & F2FS_CP_NAT_BITS)) {
		kv_s("present", "present:", "no");
		out_obj_end();
		return EXIT_OK;
	}
	kv_s("present", "present:", "yes");
	area = malloc((size_t)n * F2FS_BLKSIZE);
	blk = malloc(F2FS_BLKSIZE);
	if (!area || !blk || n == 0 || n >= F2FS_BLOCKS_PER_SEG) {
		kv_s("state", "state:", "unusable size");
		goto done;
	}
	if (f2fs_dev_read(f2fs_fs_dev(fs), (uint64_t)f2fs_fs_cp_start(fs) + F2FS_BLOCKS_PER_SEG - n,
			  area, n, &err)) {
		out_obj_end();
		ret = error_line("%s", err.msg);
		goto out;
	}
	kv_u("blocks", "blocks:", n);
	kv_u("first_block", "at block:", f2fs_fs_cp_start(fs) + F2FS_BLOCKS_PER_SEG - n);
	kv_x("header", "header:", le64_load(area));
	kv_s("header_state", "header matches checkpoint:", le64_load(area) == want ? "yes" : "no (stale)");
	/* compare every bit with the NAT content */
	for (uint32_t b = 0; b < nblocks; b++) {
		uint64_t addr = f2fs_nat_copy_addr(le32_get(sb->nat_blkaddr), b,
						   b / 8 < vbytes && f2fs_ver_bit(vmap, b));
		int f = f2fs_nat_bit_test(area + 8, b), e = f2fs_nat_bit_test(area + 8 + bytes, b);
		uint32_t used;

		if (f2fs_dev_read(f2fs_fs_dev(fs), addr, blk, 1, &err)) {
			out_obj_end();
			ret = error_line("%s", err.msg);
			goto out;
		}
		used = f2fs_nat_block_used(blk, b);
		full_bits += (uint32_t)f;
		empty_bits += (uint32_t)e;
		full_real += used == F2FS_NAT_ENTRY_PER_BLOCK;
		empty_real += used == 0;
		wrong += (uint32_t)(f != (used == F2FS_NAT_ENTRY_PER_BLOCK)) |
			 (uint32_t)(e != (used == 0));
	}
	kv_u("nat_blocks", "NAT blocks:", nblocks);
	kv_u("full_bits", "full (nat_bits):", full_bits);
	kv_u("full_nat", "full in the NAT blocks:", full_real);
	kv_u("empty_bits", "empty (nat_bits):", empty_bits);
	kv_u("empty_nat", "empty in the NAT blocks:", empty_real);
	kv_u("disagree", "blocks whose bits disagree:", wrong);
	out_text("  (NAT journal entries are not in the NAT blocks; the kernel writes nat_bits\n"
		 "   after flushing the journal, so disagreement can be journal-only changes)\n");
done:
	out_obj_end();
out:
	free(area);
	free(blk);
	return ret;
}

int view_map(struct f2fs_fs *fs)
{
	static const struct col cols[] = {
		{ "first_segno", "segno", 7, COL_U },
		{ "map", "map (. free, 0-9 tenths valid, # full, C current)", -1, COL_S },
	};
	struct f2fs_sit *sit;
	struct table t;
	char line[65];
	int ret = nat_bits_check(fs);

	if (ret)
		return ret;
	ret = load_sit(fs, 0, &sit);
	if (ret)
		return ret;
	out_text("\n");
	tab_begin(&t, "block_map", "Block map, one character per segment:", cols, 2);
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
		tab_row(&t, (struct cell[]){ CU(s), CS(line) });
	}
	tab_end(&t);
	f2fs_sit_free(sit);
	return EXIT_OK;
}

/* ---- --segments --------------------------------------------------------- */

int view_segments(struct f2fs_fs *fs, uint32_t bucket)
{
	static const struct col tcols[] = {
		{ "type", "type", -9, COL_S },
		{ "free_segs", "free", 8, COL_U },
		{ "partial_segs", "partial", 8, COL_U },
		{ "full_segs", "full", 8, COL_U },
		{ "current_segs", "current", 7, COL_U },
		{ "free_secs", "free sec", 8, COL_U },
		{ "partial_secs", "part sec", 8, COL_U },
		{ "full_secs", "full sec", 8, COL_U },
		{ "current_secs", "cur sec", 7, COL_U },
		{ "valid_blocks", "valid blocks", 12, COL_U },
	};
	static const struct col hcols[] = {
		{ "from", "from", 5, COL_U },
		{ "to", "to", 5, COL_U },
		{ "segments", "segments", 9, COL_U },
		{ "percent", "%", 6, COL_F2 },
	};
	static const struct col ccols[] = {
		{ "log", "log", -9, COL_S },
		{ "segno", "segno", 10, COL_U },
		{ "next_blkoff", "next blk", 8, COL_U },
		{ "valid", "valid", 5, COL_U },
		{ "sit_type", "SIT type", -9, COL_S },
	};
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	uint32_t hist[F2FS_BLOCKS_PER_SEG];
	struct f2fs_sit_stats st;
	struct f2fs_sit *sit;
	struct table t;
	uint32_t ovp, rsvd;
	int ret = load_sit(fs, 0, &sit);

	if (ret)
		return ret;
	f2fs_sit_stats(sit, bucket, hist, &st);
	ovp = le32_get(cp->overprov_segment_count);
	rsvd = le32_get(cp->rsvd_segment_count);
	out_obj_begin("segments", "Segments:");
	kv_u("main_segments", "main segments:", sit->nsegs);
	kv_u("segs_per_sec", "segments per section:", sit->segs_per_sec);
	kv_u("sections", "sections:", sit->nsecs);
	kv_u("free_segments", "free segments (SIT):", st.free_segs);
	kv_u("free_segments_cp", "free segments (checkpoint):", le32_get(cp->free_segment_count));
	kv_u("free_sections", "free sections:", st.free_secs);
	kv_u("valid_blocks", "valid blocks (SIT):", st.total_valid);
	kv_u("valid_blocks_cp", "valid blocks (checkpoint):", le64_get(cp->valid_block_count));
	kv_u("user_blocks", "user blocks (checkpoint):", le64_get(cp->user_block_count));
	kv_u("overprov_segments", "overprovision segments:", ovp);
	kv_u("reserved_segments", "reserved segments:", rsvd);
	kv_u("free_beyond_overprov", "free segments beyond ovp:", st.free_segs > ovp ? st.free_segs - ovp : 0);
	kv_u("overprov_in_use", "overprovision segs in use:", st.free_segs < ovp ? ovp - st.free_segs : 0);
	kv_u("reserved_in_use", "reserved segs in use:", st.free_segs < rsvd ? rsvd - st.free_segs : 0);
	kv_u("min_mtime", "SIT mtime min:", st.min_mtime);
	kv_u("max_mtime", "SIT mtime max:", st.max_mtime);
	kv_u("elapsed_time", "checkpoint elapsed time:", le64_get(cp->elapsed_time));
	kv_u("journal_entries", "SIT journal entries applied:", sit->n_journal);
	kv_u("bad_counts", "entries count != map:", sit->n_bad_count);
	kv_u("bad_types", "entries with a bad type:", sit->n_bad_type);
	out_obj_end();
	out_text("\n");
	tab_begin(&t, "by_type", "By log type (a free segment counts under the type it last had;\n"
		  "a section under the type of its first segment):", tcols, 10);
	for (unsigned row = 0; row < F2FS_SIT_NTYPES; row++) {
		const uint32_t *sg = st.segs[row], *sc = st.secs[row];

		if (row == F2FS_NR_CURSEG_TYPE && !sg[0] && !sg[1] && !sg[2] && !sg[3])
			continue;
		tab_row(&t, (struct cell[]){ CS(row < F2FS_NR_CURSEG_TYPE ? log_keys[row] : "invalid"),
			CU(sg[F2FS_STATE_FREE]), CU(sg[F2FS_STATE_PARTIAL]), CU(sg[F2FS_STATE_FULL]),
			CU(sg[F2FS_STATE_CURRENT]), CU(sc[F2FS_STATE_FREE]), CU(sc[F2FS_STATE_PARTIAL]),
			CU(sc[F2FS_STATE_FULL]), CU(sc[F2FS_STATE_CURRENT]), CU(st.valid_blocks[row]) });
	}
	{
		uint32_t tot[2][F2FS_STATE_MAX] = { { 0 } };

		for (unsigned row = 0; row < F2FS_SIT_NTYPES; row++)
			for (int k = 0; k < F2FS_STATE_MAX; k++) {
				tot[0][k] += st.segs[row][k];
				tot[1][k] += st.secs[row][k];
			}
		tab_row(&t, (struct cell[]){ CS("total"), CU(tot[0][0]), CU(tot[0][1]), CU(tot[0][2]),
			CU(tot[0][3]), CU(tot[1][0]), CU(tot[1][1]), CU(tot[1][2]), CU(tot[1][3]),
			CU(st.total_valid) });
	}
	tab_end(&t);
	out_text("\n");
	tab_begin(&t, "histogram", "Valid blocks per segment:", hcols, 4);
	tab_row(&t, (struct cell[]){ CU(0), CU(0), CU(st.hist_zero),
		CF(sit->nsegs ? 100.0 * st.hist_zero / sit->nsegs : 0) });
	for (uint32_t b = 0; b < st.nbuckets; b++) {
		uint32_t to = (b + 1) * st.bucket;

		tab_row(&t, (struct cell[]){ CU(b * st.bucket + 1),
			CU(to > F2FS_BLOCKS_PER_SEG ? F2FS_BLOCKS_PER_SEG : to), CU(hist[b]),
			CF(sit->nsegs ? 100.0 * hist[b] / sit->nsegs : 0) });
	}
	tab_end(&t);
	out_text("\n");
	tab_begin(&t, "current", "Current segments:", ccols, 5);
	for (int k = 0; k < F2FS_NR_CURSEG_TYPE; k++) {
		uint32_t s = sit->cur_segno[k];
		int ok = s < sit->nsegs;

		tab_row(&t, (struct cell[]){ CS(log_keys[k]), CU(s), CU(sit->cur_blkoff[k]),
			CU(ok ? sit->seg[s].valid : 0), CS(ok ? type_key(sit->seg[s].type) : "-") });
	}
	tab_end(&t);
	f2fs_sit_free(sit);
	return EXIT_OK;
}

/* ---- --gc, --gc-free, --gc-sim ------------------------------------------ */

static int load_gc(struct f2fs_fs *fs, struct f2fs_gc **gc)
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

static void gc_opts(const struct gc_cli *g, struct f2fs_gc_opts *o)
{
	enum f2fs_gc_policy p = g->policy_set ? g->policy : g->fg ? F2FS_GC_GREEDY : F2FS_GC_CB;

	f2fs_gc_opts_default(o, p, g->fg);
	if (g->max_search_set)
		o->max_search = g->max_search;
}

int view_gc(struct f2fs_fs *fs, const struct gc_cli *g)
{
	static const struct col cols[] = {
		{ "rank", "rank", 4, COL_U },
		{ "secno", "section", 8, COL_U },
		{ "segno", "segment", 8, COL_U },
		{ "kind", "kind", -4, COL_S },
		{ "valid", "valid", 6, COL_U },
		{ "mtime", "mtime", 10, COL_U },
		{ "age", "age", 20, COL_U },
		{ "u", "u", 20, COL_U },
		{ "cost", "cost", 10, COL_U },
	};
	struct f2fs_gc_opts o;
	struct f2fs_gc *gc;
	struct f2fs_gc_cand *cand;
	struct f2fs_gc_scan_info info;
	struct table t;
	size_t n;
	long v;
	int ret = load_gc(fs, &gc);

	if (ret)
		return ret;
	gc_opts(g, &o);
	cand = malloc((gc->nsecs ? gc->nsecs : 1) * sizeof(*cand));
	if (!cand) {
		f2fs_gc_free(gc);
		return error_line("out of memory");
	}
	out_obj_begin("gc", "GC victim selection:");
	kv_s("policy", "policy:", f2fs_gc_policy_name(o.policy));
	kv_s("mode", "mode:", o.fg ? "foreground" : "background");
	kv_u("max_victim_search", "max_victim_search:", o.max_search);
	kv_u("dirty_sections", "dirty sections:", gc->nr_dirty);
	kv_u("free_sections", "free sections:", gc->nr_free);
	f2fs_gc_select(gc, &o, 0, cand, &n, &v, NULL, &info);
	kv_u("window_start", "window start (segno):", info.start_segno);
	kv_u("window", "window (dirty sections):", info.max_search);
	kv_u("searched", "dirty sections visited:", info.searched);
	kv_u("skipped_current", "skipped (current):", info.skipped_current);
	if (o.policy == F2FS_GC_AT) {
		kv_u("young", "too young (ATGC):", info.young);
		kv_u("retried", "retried with threshold 0:", (uint64_t)info.retried);
		kv_u("evaluated", "candidates evaluated:", n);
	} else {
		kv_u("min_mtime", "mtime min (running):", gc->min_mtime);
		kv_u("max_mtime", "mtime max (running):", gc->max_mtime);
	}
	if (v >= 0) {
		kv_u("victim_secno", "victim section:", cand[v].secno);
		kv_u("victim_valid", "victim valid blocks:", cand[v].valid);
	} else {
		kv_s("victim_secno", "victim section:", "none");
	}
	out_obj_end();
	out_text("\n");
	if (o.policy == F2FS_GC_AT) {   /* unevaluated ones have no cost */
		size_t m = 0;

		for (size_t k = 0; k < n; k++)
			if (cand[k].cost != UINT32_MAX || cand[k].age)
				cand[m++] = cand[k];
		n = m;
	}
	f2fs_gc_sort(cand, n, o.policy);
	tab_begin(&t, "victims", "Candidates by cost (rank 1 is the kernel's pick):", cols, 9);
	for (size_t k = 0; k < n && k < g->top; k++) {
		const struct f2fs_gc_cand *c = &cand[k];

		tab_row(&t, (struct cell[]){ CU(k + 1), CU(c->secno),
			CU((uint64_t)c->secno * gc->segs_per_sec),
			CS(gc->sec[c->secno].is_node ? "node" : "data"), CU(c->valid), CU(c->mtime),
			CU(c->age), CU(c->u), CU(c->cost) });
	}
	tab_end(&t);
	free(cand);
	f2fs_gc_free(gc);
	return EXIT_OK;
}

int view_gc_free(struct f2fs_fs *fs, const struct gc_cli *g)
{
	struct f2fs_gc *gc;
	uint64_t empty, net;
	uint32_t victims;
	int ret = load_gc(fs, &gc), ok;

	if (ret)
		return ret;
	ok = f2fs_gc_cost_to_free(gc, g->free_k, &empty, &net, &victims) == 0;
	out_obj_begin("gc_free", "Cost of freeing sections (cheapest victims first):");
	kv_u("sections", "sections wanted:", g->free_k);
	kv_u("free_sections", "free sections now:", gc->nr_free);
	kv_u("blocks_per_section", "blocks per section:", gc->sec_blocks);
	kv_s("possible", "possible:", ok ? "yes" : "no (too few used sections)");
	if (ok) {
		kv_u("blocks_to_empty", "blocks moved to empty K:", empty);
		kv_u("blocks_net", "blocks moved for K net:", net);
		kv_u("victims_net", "victims for K net:", victims);
	}
	out_obj_end();
	f2fs_gc_free(gc);
	return EXIT_OK;
}

int view_gc_sim(struct f2fs_fs *fs, const struct gc_cli *g)
{
	static const struct col cols[] = {
		{ "policy", "policy", -6, COL_S },
		{ "window", "window", 10, COL_U },
		{ "victims", "victims", 8, COL_U },
		{ "moved", "moved", 10, COL_U },
		{ "reclaimed", "reclaimed", 10, COL_U },
		{ "wa", "WA", 6, COL_F2 },
		{ "free_before", "free", 8, COL_U },
		{ "free_after", "free after", 10, COL_U },
		{ "stop", "stopped", -1, COL_S },
	};
	uint32_t windows[3] = { 20, F2FS_GC_DEF_MAX_VICTIM_SEARCH, 0 };
	struct f2fs_gc *gc;
	struct f2fs_error err;
	struct table t;
	uint32_t target;
	int ret = load_gc(fs, &gc);

	if (ret)
		return ret;
	if (g->max_search_set)
		windows[1] = g->max_search;
	target = g->sim_target;
	if (!target)
		target = gc->nr_free + 64 < gc->nsecs ? gc->nr_free + 64 : gc->nsecs;
	out_obj_begin("gc_sim", "GC simulation (victims' valid blocks move to the GC logs):");
	kv_u("target_free_sections", "target free sections:", target);
	kv_u("free_sections", "free sections now:", gc->nr_free);
	kv_u("dirty_sections", "dirty sections:", gc->nr_dirty);
	out_obj_end();
	out_text("\n");
	tab_begin(&t, "runs", "Window 0 = every dirty section (foreground); WA = (moved + reclaimed) / reclaimed:",
		  cols, 9);
	for (int p = 0; p < F2FS_GC_NPOLICY; p++) {
		for (int w = 0; w < 3; w++) {
			struct f2fs_gc_opts o;
			struct f2fs_gc_sim r;

			if (p == F2FS_GC_AT && w != 2)
				continue;   /* ATGC ignores the window */
			f2fs_gc_opts_default(&o, (enum f2fs_gc_policy)p, windows[w] == 0);
			o.max_search = windows[w];
			if (f2fs_gc_simulate(gc, &o, target, &r, &err)) {
				tab_end(&t);
				out_end();
				fflush(stdout);
				f2fs_gc_free(gc);
				return error_line("%s", err.msg);
			}
			tab_row(&t, (struct cell[]){ CS(f2fs_gc_policy_name((enum f2fs_gc_policy)p)),
				CU(windows[w]), CU(r.victims), CU(r.moved), CU(r.reclaimed),
				CF(r.reclaimed ? (double)(r.moved + r.reclaimed) / r.reclaimed : 0),
				CU(r.free_before), CU(r.free_after), CS(r.stop) });
		}
	}
	tab_end(&t);
	f2fs_gc_free(gc);
	return EXIT_OK;
}
