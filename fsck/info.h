/*
 * What fsck.f2fs shows besides the check (the tool only, not libfsck):
 * whether the kernel flagged the image for a check (-a, -p), the
 * superblock and checkpoint (-l), the directory tree (-t) and the file
 * map (-M) of f2fs-tools' fsck.f2fs.
 */
#ifndef F2FS_FSCK_INFO_H
#define F2FS_FSCK_INFO_H

#include <stddef.h>

struct f2fs_fs;
struct out;

/*
 * Did the kernel ask for a check? The checkpoint's FSCK, ERROR or
 * QUOTA_NEED_FSCK flag, or a checkpoint disabled, or a stop reason other
 * than a shutdown, or an error recorded in the superblock. Returns 1 and
 * describes what (one line, "checkpoint flag fsck, ...") in why, else 0.
 */
int info_kernel_flagged(const struct f2fs_fs *fs, char *why, size_t len);

/* The superblock and checkpoint in use (-l), text or JSON through o. */
void info_layout(struct out *o, const struct f2fs_fs *fs);

/*
 * Walk the tree from the root, every directory once: -t prints it as an
 * indented tree (text), -M one "ino path" line per entry (text or JSON).
 * Returns the number of directories that could not be read.
 */
unsigned info_tree(struct out *o, struct f2fs_fs *fs, int map);

#endif
