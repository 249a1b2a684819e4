/* The directory-entry name hash. */
#ifndef F2FS_HASH_H
#define F2FS_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Hash of a name as stored in dentries ("." and ".." hash to 0). The caller
 * casefolds the name first for casefolded directories. */
uint32_t f2fs_dentry_hash(const uint8_t *name, size_t len);

/*
 * Fold an ASCII name as the kernel's UTF-8 casefolding does (A-Z to a-z,
 * everything else unchanged) into out (len bytes). False when the name has
 * a byte >= 0x80: folding it needs the Unicode tables, which we lack.
 */
bool f2fs_casefold_ascii(const uint8_t *name, size_t len, uint8_t *out);

/* The hash of an ASCII name in a casefolded directory. */
uint32_t f2fs_dentry_hash_casefold(const uint8_t *name, size_t len);

#endif
