/*
 * The two copies of every NAT and SIT block, and the checkpoint's version
 * bitmaps that say which copy is live. A checkpoint changes a block by
 * writing its other copy and flipping the block's bit in the new
 * checkpoint's bitmap, so the previous checkpoint still sees the old copy.
 */
#ifndef F2FS_VER_BITMAP_H
#define F2FS_VER_BITMAP_H

#include <stdint.h>

#include <f2fs/format/bitmap.h>
#include <f2fs/format/format.h>

/* Live copy (0 or 1) of block k. */
static inline int f2fs_ver_bit(const uint8_t *map, uint32_t k)
{
	return f2fs_msb_test(map, k);
}

static inline void f2fs_ver_bit_set(uint8_t *map, uint32_t k, int copy)
{
	if (copy)
		f2fs_msb_set(map, k);
	else
		f2fs_msb_clear(map, k);
}

/*
 * Copy c of block k of an area whose copies alternate every span blocks:
 * span blocks of copy 0, the same blocks' copy 1, the next span...
 */
static inline uint64_t f2fs_copy_addr(uint32_t area, uint32_t span, uint32_t k, int c)
{
	return area + (uint64_t)(k / span) * 2 * span + k % span + (c ? span : 0);
}

/* The NAT's copies alternate segment by segment. */
static inline uint32_t f2fs_nat_copy_span(void)
{
	return F2FS_BLOCKS_PER_SEG;
}

/* The SIT's copy 1 follows the whole of copy 0. */
static inline uint32_t f2fs_sit_copy_span(uint32_t segment_count_sit)
{
	return segment_count_sit / 2 * F2FS_BLOCKS_PER_SEG;
}

static inline uint64_t f2fs_nat_copy_addr(uint32_t nat_blkaddr, uint32_t k, int c)
{
	return f2fs_copy_addr(nat_blkaddr, f2fs_nat_copy_span(), k, c);
}

static inline uint64_t f2fs_sit_copy_addr(uint32_t sit_blkaddr, uint32_t segment_count_sit,
					  uint32_t k, int c)
{
	return f2fs_copy_addr(sit_blkaddr, f2fs_sit_copy_span(segment_count_sit), k, c);
}

#endif
