/*
 * The repair's map of uint32 keys to uint32 values (open addressing): nid
 * to staged node, nid to staged NAT entry, block to owner, ... A file of
 * its own, as the staging cache of nodes (stage.c), the staged NAT
 * entries (nodes.c) and the recovery all keep maps: held by the
 * cache, it made nodes.c, which the cache calls to stage NAT
 * entries, call the cache back.
 */
#include "repair_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint32_t slot_of(uint32_t key, uint32_t cap)
{
	return (key * 0x9E3779B1u) & (cap - 1);
}

uint32_t rp_map_get(const struct rp_map *m, uint32_t key)
{
	if (!m->cap)
		return 0;
	for (uint32_t s = slot_of(key, m->cap);; s = (s + 1) & (m->cap - 1)) {
		if (m->key[s] == key)
			return m->val[s];
		if (!m->key[s])
			return 0;
	}
}

int rp_map_put(struct rp_map *m, uint32_t key, uint32_t val)
{
	if (2 * (m->n + 1) > m->cap) {
		struct rp_map g = { 0 };

		g.cap = m->cap ? 2 * m->cap : 64;
		g.key = calloc(g.cap, sizeof(*g.key));
		g.val = calloc(g.cap, sizeof(*g.val));
		if (!g.key || !g.val) {
			free(g.key);
			free(g.val);
			return -ENOMEM;
		}
		for (uint32_t i = 0; i < m->cap; i++)
			if (m->key[i])
				rp_map_put(&g, m->key[i], m->val[i]);
		free(m->key);
		free(m->val);
		*m = g;
	}
	for (uint32_t s = slot_of(key, m->cap);; s = (s + 1) & (m->cap - 1)) {
		if (m->key[s] == key) {
			m->val[s] = val;
			return 0;
		}
		if (!m->key[s]) {
			m->key[s] = key;
			m->val[s] = val;
			m->n++;
			return 0;
		}
	}
}

void rp_map_free(struct rp_map *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}
