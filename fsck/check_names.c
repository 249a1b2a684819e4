/*
 * Checker, duplicate names in a directory. Directory blocks are read in
 * address order, so the entries of one directory arrive mixed with others'.
 * Each entry sets one bit, chosen by its directory and a hash of its name
 * (ASCII-folded in casefolded directories, as their lookups fold), in a
 * bitmap of 4 to 8 bits per inode; an entry whose bit is already set leaves
 * a candidate key, directory << 32 | name hash. A second copy of a name
 * always finds its bit set. After the walk each candidate directory is read
 * again and its names with a candidate hash compared byte for byte, so
 * neither a bitmap nor a hash collision becomes a report. At 1M files the
 * bitmap and the candidates take 1.5 MiB where a key per entry took 8.
 */
#include <f2fs/fs/dir.h>

#include "check_more.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint8_t fold(uint8_t c, int casefold)
{
	return casefold && c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

/* FNV-1a: spreads short, similar names well; unrelated to the F2FS hash so
 * that names the directory hash puts together are told apart here. */
static uint32_t name_hash(const uint8_t *name, uint32_t len, int casefold)
{
	uint32_t h = 2166136261u;

	for (uint32_t k = 0; k < len; k++)
		h = (h ^ fold(name[k], casefold)) * 16777619u;
	return h;
}

static uint64_t seen_bit(uint32_t dir, uint32_t h)
{
	uint64_t x = ((uint64_t)dir << 32 | h) * 0x9E3779B97F4A7C15ull;

	return x ^ (x >> 31);
}

static int seen_alloc(struct ck *ck, struct ck_more *m)
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

void ck_names_add(struct ck *ck, uint32_t dir, const uint8_t *name, uint32_t len, int casefold)
{
	struct ck_more *m = ck->more;
	uint32_t h = name_hash(name, len, casefold);
	uint64_t bit;

	if (!m->seen && seen_alloc(ck, m)) {
		m->nomem = 1;
		return;
	}
	bit = seen_bit(dir, h) & m->seen_mask;
	if (!(m->seen[bit / 8] & (1u << (bit % 8)))) {
		m->seen[bit / 8] |= (uint8_t)(1u << (bit % 8));
		return;
	}
	if (m->nnames == m->names_cap) {
		size_t cap = m->names_cap ? m->names_cap * 2 : 4096;
		void *p = realloc(m->names, cap * sizeof(*m->names));

		if (!p) {
			m->nomem = 1;
			return;
		}
		m->names = p;
		m->names_cap = cap;
	}
	m->names[m->nnames++] = (uint64_t)dir << 32 | h;
}

/* ---- after the walk ------------------------------------------------------ */

struct cand_name {
	uint32_t hash, len;
	uint8_t name[F2FS_NAME_LEN];
};

struct confirm {
	const uint32_t *hashes;   /* sorted candidate hashes of this directory */
	size_t nhashes;
	int casefold;
	struct cand_name *names;
	size_t n, cap;
};

static int has_hash(const struct confirm *c, uint32_t h)
{
	size_t lo = 0, hi = c->nhashes;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->hashes[mid] < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nhashes && c->hashes[lo] == h;
}

static int collect_cb(const struct f2fs_dirent *de, void *arg)
{
	struct confirm *c = arg;
	uint32_t h;

	if ((de->name_len == 1 && de->name[0] == '.') ||
	    (de->name_len == 2 && de->name[0] == '.' && de->name[1] == '.'))
		return 0;
	h = name_hash(de->name, de->name_len, c->casefold);
	if (!has_hash(c, h))
		return 0;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		void *p = realloc(c->names, cap * sizeof(*c->names));

		if (!p)
			return -ENOMEM;
		c->names = p;
		c->cap = cap;
	}
	c->names[c->n].hash = h;
	c->names[c->n].len = de->name_len;
	for (uint32_t k = 0; k < de->name_len; k++)
		c->names[c->n].name[k] = fold(de->name[k], c->casefold);
	c->n++;
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

/* Read directory dir again and report each name found more than once. */
static int confirm_dir(struct ck *ck, uint32_t dir, const uint32_t *hashes, size_t nh)
{
	struct confirm c = { hashes, nh, ck_more_casefold(ck, dir), NULL, 0, 0 };
	struct f2fs_error e;
	int ret = f2fs_dir_foreach(ck->fs, dir, collect_cb, &c, &e);

	if (ret == -ENOMEM) {
		free(c.names);
		return f2fs_fail(ck->err, ret, "out of memory comparing names");
	}
	/* a directory the iterator cannot finish is reported by the walk;
	 * the names read up to there still count (none, maybe: a candidate
	 * can come from a bitmap collision with an unreadable directory) */
	if (c.n > 1)
		qsort(c.names, c.n, sizeof(*c.names), cmp_name);
	for (size_t i = 0; i < c.n;) {
		size_t j = i + 1;

		while (j < c.n && !cmp_name(&c.names[i], &c.names[j]))
			j++;
		if (j - i > 1)
			ck_pb(ck, F2FS_PB_DIR_DUPLICATE_NAME,
			      AT(A_DIRNAME(dir, c.names[i].name, c.names[i].len), A_INO(dir),
				 A_EXP(1), A_FOUND(j - i)),
			      "directory %u: the name \"%.*s\" occurs %zu times%s", dir,
			      (int)c.names[i].len, (const char *)c.names[i].name, j - i,
			      c.casefold ? " (case folded)" : "");
		i = j;
	}
	free(c.names);
	return 0;
}

int ck_names_check(struct ck *ck)
{
	struct ck_more *m = ck->more;
	uint32_t *hashes = NULL;
	size_t nh = 0, i = 0;
	int ret = 0;

	free(m->seen);
	m->seen = NULL;
	if (!m->nnames)
		return 0;   /* nothing to sort (qsort of NULL is undefined) */
	ck_sort_keys(m->names, m->nnames);
	while (i < m->nnames && !ret) {
		uint32_t dir = (uint32_t)(m->names[i] >> 32);
		size_t j = i;

		/* the candidate hashes of this directory, each once, sorted */
		nh = 0;
		for (; j < m->nnames && (uint32_t)(m->names[j] >> 32) == dir; j++) {
			if (nh == 0 || hashes[nh - 1] != (uint32_t)m->names[j]) {
				void *p = realloc(hashes, (nh + 1) * sizeof(*hashes));

				if (!p) {
					free(hashes);
					return f2fs_fail(ck->err, -ENOMEM, "out of memory comparing names");
				}
				hashes = p;
				hashes[nh++] = (uint32_t)m->names[j];
			}
		}
		if (nh)
			ret = confirm_dir(ck, dir, hashes, nh);
		i = j;
	}
	free(hashes);
	/* the keys are of no more use: give their memory back early */
	free(m->names);
	m->names = NULL;
	m->nnames = m->names_cap = 0;
	return ret;
}
