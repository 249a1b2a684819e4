/*
 * The counters of an inode record: i_links, the directory entries naming
 * it, i_blocks minus the blocks counted. At a million files they would take
 * 12 MB as three uint32_t; almost every one is small, so each gets a few
 * bits of ck_nid.cnt, and the rare one that does not fit (a directory with
 * many subdirectories, a large file while its nodes are being counted) is
 * kept exactly in ck.wide, an open-addressing table keyed by the record's
 * index. A mark in the bits says which.
 */
#include "ck.h"

#include <errno.h>
#include <stdlib.h>

/* Place of each counter in ck_nid.cnt: shift, width, and whether the bits
 * hold a signed value (the i_blocks difference goes both ways while the
 * nodes of a file are counted). */
static const struct {
	uint8_t shift, bits, sign;
} field[CK_NCNT] = {
	[CK_LINKS] = { 0, 5, 0 },
	[CK_REFS]  = { 5, 5, 0 },
	[CK_BDIFF] = { 10, 6, 1 },
};

/* The mark: all ones unsigned, the lowest value signed. */
static uint32_t mark(enum ck_cnt c)
{
	return field[c].sign ? 1u << (field[c].bits - 1) : (1u << field[c].bits) - 1;
}

static uint32_t bits_of(const struct ck_nid *n, enum ck_cnt c)
{
	return ((uint32_t)n->cnt >> field[c].shift) & ((1u << field[c].bits) - 1);
}

static void put_bits(struct ck_nid *n, enum ck_cnt c, uint32_t b)
{
	uint32_t m = ((1u << field[c].bits) - 1) << field[c].shift;

	n->cnt = (uint16_t)((n->cnt & ~m) | ((b << field[c].shift) & m));
}

/* The bits for v, or the mark when v does not fit. */
static uint32_t narrow(enum ck_cnt c, uint32_t v)
{
	uint32_t w = field[c].bits;

	if (field[c].sign) {
		int32_t s = (int32_t)v, lim = (int32_t)(1u << (w - 1));

		return s > -lim && s < lim ? v & ((1u << w) - 1) : mark(c);
	}
	return v < mark(c) ? v : mark(c);
}

static uint32_t widen(enum ck_cnt c, uint32_t b)
{
	uint32_t w = field[c].bits;

	if (field[c].sign && (b >> (w - 1)))
		return b | ~((1u << w) - 1);
	return b;
}

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

uint32_t ck_cnt(const struct ck *ck, const struct ck_nid *n, enum ck_cnt c)
{
	uint32_t b = bits_of(n, c);
	const struct ck_wide *w;

	if (b != mark(c))
		return widen(c, b);
	w = wide_find(&ck->wide, key_of(ck, n));
	return w ? w->v[c] : 0;
}

int ck_cnt_set(struct ck *ck, struct ck_nid *n, enum ck_cnt c, uint32_t v)
{
	uint32_t b = narrow(c, v);
	struct ck_wide *w;

	if (b == mark(c)) {
		w = wide_get(&ck->wide, key_of(ck, n));
		if (!w)
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for inode counters");
		w->v[c] = v;
	}
	put_bits(n, c, b);
	return 0;
}

void ck_cnt_free(struct ck *ck)
{
	free(ck->wide.slot);
	ck->wide = (struct ck_wtab){ 0 };
}
