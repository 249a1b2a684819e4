/*
 * The one sort (sort.h): the algorithm is sort_impl.h, instantiated for
 * elements of any size with a comparison callback, and for 64-bit keys
 * compared inline (the checker's hot case). Elements larger than a few
 * words are sorted through an array of pointers and then moved once each,
 * so that a swap never copies hundreds of bytes.
 */
#include <f2fs/util/sort.h>

#include <stdlib.h>
#include <string.h>

#define SHORT_RUN 16
#define INDIRECT_OVER 32   /* bytes: larger elements are sorted by pointer */

static unsigned depth_limit(size_t n)
{
	unsigned depth = 0;

	for (size_t m = n; m > 1; m >>= 1)
		depth += 2;
	return depth;
}

/* ---- any element, through the caller's comparison ---------------------- */

struct sorter {
	size_t size;
	f2fs_less_fn less;
	void *ctx;
};

static char *at(const struct sorter *s, char *v, size_t i)
{
	return v + i * s->size;
}

static int lt(const struct sorter *s, char *v, size_t i, size_t j)
{
	return s->less(at(s, v, i), at(s, v, j), s->ctx);
}

static void swap(const struct sorter *s, char *v, size_t i, size_t j)
{
	char *a = at(s, v, i), *b = at(s, v, j), t[INDIRECT_OVER];
	size_t left = s->size;

	/* most elements are a few words: whole words at a time */
	for (; left >= sizeof(uint64_t); left -= sizeof(uint64_t)) {
		uint64_t x, y;

		memcpy(&x, a, sizeof(x));
		memcpy(&y, b, sizeof(y));
		memcpy(a, &y, sizeof(y));
		memcpy(b, &x, sizeof(x));
		a += sizeof(x);
		b += sizeof(x);
	}
	memcpy(t, a, left);
	memcpy(a, b, left);
	memcpy(b, t, left);
}

#define SORT_FN(x) any_##x
#define SORT_BASE char *
#define SORT_CTX const struct sorter *s,
#define SORT_CTX_ARG s,
#define SORT_LT(v, i, j) lt(s, v, i, j)
#define SORT_SWAP(v, i, j) swap(s, v, i, j)
#define SORT_ADV(v, k) at(s, v, k)
#include "sort_impl.h"

/* ---- 64-bit keys ---------------------------------------------------------- */

#define SORT_FN(x) u64_##x
#define SORT_BASE uint64_t *
#define SORT_CTX
#define SORT_CTX_ARG
#define SORT_LT(v, i, j) ((v)[i] < (v)[j])
#define SORT_SWAP(v, i, j) \
	do { \
		uint64_t t_ = (v)[i]; \
		(v)[i] = (v)[j]; \
		(v)[j] = t_; \
	} while (0)
#define SORT_ADV(v, k) ((v) + (k))
#include "sort_impl.h"

/* ---- large elements: by pointer, then each moved once --------------------- */

struct by_pointer {
	f2fs_less_fn less;
	void *ctx;
};

static int pointee_less(const void *a, const void *b, void *ctx)
{
	const struct by_pointer *p = ctx;

	return p->less(*(void *const *)a, *(void *const *)b, p->ctx);
}

/* Put element i where ptr[i] points, following each cycle of the
 * permutation with one element held aside. */
static void permute(char *base, size_t n, size_t size, char **ptr, char *held)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = i;

		if (ptr[i] == base + i * size)
			continue;
		memcpy(held, base + i * size, size);
		for (;;) {
			size_t from = (size_t)(ptr[k] - base) / size;

			ptr[k] = base + k * size;
			if (from == i) {
				memcpy(base + k * size, held, size);
				break;
			}
			memcpy(base + k * size, base + from * size, size);
			k = from;
		}
	}
}

/* Small sorts (most are: a directory's few equal names) need no malloc. */
#define STACK_PTRS 64
#define STACK_HELD 512

static int sort_indirect(char *base, size_t n, size_t size, f2fs_less_fn less, void *ctx)
{
	char *stack_ptr[STACK_PTRS], stack_held[STACK_HELD];
	char **ptr = n <= STACK_PTRS ? stack_ptr : malloc(n * sizeof(*ptr));
	char *held = size <= STACK_HELD ? stack_held : malloc(size);
	struct by_pointer bp = { less, ctx };
	struct sorter s = { sizeof(*ptr), pointee_less, &bp };
	int ret = -1;

	if (ptr && held) {
		for (size_t i = 0; i < n; i++)
			ptr[i] = base + i * size;
		any_introsort(&s, (char *)ptr, n, depth_limit(n));
		permute(base, n, size, ptr, held);
		ret = 0;
	}
	if (ptr != stack_ptr)
		free(ptr);
	if (held != stack_held)
		free(held);
	return ret;
}

void f2fs_sort(void *base, size_t n, size_t size, f2fs_less_fn less, void *ctx)
{
	struct sorter s = { size, less, ctx };

	if (n < 2)
		return;
	/* without memory for the pointers, the elements are swapped whole */
	if (size > INDIRECT_OVER && !sort_indirect(base, n, size, less, ctx))
		return;
	any_introsort(&s, base, n, depth_limit(n));
}

void f2fs_sort_u64(uint64_t *keys, size_t n)
{
	if (n > 1)
		u64_introsort(keys, n, depth_limit(n));
}
