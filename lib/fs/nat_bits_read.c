/* The nat_bits of the checkpoint in use, on an opened image (nat_bits_read.h). */
#include <f2fs/fs/nat_bits_read.h>
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/ver_bitmap.h>
#include <f2fs/io/dev.h>

#include "fs_priv.h"

#include <string.h>

bool f2fs_fs_nat_bits_where(const struct f2fs_fs *fs, uint32_t *blocks, uint64_t *blkaddr)
{
	*blocks = f2fs_nat_bits_blocks(fs->nat_blocks);
	*blkaddr = (uint64_t)fs->cp_start + F2FS_BLOCKS_PER_SEG - *blocks;
	return *blocks != 0 && *blocks < F2FS_BLOCKS_PER_SEG;
}

uint64_t f2fs_fs_nat_bits_want(const struct f2fs_fs *fs)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);

	return f2fs_nat_bits_header(le64_get(cp->checkpoint_ver), f2fs_cp_stored_crc(cp));
}

int f2fs_fs_nat_bits_read(struct f2fs_fs *fs, void *area, struct f2fs_error *err)
{
	uint32_t blocks;
	uint64_t at;

	if (!f2fs_fs_nat_bits_where(fs, &blocks, &at))
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "nat_bits of %u blocks do not fit in a checkpoint segment", blocks);
	return f2fs_dev_read(fs->dev, at, area, blocks, err);
}

int f2fs_fs_nat_bits_tally(struct f2fs_fs *fs, const uint8_t *area,
			   struct f2fs_nat_bits_tally *t, struct f2fs_error *err)
{
	_Alignas(uint64_t) uint8_t blk[F2FS_BLKSIZE];
	uint32_t nat_blkaddr = le32_get(fs->sb.nat_blkaddr);

	memset(t, 0, sizeof(*t));
	for (uint32_t b = 0; b < fs->nat_blocks; b++) {
		uint64_t addr = f2fs_nat_copy_addr(nat_blkaddr, b,
						   b / 8 < fs->nat_bitmap_bytes &&
						   f2fs_ver_bit(fs->nat_bitmap, b));
		int ret = f2fs_dev_read(fs->dev, addr, blk, 1, err);

		if (ret)
			return ret;
		f2fs_nat_bits_tally_add(t, area, fs->nat_blocks, b, f2fs_nat_block_used(blk, b));
	}
	return 0;
}
