/* Format a device or image file: the whole of mkfs as one library call. */
#ifndef F2FS_MKFS_H
#define F2FS_MKFS_H

#include <stdbool.h>
#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/format/layout.h>

struct f2fs_mkfs_options {
	const char *devices[F2FS_MAX_DEVICES];  /* [0] holds the metadata */
	uint32_t ndevs;
	uint64_t sector_count;     /* 0 = the whole first device */
	uint32_t sector_size;      /* -w; 0 = the device's own */
	uint32_t segs_per_sec;     /* -s */
	uint32_t secs_per_zone;    /* -z */
	double overprovision;      /* -o; 0 = best */
	uint32_t features;         /* -O */
	uint16_t encoding, encoding_flags;  /* -C */
	const char *label;         /* -l */
	uint8_t uuid[16];          /* -U */
	bool uuid_set;
	bool heap;                 /* -a */
	bool zoned;                /* -m */
	bool large_nat_bitmap;     /* -i */
	bool force;                /* -f: overwrite existing signatures */
	bool discard;              /* -t: discard (trim) the whole target first */
	bool fixed_version;        /* -r: fixed checkpoint version */
	uint32_t root_uid, root_gid;   /* -R */
	bool root_owner_set;           /* -R given: overrides the source root's owner */
	const char *rootdir;           /* --rootdir: populate from this tree */
	/* called now and then while copying the tree (may be NULL) */
	void (*progress)(void *arg, uint64_t done, uint64_t total);
	void *progress_arg;
	int64_t timestamp;         /* -T / SOURCE_DATE_EPOCH */
	bool timestamp_set;
	const char *cold_exts, *hot_exts;  /* -e, -E */
	const char *kernel_version;        /* recorded in the superblock */
};

/* What was done, for the tool to print. */
struct f2fs_mkfs_report {
	struct f2fs_layout layout;
	uint64_t device_bytes[F2FS_MAX_DEVICES];
	uint32_t sector_size;
	uint64_t checkpoint_version;
	uint8_t uuid[16];
	bool trimmed;              /* the whole target was discarded */
	uint64_t bytes_written;    /* handed to write(2) */
	uint32_t features;
	uint32_t root_ino, lost_found_ino;
	uint32_t quota_ino[F2FS_MAX_QUOTAS];
	uint64_t files;            /* inodes copied from --rootdir */
	uint32_t zones, zones_conventional;   /* -m: of all devices */
	uint64_t zone_bytes;
	uint32_t zones_reset;      /* -m: sequential zones whose pointer was rewound */
	const char *existing;      /* what -f overwrote, or NULL */
	char existing_buf[128];
};

/* Fill opts with mkfs.f2fs defaults (1 segment per section, best
 * overprovision, discard on, root owned by 0:0). */
void f2fs_mkfs_defaults(struct f2fs_mkfs_options *opts);

/*
 * Validate everything, then format. On any error before writing starts the
 * targets are untouched; the superblock is written last, so an interrupted
 * format never leaves an image that claims to be valid.
 */
int f2fs_mkfs(const struct f2fs_mkfs_options *opts, struct f2fs_mkfs_report *rep,
	      struct f2fs_error *err);

#endif
