/*
 * Opening an existing image read-only: superblock, checkpoint, journals, and
 * the other devices of a volume over several. Apart from the accessors
 * (fs.c) because checking those devices reads the NAT, SIT and SSA, which
 * are read through the accessors: the open sequence sits above them all.
 */
#include <f2fs/fs/meta_read.h>
#include <f2fs/fs/fs.h>
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/crc.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/super.h>

#include "fs_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void note(struct f2fs_fs *fs, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct f2fs_fs *fs, const char *fmt, ...)
{
	va_list ap;

	if (fs->nnotes >= F2FS_FS_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(fs->notes[fs->nnotes].msg, sizeof(fs->notes[0].msg), fmt, ap);
	va_end(ap);
	fs->notes[fs->nnotes].code = -F2FS_E_CORRUPT;
	fs->nnotes++;
}

static int corrupt(struct f2fs_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int corrupt(struct f2fs_error *err, const char *fmt, ...)
{
	char msg[F2FS_ERROR_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return f2fs_fail(err, -F2FS_E_CORRUPT, "%s", msg);
}

/* Locate and check the version bitmaps of the chosen pack. */
static int load_bitmaps(struct f2fs_fs *fs, struct f2fs_error *err)
{
	const struct f2fs_checkpoint *cp = (const void *)fs->cp_buf;
	const struct f2fs_super_block *sb = &fs->sb;
	uint64_t buf_len = (1 + (uint64_t)fs->cp_payload) * F2FS_BLKSIZE;
	uint32_t flags = le32_get(cp->ckpt_flags);
	uint32_t sit_want = le32_get(sb->segment_count_sit) / 2 * F2FS_BLOCKS_PER_SEG / 8;
	uint32_t nat_want = le32_get(sb->segment_count_nat) / 2 * F2FS_BLOCKS_PER_SEG / 8;
	uint32_t sit_bytes = le32_get(cp->sit_ver_bitmap_bytesize);
	uint32_t nat_bytes = le32_get(cp->nat_ver_bitmap_bytesize);
	uint32_t csum_off = le32_get(cp->checksum_offset);
	uint64_t nat_off, sit_off;

	if (sit_bytes != sit_want || nat_bytes != nat_want)
		return corrupt(err, "checkpoint: version bitmaps of %u/%u bytes (SIT/NAT), the superblock implies %u/%u",
			       sit_bytes, nat_bytes, sit_want, nat_want);
	nat_off = (uint64_t)(f2fs_cp_nat_bitmap(fs->cp_buf, fs->cp_payload) - fs->cp_buf);
	sit_off = (uint64_t)(f2fs_cp_sit_bitmap(fs->cp_buf, fs->cp_payload) - fs->cp_buf);
	if (nat_off + nat_bytes > buf_len || sit_off + sit_bytes > buf_len)
		return corrupt(err, "checkpoint: version bitmaps (%u + %u bytes) do not fit in %u checkpoint block(s)",
			       sit_bytes, nat_bytes, 1 + fs->cp_payload);
	if (!(flags & F2FS_CP_LARGE_NAT_BITMAP)) {
		/* bitmaps held in the CP block must end before its CRC */
		if (nat_off + nat_bytes > csum_off ||
		    (fs->cp_payload == 0 && sit_off + sit_bytes > csum_off))
			return corrupt(err, "checkpoint: version bitmaps overlap the CRC at byte %u",
				       csum_off);
	}
	fs->nat_bitmap = fs->cp_buf + nat_off;
	fs->sit_bitmap = fs->cp_buf + sit_off;
	fs->nat_bitmap_bytes = nat_bytes;
	fs->sit_bitmap_bytes = sit_bytes;
	fs->nat_blocks = nat_bytes * 8;
	fs->max_nid = (uint32_t)((uint64_t)fs->nat_blocks * F2FS_NAT_ENTRY_PER_BLOCK >
				 UINT32_MAX ? UINT32_MAX :
				 (uint64_t)fs->nat_blocks * F2FS_NAT_ENTRY_PER_BLOCK);
	return 0;
}

static void bound_journal(struct f2fs_fs *fs, struct f2fs_journal *j,
			  uint32_t max, const char *what)
{
	uint32_t n = le16_get(j->n_entries);

	if (n > max) {
		note(fs, "%s journal claims %u entries, at most %u fit; using %u",
		     what, n, max, max);
		j->n_entries = le16_put((uint16_t)max);
	}
}

/* NAT journal from the hot-data summary, SIT journal from cold data. */
static int load_journals(struct f2fs_fs *fs, struct f2fs_error *err)
{
	const struct f2fs_checkpoint *cp = (const void *)fs->cp_buf;
	uint32_t flags = f2fs_cp_effective_flags(cp);
	uint32_t total = le32_get(cp->cp_pack_total_block_count);
	uint32_t start = le32_get(cp->cp_pack_start_sum);
	uint32_t need = (flags & F2FS_CP_COMPACT_SUM) ? 1 : 3;
	uint8_t *blk = malloc(F2FS_BLKSIZE);
	int ret;

	if (!blk)
		return f2fs_fail(err, -ENOMEM, "out of memory");
	fs->ckpt_flags = flags;
	if (flags != le32_get(cp->ckpt_flags))
		note(fs, "checkpoint flags 0x%x read as 0x%x, as the pack's layout bears them out",
		     le32_get(cp->ckpt_flags), flags);
	/* summaries lie between the payload and the footer */
	if (start < 1 + fs->cp_payload || (uint64_t)start + need > total - 1) {
		free(blk);
		return corrupt(err, "checkpoint: cp_pack_start_sum %u outside the pack (%u blocks, payload %u)",
			       start, total, fs->cp_payload);
	}
	ret = f2fs_dev_read(fs->dev, (uint64_t)fs->cp_start + start, blk, 1, err);
	if (ret)
		goto out;
	if (flags & F2FS_CP_COMPACT_SUM) {
		memcpy(&fs->nat_j, blk, F2FS_SUM_JOURNAL_SIZE);
		memcpy(&fs->sit_j, blk + F2FS_SUM_JOURNAL_SIZE, F2FS_SUM_JOURNAL_SIZE);
	} else {
		memcpy(&fs->nat_j, blk + F2FS_SUM_ENTRY_SIZE, F2FS_SUM_JOURNAL_SIZE);
		ret = f2fs_dev_read(fs->dev, (uint64_t)fs->cp_start + start + 2, blk, 1, err);
		if (ret)
			goto out;
		memcpy(&fs->sit_j, blk + F2FS_SUM_ENTRY_SIZE, F2FS_SUM_JOURNAL_SIZE);
	}
	bound_journal(fs, &fs->nat_j, F2FS_NAT_JOURNAL_ENTRIES, "NAT");
	bound_journal(fs, &fs->sit_j, F2FS_SIT_JOURNAL_ENTRIES, "SIT");
out:
	free(blk);
	return ret;
}

int f2fs_fs_open(struct f2fs_fs **out, const char *path, struct f2fs_error *err)
{
	return f2fs_fs_open_flags(out, path, F2FS_DEV_RDONLY, err);
}

int f2fs_fs_open_flags(struct f2fs_fs **out, const char *path, int dev_flags,
		       struct f2fs_error *err)
{
	return f2fs_fs_open_devices(out, path, NULL, 0, dev_flags, err);
}

int f2fs_fs_open_devices(struct f2fs_fs **out, const char *path,
			 const char *const *devices, unsigned ndevices, int dev_flags,
			 struct f2fs_error *err)
{
	struct f2fs_fs *fs;
	int ret;

	*out = NULL;
	fs = calloc(1, sizeof(*fs));
	if (!fs)
		return f2fs_fail(err, -ENOMEM, "out of memory");
	fs->nat_cache_addr = UINT64_MAX;
	ret = f2fs_dev_open(&fs->dev, path, dev_flags, err);
	if (ret)
		goto fail;
	ret = f2fs_sb_read(fs->dev, &fs->sb, &fs->sb_copy, &fs->sb_primary_err, err);
	if (!ret)
		ret = fs_open_devices(fs, path, devices, ndevices, dev_flags, err);
	if (ret)
		goto fail;
	fs->cp_payload = le32_get(fs->sb.cp_payload);
	fs->cp_buf = malloc((1 + (size_t)fs->cp_payload) * F2FS_BLKSIZE);
	if (!fs->cp_buf) {
		ret = f2fs_fail(err, -ENOMEM, "out of memory");
		goto fail;
	}
	ret = f2fs_cp_choose(fs->dev, le32_get(fs->sb.cp_blkaddr), fs->cp_payload,
			     fs->cp_buf, &fs->choice, err);
	if (ret)
		goto fail;
	fs->cp_start = le32_get(fs->sb.cp_blkaddr) +
		       (uint32_t)fs->choice.pack * F2FS_BLOCKS_PER_SEG;
	ret = load_bitmaps(fs, err);
	if (!ret)
		ret = load_journals(fs, err);
	if (!ret)
		ret = fs_verify_devices(fs, err);
	if (ret)
		goto fail;
	fs->crc_seed = f2fs_inode_crc_seed(fs->sb.uuid);
	*out = fs;
	return 0;
fail:
	f2fs_fs_close(fs);
	return ret;
}

void f2fs_fs_close(struct f2fs_fs *fs)
{
	if (!fs)
		return;
	if (fs->dev)
		f2fs_dev_close(fs->dev);
	free(fs->cp_buf);
	free(fs);
}
