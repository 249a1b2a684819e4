/* Dirty NAT entries at a checkpoint: into the journal, or once to each block. */
#include <f2fs/write/nat_flush.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/journal.h>
#include <f2fs/format/nat_bits.h>

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define NPB F2FS_NAT_ENTRY_PER_BLOCK
#define JMAX F2FS_NAT_JOURNAL_ENTRIES
#define JNAT F2FS_JOURNAL_NAT

_Static_assert(offsetof(struct f2fs_nat_dirty, nid) == 0, "the flush keys on the first member");

static void put_entry(struct f2fs_nat_entry *ne, const struct f2fs_nat_dirty *d)
{
	ne->version = d->version;
	ne->ino = le32_put(d->ino);
	ne->block_addr = le32_put(d->blkaddr);
}

void f2fs_nat_block_apply(struct f2fs_nat_block *blk, const struct f2fs_nat_dirty *e,
			  size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_entry(&blk->entries[e[i].nid % NPB], &e[i]);
}

int f2fs_nat_journal_put(struct f2fs_journal *j, const struct f2fs_nat_dirty *e, size_t n,
			 struct f2fs_error *err)
{
	for (size_t i = 0; i < n; i++) {
		int at = f2fs_journal_slot(j, JNAT, e[i].nid);

		if (at < 0)
			return f2fs_fail(err, -F2FS_E_NO_SPACE,
					 "NAT journal full (%u entries): no room for nid %u",
					 f2fs_journal_count(j, JNAT), e[i].nid);
		put_entry(f2fs_journal_value(j, JNAT, (uint32_t)at), &e[i]);
	}
	return 0;
}

/* The journal's entries as dirty ones (those naming no nid of the NAT dropped). */
static size_t journal_entries(struct f2fs_journal *j, uint64_t max_nid,
			      struct f2fs_nat_dirty out[JMAX])
{
	uint32_t n = f2fs_journal_count(j, JNAT);
	size_t m = 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct f2fs_nat_entry *ne = f2fs_journal_value(j, JNAT, i);
		uint32_t nid = f2fs_journal_key(j, JNAT, i);

		if (nid < max_nid)
			out[m++] = (struct f2fs_nat_dirty){ nid, le32_get(ne->ino),
							    le32_get(ne->block_addr), ne->version };
	}
	return m;
}

/* A journal entry of the block being written is newer than the block. */
static void take_entry(void *blk, uint32_t nid, const void *value)
{
	memcpy(&((struct f2fs_nat_block *)blk)->entries[nid % NPB], value,
	       sizeof(struct f2fs_nat_entry));
}

static int write_set(const struct f2fs_nat_flush *f, const struct f2fs_flush_set *s,
		     const struct f2fs_nat_dirty *e, struct f2fs_error *err)
{
	struct f2fs_nat_block blk;
	int ret = f2fs_meta_area_read(&f->area, s->block, &blk, err);

	if (ret)
		return ret;
	f2fs_journal_take_block(f->journal, JNAT, s->block, take_entry, &blk);
	f2fs_nat_block_apply(&blk, e + s->first, s->count);
	ret = f2fs_meta_area_write(&f->area, s->block, &blk, err);
	if (!ret && f->used)
		f->used[s->block] = (uint16_t)f2fs_nat_block_used(&blk, s->block);
	return ret;
}

static int flush_sets(const struct f2fs_nat_flush *f, const struct f2fs_nat_dirty *e, size_t n,
		      struct f2fs_error *err)
{
	size_t nsets = f2fs_flush_group(e, n, sizeof(*e), NPB, NULL);
	struct f2fs_flush_set *sets = malloc(nsets * sizeof(*sets) + 1);
	int ret = 0;

	if (!sets)
		return f2fs_fail(err, -ENOMEM, "out of memory for %zu NAT sets", nsets);
	f2fs_flush_group(e, n, sizeof(*e), NPB, sets);
	f2fs_flush_plan(sets, nsets, JMAX - f2fs_journal_count(f->journal, JNAT), f->policy);
	for (size_t s = 0; s < nsets && !ret; s++)
		ret = sets[s].to_journal ?
		      f2fs_nat_journal_put(f->journal, e + sets[s].first, sets[s].count, err) :
		      write_set(f, &sets[s], e, err);
	free(sets);
	return ret;
}

int f2fs_nat_flush(const struct f2fs_nat_flush *f, const struct f2fs_nat_dirty *e, size_t n,
		   struct f2fs_error *err)
{
	uint64_t max_nid = (uint64_t)f->area.blocks * NPB;
	struct f2fs_nat_dirty je[JMAX];
	void *merged = NULL;
	size_t m;
	int ret = f2fs_flush_check(e, n, sizeof(*e), max_nid, "nid", err);

	if (ret)
		return ret;
	if (f2fs_flush_empties_journal(f2fs_journal_count(f->journal, JNAT), n, JMAX, f->policy)) {
		m = journal_entries(f->journal, max_nid, je);
		if (m) {
			ret = f2fs_flush_merge(e, n, je, m, sizeof(*e), &merged, &n, err);
			if (ret)
				return ret;
			e = merged;
		}
		memset(f->journal, 0, sizeof(*f->journal));
	}
	ret = flush_sets(f, e, n, err);
	free(merged);
	return ret;
}
