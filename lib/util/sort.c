/*
 * Introsort: quicksort with a median of three, heapsort past a depth limit
 * of 2 log2 n (so no input is quadratic), insertion sort for short runs.
 */
#include <f2fs/util/sort.h>

#include <string.h>

#define SHORT_RUN 16

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
	char *a = at(s, v, i), *b = at(s, v, j), t[64];

	if (s->size == sizeof(uint64_t)) {   /* the common keys: one move each way */
		uint64_t x, y;

		memcpy(&x, a, sizeof(x));
		memcpy(&y, b, sizeof(y));
		memcpy(a, &y, sizeof(y));
		memcpy(b, &x, sizeof(x));
		return;
	}
	for (size_t done = 0; done < s->size;) {
		size_t k = s->size - done < sizeof(t) ? s->size - done : sizeof(t);

		memcpy(t, a + done, k);
		memcpy(a + done, b + done, k);
		memcpy(b + done, t, k);
		done += k;
	}
}

static void sift(const struct sorter *s, char *v, size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			return;
		if (c + 1 < n && lt(s, v, c, c + 1))
			c++;
		if (!lt(s, v, i, c))
			return;
		swap(s, v, i, c);
		i = c;
	}
}

static void heapsort(const struct sorter *s, char *v, size_t n)
{
	for (size_t k = n / 2; k-- > 0;)
		sift(s, v, k, n);
	for (size_t k = n; k-- > 1;) {
		swap(s, v, 0, k);
		sift(s, v, 0, k);
	}
}

static void insertion(const struct sorter *s, char *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && lt(s, v, k, k - 1); k--)
			swap(s, v, k, k - 1);
}

/* Median of v[0], v[n / 2], v[n - 1] to v[0]; returns where the pivot ends:
 * before it nothing greater, after it nothing smaller. */
static size_t partition(const struct sorter *s, char *v, size_t n)
{
	size_t m = n / 2, i = 0, j = n;

	if (lt(s, v, m, 0))
		swap(s, v, m, 0);
	if (lt(s, v, n - 1, m))
		swap(s, v, n - 1, m);
	if (lt(s, v, m, 0))
		swap(s, v, m, 0);
	swap(s, v, 0, m);
	for (;;) {
		do
			i++;
		while (i < n && lt(s, v, i, 0));
		do
			j--;
		while (lt(s, v, 0, j));
		if (i >= j)
			break;
		swap(s, v, i, j);
	}
	swap(s, v, 0, j);
	return j;
}

static void introsort(const struct sorter *s, char *v, size_t n, unsigned depth)
{
	while (n > SHORT_RUN) {
		size_t p;

		if (!depth--) {
			heapsort(s, v, n);
			return;
		}
		p = partition(s, v, n);
		/* recurse into the smaller side, loop on the larger */
		if (p < n - p - 1) {
			introsort(s, v, p, depth);
			v = at(s, v, p + 1);
			n -= p + 1;
		} else {
			introsort(s, at(s, v, p + 1), n - p - 1, depth);
			n = p;
		}
	}
	insertion(s, v, n);
}

void f2fs_sort(void *base, size_t n, size_t size, f2fs_less_fn less, void *ctx)
{
	struct sorter s = { size, less, ctx };
	unsigned depth = 0;

	for (size_t m = n; m > 1; m >>= 1)
		depth += 2;
	if (n > 1)
		introsort(&s, base, n, depth);
}

static int u64_less(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return *(const uint64_t *)a < *(const uint64_t *)b;
}

void f2fs_sort_u64(uint64_t *keys, size_t n)
{
	f2fs_sort(keys, n, sizeof(*keys), u64_less, NULL);
}
