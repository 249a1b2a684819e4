/*
 * Reading the extended attributes of an inode on an opened image: the
 * inline xattr area at the end of the inode, continued in its xattr node.
 */
#ifndef F2FS_XATTR_H
#define F2FS_XATTR_H

#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/fs/fs.h>

/* One entry as the walk yields it; name and value point into a buffer
 * that lives only during the callback. */
struct f2fs_xattr {
	uint8_t index;           /* enum F2FS_XATTR_INDEX_* */
	const uint8_t *name;     /* name_len bytes, without the index's prefix */
	uint8_t name_len;
	const uint8_t *value;
	uint16_t value_len;
};

/* Return 0 to go on, > 0 to stop (the walk returns it), < 0 to abort. */
typedef int (*f2fs_xattr_cb)(const struct f2fs_xattr *x, void *arg);

/*
 * Call cb for every xattr of inode (from a node read with f2fs_read_inode;
 * a copy of its struct f2fs_inode will do), in stored order. An area without the xattr magic holds none (0, no call);
 * an entry that runs past the area fails with F2FS_E_CORRUPT.
 */
int f2fs_xattr_foreach(struct f2fs_fs *fs, const struct f2fs_inode *inode,
		       f2fs_xattr_cb cb, void *arg, struct f2fs_error *err);

/* The name prefix the VFS gives an index ("user.", "system.posix_acl_access"
 * for ACLs, which have no name of their own), or NULL for indexes the VFS
 * does not show (lustre, advise, encryption context, verity). */
const char *f2fs_xattr_prefix(uint8_t index);

#endif
