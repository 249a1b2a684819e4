/*
 * How the write layer reaches the volume: the caller's block reader and
 * writer (mkfs's batched writer, or a repair transaction), so that the
 * layer itself never opens or orders anything. Addresses are absolute
 * block numbers of the volume. A checkpoint pack is crash-safe when the
 * writer has a barrier, or keeps the order of writes.
 */
#ifndef F2FS_WRITE_BLOCK_IO_H
#define F2FS_WRITE_BLOCK_IO_H

#include <stdint.h>

#include <f2fs/util/error.h>

struct f2fs_block_io {
	/* One block into block; NULL when nothing is ever read (a fresh area). */
	int (*read)(void *arg, uint64_t blkaddr, void *block, struct f2fs_error *err);
	/* One block out; 0 or a negative code with err filled. */
	int (*write)(void *arg, uint64_t blkaddr, const void *block, struct f2fs_error *err);
	void *arg;
	/* May be NULL. Make every block written so far durable before any
	 * later one: a checkpoint pack calls it before its last block. */
	int (*barrier)(void *arg, struct f2fs_error *err);
};

#endif
