/* Dentry block editing. */
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>

#include <string.h>

static int slot_used(const struct f2fs_dentry_block *d, uint32_t s)
{
	return (d->dentry_bitmap[s / 8] >> (s % 8)) & 1;
}

static void slot_mark(struct f2fs_dentry_block *d, uint32_t s)
{
	d->dentry_bitmap[s / 8] |= (uint8_t)(1u << (s % 8));
}

static int find_free_run(const struct f2fs_dentry_block *d, uint32_t need)
{
	uint32_t run = 0;

	for (uint32_t s = 0; s < F2FS_NR_DENTRY_IN_BLOCK; s++) {
		run = slot_used(d, s) ? 0 : run + 1;
		if (run == need)
			return (int)(s + 1 - need);
	}
	return -1;
}

int f2fs_dentry_block_add(struct f2fs_dentry_block *d, const uint8_t *name,
			  size_t len, uint32_t hash, uint32_t ino, uint8_t type)
{
	uint32_t need = f2fs_dentry_slots(len);
	int slot;

	if (len == 0 || len > F2FS_NAME_LEN)
		return -F2FS_E_BAD_OPTION;
	slot = find_free_run(d, need);
	if (slot < 0)
		return -F2FS_E_NO_SPACE;
	d->dentry[slot].hash_code = le32_put(hash);
	d->dentry[slot].ino = le32_put(ino);
	d->dentry[slot].name_len = le16_put((uint16_t)len);
	d->dentry[slot].file_type = type;
	memcpy(d->filename[slot], name, len);
	for (uint32_t k = 0; k < need; k++)
		slot_mark(d, (uint32_t)slot + k);
	return slot;
}

void f2fs_dentry_block_init_dots(struct f2fs_dentry_block *d, uint32_t ino,
				 uint32_t parent)
{
	memset(d, 0, sizeof(*d));
	f2fs_dentry_block_add(d, (const uint8_t *)".", 1, 0, ino, F2FS_FT_DIR);
	f2fs_dentry_block_add(d, (const uint8_t *)"..", 2, 0, parent, F2FS_FT_DIR);
}

uint8_t f2fs_file_type_of_mode(uint16_t mode)
{
	switch (mode & F2FS_S_IFMT) {
	case F2FS_S_IFREG:  return F2FS_FT_REG_FILE;
	case F2FS_S_IFDIR:  return F2FS_FT_DIR;
	case F2FS_S_IFCHR:  return F2FS_FT_CHRDEV;
	case F2FS_S_IFBLK:  return F2FS_FT_BLKDEV;
	case F2FS_S_IFIFO:  return F2FS_FT_FIFO;
	case F2FS_S_IFSOCK: return F2FS_FT_SOCK;
	case F2FS_S_IFLNK:  return F2FS_FT_SYMLINK;
	default:       return F2FS_FT_UNKNOWN;
	}
}

void f2fs_inline_dentry_geometry(uint32_t bytes, struct f2fs_inline_dentry_geo *g)
{
	uint32_t per = sizeof(struct f2fs_dir_entry) + F2FS_SLOT_LEN;   /* 19 */
	uint32_t n = bytes * 8 / (per * 8 + 1);

	g->slots = n;
	g->bitmap_off = 0;
	/* the reserved gap sits between the bitmap and the entries */
	g->dentry_off = bytes - n * per;
	g->name_off = g->dentry_off + n * (uint32_t)sizeof(struct f2fs_dir_entry);
}
