/*
 * F2FS's block bitmaps (a SIT entry's valid map, the checkpoint's version
 * bitmaps) put bit 0 in the most significant bit of byte 0. nat_bits is the
 * exception: its bitmaps are LSB-first (nat_bits.h).
 */
#ifndef F2FS_BITMAP_H
#define F2FS_BITMAP_H

#include <stdint.h>

static inline int f2fs_msb_test(const uint8_t *map, uint64_t i)
{
	return (map[i / 8] >> (7 - i % 8)) & 1;
}

static inline void f2fs_msb_set(uint8_t *map, uint64_t i)
{
	map[i / 8] |= (uint8_t)(0x80u >> (i % 8));
}

static inline void f2fs_msb_clear(uint8_t *map, uint64_t i)
{
	map[i / 8] &= (uint8_t)~(0x80u >> (i % 8));
}

#endif
