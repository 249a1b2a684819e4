/* Dirty SIT entries at a checkpoint: into the journal, or once to each block. */
#include <f2fs/write/sit_flush.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/journal.h>

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define EPB F2FS_SIT_ENTRY_PER_BLOCK
#define JMAX F2FS_SIT_JOURNAL_ENTRIES
#define JSIT F2FS_JOURNAL_SIT

_Static_assert(offsetof(struct f2fs_sit_dirty, segno) == 0, "the flush keys on the first member");

void f2fs_sit_entry_encode(struct f2fs_sit_entry *se, const struct f2fs_sit_dirty *d)
{
	se->vblocks = le16_put((uint16_t)((d->type << F2FS_SIT_VBLOCKS_SHIFT) |
					  (d->valid & F2FS_SIT_VBLOCKS_MASK)));
	memcpy(se->valid_map, d->map, sizeof(se->valid_map));
	se->mtime = le64_put(d->mtime);
}

static void decode(struct f2fs_sit_dirty *d, uint32_t segno, const struct f2fs_sit_entry *se)
{
	uint16_t vb = le16_get(se->vblocks);

	d->segno = segno;
	d->type = (uint8_t)(vb >> F2FS_SIT_VBLOCKS_SHIFT);
	d->valid = vb & F2FS_SIT_VBLOCKS_MASK;
	d->mtime = le64_get(se->mtime);
	memcpy(d->map, se->valid_map, sizeof(d->map));
}

void f2fs_sit_block_apply(struct f2fs_sit_block *blk, const struct f2fs_sit_dirty *e,
			  size_t n)
{
	for (size_t i = 0; i < n; i++)
		f2fs_sit_entry_encode(&blk->entries[e[i].segno % EPB], &e[i]);
}

int f2fs_sit_journal_put(struct f2fs_journal *j, const struct f2fs_sit_dirty *e, size_t n,
			 struct f2fs_error *err)
{
	for (size_t i = 0; i < n; i++) {
		int at = f2fs_journal_slot(j, JSIT, e[i].segno);

		if (at < 0)
			return f2fs_fail(err, -F2FS_E_NO_SPACE,
					 "SIT journal full (%u entries): no room for segment %u",
					 f2fs_journal_count(j, JSIT), e[i].segno);
		f2fs_sit_entry_encode(f2fs_journal_value(j, JSIT, (uint32_t)at), &e[i]);
	}
	return 0;
}

/* The journal's entries as dirty ones (those naming no main segment dropped). */
static size_t journal_entries(struct f2fs_journal *j, uint32_t main_segs,
			      struct f2fs_sit_dirty out[JMAX])
{
	uint32_t n = f2fs_journal_count(j, JSIT);
	size_t m = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t segno = f2fs_journal_key(j, JSIT, i);

		if (segno < main_segs)
			decode(&out[m++], segno, f2fs_journal_value(j, JSIT, i));
	}
	return m;
}

/* A journal entry of the block being written is newer than the block. */
static void take_entry(void *blk, uint32_t segno, const void *value)
{
	memcpy(&((struct f2fs_sit_block *)blk)->entries[segno % EPB], value,
	       sizeof(struct f2fs_sit_entry));
}

static int write_set(const struct f2fs_sit_flush *f, const struct f2fs_flush_set *s,
		     const struct f2fs_sit_dirty *e, struct f2fs_error *err)
{
	struct f2fs_sit_block blk;
	int ret = f2fs_meta_area_read(&f->area, s->block, &blk, err);

	if (ret)
		return ret;
	f2fs_journal_take_block(f->journal, JSIT, s->block, take_entry, &blk);
	f2fs_sit_block_apply(&blk, e + s->first, s->count);
	return f2fs_meta_area_write(&f->area, s->block, &blk, err);
}

static int flush_sets(const struct f2fs_sit_flush *f, const struct f2fs_sit_dirty *e, size_t n,
		      struct f2fs_error *err)
{
	size_t nsets = f2fs_flush_group(e, n, sizeof(*e), EPB, NULL);
	struct f2fs_flush_set *sets = malloc(nsets * sizeof(*sets) + 1);
	int ret = 0;

	if (!sets)
		return f2fs_fail(err, -ENOMEM, "out of memory for %zu SIT sets", nsets);
	f2fs_flush_group(e, n, sizeof(*e), EPB, sets);
	f2fs_flush_plan(sets, nsets, JMAX - f2fs_journal_count(f->journal, JSIT), f->policy);
	for (size_t s = 0; s < nsets && !ret; s++)
		ret = sets[s].to_journal ?
		      f2fs_sit_journal_put(f->journal, e + sets[s].first, sets[s].count, err) :
		      write_set(f, &sets[s], e, err);
	free(sets);
	return ret;
}

int f2fs_sit_flush(const struct f2fs_sit_flush *f, const struct f2fs_sit_dirty *e, size_t n,
		   struct f2fs_error *err)
{
	struct f2fs_sit_dirty je[JMAX];
	void *merged = NULL;
	size_t m;
	int ret = f2fs_flush_check(e, n, sizeof(*e), f->main_segs, "segment", err);

	if (ret)
		return ret;
	if (f2fs_flush_empties_journal(f2fs_journal_count(f->journal, JSIT), n, JMAX, f->policy)) {
		m = journal_entries(f->journal, f->main_segs, je);
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
