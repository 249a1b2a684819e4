/* The NAT and SIT journals, either kind (journal.h). */
#include <f2fs/format/journal.h>
#include <f2fs/format/endian.h>

#include <string.h>

_Static_assert(offsetof(struct f2fs_journal, nat_j) == 2 &&
	       offsetof(struct f2fs_journal, sit_j) == 2, "entries follow the count");
_Static_assert(offsetof(struct f2fs_nat_journal_entry, ne) == 4 &&
	       offsetof(struct f2fs_sit_journal_entry, se) == 4, "a value follows its key");

static uint8_t *entry(const struct f2fs_journal *j, struct f2fs_journal_kind k, uint32_t i)
{
	return (uint8_t *)j + 2 + (size_t)i * k.entry_size;
}

uint32_t f2fs_journal_count(const struct f2fs_journal *j, struct f2fs_journal_kind k)
{
	uint32_t n = le16_get(j->n_entries);

	return n < k.max ? n : k.max;
}

uint32_t f2fs_journal_key(const struct f2fs_journal *j, struct f2fs_journal_kind k, uint32_t i)
{
	return le32_load(entry(j, k, i));
}

void *f2fs_journal_value(struct f2fs_journal *j, struct f2fs_journal_kind k, uint32_t i)
{
	return entry(j, k, i) + 4;
}

int f2fs_journal_slot(struct f2fs_journal *j, struct f2fs_journal_kind k, uint32_t key)
{
	uint32_t n = f2fs_journal_count(j, k);

	for (uint32_t i = 0; i < n; i++)
		if (f2fs_journal_key(j, k, i) == key)
			return (int)i;
	if (n >= k.max)
		return -1;
	j->n_entries = le16_put((uint16_t)(n + 1));
	le32_store(entry(j, k, n), key);
	return (int)n;
}

void f2fs_journal_take_block(struct f2fs_journal *j, struct f2fs_journal_kind k,
			     uint32_t block,
			     void (*fn)(void *arg, uint32_t key, const void *value), void *arg)
{
	uint32_t n = f2fs_journal_count(j, k), keep = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t key = f2fs_journal_key(j, k, i);

		if (key / k.per_block == block)
			fn(arg, key, entry(j, k, i) + 4);
		else
			memmove(entry(j, k, keep++), entry(j, k, i), k.entry_size);
	}
	if (keep == n)
		return;
	memset(entry(j, k, keep), 0, (size_t)(n - keep) * k.entry_size);
	j->n_entries = le16_put((uint16_t)keep);
}
