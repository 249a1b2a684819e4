/*
 * The segment information table of an opened image: per main-area segment
 * its valid block count, type, valid map and mtime, taken from the live SIT
 * copy (chosen by the version bitmap) with the checkpoint's SIT journal
 * applied on top, and counts derived from it.
 */
#ifndef F2FS_SIT_H
#define F2FS_SIT_H

#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/fs/fs.h>

/* Where a segment's entry came from. */
enum f2fs_sit_src {
	F2FS_SIT_SRC_COPY1 = 0,
	F2FS_SIT_SRC_COPY2 = 1,
	F2FS_SIT_SRC_JOURNAL = 2,
};

/* f2fs_seg.flags */
enum f2fs_seg_flag {
	F2FS_SEG_CURRENT   = 0x1,   /* one of the six current segments */
	F2FS_SEG_BAD_COUNT = 0x2,   /* valid count != bits set in the map */
	F2FS_SEG_BAD_TYPE  = 0x4,   /* type > 5 */
	F2FS_SEG_OVERFULL  = 0x8,   /* valid count > 512 (clamped to 512) */
};

struct f2fs_seg {
	uint64_t mtime;
	uint16_t valid;     /* valid blocks, 0..512 */
	uint8_t type;       /* enum f2fs_seg_type as recorded (any 6-bit value) */
	uint8_t src;        /* enum f2fs_sit_src */
	uint8_t flags;      /* enum f2fs_seg_flag */
	uint8_t cur_type;   /* log type when F2FS_SEG_CURRENT */
};

struct f2fs_sit {
	uint32_t nsegs;            /* segment_count_main */
	uint32_t segs_per_sec;
	uint32_t nsecs;            /* nsegs / segs_per_sec */
	struct f2fs_seg *seg;      /* nsegs entries */
	uint8_t *maps;             /* nsegs * 64 bytes (MSB-first), or NULL */
	uint32_t cur_segno[F2FS_NR_CURSEG_TYPE];   /* from the checkpoint */
	uint16_t cur_blkoff[F2FS_NR_CURSEG_TYPE];
	uint32_t n_journal;        /* journal entries applied */
	uint32_t n_journal_bad;    /* journal entries naming a segno out of range */
	uint32_t n_bad_count, n_bad_type, n_overfull;
	uint32_t sit_blocks;       /* SIT blocks read (one copy's worth) */
};

/* f2fs_sit_load() flags */
#define F2FS_SIT_WANT_MAPS 0x1u

/*
 * Read the whole SIT in large sequential reads (runs of blocks whose
 * version bits agree), then apply the SIT journal. Inconsistent entries are
 * kept (flagged and counted), never fatal; a SIT too small for the main
 * area or a failed read is.
 */
int f2fs_sit_load(struct f2fs_fs *fs, unsigned flags, struct f2fs_sit **out,
		  struct f2fs_error *err);
void f2fs_sit_free(struct f2fs_sit *sit);

/* SIT block (absolute address) holding segno's entry in the live copy. */
uint64_t f2fs_sit_entry_blkaddr(const struct f2fs_fs *fs, uint32_t segno);

/* Is block off of segno valid? -1 when the maps were not loaded. */
int f2fs_sit_block_valid(const struct f2fs_sit *sit, uint32_t segno, uint32_t off);

/* Valid blocks of section secno. */
uint32_t f2fs_sit_sec_valid(const struct f2fs_sit *sit, uint32_t secno);

/* Does section secno hold a current segment? */
int f2fs_sit_sec_current(const struct f2fs_sit *sit, uint32_t secno);

/* Segment state as the kernel sees it at mount. */
enum f2fs_seg_state {
	F2FS_STATE_FREE = 0,       /* no valid block, not current */
	F2FS_STATE_PARTIAL = 1,    /* some valid blocks, not current ("dirty") */
	F2FS_STATE_FULL = 2,       /* every block valid, not current */
	F2FS_STATE_CURRENT = 3,
	F2FS_STATE_MAX
};

enum f2fs_seg_state f2fs_sit_seg_state(const struct f2fs_sit *sit, uint32_t segno);
enum f2fs_seg_state f2fs_sit_sec_state(const struct f2fs_sit *sit, uint32_t secno);

/* Row index for per-type counts: 0..5 the log types, 6 = invalid type. */
#define F2FS_SIT_NTYPES (F2FS_NR_CURSEG_TYPE + 1)

struct f2fs_sit_stats {
	/* [type row][state]; a section's type is that of its first segment */
	uint32_t segs[F2FS_SIT_NTYPES][F2FS_STATE_MAX];
	uint32_t secs[F2FS_SIT_NTYPES][F2FS_STATE_MAX];
	uint64_t valid_blocks[F2FS_SIT_NTYPES];
	uint64_t total_valid;
	uint32_t free_segs, free_secs;
	uint64_t min_mtime, max_mtime;   /* over all segments */
	/* histogram of valid blocks per segment: nbuckets buckets of width
	 * bucket; bucket k counts segments with valid in [k*w+1, (k+1)*w], and
	 * hist_zero the segments with none (free or current) */
	uint32_t bucket, nbuckets;
	uint32_t hist_zero;
	uint32_t *hist;                  /* nbuckets entries (caller's array) */
};

/* Fill st; hist must hold ceil(512 / bucket) entries (bucket 1..512). */
void f2fs_sit_stats(const struct f2fs_sit *sit, uint32_t bucket, uint32_t *hist,
		    struct f2fs_sit_stats *st);

#endif
