/*
 * Reading the source files of mkfs --rootdir: opened relative to their
 * directory, and, once a read finds the page cache cold, announced to the
 * kernel a window ahead (POSIX_FADV_WILLNEED) so their reads overlap
 * instead of waiting for the disk one file at a time.
 */
#ifndef F2FS_LIB_SOURCE_H
#define F2FS_LIB_SOURCE_H

#include <f2fs/build/tree.h>

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define SRC_AHEAD 128   /* files opened and announced ahead when cold */

struct src_dir {
	uint32_t ti;    /* tree directory held open, or UINT32_MAX */
	int fd;         /* or -1 */
};

struct src_reader {
	const struct f2fs_tree *t;
	struct src_dir cur, ahead_dir;
	bool cold;          /* a read had to wait: prefetching is on */
	bool nowait_ok;     /* the source file system honours RWF_NOWAIT */
	uint32_t ahead;     /* next tree inode to announce */
	int ring_fd[SRC_AHEAD];
	uint32_t ring_ti[SRC_AHEAD];
};

void src_init(struct src_reader *r, const struct f2fs_tree *t);
void src_fini(struct src_reader *r);

/* Before tree inode ti is copied: keep the window ahead of it announced. */
void src_prefetch(struct src_reader *r, uint32_t ti);

/* Open regular file ti (path: its full host path); -1 with errno set. */
int src_open(struct src_reader *r, uint32_t ti, const char *path);

/* Read len bytes at off, zero-filling past the end; 0 or -errno. */
int src_read(struct src_reader *r, int fd, uint8_t *buf, size_t len, off_t off);

#endif
