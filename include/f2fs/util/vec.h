/*
 * A growable array: F2FS_VEC(T) is { T *v; size_t n, cap; }, grown by
 * doubling so that n pushes cost O(n) element copies in all. Zero-
 * initialised, it is an empty array; f2fs_vec_free() makes it so again.
 */
#ifndef F2FS_VEC_H
#define F2FS_VEC_H

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#define F2FS_VEC(T) struct { T *v; size_t n, cap; }

/*
 * Room for need elements of elem bytes in the array v of *cap elements.
 * Returns the array to use from now on: a larger one (and *cap updated),
 * or v itself when it is large enough or memory ran out (then *cap is
 * unchanged, still below need). The doubling starts at 16 elements.
 */
void *f2fs_grow(void *v, size_t *cap, size_t need, size_t elem);

/* The same for an array kept as a pointer and a size_t capacity outside an
 * F2FS_VEC (a public struct's fields): 0, or -ENOMEM with it unchanged. */
#define f2fs_array_reserve(ptr, cap, need) \
	((need) <= (cap) ? 0 : \
	 ((ptr) = f2fs_grow((ptr), &(cap), (need), sizeof(*(ptr))), \
	  (need) <= (cap) ? 0 : -ENOMEM))

/* 0, or -ENOMEM with the array unchanged. need is evaluated more than once. */
#define f2fs_vec_reserve(vec, need) f2fs_array_reserve((vec)->v, (vec)->cap, (need))

/* Append one element (an expression of the element type, or a compound
 * literal): 0, or -ENOMEM with the array unchanged. */
#define f2fs_vec_push(vec, ...) \
	(f2fs_vec_reserve((vec), (vec)->n + 1) ? -ENOMEM : \
	 ((vec)->v[(vec)->n++] = (__VA_ARGS__), 0))

#define f2fs_vec_free(vec) \
	do { \
		free((vec)->v); \
		(vec)->v = NULL; \
		(vec)->n = (vec)->cap = 0; \
	} while (0)

#endif
