/* Reading the superblock copies and choosing the checkpoint pack. */
#include <f2fs/fs/meta_read.h>
#include <f2fs/fs/fs.h>
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/super.h>

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int f2fs_sb_read(struct f2fs_dev *dev, struct f2fs_super_block *sb,
		 int *copy_used, struct f2fs_error *primary_err,
		 struct f2fs_error *err)
{
	uint64_t bytes = f2fs_dev_bytes(dev);
	int ret = -F2FS_E_NOT_F2FS;

	f2fs_error_clear(primary_err);
	/* the path once, and what is wrong with the size in bytes */
	if (bytes == 0)
		return f2fs_fail(err, -F2FS_E_TOO_SMALL, "%s: the %s is empty", f2fs_dev_path(dev),
				 f2fs_dev_is_blockdev(dev) ? "device" : "file");
	if (bytes < 2 * F2FS_BLKSIZE)
		return f2fs_fail(err, -F2FS_E_TOO_SMALL,
				 "%s: %llu bytes, too small for F2FS (its two superblocks "
				 "take the first %u)", f2fs_dev_path(dev),
				 (unsigned long long)bytes, 2 * F2FS_BLKSIZE);
	for (int copy = 0; copy < 2; copy++) {
		struct f2fs_error *e = copy == 0 && primary_err ? primary_err : err;

		ret = f2fs_dev_pread(dev, (uint64_t)copy * F2FS_BLKSIZE + F2FS_SUPER_OFFSET,
				     sb, sizeof(*sb), e);
		if (!ret)
			ret = f2fs_sb_validate(sb, 0, e);
		/* a volume over several devices: each one is checked against
		 * the device table once they are open */
		if (!ret && f2fs_sb_ndevs(sb) <= 1 &&
		    le64_get(sb->block_count) > bytes / F2FS_BLKSIZE)
			ret = f2fs_fail(e, -F2FS_E_CORRUPT,
					"%s: truncated: %llu bytes, the superblock claims %llu "
					"(block_count %llu)", f2fs_dev_path(dev),
					(unsigned long long)bytes,
					(unsigned long long)le64_get(sb->block_count) * F2FS_BLKSIZE,
					(unsigned long long)le64_get(sb->block_count));
		if (!ret) {
			if (copy_used)
				*copy_used = copy;
			return 0;
		}
	}
	return ret;
}

/* What a pack that failed its checks still tells of its version. */
enum pack_state {
	PACK_UNREAD,        /* its header could not be read */
	PACK_TORN,          /* the header fails its CRC and no footer vouches for it */
	PACK_DAMAGED,       /* the header fails its CRC, a footer of its version verifies */
	PACK_BAD_SIZES,     /* the header verifies, its sizes do not */
	PACK_UNCOMMITTED,   /* the header verifies, no intact footer of its version */
};

/* The kernel's ver_after: a is later than b, across a wrap of the counter. */
static bool ver_after(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) > 0;
}

/* Does a footer of version ver verify at the end of a pack of total blocks? */
static bool footer_vouches(struct f2fs_dev *dev, uint64_t start, uint32_t cp_payload,
			   uint32_t total, uint64_t ver, uint8_t *footer)
{
	struct f2fs_error e;

	return total >= 2 + cp_payload && total <= F2FS_BLOCKS_PER_SEG &&
	       !f2fs_dev_read(dev, start + total - 1, footer, 1, &e) &&
	       !f2fs_cp_verify(footer, start + total - 1, &e) && le64_load(footer) == ver;
}

/*
 * Read one pack's header and footer; 0 when both agree and verify, else
 * *state says what the pack still tells.
 */
static int read_pack(struct f2fs_dev *dev, uint64_t start, uint32_t cp_payload,
		     uint8_t *buf, enum pack_state *state, struct f2fs_error *err)
{
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)buf;
	uint8_t *footer = buf + (1 + (size_t)cp_payload) * F2FS_BLKSIZE;
	uint32_t total;
	int ret;

	*state = PACK_UNREAD;
	ret = f2fs_dev_read(dev, start, buf, 1 + cp_payload, err);
	if (ret)
		return ret;
	total = le32_get(cp->cp_pack_total_block_count);
	ret = f2fs_cp_verify(buf, start, err);
	if (ret) {
		*state = footer_vouches(dev, start, cp_payload, total, le64_get(cp->checkpoint_ver),
					footer) ? PACK_DAMAGED : PACK_TORN;
		return ret;
	}
	*state = PACK_BAD_SIZES;
	if (total < 2 + cp_payload || total > F2FS_BLOCKS_PER_SEG)
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "checkpoint at block %llu: cp_pack_total_block_count %u out of range",
				 (unsigned long long)start, total);
	*state = PACK_UNCOMMITTED;
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

/*
 * The newest checkpoint block that verifies among the blocks after a
 * pack's first, in its slot (a footer: the kernel writes a copy of the
 * header last): 1 with *ver when one does, 0 when none (or they cannot
 * be read). Footers of older packs may lie beyond the last one's end; the
 * newest of them is the last pack committed to the slot. Versions are
 * ordered from in_use, as the kernel orders them.
 */
static int newest_footer(struct f2fs_dev *dev, uint64_t start, uint64_t in_use, uint64_t *ver)
{
	uint8_t *blk = malloc((size_t)(F2FS_BLOCKS_PER_SEG - 1) * F2FS_BLKSIZE);
	struct f2fs_error e;
	int found = 0;

	if (!blk)
		return 0;
	if (!f2fs_dev_read(dev, start + 1, blk, F2FS_BLOCKS_PER_SEG - 1, &e))
		for (uint32_t k = 0; k < F2FS_BLOCKS_PER_SEG - 1; k++) {
			const uint8_t *b = blk + (size_t)k * F2FS_BLKSIZE;
			uint64_t v = le64_load(b);

			if (f2fs_cp_verify(b, start + 1 + k, &e))
				continue;
			if (!found || (int64_t)(v - in_use) > (int64_t)(*ver - in_use))
				*ver = v;
			found = 1;
		}
	free(blk);
	return found;
}

/*
 * How old is a broken pack against the valid one in use (version in_use),
 * and had it been committed? The kernel never asks: validate_checkpoint
 * drops a pack that fails (its header's CRC offset or CRC, its total block
 * count, its footer's CRC or version) and f2fs_get_valid_checkpoint mounts
 * the other one, so the answer only tells what that choice cost: a loss
 * (NEWER, the one case fsck calls an error) only where the pack shows that
 * a checkpoint after the one in use was committed.
 *
 * A checkpoint is committed by its footer: the kernel writes the rest of
 * the pack, flushes, and writes the footer last. A crash before that leaves
 * a newer pack with its old footer (or none, or a torn one) beside the older
 * pack, and nothing committed is lost: UNFINISHED. Each checkpoint writes
 * the version in use plus one into the other slot (f2fs-tools' fsck may copy
 * the pack in use there unchanged), so sound packs are at most one version
 * apart, and a crash that tears the header keeps its first sector, the
 * version with it. So:
 *  - a verified header is ordered by its version as the kernel orders
 *    versions; newer, it is NEWER when its sizes are bad (no crash writes
 *    that), else UNFINISHED unless its footer is intact;
 *  - a header that fails its CRC but whose footer of the same version
 *    verifies was committed and damaged since: ordered by that version;
 *  - a header that fails its CRC (or cannot be read) with no such footer:
 *    the slot's footers tell what was committed there last. One newer than
 *    the pack in use is a checkpoint committed and lost since: NEWER, at
 *    its version. Else the header's version, when it is one a crash or a
 *    copy leaves (in_use + 1: UNFINISHED; in_use or in_use - 1: OLDER),
 *    is kept; else the pack is OLDER at its newest footer's version (as
 *    f2fs-tools' resize.f2fs leaves the pack it does not use: its first
 *    block zeroed, the older footer intact), or, with no footer at all,
 *    UNORDERED: nothing shows that anything committed is lost.
 */
static enum f2fs_cp_age broken_pack_age(struct f2fs_dev *dev, uint64_t start,
					const uint8_t *header, enum pack_state state,
					uint64_t in_use, uint64_t *version)
{
	uint64_t v = state == PACK_UNREAD ? 0 : le64_load(header), fv = 0;
	int footer;

	*version = v;
	switch (state) {
	case PACK_DAMAGED:
	case PACK_BAD_SIZES:
		return ver_after(v, in_use) ? F2FS_CP_NEWER : F2FS_CP_OLDER;
	case PACK_UNCOMMITTED:
		return ver_after(v, in_use) ? F2FS_CP_UNFINISHED : F2FS_CP_OLDER;
	case PACK_TORN:
	case PACK_UNREAD:
		break;
	}
	footer = newest_footer(dev, start, in_use, &fv);
	if (footer && ver_after(fv, in_use)) {
		*version = fv;
		return F2FS_CP_NEWER;
	}
	if (state == PACK_TORN && v == in_use + 1)
		return F2FS_CP_UNFINISHED;
	if (state == PACK_TORN && (v == in_use || v == in_use - 1))
		return F2FS_CP_OLDER;
	*version = footer ? fv : 0;
	return footer ? F2FS_CP_OLDER : F2FS_CP_UNORDERED;
}

int f2fs_cp_choose(struct f2fs_dev *dev, uint32_t cp_blkaddr, uint32_t cp_payload,
		   void *buf, struct f2fs_cp_choice *choice, struct f2fs_error *err)
{
	size_t len = (2 + (size_t)cp_payload) * F2FS_BLKSIZE;
	uint8_t *pack[2] = { malloc(len), malloc(len) };
	struct f2fs_error perr[2];
	enum pack_state state[2];
	int ok[2], best;

	if (!pack[0] || !pack[1]) {
		free(pack[0]);
		free(pack[1]);
		return f2fs_fail(err, -ENOMEM, "out of memory reading checkpoints");
	}
	for (int i = 0; i < 2; i++)
		ok[i] = read_pack(dev, cp_blkaddr + (uint64_t)i * F2FS_BLOCKS_PER_SEG,
				  cp_payload, pack[i], &state[i], &perr[i]) == 0;
	if (!ok[0] && !ok[1]) {
		f2fs_fail(err, perr[0].code, "no valid checkpoint: %s; %s",
			  perr[0].msg, perr[1].msg);
		free(pack[0]);
		free(pack[1]);
		return err ? err->code : -F2FS_E_CORRUPT;
	}
	if (ok[0] && ok[1])
		best = ver_after(le64_load(pack[1]), le64_load(pack[0])) ? 1 : 0;
	else
		best = ok[0] ? 0 : 1;
	memcpy(buf, pack[best], (1 + (size_t)cp_payload) * F2FS_BLKSIZE);
	choice->pack = best;
	choice->version = le64_load(pack[best]);
	choice->other_valid = ok[!best];
	choice->other_err = ok[!best] ? (struct f2fs_error){ 0 } : perr[!best];
	if (ok[!best]) {
		choice->other_age = F2FS_CP_OLDER;
		choice->other_version = le64_load(pack[!best]);
	} else {
		choice->other_age = broken_pack_age(dev, cp_blkaddr + (uint64_t)!best *
						    F2FS_BLOCKS_PER_SEG, pack[!best], state[!best],
						    choice->version, &choice->other_version);
	}
	free(pack[0]);
	free(pack[1]);
	return 0;
}
