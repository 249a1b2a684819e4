/*
 * dump.f2fs --zones: the zones of each zoned device of the volume (type,
 * condition, write pointer) beside the sections they hold: area, section,
 * log, valid blocks from the SIT and the end of the last valid block.
 */
#include "dump.h"

#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/fs/sit.h>
#include <f2fs/io/zones.h>

#include <stdio.h>
#include <string.h>

#define SECTORS_PER_BLOCK (F2FS_BLKSIZE / 512)

/* Blocks from the section start to the end of its last valid block. */
static uint64_t valid_extent(const struct f2fs_sit *sit, uint32_t sec)
{
	for (uint32_t k = sit->segs_per_sec; k-- > 0;) {
		uint32_t segno = sec * sit->segs_per_sec + k;

		if (!sit->seg[segno].valid)
			continue;
		for (uint32_t b = F2FS_BLOCKS_PER_SEG; b-- > 0;)
			if (f2fs_sit_block_valid(sit, segno, b))
				return (uint64_t)k * F2FS_BLOCKS_PER_SEG + b + 1;
	}
	return 0;
}

static const char *log_of_section(const struct f2fs_sit *sit, uint32_t sec)
{
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++)
		if (sit->cur_segno[t] / sit->segs_per_sec == sec)
			return log_keys[t];
	return "-";
}

static const struct out_col zone_cols[] = {
	{ "zone", "zone", 6, OUT_COL_U },
	{ "start", "start (block)", 13, OUT_COL_U },
	{ "blocks", "blocks", 7, OUT_COL_U },
	{ "type", "type", -13, OUT_COL_S },
	{ "cond", "condition", -13, OUT_COL_S },
	{ "wp", "wp (block in zone)", 18, OUT_COL_U },
	{ "area", "area", -4, OUT_COL_S },
	{ "section", "section", 7, OUT_COL_U },
	{ "log", "log", -9, OUT_COL_S },
	{ "valid", "valid", 7, OUT_COL_U },
	{ "valid_end", "valid end", 9, OUT_COL_U },
	{ "device", "device", 6, OUT_COL_U },
};

/* The rows of one device's zones; start is its first block in the volume. */
static void zone_rows(struct dump *d, struct out_table *t, const struct f2fs_sit *sit,
		      const struct f2fs_zones *zs, unsigned devi, uint64_t start)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(d->fs);
	uint64_t main_blk = le32_get(sb->main_blkaddr);
	uint64_t sec_blocks = (uint64_t)le32_get(sb->segs_per_sec) * F2FS_BLOCKS_PER_SEG;

	for (size_t i = 0; i < zs->count; i++) {
		const struct f2fs_zone *zn = &zs->zone[i];
		uint64_t blk = start + zn->start / SECTORS_PER_BLOCK;
		uint64_t sec = blk >= main_blk ? (blk - main_blk) / sec_blocks : 0;
		int in_main = blk >= main_blk && sec < sit->nsecs;
		int has_wp = zn->type != F2FS_ZONE_CONVENTIONAL;

		out_tab_row(&d->out, t, (struct out_cell[]){ OUT_U(i),
			OUT_U(zn->start / SECTORS_PER_BLOCK),
			OUT_U(zn->len / SECTORS_PER_BLOCK), OUT_S(f2fs_zone_type_name(zn->type)),
			OUT_S(f2fs_zone_cond_name(zn->cond)),
			has_wp ? OUT_U(zn->cond == F2FS_ZONE_FULL ? zn->len / SECTORS_PER_BLOCK :
				       (zn->wp - zn->start) / SECTORS_PER_BLOCK) : OUT_NONE,
			OUT_S(in_main ? "main" : blk < main_blk ? "meta" : "-"),
			in_main ? OUT_U(sec) : OUT_NONE,
			OUT_S(in_main ? log_of_section(sit, (uint32_t)sec) : "-"),
			in_main ? OUT_U(f2fs_sit_sec_valid(sit, (uint32_t)sec)) : OUT_NONE,
			in_main ? OUT_U(valid_extent(sit, (uint32_t)sec)) : OUT_NONE,
			OUT_U(devi) });
	}
}

int view_zones(struct dump *d)
{
	struct f2fs_dev *vol = f2fs_fs_dev(d->fs);
	unsigned n = f2fs_dev_nmembers(vol), zoned = 0;
	struct f2fs_zones zs[F2FS_MAX_DEVICES];
	struct f2fs_dev_member m[F2FS_MAX_DEVICES];
	struct f2fs_error err;
	struct f2fs_sit *sit = NULL;
	struct out_table t;
	int ret = EXIT_OK;

	memset(zs, 0, sizeof(zs));
	for (unsigned i = 0; i < n && i < F2FS_MAX_DEVICES && ret == EXIT_OK; i++) {
		f2fs_dev_member(vol, i, &m[i]);
		if (f2fs_zones_report(m[i].dev, &zs[i], &err))
			ret = error_line("%s", err.msg);
		zoned += zs[i].count > 0;
	}
	if (ret == EXIT_OK && !zoned)
		ret = error_line("--zones: %s is not a zoned block device%s", f2fs_dev_path(m[0].dev),
				 n > 1 ? ", nor is any other device of the volume" : "");
	if (ret == EXIT_OK && f2fs_sit_load(d->fs, F2FS_SIT_WANT_MAPS, &sit, &err))
		ret = error_line("%s", err.msg);
	if (ret == EXIT_OK) {
		out_tab_begin(&d->out, &t, "zones",
			      "Zones of the devices and the sections they hold (start: block on the device):",
			      zone_cols, 12);
		for (unsigned i = 0; i < n && i < F2FS_MAX_DEVICES; i++)
			zone_rows(d, &t, sit, &zs[i], i, m[i].start);
		out_tab_end(&d->out, &t);
	}
	if (sit)
		f2fs_sit_free(sit);
	for (unsigned i = 0; i < F2FS_MAX_DEVICES; i++)
		f2fs_zones_free(&zs[i]);
	return ret;
}
