/* Feature bits by name, as mkfs -O takes them and the tools print them. */
#ifndef F2FS_FEATURE_H
#define F2FS_FEATURE_H

#include <stddef.h>
#include <stdint.h>

#include <f2fs/util/error.h>

/* Name of one feature bit, or NULL. */
const char *f2fs_feature_name(uint32_t bit);

/*
 * Parse a comma-separated -O list ("extra_attr,quota"), adding to *features.
 * A name may be prefixed by '^' to clear it. Unknown names are an error.
 */
int f2fs_feature_parse(const char *list, uint32_t *features, struct f2fs_error *err);

/* Features this library can format. */
/* Features -O can set: all but blkzoned (set by -m), atomic_write and ro. */
#define F2FS_FEATURES_SUPPORTED 0x3FF9u

/*
 * Check dependencies between features (inode_checksum needs extra_attr, ...).
 * Returns 0 or an error naming the first conflict.
 */
int f2fs_feature_check(uint32_t features, struct f2fs_error *err);

/* Write the names of the set bits, comma-separated, into buf. */
void f2fs_feature_format(uint32_t features, char *buf, size_t len);

#endif
