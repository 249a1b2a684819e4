/*
 * pass_zones.c: on a zoned device, the write pointer of every sequential
 * zone of the main area against the blocks the SIT marks valid there and
 * against the current segment the checkpoint gives a log in it. The rules
 * are those Linux applies at mount (fs/f2fs/segment.c): a valid block at or
 * past the pointer is lost to the next write there; a zone without valid
 * blocks must have its pointer at its start, and a log's zone its pointer
 * where the log goes on, both after a clean unmount only. An image file
 * or a device without zones has nothing to check. Block numbers in the
 * reports are the volume's (a zone on a later device of a multi-device
 * volume is named by its first block in the volume).
 */
#include <f2fs/format/bitmap.h>
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/io/zones.h>

#include "ck.h"
#include "passes.h"

#define SECTORS_PER_BLOCK (F2FS_BLKSIZE / 512)

/* Blocks from the section start up to and including its last valid block. */
static uint64_t valid_extent(const struct ck *ck, uint32_t sec, uint32_t segs_per_sec)
{
	for (uint32_t k = segs_per_sec; k-- > 0;) {
		const struct ck_seg *g = &ck->segs[sec * segs_per_sec + k];

		if (!g->vblocks && !f2fs_sit_map_weight(g->map))
			continue;
		for (uint32_t b = F2FS_BLOCKS_PER_SEG; b-- > 0;)
			if (f2fs_msb_test(g->map, b))
				return (uint64_t)k * F2FS_BLOCKS_PER_SEG + b + 1;
	}
	return 0;
}

/* The log whose current segment is in section sec, or -1. */
static int log_in_section(const struct ck *ck, uint32_t sec, uint32_t segs_per_sec)
{
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++)
		if (f2fs_cp_log_segno(ck->cp, t) / segs_per_sec == sec)
			return t;
	return -1;
}

static void check_zone(struct ck *ck, const struct f2fs_zone *zn, uint64_t zone_blk,
		       uint32_t sec, uint32_t segs_per_sec)
{
	uint64_t wp = zn->cond == F2FS_ZONE_FULL ? zn->len / SECTORS_PER_BLOCK :
		      (zn->wp - zn->start) / SECTORS_PER_BLOCK;
	uint64_t used = valid_extent(ck, sec, segs_per_sec);
	int t = log_in_section(ck, sec, segs_per_sec);

	if (t >= 0) {
		uint32_t seg = f2fs_cp_log_segno(ck->cp, t);
		uint64_t at = (uint64_t)(seg % segs_per_sec) * F2FS_BLOCKS_PER_SEG +
			      f2fs_cp_log_blkoff(ck->cp, t);

		/* after a crash the log may have gone on past its checkpoint */
		if (wp < at || (wp > at && (ck->ckpt_flags & F2FS_CP_UMOUNT)))
			ck_pb(ck, F2FS_PB_ZONE_WRITE_POINTER,
			      AT(A_SEG(seg), A_BLK(zone_blk), A_EXP(at), A_FOUND(wp)),
			      "zone at block %llu (section %u) holds log %d: its write pointer is at block %llu of the zone, the checkpoint goes on at block %llu (%s)",
			      (unsigned long long)zone_blk, sec, t, (unsigned long long)wp,
			      (unsigned long long)at, wp < at ? "behind" : "ahead");
		return;
	}
	if (used > wp)
		ck_pb(ck, F2FS_PB_ZONE_WRITE_POINTER,
		      AT(A_SEG(sec * segs_per_sec), A_BLK(zone_blk), A_EXP(used), A_FOUND(wp)),
		      "zone at block %llu (section %u): its write pointer is at block %llu of the zone, behind valid blocks up to block %llu",
		      (unsigned long long)zone_blk, sec, (unsigned long long)wp,
		      (unsigned long long)used - 1);
	/* after a crash, zones the kernel opened since the checkpoint hold
	 * blocks it does not count yet (fsynced ones roll forward); its
	 * next mount resets the rest */
	else if (used == 0 && wp > 0 && (ck->ckpt_flags & F2FS_CP_UMOUNT))
		ck_pb(ck, F2FS_PB_ZONE_WRITE_POINTER,
		      AT(A_SEG(sec * segs_per_sec), A_BLK(zone_blk), A_EXP(0), A_FOUND(wp)),
		      "zone at block %llu (section %u) holds no valid block, but its write pointer is at block %llu of the zone (ahead)",
		      (unsigned long long)zone_blk, sec, (unsigned long long)wp);
}

/* The zones of one device, whose first block is the volume's block start. */
static int check_device(struct ck *ck, struct f2fs_dev *dev, uint64_t start,
			uint32_t segs_per_sec)
{
	uint64_t sec_blocks = (uint64_t)segs_per_sec * F2FS_BLOCKS_PER_SEG;
	struct f2fs_zones zs;
	int ret = f2fs_zones_report(dev, &zs, ck->err);

	if (ret || !zs.count)
		return ret;
	for (size_t i = 0; i < zs.count; i++) {
		const struct f2fs_zone *zn = &zs.zone[i];
		uint64_t blk = start + zn->start / SECTORS_PER_BLOCK;

		if (!f2fs_zone_is_seq_required(zn) || blk < ck->main_blkaddr ||
		    blk + zn->len / SECTORS_PER_BLOCK > ck->main_end ||
		    (blk - ck->main_blkaddr) % sec_blocks)
			continue;
		check_zone(ck, zn, blk, (uint32_t)((blk - ck->main_blkaddr) / sec_blocks),
			   segs_per_sec);
	}
	f2fs_zones_free(&zs);
	return 0;
}

int ck_zones(struct ck *ck)
{
	struct f2fs_dev *vol = f2fs_fs_dev(ck->fs);
	uint32_t segs_per_sec = le32_get(ck->sb->segs_per_sec);
	int ret = 0;

	if (!(ck->features & F2FS_FEATURE_BLKZONED) || !ck->segs)
		return 0;
	/* every device of the volume; a plain device is a set of one */
	for (unsigned i = 0; i < f2fs_dev_nmembers(vol) && !ret; i++) {
		struct f2fs_dev_member m;

		f2fs_dev_member(vol, i, &m);
		ret = check_device(ck, m.dev, m.start, segs_per_sec);
	}
	return ret;
}
