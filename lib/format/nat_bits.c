/* The nat_bits area of a checkpoint pack: encode, and compare with the NAT. */
#include <f2fs/format/nat_bits.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/format.h>

#include <string.h>

uint32_t f2fs_nat_bits_blocks(uint32_t nat_blocks)
{
	uint32_t bytes = 2 * f2fs_nat_bits_bytes(nat_blocks) + F2FS_NAT_BITS_HEADER_SIZE;

	return (bytes + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
}

uint32_t f2fs_nat_block_used(const void *nat_block, uint32_t nat_blkoff)
{
	const struct f2fs_nat_block *nb = nat_block;
	uint32_t used = 0;

	for (uint32_t i = 0; i < F2FS_NAT_ENTRY_PER_BLOCK; i++)
		if (nb->entries[i].block_addr != 0 || (nat_blkoff == 0 && i == 0))
			used++;
	return used;
}

void f2fs_nat_bits_encode(uint8_t *area, uint32_t area_blocks, uint32_t nat_blocks,
			  const uint16_t *used, uint64_t cp_ver, uint32_t cp_crc)
{
	uint32_t bytes = f2fs_nat_bits_bytes(nat_blocks);
	uint8_t *full = area + F2FS_NAT_BITS_HEADER_SIZE;
	uint8_t *empty = full + bytes;   /* as f2fs_nat_bits_full(), _empty() */

	memset(area, 0, (size_t)area_blocks * F2FS_BLKSIZE);
	le64_store(area, f2fs_nat_bits_header(cp_ver, cp_crc));
	for (uint32_t i = 0; i < nat_blocks; i++) {
		if (used[i] == F2FS_NAT_ENTRY_PER_BLOCK)
			f2fs_nat_bit_set(full, i);
		else if (used[i] == 0)
			f2fs_nat_bit_set(empty, i);
	}
}

unsigned f2fs_nat_bits_mismatch(const uint8_t *area, uint32_t nat_blocks, uint32_t b,
				uint32_t used)
{
	const uint8_t *full = f2fs_nat_bits_full(area);
	const uint8_t *empty = f2fs_nat_bits_empty(area, nat_blocks);
	unsigned wrong = 0;

	if (f2fs_nat_bit_test(full, b) != (used == F2FS_NAT_ENTRY_PER_BLOCK))
		wrong |= F2FS_NAT_BITS_FULL_WRONG;
	if (f2fs_nat_bit_test(empty, b) != (used == 0))
		wrong |= F2FS_NAT_BITS_EMPTY_WRONG;
	return wrong;
}

void f2fs_nat_bits_tally_add(struct f2fs_nat_bits_tally *t, const uint8_t *area,
			     uint32_t nat_blocks, uint32_t b, uint32_t used)
{
	t->full_bits += f2fs_nat_bit_test(f2fs_nat_bits_full(area), b);
	t->empty_bits += f2fs_nat_bit_test(f2fs_nat_bits_empty(area, nat_blocks), b);
	t->full_nat += used == F2FS_NAT_ENTRY_PER_BLOCK;
	t->empty_nat += used == 0;
	t->disagree += f2fs_nat_bits_mismatch(area, nat_blocks, b, used) != 0;
}
