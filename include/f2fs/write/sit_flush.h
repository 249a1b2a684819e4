/*
 * Writing dirty SIT entries at a checkpoint: the segments of one SIT block
 * form a set (<f2fs/write/flush_plan.h>); a set goes into the SIT journal
 * or is written once, over the block's current content, to the copy the
 * new checkpoint will mark live (<f2fs/write/meta_area.h>). The SIT's part
 * of <f2fs/write/table_flush.h>.
 */
#ifndef F2FS_WRITE_SIT_FLUSH_H
#define F2FS_WRITE_SIT_FLUSH_H

#include <stddef.h>
#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/write/flush_plan.h>
#include <f2fs/write/meta_area.h>

/* A segment's SIT entry to write, in host order (segno first: the flush keys on it). */
struct f2fs_sit_dirty {
	uint32_t segno;                            /* main-area segment */
	uint8_t type;                              /* enum f2fs_seg_type */
	uint16_t valid;                            /* valid blocks */
	uint64_t mtime;
	uint8_t map[F2FS_SIT_VBLOCK_MAP_SIZE];     /* valid blocks, MSB-first */
};

struct f2fs_sit_flush {
	struct f2fs_meta_area area;     /* the SIT: its copies and I/O */
	uint32_t main_segs;             /* segment_count_main */
	struct f2fs_journal *journal;   /* in: the journal in use; out: the
					 * journal of the new checkpoint */
	unsigned policy;                /* enum f2fs_flush_policy */
};

/*
 * Store n entries into a SIT journal: a segment already there is updated
 * in place, others are appended. Fails when they do not fit.
 */
int f2fs_sit_journal_put(struct f2fs_journal *j, const struct f2fs_sit_dirty *e, size_t n,
			 struct f2fs_error *err);

/*
 * Group n dirty entries (sorted by segno, each once) into sets, plan them,
 * and write: journal sets into f->journal, the others as SIT blocks. When
 * the plan empties the journal first, its entries are written with the
 * dirty ones (a dirty entry wins over the journal's for the same segment).
 */
int f2fs_sit_flush(const struct f2fs_sit_flush *f, const struct f2fs_sit_dirty *e, size_t n,
		   struct f2fs_error *err);

#endif
