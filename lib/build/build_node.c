/* Image builder: inodes and the direct/indirect nodes mapping their blocks. */
#include "build.h"

#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>

#include <string.h>

#define APB F2FS_ADDRS_PER_BLOCK
#define NPB F2FS_NIDS_PER_BLOCK

static int write_block_in_log(struct bld *b, struct f2fs_node *n, uint32_t nid,
			      uint32_t ino, uint32_t ofs, bool dir,
			      enum f2fs_seg_type log, uint32_t *blkaddr)
{
	int ret = bld_alloc_block(b, log, nid, 0, blkaddr);

	if (ret)
		return ret;
	f2fs_node_footer_set(n, nid, ino, ofs, dir ? 0 : F2FS_NODE_COLD, b->cp_ver,
			     *blkaddr + 1);
	b->valid_nodes++;
	return bld_set_nat(b, nid, ino, *blkaddr);
}

int bld_write_node(struct bld *b, struct f2fs_node *n, uint32_t nid, uint32_t ino,
		   uint32_t ofs, bool dir, enum f2fs_seg_type log)
{
	uint32_t blkaddr;
	int ret = write_block_in_log(b, n, nid, ino, ofs, dir, log, &blkaddr);

	return ret ? ret : bld_write(b, blkaddr, n);
}

int bld_write_inode(struct bld *b, struct f2fs_node *n, uint32_t ino, bool dir,
		    enum f2fs_seg_type log)
{
	uint32_t blkaddr;
	int ret = write_block_in_log(b, n, ino, ino, 0, dir, log, &blkaddr);

	if (ret)
		return ret;
	b->valid_inodes++;
	f2fs_inode_seal(n, b->features, b->crc_seed);
	return bld_write(b, blkaddr, n);
}

void bld_file_start(struct bld_file *f, struct bld *b, struct f2fs_node *inode,
		    uint32_t ino, bool dir)
{
	memset(f, 0, sizeof(*f));
	f->b = b;
	f->inode = inode;
	f->ino = ino;
	f->dir = dir;
	f->addrs = f2fs_inode_addrs(&inode->i, b->features);
}

static enum f2fs_seg_type dnode_log(const struct bld_file *f)
{
	return f->dir ? F2FS_SEG_HOT_NODE : F2FS_SEG_WARM_NODE;
}

static int close_node(struct bld_file *f, struct bld_open_node *n, bool direct)
{
	int ret;

	if (!n->open)
		return 0;
	n->open = false;
	f->node_blocks++;
	ret = bld_write_node(f->b, &n->blk, n->nid, f->ino, n->ofs, f->dir,
			     direct ? dnode_log(f) : F2FS_SEG_COLD_NODE);
	return ret;
}

/* Open node n as (key, ofs) under a parent pointer slot; closes the old one. */
static int open_node(struct bld_file *f, struct bld_open_node *n, bool direct,
		     uint64_t key, uint32_t ofs, void *parent_slot)
{
	int ret;

	if (n->open && n->key == key)
		return 0;
	ret = close_node(f, n, direct);
	if (ret)
		return ret;
	memset(&n->blk, 0, sizeof(n->blk));
	n->nid = bld_alloc_nid(f->b);
	if (!n->nid)
		return f->b->err->code;
	n->key = key;
	n->ofs = ofs;
	n->open = true;
	le32_store(parent_slot, n->nid);
	return 0;
}

/* The direct node for block idx (idx counted past the inode's pointers). */
static int open_direct_for(struct bld_file *f, uint64_t i, uint16_t *ofs)
{
	uint8_t *nids = (uint8_t *)f->inode->i.i_nid;
	int ret;

	*ofs = (uint16_t)(i % APB);
	if (i < 2 * (uint64_t)APB)      /* direct 1 and 2: node offsets 1, 2 */
		return open_node(f, &f->dn, true, i / APB, 1 + (uint32_t)(i / APB),
				 nids + 4 * (i / APB));
	i -= 2 * (uint64_t)APB;
	if (i < 2 * (uint64_t)APB * NPB) {   /* under indirect 1 or 2 */
		uint32_t which = (uint32_t)(i / ((uint64_t)APB * NPB));
		uint32_t k = (uint32_t)(i / APB % NPB);
		uint32_t base = which == 0 ? 3 : 4 + NPB;

		ret = open_node(f, &f->in, false, which, base, nids + 4 * (2 + which));
		if (ret)
			return ret;
		return open_node(f, &f->dn, true, 2 + i / APB, base + 1 + k,
				 (uint8_t *)f->in.blk.in.nid + 4 * k);
	}
	i -= 2 * (uint64_t)APB * NPB;
	{
		uint32_t j = (uint32_t)(i / ((uint64_t)APB * NPB));
		uint32_t k = (uint32_t)(i / APB % NPB);
		uint32_t dbase = 5 + 2 * NPB;

		ret = open_node(f, &f->din, false, 0, dbase, nids + 16);
		if (!ret)
			ret = open_node(f, &f->in, false, 2 + j, dbase + 1 + j * (NPB + 1),
					(uint8_t *)f->din.blk.in.nid + 4 * j);
		if (ret)
			return ret;
		return open_node(f, &f->dn, true, 2 + 2 * (uint64_t)NPB + i / APB,
				 dbase + 2 + j * (NPB + 1) + k, (uint8_t *)f->in.blk.in.nid + 4 * k);
	}
}

int bld_file_slot(struct bld_file *f, uint64_t idx, uint32_t *nid, uint16_t *ofs)
{
	uint64_t max = f->addrs + 2ull * APB + 2ull * APB * NPB + (uint64_t)APB * NPB * NPB;
	int ret;

	if (idx >= max)
		return f2fs_fail(f->b->err, -F2FS_E_TOO_LARGE,
				 "file block %llu is beyond what an inode can map",
				 (unsigned long long)idx);
	if (idx < f->addrs) {
		*nid = f->ino;
		*ofs = (uint16_t)idx;
		return 0;
	}
	ret = open_direct_for(f, idx - f->addrs, ofs);
	if (!ret)
		*nid = f->dn.nid;
	return ret;
}

void bld_file_set(struct bld_file *f, uint64_t idx, uint32_t blkaddr)
{
	if (idx < f->addrs)
		f2fs_inode_set_addr(&f->inode->i, (uint32_t)idx, blkaddr);
	else
		f->dn.blk.dn.addr[(idx - f->addrs) % APB] = le32_put(blkaddr);
}

int bld_file_finish(struct bld_file *f)
{
	int ret = close_node(f, &f->dn, true);

	if (!ret)
		ret = close_node(f, &f->in, false);
	if (!ret)
		ret = close_node(f, &f->din, false);
	return ret;
}
