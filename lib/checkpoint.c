/* Checkpoint blocks: seal, verify, locate bitmaps, choose the live pack. */
#include <f2fs/checkpoint.h>
#include <f2fs/crc.h>
#include <f2fs/endian.h>

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

/* Read one pack's header and footer; 0 when both agree and verify. */
static int read_pack(struct f2fs_dev *dev, uint64_t start, uint32_t cp_payload,
		     uint8_t *buf, struct f2fs_error *err)
{
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)buf;
	uint8_t *footer = buf + (1 + (size_t)cp_payload) * F2FS_BLKSIZE;
	uint32_t total;
	int ret;

	ret = f2fs_dev_read(dev, start, buf, 1 + cp_payload, err);
	if (!ret)
		ret = f2fs_cp_verify(buf, start, err);
	if (ret)
		return ret;
	total = le32_get(cp->cp_pack_total_block_count);
	if (total < 2 + cp_payload || total > F2FS_BLOCKS_PER_SEG)
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "checkpoint at block %llu: cp_pack_total_block_count %u out of range",
				 (unsigned long long)start, total);
	ret = f2fs_dev_read(dev, start + total - 1, footer, 1, err);
	if (!ret)
		ret = f2fs_cp_verify(footer, start + total - 1, err);
	if (ret)
		return ret;
	if (le64_load(footer) != le64_get(cp->checkpoint_ver))
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "checkpoint at block %llu: footer version %llu differs from header version %llu",
				 (unsigned long long)start,
				 (unsigned long long)le64_load(footer),
				 (unsigned long long)le64_get(cp->checkpoint_ver));
	return 0;
}

int f2fs_cp_choose(struct f2fs_dev *dev, uint32_t cp_blkaddr, uint32_t cp_payload,
		   void *buf, struct f2fs_cp_choice *choice, struct f2fs_error *err)
{
	size_t len = (2 + (size_t)cp_payload) * F2FS_BLKSIZE;
	uint8_t *pack[2] = { malloc(len), malloc(len) };
	struct f2fs_error perr[2];
	int ok[2], best;

	if (!pack[0] || !pack[1]) {
		free(pack[0]);
		free(pack[1]);
		return f2fs_fail(err, -ENOMEM, "out of memory reading checkpoints");
	}
	for (int i = 0; i < 2; i++)
		ok[i] = read_pack(dev, cp_blkaddr + (uint64_t)i * F2FS_BLOCKS_PER_SEG,
				  cp_payload, pack[i], &perr[i]) == 0;
	if (!ok[0] && !ok[1]) {
		f2fs_fail(err, perr[0].code, "no valid checkpoint: %s; %s",
			  perr[0].msg, perr[1].msg);
		free(pack[0]);
		free(pack[1]);
		return err ? err->code : -F2FS_E_CORRUPT;
	}
	if (ok[0] && ok[1])
		best = le64_load(pack[1]) > le64_load(pack[0]) ? 1 : 0;
	else
		best = ok[0] ? 0 : 1;
	memcpy(buf, pack[best], (1 + (size_t)cp_payload) * F2FS_BLKSIZE);
	choice->pack = best;
	choice->version = le64_load(pack[best]);
	choice->other_valid = ok[!best];
	choice->other_err = ok[!best] ? (struct f2fs_error){ 0 } : perr[!best];
	free(pack[0]);
	free(pack[1]);
	return 0;
}
