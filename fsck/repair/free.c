/*
 * Freeing an inode with all it holds, as its eviction in the kernel would:
 * its data blocks, its nodes (direct, indirect, the xattr node), the
 * inode's NAT entry; the counts follow, and its quota charge (the inode
 * is not staged: rp_quota_usage finds it in p.gone). Used for the
 * orphan list (orphans.c) and for a left-over quota file
 * (sb.c). An inode is freed only where everything it holds is known
 * to be its own: not when the scan could not follow some node (the blocks
 * behind it are unknown), nor when some block is owned twice (freeing it
 * would free the other owner's), nor a compressed file (its clusters'
 * counts), nor a directory that still has entries, nor an inode another
 * fix edits; nor when the quota files, which must drop its charge, cannot
 * be rebuilt.
 */
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/fs/dir.h>
#include <f2fs/fs/nat.h>

#include "../check/passes.h"
#include "repair_int.h"

#include <errno.h>

/* Can the quota files drop what freed inodes were charged? */
static bool quota_follows(struct rp *p)
{
	struct ck *ck = p->ck;
	uint8_t was = ck->quota_bad;
	bool ok;

	if (!(ck->features & F2FS_FEATURE_QUOTA_INO))
		return true;
	for (int q = 0; q < F2FS_MAX_QUOTAS; q++)
		if (ck_quota_active(ck, q))
			ck->quota_bad |= (uint8_t)(1u << q);
	ok = rp_quota_rebuildable(p);
	ck->quota_bad = was;
	return ok;
}

bool rp_may_free(struct rp *p)
{
	return !p->incomplete && !p->ck->r->count[F2FS_PB_BLOCK_MULTIPLY_OWNED] &&
	       quota_follows(p);
}

static int count_entry(const struct f2fs_dirent *de, void *arg)
{
	bool dots = de->name[0] == '.' && (de->name_len == 1 ||
					   (de->name_len == 2 && de->name[1] == '.'));

	if (!dots)
		++*(uint32_t *)arg;
	return 0;
}

static bool fixed_elsewhere(const struct ck *ck, uint32_t ino)
{
	for (size_t i = 0; i < ck->fixes.n; i++)
		if (ck->fixes.v[i].ino == ino)
			return true;
	return false;
}

static bool may_free(struct rp *p, uint32_t ino, const struct ck_nid *in, const struct f2fs_node *nd)
{
	struct ck *ck = p->ck;
	struct f2fs_error e = { 0 };
	uint32_t entries = 0;

	if (!(in->flags & NR_READ) || (in->state & (IR_BROKEN | IR_NOCOUNT | IR_BIG_IBLOCKS)) ||
	    f2fs_inode_compressed(&nd->i, ck->features) || rp_nid_taken(p, ino) ||
	    fixed_elsewhere(ck, ino))
		return false;
	if (!ck_is_dir(in))
		return true;
	return f2fs_dir_foreach(ck->fs, ino, count_entry, &entries, &e) == 0 && !entries;
}

/* A node of inode ino the inode points to: freed with what it holds. */
static int free_child(struct rp *p, uint32_t ino, uint32_t nid)
{
	struct ck *ck = p->ck;
	struct ck_nid *n = nid ? ck_nid_find(ck, nid) : NULL;

	if (!n || (n->flags & NR_INODE) || ck_nid_ino(ck, n, nid) != ino)
		return 0;
	return rp_free_node(p, nid);
}

static void release_addr(struct rp *p, uint32_t a)
{
	struct ck *ck = p->ck;

	if (a == F2FS_NEW_ADDR && p->new_addrs)
		p->new_addrs--;
	else if (ck_in_main(ck, a))
		f2fs_msb_clear(p->owned, a - ck->main_blkaddr);
}

/* Free inode ino as its eviction would. */
static int free_inode(struct rp *p, uint32_t ino, struct ck_nid *in, const struct f2fs_node *nd)
{
	struct ck *ck = p->ck;
	uint8_t ft = ck_ftype(in);
	struct f2fs_nat_info ni;
	int ret = 0;

	if (f2fs_vec_push(&p->gone, ino))
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for the repair");
	if (!(nd->i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)) &&
	    ft != F2FS_FT_CHRDEV && ft != F2FS_FT_BLKDEV) {
		uint32_t addrs = f2fs_inode_addrs(&nd->i, ck->features);

		for (uint32_t k = 0; k < addrs; k++)
			release_addr(p, f2fs_inode_get_addr(&nd->i, k));
		for (int k = 0; k < F2FS_DEF_NIDS_PER_INODE && !ret; k++)
			ret = free_child(p, ino, le32_get(nd->i.i_nid[k]));
	}
	if (!ret)
		ret = free_child(p, ino, le32_get(nd->i.i_xattr_nid));
	if (!ret)
		ret = f2fs_nat_lookup(ck->fs, ino, &ni, NULL, ck->err);
	if (ret)
		return ret;
	f2fs_msb_clear(p->owned, in->blkaddr - ck->main_blkaddr);
	f2fs_msb_clear(p->nodemap, in->blkaddr - ck->main_blkaddr);
	in->flags &= (uint8_t)~NR_READ;   /* gone: no later fix looks at it */
	p->freed++;
	p->inodes_delta--;
	return rp_stage_nat_free(p, ino, ni.version);
}

int rp_free_inode(struct rp *p, uint32_t ino, bool *freed)
{
	struct ck *ck = p->ck;
	struct ck_nid *in = ck_inode(ck, ino);
	struct f2fs_node buf;
	const struct f2fs_node *nd;
	int ret;

	*freed = false;
	if (!in)
		return 0;
	nd = rp_node_peek(p, ino, &buf);
	if (!nd)
		return ck->err->code ? ck->err->code : -EIO;
	if (!may_free(p, ino, in, nd))
		return 0;
	ret = free_inode(p, ino, in, nd);
	*freed = !ret;
	return ret;
}
