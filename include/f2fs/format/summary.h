/* Segment summaries: the compacted data summary of a checkpoint pack. */
#ifndef F2FS_SUMMARY_H
#define F2FS_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>

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
