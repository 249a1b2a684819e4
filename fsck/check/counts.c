/*
 * The counters of an inode record: i_links, the directory entries naming
 * it, i_blocks minus the blocks counted. At a million files they would take
 * 12 MB as three uint32_t; almost every one is small, so each gets a few
 * bits of ck_nid.cnt, and the rare one that does not fit (a directory with
 * many subdirectories, a large file while its nodes are being counted) is
 * kept exactly in ck.wide, found by the record's index. A mark in the
 * bits says which (the bits and the common case: ck.h, inline).
 */
#include "ck.h"

#include <errno.h>
#include <stdlib.h>

static struct ck_wide *wide_find(const struct ck_wtab *t, uint32_t key)
{
	const uint32_t *at = f2fs_u32map_find(&t->at, key);

	return at ? &t->cnt.v[*at] : NULL;
}

static struct ck_wide *wide_get(struct ck_wtab *t, uint32_t key)
{
	struct ck_wide *w = wide_find(t, key);

	if (w)
		return w;
	if (f2fs_vec_push(&t->cnt, (struct ck_wide){ { 0 } }))
		return NULL;
	if (f2fs_u32map_put(&t->at, key, (uint32_t)(t->cnt.n - 1))) {
		t->cnt.n--;
		return NULL;
	}
	return &t->cnt.v[t->cnt.n - 1];
}

static uint32_t key_of(const struct ck *ck, const struct ck_nid *n)
{
	return (uint32_t)(n - ck->nids.v);
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
	f2fs_u32map_free(&ck->wide.at);
	f2fs_vec_free(&ck->wide.cnt);
}
