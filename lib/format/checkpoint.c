/* Checkpoint blocks: seal, verify, locate bitmaps, choose the live pack. */
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/crc.h>
#include <f2fs/format/endian.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void f2fs_cp_seal(void *cp_block)
{
	struct f2fs_checkpoint *cp = cp_block;
	uint32_t crc;

	if (f2fs_cp_crc(cp_block, &crc))
		le32_store((uint8_t *)cp_block + le32_get(cp->checksum_offset), crc);
}

uint32_t f2fs_cp_stored_crc(const void *cp_block)
{
	const struct f2fs_checkpoint *cp = cp_block;
	uint32_t off = le32_get(cp->checksum_offset);

	if (off < F2FS_CP_MIN_CHKSUM_OFFSET || off > F2FS_CP_CHKSUM_OFFSET)
		return 0;
	return le32_load((const uint8_t *)cp_block + off);
}

int f2fs_cp_verify(const void *cp_block, uint64_t blkaddr, struct f2fs_error *err)
{
	const struct f2fs_checkpoint *cp = cp_block;
	uint32_t crc;

	if (!f2fs_cp_crc(cp_block, &crc))
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "checkpoint at block %llu: checksum_offset %u out of range",
				 (unsigned long long)blkaddr, le32_get(cp->checksum_offset));
	if (crc != f2fs_cp_stored_crc(cp_block))
		return f2fs_fail(err, -F2FS_E_BAD_CHECKSUM,
				 "checkpoint at block %llu: CRC 0x%08x, computed 0x%08x",
				 (unsigned long long)blkaddr, f2fs_cp_stored_crc(cp_block), crc);
	return 0;
}

/* The large-NAT-bitmap form moves the CRC up to the bitmaps' start; the
 * kernel refuses the flag without it, so a flag without it is garbage. */
static int large_nat_bitmap(const struct f2fs_checkpoint *cp)
{
	return (le32_get(cp->ckpt_flags) & F2FS_CP_LARGE_NAT_BITMAP) &&
	       le32_get(cp->checksum_offset) == F2FS_CP_MIN_CHKSUM_OFFSET;
}

uint8_t *f2fs_cp_nat_bitmap(void *cp_pack, uint32_t cp_payload)
{
	struct f2fs_checkpoint *cp = cp_pack;
	uint8_t *base = (uint8_t *)cp_pack + F2FS_CP_BITMAP_OFFSET;

	if (large_nat_bitmap(cp))
		return base + 4;   /* after the CRC */
	if (cp_payload > 0)
		return base;
	return base + le32_get(cp->sit_ver_bitmap_bytesize);
}

uint8_t *f2fs_cp_sit_bitmap(void *cp_pack, uint32_t cp_payload)
{
	struct f2fs_checkpoint *cp = cp_pack;
	uint8_t *base = (uint8_t *)cp_pack + F2FS_CP_BITMAP_OFFSET;

	if (large_nat_bitmap(cp))
		return base + 4 + le32_get(cp->nat_ver_bitmap_bytesize);
	if (cp_payload > 0)
		return (uint8_t *)cp_pack + F2FS_BLKSIZE;
	return base;
}

uint32_t f2fs_cp_log_segno(const struct f2fs_checkpoint *cp, int t)
{
	return t < F2FS_NR_CURSEG_DATA ? le32_get(cp->cur_data_segno[t])
				       : le32_get(cp->cur_node_segno[t - F2FS_NR_CURSEG_DATA]);
}

int f2fs_cp_log_ssr(const struct f2fs_checkpoint *cp, int t)
{
	return cp->alloc_type[t] == F2FS_ALLOC_SSR;
}

uint16_t f2fs_cp_log_blkoff(const struct f2fs_checkpoint *cp, int t)
{
	return t < F2FS_NR_CURSEG_DATA ? le16_get(cp->cur_data_blkoff[t])
				       : le16_get(cp->cur_node_blkoff[t - F2FS_NR_CURSEG_DATA]);
}

void f2fs_cp_set_log(struct f2fs_checkpoint *cp, int t, uint32_t segno, uint16_t blkoff)
{
	if (t < F2FS_NR_CURSEG_DATA) {
		cp->cur_data_segno[t] = le32_put(segno);
		cp->cur_data_blkoff[t] = le16_put(blkoff);
	} else {
		cp->cur_node_segno[t - F2FS_NR_CURSEG_DATA] = le32_put(segno);
		cp->cur_node_blkoff[t - F2FS_NR_CURSEG_DATA] = le16_put(blkoff);
	}
}

int f2fs_cp_log_of(const struct f2fs_checkpoint *cp, uint32_t segno)
{
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++)
		if (f2fs_cp_log_segno(cp, t) == segno)
			return t;
	return -1;
}

uint32_t f2fs_cp_effective_flags(const struct f2fs_checkpoint *cp)
{
	uint32_t raw = le32_get(cp->ckpt_flags), flags = raw;
	uint32_t total = le32_get(cp->cp_pack_total_block_count);
	uint32_t start = le32_get(cp->cp_pack_start_sum);
	uint32_t sums = start < total ? total - start - 1 : 0;
	uint32_t data = sums >= 4 ? sums - F2FS_NR_CURSEG_NODE : sums;

	/* a word with bits no kernel sets is garbage: of it only what the
	 * layout shows is kept (node summaries: an unmount, with its
	 * nat_bits), and the CRC-recovery mode of the footers */
	if (raw & ~F2FS_CP_KNOWN_FLAGS)
		flags = (sums >= 4 ? F2FS_CP_UMOUNT | (raw & F2FS_CP_NAT_BITS) : 0) |
			(raw & F2FS_CP_CRC_RECOVERY);

	if (data == 1 || data == 2)
		flags |= F2FS_CP_COMPACT_SUM;
	else if (data == 3)
		flags &= ~(uint32_t)F2FS_CP_COMPACT_SUM;
	if (!large_nat_bitmap(cp))
		flags &= ~(uint32_t)F2FS_CP_LARGE_NAT_BITMAP;
	return flags;
}
