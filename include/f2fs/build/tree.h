/* A source directory tree, scanned once, for building an image from it. */
#ifndef F2FS_TREE_H
#define F2FS_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <f2fs/util/error.h>

struct f2fs_tree_inode {
	uint32_t mode, uid, gid;
	uint32_t nlink;            /* links found in the tree */
	uint32_t nsubdirs;         /* directories: subdirectories */
	uint64_t size, alloc_bytes;
	int64_t atime, mtime, ctime;
	uint32_t atime_ns, mtime_ns, ctime_ns;
	uint64_t rdev;
	uint32_t first_dentry;     /* the dentry it was first found under */
	uint32_t child_start, nchild;  /* directories: their dentries */
	uint32_t ino;              /* assigned F2FS inode number */
	uint32_t xattr_bytes;      /* names + values, to estimate space */
	uint8_t casefold;          /* directories: case-insensitive (chattr +F) */
};

struct f2fs_tree_dentry {
	uint32_t name_off;         /* into the name arena */
	uint16_t name_len;
	uint32_t inode;            /* index into inodes */
	uint32_t parent;           /* index of the directory inode */
};

struct f2fs_tree {
	char *root_path;
	struct f2fs_tree_inode *inodes;   /* [0] is the root */
	size_t ninodes, inodes_cap;
	struct f2fs_tree_dentry *dentries;
	size_t ndentries, dentries_cap;
	char *names;
	size_t names_len, names_cap;
};

/* A file by device and inode number. */
struct f2fs_file_id {
	uint64_t dev, ino;
};

/*
 * Read the tree under path: every directory's entries (sorted by name, so
 * the same tree always gives the same image), their stat, hard links found
 * by device and inode number. Sockets are kept; nothing is followed. A file
 * that is one of the navoid files in avoid (the image being made) is an
 * error: the tree would copy the image into itself.
 */
int f2fs_tree_scan(struct f2fs_tree *t, const char *path, const struct f2fs_file_id *avoid,
		   size_t navoid, struct f2fs_error *err);
void f2fs_tree_free(struct f2fs_tree *t);

static inline const char *f2fs_tree_name(const struct f2fs_tree *t,
					 const struct f2fs_tree_dentry *d)
{
	return t->names + d->name_off;
}

/* Host path of inode i (its first link) into buf. */
int f2fs_tree_path(const struct f2fs_tree *t, uint32_t i, char *buf, size_t len);

#endif
