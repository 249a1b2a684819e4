/*
 * Repair of the derived state. After a full check, the SIT, the SSA, the
 * checkpoint's counters, current segments and orphan list, nat_bits, and
 * the NAT entries of stray nodes are rebuilt from what the scan found (as
 * xfs_repair's phase 5 and e2fsck's pass 5 do), not patched entry by entry,
 * and written as one transaction (<f2fs/write/txn.h>): the image is the old
 * one until the new checkpoint's last block is down. Content rewritten
 * (quota files, quota.c) goes out of place into the logs
 * (logs.c) before the derived state is rebuilt, so that the rebuild
 * counts it.
 *
 * "What the scan found" is the checker's own view, so that a second run
 * finds the image clean: the blocks it saw in use (ck.owned), the nodes the
 * NAT names, the NEW_ADDR reservations. When some node's pointers could
 * not be followed (unreadable, a bad footer, a broken inode), the blocks
 * behind it are unknown: then no valid bit of the SIT is cleared, so that
 * nothing that may still be data is handed out for reuse.
 */
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/node_ofs.h>
#include <f2fs/fs/nat.h>
#include <f2fs/fs/ssa.h>
#include <f2fs/io/dev.h>
#include <f2fs/write/txn.h>

#include "../check/ck.h"
#include "../check/passes.h"
#include "repair.h"
#include "repair_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether a problem is fixed here is the problem table's fix column
 * (fsck/problem.h): one place, so the man page, --json's "fix" and the
 * repair cannot disagree. */
bool ck_repair_fixes(enum f2fs_problem_code code, enum f2fs_fix_answer answer)
{
	const struct f2fs_problem_info *in = f2fs_problem_info(code);

	if (answer == F2FS_ANSWER_NO || !in || (answer == F2FS_ANSWER_PREEN && !in->preen))
		return false;
	return f2fs_fix_kind_repairs(in->fix);
}


/* ---- the blocks in use ---------------------------------------------------- */

static int find_incomplete(struct rp *p, enum f2fs_fix_answer answer)
{
	struct ck *ck = p->ck;
	struct ck_nid_iter it = { 0 };
	struct ck_nid *n;
	uint32_t nid;
	int ret = rp_maps_begin(p);

	if (ret)
		return ret;
	/* the answer's choice, before decide() asks anyone */
	p->answer = answer;
	for (int c = 0; c < F2FS_PB_COUNT; c++)
		p->fix[c] = ck->r->count[c] && ck_repair_fixes((enum f2fs_problem_code)c, answer);
	p->free_bad = rp_blocks_free_bad(p);
	while (ck_nid_next(ck, &it, &nid, &n)) {
		/* a node freed for its bad footer takes what it holds along */
		bool freed = p->free_bad && (n->flags & NR_BAD) && !(n->flags & NR_UNREADABLE);

		if (!freed && (!(n->flags & NR_READ) || (n->flags & NR_BAD) ||
			       ((n->flags & NR_INODE) && (n->state & IR_BROKEN))))
			p->incomplete = true;
		/* the NAT keeps naming the block: it stays valid, a node */
		f2fs_msb_set(p->owned, n->blkaddr - ck->main_blkaddr);
		f2fs_msb_set(p->nodemap, n->blkaddr - ck->main_blkaddr);
	}
	if (!p->incomplete)
		return 0;
	p->unknown = calloc(ck->main_segs + 1, F2FS_SIT_VBLOCK_MAP_SIZE);
	if (!p->unknown)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for the repair");
	for (uint32_t s = 0; s < ck->main_segs; s++) {
		size_t at = (size_t)s * F2FS_SIT_VBLOCK_MAP_SIZE;

		for (int i = 0; i < F2FS_SIT_VBLOCK_MAP_SIZE; i++) {
			p->unknown[at + i] = ck->segs[s].map[i] & (uint8_t)~p->owned[at + i];
			p->owned[at + i] |= ck->segs[s].map[i];
		}
	}
	return 0;
}


static int free_strays(struct rp *p)
{
	struct ck *ck = p->ck;
	struct ck_nid_iter it = { 0 };
	struct ck_nid *n;
	uint32_t nid, before = p->freed;
	int ret = 0;

	if (!p->fix[F2FS_PB_NODE_UNREACHABLE])
		return 0;
	while (!ret && ck_nid_next(ck, &it, &nid, &n))
		if ((n->flags & (NR_READ | NR_INODE | NR_REACHED)) == NR_READ)
			ret = rp_free_node(p, nid);
	p->strays = p->freed - before;
	return ret;
}

/* nid 0 maps nothing; the node and meta inodes' entries say block 1. */
static int fix_reserved(struct rp *p)
{
	struct ck *ck = p->ck;
	int ret = 0;

	if (!p->fix[F2FS_PB_NAT_RESERVED])
		return 0;
	for (uint32_t nid = 0; nid <= F2FS_META_INO && !ret; nid++) {
		struct f2fs_nat_info ni;
		struct f2fs_nat_dirty d = { nid, nid, nid ? 1 : 0, 0 };

		ret = f2fs_nat_lookup(ck->fs, nid, &ni, NULL, ck->err);
		if (ret || (ni.blkaddr == d.blkaddr && (!nid || ni.ino == nid)))
			continue;
		d.version = ni.version;
		if (nid && ni.blkaddr == F2FS_NULL_ADDR)
			p->used[0]++;
		ret = rp_stage_nat(p, &d);
	}
	return ret;
}

/* NAT entries a node block answers for (nat.entry_rebuilt): before any
 * node is edited, so that a node written anew later stages its entry over
 * this one. */
static int fix_nat_rebuilt(struct rp *p)
{
	struct ck *ck = p->ck;
	int ret = 0;

	if (!p->fix[F2FS_PB_NAT_REBUILT])
		return 0;
	for (size_t i = 0; i < ck->fixes.n && !ret; i++) {
		const struct ck_fix *f = &ck->fixes.v[i];

		/* the version the node's data summaries record (slot) */
		if (f->op == FX_NAT_SET)
			ret = rp_stage_nat(p, &(struct f2fs_nat_dirty){ f->value, f->ino,
									(uint32_t)f->fofs,
									(uint8_t)f->slot });
	}
	return ret;
}

/* NAT entries whose ino the walk took from the node's footer: a wrong ino
 * (nat.ino_mismatch) or one no inode can have (nat.ino_zero). */
static int fix_nat_inos(struct rp *p)
{
	struct ck *ck = p->ck;
	int ret = 0;

	for (size_t i = 0; i < ck->ino_from_footer.n && !ret; i++) {
		uint32_t nid = ck->ino_from_footer.v[i], ino;
		const struct ck_nid *n = ck_nid_find(ck, nid);
		struct f2fs_nat_info ni;
		struct f2fs_nat_dirty d;
		bool invalid;

		if (!n || !(n->flags & NR_READ))
			continue;   /* freed since, or not used after all */
		ret = f2fs_nat_lookup(ck->fs, nid, &ni, NULL, ck->err);
		if (ret)
			break;
		invalid = ni.ino == 0 || ni.ino >= ck->max_nid;
		if (!p->fix[invalid ? F2FS_PB_NAT_INO_ZERO : F2FS_PB_NAT_INO_MISMATCH])
			continue;
		ino = ck_nid_ino(ck, n, nid);
		p->inodes_delta += (ino == nid) - (ni.ino == nid);
		d = (struct f2fs_nat_dirty){ nid, ino, ni.blkaddr, ni.version };
		ret = rp_stage_nat(p, &d);
	}
	return ret;
}

/* ---- SIT ------------------------------------------------------------------ */

/* The SIT type of segment s. What reads it: f2fs-tools' fsck wants every
 * entry's type below 6, a current segment typed as its log, and the type's
 * kind (node or data) that of each block in use there (else it retypes the
 * segment and says so); the kernel counts the valid blocks of node-typed
 * segments against valid_node_count at mount, and its GC wants the type's
 * kind to be the summary block's (stage_ssa writes the footer from this
 * type). So: a log's type; else the stored type where it fits the blocks;
 * else the warm type of the blocks' kind (hot data for a free segment). A
 * segment holding both kinds fits no type (the check reports its blocks:
 * nat.segment_type, data.segment_type). */
static uint8_t seg_type(const struct rp *p, uint32_t s)
{
	const struct ck *ck = p->ck;
	const uint8_t *own = rp_own_map(p, s), *nm = p->nodemap + (size_t)s * F2FS_SIT_VBLOCK_MAP_SIZE;
	uint8_t stored = ck->segs[s].type;
	int cur = rp_new_cur(p, s), nodes = 0, data = 0;

	if (cur >= 0)
		return (uint8_t)cur;
	for (int i = 0; i < F2FS_SIT_VBLOCK_MAP_SIZE; i++) {
		uint8_t known = own[i] & (uint8_t)~(p->unknown ?
				p->unknown[(size_t)s * F2FS_SIT_VBLOCK_MAP_SIZE + i] : 0);

		nodes += __builtin_popcount(known & nm[i]);
		data += __builtin_popcount(known & (uint8_t)~nm[i]);
	}
	if (stored <= F2FS_SEG_COLD_NODE && (!nodes || ck_seg_is_node(stored)) &&
	    (!data || !ck_seg_is_node(stored) || nodes))
		return stored;
	if (nodes)
		return F2FS_SEG_WARM_NODE;
	return data ? F2FS_SEG_WARM_DATA : F2FS_SEG_HOT_DATA;
}

static int stage_sit(struct rp *p)
{
	struct ck *ck = p->ck;

	for (uint32_t s = 0; s < ck->main_segs; s++) {
		const struct ck_seg *g = &ck->segs[s];
		const uint8_t *own = rp_own_map(p, s);
		struct f2fs_sit_dirty d = { 0 };

		p->type[s] = seg_type(p, s);
		d.segno = s;
		d.type = p->type[s];
		d.valid = (uint16_t)f2fs_sit_map_weight(own);
		d.mtime = g->mtime;
		memcpy(d.map, own, sizeof(d.map));
		if (d.valid == g->vblocks && d.type == g->type && !memcmp(d.map, g->map, sizeof(d.map)))
			continue;
		if (f2fs_vec_push(&p->t.sit, d))
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for SIT changes");
	}
	return 0;
}

/* ---- SSA and the current logs' summaries ------------------------------------ */

/* Set the entries of the blocks whose owner the check knows (ck.blks, kept
 * for the segments checked entry by entry), from *bi on. */
static int owners_into(struct rp *p, uint32_t s, struct f2fs_summary *e, size_t *bi)
{
	struct ck *ck = p->ck;

	for (; *bi < ck->blks.n && ck_segno(ck, ck->blks.v[*bi].addr) <= s; ++*bi) {
		const struct ck_blk *b = &ck->blks.v[*bi];
		struct f2fs_summary *x = &e[(b->addr - ck->main_blkaddr) % F2FS_BLOCKS_PER_SEG];
		uint8_t version = 0;
		int ret;

		if (ck_segno(ck, b->addr) < s || !f2fs_msb_test(p->owned, b->addr - ck->main_blkaddr))
			continue;
		/* the NAT entry as this repair leaves it (one rebuilt from its
		 * node, not the garbage it replaces) */
		if (!b->node && (ret = rp_nat_version(p, b->nid, &version)))
			return ret;
		x->nid = le32_put(b->nid);
		x->ofs_in_node = le16_put(b->node ? 0 : b->idx);
		x->version = version;
	}
	return 0;
}

/* A log of the old checkpoint was there (in range or not as a log): its
 * SSA block on disk is stale, its summaries were in the pack. */
static bool was_current(const struct ck *ck, uint32_t s)
{
	return f2fs_cp_log_of(ck->cp, s) >= 0;
}

static bool exact(const struct ck *ck, uint32_t s)
{
	return ck->ssa_exact && ck_bit64(ck->ssa_exact, s);
}

/* The owners of the blocks written out of place into segment s. */
static void placed_into(const struct rp *p, uint32_t s, struct f2fs_summary *e)
{
	const struct ck *ck = p->ck;

	for (size_t i = 0; i < p->placed.n; i++) {
		const struct rp_placed *b = &p->placed.v[i];
		struct f2fs_summary *x;

		if (ck_segno(ck, b->addr) != s)
			continue;
		x = &e[(b->addr - ck->main_blkaddr) % F2FS_BLOCKS_PER_SEG];
		x->nid = le32_put(b->nid);
		x->ofs_in_node = le16_put(b->node ? 0 : b->ofs);
		x->version = b->node ? 0 : b->version;
	}
}

/* One segment's summary block as it must be; *write when it differs. */
static int rebuild_sum(struct rp *p, uint32_t s, struct f2fs_summary_block *blk, size_t *bi,
		       bool *write)
{
	struct ck *ck = p->ck;
	struct f2fs_summary_block old;
	uint8_t want = ck_seg_is_node(p->type[s]) ? F2FS_SUM_TYPE_NODE : F2FS_SUM_TYPE_DATA;
	int ret = f2fs_ssa_get(ck->fs, s, blk, NULL, ck->err);

	/* a log's summaries the pack cannot give (cp.summary) are made anew
	 * from the owners, which the check then kept */
	if (ret && was_current(ck, s) && exact(ck, s)) {
		memset(blk, 0, sizeof(*blk));
		ret = 0;
	}
	if (ret)
		return ret;
	old = *blk;
	if (exact(ck, s))
		ret = owners_into(p, s, blk->entries, bi);
	placed_into(p, s, blk->entries);
	blk->footer.entry_type = want;
	*write = was_current(ck, s) || memcmp(&old, blk, sizeof(old)) != 0;
	return ret;
}

static int stage_ssa(struct rp *p)
{
	struct ck *ck = p->ck;
	size_t bi = 0;
	int ret = 0;

	/* segments the repair wrote blocks into: a log may have filled one
	 * and moved on, and its SSA block is then all new */
	uint64_t *placed = calloc(ck->main_segs / 64 + 1, sizeof(uint64_t));

	if (!placed)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for SSA blocks");
	for (size_t i = 0; i < p->placed.n; i++)
		if (ck_in_main(ck, p->placed.v[i].addr))
			ck_bit64_set(placed, ck_segno(ck, p->placed.v[i].addr));
	for (uint32_t s = 0; s < ck->main_segs && !ret; s++) {
		int cur = rp_new_cur(p, s);
		bool in_use = f2fs_sit_map_weight(rp_own_map(p, s)) != 0, write = false;
		struct f2fs_summary_block blk;

		if (cur >= 0) {
			if (!p->moved[cur]) {
				ret = rebuild_sum(p, s, &blk, &bi, &write);
				if (!ret)
					memcpy(p->t.sum[cur], blk.entries, sizeof(blk.entries));
			} else {
				placed_into(p, s, p->t.sum[cur]);
			}
			continue;
		}
		/* A segment that stops being current gets its SSA block. When the
		 * check kept no owners there, the pack's summaries are the owners:
		 * the check found them to agree with the blocks in use, or it
		 * would have run again keeping them (ck.ssa_redo). */
		if (!in_use || (!exact(ck, s) && !was_current(ck, s) &&
				!(ck->ssa_badtype && ck_bit64(ck->ssa_badtype, s)) &&
				p->type[s] == ck->segs[s].type && !rp_roll_touched(p, s) &&
				!ck_bit64(placed, s)))
			continue;
		ret = rebuild_sum(p, s, &blk, &bi, &write);
		if (!ret && write) {
			struct f2fs_txn_ssa x = { .segno = s, .blk = blk };

			if (f2fs_vec_push(&p->t.ssa, x))
				ret = f2fs_fail(ck->err, -ENOMEM, "out of memory for SSA blocks");
		}
	}
	free(placed);
	return ret;
}

static int stage_logs(struct rp *p)
{
	struct f2fs_checkpoint *cp = f2fs_txn_cp(&p->t);

	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++) {
		p->t.sum[t] = calloc(F2FS_ENTRIES_IN_SUM, sizeof(struct f2fs_summary));
		if (!p->t.sum[t])
			return f2fs_fail(p->ck->err, -ENOMEM, "out of memory for summaries");
		/* a value neither LFS nor SSR was read as LFS (cp.curseg_range) */
		if (p->moved[t] || !f2fs_cp_log_ssr(cp, t))
			cp->alloc_type[t] = F2FS_ALLOC_LFS;
		p->t.nsum[t] = f2fs_cp_log_ssr(cp, t) ? F2FS_ENTRIES_IN_SUM : p->off[t];
		f2fs_cp_set_log(cp, t, p->cur[t], p->off[t]);
	}
	return 0;
}

/* ---- the checkpoint --------------------------------------------------------- */

static int stage_orphans(struct rp *p)
{
	struct ck *ck = p->ck;

	for (size_t k = 0; k < ck->orphans.n; k++) {
		uint32_t ino = ck->orphans.v[k], links, refs;

		/* the kernel would free a linked inode: it leaves the list */
		if (!ck_rec_inode(ck, ino, &links, &refs) || links || refs)
			continue;
		if (f2fs_vec_push(&p->t.orphans, ino))
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for orphans");
	}
	return 0;
}

/* The first nid not in use from the checkpoint's hint on (the kernel scans
 * from there for nids to hand out), wrapping after the last. */
static uint32_t next_free_nid(struct rp *p)
{
	struct ck *ck = p->ck;
	uint32_t first = F2FS_ROOT_INO + 1, hint = le32_get(ck->cp->next_free_nid);

	if (hint < first || hint >= ck->max_nid)
		hint = first;
	for (uint32_t nid = hint; nid < ck->max_nid; nid++)
		if (!ck_nid_find(ck, nid) && !rp_nid_taken(p, nid))
			return nid;
	for (uint32_t nid = first; nid < hint; nid++)
		if (!ck_nid_find(ck, nid) && !rp_nid_taken(p, nid))
			return nid;
	return hint;
}

static uint64_t valid_blocks(const struct rp *p)
{
	const struct ck *ck = p->ck;
	uint64_t n = 0;

	for (uint32_t s = 0; s < ck->main_segs; s++)
		n += f2fs_sit_map_weight(rp_own_map(p, s));
	return n + p->new_addrs + p->ck->compr_addrs;
}

static uint32_t free_segments(const struct rp *p)
{
	uint32_t n = 0;

	for (uint32_t s = 0; s < p->ck->main_segs; s++)
		if (!f2fs_sit_map_weight(rp_own_map(p, s)) && rp_new_cur(p, s) < 0)
			n++;
	return n;
}

static void stage_cp(struct rp *p, bool all_fixed)
{
	struct ck *ck = p->ck;
	struct f2fs_checkpoint *cp = f2fs_txn_cp(&p->t);
	/* flags as the pack bears them out (the pack written sets its own
	 * summary and orphan flags) */
	uint32_t flags = p->fix[F2FS_PB_CP_FLAGS] ? f2fs_fs_ckpt_flags(ck->fs) :
			 le32_get(cp->ckpt_flags);

	cp->valid_block_count = le64_put(valid_blocks(p));
	cp->valid_node_count = le32_put(ck->nat_nodes - p->freed + p->added);
	cp->valid_inode_count = le32_put((uint32_t)((int64_t)ck->nat_inodes + p->inodes_delta));
	cp->free_segment_count = le32_put(free_segments(p));
	cp->next_free_nid = le32_put(next_free_nid(p));
	if (p->fix[F2FS_PB_CP_OVERPROVISION] || p->fix[F2FS_PB_CP_USER_BLOCK_COUNT]) {
		struct rp_cp_counts c;

		if (!rp_cp_counts(ck, &c)) {
			cp->rsvd_segment_count = le32_put(c.rsvd);
			cp->overprov_segment_count = le32_put(c.ovp);
			cp->user_block_count = le64_put(c.user);
		}
	}
	/* a check is still wanted while anything is left */
	if (all_fixed)
		flags &= ~(uint32_t)(F2FS_CP_ERROR | F2FS_CP_FSCK | F2FS_CP_QUOTA_NEED_FSCK);
	else
		flags |= F2FS_CP_FSCK;
	cp->ckpt_flags = le32_put(flags);
}

/* ---- the run ------------------------------------------------------------------ */

/* In a segment holding blocks of unknown kind (an unfollowed node may own
 * them), the SIT keeps them valid: what the check counted there differs
 * from the SIT again on the next run. */
static bool sit_count_blocked(const struct rp *p, enum f2fs_problem_code code)
{
	const struct ck *ck = p->ck;
	uint64_t listed = 0;

	if (!p->unknown)
		return false;
	for (size_t i = 0; i < ck->r->nproblems; i++) {
		const struct f2fs_problem *pb = &ck->r->problems[i];

		if (pb->code != code)
			continue;
		listed++;
		if (!(pb->have & F2FS_PF_SEGNO) || pb->segno >= ck->main_segs ||
		    f2fs_sit_map_weight(p->unknown + (size_t)pb->segno * F2FS_SIT_VBLOCK_MAP_SIZE))
			return true;
	}
	return listed < ck->r->count[code];   /* some not listed: unknown */
}

/* A fix standing on one not made (f2fs_problem_needs) is not made: the
 * code it stands on, or -1. */
static int blocked_by(const struct rp *p, enum f2fs_problem_code c)
{
	const struct ck *ck = p->ck;

	for (int b = 0; b < F2FS_PB_COUNT; b++)
		if (ck->r->count[b] && !p->fix[b] && f2fs_problem_needs(c, (enum f2fs_problem_code)b))
			return b;
	return -1;
}

/* In the order of cause, each fix standing on one not made is dropped
 * (and said so in the report). */
static void drop_blocked(struct rp *p, const enum f2fs_problem_code *order)
{
	struct f2fs_repair_report *rr = &p->ck->r->repair;

	for (int k = 0; k < F2FS_PB_COUNT; k++) {
		enum f2fs_problem_code c = order[k];
		int b;

		if (!p->fix[c] || (b = blocked_by(p, c)) < 0)
			continue;
		p->fix[c] = false;
		if (!rr->declined[c])
			rr->blocked_by[c] = (uint8_t)(b + 1);
	}
}

/* Which problems this repair fixes (p->fix), the answer allowing; false
 * when the confirm callback cancelled the repair. */
static bool decide(struct rp *p, enum f2fs_fix_answer answer)
{
	struct ck *ck = p->ck;
	struct f2fs_repair_report *rr = &ck->r->repair;
	enum f2fs_problem_code order[F2FS_PB_COUNT];
	bool errors_left = false;
	int quota_ok = -1;   /* both quota problems ask once: it builds the files */
	struct rp_cp_counts counts;

	for (int c = 0; c < F2FS_PB_COUNT; c++) {
		if (!ck->r->count[c])
			continue;
		p->fix[c] = ck_repair_fixes((enum f2fs_problem_code)c, answer);
		if (c == F2FS_PB_QUOTA_USAGE || c == F2FS_PB_QUOTA_BAD_FILE) {
			if (quota_ok < 0)
				quota_ok = rp_quota_rebuildable(p);
			if (!quota_ok)
				p->fix[c] = false;
		}
		if ((c == F2FS_PB_CP_OVERPROVISION || c == F2FS_PB_CP_USER_BLOCK_COUNT) &&
		    rp_cp_counts(ck, &counts))
			p->fix[c] = false;
		if ((c == F2FS_PB_SB_QUOTA_INO && !rp_sb_quota_fixable(ck)) ||
		    (c == F2FS_PB_ROOT_BAD && !rp_root_restorable(ck) && !rp_root_makeable(ck)))
			p->fix[c] = false;
		if ((c == F2FS_PB_SIT_VALID_UNUSED || c == F2FS_PB_SIT_VBLOCKS_MISMATCH) &&
		    sit_count_blocked(p, (enum f2fs_problem_code)c))
			p->fix[c] = false;
	}
	/* the questions, in the order of cause: a fix that stands on one
	 * declined (or not made) is not asked about, and not made */
	f2fs_problems_in_order(order);
	for (int k = 0; k < F2FS_PB_COUNT; k++) {
		enum f2fs_problem_code c = order[k];
		int b, yes;

		if (!ck->r->count[c] || !p->fix[c])
			continue;
		/* a field whose right value is not known is left, and so its
		 * problem (known once the fixes of the earlier stages are) */
		if (!rp_inodes_noted(p, c)) {
			p->fix[c] = false;
			continue;
		}
		if ((b = blocked_by(p, c)) >= 0) {
			p->fix[c] = false;
			rr->blocked_by[c] = (uint8_t)(b + 1);
			continue;
		}
		if (answer == F2FS_ANSWER_PLAN || !ck->opt->confirm)
			continue;
		yes = ck->opt->confirm(c, ck->r->count[c], ck->opt->confirm_arg);
		if (yes < 0)
			return false;
		if (!yes) {
			p->fix[c] = false;
			rr->declined[c] = 1;
		}
	}
	if (rp_blocks_decide(p))
		errors_left = true;
	rp_dirs_not_dirs(p);
	/* what those left undone, the fixes standing on them follow */
	drop_blocked(p, order);
	for (int c = 0; c < F2FS_PB_COUNT; c++)
		if (ck->r->count[c] && !p->fix[c] &&
		    f2fs_problem_info((enum f2fs_problem_code)c)->severity == F2FS_SEV_ERROR)
			errors_left = true;
	/* the checkpoint keeps asking for a check while errors are left */
	if (errors_left) {
		p->fix[F2FS_PB_CP_NEEDS_FSCK] = false;
		/* and the kernel's record of errors goes with the last of them */
		p->fix[F2FS_PB_SB_ERRORS_RECORDED] = false;
	}
	return true;
}

/* The decisions into the report's counts; whether anything is fixed. */
static bool account(struct rp *p)
{
	struct ck *ck = p->ck;
	struct f2fs_repair_report *rr = &ck->r->repair;
	bool any = false;

	for (int c = 0; c < F2FS_PB_COUNT; c++) {
		if (!ck->r->count[c])
			continue;
		any |= p->fix[c];
		if (p->fix[c])
			rr->fixed += ck->r->count[c];
		else {
			rr->unfixed += ck->r->count[c];
			if (f2fs_problem_info((enum f2fs_problem_code)c)->severity == F2FS_SEV_ERROR)
				rr->unfixed_errors += ck->r->count[c];
		}
	}
	return any;
}

/* ---- the steps -------------------------------------------------------------- */

static int step_begin(struct rp *p)
{
	struct ck *ck = p->ck;

	p->segs_per_sec = le32_get(ck->sb->segs_per_sec) ? le32_get(ck->sb->segs_per_sec) : 1;
	p->new_addrs = ck->new_addrs;
	p->type = calloc(ck->main_segs + 1, 1);
	p->used = calloc(ck->nat_blocks + 1, sizeof(*p->used));
	if (!p->type || !p->used)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for the repair");
	memcpy(p->used, ck->nat_used, ck->nat_blocks * sizeof(*p->used));
	return 0;
}

static int step_roll(struct rp *p)
{
	int ret = rp_roll_prepare(p);

	return !ret && rp_roll_stopped(p) ? 1 : ret;   /* 1: the chain is left to the kernel */
}

/* Where the usage moved (rp_quota_usage), the quota files follow, where
 * they can be rebuilt. */
static int step_quota(struct rp *p)
{
	if (p->ck->quota_bad && !p->fix[F2FS_PB_QUOTA_USAGE] && !p->fix[F2FS_PB_QUOTA_BAD_FILE])
		p->fix[F2FS_PB_QUOTA_USAGE] = rp_quota_rebuildable(p);
	return rp_quota(p);
}

static int step_unguard(struct rp *p)
{
	rp_roll_unguard(p);
	return 0;
}

static int step_cp(struct rp *p)
{
	stage_cp(p, p->ck->r->repair.unfixed_errors == 0);
	return 0;
}

/* How the transaction writes what the fixes staged. */
static int step_txn(struct rp *p)
{
	struct ck *ck = p->ck;

	p->t.nat_used = p->used;
	p->used = NULL;
	p->t.nat_no_journal = p->fix[F2FS_PB_NAT_JOURNAL];
	/* the kernel checks the SIT blocks' own entries, journal or not (and
	 * f2fs-tools their types too): a bad one is only mended by writing
	 * its block */
	p->t.sit_no_journal = p->fix[F2FS_PB_SIT_JOURNAL] || p->fix[F2FS_PB_SIT_VBLOCKS_MAP] ||
			      p->fix[F2FS_PB_SIT_BAD_TYPE];
	if (p->fix[F2FS_PB_SB_PRIMARY_INVALID])
		p->t.sb_rewrite |= 1u;
	if (p->fix[F2FS_PB_SB_COPIES_DIFFER])
		p->t.sb_rewrite |= 2u;
	p->t.sb_only = !p->t.nat.n && !ck->r->roll.applied;   /* nodes freed need a checkpoint */
	for (int c = 0; c < F2FS_PB_COUNT; c++)
		if (p->fix[c] && !rp_sb_code((enum f2fs_problem_code)c))
			p->t.sb_only = false;
	return 0;
}

/*
 * The repair, top to bottom. The recovery replays the chain first, as a
 * mount would, so that every fix sees the files as the kernel will. The
 * NAT fixes and the freeing of strays come before the logs are chosen
 * (what they free, a log may go on over). Then the edits of nodes and file
 * blocks, staged in the cache (stage.c, edit.c) in an order
 * where each sees what the ones before it did: i_extra_isize first (it
 * moves i_addr), names before the link counts they change, the blocks
 * before the relinking and counts that follow from them. The quota usage
 * then moves by what all of them did to each inode, once, and the quota
 * files are rebuilt from it. The flush writes every
 * changed block out of place; only then are the derived SIT, SSA and
 * checkpoint made, from the blocks in use as the flush left them.
 */
static const struct {
	const char *name;
	int (*run)(struct rp *p);
} steps[] = {
	{ "begin", step_begin },
	{ "roll-forward recovery", step_roll },
	{ "stray nodes", free_strays },
	{ "reserved NAT entries", fix_reserved },
	{ "rebuilt NAT entries", fix_nat_rebuilt },
	{ "NAT entries' inos", fix_nat_inos },
	{ "logs", rp_choose_logs },
	{ "i_extra_isize", rp_extra_isizes },
	{ "directory entries", rp_dirs },
	{ "inode fields", rp_inodes },
	{ "xattrs", rp_xattrs },
	{ "root", rp_root },
	{ "orphans", rp_orphans },
	{ "superblock", rp_sb },
	{ "directory loops", rp_loops },
	{ "blocks and pointers", rp_blocks },
	{ "relinking", rp_relink },
	{ "link counts", rp_links },
	{ "quota usage", rp_quota_usage },
	{ "quota files", step_quota },
	{ "roll-forward owners", rp_roll_owners },
	{ "flush", rp_edits_flush },
	{ "roll-forward chain freed", step_unguard },
	{ "current logs", stage_logs },
	{ "SIT", stage_sit },
	{ "SSA", stage_ssa },
	{ "orphan list", stage_orphans },
	{ "checkpoint", step_cp },
	{ "transaction", step_txn },
};

/* 0: staged; 1: the chain is left to the kernel, nothing staged. */
static int stage(struct rp *p)
{
	int ret = 0;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]) && !ret; i++) {
		ret = steps[i].run(p);
		/* no step holds a staged node past its end */
		rp_stage_trim(p);
	}
	return ret;
}

/* What the fixes decided would do to files (f2fs_repair_plan): an inode
 * is freed with its NAT entry; orphans are not counted, as the kernel
 * frees them at mount too. */
static int plan_files(struct rp *p)
{
	struct ck *ck = p->ck;
	struct f2fs_repair_plan *pl = &ck->r->plan;

	for (size_t i = 0; i < ck->fixes.n; i++) {
		const struct ck_fix *f = &ck->fixes.v[i];
		struct f2fs_nat_info ni;
		int ret;

		if (f->op != FX_NAT_FREE || !p->fix[f->code])
			continue;
		ret = f2fs_nat_lookup(ck->fs, f->value, &ni, NULL, ck->err);
		if (ret)
			return ret;
		pl->inodes_freed += ni.ino == f->value;
	}
	if (p->fix[F2FS_PB_INODE_UNREACHABLE])
		pl->files_relinked = ck->r->count[F2FS_PB_INODE_UNREACHABLE];
	if (p->fix[F2FS_PB_DIR_DANGLING])
		pl->entries_removed = ck->r->count[F2FS_PB_DIR_DANGLING];
	return 0;
}

int ck_repair_plan(struct ck *ck)
{
	struct rp p = { .ck = ck };
	int ret;

	if (!(ck->r->errors || ck->r->warnings) ||
	    (ck->r->roll_forward_fsync && !ck->opt->discard_roll_forward &&
	     !ck_roll_recoverable(ck)))
		return 0;   /* -y would refuse to write */
	ret = find_incomplete(&p, F2FS_ANSWER_PLAN);
	if (!ret) {
		(void)decide(&p, F2FS_ANSWER_PLAN);
		/* the plan asks nobody: what it leaves is no one's answer */
		memset(ck->r->repair.blocked_by, 0, sizeof(ck->r->repair.blocked_by));
		for (size_t i = 0; i < ck->r->nproblems; i++)
			ck->r->problems[i].would_fix = p.fix[ck->r->problems[i].code];
		ret = plan_files(&p);
	}
	free(p.unknown);
	rp_maps_free(&p);
	return ret;
}

/* Nothing is written: why, and every problem stays. */
static void __attribute__((format(printf, 2, 3))) refuse(struct ck *ck, const char *fmt, ...)
{
	struct f2fs_repair_report *rr = &ck->r->repair;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rr->refused, sizeof(rr->refused), fmt, ap);
	va_end(ap);
	rr->unfixed += rr->fixed;
	rr->unfixed_errors = ck->r->errors;
	rr->fixed = 0;
}

static void mark_fixed(struct ck *ck, const struct rp *p)
{
	for (size_t i = 0; i < ck->r->nproblems; i++)
		ck->r->problems[i].fixed = p->fix[ck->r->problems[i].code];
}

int ck_repair(struct ck *ck)
{
	struct f2fs_repair_report *rr = &ck->r->repair;
	struct rp p = { .ck = ck };
	bool roll = ck_roll_recoverable(ck);
	int ret;

	if (ck->opt->fix == F2FS_ANSWER_NO || !(ck->r->errors || ck->r->warnings || roll))
		return 0;
	rr->wanted = 1;
	ret = find_incomplete(&p, ck->opt->fix);
	if (!ret && !decide(&p, ck->opt->fix)) {
		/* cancelled at a question: nothing is written */
		rr->cancelled = 1;
		memset(p.fix, 0, sizeof(p.fix));
		(void)account(&p);
		refuse(ck, "cancelled at a question: nothing written");
		free(p.unknown);
		rp_maps_free(&p);
		return 0;
	}
	if (ret || !(account(&p) || roll)) {
		free(p.unknown);
		rp_maps_free(&p);
		return ret;
	}
	if (ck->r->roll_forward_fsync && !ck->opt->discard_roll_forward && !roll) {
		refuse(ck, ck->opt->keep_roll_forward ?
		       "%llu node block(s) after the checkpoint hold fsync'd data, kept for the kernel's next mount as asked (--keep-roll-forward)" :
		       "%llu node block(s) after the checkpoint hold fsync'd data that a new checkpoint would drop; mount the image once (the kernel recovers them) and run fsck again, or pass --discard-roll-forward",
		       (unsigned long long)ck->r->roll_forward_nodes);
		free(p.unknown);
		rp_maps_free(&p);
		return 0;
	}
	/* blocks go to the device as they are placed: a short write queue
	 * keeps a large repair's memory small */
	ret = f2fs_dev_set_write_queue(f2fs_fs_dev(ck->fs), ck->opt->write_queue ?
				       ck->opt->write_queue : RP_WRITE_QUEUE_BLOCKS, ck->err);
	if (!ret)
		ret = f2fs_txn_begin(&p.t, ck->fs, ck->err);
	if (!ret)
		ret = stage(&p);
	if (ret == -F2FS_E_NO_SPACE) {
		/* what was placed lies in space free under the old checkpoint,
		 * which still stands: the volume is as it was */
		refuse(ck, "no room for the repair's out-of-place writes (%s); free space, or grow the volume, and run fsck again",
		       ck->err->msg);
		ret = 0;
	} else if (ret == 1) {
		refuse(ck, "the roll-forward recovery of %llu node block(s) is not done here (%s); mount the image once (the kernel recovers them) and run fsck again, or pass --discard-roll-forward",
		       (unsigned long long)ck->r->roll_forward_nodes, ck->r->roll.why);
		ret = 0;
	} else if (!ret) {
		ret = f2fs_txn_commit(&p.t, ck->err);
		rr->written = p.t.stats;
		rr->stray_nodes_freed = p.strays;
	}
	if (!ret && !rr->refused[0]) {
		rr->committed = 1;
		mark_fixed(ck, &p);
	} else if (ret) {
		ck->r->roll.applied = 0;
	}
	rp_roll_free(&p);
	f2fs_txn_free(&p.t);
	f2fs_vec_free(&p.placed);
	rp_edits_free(&p);
	f2fs_vec_free(&p.gone);
	free(p.type);
	free(p.used);
	free(p.unknown);
	rp_maps_free(&p);
	return ret;
}
