/*
 * The counters of an inode record: i_links, the directory entries naming
 * it, i_blocks minus the blocks counted. At a million files they would take
 * 12 MB as three uint32_t; almost every one is small, so each gets a few
 * bits of ck_nid.cnt, and the rare one that does not fit (a directory with
 * many subdirectories, a large file while its nodes are being counted) is
 * kept exactly in ck.wide, an open-addressing table keyed by the record's
 * index. A mark in the bits says which (the bits and the common case:
 * ck.h, inline).
 */
#include "ck.h"

#include <errno.h>
#include <stdlib.h>

static uint32_t slot_of(uint32_t key, uint32_t cap)
{
	return (key * 0x9E3779B1u) & (cap - 1);
}

static struct ck_wide *wide_find(const struct ck_wtab *t, uint32_t key)
{
	if (!t->cap)
		return NULL;
	for (uint32_t i = slot_of(key, t->cap);; i = (i + 1) & (t->cap - 1)) {
		if (t->slot[i].key == key)
			return &t->slot[i];
		if (!t->slot[i].key)
			return NULL;
	}
}

static int wide_grow(struct ck_wtab *t)
{
	uint32_t cap = t->cap ? t->cap * 2 : 64;
	struct ck_wide *s = calloc(cap, sizeof(*s));

	if (!s || cap < t->cap) {
		free(s);
		return -ENOMEM;
	}
	for (uint32_t k = 0; k < t->cap; k++) {
		uint32_t i;

		if (!t->slot[k].key)
			continue;
		for (i = slot_of(t->slot[k].key, cap); s[i].key; i = (i + 1) & (cap - 1))
			;
		s[i] = t->slot[k];
	}
	free(t->slot);
	t->slot = s;
	t->cap = cap;
	return 0;
}

static struct ck_wide *wide_get(struct ck_wtab *t, uint32_t key)
{
	struct ck_wide *w = wide_find(t, key);
	uint32_t i;

	if (w)
		return w;
	if ((t->n + 1) * 4 > t->cap * 3 && wide_grow(t))
		return NULL;
	for (i = slot_of(key, t->cap); t->slot[i].key; i = (i + 1) & (t->cap - 1))
		;
	t->slot[i].key = key;
	t->n++;
	return &t->slot[i];
}

static uint32_t key_of(const struct ck *ck, const struct ck_nid *n)
{
	return (uint32_t)(n - ck->nids.v) + 1;
}

uint32_t ck_cnt_wide(const struct ck *ck, const struct ck_nid *n, enum ck_cnt c)
{
	const struct ck_wide *w = wide_find(&ck->wide, key_of(ck, n));

	return w ? w->v[c] : 0;
}

int ck_cnt_set_wide(struct ck *ck, struct ck_nid *n, enum ck_cnt c, uint32_t v)
{
	uint32_t m = (1u << ck_cnt_bits(c)) - 1;
	struct ck_wide *w = wide_get(&ck->wide, key_of(ck, n));

	if (!w)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for inode counters");
	w->v[c] = v;
	n->cnt = (uint16_t)((n->cnt & ~(m << ck_cnt_shift(c))) | ck_cnt_mark(c) << ck_cnt_shift(c));
	return 0;
}

void ck_cnt_free(struct ck *ck)
{
	free(ck->wide.slot);
	ck->wide = (struct ck_wtab){ 0 };
}
