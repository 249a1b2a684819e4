/* Inode and node-block fields: geometry of i_addr, init, footer, checksum. */
#ifndef F2FS_INODE_H
#define F2FS_INODE_H

#include <stdint.h>

#include <f2fs/format/format.h>

/* i_extra_isize a new inode gets: up to the last field the features use. */
uint16_t f2fs_extra_isize_for(uint32_t features);

/* Words of i_addr before the first data pointer (extra attributes); at
 * most all of i_addr but its last word, whatever a damaged size says. */
uint32_t f2fs_inode_extra_words(const struct f2fs_inode *i);

/* Words at the end of i_addr taken by inline xattrs. */
uint32_t f2fs_inode_inline_xattr_words(const struct f2fs_inode *i, uint32_t features);

/* Number of data pointers in i_addr. */
uint32_t f2fs_inode_addrs(const struct f2fs_inode *i, uint32_t features);

/* Inline data or dentries: byte offset in the inode block and size. One
 * pointer slot after the extra attributes stays reserved. */
uint32_t f2fs_inode_inline_offset(const struct f2fs_inode *i);
uint32_t f2fs_inode_inline_bytes(const struct f2fs_inode *i, uint32_t features);

/* Is the file's data in compressed clusters? As the kernel reads it: the
 * flag counts only on a regular file with extra attributes, on a volume
 * with the compression feature; elsewhere the file is plain. */
int f2fs_inode_compressed(const struct f2fs_inode *i, uint32_t features);

/* Data pointer idx (0 = the first after the extra attributes). */
uint32_t f2fs_inode_get_addr(const struct f2fs_inode *i, uint32_t idx);
void f2fs_inode_set_addr(struct f2fs_inode *i, uint32_t idx, uint32_t blkaddr);

/* A device inode's number, kept in its first pointers as the kernel keeps
 * it: the old 16-bit form in pointer 0 when major and minor fit a byte,
 * else 0 there and the 32-bit form in pointer 1. */
void f2fs_inode_set_rdev(struct f2fs_inode *i, uint32_t major, uint32_t minor);
void f2fs_inode_get_rdev(const struct f2fs_inode *i, uint32_t *major, uint32_t *minor);

struct f2fs_inode_attrs {
	uint16_t mode;
	uint32_t uid, gid, links;
	uint64_t size, blocks;     /* blocks in 4 KiB units, the inode included */
	int64_t time;              /* a/c/m (and cr) time, seconds */
	uint32_t pino;
	const char *name;          /* may be NULL */
	uint32_t flags;            /* i_flags */
	uint32_t depth;            /* i_current_depth */
	uint32_t features;         /* of the file system */
};

/* Zero the node and fill in an inode. */
void f2fs_inode_init(struct f2fs_node *n, const struct f2fs_inode_attrs *a);

void f2fs_node_footer_set(struct f2fs_node *n, uint32_t nid, uint32_t ino,
			  uint32_t ofs, uint32_t flags, uint64_t cp_ver,
			  uint32_t next_blkaddr);

/* Update i_inode_checksum when the features ask for one (call last). */
void f2fs_inode_seal(struct f2fs_node *n, uint32_t features, uint32_t crc_seed);

/* Does the inode carry a checksum that must match? */
int f2fs_inode_has_checksum(const struct f2fs_node *n, uint32_t features);

#endif
