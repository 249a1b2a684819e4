/*
 * A NAT or SIT area as a flush sees it: block k has two copies, the
 * checkpoint in use says which one is live, and a flush writes the other
 * one and records that in the bitmap of the checkpoint it prepares, so the
 * checkpoint in use keeps its view until the new one is complete. A fresh
 * area (mkfs: no checkpoint yet) is read as zeroes and written to copy 0.
 */
#ifndef F2FS_WRITE_META_AREA_H
#define F2FS_WRITE_META_AREA_H

#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/write/block_io.h>

struct f2fs_meta_area {
	uint32_t blkaddr;        /* first block of the area */
	uint32_t span;           /* f2fs_nat_copy_span() or f2fs_sit_copy_span() */
	uint32_t blocks;         /* blocks of one copy: k must stay below */
	const uint8_t *live;     /* version bitmap in use; NULL: a fresh area */
	uint8_t *next;           /* bitmap of the checkpoint being prepared (may
				  * be NULL for a fresh area); starts equal to live */
	struct f2fs_block_io io;
};

/* The NAT (nat_blocks blocks a copy) or the SIT of a volume. */
void f2fs_meta_area_nat(struct f2fs_meta_area *a, uint32_t nat_blkaddr, uint32_t nat_blocks,
			const uint8_t *live, uint8_t *next, const struct f2fs_block_io *io);
void f2fs_meta_area_sit(struct f2fs_meta_area *a, uint32_t sit_blkaddr,
			uint32_t segment_count_sit, uint32_t sit_blocks,
			const uint8_t *live, uint8_t *next, const struct f2fs_block_io *io);

/* Copy (0 or 1) a flush writes block k to: the one not live. */
int f2fs_meta_area_target(const struct f2fs_meta_area *a, uint32_t k);

/* Current content of block k: its live copy, or zeroes in a fresh area. */
int f2fs_meta_area_read(const struct f2fs_meta_area *a, uint32_t k, void *block,
			struct f2fs_error *err);

/* Write block k to its target copy and mark that copy live in next. */
int f2fs_meta_area_write(const struct f2fs_meta_area *a, uint32_t k, const void *block,
			 struct f2fs_error *err);

#endif
