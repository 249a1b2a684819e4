/*
 * mkfs on zoned devices (-m): the zones of every target, the checks the
 * layout must pass on them, and the write-pointer resets before writing.
 * Internal to lib/build.
 */
#ifndef F2FS_BUILD_ZONED_H
#define F2FS_BUILD_ZONED_H

#include <stdbool.h>
#include <stdint.h>

#include <f2fs/io/dev.h>
#include <f2fs/io/zones.h>
#include <f2fs/format/layout.h>
#include <f2fs/util/error.h>

struct mkfs_zoned {
	struct f2fs_zones zones[F2FS_MAX_DEVICES];   /* count 0: not zoned */
	uint8_t *seq_sections;    /* per main section: in a seq-required zone */
};

/*
 * Report the zones of every device; the zone size (bytes) all zoned ones
 * share goes to *zone_bytes. Fails, naming the device, when none is zoned,
 * when zone sizes differ, or when a zone's capacity is below its size.
 */
int mkfs_zoned_probe(struct mkfs_zoned *z, struct f2fs_dev *const *dev,
		     uint32_t ndevs, uint64_t *zone_bytes, struct f2fs_error *err);

/*
 * The layout against the zones: the metadata lies in conventional zones,
 * no used zone is read-only or offline. Marks the main sections that lie
 * in seq-required zones.
 */
int mkfs_zoned_check(struct mkfs_zoned *z, struct f2fs_dev *const *dev,
		     const struct f2fs_layout *l, struct f2fs_error *err);

/* Is the global block in a seq-required zone (a reset one reads zeros)? */
bool mkfs_zoned_is_seq(const struct mkfs_zoned *z, const struct f2fs_layout *l,
		       uint64_t blkaddr);

/* Reset every written sequential zone that the layout uses; *nreset
 * counts them. */
int mkfs_zoned_reset(const struct mkfs_zoned *z, struct f2fs_dev *const *dev,
		     const struct f2fs_layout *l, uint32_t *nreset, struct f2fs_error *err);

/* Zones of all devices, and how many of them are conventional. */
void mkfs_zoned_count(const struct mkfs_zoned *z, uint32_t *zones, uint32_t *conventional);

void mkfs_zoned_free(struct mkfs_zoned *z);

#endif
