/*
 * Writing dirty NAT entries at a checkpoint: each NAT block holding dirty
 * entries is a set (<f2fs/write/flush_plan.h>); a set goes into the NAT
 * journal or is written once, over the block's current content, to the
 * copy the new checkpoint will mark live (<f2fs/write/meta_area.h>). The
 * NAT's part of <f2fs/write/table_flush.h>.
 */
#ifndef F2FS_WRITE_NAT_FLUSH_H
#define F2FS_WRITE_NAT_FLUSH_H

#include <stddef.h>
#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/write/flush_plan.h>
#include <f2fs/write/meta_area.h>

/* A NAT entry to write, in host order (nid first: the flush keys on it). */
struct f2fs_nat_dirty {
	uint32_t nid;
	uint32_t ino;
	uint32_t blkaddr;     /* 0 frees the nid */
	uint8_t version;
};

struct f2fs_nat_flush {
	struct f2fs_meta_area area;     /* the NAT: its copies and I/O */
	struct f2fs_journal *journal;   /* in: the journal in use; out: the
					 * journal of the new checkpoint */
	uint16_t *used;                 /* may be NULL: entries in use per NAT
					 * block (for nat_bits), set for each
					 * block written */
	unsigned policy;                /* enum f2fs_flush_policy */
};

/*
 * Store n entries into a NAT journal: an entry already there is updated in
 * place, others are appended. Fails when they do not fit.
 */
int f2fs_nat_journal_put(struct f2fs_journal *j, const struct f2fs_nat_dirty *e, size_t n,
			 struct f2fs_error *err);

/*
 * Group n dirty entries (sorted by nid, each nid once) into sets, plan
 * them, and write: journal sets into f->journal, the others as NAT blocks.
 * When the plan empties the journal first, its entries are written with
 * the dirty ones (a dirty entry wins over the journal's for the same nid).
 */
int f2fs_nat_flush(const struct f2fs_nat_flush *f, const struct f2fs_nat_dirty *e, size_t n,
		   struct f2fs_error *err);

#endif
