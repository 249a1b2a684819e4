/* The checker: problem table and records, batched reads, the driver. */
#include "checker.h"
#include <f2fs/fs/dir.h>
#include <f2fs/format/endian.h>

#include "ck.h"
#include "check_more.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the problem table ------------------------------------------------ */

#define F2FS_CHECK_ROW_(id, nm, st, sev, desc) \
	[F2FS_PB_##id] = { nm, st, F2FS_SEV_##sev, desc },
static const struct f2fs_problem_info problem_table[F2FS_PB_COUNT] = {
	F2FS_CHECK_PROBLEMS(F2FS_CHECK_ROW_)
};
#undef F2FS_CHECK_ROW_

const struct f2fs_problem_info *f2fs_problem_info(enum f2fs_problem_code code)
{
	if ((int)code < 0 || code >= F2FS_PB_COUNT)
		return NULL;
	return &problem_table[code];
}

int f2fs_problem_by_name(const char *name)
{
	for (int i = 0; i < F2FS_PB_COUNT; i++)
		if (!strcmp(problem_table[i].name, name))
			return i;
	return -1;
}

int f2fs_check_cp_clean(uint32_t flags)
{
	return (flags & F2FS_CP_UMOUNT) &&
	       !(flags & (F2FS_CP_ERROR | F2FS_CP_FSCK | F2FS_CP_QUOTA_NEED_FSCK));
}

/* ---- recording -------------------------------------------------------- */

void ck_pb(struct ck *ck, enum f2fs_problem_code code, const struct ck_at *at,
	   const char *fmt, ...)
{
	struct f2fs_check_report *r = ck->r;
	struct f2fs_problem *p;
	va_list ap;

	r->count[code]++;
	if (problem_table[code].severity == F2FS_SEV_ERROR)
		r->errors++;
	else
		r->warnings++;
	if (r->count[code] > ck->max_per) {
		r->suppressed++;
		return;
	}
	if (r->nproblems == ck->cap) {
		size_t cap = ck->cap ? ck->cap * 2 : 64;
		struct f2fs_problem *np = realloc(r->problems, cap * sizeof(*np));
		struct ck_pending_path *pp;

		if (!np) {
			r->suppressed++;
			return;
		}
		r->problems = np;
		pp = realloc(ck->paths, cap * sizeof(*pp));
		if (!pp) {
			r->suppressed++;
			return;
		}
		ck->paths = pp;
		ck->cap = cap;
	}
	p = &r->problems[r->nproblems];
	memset(p, 0, sizeof(*p));
	p->code = code;
	if (at) {
		p->have = (at->h_nid ? F2FS_PF_NID : 0) | (at->h_ino ? F2FS_PF_INO : 0) |
			  (at->h_seg ? F2FS_PF_SEGNO : 0) | (at->h_blk ? F2FS_PF_BLKADDR : 0) |
			  (at->h_exp ? F2FS_PF_EXPECTED : 0) | (at->h_found ? F2FS_PF_FOUND : 0);
		p->nid = at->nid;
		p->ino = at->ino;
		p->segno = at->segno;
		p->blkaddr = at->blkaddr;
		p->expected = at->expected;
		p->found = at->found;
	}
	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
	ck->paths[r->nproblems].ino = 0;
	ck->paths[r->nproblems].name = NULL;
	if (at && (at->has_path || at->h_ino)) {
		ck->paths[r->nproblems].ino = at->has_path ? at->path_ino : at->ino;
		if (at->name) {
			char *s = malloc(at->name_len + 1);

			if (s) {
				memcpy(s, at->name, at->name_len);
				s[at->name_len] = 0;
			}
			ck->paths[r->nproblems].name = s;
		}
	}
	r->nproblems++;
}

void ck_pb_name(struct ck *ck, enum f2fs_problem_code code, uint32_t nid, uint32_t dir,
		const uint8_t *name, uint32_t len)
{
	for (size_t i = 0; i < ck->r->nproblems; i++) {
		const struct f2fs_problem *p = &ck->r->problems[i];
		char *s;

		if (p->code != code || !(p->have & F2FS_PF_NID) || p->nid != nid)
			continue;
		if (ck->paths[i].name || !(s = malloc(len + 1)))
			return;
		memcpy(s, name, len);
		s[len] = 0;
		ck->paths[i].ino = dir;
		ck->paths[i].name = s;
		return;
	}
}

void ck_progress(struct ck *ck, const char *phase, uint64_t done, uint64_t total)
{
	if (ck->opt->progress)
		ck->opt->progress(phase, done, total, ck->opt->progress_arg);
}

/* ---- lookups and batched reads ---------------------------------------- */

struct ck_nid *ck_nid_find(struct ck *ck, uint32_t nid)
{
	uint64_t w;
	uint32_t idx;

	if (nid >= ck->max_nid || !ck->nid_used)
		return NULL;
	w = ck->nid_used[nid / 64];
	if (!((w >> (nid % 64)) & 1))
		return NULL;
	idx = ck->nid_rank[nid / 64] +
	      (uint32_t)__builtin_popcountll(w & ((1ull << (nid % 64)) - 1));
	return idx < ck->nnids ? &ck->nids[idx] : NULL;
}

struct ck_nid *ck_inode(struct ck *ck, uint32_t ino)
{
	struct ck_nid *n = ck_nid_find(ck, ino);

	return n && (n->flags & NR_INODE) ? n : NULL;
}

int ck_nid_next(struct ck *ck, struct ck_nid_iter *it, uint32_t *nid, struct ck_nid **n)
{
	size_t words = ((size_t)ck->max_nid + 63) / 64;

	if (it->started)
		it->k++;
	it->started = 1;
	while (!it->bits) {
		if (it->w >= words || !ck->nid_used)
			return 0;
		it->bits = ck->nid_used[it->w++];
	}
	*nid = (it->w - 1) * 64 + (uint32_t)__builtin_ctzll(it->bits);
	it->bits &= it->bits - 1;
	*n = &ck->nids[it->k];
	return it->k < ck->nnids;
}

int ck_add_blk(struct ck *ck, uint32_t addr, uint32_t nid, uint32_t idx, int node)
{
	if (ck->nblks == ck->blks_cap) {
		size_t cap = ck->blks_cap ? ck->blks_cap * 2 : 1024;
		struct ck_blk *p = realloc(ck->blks, cap * sizeof(*p));

		if (!p)
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for block records");
		ck->blks = p;
		ck->blks_cap = cap;
	}
	ck->blks[ck->nblks++] = (struct ck_blk){ addr, nid, (uint16_t)idx, (uint8_t)node, 0 };
	return 0;
}

static void key_swap(uint64_t *a, uint64_t *b)
{
	uint64_t t = *a;

	*a = *b;
	*b = t;
}

static void key_sift(uint64_t *v, size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			return;
		if (c + 1 < n && v[c] < v[c + 1])
			c++;
		if (v[i] >= v[c])
			return;
		key_swap(&v[i], &v[c]);
		i = c;
	}
}

static void key_introsort(uint64_t *v, size_t n, unsigned depth)
{
	while (n > 16) {
		size_t m = n / 2, i = 0, j = n - 1, left;
		uint64_t pivot;

		if (!depth--) {
			for (size_t k = n / 2; k-- > 0;)
				key_sift(v, k, n);
			for (size_t k = n; k-- > 1;) {
				key_swap(&v[0], &v[k]);
				key_sift(v, 0, k);
			}
			return;
		}
		/* median of three to v[m], then Hoare partition around it */
		if (v[m] < v[0])
			key_swap(&v[m], &v[0]);
		if (v[n - 1] < v[m])
			key_swap(&v[n - 1], &v[m]);
		if (v[m] < v[0])
			key_swap(&v[m], &v[0]);
		pivot = v[m];
		for (;;) {
			while (v[i] < pivot)
				i++;
			while (pivot < v[j])
				j--;
			if (i >= j)
				break;
			key_swap(&v[i], &v[j]);
			i++;
			j--;
		}
		/* [0, j] <= pivot <= [j + 1, n): recurse on the smaller side */
		left = j + 1;
		if (left < n - left) {
			key_introsort(v, left, depth);
			v += left;
			n -= left;
		} else {
			key_introsort(v + left, n - left, depth);
			n = left;
		}
	}
	for (size_t i = 1; i < n; i++) {
		uint64_t t = v[i];
		size_t k = i;

		for (; k > 0 && t < v[k - 1]; k--)
			v[k] = v[k - 1];
		v[k] = t;
	}
}

/* In place: qsort() (a merge sort in glibc 2.36) allocates a copy of the
 * keys, 8 bytes each, which at a million keys is more than the rest of a
 * phase. Introsort: quicksort with a median of three, heapsort past a depth
 * limit, insertion sort for short runs. */
void ck_sort_keys(uint64_t *keys, size_t n)
{
	unsigned depth = 0;

	for (size_t m = n; m > 1; m >>= 1)
		depth += 2;
	key_introsort(keys, n, depth);
}

/* Next set bit of map at or after i, or total. */
static uint64_t map_next(const uint8_t *map, uint64_t i, uint64_t total)
{
	while (i < total) {
		uint8_t b = (uint8_t)(map[i / 8] << (i % 8));

		if (b)
			return i + (uint64_t)__builtin_clz((uint32_t)b << 24);
		i = (i / 8 + 1) * 8;
		/* whole zero words: the map is mostly empty outside node segments */
		while (i + 64 <= total && !(map[i / 8] | map[i / 8 + 1] | map[i / 8 + 2] |
					    map[i / 8 + 3] | map[i / 8 + 4] | map[i / 8 + 5] |
					    map[i / 8 + 6] | map[i / 8 + 7]))
			i += 64;
	}
	return total;
}

/*
 * One wanted block of a batch. When the batch read failed (a bad sector
 * anywhere in it, wanted or in a gap), each wanted block is read alone, so
 * that a bad block costs only itself: fn gets those that read, bad (when
 * given) those that do not; without bad, the error ends the phase. *alone
 * is the address last read alone (a key may repeat an address), *rd its
 * result, *e its error.
 */
static int batch_block(struct ck *ck, int failed, uint32_t item, uint32_t addr, uint8_t *blk,
		       uint64_t *alone, int *rd, struct f2fs_error *e, ck_block_fn fn,
		       ck_bad_fn bad, void *arg)
{
	if (!failed)
		return fn(ck, item, addr, blk, arg);
	if (*alone != addr) {
		*alone = addr;
		*rd = f2fs_dev_read(f2fs_fs_dev(ck->fs), addr, blk, 1, e);
	}
	if (!*rd)
		return fn(ck, item, addr, blk, arg);
	if (!bad || *rd == -ENOMEM)
		return f2fs_fail(ck->err, *rd, "%s", e->msg);
	return bad(ck, item, addr, e, arg);
}

int ck_read_map(struct ck *ck, const uint8_t *map, uint64_t total, const char *phase,
		ck_block_fn fn, ck_bad_fn bad, void *arg)
{
	struct f2fs_dev *dev = f2fs_fs_dev(ck->fs);
	uint64_t i = map_next(map, 0, total);
	struct f2fs_error e;

	while (i < total) {
		uint64_t first = i, last = i, j, alone = UINT64_MAX;
		int failed, rd = 0;

		/* the batch: set bits no more than CK_IO_GAP apart, CK_IO_BLOCKS in all */
		for (j = map_next(map, i + 1, total); j < total; j = map_next(map, j + 1, total)) {
			if (j - first >= CK_IO_BLOCKS || j - last > CK_IO_GAP)
				break;
			last = j;
		}
		failed = f2fs_dev_read(dev, ck->main_blkaddr + first, ck->io,
				       (size_t)(last - first) + 1, &e) != 0;
		for (uint64_t k = first; k <= last; k = map_next(map, k + 1, total)) {
			int ret = batch_block(ck, failed, 0, (uint32_t)(ck->main_blkaddr + k),
					      ck->io + (size_t)(k - first) * F2FS_BLKSIZE,
					      &alone, &rd, &e, fn, bad, arg);

			if (ret)
				return ret;
		}
		i = j;
		ck_progress(ck, phase, i, total);
	}
	return 0;
}

int ck_read_sorted(struct ck *ck, const uint64_t *keys, size_t n,
		   const char *phase, ck_block_fn fn, ck_bad_fn bad, void *arg)
{
	struct f2fs_dev *dev = f2fs_fs_dev(ck->fs);
	uint64_t dev_blocks = f2fs_dev_bytes(dev) / F2FS_BLKSIZE;
	struct f2fs_error e;
	size_t i = 0;

	while (i < n) {
		uint32_t first = (uint32_t)(keys[i] >> 32), last = first;
		uint64_t alone = UINT64_MAX;
		size_t j = i + 1;
		int failed, rd = 0;

		while (j < n) {
			uint32_t a = (uint32_t)(keys[j] >> 32);

			if (a - first >= CK_IO_BLOCKS || a - last > CK_IO_GAP)
				break;
			last = a;
			j++;
		}
		if (last >= dev_blocks) {
			/* cannot happen for main-area addresses of a valid sb */
			i = j;
			continue;
		}
		failed = f2fs_dev_read(dev, first, ck->io, (size_t)(last - first) + 1, &e) != 0;
		for (size_t k = i; k < j; k++) {
			uint32_t a = (uint32_t)(keys[k] >> 32);
			int ret = batch_block(ck, failed, (uint32_t)keys[k], a,
					      ck->io + (size_t)(a - first) * F2FS_BLKSIZE,
					      &alone, &rd, &e, fn, bad, arg);

			if (ret)
				return ret;
		}
		i = j;
		ck_progress(ck, phase, i, n);
	}
	return 0;
}

/* ---- paths ------------------------------------------------------------ */

struct name_find {
	uint32_t child;
	char name[F2FS_NAME_LEN + 1];
	int found;
};

static int name_cb(const struct f2fs_dirent *de, void *arg)
{
	struct name_find *f = arg;

	if (de->ino != f->child || (de->name_len == 1 && de->name[0] == '.') ||
	    (de->name_len == 2 && de->name[0] == '.' && de->name[1] == '.'))
		return 0;
	memcpy(f->name, de->name, de->name_len);
	f->name[de->name_len] = 0;
	f->found = 1;
	return 1;
}

/* Path of ino from the parents found in the tree walk; NULL if unknown. */
static char *path_of(struct ck *ck, uint32_t ino)
{
	char *path = strdup("");
	uint32_t cur = ino;
	struct f2fs_error e;

	for (int depth = 0; path && cur != F2FS_ROOT_INO; depth++) {
		struct ck_nid *ci = ck_inode(ck, cur);
		uint32_t parent = ci ? ck_parent(ck, ci) : 0;
		struct name_find f = { .child = cur };
		char *np;

		if (!parent || depth > 64) {
			free(path);
			return NULL;
		}
		if (f2fs_dir_foreach(ck->fs, parent, name_cb, &f, &e) < 0 || !f.found) {
			free(path);
			return NULL;
		}
		np = malloc(strlen(f.name) + strlen(path) + 2);
		if (np)
			sprintf(np, "/%s%s", f.name, path);
		free(path);
		path = np;
		cur = parent;
	}
	if (path && !*path) {
		free(path);
		path = strdup("/");
	}
	return path;
}

void ck_resolve_paths(struct ck *ck)
{
	size_t budget = 500;

	for (size_t i = 0; i < ck->r->nproblems && budget; i++) {
		struct ck_pending_path *pp = &ck->paths[i];
		char *base;

		if (!pp->ino)
			continue;
		budget--;
		base = path_of(ck, pp->ino);
		if (base && pp->name) {
			char *full = malloc(strlen(base) + strlen(pp->name) + 2);

			if (full)
				sprintf(full, "%s%s%s", base,
					base[1] ? "/" : "", pp->name);
			free(base);
			base = full;
		}
		ck->r->problems[i].path = base;
	}
}

/* ---- driver ----------------------------------------------------------- */

void f2fs_check_report_free(struct f2fs_check_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nproblems; i++)
		free(r->problems[i].path);
	free(r->problems);
	free(r);
}

/* One run of the checker over a fresh ck (opt, err, ssa_exact set). */
static int check_run(struct ck *ck, const char *path)
{
	const struct f2fs_check_options *opt = ck->opt;
	int ret;

	ck->max_per = opt->max_per_problem ? opt->max_per_problem : 100;
	ck->r = calloc(1, sizeof(*ck->r));
	ck->io = malloc((size_t)CK_IO_BLOCKS * F2FS_BLKSIZE);
	if (!ck->r || !ck->io)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory");
	ck->r->mode = opt->mode;
	ret = f2fs_fs_open(&ck->fs, path, ck->err);
	if (!ret && opt->opened)
		opt->opened(ck->fs, opt->opened_arg);
	if (!ret)
		ret = ck_more_init(ck);
	if (ret)
		return ret;
	ret = ck_meta(ck);
	if (!ret)
		ret = ck_roll_forward(ck);
	if (!ret && opt->mode == F2FS_CHECK_FULL) {
		ret = ck_tree(ck);
		if (!ret)
			ret = ck_more_after_tree(ck);
		if (!ret)
			ret = ck_ssa(ck);
		if (!ret && ck->nredo)
			return 0;   /* run again; its report replaces this one */
		if (!ret)
			ck_resolve_paths(ck);
	}
	if (!ret) {
		for (size_t i = 0; i < ck->r->nproblems; i++)
			if (!ck->r->problems[i].path && ck->paths[i].ino == F2FS_ROOT_INO &&
			    !ck->paths[i].name)
				ck->r->problems[i].path = strdup("/");
	}
	return ret;
}

/* Everything a run holds but the report. */
static void check_release(struct ck *ck)
{
	if (ck->paths)
		for (size_t i = 0; ck->r && i < ck->r->nproblems; i++)
			free(ck->paths[i].name);
	free(ck->paths);
	free(ck->segs);
	free(ck->nid_used);
	free(ck->nid_rank);
	free(ck->nids);
	free(ck->nat_used);
	free(ck->owned);
	free(ck->nodemap);
	free(ck->revmap);
	free(ck->dirs);
	free(ck->dblks);
	free(ck->dnodes);
	free(ck->lost);
	free(ck->edges);
	free(ck->segfp);
	free(ck->ssa_exact);
	free(ck->ssa_redo);
	free(ck->blks);
	ck_more_free(ck);
	free(ck->io);
	f2fs_fs_close(ck->fs);
}

int f2fs_check(const char *path, const struct f2fs_check_options *opt,
	       struct f2fs_check_report **out, struct f2fs_error *err)
{
	struct f2fs_check_options dflt = { 0 };
	struct ck ck = { 0 };
	int ret;

	*out = NULL;
	ck.opt = opt ? opt : &dflt;
	ck.err = err;
	ret = check_run(&ck, path);
	if (!ret && ck.nredo && !ck.ssa_exact) {
		/* Some segment's SSA differs from the blocks found: check again,
		 * keeping the blocks of those segments to name each entry. The
		 * check is deterministic, so the second report is the first
		 * plus those entries. */
		uint64_t *redo = ck.ssa_redo;

		ck.ssa_redo = NULL;
		check_release(&ck);
		f2fs_check_report_free(ck.r);
		memset(&ck, 0, sizeof(ck));
		ck.opt = opt ? opt : &dflt;
		ck.err = err;
		ck.ssa_exact = redo;
		ret = check_run(&ck, path);
	}
	check_release(&ck);
	if (ret) {
		f2fs_check_report_free(ck.r);
		return ret;
	}
	*out = ck.r;
	return 0;
}
