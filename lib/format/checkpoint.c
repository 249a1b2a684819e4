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

static int large_nat_bitmap(const struct f2fs_checkpoint *cp)
{
	return (le32_get(cp->ckpt_flags) & F2FS_CP_LARGE_NAT_BITMAP) != 0;
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
