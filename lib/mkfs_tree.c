/* mkfs: the initial inodes (root, quota files, lost+found) and their blocks. */
#include "mkfs_build.h"

#include <f2fs/dentry.h>
#include <f2fs/endian.h>
#include <f2fs/hash.h>
#include <f2fs/inode.h>
#include <f2fs/quota.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define LPF_NAME "lost+found"

/* Blocks never move once handed out (the array is sized up front), so
 * callers may keep pointers into it. */
static uint8_t *new_block(struct mkfs_image *img, uint32_t blkaddr,
			  struct f2fs_error *err)
{
	struct mkfs_block *b;

	if (img->nblocks == img->blocks_cap) {
		f2fs_fail(err, -F2FS_E_NO_SPACE, "mkfs: too many initial blocks");
		return NULL;
	}
	b = &img->blocks[img->nblocks++];
	memset(b, 0, sizeof(*b));
	b->blkaddr = blkaddr;
	return b->data;
}

/* Take the next block of a log and record its owner in the summary. */
static uint32_t log_alloc(struct mkfs_image *img, enum f2fs_seg_type t,
			  uint32_t nid, uint16_t ofs_in_node)
{
	struct mkfs_log *lg = &img->log[t];
	uint32_t off = lg->blkoff++;

	lg->sum[off].nid = le32_put(nid);
	lg->sum[off].version = 0;
	lg->sum[off].ofs_in_node = le16_put(ofs_in_node);
	lg->valid_map[off / 8] |= (uint8_t)(0x80u >> (off % 8));
	img->valid_blocks++;
	return img->l->main_blkaddr + lg->segno * F2FS_BLOCKS_PER_SEG + off;
}

/* Allocate an inode's node block; its NAT entry and counters follow. */
static struct f2fs_node *add_inode(struct mkfs_image *img, uint32_t ino,
				   const struct f2fs_inode_attrs *a,
				   struct f2fs_error *err)
{
	uint32_t blkaddr = log_alloc(img, F2FS_SEG_HOT_NODE, ino, 0);
	struct f2fs_node *n = (struct f2fs_node *)new_block(img, blkaddr, err);
	uint32_t flags = (a->mode & F2FS_S_IFMT) == F2FS_S_IFDIR ? 0 : F2FS_NODE_COLD;

	if (!n)
		return NULL;
	f2fs_inode_init(n, a);
	f2fs_node_footer_set(n, ino, ino, 0, flags, img->cp_ver, blkaddr + 1);
	img->nat[img->nnat++] = (struct mkfs_nat_entry){ ino, ino, blkaddr };
	img->valid_nodes++;
	img->valid_inodes++;
	return n;
}

/* Allocate a data block for pointer idx of inode n (nid ino). */
static uint8_t *add_data(struct mkfs_image *img, struct f2fs_node *n, uint32_t ino,
			 uint32_t idx, struct f2fs_error *err)
{
	uint32_t blkaddr = log_alloc(img, F2FS_SEG_HOT_DATA, ino, (uint16_t)idx);

	f2fs_inode_set_addr(&n->i, idx, blkaddr);
	return new_block(img, blkaddr, err);
}

static struct f2fs_inode_attrs dir_attrs(const struct mkfs_image *img,
					 const struct f2fs_mkfs_options *o,
					 uint16_t perm, uint32_t pino,
					 const char *name)
{
	return (struct f2fs_inode_attrs){
		.mode = F2FS_S_IFDIR | perm, .uid = o->root_uid, .gid = o->root_gid,
		.links = 2, .size = F2FS_BLKSIZE, .blocks = 2, .time = img->now,
		.pino = pino, .name = name, .depth = 1, .features = img->features,
	};
}

/* A directory with one dentry block holding "." and "..". */
static struct f2fs_node *add_dir(struct mkfs_image *img, uint32_t ino,
				 const struct f2fs_inode_attrs *a, uint32_t parent,
				 struct f2fs_dentry_block **dblk, struct f2fs_error *err)
{
	struct f2fs_node *n = add_inode(img, ino, a, err);

	if (!n)
		return NULL;
	*dblk = (struct f2fs_dentry_block *)add_data(img, n, ino, 0, err);
	if (!*dblk)
		return NULL;
	f2fs_dentry_block_init_dots(*dblk, ino, parent);
	return n;
}

/* Usage that the quota files must record: the root directory and lost+found. */
static void quota_usage(const struct mkfs_image *img, const struct f2fs_mkfs_options *o,
			int type, struct f2fs_quota_usage *u)
{
	uint64_t dirs = (img->features & F2FS_FEATURE_LOST_FOUND) ? 2 : 1;

	u->id = type == F2FS_QUOTA_USR ? o->root_uid :
		type == F2FS_QUOTA_GRP ? o->root_gid : 0;
	u->inodes = dirs;
	u->space_bytes = dirs * F2FS_BLKSIZE;   /* one dentry block each */
}

static int add_quota_file(struct mkfs_image *img, const struct f2fs_mkfs_options *o,
			  int type, struct f2fs_error *err)
{
	struct f2fs_quota_usage u;
	uint32_t ino = img->next_nid++;
	size_t size, nblk;
	uint8_t *buf;
	struct f2fs_node *n;
	int ret;

	quota_usage(img, o, type, &u);
	size = f2fs_quota_file_size(&u, 1);
	nblk = (size + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
	buf = calloc(nblk, F2FS_BLKSIZE);
	if (!buf)
		return f2fs_fail(err, -ENOMEM, "out of memory building quota files");
	ret = f2fs_quota_file_build((enum f2fs_quota_type)type, &u, 1, buf, size, err);
	if (!ret) {
		struct f2fs_inode_attrs a = {
			.mode = F2FS_S_IFREG | 0600, .links = 1, .size = size,
			.blocks = 1 + nblk, .time = img->now, .flags = F2FS_IMMUTABLE_FL,
			.features = img->features,
		};

		n = add_inode(img, ino, &a, err);
		ret = n ? 0 : err->code;
		for (size_t i = 0; i < nblk && !ret; i++) {
			uint8_t *d = add_data(img, n, ino, (uint32_t)i, err);

			if (!d)
				ret = err->code;
			else
				memcpy(d, buf + i * F2FS_BLKSIZE, F2FS_BLKSIZE);
		}
	}
	free(buf);
	img->qf_ino[type] = ino;
	return ret;
}

static int add_lost_found(struct mkfs_image *img, const struct f2fs_mkfs_options *o,
			  struct f2fs_node *root, struct f2fs_dentry_block *root_dents,
			  struct f2fs_error *err)
{
	struct f2fs_inode_attrs a = dir_attrs(img, o, 0700, F2FS_ROOT_INO, LPF_NAME);
	struct f2fs_dentry_block *d;
	uint32_t ino = img->next_nid++;
	int slot;

	if (!add_dir(img, ino, &a, F2FS_ROOT_INO, &d, err))
		return err->code;
	slot = f2fs_dentry_block_add(root_dents, (const uint8_t *)LPF_NAME,
				     strlen(LPF_NAME),
				     f2fs_dentry_hash((const uint8_t *)LPF_NAME,
						      strlen(LPF_NAME)),
				     ino, F2FS_FT_DIR);
	if (slot < 0)
		return f2fs_fail(err, slot, "cannot add lost+found to the root directory");
	root->i.i_links = le32_put(le32_get(root->i.i_links) + 1);
	img->lpf_ino = ino;
	return 0;
}

/* Checksums go last: they cover fields set after each inode was made. */
static void seal_inodes(struct mkfs_image *img)
{
	for (size_t i = 0; i < img->nblocks; i++) {
		struct f2fs_node *n = (struct f2fs_node *)img->blocks[i].data;
		uint32_t blk = img->blocks[i].blkaddr;

		for (size_t k = 0; k < img->nnat; k++)
			if (img->nat[k].blkaddr == blk)
				f2fs_inode_seal(n, img->features, img->crc_seed);
	}
}

int mkfs_build_tree(struct mkfs_image *img, const struct f2fs_mkfs_options *o,
		    struct f2fs_error *err)
{
	struct f2fs_inode_attrs ra = dir_attrs(img, o, 0755, 0, NULL);
	struct f2fs_dentry_block *root_dents;
	struct f2fs_node *root;
	int ret = 0;

	img->blocks_cap = MKFS_MAX_BLOCKS;
	img->blocks = calloc(img->blocks_cap, sizeof(*img->blocks));
	if (!img->blocks)
		return f2fs_fail(err, -ENOMEM, "out of memory building the root directory");
	img->next_nid = F2FS_ROOT_INO + 1;
	root = add_dir(img, F2FS_ROOT_INO, &ra, F2FS_ROOT_INO, &root_dents, err);
	if (!root)
		return err->code;
	if (img->features & F2FS_FEATURE_QUOTA_INO) {
		ret = add_quota_file(img, o, F2FS_QUOTA_USR, err);
		if (!ret)
			ret = add_quota_file(img, o, F2FS_QUOTA_GRP, err);
		if (!ret && (img->features & F2FS_FEATURE_PRJQUOTA))
			ret = add_quota_file(img, o, F2FS_QUOTA_PRJ, err);
	}
	if (!ret && (img->features & F2FS_FEATURE_LOST_FOUND))
		ret = add_lost_found(img, o, root, root_dents, err);
	if (!ret)
		seal_inodes(img);
	return ret;
}

void mkfs_build_nat_block(const struct mkfs_image *img, struct f2fs_nat_block *nb)
{
	memset(nb, 0, sizeof(*nb));
	nb->entries[F2FS_NODE_INO].ino = le32_put(F2FS_NODE_INO);
	nb->entries[F2FS_NODE_INO].block_addr = le32_put(1);
	nb->entries[F2FS_META_INO].ino = le32_put(F2FS_META_INO);
	nb->entries[F2FS_META_INO].block_addr = le32_put(1);
	for (size_t i = 0; i < img->nnat; i++) {
		nb->entries[img->nat[i].nid].ino = le32_put(img->nat[i].ino);
		nb->entries[img->nat[i].nid].block_addr = le32_put(img->nat[i].blkaddr);
	}
}

void mkfs_image_free(struct mkfs_image *img)
{
	free(img->blocks);
	img->blocks = NULL;
	img->nblocks = img->blocks_cap = 0;
}
