/*
 * The walk's records: per nid in use, per directory, and the lookups the
 * passes share. The passes that ride along the walk (quota, xattrs, names,
 * orphans) see the records only through the ck_rec_* functions, so that a
 * change of their layout touches this file and the walk alone.
 */
#include <f2fs/format/endian.h>
#include <f2fs/util/sort.h>

#include "ck.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct ck_nid *ck_nid_find(struct ck *ck, uint32_t nid)
{
	uint64_t w;
	uint32_t idx;

	if (nid >= ck->max_nid || !ck->nid_used)
		return NULL;
	w = ck->nid_used[nid / 64];
	if (!((w >> (nid % 64)) & 1))
		return NULL;
	idx = ck->nid_base[nid / 64 / CK_RANK_SPAN] + ck->nid_rank[nid / 64] +
	      (uint32_t)__builtin_popcountll(w & ((1ull << (nid % 64)) - 1));
	return idx < ck->nids.n ? &ck->nids.v[idx] : NULL;
}

struct ck_nid *ck_inode(struct ck *ck, uint32_t ino)
{
	struct ck_nid *n = ck_nid_find(ck, ino);

	return n && (n->flags & NR_INODE) ? n : NULL;
}

/* Index of the first node record with a nid >= nid. */
static size_t node_at(const struct ck *ck, uint32_t nid)
{
	return f2fs_lower_bound_u32(ck->nodes.v, ck->nodes.n, sizeof(*ck->nodes.v),
				    offsetof(struct ck_node, nid), nid);
}

struct ck_node *ck_node_of(struct ck *ck, uint32_t nid)
{
	size_t k = node_at(ck, nid);

	return k < ck->nodes.n && ck->nodes.v[k].nid == nid ? &ck->nodes.v[k] : NULL;
}

struct ck_node *ck_node_put(struct ck *ck, uint32_t nid, uint32_t ino)
{
	size_t k = node_at(ck, nid);

	if (k == ck->nodes.n || ck->nodes.v[k].nid != nid) {
		if (f2fs_vec_reserve(&ck->nodes, ck->nodes.n + 1))
			return NULL;
		memmove(&ck->nodes.v[k + 1], &ck->nodes.v[k],
			(ck->nodes.n - k) * sizeof(*ck->nodes.v));
		ck->nodes.n++;
	}
	ck->nodes.v[k] = (struct ck_node){ nid, ino, 0, 0 };
	return &ck->nodes.v[k];
}

static int dir_less(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return ((const struct ck_dir *)a)->nid < ((const struct ck_dir *)b)->nid;
}

void ck_dirs_sort(struct ck *ck)
{
	f2fs_sort(ck->dirs.v, ck->dirs.n, sizeof(*ck->dirs.v), dir_less, NULL);
}

struct ck_dir *ck_dir_of(struct ck *ck, const struct ck_nid *n, uint32_t nid)
{
	size_t lo;

	if (!ck_is_dir(n))
		return NULL;
	lo = f2fs_lower_bound_u32(ck->dirs.v, ck->dirs.n, sizeof(*ck->dirs.v),
				  offsetof(struct ck_dir, nid), nid);
	return lo < ck->dirs.n && ck->dirs.v[lo].nid == nid ? &ck->dirs.v[lo] : NULL;
}

uint32_t ck_parent(struct ck *ck, const struct ck_nid *n, uint32_t nid)
{
	const struct ck_dir *d = ck_dir_of(ck, n, nid);
	size_t lo;

	if (d)
		return d->parent;
	lo = f2fs_lower_bound_hi32(ck->fparents.v, ck->fparents.n, nid);
	return lo < ck->fparents.n && (uint32_t)(ck->fparents.v[lo] >> 32) == nid ?
	       (uint32_t)ck->fparents.v[lo] : 0;
}

uint16_t ck_inode_mode(struct ck *ck, const struct ck_nid *n)
{
	/* F2FS_FT_* to the i_mode type bits */
	static const uint16_t ifmt[8] = {
		0, F2FS_S_IFREG, F2FS_S_IFDIR, F2FS_S_IFCHR, F2FS_S_IFBLK, F2FS_S_IFIFO,
		F2FS_S_IFSOCK, F2FS_S_IFLNK,
	};
	struct f2fs_node nd;
	struct f2fs_error e;

	if (f2fs_fs_read_block(ck->fs, n->blkaddr, &nd, &e))
		return ifmt[ck_ftype(n) & 7];
	return le16_get(nd.i.i_mode);
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
	*links = ck_cnt(ck, n, CK_LINKS);
	*refs = ck_cnt(ck, n, CK_REFS);
	return 1;
}

uint32_t ck_rec_node_owner(struct ck *ck, uint32_t nid)
{
	const struct ck_nid *n = ck_nid_find(ck, nid);

	return n ? ck_nid_ino(ck, n, nid) : 0;
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
	const struct ck_dir *d = ck_dir_of(ck, ck_inode(ck, dir), dir);

	/* an encrypted name is cipher text: it is compared as stored */
	return d && (d->state & DR_CASEFOLD) && !(d->state & DR_ENCRYPTED);
}

int ck_rec_encrypted(struct ck *ck, uint32_t dir)
{
	const struct ck_dir *d = ck_dir_of(ck, ck_inode(ck, dir), dir);

	return d && (d->state & DR_ENCRYPTED);
}

uint32_t ck_rec_xattr_node(struct ck *ck, uint32_t nid, uint32_t owner)
{
	const struct ck_nid *n = ck_nid_find(ck, nid);

	if (!n || !(n->flags & NR_READ) || !(n->flags & NR_REACHED) ||
	    ck_nid_ino(ck, n, nid) != owner || ck_nid_ofs(ck, n, nid) != F2FS_XATTR_NODE_OFFSET)
		return 0;
	return n->blkaddr;
}

static uint32_t bdiff_of(struct ck *ck, const struct ck_nid *n)
{
	if (!(n->flags & NR_INODE) || (n->flags & NR_XATTR_BAD) ||
	    (n->state & (IR_NOCOUNT | IR_BIG_IBLOCKS)))
		return 0;
	return ck_cnt(ck, n, CK_BDIFF);
}

int ck_rec_foreach_bdiff(struct ck *ck, ck_rec_bdiff_fn fn, void *arg)
{
	struct ck_nid_iter it = { 0 };
	struct ck_nid *n;
	uint32_t nid;

	while (ck_nid_next(ck, &it, &nid, &n)) {
		uint32_t bdiff = bdiff_of(ck, n);
		int ret;

		if (!bdiff)
			continue;
		ret = fn(ck, nid, (int32_t)bdiff, arg);
		if (ret)
			return ret;
	}
	return 0;
}

int64_t ck_rec_bdiff(struct ck *ck, uint32_t ino)
{
	const struct ck_nid *n = ck_nid_find(ck, ino);

	return n ? (int32_t)bdiff_of(ck, n) : 0;
}


int ck_fix_add(struct ck *ck, enum f2fs_problem_code code, enum ck_fix_op op, uint32_t ino,
	       uint64_t fofs, uint32_t slot, uint32_t value)
{
	struct ck_fix f = { ino, value, fofs, (uint16_t)slot, (uint8_t)op, (uint8_t)code };

	if (f2fs_vec_push(&ck->fixes, f))
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for entries to fix");
	return 0;
}
