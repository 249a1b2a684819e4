/* Image builder: directories, inline or in hashed dentry blocks. */
#include "build.h"

#include <f2fs/format/dir_levels.h>
#include <f2fs/util/vec.h>
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/hash.h>
#include <f2fs/format/inode.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint32_t slots_needed(const struct bld_dirent *ents, size_t n)
{
	uint32_t s = 2;   /* "." and ".." */

	for (size_t i = 0; i < n; i++)
		s += f2fs_dentry_slots(ents[i].len);
	return s;
}

/* Put one entry into an inline area at the first free run of slots. */
static void inline_add(uint8_t *area, const struct f2fs_inline_dentry_geo *g,
		       const uint8_t *name, uint16_t len, uint32_t hash, uint32_t ino,
		       uint8_t type, uint32_t *next)
{
	uint32_t s = *next, k = f2fs_dentry_slots(len);
	struct f2fs_dir_entry de = {
		.hash_code = le32_put(hash), .ino = le32_put(ino),
		.name_len = le16_put(len), .file_type = type,
	};

	memcpy(area + g->dentry_off + s * sizeof(de), &de, sizeof(de));
	memcpy(area + g->name_off + s * F2FS_SLOT_LEN, name, len);
	for (uint32_t j = s; j < s + k; j++)
		area[g->bitmap_off + j / 8] |= (uint8_t)(1u << (j % 8));
	*next = s + k;
}

/* Casefolded directories hash the folded name (the raw one if it has none). */
static uint32_t name_hash(const struct f2fs_node *dir, const struct bld_dirent *e)
{
	if (le32_get(dir->i.i_flags) & F2FS_CASEFOLD_FL)
		return f2fs_dentry_hash_casefold(e->name, e->len);
	return f2fs_dentry_hash(e->name, e->len);
}

static int write_inline(struct bld *b, struct f2fs_node *inode, uint32_t ino,
			uint32_t parent, const struct bld_dirent *ents, size_t n)
{
	uint32_t bytes = f2fs_inode_inline_bytes(&inode->i, b->features), next = 0;
	uint8_t *area = (uint8_t *)inode + f2fs_inode_inline_offset(&inode->i);
	struct f2fs_inline_dentry_geo g;

	f2fs_inline_dentry_geometry(bytes, &g);
	inline_add(area, &g, (const uint8_t *)".", 1, 0, ino, F2FS_FT_DIR, &next);
	inline_add(area, &g, (const uint8_t *)"..", 2, 0, parent, F2FS_FT_DIR, &next);
	for (size_t i = 0; i < n; i++)
		inline_add(area, &g, ents[i].name, ents[i].len,
			   name_hash(inode, &ents[i]), ents[i].ino,
			   ents[i].type, &next);
	inode->i.i_size = le64_put(bytes);
	inode->i.i_current_depth = le32_put(1);
	inode->i.i_blocks = le64_put(1 + le64_get(inode->i.i_blocks));
	return bld_write_inode(b, inode, ino, true, F2FS_SEG_HOT_NODE);
}

/* Dentry blocks by index; NULL where no block is needed (a hole). */
struct dir_blocks {
	struct dir_block {
		struct f2fs_dentry_block *blk;   /* NULL until used */
		uint16_t free_slots;
	} *b;
	size_t cap;
	uint64_t count;   /* highest index used + 1 */
	uint32_t depth;
	struct f2fs_error *err;
};

static int get_block(struct dir_blocks *d, uint64_t idx, struct f2fs_dentry_block **out)
{
	if (idx >= d->cap) {
		size_t old = d->cap;

		if (idx >= SIZE_MAX || f2fs_array_reserve(d->b, d->cap, (size_t)idx + 1))
			return f2fs_fail(d->err, -ENOMEM, "out of memory building a directory");
		for (size_t i = old; i < d->cap; i++)
			d->b[i] = (struct dir_block){ NULL, F2FS_NR_DENTRY_IN_BLOCK };
	}
	if (!d->b[idx].blk) {
		d->b[idx].blk = calloc(1, sizeof(*d->b[idx].blk));
		if (!d->b[idx].blk)
			return f2fs_fail(d->err, -ENOMEM, "out of memory building a directory");
	}
	if (idx + 1 > d->count)
		d->count = idx + 1;
	*out = d->b[idx].blk;
	return 0;
}

/* Level L has 2^L buckets of two blocks, after the blocks of lower levels. */
static int place_entry(struct dir_blocks *d, const uint8_t *name, uint16_t len,
		       uint32_t hash, uint32_t ino, uint8_t type)
{
	uint32_t need = f2fs_dentry_slots(len);

	for (uint32_t level = 0; level <= 30; level++) {   /* past: beyond any directory */
		uint64_t per = f2fs_dir_bucket_blocks(level);
		uint64_t first = f2fs_dir_bucket_start(level, 0, hash);

		for (uint64_t idx = first; idx < first + per; idx++) {
			struct f2fs_dentry_block *blk;
			int slot, ret;

			if (idx < d->cap && d->b[idx].free_slots < need)
				continue;
			ret = get_block(d, idx, &blk);
			if (ret)
				return ret;
			slot = f2fs_dentry_block_add(blk, name, len, hash, ino, type);
			if (slot < 0)
				continue;
			d->b[idx].free_slots -= (uint16_t)need;
			if (level + 1 > d->depth)
				d->depth = level + 1;
			return 0;
		}
	}
	return f2fs_fail(d->err, -F2FS_E_NO_SPACE, "directory too large for its hash levels");
}

static int write_blocks(struct bld *b, struct f2fs_node *inode, uint32_t ino,
			struct dir_blocks *d)
{
	struct bld_file f;
	uint64_t data = 0;
	int ret = 0;

	bld_file_start(&f, b, inode, ino, true);
	for (uint64_t idx = 0; idx < d->count && !ret; idx++) {
		uint32_t nid, addr;
		uint16_t ofs;

		if (!d->b[idx].blk)
			continue;
		ret = bld_file_slot(&f, idx, &nid, &ofs);
		if (!ret)
			ret = bld_alloc_block(b, F2FS_SEG_HOT_DATA, nid, ofs, &addr);
		if (!ret)
			ret = bld_write(b, addr, d->b[idx].blk);
		if (!ret) {
			bld_file_set(&f, idx, addr);
			data++;
		}
	}
	if (!ret)
		ret = bld_file_finish(&f);
	if (ret)
		return ret;
	inode->i.i_size = le64_put(d->count * F2FS_BLKSIZE);
	inode->i.i_current_depth = le32_put(d->depth);
	inode->i.i_blocks = le64_put(le64_get(inode->i.i_blocks) + 1 + data + f.node_blocks);
	return bld_write_inode(b, inode, ino, true, F2FS_SEG_HOT_NODE);
}

int bld_write_dir(struct bld *b, struct f2fs_node *inode, uint32_t ino, uint32_t parent,
		  const struct bld_dirent *ents, size_t n, bool allow_inline)
{
	struct dir_blocks d = { .err = b->err };
	struct f2fs_inline_dentry_geo g;
	struct f2fs_dentry_block *blk0;
	int ret;

	f2fs_inline_dentry_geometry(f2fs_inode_inline_bytes(&inode->i, b->features), &g);
	if (allow_inline && slots_needed(ents, n) <= g.slots) {
		inode->i.i_inline |= F2FS_INLINE_DENTRY;
		f2fs_inline_dentry_geometry(f2fs_inode_inline_bytes(&inode->i, b->features), &g);
		if (slots_needed(ents, n) <= g.slots)
			return write_inline(b, inode, ino, parent, ents, n);
		inode->i.i_inline &= (uint8_t)~F2FS_INLINE_DENTRY;
	}
	ret = get_block(&d, 0, &blk0);
	if (!ret) {
		f2fs_dentry_block_init_dots(blk0, ino, parent);
		d.b[0].free_slots -= 2;
		d.depth = 1;
	}
	for (size_t i = 0; i < n && !ret; i++)
		ret = place_entry(&d, ents[i].name, ents[i].len,
				  name_hash(inode, &ents[i]),
				  ents[i].ino, ents[i].type);
	if (!ret)
		ret = write_blocks(b, inode, ino, &d);
	for (size_t i = 0; i < d.cap; i++)
		free(d.b[i].blk);
	free(d.b);
	return ret;
}
