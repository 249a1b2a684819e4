/* Segment summaries: the compacted data summary of a checkpoint pack. */
#ifndef F2FS_SUMMARY_H
#define F2FS_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>

/*
 * Entries of each data log in a checkpoint's data summaries: the next free
 * block offset (cur_data_blkoff) of a log that allocates in LFS order, but
 * the whole segment (512) for one that allocates by SSR (alloc_type 1):
 * SSR fills the free slots of a used segment, so valid blocks lie past its
 * next free offset, and the kernel writes and reads all 512 entries
 * (fs/f2fs/segment.c: write_compacted_summaries and
 * f2fs_npages_for_summary_flush count blocks_per_seg for an SSR log,
 * read_compacted_summaries reads blocks_per_seg entries for it). An offset
 * past the segment is returned as is, for the caller to refuse.
 */
void f2fs_data_sum_counts(const struct f2fs_checkpoint *cp,
			  uint16_t count[F2FS_NR_CURSEG_DATA]);

/* Blocks a compacted summary needs for these data-log entry counts
 * (1 or 2), or 3 when the normal three-block form must be used. */
uint32_t f2fs_compact_sum_blocks(const uint16_t count[F2FS_NR_CURSEG_DATA]);

/*
 * Pack the NAT and SIT journals and the data logs' entries into out
 * (nblocks blocks, from f2fs_compact_sum_blocks()).
 */
int f2fs_compact_sum_encode(uint8_t *out, uint32_t nblocks,
			    const struct f2fs_journal *nat_j,
			    const struct f2fs_journal *sit_j,
			    const struct f2fs_summary *const entries[F2FS_NR_CURSEG_DATA],
			    const uint16_t count[F2FS_NR_CURSEG_DATA],
			    struct f2fs_error *err);

/* Unpack the inverse; entries[t] must hold count[t] summaries. */
int f2fs_compact_sum_decode(const uint8_t *in, uint32_t nblocks,
			    struct f2fs_journal *nat_j, struct f2fs_journal *sit_j,
			    struct f2fs_summary *const entries[F2FS_NR_CURSEG_DATA],
			    const uint16_t count[F2FS_NR_CURSEG_DATA],
			    struct f2fs_error *err);

#endif
