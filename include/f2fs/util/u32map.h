/*
 * A hash map from uint32_t keys to uint32_t values, or a set of keys (the
 * values left 0): any key, 0 included. Open addressing with linear
 * probing, grown by doubling before it is more than 3/4 full, so that
 * probes stay short. Zero-initialised, it is an empty map;
 * f2fs_u32map_free() makes it so again. The slot order, which
 * f2fs_u32map_next() walks, depends only on the keys and the order they
 * were added: the same run gives the same order.
 */
#ifndef F2FS_U32MAP_H
#define F2FS_U32MAP_H

#include <stdbool.h>
#include <stdint.h>

struct f2fs_u32map {
	struct f2fs_u32map_slot { uint32_t key, val; } *slot;
	uint64_t *used;           /* a bit per slot: it holds a key */
	uint32_t cap, n;          /* slots (0 or a power of two), keys */
};

/* The value of key, NULL when it is not in the map. */
uint32_t *f2fs_u32map_find(const struct f2fs_u32map *m, uint32_t key);

/* The value of key, 0 when it is not in the map (for values that are
 * never 0, such as an index + 1). */
uint32_t f2fs_u32map_get(const struct f2fs_u32map *m, uint32_t key);

/* The value of key, added as 0 when it is not in the map; NULL only when
 * out of memory (the map unchanged). The pointer holds until the next
 * key is added. */
uint32_t *f2fs_u32map_add(struct f2fs_u32map *m, uint32_t key);

/* Set the value of key, adding it: 0, or -ENOMEM with the map unchanged. */
int f2fs_u32map_put(struct f2fs_u32map *m, uint32_t key, uint32_t val);

/* The keys in slot order: *pos = 0 first, then each call gives the next
 * key and its value (key or val may be NULL); false after the last. */
bool f2fs_u32map_next(const struct f2fs_u32map *m, uint32_t *pos, uint32_t *key,
		      uint32_t *val);

void f2fs_u32map_free(struct f2fs_u32map *m);

#endif
