/* Dirty NAT or SIT entries at a checkpoint: into the journal, or once to each block. */
#include <f2fs/write/table_flush.h>
#include <f2fs/write/flush_plan.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t *dirty_at(const struct f2fs_table_kind *k, const void *dirty, size_t i)
{
	return (const uint8_t *)dirty + i * k->dirty_size;
}

static uint32_t key_of(const void *dirty)
{
	uint32_t key;

	memcpy(&key, dirty, sizeof(key));
	return key;
}

/* The on-disk entry of key in a block, after the journal's key. */
static size_t entry_size(const struct f2fs_table_kind *k)
{
	return k->journal.entry_size - sizeof(f2fs_le32);
}

static uint8_t *block_entry(const struct f2fs_table_kind *k, void *block, uint32_t key)
{
	return (uint8_t *)block + (size_t)(key % k->journal.per_block) * entry_size(k);
}

int f2fs_table_journal_put(const struct f2fs_table_kind *k, struct f2fs_journal *j,
			   const void *dirty, size_t n, struct f2fs_error *err)
{
	for (size_t i = 0; i < n; i++) {
		const uint8_t *d = dirty_at(k, dirty, i);
		int at = f2fs_journal_slot(j, k->journal, key_of(d));

		if (at < 0)
			return f2fs_fail(err, -F2FS_E_NO_SPACE,
					 "%s journal full (%u entries): no room for %s %u", k->name,
					 f2fs_journal_count(j, k->journal), k->key_name, key_of(d));
		k->encode(f2fs_journal_value(j, k->journal, (uint32_t)at), d);
	}
	return 0;
}

/* The journal's entries as dirty ones, those of no key of the table
 * dropped, into out (room for the journal's capacity). The merge keeps the
 * first of a key journaled twice: for a kind whose later entry wins, the
 * entries come in reverse. */
static size_t journal_entries(const struct f2fs_table_flush *f, uint8_t *out)
{
	const struct f2fs_table_kind *k = f->kind;
	uint32_t n = f2fs_journal_count(f->journal, k->journal);
	size_t m = 0;

	for (uint32_t x = 0; x < n; x++) {
		uint32_t i = k->later_wins ? n - 1 - x : x;
		uint32_t key = f2fs_journal_key(f->journal, k->journal, i);

		if (key < f->keys)
			k->decode(out + m++ * k->dirty_size, key,
				  f2fs_journal_value(f->journal, k->journal, i));
	}
	return m;
}

struct block_of {
	const struct f2fs_table_kind *kind;
	void *block;
};

/* A journal entry of the block being written is newer than the block. */
static void take_entry(void *arg, uint32_t key, const void *value)
{
	const struct block_of *b = arg;

	memcpy(block_entry(b->kind, b->block, key), value, entry_size(b->kind));
}

static int write_set(const struct f2fs_table_flush *f, const struct f2fs_flush_set *s,
		     const void *dirty, struct f2fs_error *err)
{
	const struct f2fs_table_kind *k = f->kind;
	_Alignas(uint64_t) uint8_t blk[F2FS_BLKSIZE];
	struct block_of b = { k, blk };
	int ret = f2fs_meta_area_read(f->area, s->block, blk, err);

	if (ret)
		return ret;
	f2fs_journal_take_block(f->journal, k->journal, s->block, take_entry, &b);
	for (uint32_t i = s->first; i < s->first + s->count; i++) {
		const uint8_t *d = dirty_at(k, dirty, i);

		k->encode(block_entry(k, blk, key_of(d)), d);
	}
	ret = f2fs_meta_area_write(f->area, s->block, blk, err);
	if (!ret && f->written)
		f->written(f->arg, s->block, blk);
	return ret;
}

static int flush_sets(const struct f2fs_table_flush *f, const void *dirty, size_t n,
		      struct f2fs_error *err)
{
	const struct f2fs_table_kind *k = f->kind;
	uint32_t per = k->journal.per_block;
	size_t nsets = f2fs_flush_group(dirty, n, k->dirty_size, per, NULL);
	struct f2fs_flush_set *sets = malloc(nsets * sizeof(*sets) + 1);
	int ret = 0;

	if (!sets)
		return f2fs_fail(err, -ENOMEM, "out of memory for %zu %s sets", nsets, k->name);
	f2fs_flush_group(dirty, n, k->dirty_size, per, sets);
	f2fs_flush_plan(sets, nsets, k->journal.max - f2fs_journal_count(f->journal, k->journal),
			f->policy);
	for (size_t s = 0; s < nsets && !ret; s++)
		ret = sets[s].to_journal ?
		      f2fs_table_journal_put(k, f->journal, dirty_at(k, dirty, sets[s].first),
					     sets[s].count, err) :
		      write_set(f, &sets[s], dirty, err);
	free(sets);
	return ret;
}

int f2fs_table_flush(const struct f2fs_table_flush *f, const void *dirty, size_t n,
		     struct f2fs_error *err)
{
	const struct f2fs_table_kind *k = f->kind;
	void *merged = NULL;
	uint8_t *jent;
	size_t m;
	int ret = f2fs_flush_check(dirty, n, k->dirty_size, f->keys, k->key_name, err);

	if (ret)
		return ret;
	if (f2fs_flush_empties_journal(f2fs_journal_count(f->journal, k->journal), n,
				       k->journal.max, f->policy)) {
		jent = malloc(k->journal.max * k->dirty_size + 1);
		if (!jent)
			return f2fs_fail(err, -ENOMEM, "out of memory merging a journal");
		m = journal_entries(f, jent);
		if (m) {
			ret = f2fs_flush_merge(dirty, n, jent, m, k->dirty_size, &merged, &n, err);
			if (ret) {
				free(jent);
				return ret;
			}
			dirty = merged;
		}
		free(jent);
		memset(f->journal, 0, sizeof(*f->journal));
	}
	ret = flush_sets(f, dirty, n, err);
	free(merged);
	return ret;
}
