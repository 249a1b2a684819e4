/* Dentry blocks: slots, bitmap, names. */
#ifndef F2FS_DENTRY_H
#define F2FS_DENTRY_H

#include <stddef.h>
#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>

/* Slots a name of len bytes takes. */
static inline uint32_t f2fs_dentry_slots(size_t len)
{
	return (uint32_t)((len + F2FS_SLOT_LEN - 1) / F2FS_SLOT_LEN);
}

/* Add a name at the first run of free slots. Returns the slot used, or
 * -F2FS_E_NO_SPACE when the block has no room. */
int f2fs_dentry_block_add(struct f2fs_dentry_block *d, const uint8_t *name,
			  size_t len, uint32_t hash, uint32_t ino, uint8_t type);

/* The slots of a dentry block or of an inline dentry area, edited in
 * place through the same calls. */
struct f2fs_dentry_area {
	uint8_t *bitmap;                    /* a bit per slot, LSB-first */
	struct f2fs_dir_entry *dentry;
	uint8_t (*name)[F2FS_SLOT_LEN];
	uint32_t slots;
};

void f2fs_dentry_area_of_block(struct f2fs_dentry_block *d, struct f2fs_dentry_area *a);
/* The inline area of `bytes` bytes at area (f2fs_inode_inline_offset). */
void f2fs_dentry_area_of_inline(uint8_t *area, uint32_t bytes, struct f2fs_dentry_area *a);

/* Put an entry at the first free run of slots: its slot, or
 * -F2FS_E_NO_SPACE / -F2FS_E_BAD_OPTION (length 0 or over 255). */
int f2fs_dentry_area_add(const struct f2fs_dentry_area *a, const uint8_t *name, size_t len,
			 uint32_t hash, uint32_t ino, uint8_t type);

/* Free n slots from slot on (an entry and its name's slots). */
void f2fs_dentry_area_remove(const struct f2fs_dentry_area *a, uint32_t slot, uint32_t n);

/* Is slot in use? */
int f2fs_dentry_area_used(const struct f2fs_dentry_area *a, uint32_t slot);

/* Add "." and ".." (hash 0) in slots 0 and 1 of an empty block. */
void f2fs_dentry_block_init_dots(struct f2fs_dentry_block *d, uint32_t ino,
				 uint32_t parent);

/* Layout of inline dentries in an area of `bytes` bytes. */
struct f2fs_inline_dentry_geo {
	uint32_t slots;        /* entries the area holds */
	uint32_t bitmap_off;   /* offsets from the start of the area */
	uint32_t dentry_off;
	uint32_t name_off;
};

void f2fs_inline_dentry_geometry(uint32_t bytes, struct f2fs_inline_dentry_geo *g);

/* File type of a mode (S_IFMT bits). */
uint8_t f2fs_file_type_of_mode(uint16_t mode);

#endif
