/* Checker: blocks found in use against the SIT, and against the SSA. */
#include "../checker.h"
#include <f2fs/format/endian.h>
#include <f2fs/format/summary.h>
#include <f2fs/util/sort.h>

#include "ck.h"
#include "passes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void compare_sit(struct ck *ck)
{
	for (uint32_t s = 0; s < ck->main_segs; s++) {
		const struct ck_seg *g = &ck->segs[s];
		const uint8_t *own = ck->owned + (size_t)s * F2FS_SIT_VBLOCK_MAP_SIZE;
		uint32_t used = 0, extra = 0, missing = 0, first_extra = 0, first_missing = 0;
		uint64_t base = ck->main_blkaddr + (uint64_t)s * F2FS_BLOCKS_PER_SEG;

		for (uint32_t i = 0; i < F2FS_SIT_VBLOCK_MAP_SIZE; i++) {
			uint8_t x = g->map[i] & (uint8_t)~own[i], y = own[i] & (uint8_t)~g->map[i];

			used += (uint32_t)__builtin_popcount(own[i]);
			if (x) {
				if (!extra)
					first_extra = i * 8 + (uint32_t)__builtin_clz((uint32_t)x << 24);
				extra += (uint32_t)__builtin_popcount(x);
			}
			if (y) {
				if (!missing)
					first_missing = i * 8 + (uint32_t)__builtin_clz((uint32_t)y << 24);
				missing += (uint32_t)__builtin_popcount(y);
			}
		}
		if (extra)
			ck_pb(ck, F2FS_PB_SIT_VALID_UNUSED,
			      AT(A_SEG(s), A_BLK(base + first_extra), A_FOUND(extra)),
			      "segment %u: %u block(s) valid in the SIT but unused, the first 0x%llx",
			      s, extra, (unsigned long long)(base + first_extra));
		if (missing)
			ck_pb(ck, F2FS_PB_SIT_USED_INVALID,
			      AT(A_SEG(s), A_BLK(base + first_missing), A_FOUND(missing)),
			      "segment %u: %u block(s) in use but not valid in the SIT, the first 0x%llx",
			      s, missing, (unsigned long long)(base + first_missing));
		if (used != g->vblocks)
			ck_pb(ck, F2FS_PB_SIT_VBLOCKS_MISMATCH,
			      AT(A_SEG(s), A_EXP(used), A_FOUND(g->vblocks)),
			      "segment %u: valid count %u, %u blocks found in use", s, g->vblocks, used);
	}
}

/* Block records by address, then owner: a total order, so that the entries
 * of a segment come out the same way every run. */
static int blk_less(const void *a, const void *b, void *ctx)
{
	const struct ck_blk *x = a, *y = b;

	(void)ctx;
	if (x->addr != y->addr)
		return x->addr < y->addr;
	if (x->nid != y->nid)
		return x->nid < y->nid;
	if (x->idx != y->idx)
		return x->idx < y->idx;
	return x->node < y->node;
}

/* Summaries of the current segments, from the checkpoint pack. */
struct cursums {
	struct f2fs_summary *e[F2FS_NR_CURSEG_TYPE];   /* 512 each, or NULL */
};

static int load_cursums(struct ck *ck, struct cursums *cs)
{
	const struct f2fs_checkpoint *cp = ck->cp;
	uint32_t start = le32_get(cp->cp_pack_start_sum);
	uint32_t total = le32_get(cp->cp_pack_total_block_count);
	uint64_t pack = f2fs_fs_cp_start(ck->fs);
	struct f2fs_dev *dev = f2fs_fs_dev(ck->fs);
	uint8_t *buf = ck->io;
	int ret;

	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++) {
		cs->e[t] = calloc(F2FS_ENTRIES_IN_SUM, sizeof(struct f2fs_summary));
		if (!cs->e[t])
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for summaries");
	}
	if (f2fs_fs_ckpt_flags(ck->fs) & F2FS_CP_COMPACT_SUM) {
		uint16_t count[F2FS_NR_CURSEG_DATA];
		struct f2fs_journal nj, sj;
		uint32_t nb;

		f2fs_data_sum_counts(cp, count);
		for (int t = 0; t < F2FS_NR_CURSEG_DATA; t++)
			if (count[t] > F2FS_ENTRIES_IN_SUM)
				count[t] = F2FS_ENTRIES_IN_SUM;
		nb = f2fs_compact_sum_blocks(count);
		if (nb > 2 || start + nb > total) {
			ck_pb(ck, F2FS_PB_CP_SUMMARY, AT(A_FOUND(nb)),
			      "compacted summaries need %u blocks, the pack has no room", nb);
			free(cs->e[0]), free(cs->e[1]), free(cs->e[2]);
			cs->e[0] = cs->e[1] = cs->e[2] = NULL;
		} else {
			struct f2fs_error e;

			ret = f2fs_dev_read(dev, pack + start, buf, nb, ck->err);
			if (ret)
				return ret;
			if (f2fs_compact_sum_decode(buf, nb, &nj, &sj, cs->e, count, &e)) {
				ck_pb(ck, F2FS_PB_CP_SUMMARY, NULL, "compacted summaries: %s", e.msg);
				free(cs->e[0]), free(cs->e[1]), free(cs->e[2]);
				cs->e[0] = cs->e[1] = cs->e[2] = NULL;
			}
		}
	} else if (start + 3 <= total) {
		ret = f2fs_dev_read(dev, pack + start, buf, 3, ck->err);
		if (ret)
			return ret;
		for (int t = 0; t < F2FS_NR_CURSEG_DATA; t++)
			memcpy(cs->e[t], buf + (size_t)t * F2FS_BLKSIZE, F2FS_SUM_ENTRY_SIZE);
	}
	if ((ck->ckpt_flags & (F2FS_CP_UMOUNT | F2FS_CP_FASTBOOT)) && total >= 5) {
		ret = f2fs_dev_read(dev, pack + total - 4, buf, 3, ck->err);
		if (ret)
			return ret;
		for (int t = 0; t < F2FS_NR_CURSEG_NODE; t++)
			memcpy(cs->e[F2FS_NR_CURSEG_DATA + t], buf + (size_t)t * F2FS_BLKSIZE,
			       F2FS_SUM_ENTRY_SIZE);
	} else {
		for (int t = F2FS_NR_CURSEG_DATA; t < F2FS_NR_CURSEG_TYPE; t++) {
			free(cs->e[t]);
			cs->e[t] = NULL;
		}
	}
	return 0;
}

static void check_entry(struct ck *ck, const struct ck_blk *b, const struct f2fs_summary *e,
			const char *where)
{
	uint32_t nid = le32_get(e->nid), ofs = le16_get(e->ofs_in_node);
	uint8_t version = b->node ? 0 : ck_nat_version(ck, b->nid);

	/* the kernel's GC takes a data block whose summary has another
	 * version than its node's NAT entry for dead */
	if (nid == b->nid && (b->node || ofs == b->idx) && !b->node && e->version != version)
		ck_pb(ck, F2FS_PB_SSA_MISMATCH,
		      AT(A_BLK(b->addr), A_SEG(ck_segno(ck, b->addr)), A_NID(b->nid),
			 A_EXP(version), A_FOUND(e->version)),
		      "data block 0x%x: %s summary has version %u, nid %u's NAT entry %u",
		      b->addr, where, e->version, b->nid, version);
	if (nid != b->nid || (!b->node && ofs != b->idx))
		ck_pb(ck, F2FS_PB_SSA_MISMATCH,
		      AT(A_BLK(b->addr), A_SEG(ck_segno(ck, b->addr)), A_NID(b->nid),
			 A_EXP(nid != b->nid ? b->nid : b->idx),
			 A_FOUND(nid != b->nid ? nid : ofs)),
		      "%s block 0x%x: %s summary says nid %u offset %u, owner is nid %u offset %u",
		      b->node ? "node" : "data", b->addr, where, nid, ofs, b->nid,
		      b->node ? 0 : b->idx);
}

/* Nodes the NAT claimed but the sweep rejected own no block: out of the
 * maps, so that owned holds exactly the blocks with a known owner and
 * nodemap those owned by a node. */
static void drop_unread_nodes(struct ck *ck)
{
	struct ck_nid_iter it = { 0 };
	struct ck_nid *n;
	uint32_t nid;

	while (ck_nid_next(ck, &it, &nid, &n)) {
		uint64_t off = n->blkaddr - ck->main_blkaddr;

		if (n->flags & NR_READ)
			continue;
		f2fs_msb_clear(ck->owned, off);
		f2fs_msb_clear(ck->nodemap, off);
	}
}

static int seg_in_use(const struct ck *ck, uint32_t s)
{
	const uint8_t *own = ck->owned + (size_t)s * F2FS_SIT_VBLOCK_MAP_SIZE;

	for (int i = 0; i < F2FS_SIT_VBLOCK_MAP_SIZE; i++)
		if (own[i])
			return 1;
	return 0;
}

/* Sum of hashes of the SSA's (nid, offset) over the blocks in use. */
static uint64_t ssa_sum(const struct ck *ck, uint32_t s, const struct f2fs_summary *e)
{
	const uint8_t *own = ck->owned + (size_t)s * F2FS_SIT_VBLOCK_MAP_SIZE;
	const uint8_t *nm = ck->nodemap + (size_t)s * F2FS_SIT_VBLOCK_MAP_SIZE;
	uint32_t base = ck->main_blkaddr + s * F2FS_BLOCKS_PER_SEG;
	uint64_t sum = 0;

	for (uint32_t off = 0; off < F2FS_BLOCKS_PER_SEG; off++) {
		if (!f2fs_msb_test(own, off))
			continue;
		sum += ck_fp(base + off, le32_get(e[off].nid),
			     f2fs_msb_test(nm, off) ? CK_FP_NODE :
			     ck_sum_ofs(le16_get(e[off].ofs_in_node), e[off].version));
	}
	return sum;
}

static int mark_redo(struct ck *ck, uint32_t s)
{
	if (!ck->ssa_redo) {
		ck->ssa_redo = calloc(((size_t)ck->main_segs + 63) / 64, sizeof(uint64_t));
		if (!ck->ssa_redo)
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for the SSA check");
	}
	ck_bit64_set(ck->ssa_redo, s);
	ck->nredo++;
	return 0;
}

/* One segment in use: its summary type, then its entries, either summed
 * against the blocks' sum or (second run) one by one from ck->blks. */
static int ssa_segment(struct ck *ck, uint32_t s, const struct f2fs_summary_block *sb,
		       const struct cursums *cs, size_t *bi)
{
	const struct ck_seg *g = &ck->segs[s];
	int cur = g->cur ? g->cur - 1 : -1;
	const struct f2fs_summary *e = cur >= 0 ? cs->e[cur] : sb->entries;

	if (cur < 0 && sb->footer.entry_type != (ck_seg_is_node(g->type) ?
						 F2FS_SUM_TYPE_NODE : F2FS_SUM_TYPE_DATA)) {
		if (!ck->ssa_badtype)
			ck->ssa_badtype = calloc(((size_t)ck->main_segs + 63) / 64, sizeof(uint64_t));
		if (!ck->ssa_badtype)
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for the SSA check");
		ck_bit64_set(ck->ssa_badtype, s);
		ck_pb(ck, F2FS_PB_SSA_TYPE,
		      AT(A_SEG(s), A_BLK(ck->ssa_blkaddr + s),
			 A_EXP(ck_seg_is_node(g->type)), A_FOUND(sb->footer.entry_type)),
		      "segment %u (type %u): summary block type %u", s, g->type,
		      sb->footer.entry_type);
	}
	if (ck->ssa_exact && ck_bit64(ck->ssa_exact, s)) {
		for (; *bi < ck->blks.n && ck_segno(ck, ck->blks.v[*bi].addr) == s; ++*bi) {
			const struct ck_blk *b = &ck->blks.v[*bi];

			if (e)
				check_entry(ck, b, &e[(b->addr - ck->main_blkaddr) % F2FS_BLOCKS_PER_SEG],
					    cur >= 0 ? "current" : "SSA");
		}
		return 0;
	}
	if (!e || ck->ssa_exact || ssa_sum(ck, s, e) == ck->segfp[s])
		return 0;
	return mark_redo(ck, s);
}

int ck_ssa_want_exact(struct ck *ck, uint32_t segno)
{
	if (segno >= ck->main_segs || (ck->ssa_redo && ck_bit64(ck->ssa_redo, segno)))
		return 0;
	return mark_redo(ck, segno);
}

int ck_ssa(struct ck *ck)
{
	struct cursums cs = { { 0 } };
	uint32_t s = 0;
	size_t bi = 0;
	int ret;

	compare_sit(ck);
	drop_unread_nodes(ck);
	f2fs_sort(ck->blks.v, ck->blks.n, sizeof(*ck->blks.v), blk_less, NULL);
	ret = load_cursums(ck, &cs);
	if (ret)
		goto out;
	while (s < ck->main_segs) {
		/* a run of up to CK_IO_BLOCKS segments, from one in use to one in use */
		uint32_t first, last;

		while (s < ck->main_segs && !seg_in_use(ck, s))
			s++;
		if (s == ck->main_segs)
			break;
		first = last = s;
		for (s++; s < ck->main_segs && s - first < CK_IO_BLOCKS; s++)
			if (seg_in_use(ck, s))
				last = s;
		ret = f2fs_dev_read(f2fs_fs_dev(ck->fs), (uint64_t)ck->ssa_blkaddr + first, ck->io,
				    last - first + 1, ck->err);
		if (ret)
			goto out;
		ck->r->stats.ssa_blocks_read += last - first + 1;
		for (uint32_t t = first; t <= last && !ret; t++)
			if (seg_in_use(ck, t))
				ret = ssa_segment(ck, t, (const void *)(ck->io + (size_t)(t - first) *
									 F2FS_BLKSIZE), &cs, &bi);
		if (ret)
			goto out;
		s = last + 1;
		ck_progress(ck, "SSA", s, ck->main_segs);
	}
out:
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++)
		free(cs.e[t]);
	return ret;
}
