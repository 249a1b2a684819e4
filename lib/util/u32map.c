/* The hash map of uint32_t keys (u32map.h). */
#include <f2fs/util/u32map.h>

#include <errno.h>
#include <stdlib.h>

#define FIRST_CAP 64u

static uint32_t home(uint32_t key, uint32_t cap)
{
	/* Fibonacci hashing: consecutive keys (nids, ids) spread out */
	return (key * 0x9E3779B1u) & (cap - 1);
}

static bool is_used(const uint64_t *used, uint32_t i)
{
	return (used[i / 64] >> (i % 64)) & 1;
}

/* The slot of key, or the free slot that ends its probe. */
static uint32_t probe(const struct f2fs_u32map *m, uint32_t key)
{
	uint32_t i = home(key, m->cap);

	while (is_used(m->used, i) && m->slot[i].key != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

uint32_t *f2fs_u32map_find(const struct f2fs_u32map *m, uint32_t key)
{
	uint32_t i;

	if (!m->cap)
		return NULL;
	i = probe(m, key);
	return is_used(m->used, i) ? &m->slot[i].val : NULL;
}

uint32_t f2fs_u32map_get(const struct f2fs_u32map *m, uint32_t key)
{
	const uint32_t *v = f2fs_u32map_find(m, key);

	return v ? *v : 0;
}

/* Twice the slots, the keys placed again in the old slot order. */
static int grow(struct f2fs_u32map *m)
{
	uint32_t cap = m->cap ? 2 * m->cap : FIRST_CAP;
	struct f2fs_u32map g = { 0 };

	if (cap < m->cap)
		return -ENOMEM;
	g.slot = malloc((size_t)cap * sizeof(*g.slot));
	g.used = calloc(cap / 64, sizeof(*g.used));
	if (!g.slot || !g.used) {
		free(g.slot);
		free(g.used);
		return -ENOMEM;
	}
	g.cap = cap;
	g.n = m->n;
	for (uint32_t i = 0; i < m->cap; i++) {
		uint32_t j;

		if (!is_used(m->used, i))
			continue;
		j = probe(&g, m->slot[i].key);
		g.slot[j] = m->slot[i];
		g.used[j / 64] |= 1ull << (j % 64);
	}
	f2fs_u32map_free(m);
	*m = g;
	return 0;
}

uint32_t *f2fs_u32map_add(struct f2fs_u32map *m, uint32_t key)
{
	uint32_t *v = f2fs_u32map_find(m, key), i;

	if (v)
		return v;
	if ((uint64_t)(m->n + 1) * 4 > (uint64_t)m->cap * 3 && grow(m))
		return NULL;
	i = probe(m, key);
	m->slot[i] = (struct f2fs_u32map_slot){ key, 0 };
	m->used[i / 64] |= 1ull << (i % 64);
	m->n++;
	return &m->slot[i].val;
}

int f2fs_u32map_put(struct f2fs_u32map *m, uint32_t key, uint32_t val)
{
	uint32_t *v = f2fs_u32map_add(m, key);

	if (!v)
		return -ENOMEM;
	*v = val;
	return 0;
}

bool f2fs_u32map_next(const struct f2fs_u32map *m, uint32_t *pos, uint32_t *key,
		      uint32_t *val)
{
	for (; *pos < m->cap; ++*pos)
		if (is_used(m->used, *pos)) {
			if (key)
				*key = m->slot[*pos].key;
			if (val)
				*val = m->slot[*pos].val;
			++*pos;
			return true;
		}
	return false;
}

void f2fs_u32map_free(struct f2fs_u32map *m)
{
	free(m->slot);
	free(m->used);
	*m = (struct f2fs_u32map){ 0 };
}
