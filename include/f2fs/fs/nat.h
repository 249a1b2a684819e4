/*
 * Node lookup on an opened image: nid -> NAT entry (journal first, then the
 * live NAT copy), node blocks, inodes, and the file-offset -> block map.
 */
#ifndef F2FS_NAT_H
#define F2FS_NAT_H

#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/fs/fs.h>

/* A NAT entry in host byte order. */
struct f2fs_nat_info {
	uint32_t nid;
	uint32_t ino;
	uint32_t blkaddr;
	uint8_t version;
	uint64_t nat_blkaddr;   /* NAT block it came from; 0 when from the journal */
};

/*
 * Look nid up: the NAT journal of the current checkpoint first, then the
 * NAT block of the copy the version bitmap marks live. *from_journal (may
 * be NULL) says which. Fails for nid >= f2fs_fs_max_nid().
 */
int f2fs_nat_lookup(struct f2fs_fs *fs, uint32_t nid, struct f2fs_nat_info *entry,
		    int *from_journal, struct f2fs_error *err);

/*
 * Read the node block of nid into buf. Fails with -ENOENT when the nid is
 * not in use, and F2FS_E_CORRUPT when its address is outside the main area
 * or the block's footer names another nid.
 */
int f2fs_read_node(struct f2fs_fs *fs, uint32_t nid, struct f2fs_node *buf,
		   struct f2fs_error *err);

/* As f2fs_read_node(), and check that the block is the inode of ino. */
int f2fs_read_inode(struct f2fs_fs *fs, uint32_t ino, struct f2fs_node *buf,
		    struct f2fs_error *err);

/*
 * Block address of file block fofs of an inode (read with f2fs_read_inode).
 * *blkaddr is 0 for a hole; it may also be F2FS_NEW_ADDR or
 * F2FS_COMPRESS_ADDR as stored. When a whole node is missing, *hole_run
 * (may be NULL) is the number of blocks from fofs it would have mapped,
 * else 1. Inodes with inline data or dentries have no blocks (all holes).
 */
int f2fs_file_block(struct f2fs_fs *fs, const struct f2fs_node *inode,
		    uint64_t fofs, uint32_t *blkaddr, uint64_t *hole_run,
		    struct f2fs_error *err);

/* Largest file block count an inode can map (data pointers + node tree). */
uint64_t f2fs_file_max_blocks(const struct f2fs_fs *fs, const struct f2fs_node *inode);

#endif
