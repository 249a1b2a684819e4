/* Dentry blocks: slots, bitmap, names. */
#ifndef F2FS_DENTRY_H
#define F2FS_DENTRY_H

#include <stddef.h>
#include <stdint.h>

#include <f2fs/error.h>
#include <f2fs/format.h>

/* Slots a name of len bytes takes. */
static inline uint32_t f2fs_dentry_slots(size_t len)
{
	return (uint32_t)((len + F2FS_SLOT_LEN - 1) / F2FS_SLOT_LEN);
}

/* Add a name at the first run of free slots. Returns the slot used, or
 * -F2FS_E_NO_SPACE when the block has no room. */
int f2fs_dentry_block_add(struct f2fs_dentry_block *d, const uint8_t *name,
			  size_t len, uint32_t hash, uint32_t ino, uint8_t type);

/* Add "." and ".." (hash 0) in slots 0 and 1 of an empty block. */
void f2fs_dentry_block_init_dots(struct f2fs_dentry_block *d, uint32_t ino,
				 uint32_t parent);

/* File type of a mode (S_IFMT bits). */
uint8_t f2fs_file_type_of_mode(uint16_t mode);

#endif
