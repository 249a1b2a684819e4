/* Reading the superblock copies and choosing the checkpoint pack. */
#include <f2fs/fs/meta_read.h>
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/super.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int f2fs_sb_read(struct f2fs_dev *dev, struct f2fs_super_block *sb,
		 int *copy_used, struct f2fs_error *primary_err,
		 struct f2fs_error *err)
{
	uint64_t dev_blocks = f2fs_dev_bytes(dev) / F2FS_BLKSIZE;
	int ret = -F2FS_E_NOT_F2FS;

	f2fs_error_clear(primary_err);
	for (int copy = 0; copy < 2; copy++) {
		struct f2fs_error *e = copy == 0 && primary_err ? primary_err : err;

		ret = f2fs_dev_pread(dev, (uint64_t)copy * F2FS_BLKSIZE + F2FS_SUPER_OFFSET,
				     sb, sizeof(*sb), e);
		if (!ret)
			ret = f2fs_sb_validate(sb, dev_blocks, e);
		if (!ret) {
			if (copy_used)
				*copy_used = copy;
			return 0;
		}
	}
	return ret;
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
