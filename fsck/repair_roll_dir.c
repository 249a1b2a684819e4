/*
 * The names the roll-forward recovery gives back (the kernel's
 * recover_dentry): a file created and fsync'd after the checkpoint has its
 * inode on the chain with a dentry mark, and its name and parent in that
 * inode; the recovery adds the name to the parent as the kernel's
 * f2fs_add_dentry does: into the inline dentries while they have room
 * (moved into a first dentry block when they have not), else into the
 * first block with room of the name's bucket, level by level, a hole in
 * the bucket becoming a new block.
 */
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/hash.h>
#include <f2fs/format/inode.h>

#include "repair_roll.h"

#include <errno.h>
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

static bool area_add(struct area *a, const struct rr_name *n, uint32_t ino, uint8_t type)
{
	uint32_t need = f2fs_dentry_slots(n->len);

	for (uint32_t s = 0; s + need <= a->slots; s++) {
		uint32_t k = 0;

		while (k < need && !bit(a, s + k))
			k++;
		if (k < need) {
			s += k;
			continue;
		}
		a->de[s] = (struct f2fs_dir_entry){ .hash_code = le32_put(n->hash),
			.ino = le32_put(ino), .name_len = le16_put((uint16_t)n->len), .file_type = type };
		for (k = 0; k < need; k++) {
			uint32_t left = n->len - k * F2FS_SLOT_LEN;

			memset(a->names[s + k], 0, F2FS_SLOT_LEN);
			memcpy(a->names[s + k], n->name + k * F2FS_SLOT_LEN,
			       left < F2FS_SLOT_LEN ? left : F2FS_SLOT_LEN);
			a->bitmap[(s + k) / 8] |= (uint8_t)(1u << ((s + k) % 8));
		}
		return true;
	}
	return false;
}

static void inline_area(const struct rp_roll *r, struct rr_node *dir, struct area *a)
{
	struct f2fs_inline_dentry_geo g;
	uint8_t *base = (uint8_t *)&dir->blk.i + f2fs_inode_inline_offset(&dir->blk.i);

	f2fs_inline_dentry_geometry(f2fs_inode_inline_bytes(&dir->blk.i, r->features), &g);
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

static struct rr_dblk *cached(struct rp_roll *r, uint32_t dir, uint64_t idx)
{
	for (size_t k = 0; k < r->dblks.n; k++)
		if (r->dblks.v[k]->dir == dir && r->dblks.v[k]->idx == idx)
			return r->dblks.v[k];
	return NULL;
}

/* Directory block idx as the recovery has it: *blk NULL for a hole. With
 * write, the block is kept for the flush (a hole becomes a new block). */
static int dir_block(struct rp_roll *r, struct rr_node *dir, uint64_t idx, bool write,
		     struct f2fs_dentry_block **blk, struct f2fs_dentry_block *scratch)
{
	struct rr_dblk *d = cached(r, dir->nid, idx);
	struct rr_node *n;
	uint32_t pos, addr;
	int ret;

	*blk = NULL;
	if (d) {
		*blk = &d->blk;
		return 0;
	}
	if (idx > UINT32_MAX)
		return rr_stop(r, "directory %u grows beyond 2^32 blocks", dir->nid);
	n = rr_block_slot(r, dir, idx, write, &pos, &ret);
	if (!n)
		return ret;
	addr = rr_ptr(n, pos);
	if (!write && addr == F2FS_NULL_ADDR)
		return 0;
	if (write) {
		d = calloc(1, sizeof(*d));
		if (!d || f2fs_vec_push(&r->dblks, d)) {
			free(d);
			return f2fs_fail(r->ck->err, -ENOMEM, "out of memory for directory blocks");
		}
		d->dir = dir->nid;
		d->idx = (uint32_t)idx;
		*blk = &d->blk;
	} else {
		*blk = scratch;
		memset(scratch, 0, sizeof(*scratch));
	}
	if (addr == F2FS_NULL_ADDR) {   /* a new block: f2fs_get_new_data_page */
		rr_set_ptr(n, pos, F2FS_NEW_ADDR);
		r->p->new_addrs++;
		ret = rr_add_blocks(r, dir->nid, 1);
		if (!ret && le64_get(dir->blk.i.i_size) < (idx + 1) * F2FS_BLKSIZE)
			dir->blk.i.i_size = le64_put((idx + 1) * F2FS_BLKSIZE);
		return ret;
	}
	if (addr == F2FS_NEW_ADDR)
		return 0;
	if (!ck_in_main(r->ck, addr))
		return rr_stop(r, "directory %u block %llu at 0x%x, outside the main area",
			       dir->nid, (unsigned long long)idx, addr);
	return f2fs_fs_read_block(r->ck->fs, addr, *blk, r->ck->err);
}

static int find_regular(struct rp_roll *r, struct rr_node *dir, const struct rr_name *n,
			uint32_t *ino)
{
	uint32_t depth = le32_get(dir->blk.i.i_current_depth), dl = dir->blk.i.i_dir_level;
	struct f2fs_dentry_block *scratch = malloc(sizeof(*scratch)), *b;
	int ret = 0;

	if (!scratch)
		return f2fs_fail(r->ck->err, -ENOMEM, "out of memory for directory blocks");
	*ino = 0;
	for (uint32_t level = 0; level < depth && level < F2FS_MAX_DIR_HASH_DEPTH && !*ino; level++) {
		uint64_t first = block_index(level, dl, n->hash % buckets(level, dl));

		for (uint64_t i = first; i < first + bucket_blocks(level) && !*ino; i++) {
			struct area a;

			ret = dir_block(r, dir, i, false, &b, scratch);
			if (ret || r->why[0])
				goto out;
			if (!b)
				continue;
			block_area(b, &a);
			*ino = area_find(&a, n);
		}
	}
out:
	free(scratch);
	return ret;
}

static int add_regular(struct rp_roll *r, struct rr_node *dir, const struct rr_name *n,
		       uint32_t ino, uint8_t type)
{
	uint32_t depth = le32_get(dir->blk.i.i_current_depth), dl = dir->blk.i.i_dir_level;

	for (uint32_t level = 0;; level++) {
		uint64_t first;

		if (depth == F2FS_MAX_DIR_HASH_DEPTH)
			return rr_stop(r, "directory %u is full", dir->nid);
		if (level == depth)
			depth++;
		first = block_index(level, dl, n->hash % buckets(level, dl));
		for (uint64_t i = first; i < first + bucket_blocks(level); i++) {
			struct f2fs_dentry_block *b;
			struct area a;
			int ret = dir_block(r, dir, i, true, &b, NULL);

			if (ret || r->why[0])
				return ret;
			block_area(b, &a);
			if (area_add(&a, n, ino, type)) {
				dir->blk.i.i_current_depth = le32_put(depth);
				return 0;
			}
		}
	}
}

/* f2fs_move_inline_dirents: the inline entries into block 0, same slots. */
static int convert_inline(struct rp_roll *r, struct rr_node *dir)
{
	struct f2fs_dentry_block *b;
	struct area in, out;
	uint32_t off = f2fs_inode_inline_offset(&dir->blk.i);
	uint32_t bytes = f2fs_inode_inline_bytes(&dir->blk.i, r->features);
	int ret;

	if (dir->blk.i.i_dir_level)
		return rr_stop(r, "inline directory %u with a dir_level: its conversion is left to the kernel",
			       dir->nid);
	inline_area(r, dir, &in);
	dir->blk.i.i_inline &= (uint8_t)~F2FS_INLINE_DENTRY;
	ret = dir_block(r, dir, 0, true, &b, NULL);
	if (ret || r->why[0])
		return ret;
	block_area(b, &out);
	memset(b, 0, sizeof(*b));
	memcpy(out.bitmap, in.bitmap, (in.slots + 7) / 8);
	for (uint32_t s = in.slots; s < (in.slots + 7) / 8 * 8; s++)
		out.bitmap[s / 8] &= (uint8_t)~(1u << (s % 8));
	memcpy(out.de, in.de, in.slots * sizeof(*in.de));
	memcpy(out.names, in.names, (size_t)in.slots * F2FS_SLOT_LEN);
	memset((uint8_t *)&dir->blk.i + off, 0, bytes);
	dir->blk.i.i_current_depth = le32_put(1);
	if (le64_get(dir->blk.i.i_size) < F2FS_BLKSIZE)
		dir->blk.i.i_size = le64_put(F2FS_BLKSIZE);
	return 0;
}

int rr_recover_dentry(struct rp_roll *r, const struct f2fs_node *c, struct rr_node *inode)
{
	uint32_t pino = le32_get(c->i.i_pino), len = le32_get(c->i.i_namelen), found = 0;
	struct rr_name n = { .name = c->i.i_name, .len = len };
	struct rr_node *dir;
	uint8_t type = f2fs_file_type_of_mode(le16_get(inode->blk.i.i_mode));
	int ret;

	if (!len || len > F2FS_NAME_LEN)
		return rr_stop(r, "inode %u on the chain has a name of %u bytes", inode->nid, len);
	dir = rr_node_get(r, pino, &ret);
	if (!dir)
		return ret;
	if (dir->ofs || dir->nid != dir->ino || !dir->dir)
		return rr_stop(r, "the parent %u of inode %u is no directory: the kernel's recovery fails on it",
			       pino, inode->nid);
	if (le32_get(dir->blk.i.i_flags) & F2FS_ENCRYPT_FL)
		return rr_stop(r, "directory %u is encrypted: its names are left to the kernel", pino);
	n.fold = (le32_get(dir->blk.i.i_flags) & F2FS_CASEFOLD_FL) != 0;
	n.key_len = n.fold ? f2fs_casefold_name(n.name, len, n.key) : -1;
	n.hash = n.fold ? f2fs_dentry_hash_casefold(n.name, len) : f2fs_dentry_hash(n.name, len);
	if (dir->blk.i.i_inline & F2FS_INLINE_DENTRY) {
		struct area a;

		inline_area(r, dir, &a);
		found = area_find(&a, &n);
		if (!found && area_add(&a, &n, inode->nid, type))
			goto added;
	} else {
		ret = find_regular(r, dir, &n, &found);
		if (ret || r->why[0])
			return ret;
	}
	if (found == inode->nid)
		return 0;
	if (found)
		return rr_stop(r, "the name of inode %u in directory %u names inode %u: the recovery would unlink it, which is left to the kernel",
			       inode->nid, pino, found);
	if (dir->blk.i.i_inline & F2FS_INLINE_DENTRY)
		ret = convert_inline(r, dir);
	if (!ret && !r->why[0])
		ret = add_regular(r, dir, &n, inode->nid, type);
	if (ret || r->why[0])
		return ret;
added:
	/* the kernel stamps the directory with the mount's time */
	dir->blk.i.i_mtime = dir->blk.i.i_ctime = le64_put((uint64_t)time(NULL));
	dir->blk.i.i_mtime_nsec = dir->blk.i.i_ctime_nsec = 0;
	inode->blk.i.i_pino = le32_put(pino);
	r->ck->r->roll.dentries++;
	return 0;
}

int rr_flush_dblks(struct rp_roll *r)
{
	struct rp *p = r->p;
	int ret = 0;

	for (size_t k = 0; k < r->dblks.n && !ret; k++) {
		struct rr_dblk *d = r->dblks.v[k];
		struct rr_node *dir = rr_node_get(r, d->dir, &ret), *n;
		uint32_t pos, addr, old;

		if (!dir)
			return ret ? ret : f2fs_fail(r->ck->err, -EINVAL, "%s", r->why);
		n = rr_block_slot(r, dir, d->idx, false, &pos, &ret);
		if (!n)
			return ret ? ret : f2fs_fail(r->ck->err, -EINVAL,
						     "directory %u lost its block %u", d->dir, d->idx);
		ret = rp_place(p, F2FS_SEG_HOT_DATA, 1, &addr);
		if (!ret)
			ret = rp_write(p, &(struct rp_placed){ addr, n->nid, (uint16_t)pos, n->version,
							       false }, &d->blk);
		if (ret)
			return ret;
		old = rr_ptr(n, pos);
		rr_set_ptr(n, pos, addr);
		if (old == F2FS_NEW_ADDR && p->new_addrs)
			p->new_addrs--;
		else if (ck_in_main(r->ck, old))
			rp_release(p, old);
	}
	return ret;
}
