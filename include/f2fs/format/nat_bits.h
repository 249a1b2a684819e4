/*
 * nat_bits: per-NAT-block "full" and "empty" bitmaps kept at the end of the
 * checkpoint pack's segment, so that free nids are found without reading
 * NAT blocks. The header ties them to one checkpoint (version | CRC << 32).
 */
#ifndef F2FS_NAT_BITS_H
#define F2FS_NAT_BITS_H

#include <stdbool.h>
#include <stdint.h>

#include <f2fs/format/format.h>

/* Blocks the area takes for nat_blocks NAT blocks (one copy). */
uint32_t f2fs_nat_bits_blocks(uint32_t nat_blocks);

/* Bytes of each bitmap. */
static inline uint32_t f2fs_nat_bits_bytes(uint32_t nat_blocks)
{
	return nat_blocks / 8;
}

/* Bit helpers (LSB-first within each byte). */
static inline void f2fs_nat_bit_set(uint8_t *map, uint32_t i)
{
	map[i / 8] |= (uint8_t)(1u << (i % 8));
}

static inline bool f2fs_nat_bit_test(const uint8_t *map, uint32_t i)
{
	return (map[i / 8] >> (i % 8)) & 1;
}

/* The two bitmaps inside an area: after the header, full then empty. */
static inline const uint8_t *f2fs_nat_bits_full(const uint8_t *area)
{
	return area + F2FS_NAT_BITS_HEADER_SIZE;
}

static inline const uint8_t *f2fs_nat_bits_empty(const uint8_t *area, uint32_t nat_blocks)
{
	return area + F2FS_NAT_BITS_HEADER_SIZE + f2fs_nat_bits_bytes(nat_blocks);
}

/* Count valid entries of a NAT block as nat_bits does (nid 0 counts as used). */
uint32_t f2fs_nat_block_used(const void *nat_block, uint32_t nat_blkoff);

/*
 * Lay out the area (area_blocks * 4096 bytes): header, full bitmap, empty
 * bitmap. used[i] is the count of entries in use in NAT block i.
 */
void f2fs_nat_bits_encode(uint8_t *area, uint32_t area_blocks, uint32_t nat_blocks,
			  const uint16_t *used, uint64_t cp_ver, uint32_t cp_crc);

/* What a NAT block's bits should say: full with every entry in use, empty
 * with none; used counts nid 0 as in use (f2fs_nat_block_used()). */
enum {
	F2FS_NAT_BITS_FULL_WRONG = 1 << 0,
	F2FS_NAT_BITS_EMPTY_WRONG = 1 << 1,
};

/* The bits of NAT block b in the area (header, full bitmap, empty bitmap)
 * that disagree with its used entries: 0, or F2FS_NAT_BITS_*_WRONG bits. */
unsigned f2fs_nat_bits_mismatch(const uint8_t *area, uint32_t nat_blocks, uint32_t b,
				uint32_t used);

/* What the bits say against the NAT blocks, block by block. */
struct f2fs_nat_bits_tally {
	uint32_t full_bits, empty_bits;   /* NAT blocks the bitmaps mark full, empty */
	uint32_t full_nat, empty_nat;     /* NAT blocks with every entry, none in use */
	uint32_t disagree;                /* NAT blocks whose bits are wrong */
};

/* Add NAT block b, with used entries in use, to *t. */
void f2fs_nat_bits_tally_add(struct f2fs_nat_bits_tally *t, const uint8_t *area,
			     uint32_t nat_blocks, uint32_t b, uint32_t used);

/* The header value for a checkpoint. */
static inline uint64_t f2fs_nat_bits_header(uint64_t cp_ver, uint32_t cp_crc)
{
	return cp_ver | ((uint64_t)cp_crc << 32);
}

#endif
