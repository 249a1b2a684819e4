/* Conversion between host integers and the little-endian on-disk fields. */
#ifndef F2FS_ENDIAN_H
#define F2FS_ENDIAN_H

#include <stdint.h>
#include <string.h>

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define F2FS_LE16(v) ((uint16_t)(v))
#define F2FS_LE32(v) ((uint32_t)(v))
#define F2FS_LE64(v) ((uint64_t)(v))
#else
#define F2FS_LE16(v) __builtin_bswap16(v)
#define F2FS_LE32(v) __builtin_bswap32(v)
#define F2FS_LE64(v) __builtin_bswap64(v)
#endif

/* swapping is its own inverse, so get and put are the same operation */
static inline uint16_t le16_get(uint16_t v) { return F2FS_LE16(v); }
static inline uint32_t le32_get(uint32_t v) { return F2FS_LE32(v); }
static inline uint64_t le64_get(uint64_t v) { return F2FS_LE64(v); }
static inline uint16_t le16_put(uint16_t v) { return F2FS_LE16(v); }
static inline uint32_t le32_put(uint32_t v) { return F2FS_LE32(v); }
static inline uint64_t le64_put(uint64_t v) { return F2FS_LE64(v); }

/* Read or store an integer at an unaligned byte address. */
static inline uint32_t le32_load(const void *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return le32_get(v);
}

static inline uint64_t le64_load(const void *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return le64_get(v);
}

static inline void le32_store(void *p, uint32_t v)
{
	v = le32_put(v);
	memcpy(p, &v, sizeof(v));
}

static inline void le64_store(void *p, uint64_t v)
{
	v = le64_put(v);
	memcpy(p, &v, sizeof(v));
}

#endif
