/*
 * The roll-forward recovery's copies of nodes (roll/roll_int.h): each node it
 * changes is read once, or made (a new inode, a direct node the tree lacks,
 * an xattr node), found by nid or by its place in its inode's tree, and
 * edited in memory until the flush writes it out of place; and what the
 * recovery frees: blocks it replaces or truncates, and the inodes it
 * unlinks with their trees.
 */
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/format/node_ofs.h>
#include <f2fs/fs/nat.h>

#include "roll_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- stopping ---------------------------------------------------------- */

int rr_stop(struct rp_roll *r, const char *fmt, ...)
{
	va_list ap;

	if (r->why[0])
		return 0;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return 0;
}

int rr_nomem(struct rp_roll *r)
{
	return f2fs_fail(r->ck->err, -ENOMEM, "out of memory for the roll-forward recovery");
}

/* ---- nodes ------------------------------------------------------------- */

struct rp_snode *rr_node_get(struct rp_roll *r, uint32_t nid, int *ret)
{
	struct ck *ck = r->ck;
	struct rp_snode *n = rp_stage_find(r->p, nid);
	struct f2fs_nat_info ni;

	*ret = 0;
	if (n) {   /* one the recovery freed is read anew */
		*ret = rp_stage_ready(r->p, n);
		return *ret ? NULL : n;
	}
	if (!nid || nid >= ck->max_nid) {
		rr_stop(r, "a node the recovery needs has nid %u, out of range", nid);
		return NULL;
	}
	*ret = f2fs_nat_lookup(ck->fs, nid, &ni, NULL, ck->err);
	if (*ret)
		return NULL;
	if (!ck_in_main(ck, ni.blkaddr)) {
		rr_stop(r, "node %u, which the recovery edits, is not in use (NAT block 0x%x)",
			nid, ni.blkaddr);
		return NULL;
	}
	n = rp_stage_read(r->p, nid, ni.blkaddr, ni.ino, ni.version, true);
	if (!n) {
		*ret = ck->err->code ? ck->err->code : -EIO;
		return NULL;
	}
	if (le32_get(n->blk->footer.nid) != nid) {
		rr_stop(r, "node %u: its block 0x%x names nid %u", nid, ni.blkaddr,
			le32_get(n->blk->footer.nid));
		return NULL;
	}
	return n;
}

/* Is nid free for a node the recovery makes: unused under the checkpoint,
 * by the check's records and by the recovery itself? */
static int nid_free(struct rp_roll *r, uint32_t nid, bool *free_)
{
	struct f2fs_nat_info ni;
	int ret;

	*free_ = false;
	if (nid <= F2FS_ROOT_INO || nid >= r->ck->max_nid || rp_nid_taken(r->p, nid) ||
	    ck_nid_find(r->ck, nid))
		return 0;
	ret = f2fs_nat_lookup(r->ck->fs, nid, &ni, NULL, r->ck->err);
	if (!ret)
		*free_ = ni.blkaddr == F2FS_NULL_ADDR;
	return ret;
}

/* A new node (nid want when free, else the next free nid), zeroed, with
 * its footer; it counts for the node count and the inode's blocks. */
struct rp_snode *rr_new_node(struct rp_roll *r, uint32_t want, uint32_t ino, uint32_t ofs,
				bool dir, int *ret)
{
	struct ck *ck = r->ck;
	struct f2fs_nat_info ni;
	struct rp_snode *n;
	bool ok = false;
	uint32_t nid = want, tried = 0;

	*ret = want ? nid_free(r, want, &ok) : 0;
	while (!*ret && !ok) {
		if (tried++ >= ck->max_nid) {
			rr_stop(r, "no free nid for a node the recovery makes");
			return NULL;
		}
		nid = r->nid_hint++;
		if (r->nid_hint >= ck->max_nid)
			r->nid_hint = F2FS_ROOT_INO + 1;
		*ret = nid_free(r, nid, &ok);
	}
	if (*ret)
		return NULL;
	*ret = f2fs_nat_lookup(ck->fs, nid, &ni, NULL, ck->err);
	if (*ret)
		return NULL;
	n = rp_stage_new(r->p, nid, ino, ofs, ni.version, true);
	if (!n) {
		*ret = ck->err->code ? ck->err->code : -ENOMEM;
		return NULL;
	}
	n->dir = dir;
	if (ofs)
		*ret = rr_add_blocks(r, n->ino, 1);
	return *ret ? NULL : n;
}

void rr_free_node(struct rp_roll *r, struct rp_snode *n)
{
	rp_stage_drop(r->p, n);
}

int rr_add_blocks(struct rp_roll *r, uint32_t ino, int64_t delta)
{
	int ret;
	struct rp_snode *i = rr_node_get(r, ino, &ret);

	if (i)
		i->blk->i.i_blocks = le64_put((uint64_t)((int64_t)le64_get(i->blk->i.i_blocks) + delta));
	return ret;
}

uint32_t rr_ptr(const struct rp_snode *n, uint32_t pos)
{
	return n->ofs == 0 && n->nid == n->ino ? f2fs_inode_get_addr(&n->blk->i, pos) :
						 le32_get(n->blk->dn.addr[pos]);
}

void rr_set_ptr(struct rp_snode *n, uint32_t pos, uint32_t addr)
{
	if (n->ofs == 0 && n->nid == n->ino)
		f2fs_inode_set_addr(&n->blk->i, pos, addr);
	else
		n->blk->dn.addr[pos] = le32_put(addr);
}

/* The child at slot k of node parent (an inode's i_nid, or an indirect
 * node), which must sit at offset ofs; made when missing and alloc. */
static struct rp_snode *child(struct rp_roll *r, struct rp_snode *parent, bool in_inode,
			     uint32_t k, uint32_t ofs, uint32_t want, bool alloc, int *ret)
{
	uint32_t nid = le32_get(in_inode ? parent->blk->i.i_nid[k] : parent->blk->in.nid[k]);
	struct rp_snode *c;

	*ret = 0;
	if (!nid) {
		if (!alloc)
			return NULL;
		c = rr_new_node(r, want, parent->ino, ofs, parent->dir, ret);
		if (c && in_inode)
			parent->blk->i.i_nid[k] = le32_put(c->nid);
		else if (c)
			parent->blk->in.nid[k] = le32_put(c->nid);
		return c;
	}
	c = rr_node_get(r, nid, ret);
	if (c && (c->ofs != ofs || c->ino != parent->ino)) {
		rr_stop(r, "node %u of inode %u sits at offset %u where the tree wants %u: the kernel's recovery fails on it",
			nid, parent->ino, c->ofs, ofs);
		return NULL;
	}
	return c;
}

/* The node at the end of path in the tree of inode (made with the nodes
 * above it when missing and alloc; want: the nid to give it when made). */
static struct rp_snode *walk(struct rp_roll *r, struct rp_snode *inode,
			     const struct f2fs_node_path *path, uint32_t want, bool alloc, int *ret)
{
	struct rp_snode *n = inode;

	for (uint32_t l = 0; l < path->levels && n; l++)
		n = child(r, n, l == 0, path->slot[l], path->ofs[l + 1],
			  l + 1 == path->levels ? want : 0, alloc, ret);
	return n;
}

/* The direct node at offset ofs in the tree of inode (made with the path to
 * it when missing and alloc; want: the nid to give a new direct node). */
struct rp_snode *rr_locate(struct rp_roll *r, struct rp_snode *inode, uint32_t ofs,
			      uint32_t want, bool alloc, int *ret)
{
	struct f2fs_node_path path;

	*ret = 0;
	if (ofs == 0)
		return inode;
	if (f2fs_node_kind(ofs) != F2FS_NODE_DIRECT || !f2fs_node_path_of(ofs, &path)) {
		rr_stop(r, "a chain node of inode %u has offset %u, no direct node's", inode->nid, ofs);
		return NULL;
	}
	return walk(r, inode, &path, want, alloc, ret);
}

uint32_t rr_inode_addrs(const struct rp_roll *r, const struct rp_snode *inode)
{
	return f2fs_inode_addrs(&inode->blk->i, r->features);
}

struct rp_snode *rr_block_slot(struct rp_roll *r, struct rp_snode *inode, uint64_t idx,
			      bool alloc, uint32_t *pos, int *ret)
{
	struct f2fs_node_path path;

	*ret = 0;
	if (!f2fs_block_path(idx, rr_inode_addrs(r, inode), &path)) {
		rr_stop(r, "file block beyond what inode %u can map", inode->nid);
		return NULL;
	}
	*pos = path.slot[path.levels];
	return walk(r, inode, &path, 0, alloc, ret);
}

/* ---- blocks and inodes the recovery frees ------------------------------ */

/* addr stops being used (a pointer replaced or truncated). */
void rr_drop_block(struct rp_roll *r, uint32_t addr)
{
	struct rp *p = r->p;
	uint32_t at;

	if (addr == F2FS_NEW_ADDR) {
		if (p->new_addrs)
			p->new_addrs--;
		return;
	}
	if (!ck_in_main(r->ck, addr))
		return;
	at = f2fs_u32map_get(&r->own_at, addr);
	if (at)
		r->owns.v[at - 1].addr = 0;
	rp_release(p, addr);
	r->ck->r->roll.invalidated++;
}

static void drop_ptrs(struct rp_roll *r, struct rp_snode *n, uint32_t count)
{
	for (uint32_t k = 0; k < count; k++) {
		uint32_t a = rr_ptr(n, k);

		if (a == F2FS_NULL_ADDR)
			continue;
		rr_set_ptr(n, k, F2FS_NULL_ADDR);
		rr_drop_block(r, a);
	}
}

/* Node nid of inode ino, depth levels above its data (0: a direct node),
 * and everything under it. */
static int free_subtree(struct rp_roll *r, uint32_t nid, uint32_t ino, int depth)
{
	struct rp_snode *n;
	int ret;

	if (!nid)
		return 0;
	n = rr_node_get(r, nid, &ret);
	if (!n)
		return ret;
	if (n->ino != ino)
		return rr_stop(r, "node %u is not of inode %u, which the recovery frees", nid, ino);
	if (depth == 0)
		drop_ptrs(r, n, F2FS_ADDRS_PER_BLOCK);
	for (uint32_t k = 0; depth > 0 && k < F2FS_NIDS_PER_BLOCK && !r->why[0]; k++) {
		ret = free_subtree(r, le32_get(n->blk->in.nid[k]), ino, depth - 1);
		if (ret)
			return ret;
	}
	if (!r->why[0])
		rr_free_node(r, n);
	return 0;
}

int rr_drop_inode(struct rp_roll *r, struct rp_snode *in)
{
	uint32_t ino = in->nid, xnid = le32_get(in->blk->i.i_xattr_nid);
	uint32_t at = f2fs_u32map_get(&r->ino_at, ino);
	int ret = 0;

	if (le32_get(in->blk->i.i_flags) & F2FS_COMPR_FL)
		return rr_stop(r, "inode %u, whose name a recovered file takes, is compressed: its freeing is left to the kernel",
			       ino);
	if (!(in->blk->i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)))
		drop_ptrs(r, in, rr_inode_addrs(r, in));
	for (int k = 0; k < F2FS_DEF_NIDS_PER_INODE && !ret && !r->why[0]; k++)
		ret = free_subtree(r, le32_get(in->blk->i.i_nid[k]), ino,
				   (int)f2fs_node_top_depth((uint32_t)k));
	if (!ret && !r->why[0] && xnid) {
		struct rp_snode *x = rr_node_get(r, xnid, &ret);

		if (x)
			rr_free_node(r, x);
	}
	if (ret || r->why[0])
		return ret;
	rr_free_node(r, in);
	r->p->inodes_delta--;
	if (at)
		r->inos.v[at - 1].done = true;
	return 0;
}
