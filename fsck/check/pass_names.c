/*
 * Checker, duplicate names in a directory. Directory blocks are read in
 * address order, so the entries of one directory arrive mixed with others'.
 * Each entry sets SEEN_PROBES bits, chosen by its directory and a hash of
 * its name (ASCII-folded in casefolded directories, as their lookups fold),
 * in a bitmap of 4 to 8 bits per inode (a Bloom filter); an entry whose
 * bits are all set already leaves a candidate key, directory << 32 | name
 * hash. A second copy of a name always finds its bits set. After the walk
 * each candidate directory is read again and its names with a candidate
 * hash compared byte for byte, so neither a bitmap nor a hash collision
 * becomes a report. At 1M files the bitmap and the candidates take 0.8 MiB
 * where a key per entry took 8 (and one bit per entry, 1.4 MiB: with three
 * the bitmap is as large and fills faster, but an entry then finds all its
 * bits set by chance about a third as often: 41588 candidates, not 111109).
 */
#include <f2fs/format/hash.h>
#include <f2fs/fs/dir.h>

#include <f2fs/util/sort.h>

#include "ck.h"
#include "passes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const uint8_t *ck_name_key(const uint8_t *name, uint32_t len, int casefold,
			   uint8_t buf[F2FS_NAME_LEN], uint32_t *klen)
{
	int k = casefold ? f2fs_casefold_name(name, len, buf) : -1;

	if (k > 0) {
		*klen = (uint32_t)k;
		return buf;
	}
	*klen = len;
	return name;
}

/* FNV-1a: spreads short, similar names well; unrelated to the F2FS hash so
 * that names the directory hash puts together are told apart here. */
static uint32_t key_hash(const uint8_t *key, uint32_t len)
{
	uint32_t h = 2166136261u;

	for (uint32_t k = 0; k < len; k++)
		h = (h ^ key[k]) * 16777619u;
	return h;
}

/* Bits an entry sets: about 4 bits per entry * ln 2, the count with the
 * fewest false candidates. */
#define SEEN_PROBES 3

/* Two hashes of an entry; probe k is at first + k * step (double hashing:
 * as good as independent hashes for a Bloom filter). */
static void seen_hashes(uint32_t dir, uint32_t h, uint64_t *first, uint64_t *step)
{
	uint64_t x = ((uint64_t)dir << 32 | h) * 0x9E3779B97F4A7C15ull;

	x ^= x >> 31;
	*first = x;
	x *= 0xBF58476D1CE4E5B9ull;
	*step = (x ^ (x >> 29)) | 1;
}

static int seen_alloc(struct ck *ck, struct ck_names *m)
{
	uint64_t want = ((uint64_t)ck->nat_inodes + 1024) * 4, bits = 1024;

	while (bits < want)
		bits <<= 1;
	m->seen = calloc((size_t)(bits / 8), 1);
	if (!m->seen)
		return -ENOMEM;
	m->seen_mask = bits - 1;
	return 0;
}

void ck_names_add(struct ck *ck, uint32_t dir, const uint8_t *key, uint32_t len)
{
	struct ck_names *m = &ck->names;
	uint32_t h = key_hash(key, len);
	uint64_t bit, step;
	int fresh = 0;

	if (!m->seen && seen_alloc(ck, m)) {
		ck->hook_nomem = 1;
		return;
	}
	seen_hashes(dir, h, &bit, &step);
	for (int k = 0; k < SEEN_PROBES; k++, bit += step) {
		uint64_t b = bit & m->seen_mask;
		uint8_t mask = (uint8_t)(1u << (b % 8));

		fresh |= !(m->seen[b / 8] & mask);
		m->seen[b / 8] |= mask;
	}
	if (fresh)
		return;
	if (f2fs_vec_push(&m->keys, (uint64_t)dir << 32 | h))
		ck->hook_nomem = 1;
}

/* ---- after the walk ------------------------------------------------------ */

struct cand_name {
	uint32_t hash, len;
	uint64_t block;            /* where the entry is (struct f2fs_dirent) */
	uint32_t slot;
	uint8_t name[F2FS_NAME_LEN];
};

struct confirm {
	const uint32_t *hashes;   /* sorted candidate hashes of this directory */
	size_t nhashes;
	int casefold;
	F2FS_VEC(struct cand_name) names;
};

static int has_hash(const struct confirm *c, uint32_t h)
{
	size_t lo = f2fs_lower_bound_u32(c->hashes, c->nhashes, sizeof(*c->hashes), 0, h);

	return lo < c->nhashes && c->hashes[lo] == h;
}

static int collect_cb(const struct f2fs_dirent *de, void *arg)
{
	struct confirm *c = arg;
	struct cand_name *n;
	const uint8_t *key;
	uint32_t h;

	if ((de->name_len == 1 && de->name[0] == '.') ||
	    (de->name_len == 2 && de->name[0] == '.' && de->name[1] == '.'))
		return 0;
	if (f2fs_vec_reserve(&c->names, c->names.n + 1))
		return -ENOMEM;
	n = &c->names.v[c->names.n];
	key = ck_name_key(de->name, de->name_len, c->casefold, n->name, &n->len);
	h = key_hash(key, n->len);
	if (!has_hash(c, h))
		return 0;
	if (key != n->name)
		memcpy(n->name, key, n->len);
	n->hash = h;
	n->block = de->block;
	n->slot = de->slot;
	c->names.n++;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	const struct cand_name *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->name, y->name, x->len);
}

/* Equal names in on-disk order: the first keeps its name. */
static int name_less(const void *a, const void *b, void *ctx)
{
	const struct cand_name *x = a, *y = b;
	int c = cmp_name(a, b);

	(void)ctx;
	if (c)
		return c < 0;
	return x->block != y->block ? x->block < y->block : x->slot < y->slot;
}

/* Read directory dir again and report each name found more than once. */
static int confirm_dir(struct ck *ck, uint32_t dir, const uint32_t *hashes, size_t nh)
{
	struct confirm c = { hashes, nh, ck_rec_casefold(ck, dir), { 0 } };
	struct f2fs_error e;
	int ret = f2fs_dir_foreach(ck->fs, dir, collect_cb, &c, &e);

	if (ret == -ENOMEM) {
		f2fs_vec_free(&c.names);
		return f2fs_fail(ck->err, ret, "out of memory comparing names");
	}
	/* a directory the iterator cannot finish is reported by the walk;
	 * the names read up to there still count (none, maybe: a candidate
	 * can come from a bitmap collision with an unreadable directory) */
	ret = 0;
	f2fs_sort(c.names.v, c.names.n, sizeof(*c.names.v), name_less, NULL);
	for (size_t i = 0; i < c.names.n && !ret;) {
		const struct cand_name *first = &c.names.v[i];
		size_t j = i + 1;

		while (j < c.names.n && !cmp_name(first, &c.names.v[j]))
			j++;
		if (j - i > 1)
			ck_pb(ck, F2FS_PB_DIR_DUPLICATE_NAME,
			      AT(A_DIRNAME(dir, first->name, first->len), A_INO(dir),
				 A_EXP(1), A_FOUND(j - i)),
			      "directory %u: the name \"%.*s\" occurs %zu times%s", dir,
			      (int)first->len, (const char *)first->name, j - i,
			      c.casefold ? " (case folded)" : "");
		for (size_t k = i + 1; k < j && !ret; k++)
			ret = ck_fix_add(ck, F2FS_PB_DIR_DUPLICATE_NAME, FX_RENAME, dir,
					  c.names.v[k].block, c.names.v[k].slot, 0);
		i = j;
	}
	f2fs_vec_free(&c.names);
	return ret;
}

int ck_names_check(struct ck *ck)
{
	struct ck_names *m = &ck->names;
	F2FS_VEC(uint32_t) hashes = { 0 };
	size_t i = 0;
	int ret = 0;

	free(m->seen);
	m->seen = NULL;
	f2fs_sort_u64(m->keys.v, m->keys.n);
	while (i < m->keys.n && !ret) {
		uint32_t dir = (uint32_t)(m->keys.v[i] >> 32);
		size_t j = i;

		/* the candidate hashes of this directory, each once, sorted */
		hashes.n = 0;
		for (; j < m->keys.n && (uint32_t)(m->keys.v[j] >> 32) == dir; j++) {
			uint32_t h = (uint32_t)m->keys.v[j];

			if ((!hashes.n || hashes.v[hashes.n - 1] != h) && f2fs_vec_push(&hashes, h)) {
				f2fs_vec_free(&hashes);
				return f2fs_fail(ck->err, -ENOMEM, "out of memory comparing names");
			}
		}
		if (hashes.n)
			ret = confirm_dir(ck, dir, hashes.v, hashes.n);
		i = j;
	}
	f2fs_vec_free(&hashes);
	/* the keys are of no more use: give their memory back early */
	f2fs_vec_free(&m->keys);
	return ret;
}

void ck_names_free(struct ck *ck)
{
	free(ck->names.seen);
	ck->names.seen = NULL;
	f2fs_vec_free(&ck->names.keys);
}
