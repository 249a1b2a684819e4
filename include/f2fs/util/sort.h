/*
 * The one sort of the project, and the binary search over what it sorted: in place (glibc's qsort() is a merge sort
 * that allocates a copy of the array, which for the checker's largest
 * arrays is more than the rest of a phase), not stable, O(n log n) in the
 * worst case, and with a context for the comparison instead of global state.
 */
#ifndef F2FS_SORT_H
#define F2FS_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Does a go before b? */
typedef int (*f2fs_less_fn)(const void *a, const void *b, void *ctx);

/* Sort n elements of size bytes at base. */
void f2fs_sort(void *base, size_t n, size_t size, f2fs_less_fn less, void *ctx);

/* Ascending 64-bit keys (the checker's (address << 32 | item) pairs). */
void f2fs_sort_u64(uint64_t *keys, size_t n);

/* Index of the first of n elements of size bytes at base, in ascending
 * order of a uint32_t key at byte offset off, whose key is not below key
 * (n when there is none). */
static inline size_t f2fs_lower_bound_u32(const void *base, size_t n, size_t size, size_t off,
					  uint32_t key)
{
	const unsigned char *b = base;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		uint32_t k;

		memcpy(&k, b + m * size + off, sizeof(k));
		if (k < key)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/* The same over ascending 64-bit keys by their high 32 bits (the
 * checker's (key << 32 | value) pairs). */
static inline size_t f2fs_lower_bound_hi32(const uint64_t *keys, size_t n, uint32_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if ((uint32_t)(keys[m] >> 32) < key)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

#endif
