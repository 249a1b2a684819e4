/*
 * The repair of blocks and node pointers. A block two pointers own is
 * cloned for the pointer that came second (e2fsck's pass 1B idea): that
 * file gets a copy written out of place, so both keep their content. A
 * data pointer outside the main area becomes a hole; a data block in a
 * node segment is moved into a data log. A node pointer to a nid not in
 * use, to another inode's node, to a node at another offset, or to a node
 * pointed to already is cleared in its parent (the node stays with its
 * owner, or is freed as a stray with what it holds). A NAT entry naming no
 * usable block is freed, only together with the pointers naming its nid,
 * so that the kernel never hands the nid out while a parent still names
 * it. A file that loses blocks gets i_blocks to match (its quota charge
 * follows from it: rp_quota_usage).
 */
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/format/node_ofs.h>
#include <f2fs/fs/nat.h>
#include <f2fs/util/sort.h>

#include "../check/passes.h"
#include "repair_int.h"

#include <errno.h>

static bool is_block_op(uint8_t op)
{
	return op == FX_CLONE || op == FX_HOLE || op == FX_MOVE || op == FX_NODE_PTR ||
	       op == FX_NAT_FREE;
}

static int err_code(const struct rp *p)
{
	return p->ck->err->code ? p->ck->err->code : -EIO;
}

/* A node read but reached from no inode: freed with its blocks when
 * node.unreachable is fixed. */
static bool stray(struct ck *ck, uint32_t nid)
{
	const struct ck_nid *n = ck_nid_find(ck, nid);

	return n && (n->flags & (NR_READ | NR_INODE | NR_REACHED)) == NR_READ;
}

/* The file block that the data pointer of record f is, checked by walking
 * the file's tree back to the same pointer. */
static int file_block(struct rp *p, const struct ck_fix *f, uint64_t *fofs)
{
	struct ck *ck = p->ck;
	uint32_t nid = f->value, ino = f->ino, at, idx;
	int ret;

	if (nid == ino) {
		*fofs = f->slot;
	} else {
		const struct ck_nid *n = ck_nid_find(ck, nid);
		struct f2fs_node buf;
		const struct f2fs_node *in;
		uint32_t ofs;

		if (!n || (n->flags & (NR_READ | NR_REACHED)) != (NR_READ | NR_REACHED))
			return f2fs_fail(ck->err, -ENOENT, "nid %u is not in a file's tree", nid);
		ofs = ck_nid_ofs(ck, n, nid);
		in = rp_node_peek(p, ino, &buf);
		if (!in)
			return err_code(p);
		*fofs = f2fs_node_start_bidx(ofs, f2fs_inode_addrs(&in->i, ck->features)) + f->slot;
	}
	ret = rp_block_owner(p, ino, *fofs, false, &at, &idx);
	if (!ret && (at != nid || idx != f->slot))
		ret = f2fs_fail(ck->err, -ENOENT, "inode %u: pointer %u of nid %u not found", ino,
				f->slot, nid);
	return ret;
}

/* The node holding the pointer to the node at offset ofs of inode ino's
 * tree, and its index there (in i_nid[] when *pnid is ino). */
static int parent_of(struct rp *p, uint32_t ino, uint32_t ofs, uint32_t child, uint32_t *pnid,
		     uint32_t *slot)
{
	struct f2fs_node buf;
	const struct f2fs_node *nd = rp_node_peek(p, ino, &buf);
	struct f2fs_node_path path;

	if (!nd)
		return err_code(p);
	if (!f2fs_node_path_of(ofs, &path) || path.levels == 0)
		goto none;
	*pnid = ino;
	for (uint32_t l = 0; l + 1 < path.levels; l++) {
		*pnid = le32_get(l == 0 ? nd->i.i_nid[path.slot[0]] : nd->in.nid[path.slot[l]]);
		if (!*pnid || !(nd = rp_node_peek(p, *pnid, &buf)))
			goto none;
	}
	*slot = path.slot[path.levels - 1];
	if (le32_get(*pnid == ino ? nd->i.i_nid[*slot] : nd->in.nid[*slot]) == child)
		return 0;
none:
	return f2fs_fail(p->ck->err, -ENOENT, "inode %u: no pointer to nid %u at node offset %u",
			 ino, child, ofs);
}

/* ---- what can be fixed -------------------------------------------------------- */

/* Can record f be applied as it stands (a data pointer of a stray node:
 * only when the stray is freed)? Reads nodes; leaves ck.err as it was. */
static bool applicable(struct rp *p, const struct ck_fix *f)
{
	struct ck *ck = p->ck;
	struct f2fs_error keep = *ck->err;
	uint64_t fofs;
	uint32_t pnid, slot;
	bool ok = true;

	switch (f->op) {
	case FX_CLONE:
	case FX_HOLE:
	case FX_MOVE:
		if (f->value != f->ino && stray(ck, f->value))
			return p->fix[F2FS_PB_NODE_UNREACHABLE];
		/* a directory's block claimed second was not read as one: its
		 * copy's entries would meet their first check on the next run */
		if (f->op == FX_CLONE && ck_is_dir(ck_inode(ck, f->ino)))
			return false;
		ok = !file_block(p, f, &fofs);
		break;
	case FX_NODE_PTR: {
		const struct ck_nid *c = ck_nid_find(ck, f->value);

		/* a second pointer at the offset the node has: which one is
		 * right is not known */
		if (f->code == F2FS_PB_NODE_MULTIPLE_PARENTS && c &&
		    ck_nid_ofs(ck, c, f->value) == f->fofs)
			return false;
		ok = !parent_of(p, f->ino, (uint32_t)f->fofs, f->value, &pnid, &slot);
		break;
	}
	case FX_NAT_FREE:
		if (f->code == F2FS_PB_NAT_DUPLICATE_BLOCK) {
			struct f2fs_node nd;

			/* the block is this nid's by its footer: the other
			 * nid's entry is the wrong one */
			ok = !f2fs_fs_read_block(ck->fs, (uint32_t)f->fofs, &nd, ck->err) &&
			     le32_get(nd.footer.nid) != f->value;
		}
		break;
	}
	*ck->err = keep;
	return ok;
}

static bool needs(const struct rp *p, enum f2fs_problem_code code)
{
	return !p->ck->r->count[code] || p->fix[code];
}

static void veto_unapplicable(struct rp *p, bool clones)
{
	struct ck *ck = p->ck;

	for (size_t i = 0; i < ck->fixes.n; i++) {
		const struct ck_fix *f = &ck->fixes.v[i];

		if (is_block_op(f->op) && (f->op == FX_CLONE) == clones && p->fix[f->code] &&
		    !applicable(p, f))
			p->fix[f->code] = false;
	}
}

/* p.fix holds the answer's choice until decide() (find_incomplete) */
static bool answered(const struct rp *p, enum f2fs_problem_code code)
{
	return !p->ck->r->count[code] || p->fix[code];
}

static const struct ck_fix *nat_free_of(const struct ck *ck, uint32_t nid)
{
	for (size_t i = 0; i < ck->fixes.n; i++)
		if (ck->fixes.v[i].op == FX_NAT_FREE && ck->fixes.v[i].value == nid)
			return &ck->fixes.v[i];
	return NULL;
}

/*
 * All or none: every node with a bad footer (or an impossible offset) is
 * freed, or none is and the blocks behind them stay unknown. Decided from
 * the answer alone (not a person's, asked later: a refusal then could not
 * give the blocks back), with every pointer naming such a node clearable:
 * directory entries (dir.dangling), node pointers in the owner's tree (not
 * the xattr nid, which the inode fixes own).
 */
bool rp_blocks_free_bad(struct rp *p)
{
	struct ck *ck = p->ck;
	struct ck_nid_iter it = { 0 };
	struct ck_nid *n;
	uint32_t nid;
	bool any = false;

	if ((ck->opt->confirm && p->answer != F2FS_ANSWER_PLAN) || p->answer == F2FS_ANSWER_NO ||
	    !answered(p, F2FS_PB_DIR_DANGLING))
		return false;
	while (ck_nid_next(ck, &it, &nid, &n)) {
		const struct ck_fix *f;

		if (!(n->flags & NR_BAD) || (n->flags & NR_UNREADABLE))
			continue;
		f = nat_free_of(ck, nid);
		if (!f || !p->fix[f->code])
			return false;
		any = true;
	}
	for (size_t e = 0; any && e < ck->edges.n; e++) {
		const struct ck_nid *c = ck_nid_find(ck, ck->edges.v[e].child);

		if (ck->edges.v[e].xattr && c && (c->flags & NR_BAD) && !(c->flags & NR_UNREADABLE))
			return false;
	}
	for (size_t i = 0; any && i < ck->fixes.n; i++) {
		const struct ck_fix *f = &ck->fixes.v[i];
		const struct ck_nid *c = f->op == FX_NODE_PTR ? ck_nid_find(ck, f->value) : NULL;

		if (c && (c->flags & NR_BAD) && !applicable(p, f))
			return false;
	}
	return any;
}

bool rp_blocks_decide(struct rp *p)
{
	static const enum f2fs_problem_code mine[] = {
		F2FS_PB_BLOCK_MULTIPLY_OWNED, F2FS_PB_NODE_UNREACHABLE,
		F2FS_PB_DATA_ADDR_OUT_OF_RANGE, F2FS_PB_DATA_SEGMENT_TYPE,
		F2FS_PB_NODE_CHILD_MISSING, F2FS_PB_NODE_WRONG_OWNER, F2FS_PB_NODE_BAD_OFFSET,
		F2FS_PB_NODE_MULTIPLE_PARENTS, F2FS_PB_NAT_ADDR_OUT_OF_RANGE,
		F2FS_PB_NAT_DUPLICATE_BLOCK, F2FS_PB_NODE_FOOTER_NID,
	};
	struct ck *ck = p->ck;
	bool before[sizeof(mine) / sizeof(mine[0])], left = false;

	for (size_t k = 0; k < sizeof(mine) / sizeof(mine[0]); k++)
		before[k] = p->fix[mine[k]];
	f2fs_sort_u64(ck->lost.v, ck->lost.n);
	veto_unapplicable(p, true);
	/* freeing a stray node that owned a block first frees the block:
	 * only with the other owner's clone */
	if (!needs(p, F2FS_PB_BLOCK_MULTIPLY_OWNED))
		p->fix[F2FS_PB_NODE_UNREACHABLE] = false;
	veto_unapplicable(p, false);
	/* nodes with a bad footer: freed all or none (rp_blocks_free_bad) */
	for (size_t i = 0; !p->free_bad && i < ck->fixes.n; i++) {
		const struct ck_fix *f = &ck->fixes.v[i];

		if (f->op == FX_NAT_FREE && ck_nid_find(ck, f->value))
			p->fix[f->code] = false;
	}
	/* a nid is freed only with every pointer naming it: directory
	 * entries, node pointers, the xattr nid */
	if (!needs(p, F2FS_PB_DIR_DANGLING) || !needs(p, F2FS_PB_NODE_CHILD_MISSING) ||
	    !needs(p, F2FS_PB_INODE_XATTR_NID)) {
		p->fix[F2FS_PB_NAT_ADDR_OUT_OF_RANGE] = false;
		p->fix[F2FS_PB_NAT_DUPLICATE_BLOCK] = false;
	}
	for (size_t k = 0; k < sizeof(mine) / sizeof(mine[0]); k++)
		if (before[k] && !p->fix[mine[k]] && ck->r->count[mine[k]])
			left = true;
	return left;
}

/* ---- the fixes ------------------------------------------------------------------ */

/* Inode ino has one block fewer. */
static int lose_block(struct rp *p, uint32_t ino)
{
	struct f2fs_node *in = rp_node(p, ino);

	if (!in)
		return err_code(p);
	in->i.i_blocks = le64_put(le64_get(in->i.i_blocks) - 1);
	return 0;
}

static int clear_data(struct rp *p, const struct ck_fix *f)
{
	struct f2fs_error keep = *p->ck->err;
	struct f2fs_node *nd;
	uint64_t fofs = 0, end = UINT64_MAX;
	int ret;

	/* the block it was in the file (the whole file when the walk back
	 * to the pointer fails) is a hole now */
	if (!file_block(p, f, &fofs))
		end = fofs + 1;
	else
		*p->ck->err = keep, fofs = 0;
	ret = rp_extent_drop(p, f->ino, fofs, end);
	if (ret)
		return ret;
	nd = rp_node(p, f->value);
	if (!nd)
		return err_code(p);
	if (f->value == f->ino)
		f2fs_inode_set_addr(&nd->i, f->slot, F2FS_NULL_ADDR);
	else
		nd->dn.addr[f->slot] = le32_put(F2FS_NULL_ADDR);
	return lose_block(p, f->ino);
}

/* The node at offset ofs of inode ino's tree is cut off: the file blocks
 * it mapped are holes now. */
static int drop_subtree_extent(struct rp *p, uint32_t ino, uint32_t ofs)
{
	struct f2fs_node buf;
	const struct f2fs_node *in = rp_node_peek(p, ino, &buf);
	enum f2fs_node_kind kind = f2fs_node_kind(ofs);
	uint64_t start;

	if (!in)
		return err_code(p);
	if (kind != F2FS_NODE_DIRECT && kind != F2FS_NODE_INDIRECT && kind != F2FS_NODE_DOUBLE)
		return rp_extent_drop(p, ino, 0, UINT64_MAX);
	start = f2fs_node_start_bidx(ofs, f2fs_inode_addrs(&in->i, p->ck->features));
	return rp_extent_drop(p, ino, start,
			      start + f2fs_node_span((uint32_t)kind - F2FS_NODE_DIRECT));
}

static int clear_node_ptr(struct rp *p, const struct ck_fix *f)
{
	uint32_t pnid, slot;
	struct f2fs_node *nd;
	int ret = parent_of(p, f->ino, (uint32_t)f->fofs, f->value, &pnid, &slot);

	if (ret)
		return ret;
	if (!(nd = rp_node(p, pnid)))
		return err_code(p);
	if (pnid == f->ino)
		nd->i.i_nid[slot] = 0;
	else
		nd->in.nid[slot] = 0;
	return drop_subtree_extent(p, f->ino, (uint32_t)f->fofs);
}

static int free_nat(struct rp *p, uint32_t nid)
{
	struct ck_nid *n = ck_nid_find(p->ck, nid);
	struct f2fs_nat_info ni;
	int ret = f2fs_nat_lookup(p->ck->fs, nid, &ni, NULL, p->ck->err);

	if (ret)
		return ret;
	/* a nid in use whose block is no usable node (its footer): counted
	 * among the nodes, and its block among those in use */
	if (n) {
		if (!p->free_bad)
			return 0;
		p->freed++;
		if (ni.ino == nid)
			p->inodes_delta--;
		rp_release(p, n->blkaddr);
	}
	p->used[nid / F2FS_NAT_ENTRY_PER_BLOCK]--;
	/* a new node took the nid (rp_nid_reusable): its entry replaces this */
	if (rp_stage_find(p, nid) && rp_stage_find(p, nid)->fresh)
		return 0;
	return rp_stage_nat(p, &(struct f2fs_nat_dirty){ nid, 0, F2FS_NULL_ADDR,
							 (uint8_t)(ni.version + 1) });
}

static int apply(struct rp *p, const struct ck_fix *f)
{
	uint64_t fofs;
	int ret;

	switch (f->op) {
	case FX_CLONE:
	case FX_HOLE:
	case FX_MOVE:
		/* a stray node's pointers went with the node (free_strays,
		 * which also took its NR_READ) */
		if (f->value != f->ino && !(ck_nid_find(p->ck, f->value)->flags & NR_REACHED))
			return 0;
		if (f->op == FX_HOLE)
			return clear_data(p, f);
		ret = file_block(p, f, &fofs);
		if (!ret && !(f->op == FX_CLONE ? rp_data_clone(p, f->ino, fofs) :
						  rp_data(p, f->ino, fofs)))
			ret = err_code(p);
		return ret;
	case FX_NODE_PTR:
		return clear_node_ptr(p, f);
	case FX_NAT_FREE:
		return free_nat(p, f->value);
	}
	return 0;
}

/* ---- i_blocks of the files whose node pointers were cleared ------------------- */

/*
 * A pointer to a node not in use, of another inode or at another offset
 * made the check leave the inode's i_blocks unchecked (what such a node
 * holds is not known). With every such pointer cleared, the blocks counted
 * are all the file has, unless something else kept it from being counted:
 * a broken inode, a compressed file whose clusters cannot be counted, a
 * node that could not be read.
 */
static bool uncounted_code(uint8_t code)
{
	return code == F2FS_PB_NODE_CHILD_MISSING || code == F2FS_PB_NODE_WRONG_OWNER ||
	       code == F2FS_PB_NODE_BAD_OFFSET;
}

static bool countable(struct rp *p, uint32_t ino, const struct ck_nid *in)
{
	struct ck *ck = p->ck;
	struct f2fs_node buf;
	const struct f2fs_node *nd;

	if (in->state & (IR_BROKEN | IR_BIG_IBLOCKS))
		return false;
	for (size_t i = 0; i < ck->fixes.n; i++) {
		const struct ck_fix *f = &ck->fixes.v[i];

		if (f->ino == ino && uncounted_code(f->code) && !p->fix[f->code])
			return false;
	}
	for (size_t e = 0; e < ck->edges.n; e++) {
		const struct ck_edge *ed = &ck->edges.v[e];
		const struct ck_nid *c;

		if (ed->owner != ino)
			continue;
		c = ck_nid_find(ck, ed->child);
		if (c && (c->flags & NR_UNREADABLE))
			return false;
		/* the xattr nid is the inode fixes' (inode.xattr_nid) */
		if (ed->xattr && (!c || !(c->flags & NR_READ) || ck_nid_ino(ck, c, ed->child) != ino))
			return false;
	}
	nd = rp_node_peek(p, ino, &buf);
	return nd && !f2fs_inode_compressed(&nd->i, ck->features);
}

static int recount(struct rp *p, uint32_t ino)
{
	struct ck *ck = p->ck;
	struct ck_nid *in = ck_inode(ck, ino);
	struct f2fs_node *nd;
	int32_t diff;

	if (!in || !(in->flags & NR_READ) || !(in->state & IR_NOCOUNT) || !countable(p, ino, in))
		return 0;
	diff = (int32_t)ck_cnt(ck, in, CK_BDIFF);
	if (!diff)
		return 0;
	if (!(nd = rp_node(p, ino)))
		return err_code(p);
	nd->i.i_blocks = le64_put(le64_get(nd->i.i_blocks) - (uint64_t)(int64_t)diff);
	return ck_cnt_set(ck, in, CK_BDIFF, 0);
}

int rp_blocks(struct rp *p)
{
	const struct ck *ck = p->ck;
	F2FS_VEC(uint64_t) inos = { 0 };
	int ret = 0;

	for (size_t i = 0; i < ck->fixes.n && !ret; i++) {
		const struct ck_fix *f = &ck->fixes.v[i];

		if (!is_block_op(f->op) || !p->fix[f->code])
			continue;
		ret = apply(p, f);
		if (!ret && f->op == FX_NODE_PTR && uncounted_code(f->code) &&
		    f2fs_vec_push(&inos, f->ino))
			ret = f2fs_fail(ck->err, -ENOMEM, "out of memory for the repair");
	}
	f2fs_sort_u64(inos.v, inos.n);
	for (size_t i = 0; i < inos.n && !ret; i++)
		if (!i || inos.v[i] != inos.v[i - 1])
			ret = recount(p, (uint32_t)inos.v[i]);
	f2fs_vec_free(&inos);
	return ret;
}
