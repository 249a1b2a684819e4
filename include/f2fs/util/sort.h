/*
 * The one sort of the project: in place (glibc's qsort() is a merge sort
 * that allocates a copy of the array, which for the checker's largest
 * arrays is more than the rest of a phase), not stable, O(n log n) in the
 * worst case, and with a context for the comparison instead of global state.
 */
#ifndef F2FS_SORT_H
#define F2FS_SORT_H

#include <stddef.h>
#include <stdint.h>

/* Does a go before b? */
typedef int (*f2fs_less_fn)(const void *a, const void *b, void *ctx);

/* Sort n elements of size bytes at base. */
void f2fs_sort(void *base, size_t n, size_t size, f2fs_less_fn less, void *ctx);

/* Ascending 64-bit keys (the checker's (address << 32 | item) pairs). */
void f2fs_sort_u64(uint64_t *keys, size_t n);

#endif
