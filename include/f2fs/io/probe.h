/* What is already on a target, so that mkfs does not overwrite it blindly. */
#ifndef F2FS_PROBE_H
#define F2FS_PROBE_H

#include <stddef.h>

#include <f2fs/util/error.h>

/*
 * Look for a file system, RAID member or partition table on path with
 * libblkid. Returns 1 and describes it in what ("an ext4 file system",
 * "a dos partition table") when something is there, 0 when nothing is,
 * negative on error.
 */
int f2fs_probe_existing(const char *path, char *what, size_t len,
			struct f2fs_error *err);

#endif
