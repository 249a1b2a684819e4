/*
 * F2FS's block bitmaps (a SIT entry's valid map, the checkpoint's version
 * bitmaps) put bit 0 in the most significant bit of byte 0. nat_bits is the
 * exception: its bitmaps are LSB-first (nat_bits.h).
 */
#ifndef F2FS_BITMAP_H
#define F2FS_BITMAP_H

#include <stdint.h>
#include <string.h>

#include <f2fs/format/format.h>

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

/* Set bits of a SIT entry's 64-byte valid map: eight word-wide SWAR counts,
 * which compile inline on any x86-64 (a per-byte __builtin_popcount becomes
 * a libgcc call each without -mpopcnt; 33M of them for a 1 TiB SIT). */
static inline uint32_t f2fs_sit_map_weight(const uint8_t *map)
{
	uint32_t bits = 0;

	for (int k = 0; k < F2FS_SIT_VBLOCK_MAP_SIZE; k += 8) {
		uint64_t w;

		memcpy(&w, map + k, 8);
		w -= (w >> 1) & 0x5555555555555555ull;
		w = (w & 0x3333333333333333ull) + ((w >> 2) & 0x3333333333333333ull);
		w = (w + (w >> 4)) & 0x0F0F0F0F0F0F0F0Full;
		bits += (uint32_t)((w * 0x0101010101010101ull) >> 56);
	}
	return bits;
}

#endif
