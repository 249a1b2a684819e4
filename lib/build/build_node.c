/* Image builder: inodes and the direct/indirect nodes mapping their blocks. */
#include "build.h"

#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/format/node_ofs.h>

#include <string.h>

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

/* Open node n as the node at offset ofs under a parent pointer slot;
 * closes the old one (an offset names one node of the tree). */
static int open_node(struct bld_file *f, struct bld_open_node *n, bool direct,
		     uint32_t ofs, void *parent_slot)
{
	int ret;

	if (n->open && n->ofs == ofs)
		return 0;
	ret = close_node(f, n, direct);
	if (ret)
		return ret;
	memset(&n->blk, 0, sizeof(n->blk));
	n->nid = bld_alloc_nid(f->b);
	if (!n->nid)
		return f->b->err->code;
	n->ofs = ofs;
	n->open = true;
	le32_store(parent_slot, n->nid);
	return 0;
}

/* The open node depth levels above the data (0: the direct node). */
static struct bld_open_node *open_at(struct bld_file *f, uint32_t depth)
{
	return depth == 0 ? &f->dn : depth == 1 ? &f->in : &f->din;
}

int bld_file_slot(struct bld_file *f, uint64_t idx, uint32_t *nid, uint16_t *ofs)
{
	struct f2fs_node_path p;
	int ret = 0;

	if (!f2fs_block_path(idx, f->addrs, &p))
		return f2fs_fail(f->b->err, -F2FS_E_TOO_LARGE,
				 "file block %llu is beyond what an inode can map",
				 (unsigned long long)idx);
	*ofs = (uint16_t)p.slot[p.levels];
	if (p.levels == 0) {
		*nid = f->ino;
		return 0;
	}
	/* top down, so that nids are taken in the order the tree is walked */
	for (uint32_t l = 1; l <= p.levels && !ret; l++) {
		uint32_t depth = p.levels - l;
		uint8_t *parent = l == 1 ? (uint8_t *)f->inode->i.i_nid :
				  (uint8_t *)open_at(f, depth + 1)->blk.in.nid;

		ret = open_node(f, open_at(f, depth), depth == 0, p.ofs[l],
				parent + 4 * p.slot[l - 1]);
	}
	if (!ret)
		*nid = f->dn.nid;
	return ret;
}

void bld_file_set(struct bld_file *f, uint64_t idx, uint32_t blkaddr)
{
	if (idx < f->addrs)
		f2fs_inode_set_addr(&f->inode->i, (uint32_t)idx, blkaddr);
	else
		f->dn.blk.dn.addr[(idx - f->addrs) % F2FS_ADDRS_PER_BLOCK] = le32_put(blkaddr);
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
