/*
 * The NAT and SIT journals of a checkpoint's data summaries: a count, then
 * entries of one kind, each a little-endian key (nid or segno) and the value
 * it replaces in its NAT or SIT block. The helpers work on either kind,
 * described by a struct f2fs_journal_kind.
 */
#ifndef F2FS_JOURNAL_H
#define F2FS_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#include <f2fs/format/format.h>

struct f2fs_journal_kind {
	size_t entry_size;       /* key and value */
	uint32_t max;            /* entries a journal holds */
	uint32_t per_block;      /* keys per NAT or SIT block */
};

/* The two kinds, as initialisers (for a static description) and as values. */
#define F2FS_JOURNAL_NAT_INIT { \
	sizeof(struct f2fs_nat_journal_entry), F2FS_NAT_JOURNAL_ENTRIES, F2FS_NAT_ENTRY_PER_BLOCK }
#define F2FS_JOURNAL_SIT_INIT { \
	sizeof(struct f2fs_sit_journal_entry), F2FS_SIT_JOURNAL_ENTRIES, F2FS_SIT_ENTRY_PER_BLOCK }
#define F2FS_JOURNAL_NAT ((struct f2fs_journal_kind)F2FS_JOURNAL_NAT_INIT)
#define F2FS_JOURNAL_SIT ((struct f2fs_journal_kind)F2FS_JOURNAL_SIT_INIT)

/* Entries in use, never more than fit (a bad count is not trusted). */
uint32_t f2fs_journal_count(const struct f2fs_journal *j, struct f2fs_journal_kind k);

uint32_t f2fs_journal_key(const struct f2fs_journal *j, struct f2fs_journal_kind k, uint32_t i);

/* The value of entry i (what follows its key). */
void *f2fs_journal_value(struct f2fs_journal *j, struct f2fs_journal_kind k, uint32_t i);

/* The entry of key: the one there, or a new one appended (its value left as
 * it was); -1 when the journal is full. */
int f2fs_journal_slot(struct f2fs_journal *j, struct f2fs_journal_kind k, uint32_t key);

/* Take the entries whose keys fall in block (their values are newer than
 * it) out of the journal, handing each to fn; the rest keep their order. */
void f2fs_journal_take_block(struct f2fs_journal *j, struct f2fs_journal_kind k,
			     uint32_t block,
			     void (*fn)(void *arg, uint32_t key, const void *value), void *arg);

#endif
