/* An opened image (fs_open.c opens it): what it holds, and its blocks. */
#include <f2fs/fs/fs.h>
#include <f2fs/format/endian.h>

#include "fs_priv.h"

struct f2fs_dev *f2fs_fs_dev(const struct f2fs_fs *fs)
{
	return fs->dev;
}

const struct f2fs_super_block *f2fs_fs_sb(const struct f2fs_fs *fs)
{
	return &fs->sb;
}

uint32_t f2fs_fs_features(const struct f2fs_fs *fs)
{
	return le32_get(fs->sb.feature);
}

int f2fs_fs_sb_copy(const struct f2fs_fs *fs, const struct f2fs_error **why)
{
	if (why)
		*why = fs->sb_copy ? &fs->sb_primary_err : NULL;
	return fs->sb_copy;
}

const struct f2fs_checkpoint *f2fs_fs_cp(const struct f2fs_fs *fs)
{
	return (const struct f2fs_checkpoint *)fs->cp_buf;
}

const struct f2fs_cp_choice *f2fs_fs_cp_choice(const struct f2fs_fs *fs)
{
	return &fs->choice;
}

uint32_t f2fs_fs_cp_start(const struct f2fs_fs *fs)
{
	return fs->cp_start;
}

uint32_t f2fs_fs_ckpt_flags(const struct f2fs_fs *fs)
{
	return fs->ckpt_flags;
}

const uint8_t *f2fs_fs_nat_bitmap(const struct f2fs_fs *fs, uint32_t *bytes)
{
	if (bytes)
		*bytes = fs->nat_bitmap_bytes;
	return fs->nat_bitmap;
}

const uint8_t *f2fs_fs_sit_bitmap(const struct f2fs_fs *fs, uint32_t *bytes)
{
	if (bytes)
		*bytes = fs->sit_bitmap_bytes;
	return fs->sit_bitmap;
}

const struct f2fs_journal *f2fs_fs_nat_journal(const struct f2fs_fs *fs)
{
	return &fs->nat_j;
}

const struct f2fs_journal *f2fs_fs_sit_journal(const struct f2fs_fs *fs)
{
	return &fs->sit_j;
}

uint32_t f2fs_fs_nat_blocks(const struct f2fs_fs *fs)
{
	return fs->nat_blocks;
}

uint32_t f2fs_fs_max_nid(const struct f2fs_fs *fs)
{
	return fs->max_nid;
}

uint32_t f2fs_fs_inode_crc_seed(const struct f2fs_fs *fs)
{
	return fs->crc_seed;
}

int f2fs_fs_nnotes(const struct f2fs_fs *fs)
{
	return fs->nnotes;
}

const char *f2fs_fs_note(const struct f2fs_fs *fs, int i)
{
	return i >= 0 && i < fs->nnotes ? fs->notes[i].msg : NULL;
}

int f2fs_fs_read_block(struct f2fs_fs *fs, uint64_t blkaddr, void *buf,
		       struct f2fs_error *err)
{
	if (blkaddr >= le64_get(fs->sb.block_count))
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "block %llu is beyond the end of the file system (%llu blocks)",
				 (unsigned long long)blkaddr,
				 (unsigned long long)le64_get(fs->sb.block_count));
	return f2fs_dev_read(fs->dev, blkaddr, buf, 1, err);
}

int f2fs_fs_in_main(const struct f2fs_fs *fs, uint64_t blkaddr)
{
	uint64_t start = le32_get(fs->sb.main_blkaddr);
	uint64_t end = start + (uint64_t)le32_get(fs->sb.segment_count_main) *
			       F2FS_BLOCKS_PER_SEG;

	if (end > le64_get(fs->sb.block_count))
		end = le64_get(fs->sb.block_count);
	return blkaddr >= start && blkaddr < end;
}
