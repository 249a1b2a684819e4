/*
 * The names the roll-forward recovery gives back (the kernel's
 * recover_dentry): a file created and fsync'd after the checkpoint has its
 * inode on the chain with a dentry mark, and its name and parent in that
 * inode. The name is looked up in the parent as the repair's edits have it
 * (its buckets, level by level) and, when missing, added through the
 * repair's directory edits (rp_dir_add, repair_dirs.c: as the kernel's
 * f2fs_add_dentry adds it), which write the directory's blocks out of place
 * with the rest of the repair.
 */
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/hash.h>
#include <f2fs/format/inode.h>

#include "repair_roll.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HALF_DEPTH (F2FS_MAX_DIR_HASH_DEPTH / 2)

/* A name as the directory compares it. */
struct rr_name {
	const uint8_t *name;
	uint32_t len, hash;
	bool fold;                          /* casefolded directory */
	uint8_t key[F2FS_UTF8_CAP];
	int key_len;                        /* < 0: no folded form */
};

static uint64_t buckets(uint32_t level, uint32_t dir_level)
{
	return level + dir_level < HALF_DEPTH ? 1ull << (level + dir_level) : F2FS_MAX_DIR_BUCKETS;
}

static uint32_t bucket_blocks(uint32_t level)
{
	return level < HALF_DEPTH ? 2 : 4;
}

static uint64_t block_index(uint32_t level, uint32_t dir_level, uint64_t bucket)
{
	uint64_t b = 0;

	for (uint32_t i = 0; i < level; i++)
		b += buckets(i, dir_level) * bucket_blocks(i);
	return b + bucket * bucket_blocks(level);
}

static bool same_name(const struct rr_name *n, const uint8_t *name, uint32_t len)
{
	uint8_t key[F2FS_UTF8_CAP];
	int k;

	if (len == n->len && !memcmp(name, n->name, len))
		return true;
	if (!n->fold || n->key_len < 0)
		return false;
	k = f2fs_casefold_name(name, len, key);
	return k == n->key_len && !memcmp(key, n->key, (size_t)k);
}

/* Slots of an entry area: bitmap (LSB first), entries, names. */
struct area {
	uint8_t *bitmap;
	struct f2fs_dir_entry *de;
	uint8_t (*names)[F2FS_SLOT_LEN];
	uint32_t slots;
};

static bool bit(const struct area *a, uint32_t s)
{
	return (a->bitmap[s / 8] >> (s % 8)) & 1;
}

/* The ino that name has in the area, or 0. */
static uint32_t area_find(const struct area *a, const struct rr_name *n)
{
	for (uint32_t s = 0; s < a->slots; s++) {
		uint32_t len;

		if (!bit(a, s))
			continue;
		len = le16_get(a->de[s].name_len);
		if (len && s + f2fs_dentry_slots(len) <= a->slots &&
		    le32_get(a->de[s].hash_code) == n->hash &&
		    same_name(n, a->names[s], len))
			return le32_get(a->de[s].ino);
		if (len)
			s += f2fs_dentry_slots(len) - 1;
	}
	return 0;
}

/* (read only: the area's pointers are not const for blocks' sake) */
static void inline_area(const struct rp_roll *r, const struct f2fs_node *dir, struct area *a)
{
	struct f2fs_inline_dentry_geo g;
	uint8_t *base = (uint8_t *)(uintptr_t)dir + f2fs_inode_inline_offset(&dir->i);

	f2fs_inline_dentry_geometry(f2fs_inode_inline_bytes(&dir->i, r->features), &g);
	a->bitmap = base + g.bitmap_off;
	a->de = (struct f2fs_dir_entry *)(base + g.dentry_off);
	a->names = (uint8_t (*)[F2FS_SLOT_LEN])(base + g.name_off);
	a->slots = g.slots;
}

static void block_area(struct f2fs_dentry_block *b, struct area *a)
{
	a->bitmap = b->dentry_bitmap;
	a->de = b->dentry;
	a->names = b->filename;
	a->slots = F2FS_NR_DENTRY_IN_BLOCK;
}

/* The ino name has in the dentry blocks of dir (node nd), or 0. */
static int find_regular(struct rp_roll *r, uint32_t dir, const struct f2fs_node *nd,
			const struct rr_name *n, uint32_t *ino)
{
	uint32_t depth = le32_get(nd->i.i_current_depth), dl = nd->i.i_dir_level;
	struct f2fs_dentry_block *buf = malloc(sizeof(*buf));

	if (!buf)
		return rr_nomem(r);
	*ino = 0;
	for (uint32_t level = 0; level < depth && level < F2FS_MAX_DIR_HASH_DEPTH && !*ino; level++) {
		uint64_t first = block_index(level, dl, n->hash % buckets(level, dl));

		for (uint64_t i = first; i < first + bucket_blocks(level) && !*ino; i++) {
			const uint8_t *b;
			struct area a;

			if (!rp_data_exists(r->p, dir, i))
				continue;
			b = rp_data_peek(r->p, dir, i, (uint8_t *)buf);
			if (!b) {
				free(buf);
				return r->ck->err->code ? r->ck->err->code : -EIO;
			}
			block_area((struct f2fs_dentry_block *)b, &a);
			*ino = area_find(&a, n);
		}
	}
	free(buf);
	return 0;
}

int rr_recover_dentry(struct rp_roll *r, const struct f2fs_node *c, struct rr_node *inode)
{
	uint32_t pino = le32_get(c->i.i_pino), len = le32_get(c->i.i_namelen), found = 0;
	struct rr_name n = { .name = c->i.i_name, .len = len };
	struct f2fs_node buf, *dn;
	const struct f2fs_node *nd;
	uint8_t type = f2fs_file_type_of_mode(le16_get(inode->blk.i.i_mode));
	int ret;

	if (!len || len > F2FS_NAME_LEN)
		return rr_stop(r, "inode %u on the chain has a name of %u bytes", inode->nid, len);
	if (!ck_is_dir(ck_inode(r->ck, pino)) || rr_map_get(&r->node_at, pino))
		return rr_stop(r, "the parent %u of inode %u is no directory the check knows: the kernel's recovery fails on it",
			       pino, inode->nid);
	nd = rp_node_peek(r->p, pino, &buf);
	if (!nd)
		return r->ck->err->code ? r->ck->err->code : -EIO;
	if (le32_get(nd->i.i_flags) & F2FS_ENCRYPT_FL)
		return rr_stop(r, "directory %u is encrypted: its names are left to the kernel", pino);
	n.fold = (le32_get(nd->i.i_flags) & F2FS_CASEFOLD_FL) != 0;
	n.key_len = n.fold ? f2fs_casefold_name(n.name, len, n.key) : -1;
	n.hash = rp_name_hash(r->p, pino, n.name, len);
	if (nd->i.i_inline & F2FS_INLINE_DENTRY) {
		struct area a;

		inline_area(r, nd, &a);
		found = area_find(&a, &n);
	} else {
		ret = find_regular(r, pino, nd, &n, &found);
		if (ret)
			return ret;
	}
	if (found == inode->nid)
		return 0;
	if (found)
		return rr_stop(r, "the name of inode %u in directory %u names inode %u: the recovery would unlink it, which is left to the kernel",
			       inode->nid, pino, found);
	ret = rp_dir_add(r->p, pino, n.name, len, inode->nid, type);
	if (ret)
		return ret;
	/* the kernel stamps the directory with the mount's time */
	dn = rp_node(r->p, pino);
	if (!dn)
		return r->ck->err->code ? r->ck->err->code : -EIO;
	dn->i.i_mtime = dn->i.i_ctime = le64_put((uint64_t)time(NULL));
	dn->i.i_mtime_nsec = dn->i.i_ctime_nsec = 0;
	inode->blk.i.i_pino = le32_put(pino);
	r->ck->r->roll.dentries++;
	return 0;
}
