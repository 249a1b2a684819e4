/* NAT lookup, node reads and the block map of a file. */
#include <f2fs/fs/nat.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/format/node_ofs.h>
#include <f2fs/format/ver_bitmap.h>

#include "fs_priv.h"

#include <errno.h>
#include <string.h>

int f2fs_nat_lookup(struct f2fs_fs *fs, uint32_t nid, struct f2fs_nat_info *entry,
		    int *from_journal, struct f2fs_error *err)
{
	const struct f2fs_journal *j = &fs->nat_j;
	uint32_t n = le16_get(j->n_entries);
	const struct f2fs_nat_entry *ne = NULL;
	uint32_t blk_off;
	uint64_t addr;
	int ret;

	if (nid >= fs->max_nid)
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "nid %u is out of range (the NAT maps %u nids)",
				 nid, fs->max_nid);
	memset(entry, 0, sizeof(*entry));
	entry->nid = nid;
	for (uint32_t k = 0; k < n; k++) {
		if (le32_get(j->nat_j.entries[k].nid) == nid) {
			ne = &j->nat_j.entries[k].ne;
			break;
		}
	}
	if (from_journal)
		*from_journal = ne != NULL;
	if (!ne) {
		blk_off = nid / F2FS_NAT_ENTRY_PER_BLOCK;
		addr = f2fs_nat_copy_addr(le32_get(fs->sb.nat_blkaddr), blk_off,
					  f2fs_ver_bit(fs->nat_bitmap, blk_off));
		if (fs->nat_cache_addr != addr) {
			fs->nat_cache_addr = UINT64_MAX;
			ret = f2fs_dev_read(fs->dev, addr, &fs->nat_cache, 1, err);
			if (ret)
				return ret;
			fs->nat_cache_addr = addr;
		}
		ne = &fs->nat_cache.entries[nid % F2FS_NAT_ENTRY_PER_BLOCK];
		entry->nat_blkaddr = addr;
	}
	entry->version = ne->version;
	entry->ino = le32_get(ne->ino);
	entry->blkaddr = le32_get(ne->block_addr);
	return 0;
}

/* A node block through the cache; owner != 0 also checks footer.ino. */
static int get_node(struct f2fs_fs *fs, uint32_t nid, uint32_t owner,
		    const struct f2fs_node **out, struct f2fs_error *err)
{
	int ret;

	struct f2fs_fs_node_slot *slot = NULL;
	struct f2fs_nat_info ne;
	const struct f2fs_node *n;

	for (int k = 0; k < F2FS_FS_NODE_CACHE; k++) {
		if (fs->nodes[k].nid == nid && nid) {
			slot = &fs->nodes[k];
			break;
		}
	}
	if (!slot) {
		ret = f2fs_nat_lookup(fs, nid, &ne, NULL, err);
		if (ret)
			return ret;
		if (ne.blkaddr == F2FS_NULL_ADDR)
			return f2fs_fail(err, -ENOENT, "nid %u is not in use", nid);
		if (!f2fs_fs_in_main(fs, ne.blkaddr))
			return f2fs_fail(err, -F2FS_E_CORRUPT,
					 "nid %u: block address 0x%x is outside the main area",
					 nid, ne.blkaddr);
		slot = &fs->nodes[0];
		for (int k = 1; k < F2FS_FS_NODE_CACHE; k++)
			if (fs->nodes[k].stamp < slot->stamp)
				slot = &fs->nodes[k];
		slot->nid = 0;
		ret = f2fs_dev_read(fs->dev, ne.blkaddr, &slot->node, 1, err);
		if (ret)
			return ret;
		if (le32_get(slot->node.footer.nid) != nid)
			return f2fs_fail(err, -F2FS_E_CORRUPT,
					 "nid %u: node block %u has footer nid %u",
					 nid, ne.blkaddr, le32_get(slot->node.footer.nid));
		slot->nid = nid;
	}
	slot->stamp = ++fs->node_clock;
	n = &slot->node;
	if (owner && le32_get(n->footer.ino) != owner)
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "nid %u belongs to inode %u, expected inode %u",
				 nid, le32_get(n->footer.ino), owner);
	*out = n;
	return 0;
}

int f2fs_read_node(struct f2fs_fs *fs, uint32_t nid, struct f2fs_node *buf,
		   struct f2fs_error *err)
{
	const struct f2fs_node *n;
	int ret = get_node(fs, nid, 0, &n, err);

	if (ret)
		return ret;
	memcpy(buf, n, sizeof(*buf));
	return 0;
}

int f2fs_read_inode(struct f2fs_fs *fs, uint32_t ino, struct f2fs_node *buf,
		    struct f2fs_error *err)
{
	int ret = f2fs_read_node(fs, ino, buf, err);
	uint32_t ofs;

	if (ret)
		return ret;
	ofs = le32_get(buf->footer.flag) >> F2FS_NODE_OFS_SHIFT;
	if (le32_get(buf->footer.ino) != ino || ofs != 0)
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "nid %u is not an inode (footer ino %u, offset %u)",
				 ino, le32_get(buf->footer.ino), ofs);
	return 0;
}

static int has_inline_content(const struct f2fs_node *inode)
{
	return inode->i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY);
}

uint64_t f2fs_file_max_blocks(const struct f2fs_fs *fs, const struct f2fs_node *inode)
{
	if (has_inline_content(inode))
		return 0;
	return f2fs_node_tree_blocks(f2fs_inode_addrs(&inode->i, le32_get(fs->sb.feature)));
}

int f2fs_file_block(struct f2fs_fs *fs, const struct f2fs_node *inode,
		    uint64_t fofs, uint32_t *blkaddr, uint64_t *hole_run,
		    struct f2fs_error *err)
{
	const struct f2fs_inode *i = &inode->i;
	uint32_t ino = le32_get(inode->footer.ino), nid;
	uint64_t dummy;
	struct f2fs_node_path path;
	const struct f2fs_node *n;
	int ret;

	if (!hole_run)
		hole_run = &dummy;
	*blkaddr = 0;
	*hole_run = 1;
	if (has_inline_content(inode)) {
		*hole_run = UINT64_MAX - fofs;
		return 0;
	}
	if (!f2fs_block_path(fofs, f2fs_inode_addrs(i, le32_get(fs->sb.feature)), &path))
		return f2fs_fail(err, -EFBIG, "inode %u: file block beyond the largest file", ino);
	if (path.levels == 0) {
		*blkaddr = f2fs_inode_get_addr(i, path.slot[0]);
		return 0;
	}
	nid = le32_get(i->i_nid[path.slot[0]]);
	for (uint32_t l = 1;; l++) {
		if (nid == 0) {
			*hole_run = f2fs_block_path_rest(&path, l);
			return 0;
		}
		ret = get_node(fs, nid, ino, &n, err);
		if (ret)
			return ret;
		if (l == path.levels) {
			*blkaddr = le32_get(n->dn.addr[path.slot[l]]);
			return 0;
		}
		nid = le32_get(n->in.nid[path.slot[l]]);
	}
}
