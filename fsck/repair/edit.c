/*
 * The repair's edits of nodes and file blocks. A fix asks for a node or a
 * block of a file, changes it in memory and goes on; any number of fixes
 * may change the same one. Nothing is written in place: rp_edits_flush()
 * writes each changed block once, out of place into the logs, points its
 * owner at the new copy (a data block: a pointer of its node, which thus
 * changes too; a node: its NAT entry) and lets the old copy go. An inode
 * gets its checksum last, after every fix had its say.
 */
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/format/node_ofs.h>
#include <f2fs/fs/nat.h>

#include "../check/passes.h"
#include "repair_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static struct rp_edata *edata_find(struct rp *p, uint32_t ino, uint64_t fofs)
{
	for (size_t i = 0; i < p->edata.n; i++)
		if (p->edata.v[i].ino == ino && p->edata.v[i].fofs == fofs)
			return &p->edata.v[i];
	return NULL;
}

static int no_memory(struct rp *p)
{
	return f2fs_fail(p->ck->err, -ENOMEM, "out of memory for the repair's edits");
}

/* The staged node nid, ready to read or edit: a node the recovery freed is
 * wanted again; one flushed already can take no more edits. */
static struct rp_snode *staged(struct rp *p, uint32_t nid)
{
	struct rp_snode *s = rp_stage_find(p, nid);

	return s && !rp_stage_ready(p, s) ? s : NULL;
}

const struct f2fs_node *rp_node_peek(struct rp *p, uint32_t nid, struct f2fs_node *buf)
{
	const struct ck_nid *n;

	if (rp_stage_find(p, nid)) {
		struct rp_snode *s = staged(p, nid);

		return s ? s->blk : NULL;
	}
	n = ck_nid_find(p->ck, nid);
	if (!n || !(n->flags & NR_READ)) {
		f2fs_fail(p->ck->err, -ENOENT, "node %u is not in use", nid);
		return NULL;
	}
	if (f2fs_fs_read_block(p->ck->fs, n->blkaddr, buf, p->ck->err))
		return NULL;
	return buf;
}

struct f2fs_node *rp_node(struct rp *p, uint32_t nid)
{
	struct rp_snode *s;
	const struct ck_nid *n;

	if (rp_stage_find(p, nid)) {
		s = staged(p, nid);
	} else {
		n = ck_nid_find(p->ck, nid);
		if (!n || !(n->flags & NR_READ)) {
			f2fs_fail(p->ck->err, -ENOENT, "node %u is not in use", nid);
			return NULL;
		}
		/* its ino and NAT version as the flush finds them */
		s = rp_stage_read(p, nid, n->blkaddr, 0, 0, false);
	}
	if (!s)
		return NULL;
	s->edited = true;
	return s->blk;
}

bool rp_nid_taken(const struct rp *p, uint32_t nid)
{
	return rp_stage_find(p, nid) || f2fs_u32map_get(&p->nat_at, nid);
}

/* A nid the NAT has free and this repair has not touched. */
static int free_nid(struct rp *p, uint32_t *out)
{
	struct ck *ck = p->ck;

	for (uint32_t nid = p->nid_cursor ? p->nid_cursor : F2FS_ROOT_INO + 1; nid < ck->max_nid; nid++)
		if (!ck_nid_find(ck, nid) && !rp_nid_taken(p, nid)) {
			p->nid_cursor = nid + 1;
			*out = nid;
			return 0;
		}
	return f2fs_fail(ck->err, -F2FS_E_NO_SPACE, "no free node id left for the repair");
}

/* A zeroed node at nid, staged as new, its footer set. */
static struct f2fs_node *node_new(struct rp *p, uint32_t nid, uint32_t ino, uint32_t ofs)
{
	struct rp_snode *s = rp_stage_new(p, nid, ino, ofs, 0, false);

	if (!s)
		return NULL;
	if (!ino)
		p->inodes_delta++;
	return s->blk;
}

struct f2fs_node *rp_node_new(struct rp *p, uint32_t ino, uint32_t ofs, uint32_t *nid)
{
	if (free_nid(p, nid))
		return NULL;
	return node_new(p, *nid, ino, ofs);
}

bool rp_nid_reusable(const struct ck *ck, uint32_t nid)
{
	const struct ck_nid *n = ck_nid_find((struct ck *)ck, nid);

	if (!n)
		return true;
	if (n->flags & NR_READ)
		return false;
	for (size_t k = 0; k < ck->fixes.n; k++)
		if (ck->fixes.v[k].op == FX_NAT_FREE && ck->fixes.v[k].value == nid)
			return true;
	return false;
}

struct f2fs_node *rp_inode_new_at(struct rp *p, uint32_t nid)
{
	if (!rp_nid_reusable(p->ck, nid) || rp_nid_taken(p, nid)) {
		f2fs_fail(p->ck->err, -EEXIST, "node %u is in use", nid);
		return NULL;
	}
	return node_new(p, nid, 0, 0);
}

/* ---- file blocks ------------------------------------------------------------ */

/* A direct node for i_nid[k] of inode ino (k < 2: a new direct node hangs
 * off the inode itself). */
static int new_direct(struct rp *p, uint32_t ino, uint32_t k, uint32_t *nid)
{
	struct f2fs_node *in = rp_node(p, ino), *dn;

	if (!in)
		return p->ck->err->code ? p->ck->err->code : -EIO;
	if (f2fs_node_top_depth(k) != 0)
		return f2fs_fail(p->ck->err, -F2FS_E_NO_SPACE,
				 "inode %u: the repair adds blocks only where the inode's direct nodes reach",
				 ino);
	dn = rp_node_new(p, ino, f2fs_node_top_ofs(k), nid);
	if (!dn)
		return p->ck->err->code;
	in->i.i_nid[k] = le32_put(*nid);
	in->i.i_blocks = le64_put(le64_get(in->i.i_blocks) + 1);
	return 0;
}

int rp_block_owner(struct rp *p, uint32_t ino, uint64_t fofs, bool create, uint32_t *nid,
		   uint32_t *idx)
{
	struct ck *ck = p->ck;
	struct f2fs_node buf;
	const struct f2fs_node *nd = rp_node_peek(p, ino, &buf);
	struct f2fs_node_path path;
	uint32_t cur;

	if (!nd)
		return ck->err->code ? ck->err->code : -EIO;
	if (!f2fs_block_path(fofs, f2fs_inode_addrs(&nd->i, ck->features), &path))
		return f2fs_fail(ck->err, -EFBIG, "inode %u: block beyond the largest file", ino);
	if (path.levels == 0) {
		*nid = ino;
		*idx = path.slot[0];
		return 0;
	}
	cur = le32_get(nd->i.i_nid[path.slot[0]]);
	if (!cur) {
		int ret = create ? new_direct(p, ino, path.slot[0], &cur) : -ENOENT;

		if (ret)
			return ret == -ENOENT ? f2fs_fail(ck->err, ret, "inode %u: no node for block", ino) : ret;
	}
	for (uint32_t l = 1; l < path.levels; l++) {
		nd = rp_node_peek(p, cur, &buf);
		if (!nd)
			return ck->err->code ? ck->err->code : -EIO;
		cur = le32_get(nd->in.nid[path.slot[l]]);
		if (!cur)
			return f2fs_fail(ck->err, -ENOENT, "inode %u: no node at offset %u", ino,
					 path.ofs[l + 1]);
	}
	*nid = cur;
	*idx = path.slot[path.levels];
	return 0;
}

static uint32_t pointer_of(const struct f2fs_node *nd, uint32_t nid, uint32_t idx)
{
	if (le32_get(nd->footer.ino) == nid && !(le32_get(nd->footer.flag) >> F2FS_NODE_OFS_SHIFT))
		return f2fs_inode_get_addr(&nd->i, idx);
	return le32_get(nd->dn.addr[idx]);
}

static void set_pointer(struct f2fs_node *nd, uint32_t nid, uint32_t idx, uint32_t addr)
{
	if (le32_get(nd->footer.ino) == nid && !(le32_get(nd->footer.flag) >> F2FS_NODE_OFS_SHIFT))
		f2fs_inode_set_addr(&nd->i, idx, addr);
	else
		nd->dn.addr[idx] = le32_put(addr);
}

/* A block the file gains counts in its i_blocks. */
static struct f2fs_node *add_block(struct rp *p, uint32_t ino)
{
	struct f2fs_node *in = rp_node(p, ino);

	if (!in)
		return NULL;
	in->i.i_blocks = le64_put(le64_get(in->i.i_blocks) + 1);
	return in;
}

static uint8_t *data_get(struct rp *p, uint32_t ino, uint64_t fofs, bool create)
{
	struct ck *ck = p->ck;
	struct rp_edata *e = edata_find(p, ino, fofs);
	struct rp_edata x = { .ino = ino, .fofs = fofs };
	struct f2fs_node buf;
	const struct f2fs_node *nd;
	uint32_t nid, idx;

	if (e)
		return e->blk;
	if (rp_block_owner(p, ino, fofs, create, &nid, &idx))
		return NULL;
	nd = rp_node_peek(p, nid, &buf);
	if (!nd)
		return NULL;
	x.old = pointer_of(nd, nid, idx);
	x.blk = calloc(1, F2FS_BLKSIZE);
	if (!x.blk) {
		no_memory(p);
		return NULL;
	}
	/* a pointer outside the main area holds nothing (data.addr_out_of_range
	 * makes it a hole, lose_block balancing add_block): a new block may
	 * take its place */
	if (x.old == F2FS_NULL_ADDR || x.old == F2FS_NEW_ADDR || (create && !ck_in_main(ck, x.old))) {
		if (!create) {
			f2fs_fail(ck->err, -ENOENT, "inode %u: block %llu is a hole", ino,
				  (unsigned long long)fofs);
			goto fail;
		}
		x.fresh = true;
		/* a reservation counts in i_blocks already */
		if (x.old != F2FS_NEW_ADDR && !add_block(p, ino))
			goto fail;
	} else if (!ck_in_main(ck, x.old)) {
		f2fs_fail(ck->err, -EINVAL, "inode %u: block %llu is at %u, outside the main area",
			  ino, (unsigned long long)fofs, x.old);
		goto fail;
	} else if (create) {
		f2fs_fail(ck->err, -EEXIST, "inode %u: block %llu exists already", ino,
			  (unsigned long long)fofs);
		goto fail;
	} else if (f2fs_fs_read_block(ck->fs, x.old, x.blk, ck->err)) {
		goto fail;
	}
	if (f2fs_vec_push(&p->edata, x)) {
		no_memory(p);
		goto fail;
	}
	return x.blk;
fail:
	free(x.blk);
	return NULL;
}

const uint8_t *rp_data_peek(struct rp *p, uint32_t ino, uint64_t fofs, uint8_t *buf)
{
	struct rp_edata *e = edata_find(p, ino, fofs);
	struct f2fs_node nbuf;
	const struct f2fs_node *nd;
	uint32_t nid, idx, a;

	if (e)
		return e->blk;
	if (rp_block_owner(p, ino, fofs, false, &nid, &idx) || !(nd = rp_node_peek(p, nid, &nbuf)))
		return NULL;
	a = pointer_of(nd, nid, idx);
	if (!ck_in_main(p->ck, a)) {
		f2fs_fail(p->ck->err, -ENOENT, "inode %u: block %llu is not in the main area", ino,
			  (unsigned long long)fofs);
		return NULL;
	}
	return f2fs_fs_read_block(p->ck->fs, a, buf, p->ck->err) ? NULL : buf;
}

uint8_t *rp_data(struct rp *p, uint32_t ino, uint64_t fofs)
{
	return data_get(p, ino, fofs, false);
}

uint8_t *rp_data_new(struct rp *p, uint32_t ino, uint64_t fofs)
{
	return data_get(p, ino, fofs, true);
}

uint8_t *rp_data_clone(struct rp *p, uint32_t ino, uint64_t fofs)
{
	uint8_t *blk = data_get(p, ino, fofs, false);

	if (blk)
		edata_find(p, ino, fofs)->shared = true;
	return blk;
}

bool rp_data_forget(struct rp *p, uint32_t ino, uint64_t fofs)
{
	struct rp_edata *e = edata_find(p, ino, fofs);
	bool shared;

	if (!e)
		return false;
	shared = e->shared;
	free(e->blk);
	*e = p->edata.v[--p->edata.n];
	return shared;
}

bool rp_data_exists(struct rp *p, uint32_t ino, uint64_t fofs)
{
	struct f2fs_node buf;
	const struct f2fs_node *nd;
	uint32_t nid, idx, a;
	struct f2fs_error keep = *p->ck->err;

	if (edata_find(p, ino, fofs))
		return true;
	if (rp_block_owner(p, ino, fofs, false, &nid, &idx) || !(nd = rp_node_peek(p, nid, &buf))) {
		*p->ck->err = keep;   /* a missing node is a hole, not a failure */
		return false;
	}
	a = pointer_of(nd, nid, idx);
	return a != F2FS_NULL_ADDR && a != F2FS_NEW_ADDR && ck_in_main(p->ck, a);
}

/* ---- the largest extent ---------------------------------------------------------- */

/*
 * i_ext, the inode's largest extent, says that file blocks fofs to
 * fofs + len - 1 lie at blk onwards: the kernel reads those blocks from it
 * without looking at the pointers, and f2fs-tools' fsck wants it to match
 * the pointers exactly. Once the repair changes what any of those file
 * blocks are (a pointer set, cleared, or a node of the tree gone), the
 * extent no longer holds, and it is dropped, as the kernel drops it: a
 * zero length is always right.
 */
int rp_extent_drop(struct rp *p, uint32_t ino, uint64_t lo, uint64_t hi)
{
	struct ck *ck = p->ck;
	struct rp_snode *s = rp_stage_find(p, ino);
	struct f2fs_error keep = *ck->err;
	const struct ck_nid *n = ck_nid_find(ck, ino);
	struct f2fs_node buf, *in;
	const struct f2fs_node *nd;
	uint64_t fofs, len;

	/* an inode that goes, or none readable: no extent to keep right */
	if (s ? s->freed || !s->ino : !n || !(n->flags & NR_READ))
		return 0;
	nd = rp_node_peek(p, ino, &buf);
	if (!nd) {
		*ck->err = keep;
		return 0;
	}
	fofs = le32_get(nd->i.i_ext.fofs);
	len = le32_get(nd->i.i_ext.len);
	if (!len || hi <= fofs || lo >= fofs + len)
		return 0;
	in = rp_node(p, ino);
	if (!in)
		return ck->err->code ? ck->err->code : -EIO;
	memset(&in->i.i_ext, 0, sizeof(in->i.i_ext));
	return 0;
}

/* ---- the flush ----------------------------------------------------------------- */

static int flush_data(struct rp *p, struct rp_edata *e)
{
	uint32_t nid, idx, addr;
	uint8_t version;
	struct f2fs_node *owner;
	int ret = rp_block_owner(p, e->ino, e->fofs, false, &nid, &idx);

	if (!ret && !(owner = rp_node(p, nid)))
		ret = p->ck->err->code ? p->ck->err->code : -EIO;
	if (!ret)
		ret = rp_nat_version(p, nid, &version);
	if (!ret)
		ret = rp_place(p, F2FS_SEG_WARM_DATA, 1, &addr);
	if (ret)
		return ret;
	if (e->old == F2FS_NEW_ADDR && p->new_addrs)
		p->new_addrs--;
	else if (!e->fresh && !e->shared)
		rp_release(p, e->old);
	set_pointer(owner, nid, idx, addr);
	ret = rp_extent_drop(p, e->ino, e->fofs, e->fofs + 1);
	if (!ret)
		ret = rp_write(p, &(struct rp_placed){ addr, nid, (uint16_t)idx, version, false }, e->blk);
	free(e->blk);   /* written: memory back for what follows */
	e->blk = NULL;
	return ret;
}

int rp_edits_flush(struct rp *p)
{
	int ret = 0;

	for (size_t i = 0; i < p->edata.n && !ret; i++)
		ret = flush_data(p, &p->edata.v[i]);
	/* the data pointers above edit nodes: those go after */
	return ret ? ret : rp_stage_flush(p);
}

void rp_edits_free(struct rp *p)
{
	for (size_t i = 0; i < p->edata.n; i++)
		free(p->edata.v[i].blk);
	f2fs_vec_free(&p->edata);
	rp_stage_free(p);
}
