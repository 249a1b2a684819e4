/*
 * Geometry: from a device size and the format options to the areas, segment
 * counts, overprovisioning and the initial current segments.
 */
#ifndef F2FS_LAYOUT_H
#define F2FS_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>

struct f2fs_layout_params {
	uint32_t ndevs;                        /* 1 + extra devices (-c) */
	uint64_t dev_bytes[F2FS_MAX_DEVICES];  /* usable bytes of each device */
	uint32_t sector_size;                  /* bytes, 512..4096 */
	uint64_t start_sector;                 /* partition offset (512-byte units) */
	uint32_t segs_per_sec;                 /* -s; ignored when zoned */
	uint32_t secs_per_zone;                /* -z; ignored when zoned */
	double overprovision;                  /* -o percent; 0 = best */
	bool heap;                             /* -a: data low, nodes high */
	bool large_nat_bitmap;                 /* -i */
	uint64_t zone_bytes;                   /* zoned (-m): device zone size; 0 = not zoned */
};

struct f2fs_layout_dev {
	uint32_t total_segments;
	uint64_t start_blkaddr, end_blkaddr;
};

struct f2fs_layout {
	uint32_t log_sectorsize, log_sectors_per_block;
	uint32_t segs_per_sec, secs_per_zone, segs_per_zone;
	uint64_t block_count;
	uint32_t segment_count;
	uint32_t segment_count_ckpt, segment_count_sit, segment_count_nat;
	uint32_t segment_count_ssa, segment_count_main, section_count;
	uint32_t segment0_blkaddr, cp_blkaddr, sit_blkaddr, nat_blkaddr;
	uint32_t ssa_blkaddr, main_blkaddr;
	uint32_t cp_payload;
	bool large_nat_bitmap;
	uint32_t sit_bitmap_bytes, nat_bitmap_bytes;
	uint32_t nat_bits_blocks;             /* 0 when nat_bits do not fit */
	double overprovision;                 /* percent actually used */
	uint32_t rsvd_segments, ovp_segments; /* ovp includes rsvd */
	uint64_t user_block_count;
	uint32_t cur_seg[F2FS_NR_CURSEG_TYPE]; /* by enum f2fs_seg_type */
	bool zoned;
	uint32_t ndevs;
	struct f2fs_layout_dev devs[F2FS_MAX_DEVICES];
};

int f2fs_layout_compute(const struct f2fs_layout_params *p,
			struct f2fs_layout *l, struct f2fs_error *err);

/* The reserve and overprovision of a main area of usable segments in
 * sections of spsec: for the ratio chosen (percent), or with chosen 0 the
 * one that leaves users the most space, as mkfs picks it. */
struct f2fs_overprovision {
	double ratio;
	uint32_t rsvd_segments, ovp_segments;   /* ovp includes rsvd */
	uint64_t user_block_count;
};

int f2fs_overprovision_size(uint32_t usable, uint32_t spsec, bool zoned, double chosen,
			    struct f2fs_overprovision *o, struct f2fs_error *err);

/* The smallest first device (in bytes, a whole number of segments past
 * the start's alignment) p lays out on, the other devices as they are; 0
 * when even 1 TiB does not. For the error that says how small is too
 * small. */
uint64_t f2fs_layout_min_bytes(const struct f2fs_layout_params *p);

/* Blocks of one NAT copy, and the largest nid + 1 it can map. */
uint32_t f2fs_layout_nat_blocks(const struct f2fs_layout *l);

#endif
