/* The directory-entry name hash. */
#ifndef F2FS_HASH_H
#define F2FS_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Hash of a name as stored in dentries ("." and ".." hash to 0). The caller
 * casefolds the name first for casefolded directories. */
uint32_t f2fs_dentry_hash(const uint8_t *name, size_t len);

#endif
