/* The directory-entry name hash. */
#ifndef F2FS_HASH_H
#define F2FS_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <f2fs/format/utf8.h>

/* Hash of a name as stored in dentries ("." and ".." hash to 0). The caller
 * casefolds the name first for casefolded directories. */
uint32_t f2fs_dentry_hash(const uint8_t *name, size_t len);

/*
 * The key by which the kernel (f2fs_init_casefolded_name) hashes and
 * compares a name in a casefolded directory: its NFDICF folding, written to
 * out. Returns the key's length (> 0), or a negative errno when the name has
 * no key: -EILSEQ (not UTF-8 as the kernel reads it), -ENAMETOOLONG
 * (the folding needs 255 bytes or more), -EINVAL (it folds to nothing: a name
 * of ignorables). The kernel then uses the name's own bytes, or refuses the
 * name when the superblock has the strict encoding flag.
 */
int f2fs_casefold_name(const uint8_t *name, size_t len, uint8_t out[F2FS_UTF8_CAP]);

/* The hash of a name in a casefolded directory: of its key, or of its own
 * bytes when it has none. */
uint32_t f2fs_dentry_hash_casefold(const uint8_t *name, size_t len);

#endif
