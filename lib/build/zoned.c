/* mkfs on zoned devices: zone checks, the seq-required sections, resets. */
#include "zoned.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SECTORS_PER_BLOCK (F2FS_BLKSIZE / 512)
#define MIB_SECTORS (1048576 / 512)

static bool is_seq(uint8_t type)
{
	return type == F2FS_ZONE_SEQ_REQUIRED || type == F2FS_ZONE_SEQ_PREFERRED;
}

int mkfs_zoned_probe(struct mkfs_zoned *z, struct f2fs_dev *const *dev,
		     uint32_t ndevs, uint64_t *zone_bytes, struct f2fs_error *err)
{
	uint32_t first = ndevs;

	memset(z, 0, sizeof(*z));
	*zone_bytes = 0;
	for (uint32_t i = 0; i < ndevs; i++) {
		const struct f2fs_zones *zs = &z->zones[i];
		int ret = f2fs_zones_report(dev[i], &z->zones[i], err);

		if (ret)
			return ret;
		if (!zs->count)
			continue;
		if (first == ndevs) {
			first = i;
			*zone_bytes = zs->zone_sectors * 512;
		} else if (zs->zone_sectors * 512 != *zone_bytes) {
			return f2fs_fail(err, -F2FS_E_BAD_OPTION,
					 "-m: %s has zones of %llu MiB, %s of %llu MiB: the zoned devices of a volume need one zone size",
					 f2fs_dev_path(dev[i]),
					 (unsigned long long)(zs->zone_sectors / MIB_SECTORS),
					 f2fs_dev_path(dev[first]),
					 (unsigned long long)(*zone_bytes >> 20));
		}
		for (size_t k = 0; k < zs->count; k++)
			if (zs->zone[k].capacity < zs->zone[k].len)
				return f2fs_fail(err, -F2FS_E_UNSUPPORTED,
						 "-m: %s: zone %zu holds %llu of its %llu sectors; zones smaller than their size (ZNS zone capacity) are not supported",
						 f2fs_dev_path(dev[i]), k,
						 (unsigned long long)zs->zone[k].capacity,
						 (unsigned long long)zs->zone[k].len);
	}
	if (first == ndevs)
		return f2fs_fail(err, -F2FS_E_BAD_OPTION,
				 "-m: %s is not a zoned block device",
				 f2fs_dev_path(dev[ndevs - 1]));
	return 0;
}

/* Device index of a global block, and its sector on that device. */
static uint32_t locate(const struct f2fs_layout *l, uint64_t blkaddr, uint64_t *sector)
{
	uint32_t i = 0;

	while (i + 1 < l->ndevs && blkaddr > l->devs[i].end_blkaddr)
		i++;
	*sector = (blkaddr - l->devs[i].start_blkaddr) * SECTORS_PER_BLOCK;
	return i;
}

static const struct f2fs_zone *zone_of(const struct mkfs_zoned *z,
				       const struct f2fs_layout *l, uint64_t blkaddr,
				       uint32_t *devi)
{
	uint64_t sector;
	uint32_t i = locate(l, blkaddr, &sector);

	if (devi)
		*devi = i;
	return f2fs_zones_find(&z->zones[i], sector);
}

bool mkfs_zoned_is_seq(const struct mkfs_zoned *z, const struct f2fs_layout *l,
		       uint64_t blkaddr)
{
	const struct f2fs_zone *zn = zone_of(z, l, blkaddr, NULL);

	return zn && f2fs_zone_is_seq_required(zn);
}

/* The metadata is rewritten in place: it needs zones without a pointer. */
static int check_metadata(const struct mkfs_zoned *z, struct f2fs_dev *const *dev,
			  const struct f2fs_layout *l, struct f2fs_error *err)
{
	for (uint64_t blk = 0; blk < l->main_blkaddr;) {
		uint32_t i;
		const struct f2fs_zone *zn = zone_of(z, l, blk, &i);

		if (!z->zones[i].count) {   /* a regular device */
			blk = l->devs[i].end_blkaddr + 1;
			continue;
		}
		if (!zn) {
			blk++;
			continue;
		}
		if (f2fs_zone_is_seq_required(zn)) {
			size_t conv = 0;

			while (conv < z->zones[i].count &&
			       !f2fs_zone_is_seq_required(&z->zones[i].zone[conv]))
				conv++;
			return f2fs_fail(err, -F2FS_E_BAD_OPTION,
					 "-m: %s: the metadata takes the first %llu MiB, which must be conventional zones; the device has %zu conventional zone(s) of %llu MiB at its start (put a regular device first and the zoned one after it with -c)",
					 f2fs_dev_path(dev[i]),
					 (unsigned long long)((uint64_t)l->main_blkaddr * F2FS_BLKSIZE >> 20),
					 conv, (unsigned long long)(zn->len / MIB_SECTORS));
		}
		blk = zn->start / SECTORS_PER_BLOCK + zn->len / SECTORS_PER_BLOCK +
		      l->devs[i].start_blkaddr;
	}
	return 0;
}

/* Blocks of device i that the volume uses. */
static uint64_t used_blocks(const struct f2fs_layout *l, uint32_t i)
{
	return l->devs[i].end_blkaddr + 1 - l->devs[i].start_blkaddr;
}

static int check_usable(const struct mkfs_zoned *z, struct f2fs_dev *const *dev,
			const struct f2fs_layout *l, struct f2fs_error *err)
{
	for (uint32_t i = 0; i < l->ndevs; i++) {
		uint64_t end = used_blocks(l, i) * SECTORS_PER_BLOCK;

		for (size_t k = 0; k < z->zones[i].count && z->zones[i].zone[k].start < end; k++) {
			uint8_t c = z->zones[i].zone[k].cond;

			if (c == F2FS_ZONE_READONLY || c == F2FS_ZONE_OFFLINE)
				return f2fs_fail(err, -F2FS_E_BAD_OPTION,
						 "-m: %s: zone %zu (at %llu MiB) is %s and cannot hold the file system",
						 f2fs_dev_path(dev[i]), k,
						 (unsigned long long)(z->zones[i].zone[k].start / MIB_SECTORS),
						 f2fs_zone_cond_name(c));
		}
	}
	return 0;
}

int mkfs_zoned_check(struct mkfs_zoned *z, struct f2fs_dev *const *dev,
		     const struct f2fs_layout *l, struct f2fs_error *err)
{
	uint64_t sec_blocks = (uint64_t)l->segs_per_sec * F2FS_BLOCKS_PER_SEG;
	int ret = check_metadata(z, dev, l, err);

	if (!ret)
		ret = check_usable(z, dev, l, err);
	if (ret)
		return ret;
	z->seq_sections = calloc(l->section_count, 1);
	if (!z->seq_sections)
		return f2fs_fail(err, -ENOMEM, "out of memory for %u sections", l->section_count);
	for (uint32_t s = 0; s < l->section_count; s++)
		z->seq_sections[s] = mkfs_zoned_is_seq(z, l, l->main_blkaddr + s * sec_blocks);
	return 0;
}

void mkfs_zoned_count(const struct mkfs_zoned *z, uint32_t *zones, uint32_t *conventional)
{
	*zones = *conventional = 0;
	for (uint32_t i = 0; i < F2FS_MAX_DEVICES; i++)
		for (size_t k = 0; k < z->zones[i].count; k++) {
			(*zones)++;
			*conventional += z->zones[i].zone[k].type == F2FS_ZONE_CONVENTIONAL;
		}
}

int mkfs_zoned_reset(const struct mkfs_zoned *z, struct f2fs_dev *const *dev,
		     const struct f2fs_layout *l, uint32_t *nreset, struct f2fs_error *err)
{
	*nreset = 0;
	for (uint32_t i = 0; i < l->ndevs; i++) {
		const struct f2fs_zones *zs = &z->zones[i];
		uint64_t end = used_blocks(l, i) * SECTORS_PER_BLOCK;
		size_t k = 0;

		/* runs of written sequential zones, one ioctl each */
		while (k < zs->count && zs->zone[k].start < end) {
			size_t run = k;
			int ret;

			while (run < zs->count && zs->zone[run].start < end &&
			       is_seq(zs->zone[run].type) && zs->zone[run].cond != F2FS_ZONE_EMPTY)
				run++;
			if (run == k) {
				k++;
				continue;
			}
			ret = f2fs_zones_reset(dev[i], zs->zone[k].start,
					       zs->zone[run - 1].start + zs->zone[run - 1].len -
					       zs->zone[k].start, err);
			if (ret)
				return ret;
			*nreset += (uint32_t)(run - k);
			k = run;
		}
	}
	return 0;
}

void mkfs_zoned_free(struct mkfs_zoned *z)
{
	for (uint32_t i = 0; i < F2FS_MAX_DEVICES; i++)
		f2fs_zones_free(&z->zones[i]);
	free(z->seq_sections);
	z->seq_sections = NULL;
}
