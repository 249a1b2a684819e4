/* Dentry block editing. */
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>

#include <string.h>

int f2fs_dentry_area_used(const struct f2fs_dentry_area *a, uint32_t s)
{
	return (a->bitmap[s / 8] >> (s % 8)) & 1;
}

static int find_free_run(const struct f2fs_dentry_area *a, uint32_t need)
{
	uint32_t run = 0;

	for (uint32_t s = 0; s < a->slots; s++) {
		run = f2fs_dentry_area_used(a, s) ? 0 : run + 1;
		if (run == need)
			return (int)(s + 1 - need);
	}
	return -1;
}

void f2fs_dentry_area_of_block(struct f2fs_dentry_block *d, struct f2fs_dentry_area *a)
{
	a->bitmap = d->dentry_bitmap;
	a->dentry = d->dentry;
	a->name = d->filename;
	a->slots = F2FS_NR_DENTRY_IN_BLOCK;
}

void f2fs_dentry_area_of_inline(uint8_t *area, uint32_t bytes, struct f2fs_dentry_area *a)
{
	struct f2fs_inline_dentry_geo g;

	f2fs_inline_dentry_geometry(bytes, &g);
	a->bitmap = area + g.bitmap_off;
	a->dentry = (struct f2fs_dir_entry *)(void *)(area + g.dentry_off);
	a->name = (uint8_t (*)[F2FS_SLOT_LEN])(void *)(area + g.name_off);
	a->slots = g.slots;
}

int f2fs_dentry_area_add(const struct f2fs_dentry_area *a, const uint8_t *name, size_t len,
			 uint32_t hash, uint32_t ino, uint8_t type)
{
	uint32_t need = f2fs_dentry_slots(len);
	int slot;

	if (len == 0 || len > F2FS_NAME_LEN)
		return -F2FS_E_BAD_OPTION;
	slot = find_free_run(a, need);
	if (slot < 0)
		return -F2FS_E_NO_SPACE;
	a->dentry[slot].hash_code = le32_put(hash);
	a->dentry[slot].ino = le32_put(ino);
	a->dentry[slot].name_len = le16_put((uint16_t)len);
	a->dentry[slot].file_type = type;
	for (uint32_t k = 0; k < need; k++) {
		size_t at = (size_t)k * F2FS_SLOT_LEN, n = len - at < F2FS_SLOT_LEN ? len - at : F2FS_SLOT_LEN;

		memset(a->name[(uint32_t)slot + k], 0, F2FS_SLOT_LEN);
		memcpy(a->name[(uint32_t)slot + k], name + at, n);
		a->bitmap[((uint32_t)slot + k) / 8] |= (uint8_t)(1u << (((uint32_t)slot + k) % 8));
	}
	return slot;
}

void f2fs_dentry_area_remove(const struct f2fs_dentry_area *a, uint32_t slot, uint32_t n)
{
	for (uint32_t s = slot; s < slot + n && s < a->slots; s++) {
		a->bitmap[s / 8] &= (uint8_t)~(1u << (s % 8));
		memset(&a->dentry[s], 0, sizeof(a->dentry[s]));
		memset(a->name[s], 0, F2FS_SLOT_LEN);
	}
}

int f2fs_dentry_block_add(struct f2fs_dentry_block *d, const uint8_t *name,
			  size_t len, uint32_t hash, uint32_t ino, uint8_t type)
{
	struct f2fs_dentry_area a;

	f2fs_dentry_area_of_block(d, &a);
	return f2fs_dentry_area_add(&a, name, len, hash, ino, type);
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
