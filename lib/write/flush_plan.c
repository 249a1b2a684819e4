/* The journal-or-block decision for dirty NAT and SIT sets. */
#include <f2fs/write/flush_plan.h>
#include <f2fs/util/sort.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint32_t key_at(const void *e, size_t i, size_t size)
{
	uint32_t k;

	memcpy(&k, (const uint8_t *)e + i * size, sizeof(k));
	return k;
}

static int key_less(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return key_at(a, 0, 0) < key_at(b, 0, 0);
}

void f2fs_flush_sort(void *e, size_t n, size_t size)
{
	f2fs_sort(e, n, size, key_less, NULL);
}

int f2fs_flush_check(const void *e, size_t n, size_t size, uint64_t limit, const char *what,
		     struct f2fs_error *err)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t k = key_at(e, i, size);

		if (k >= limit)
			return f2fs_fail(err, -EINVAL, "dirty %s %u: out of range (there are %llu)",
					 what, k, (unsigned long long)limit);
		if (i && k <= key_at(e, i - 1, size))
			return f2fs_fail(err, -EINVAL, "dirty %s %u: not in increasing order",
					 what, k);
	}
	return 0;
}

size_t f2fs_flush_group(const void *e, size_t n, size_t size, uint32_t per,
			struct f2fs_flush_set *sets)
{
	size_t s = 0;
	uint32_t last = 0;

	for (size_t i = 0; i < n; i++) {
		uint32_t block = key_at(e, i, size) / per;

		if (s && block == last) {
			if (sets)
				sets[s - 1].count++;
			continue;
		}
		if (sets)
			sets[s] = (struct f2fs_flush_set){ block, (uint32_t)i, 1, false };
		s++;
		last = block;
	}
	return s;
}

struct journal_order {
	const uint8_t *jent;
	size_t size;
};

/* Journal positions by their entries' keys; a key journaled twice (a
 * damaged journal) keeps its journal order, so that the first one wins as
 * in the kernel's lookup. */
static int position_less(const void *a, const void *b, void *ctx)
{
	const struct journal_order *j = ctx;
	uint32_t pa = *(const uint32_t *)a, pb = *(const uint32_t *)b;
	uint32_t x = key_at(j->jent, pa, j->size), y = key_at(j->jent, pb, j->size);

	return x != y ? x < y : pa < pb;
}

/* Sort the m journal entries by key, in place, keeping the journal order of
 * equal keys. */
static int sort_journal(void *jent, size_t m, size_t size, struct f2fs_error *err)
{
	struct journal_order j = { jent, size };
	uint32_t *pos = malloc(m * sizeof(*pos) + 1);
	uint8_t *copy = malloc(m * size + 1);

	if (!pos || !copy) {
		free(pos);
		free(copy);
		return f2fs_fail(err, -ENOMEM, "out of memory merging a journal");
	}
	for (size_t k = 0; k < m; k++)
		pos[k] = (uint32_t)k;
	f2fs_sort(pos, m, sizeof(*pos), position_less, &j);
	for (size_t k = 0; k < m; k++)
		memcpy(copy + k * size, (const uint8_t *)jent + (size_t)pos[k] * size, size);
	memcpy(jent, copy, m * size);
	free(pos);
	free(copy);
	return 0;
}

int f2fs_flush_merge(const void *e, size_t n, void *jent, size_t m, size_t size,
		     void **out, size_t *nout, struct f2fs_error *err)
{
	uint8_t *r = malloc((n + m) * size + 1);
	size_t i = 0, k = 0, o = 0;
	int ret;

	if (!r)
		return f2fs_fail(err, -ENOMEM, "out of memory merging a journal");
	ret = sort_journal(jent, m, size, err);
	if (ret) {
		free(r);
		return ret;
	}
	while (i < n || k < m) {
		uint32_t jk = k < m ? key_at(jent, k, size) : 0;

		if (k < m && o && jk == key_at(r, o - 1, size))
			k++;   /* a key already taken, dirty or earlier in the journal */
		else if (i < n && (k == m || key_at(e, i, size) <= jk))
			memcpy(r + o++ * size, (const uint8_t *)e + i++ * size, size);
		else
			memcpy(r + o++ * size, (uint8_t *)jent + k++ * size, size);
	}
	*out = r;
	*nout = o;
	return 0;
}

bool f2fs_flush_empties_journal(uint32_t in_journal, size_t dirty, uint32_t capacity,
				unsigned policy)
{
	if (policy & F2FS_FLUSH_NO_JOURNAL)
		return true;
	return in_journal > capacity || dirty > capacity - in_journal;
}

/*
 * The kernel breaks ties the other way round (later blocks first); any
 * order is valid, and this one is what mkfs has always written. Without a
 * journal nothing is ordered: sets stay in block order, for sequential
 * writes.
 */
static int sparsest_less(const void *a, const void *b, void *ctx)
{
	const struct f2fs_flush_set *x = a, *y = b;

	(void)ctx;
	return x->count != y->count ? x->count < y->count : x->block < y->block;
}

uint32_t f2fs_flush_plan(struct f2fs_flush_set *sets, size_t n, uint32_t room, unsigned policy)
{
	uint32_t used = 0;

	if (n > 1 && !(policy & F2FS_FLUSH_NO_JOURNAL))
		f2fs_sort(sets, n, sizeof(*sets), sparsest_less, NULL);
	for (size_t i = 0; i < n; i++) {
		bool pinned = (policy & F2FS_FLUSH_BLOCK0) && sets[i].block == 0;

		sets[i].to_journal = !(policy & F2FS_FLUSH_NO_JOURNAL) && !pinned &&
				     sets[i].count <= room - used;
		if (sets[i].to_journal)
			used += sets[i].count;
	}
	return used;
}
