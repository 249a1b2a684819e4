/*
 * Writing the dirty entries of a table that has a journal, the NAT or the
 * SIT, at a checkpoint: the entries of one block form a set
 * (<f2fs/write/flush_plan.h>); a set goes into the journal or is written
 * once, over the block's current content, to the copy the new checkpoint
 * will mark live (<f2fs/write/meta_area.h>). One mechanism for both; a
 * struct f2fs_table_kind says what differs: the entries' sizes, their
 * encoding, the names in messages (nat_flush.c, sit_flush.c).
 */
#ifndef F2FS_WRITE_TABLE_FLUSH_H
#define F2FS_WRITE_TABLE_FLUSH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/format/journal.h>
#include <f2fs/write/flush_plan.h>
#include <f2fs/write/meta_area.h>

/*
 * A table's entries: in a block, entry key % per_block, from the block's
 * start; in the journal, after their key. A dirty entry is the caller's
 * struct (dirty_size bytes) in host order, its first member the uint32_t
 * key (the flush keys on it).
 */
struct f2fs_table_kind {
	const char *name;                  /* "NAT", "SIT" */
	const char *key_name;              /* "nid", "segment" */
	struct f2fs_journal_kind journal;  /* also the entries per block */
	size_t dirty_size;
	void (*encode)(void *entry, const void *dirty);
	void (*decode)(void *dirty, uint32_t key, const void *entry);
	/* a key journaled twice (a damaged journal): the kernel's NAT lookup
	 * takes the first entry, its SIT load applies them all (the last) */
	bool later_wins;
};

struct f2fs_table_flush {
	const struct f2fs_table_kind *kind;
	const struct f2fs_meta_area *area;  /* the table: its copies and I/O */
	struct f2fs_journal *journal;       /* in: the journal in use; out: the
					     * journal of the new checkpoint */
	uint64_t keys;                      /* the table's keys: dirty ones below */
	unsigned policy;                    /* enum f2fs_flush_policy */
	/* may be NULL: told of each block written, with its new content */
	void (*written)(const void *arg, uint32_t block, const void *content);
	const void *arg;
};

/*
 * Store n dirty entries into the journal: an entry already there is
 * updated in place, others are appended. Fails when they do not fit.
 */
int f2fs_table_journal_put(const struct f2fs_table_kind *k, struct f2fs_journal *j,
			   const void *dirty, size_t n, struct f2fs_error *err);

/*
 * Group n dirty entries (sorted by key, each key once) into sets, plan
 * them, and write: journal sets into f->journal, the others as blocks.
 * When the plan empties the journal first, its entries are written with
 * the dirty ones (a dirty entry wins over the journal's for the same key).
 */
int f2fs_table_flush(const struct f2fs_table_flush *f, const void *dirty, size_t n,
		     struct f2fs_error *err);

#endif
