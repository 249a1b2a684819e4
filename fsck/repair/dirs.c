/*
 * The repair of directories: each entry the check found wrong (ck.fixes)
 * is changed where it lies, through the repair's edits (edit.c); an
 * entry that must move (a wrong bucket, a new name) is taken out and added
 * again the way the kernel adds one, which is also how lost+found gets
 * its entries (rp_dir_add).
 */
#include <f2fs/format/dir_levels.h>
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/hash.h>
#include <f2fs/format/inode.h>

#include "../check/passes.h"
#include "repair_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define INLINE_BLOCK UINT64_MAX

/* The entries of directory dir's block fofs (INLINE_BLOCK: its inline
 * area), to change. */
static int area_at(struct rp *p, uint32_t dir, uint64_t fofs, struct f2fs_dentry_area *a)
{
	if (fofs == INLINE_BLOCK) {
		struct f2fs_node *nd = rp_node(p, dir);

		if (!nd)
			return p->ck->err->code ? p->ck->err->code : -EIO;
		f2fs_dentry_area_of_inline((uint8_t *)nd + f2fs_inode_inline_offset(&nd->i),
					   f2fs_inode_inline_bytes(&nd->i, p->ck->features), a);
	} else {
		uint8_t *blk = rp_data(p, dir, fofs);

		if (!blk)
			return p->ck->err->code ? p->ck->err->code : -EIO;
		f2fs_dentry_area_of_block((struct f2fs_dentry_block *)(void *)blk, a);
	}
	return 0;
}

uint32_t rp_name_hash(struct rp *p, uint32_t dir, const uint8_t *name, uint32_t len)
{
	uint8_t key[F2FS_NAME_LEN];
	uint32_t klen;
	const uint8_t *k = ck_name_key(name, len, ck_rec_casefold(p->ck, dir), key, &klen);

	return f2fs_dentry_hash(k, klen);
}

/* ---- adding an entry, as the kernel does ------------------------------------ */

/* Inline entries that no longer fit move to block 0, each in its slot (a
 * block has more slots than the inline area), as the kernel converts. */
static int uninline(struct rp *p, uint32_t dir, struct f2fs_node *nd)
{
	struct f2fs_dentry_area from, to;
	uint8_t *blk;

	if (nd->i.i_dir_level)
		return f2fs_fail(p->ck->err, -EINVAL,
				 "directory %u: inline with a hash level, not converted", dir);
	f2fs_dentry_area_of_inline((uint8_t *)nd + f2fs_inode_inline_offset(&nd->i),
				   f2fs_inode_inline_bytes(&nd->i, p->ck->features), &from);
	nd->i.i_inline &= (uint8_t)~F2FS_INLINE_DENTRY;
	blk = rp_data_new(p, dir, 0);
	if (!blk)
		return p->ck->err->code ? p->ck->err->code : -EIO;
	f2fs_dentry_area_of_block((struct f2fs_dentry_block *)(void *)blk, &to);
	memcpy(to.bitmap, from.bitmap, (from.slots + 7) / 8);
	memcpy(to.dentry, from.dentry, (size_t)from.slots * sizeof(*from.dentry));
	memcpy(to.name, from.name, (size_t)from.slots * F2FS_SLOT_LEN);
	/* bits past the inline slots, if the last byte had any, are not slots */
	for (uint32_t s = from.slots; s < (from.slots + 7) / 8 * 8; s++)
		to.bitmap[s / 8] &= (uint8_t)~(1u << (s % 8));
	memset((uint8_t *)nd + f2fs_inode_inline_offset(&nd->i), 0,
	       f2fs_inode_inline_bytes(&nd->i, p->ck->features));
	nd->i.i_size = le64_put(F2FS_BLKSIZE);
	if (!le32_get(nd->i.i_current_depth))
		nd->i.i_current_depth = le32_put(1);
	return 0;
}

/* Has block b of dir a free run for a name of len bytes? */
static bool has_room(struct rp *p, uint32_t dir, uint64_t b, uint32_t len)
{
	uint8_t buf[F2FS_BLKSIZE];
	const uint8_t *blk = rp_data_peek(p, dir, b, buf);
	struct f2fs_dentry_area a;
	static const uint8_t any[F2FS_NAME_LEN];

	if (!blk)
		return false;
	if (blk != buf)
		memcpy(buf, blk, sizeof(buf));
	f2fs_dentry_area_of_block((struct f2fs_dentry_block *)(void *)buf, &a);
	return f2fs_dentry_area_add(&a, any, len, 0, 0, 0) >= 0;
}

static int add_in_levels(struct rp *p, uint32_t dir, const uint8_t *name, uint32_t len,
			 uint32_t hash, uint32_t ino, uint8_t type)
{
	struct f2fs_node *nd = rp_node(p, dir);
	uint32_t depth, dir_level;

	if (!nd)
		return p->ck->err->code ? p->ck->err->code : -EIO;
	depth = le32_get(nd->i.i_current_depth);
	dir_level = nd->i.i_dir_level;
	for (uint32_t lv = 0; lv < F2FS_MAX_DIR_HASH_DEPTH; lv++) {
		uint64_t first = f2fs_dir_bucket_start(lv, dir_level, hash);

		for (uint64_t b = first; b < first + f2fs_dir_bucket_blocks(lv); b++) {
			bool exists = rp_data_exists(p, dir, b);
			uint8_t *blk;
			struct f2fs_dentry_area a;

			/* a block without room is only looked at, not rewritten */
			if (exists && !has_room(p, dir, b, len))
				continue;
			blk = exists ? rp_data(p, dir, b) : rp_data_new(p, dir, b);
			if (!blk)
				return p->ck->err->code ? p->ck->err->code : -EIO;
			f2fs_dentry_area_of_block((struct f2fs_dentry_block *)(void *)blk, &a);
			if (f2fs_dentry_area_add(&a, name, len, hash, ino, type) < 0)
				continue;
			nd = rp_node(p, dir);   /* rp_data_new may have changed it */
			if (le64_get(nd->i.i_size) < (b + 1) * F2FS_BLKSIZE)
				nd->i.i_size = le64_put((b + 1) * F2FS_BLKSIZE);
			if (depth < lv + 1)
				nd->i.i_current_depth = le32_put(lv + 1);
			return 0;
		}
	}
	return f2fs_fail(p->ck->err, -F2FS_E_NO_SPACE, "directory %u is full", dir);
}

int rp_dir_add(struct rp *p, uint32_t dir, const uint8_t *name, uint32_t len, uint32_t ino,
	       uint8_t type)
{
	return rp_dir_add_hashed(p, dir, name, len, rp_name_hash(p, dir, name, len), ino, type);
}

int rp_dir_add_hashed(struct rp *p, uint32_t dir, const uint8_t *name, uint32_t len,
		      uint32_t hash, uint32_t ino, uint8_t type)
{
	struct f2fs_node *nd = rp_node(p, dir);
	int ret;

	if (!nd)
		return p->ck->err->code ? p->ck->err->code : -EIO;
	if (nd->i.i_inline & F2FS_INLINE_DENTRY) {
		struct f2fs_dentry_area a;

		ret = area_at(p, dir, INLINE_BLOCK, &a);
		if (ret || f2fs_dentry_area_add(&a, name, len, hash, ino, type) >= 0)
			return ret;
		ret = uninline(p, dir, nd);
		if (ret)
			return ret;
	}
	return add_in_levels(p, dir, name, len, hash, ino, type);
}

/* ---- looking a name up in the directory as changed ---------------------------- */

static bool same_key(struct rp *p, uint32_t dir, const uint8_t *a, uint32_t alen,
		     const uint8_t *b, uint32_t blen)
{
	uint8_t ka[F2FS_NAME_LEN], kb[F2FS_NAME_LEN];
	uint32_t la, lb;
	int cf = ck_rec_casefold(p->ck, dir);
	const uint8_t *x = ck_name_key(a, alen, cf, ka, &la), *y = ck_name_key(b, blen, cf, kb, &lb);

	return la == lb && !memcmp(x, y, la);
}

static bool area_has(struct rp *p, uint32_t dir, const struct f2fs_dentry_area *a,
		     const uint8_t *name, uint32_t len)
{
	for (uint32_t s = 0; s < a->slots; s++) {
		uint32_t l = le16_get(a->dentry[s].name_len);

		if (f2fs_dentry_area_used(a, s) && l && l <= F2FS_NAME_LEN &&
		    s + f2fs_dentry_slots(l) <= a->slots &&
		    same_key(p, dir, a->name[s], l, name, len))
			return true;
	}
	return false;
}

/* Is name in directory dir, where a lookup would look (its buckets)? */
bool rp_dir_has(struct rp *p, uint32_t dir, const uint8_t *name, uint32_t len)
{
	struct f2fs_node buf;
	const struct f2fs_node *nd = rp_node_peek(p, dir, &buf);
	uint32_t hash = rp_name_hash(p, dir, name, len);
	struct f2fs_dentry_area a;

	if (!nd)
		return true;   /* unreadable: take no name there */
	if (nd->i.i_inline & F2FS_INLINE_DENTRY)
		return area_at(p, dir, INLINE_BLOCK, &a) || area_has(p, dir, &a, name, len);
	for (uint32_t lv = 0; lv < le32_get(nd->i.i_current_depth) && lv < F2FS_MAX_DIR_HASH_DEPTH; lv++) {
		uint64_t first = f2fs_dir_bucket_start(lv, nd->i.i_dir_level, hash);

		for (uint64_t b = first; b < first + f2fs_dir_bucket_blocks(lv); b++) {
			uint8_t buf[F2FS_BLKSIZE];
			const uint8_t *blk;

			if (!rp_data_exists(p, dir, b))
				continue;
			blk = rp_data_peek(p, dir, b, buf);
			if (!blk)
				return true;
			if (blk != buf)
				memcpy(buf, blk, sizeof(buf));
			f2fs_dentry_area_of_block((struct f2fs_dentry_block *)(void *)buf, &a);
			if (area_has(p, dir, &a, name, len))
				return true;
		}
	}
	return false;
}

/* name~N, the first N not in use (the name cut to leave room). */
int rp_dir_free_name(struct rp *p, uint32_t dir, const uint8_t *name, uint32_t len,
		      uint8_t out[F2FS_NAME_LEN], uint32_t *olen)
{
	for (uint32_t n = 0; n < 100000; n++) {
		char suffix[16];
		int sl = snprintf(suffix, sizeof(suffix), "~%u", n);
		uint32_t keep = len + (uint32_t)sl > F2FS_NAME_LEN ? F2FS_NAME_LEN - (uint32_t)sl : len;

		memcpy(out, name, keep);
		memcpy(out + keep, suffix, (size_t)sl);
		*olen = keep + (uint32_t)sl;
		if (!rp_dir_has(p, dir, out, *olen))
			return 0;
	}
	return f2fs_fail(p->ck->err, -EEXIST, "directory %u: no free name for a duplicate", dir);
}

/* ---- the fixes ------------------------------------------------------------------ */

/* Take the entry at slot out, and add it again as it must be: under its
 * own name (a new bucket) or, rename, under a free one. */
static int readd(struct rp *p, const struct ck_fix *f, bool rename)
{
	struct f2fs_dentry_area a;
	uint8_t name[F2FS_NAME_LEN], fresh[F2FS_NAME_LEN];
	uint32_t len, ino, flen;
	uint8_t type;
	int ret = area_at(p, f->ino, f->fofs, &a);

	if (ret)
		return ret;
	len = le16_get(a.dentry[f->slot].name_len);
	if (!len || len > F2FS_NAME_LEN || f->slot + f2fs_dentry_slots(len) > a.slots)
		return 0;   /* changed by another fix already */
	memcpy(name, a.name[f->slot], len);
	ino = le32_get(a.dentry[f->slot].ino);
	type = a.dentry[f->slot].file_type;
	f2fs_dentry_area_remove(&a, f->slot, f2fs_dentry_slots(len));
	if (rename) {
		ret = rp_dir_free_name(p, f->ino, name, len, fresh, &flen);
		return ret ? ret : rp_dir_add(p, f->ino, fresh, flen, ino, type);
	}
	return rp_dir_add(p, f->ino, name, len, ino, type);
}

/* "." or ".." in the first block (or inline): its slot, or -1. */
static int find_dot(const struct f2fs_dentry_area *a, uint32_t len)
{
	for (uint32_t s = 0; s < a->slots; s++)
		if (f2fs_dentry_area_used(a, s) && le16_get(a->dentry[s].name_len) == len &&
		    !memcmp(a->name[s], "..", len))
			return (int)s;
	return -1;
}

static int fix_dots(struct rp *p, const struct ck_fix *f, uint32_t len)
{
	struct f2fs_node buf;
	const struct f2fs_node *nd = rp_node_peek(p, f->ino, &buf);
	struct f2fs_dentry_area a;
	uint64_t where;
	int ret, s;

	if (!nd)
		return p->ck->err->code ? p->ck->err->code : -EIO;
	where = nd->i.i_inline & F2FS_INLINE_DENTRY ? INLINE_BLOCK : 0;
	if (where == 0 && !rp_data_exists(p, f->ino, 0))
		return rp_dir_add(p, f->ino, (const uint8_t *)"..", len, f->value, F2FS_FT_DIR);
	ret = area_at(p, f->ino, where, &a);
	if (ret)
		return ret;
	s = find_dot(&a, len);
	if (s >= 0) {
		a.dentry[s].ino = le32_put(f->value);
		a.dentry[s].file_type = F2FS_FT_DIR;
		return 0;
	}
	/* the kernel hashes "." and ".." as 0 wherever they are */
	if (f2fs_dentry_area_add(&a, (const uint8_t *)"..", len, 0, f->value, F2FS_FT_DIR) >= 0)
		return 0;
	return rp_dir_add(p, f->ino, (const uint8_t *)"..", len, f->value, F2FS_FT_DIR);
}

int rp_dir_area(struct rp *p, uint32_t dir, uint64_t fofs, struct f2fs_dentry_area *a)
{
	return area_at(p, dir, fofs, a);
}

int rp_dir_dot(struct rp *p, uint32_t dir)
{
	struct ck_fix f = { .ino = dir, .value = dir, .op = FX_DOT };

	return fix_dots(p, &f, 1);
}

int rp_dir_dotdot(struct rp *p, uint32_t dir, uint32_t parent)
{
	struct ck_fix f = { .ino = dir, .value = parent, .op = FX_DOTDOT };

	return fix_dots(p, &f, 2);
}

static int apply(struct rp *p, const struct ck_fix *f)
{
	struct f2fs_dentry_area a;
	struct f2fs_node *nd;
	int ret;

	switch (f->op) {
	case FX_REBUCKET:
		return readd(p, f, false);
	case FX_RENAME:
		return readd(p, f, true);
	case FX_DOT:
		return fix_dots(p, f, 1);
	case FX_DOTDOT:
		return fix_dots(p, f, 2);
	case FX_PINO:
	case FX_DIR_SIZE:
	case FX_DIR_LEVEL:
		if (!(nd = rp_node(p, f->ino)))
			return p->ck->err->code ? p->ck->err->code : -EIO;
		if (f->op == FX_PINO)
			nd->i.i_pino = le32_put(f->value);
		else if (f->op == FX_DIR_LEVEL)
			nd->i.i_dir_level = (uint8_t)f->value;
		else if (le64_get(nd->i.i_size) < (uint64_t)f->value * F2FS_BLKSIZE)
			nd->i.i_size = le64_put((uint64_t)f->value * F2FS_BLKSIZE);
		return 0;
	}
	ret = area_at(p, f->ino, f->fofs, &a);
	if (ret || f->slot >= a.slots)
		return ret;
	switch (f->op) {
	case FX_REMOVE:
		f2fs_dentry_area_remove(&a, f->slot, f->value);
		break;
	case FX_TYPE:   /* unknown: set with its inode's new mode (retype_entries) */
		if (f->value != F2FS_FT_UNKNOWN)
			a.dentry[f->slot].file_type = (uint8_t)f->value;
		break;
	case FX_HASH:
		a.dentry[f->slot].hash_code = le32_put(f->value);
		break;
	case FX_INO:
		a.dentry[f->slot].ino = le32_put(f->value);
		break;
	case FX_MARK:
		for (uint32_t s = f->slot; s < f->slot + f->value && s < a.slots; s++)
			a.bitmap[s / 8] |= (uint8_t)(1u << (s % 8));
		break;
	}
	return 0;
}

/* In place first, then the moves: an entry moved out of a block must not
 * be found there by a fix that names its old slot. Renames go before the
 * other moves: a renamed entry takes its new name's bucket, and a move of
 * the same entry to its old name's bucket then finds its slot empty. */
static int round_of(uint8_t op)
{
	return op == FX_RENAME ? 1 :
	       op == FX_REBUCKET || op == FX_DOT || op == FX_DOTDOT ? 2 : 0;
}

int rp_dirs(struct rp *p)
{
	const struct ck *ck = p->ck;
	int ret = 0;

	for (int round = 0; round < 3 && !ret; round++)
		for (size_t i = 0; i < ck->fixes.n && !ret; i++) {
			const struct ck_fix *f = &ck->fixes.v[i];

			/* the ops after FX_DIR_LEVEL are other files' */
			if (p->fix[f->code] && f->op <= FX_DIR_LEVEL && round_of(f->op) == round)
				ret = apply(p, f);
		}
	return ret;
}

int rp_dir_new(struct rp *p, uint32_t nid, uint32_t parent, uint16_t perm, const char *name,
	       uint32_t *ino)
{
	struct ck *ck = p->ck;
	struct f2fs_inode_attrs a = {
		.mode = (uint16_t)(F2FS_S_IFDIR | perm), .links = 2, .time = ck->opt->now,
		.pino = parent, .name = name, .depth = 1, .blocks = 1, .features = ck->features,
	};
	struct f2fs_node *nd = nid ? rp_inode_new_at(p, nid) : rp_node_new(p, 0, 0, &nid);
	uint8_t *blk;

	if (!nd)
		return ck->err->code ? ck->err->code : -EIO;
	f2fs_inode_init(nd, &a);
	f2fs_node_footer_set(nd, nid, nid, 0, 0, 0, 0);
	blk = rp_data_new(p, nid, 0);
	if (!blk)
		return ck->err->code ? ck->err->code : -EIO;
	f2fs_dentry_block_init_dots((struct f2fs_dentry_block *)(void *)blk, nid, parent);
	nd = rp_node(p, nid);
	if (!nd)
		return ck->err->code ? ck->err->code : -EIO;
	nd->i.i_size = le64_put(F2FS_BLKSIZE);
	*ino = nid;
	return 0;
}

/* Does an inode no directory names say (i_pino, its last link's parent
 * still known) that it was in directory dir? */
static bool has_lost_child(struct rp *p, uint32_t dir)
{
	struct ck *ck = p->ck;
	struct ck_nid_iter it = { 0 };
	struct ck_nid *in;
	uint32_t ino;

	while (ck_nid_next(ck, &it, &ino, &in)) {
		struct f2fs_node buf;
		const struct f2fs_node *nd;

		if (!(in->flags & NR_INODE) || !(in->flags & NR_READ) ||
		    !ck_links_unreachable(ck, in, ino))
			continue;
		nd = rp_node_peek(p, ino, &buf);
		if (nd && le32_get(nd->i.i_pino) == dir && !(nd->i.i_advise & F2FS_ADVISE_LOST_PINO))
			return true;
	}
	return false;
}

/* A directory with neither "." nor ".." whose entries are broken by the
 * dozen (NOT_A_DIR_ENTRIES fixes or more) holds no directory's content: a
 * file whose mode says directory, or garbage. Mending its "entries" one by
 * one would rewrite every block of it, and its size as a directory's would
 * change the file: no fix that names it is made. But when a file no
 * directory names says it was in it, it is a directory whose first block
 * was overwritten: its garbage slots go, "." and ".." come back, and the
 * lost files return by their names (lost.c); so too when a directory's
 * entry names it and it has a directory's links. A quota file is no
 * directory either. */
#define NOT_A_DIR_ENTRIES 32

/* A directory's entry names it (the walk read it as a directory there) and
 * it has a directory's links: a directory, whose first block is garbage. */
static bool named_as_dir(struct ck *ck, const struct ck_dir *d)
{
	struct ck_nid *in = ck_inode(ck, d->nid);

	return d->parent && d->parent != d->nid && in && ck_cnt(ck, in, CK_LINKS) >= 2;
}

static bool not_a_dir(struct rp *p, const struct ck_dir *d)
{
	struct ck *ck = p->ck;
	uint32_t n = 0;

	if (ck_is_quota_file(ck, d->nid))   /* a quota file's mode damaged */
		return true;
	if (d->state & (DR_HAS_DOT | DR_HAS_DOTDOT))
		return false;
	for (size_t i = 0; i < ck->fixes.n && n < NOT_A_DIR_ENTRIES; i++)
		if (ck->fixes.v[i].ino == d->nid && ck->fixes.v[i].op <= FX_DOTDOT)
			n++;
	return n >= NOT_A_DIR_ENTRIES && !has_lost_child(p, d->nid) && !named_as_dir(ck, d);
}

void rp_dirs_not_dirs(struct rp *p)
{
	struct ck *ck = p->ck;

	/* a duplicate in an encrypted directory would be renamed to plain
	 * text among cipher text, which the kernel cannot decrypt */
	for (size_t i = 0; i < ck->fixes.n; i++)
		if (ck->fixes.v[i].op == FX_RENAME && ck_rec_encrypted(ck, ck->fixes.v[i].ino))
			p->fix[ck->fixes.v[i].code] = false;

	for (size_t k = 0; k < ck->dirs.n; k++) {
		if (!not_a_dir(p, &ck->dirs.v[k]))
			continue;
		/* nor is an entry naming it retyped a directory (which entry
		 * names it, its record does not say), nor are link counts
		 * set from a tree that counts it as one */
		p->fix[F2FS_PB_DIR_FILE_TYPE] = false;
		p->fix[F2FS_PB_INODE_LINKS] = false;
		p->fix[F2FS_PB_INODE_UNREACHABLE] = false;
		p->fix[F2FS_PB_DIR_LOOP] = false;
		for (size_t i = 0; i < ck->fixes.n; i++)
			if (ck->fixes.v[i].ino == ck->dirs.v[k].nid)
				p->fix[ck->fixes.v[i].code] = false;
	}
}
