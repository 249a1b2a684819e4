/*
 * Zoned block devices (host-managed SMR disks, ZNS SSDs, zoned null_blk):
 * the zones a device reports (BLKREPORTZONE) and write-pointer resets
 * (BLKRESETZONE). Addresses are in 512-byte sectors from the start of the
 * device, as the block layer gives them.
 */
#ifndef F2FS_ZONES_H
#define F2FS_ZONES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/io/dev.h>

/* Values of the block layer's enum blk_zone_type. */
enum f2fs_zone_type {
	F2FS_ZONE_CONVENTIONAL = 1,   /* written anywhere, no write pointer */
	F2FS_ZONE_SEQ_REQUIRED = 2,   /* host-managed: written at the pointer only */
	F2FS_ZONE_SEQ_PREFERRED = 3,  /* host-aware: anywhere, sequential is cheaper */
};

/* Values of the block layer's enum blk_zone_cond. */
enum f2fs_zone_cond {
	F2FS_ZONE_NOT_WP = 0x0,
	F2FS_ZONE_EMPTY = 0x1,
	F2FS_ZONE_IMP_OPEN = 0x2,
	F2FS_ZONE_EXP_OPEN = 0x3,
	F2FS_ZONE_CLOSED = 0x4,
	F2FS_ZONE_READONLY = 0xD,
	F2FS_ZONE_FULL = 0xE,
	F2FS_ZONE_OFFLINE = 0xF,
};

struct f2fs_zone {
	uint64_t start;      /* first sector */
	uint64_t len;        /* sectors */
	uint64_t capacity;   /* writable sectors from start (len when not reported) */
	uint64_t wp;         /* write pointer, absolute sector (meaningless if conventional) */
	uint8_t type;        /* enum f2fs_zone_type */
	uint8_t cond;        /* enum f2fs_zone_cond */
};

struct f2fs_zones {
	struct f2fs_zone *zone;   /* in address order */
	size_t count;
	uint64_t zone_sectors;    /* size of the first zone (all but a smaller last one) */
};

/*
 * Every zone of dev. A device that is not zoned (a regular file, a block
 * device without zones) gives count 0 and returns 0; a zoned device whose
 * report fails is an error naming it.
 */
int f2fs_zones_report(struct f2fs_dev *dev, struct f2fs_zones *out,
		      struct f2fs_error *err);
void f2fs_zones_free(struct f2fs_zones *z);

/* The zone holding sector, or NULL past the end. */
const struct f2fs_zone *f2fs_zones_find(const struct f2fs_zones *z, uint64_t sector);

/* Rewind the write pointers of the zones in [sector, sector + nr_sectors)
 * (whole zones) to their starts: their blocks read as zeros after it. */
int f2fs_zones_reset(struct f2fs_dev *dev, uint64_t sector, uint64_t nr_sectors,
		     struct f2fs_error *err);

/* Has the zone a write pointer that writes must follow? */
static inline bool f2fs_zone_is_seq_required(const struct f2fs_zone *zn)
{
	return zn->type == F2FS_ZONE_SEQ_REQUIRED;
}

/* Names for reports: "conventional", "seq-required", "seq-preferred";
 * "not-wp", "empty", "open-implicit", "open-explicit", "closed", "full",
 * "read-only", "offline" ("unknown" for anything else). */
const char *f2fs_zone_type_name(uint8_t type);
const char *f2fs_zone_cond_name(uint8_t cond);

#endif
