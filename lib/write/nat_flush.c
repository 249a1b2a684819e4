/* Dirty NAT entries at a checkpoint: into the journal, or once to each block. */
#include <f2fs/write/nat_flush.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/nat_bits.h>

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define NPB F2FS_NAT_ENTRY_PER_BLOCK
#define JMAX F2FS_NAT_JOURNAL_ENTRIES

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

/* Entries of a journal, never more than fit (a bad count is not trusted). */
static uint32_t journal_count(const struct f2fs_journal *j)
{
	uint32_t n = le16_get(j->n_entries);

	return n < JMAX ? n : JMAX;
}

static int journal_find(const struct f2fs_journal *j, uint32_t nid)
{
	uint32_t n = journal_count(j);

	for (uint32_t i = 0; i < n; i++)
		if (le32_get(j->nat_j.entries[i].nid) == nid)
			return (int)i;
	return -1;
}

int f2fs_nat_journal_put(struct f2fs_journal *j, const struct f2fs_nat_dirty *e, size_t n,
			 struct f2fs_error *err)
{
	for (size_t i = 0; i < n; i++) {
		int at = journal_find(j, e[i].nid);

		if (at < 0) {
			uint32_t cnt = journal_count(j);

			if (cnt >= JMAX)
				return f2fs_fail(err, -F2FS_E_NO_SPACE,
						 "NAT journal full (%u entries): no room for nid %u",
						 cnt, e[i].nid);
			at = (int)cnt;
			j->n_entries = le16_put((uint16_t)(cnt + 1));
			j->nat_j.entries[at].nid = le32_put(e[i].nid);
		}
		put_entry(&j->nat_j.entries[at].ne, &e[i]);
	}
	return 0;
}

/* The journal's entries as dirty ones (those naming no nid of the NAT dropped). */
static size_t journal_entries(const struct f2fs_journal *j, uint64_t max_nid,
			      struct f2fs_nat_dirty out[JMAX])
{
	uint32_t n = journal_count(j);
	size_t m = 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct f2fs_nat_journal_entry *je = &j->nat_j.entries[i];
		uint32_t nid = le32_get(je->nid);

		if (nid < max_nid)
			out[m++] = (struct f2fs_nat_dirty){ nid, le32_get(je->ne.ino),
							    le32_get(je->ne.block_addr),
							    je->ne.version };
	}
	return m;
}

/* Journal entries of block k are newer than the block: they go with it. */
static void fold_journal(struct f2fs_journal *j, uint32_t k, struct f2fs_nat_block *blk)
{
	uint32_t n = journal_count(j), keep = 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct f2fs_nat_journal_entry *je = &j->nat_j.entries[i];
		uint32_t nid = le32_get(je->nid);

		if (nid / NPB == k)
			blk->entries[nid % NPB] = je->ne;
		else
			j->nat_j.entries[keep++] = *je;
	}
	if (keep == n)
		return;
	memset(&j->nat_j.entries[keep], 0, (n - keep) * sizeof(j->nat_j.entries[0]));
	j->n_entries = le16_put((uint16_t)keep);
}

static int write_set(const struct f2fs_nat_flush *f, const struct f2fs_flush_set *s,
		     const struct f2fs_nat_dirty *e, struct f2fs_error *err)
{
	struct f2fs_nat_block blk;
	int ret = f2fs_meta_area_read(&f->area, s->block, &blk, err);

	if (ret)
		return ret;
	fold_journal(f->journal, s->block, &blk);
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
	f2fs_flush_plan(sets, nsets, JMAX - journal_count(f->journal), f->policy);
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
	if (f2fs_flush_empties_journal(journal_count(f->journal), n, JMAX, f->policy)) {
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
