/*
 * The walk's records: per nid in use, per directory, and the lookups the
 * passes share. The passes that ride along the walk (quota, xattrs, names,
 * orphans) see the records only through the ck_rec_* functions, so that a
 * change of their layout touches this file and the walk alone.
 */
#include "ck.h"

#include <errno.h>
#include <stdlib.h>

struct ck_nid *ck_nid_find(struct ck *ck, uint32_t nid)
{
	uint64_t w;
	uint32_t idx;

	if (nid >= ck->max_nid || !ck->nid_used)
		return NULL;
	w = ck->nid_used[nid / 64];
	if (!((w >> (nid % 64)) & 1))
		return NULL;
	idx = ck->nid_rank[nid / 64] +
	      (uint32_t)__builtin_popcountll(w & ((1ull << (nid % 64)) - 1));
	return idx < ck->nids.n ? &ck->nids.v[idx] : NULL;
}

struct ck_nid *ck_inode(struct ck *ck, uint32_t ino)
{
	struct ck_nid *n = ck_nid_find(ck, ino);

	return n && (n->flags & NR_INODE) ? n : NULL;
}

int ck_nid_next(struct ck *ck, struct ck_nid_iter *it, uint32_t *nid, struct ck_nid **n)
{
	size_t words = ((size_t)ck->max_nid + 63) / 64;

	if (it->started)
		it->k++;
	it->started = 1;
	while (!it->bits) {
		if (it->w >= words || !ck->nid_used)
			return 0;
		it->bits = ck->nid_used[it->w++];
	}
	*nid = (it->w - 1) * 64 + (uint32_t)__builtin_ctzll(it->bits);
	it->bits &= it->bits - 1;
	*n = &ck->nids.v[it->k];
	return it->k < ck->nids.n;
}

int ck_add_blk(struct ck *ck, uint32_t addr, uint32_t nid, uint32_t idx, int node)
{
	if (f2fs_vec_push(&ck->blks, (struct ck_blk){ addr, nid, (uint16_t)idx, (uint8_t)node, 0 }))
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for block records");
	return 0;
}

int ck_queue_dblk(struct ck *ck, uint32_t addr, uint32_t nid, uint32_t idx, int inl)
{
	if (f2fs_vec_push(&ck->dblks, (struct ck_dblk){ addr, nid, (uint16_t)idx, (uint8_t)inl, 0 }))
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for directory blocks");
	return 0;
}

int ck_rec_inode(struct ck *ck, uint32_t ino, uint32_t *links, uint32_t *refs)
{
	const struct ck_nid *n = ck_inode(ck, ino);

	if (!n)
		return 0;
	*links = n->u.i.links;
	*refs = n->u.i.refs;
	return 1;
}

uint32_t ck_rec_node_owner(struct ck *ck, uint32_t nid)
{
	const struct ck_nid *n = ck_nid_find(ck, nid);

	return n ? ck_nid_ino(n, nid) : 0;
}

int ck_rec_unreadable(struct ck *ck, uint32_t nid)
{
	const struct ck_nid *n = ck_nid_find(ck, nid);

	return n && (n->flags & NR_UNREADABLE);
}

int ck_rec_set_orphan(struct ck *ck, uint32_t ino)
{
	struct ck_nid *n = ck_inode(ck, ino);
	int was;

	if (!n)
		return 0;
	was = (n->state & IR_ORPHAN) != 0;
	n->state |= IR_ORPHAN;
	return was;
}

int ck_rec_casefold(struct ck *ck, uint32_t dir)
{
	const struct ck_dir *d = ck_dir_of(ck, ck_inode(ck, dir));

	return d && (d->state & DR_CASEFOLD);
}

uint32_t ck_rec_xattr_node(struct ck *ck, uint32_t nid, uint32_t owner)
{
	const struct ck_nid *n = ck_nid_find(ck, nid);

	if (!n || !(n->flags & NR_READ) || !(n->flags & NR_REACHED) ||
	    ck_nid_ino(n, nid) != owner || ck_nid_ofs(n) != F2FS_XATTR_NODE_OFFSET)
		return 0;
	return n->blkaddr;
}

int ck_rec_foreach_bdiff(struct ck *ck, ck_rec_bdiff_fn fn, void *arg)
{
	struct ck_nid_iter it = { 0 };
	struct ck_nid *n;
	uint32_t nid;

	while (ck_nid_next(ck, &it, &nid, &n)) {
		int ret;

		if (!(n->flags & NR_INODE) || (n->state & (IR_NOCOUNT | IR_BIG_IBLOCKS)) ||
		    !n->u.i.bdiff)
			continue;
		ret = fn(ck, nid, (int32_t)n->u.i.bdiff, arg);
		if (ret)
			return ret;
	}
	return 0;
}

