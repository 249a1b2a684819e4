/*
 * Checker, the largest extent. i_ext (file block fofs, len blocks at blk)
 * is a cache the kernel keeps in the inode: a read within it takes blk +
 * (offset - fofs) without looking at the pointers, and at load the kernel
 * refuses an inode whose extent's first or last block is no block of the
 * main area. So it must say what the pointers say: every file block from
 * fofs to fofs + len - 1 mapped, to consecutive blocks from blk on (the
 * rule f2fs-tools' fsck holds too, which also wants no extent at all in an
 * inline inode). A device, fifo or socket has none to judge.
 *
 * The part of the extent within i_addr is judged as the inode is read; a
 * part in direct nodes, only large files', is noted (ck.exts) and judged
 * against each direct node of that file as the sweep reads it (or, read
 * before its inode, read again after the walk), counting only the nodes
 * the tree reaches. A pointer elsewhere in the file to a block of the
 * extent would own it twice: block.multiply_owned, whose clone changes a
 * pointer, after which the repair drops the extent (rp_extent_drop).
 */
#include <f2fs/format/endian.h>
#include <f2fs/format/node_ofs.h>
#include <f2fs/util/sort.h>

#include "ck.h"
#include "passes.h"

#include <errno.h>
#include <stdlib.h>

static void report(struct ck *ck, uint32_t ino, const struct f2fs_extent *x, const char *why)
{
	ck_pb(ck, F2FS_PB_INODE_EXTENT,
	      AT(A_INO(ino), A_BLK(le32_get(x->blk)), A_FOUND(le32_get(x->len))),
	      "inode %u: largest extent (file block %u, %u block(s) at 0x%x) %s", ino,
	      le32_get(x->fofs), le32_get(x->len), le32_get(x->blk), why);
	if (ck_fix_add(ck, F2FS_PB_INODE_EXTENT, FX_EXTENT, ino, 0, 0, 0))
		ck->hook_nomem = 1;
}

void ck_extent_inode(struct ck *ck, uint32_t ino, const struct f2fs_inode *i, uint16_t type,
		     uint32_t extra, uint32_t addrs)
{
	const struct f2fs_extent *x = &i->i_ext;
	uint64_t fofs = le32_get(x->fofs), blk = le32_get(x->blk), len = le32_get(x->len);
	uint64_t end = fofs + len, in_inode;

	if (!len || type == F2FS_S_IFCHR || type == F2FS_S_IFBLK || type == F2FS_S_IFIFO ||
	    type == F2FS_S_IFSOCK)
		return;
	if (i->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)) {
		report(ck, ino, x, "in an inline inode");
		return;
	}
	if (!ck_in_main(ck, blk) || !ck_in_main(ck, blk + len - 1)) {
		report(ck, ino, x, "runs outside the main area");
		return;
	}
	if (end > f2fs_node_tree_blocks(addrs)) {
		report(ck, ino, x, "runs past the largest file");
		return;
	}
	in_inode = end < addrs ? end : addrs;
	for (uint64_t pg = fofs; pg < in_inode; pg++)
		if (le32_get(i->i_addr[extra + pg]) != blk + (pg - fofs)) {
			report(ck, ino, x, "does not match the file's block pointers");
			return;
		}
	if (end <= addrs)
		return;
	/* the rest lies in direct nodes */
	if (f2fs_vec_push(&ck->exts, ((struct ck_ext){ ino, addrs, (uint32_t)fofs, (uint32_t)blk,
						       (uint32_t)len, 0, 0 })) ||
	    f2fs_u32map_put(&ck->ext_at, ino, (uint32_t)ck->exts.n))
		ck->hook_nomem = 1;
}

/* The part of extent e (index k) a direct node at offset ofs maps: noted
 * with whether its pointers match. */
static int match_dnode(struct ck *ck, uint32_t k, uint32_t nid, uint32_t ofs,
		       const struct f2fs_node *nd)
{
	const struct ck_ext *e = &ck->exts.v[k];
	uint64_t start, lo, hi, end = (uint64_t)e->fofs + e->len;
	uint8_t ok = 1;

	if (f2fs_node_kind(ofs) != F2FS_NODE_DIRECT)
		return 0;
	start = f2fs_node_start_bidx(ofs, e->addrs);
	lo = start > e->fofs ? start : e->fofs;
	hi = start + F2FS_ADDRS_PER_BLOCK < end ? start + F2FS_ADDRS_PER_BLOCK : end;
	if (lo >= hi)
		return 0;
	for (uint64_t pg = lo; pg < hi && ok; pg++)
		ok = le32_get(nd->dn.addr[pg - start]) == e->blk + (pg - e->fofs);
	if (f2fs_vec_push(&ck->ext_nodes, ((struct ck_ext_node){ nid, k, (uint32_t)(hi - lo), ok })))
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for extents");
	return 0;
}

int ck_extent_dnode(struct ck *ck, uint32_t nid, uint32_t ino, uint32_t ofs,
		    const struct f2fs_node *nd, bool inode_read)
{
	uint32_t at;

	if (!inode_read)
		return f2fs_vec_push(&ck->ext_later, nid) ?
		       f2fs_fail(ck->err, -ENOMEM, "out of memory for extents") : 0;
	if (!ck->exts.n || !(at = f2fs_u32map_get(&ck->ext_at, ino)))
		return 0;
	return match_dnode(ck, at - 1, nid, ofs, nd);
}

static int later_cb(struct ck *ck, uint32_t item, uint32_t addr, const uint8_t *blk, void *arg)
{
	uint32_t nid = ck->ext_later.v[item];
	const struct ck_nid *n = ck_nid_find(ck, nid);

	(void)addr;
	(void)arg;
	if (!n)
		return 0;
	return match_dnode(ck, f2fs_u32map_get(&ck->ext_at, ck_nid_ino(ck, n, nid)) - 1, nid,
			   ck_nid_ofs(ck, n, nid), (const struct f2fs_node *)blk);
}

static int later_bad(struct ck *ck, uint32_t item, uint32_t addr, const struct f2fs_error *e,
		     void *arg)
{
	(void)ck;
	(void)item;
	(void)addr;
	(void)e;
	(void)arg;
	return 0;
}

/* A direct node read before its inode, which has an extent past i_addr:
 * read again (large files only). One that cannot be read is not counted,
 * and the extent then falls short. */
static int read_later(struct ck *ck)
{
	F2FS_VEC(uint64_t) keys = { 0 };
	int ret = 0;

	for (size_t k = 0; k < ck->ext_later.n && !ret; k++) {
		uint32_t nid = ck->ext_later.v[k];
		const struct ck_nid *n = ck_nid_find(ck, nid);

		if (n && (n->flags & NR_REACHED) && f2fs_u32map_get(&ck->ext_at, ck_nid_ino(ck, n, nid)) &&
		    f2fs_vec_push(&keys, (uint64_t)n->blkaddr << 32 | k))
			ret = f2fs_fail(ck->err, -ENOMEM, "out of memory for extents");
	}
	if (!ret && keys.n) {
		f2fs_sort_u64(keys.v, keys.n);
		ret = ck_read_sorted(ck, keys.v, keys.n, "extents", later_cb, later_bad, NULL);
	}
	f2fs_vec_free(&keys);
	return ret;
}

int ck_extent_check(struct ck *ck)
{
	int ret;

	if (!ck->exts.n)
		return 0;
	ret = read_later(ck);
	if (ret)
		return ret;
	for (size_t k = 0; k < ck->ext_nodes.n; k++) {
		const struct ck_ext_node *m = &ck->ext_nodes.v[k];
		const struct ck_nid *n = ck_nid_find(ck, m->nid);
		struct ck_ext *e = &ck->exts.v[m->ext];

		if (!n || !(n->flags & NR_REACHED) || ck_nid_ino(ck, n, m->nid) != e->ino)
			continue;
		if (!m->ok)
			e->bad = 1;
		e->matched += m->count;
	}
	for (size_t k = 0; k < ck->exts.n; k++) {
		const struct ck_ext *e = &ck->exts.v[k];
		uint64_t past = (uint64_t)e->fofs + e->len - (e->fofs > e->addrs ? e->fofs : e->addrs);
		struct f2fs_extent x = { le32_put(e->fofs), le32_put(e->blk), le32_put(e->len) };

		if (e->bad || e->matched != past)
			report(ck, e->ino, &x, "does not match the file's block pointers");
	}
	return ck->hook_nomem ? f2fs_fail(ck->err, -ENOMEM, "out of memory for extents") : 0;
}

void ck_extent_free(struct ck *ck)
{
	f2fs_vec_free(&ck->exts);
	f2fs_vec_free(&ck->ext_nodes);
	f2fs_vec_free(&ck->ext_later);
	f2fs_u32map_free(&ck->ext_at);
}
