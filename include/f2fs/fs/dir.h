/*
 * Reading directories of an opened image: iterate entries (dentry blocks
 * and inline dentries), look a name up, resolve a path.
 */
#ifndef F2FS_DIR_H
#define F2FS_DIR_H

#include <stddef.h>
#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/fs/fs.h>

#define F2FS_DIRENT_INLINE UINT64_MAX   /* f2fs_dirent.block of inline entries */

/* One directory entry as the iterator yields it. */
struct f2fs_dirent {
	const uint8_t *name;   /* name_len bytes, not NUL-terminated */
	uint32_t name_len;     /* 1..255 */
	uint32_t ino;
	uint32_t hash;
	uint8_t file_type;     /* enum f2fs_file_type */
	uint64_t block;        /* file block of the dentry block, or F2FS_DIRENT_INLINE */
	uint32_t slot;
};

/* Return 0 to go on, > 0 to stop (f2fs_dir_foreach returns it), < 0 to
 * abort with that code (err is left as the callback left it). */
typedef int (*f2fs_dir_cb)(const struct f2fs_dirent *de, void *arg);

/*
 * Call cb for every entry of directory ino, "." and ".." included, in
 * on-disk order: inline dentries, or every data block of the directory
 * (all hash levels, through the node tree). Entries whose slot run or name
 * length is inconsistent stop the walk with F2FS_E_CORRUPT.
 */
int f2fs_dir_foreach(struct f2fs_fs *fs, uint32_t ino, f2fs_dir_cb cb, void *arg,
		     struct f2fs_error *err);

/* The same whatever ino's i_mode says: for a repair judging whether an
 * inode whose mode was damaged still holds a directory. */
int f2fs_dir_foreach_content(struct f2fs_fs *fs, uint32_t ino, f2fs_dir_cb cb, void *arg,
			     struct f2fs_error *err);

/* Find name in directory dir (exact byte match). -ENOENT when absent. */
int f2fs_dir_lookup(struct f2fs_fs *fs, uint32_t dir, const uint8_t *name,
		    size_t len, uint32_t *ino, uint8_t *file_type,
		    struct f2fs_error *err);

/*
 * Resolve an absolute path ("/", "/a/b"; repeated slashes ignored; a
 * relative path is taken from the root) component by component from the
 * root inode. Symbolic links are not followed.
 */
int f2fs_path_lookup(struct f2fs_fs *fs, const char *path, uint32_t *ino,
		     struct f2fs_error *err);

#endif
