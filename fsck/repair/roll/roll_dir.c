/*
 * The names the roll-forward recovery gives back (the kernel's
 * recover_dentry): a file created and fsync'd after the checkpoint has its
 * inode on the chain with a dentry mark, and its name and parent in that
 * inode. The name is looked up in the parent as the repair's edits have it
 * (its buckets, level by level) and, when missing, added through the
 * repair's directory edits (rp_dir_add, dirs.c: as the kernel's
 * f2fs_add_dentry adds it), which write the directory's blocks out of place
 * with the rest of the repair.
 */
#include <f2fs/format/dir_levels.h>
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/hash.h>
#include <f2fs/format/inode.h>

#include "../../check/passes.h"
#include "roll_int.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


/* A name as the directory compares it. */
struct rr_name {
	const uint8_t *name;
	uint32_t len, hash;
	bool fold;                          /* casefolded directory */
	uint8_t key[F2FS_UTF8_CAP];
	int key_len;                        /* < 0: no folded form */
};

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

/* Where a name was found: the directory's block (INLINE_AREA: its inline
 * area) and the entry's slot there. */
#define INLINE_AREA UINT64_MAX
struct rr_at {
	uint64_t fofs;
	uint32_t slot;
};

/* The ino that name has in the area (its slot in *slot), or 0. */
static uint32_t area_find(const struct area *a, const struct rr_name *n, uint32_t *slot)
{
	for (uint32_t s = 0; s < a->slots; s++) {
		uint32_t len;

		if (!bit(a, s))
			continue;
		len = le16_get(a->de[s].name_len);
		if (len && s + f2fs_dentry_slots(len) <= a->slots &&
		    le32_get(a->de[s].hash_code) == n->hash &&
		    same_name(n, a->names[s], len)) {
			*slot = s;
			return le32_get(a->de[s].ino);
		}
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
			const struct rr_name *n, uint32_t *ino, struct rr_at *at)
{
	uint32_t depth = le32_get(nd->i.i_current_depth), dl = nd->i.i_dir_level;
	struct f2fs_dentry_block *buf = malloc(sizeof(*buf));

	if (!buf)
		return rr_nomem(r);
	*ino = 0;
	for (uint32_t level = 0; level < depth && level < F2FS_MAX_DIR_HASH_DEPTH && !*ino; level++) {
		uint64_t first = f2fs_dir_bucket_start(level, dl, n->hash);

		for (uint64_t i = first; i < first + f2fs_dir_bucket_blocks(level) && !*ino; i++) {
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
			*ino = area_find(&a, n, &at->slot);
			at->fofs = i;
		}
	}
	free(buf);
	return 0;
}

/* The name, its hash and how it compares, as the kernel's
 * init_recovered_filename has them: an encrypted directory's names are
 * compared as stored; when it is casefolded too, the hash cannot be
 * computed without the key and the inode keeps it after the name. */
static int recovered_name(struct rp_roll *r, const struct f2fs_node *c, uint32_t pino,
			  const struct f2fs_inode *dir, struct rr_name *n)
{
	bool enc = (dir->i_advise & F2FS_ADVISE_ENCRYPT) != 0;
	bool fold = (le32_get(dir->i_flags) & F2FS_CASEFOLD_FL) && (r->features & F2FS_FEATURE_CASEFOLD);

	n->name = c->i.i_name;
	n->len = le32_get(c->i.i_namelen);
	if (!n->len || n->len > F2FS_NAME_LEN)
		return rr_stop(r, "inode %u on the chain has a name of %u bytes",
			       le32_get(c->footer.nid), n->len);
	n->fold = fold && !enc;
	n->key_len = n->fold ? f2fs_casefold_name(n->name, n->len, n->key) : -1;
	if (enc && fold) {
		if (n->len + 4 > F2FS_NAME_LEN)
			return rr_stop(r, "inode %u in encrypted casefolded directory %u has a name of %u bytes, with no room for its hash: the kernel's recovery fails on it",
				       le32_get(c->footer.nid), pino, n->len);
		n->hash = le32_get(*(const f2fs_le32 *)(const void *)&c->i.i_name[n->len]);
	} else if (enc) {
		n->hash = f2fs_dentry_hash(n->name, n->len);
	} else {
		n->hash = rp_name_hash(r->p, pino, n->name, n->len);
	}
	return 0;
}

/* Where name n is in directory pino (node nd), and the inode it names
 * there (0: not there). */
static int find_name(struct rp_roll *r, uint32_t pino, const struct rr_name *n,
		     uint32_t *found, struct rr_at *at)
{
	struct f2fs_node buf;
	const struct f2fs_node *nd = rp_node_peek(r->p, pino, &buf);

	*found = 0;
	if (!nd)
		return r->ck->err->code ? r->ck->err->code : -EIO;
	if (nd->i.i_inline & F2FS_INLINE_DENTRY) {
		struct area a;

		inline_area(r, nd, &a);
		*found = area_find(&a, n, &at->slot);
		at->fofs = INLINE_AREA;
		return 0;
	}
	return find_regular(r, pino, nd, n, found, at);
}

/* f2fs_delete_entry of the entry at `at`, which names inode eino, and the
 * iput after it: eino loses the link (a directory two, and its parent
 * one) and, with its last, is freed. */
static int unlink_taken(struct rp_roll *r, uint32_t pino, const struct rr_at *at, uint32_t eino)
{
	struct f2fs_dentry_area a;
	struct rp_snode *e;
	uint32_t links, drop;
	int ret;

	if (eino <= F2FS_ROOT_INO || eino >= r->ck->max_nid || ck_is_quota_file(r->ck, eino))
		return rr_stop(r, "the name a recovered file takes in directory %u names inode %u, which the recovery cannot unlink",
			       pino, eino);
	e = rr_node_get(r, eino, &ret);
	if (!e)
		return ret;
	if (e->ofs != 0 || e->ino != eino)
		return rr_stop(r, "the name a recovered file takes in directory %u names node %u, no inode: the kernel's recovery fails on it",
			       pino, eino);
	links = le32_get(e->blk->i.i_links);
	drop = e->dir ? 2 : 1;
	if (e->dir && links > drop)
		return rr_stop(r, "the name a recovered file takes in directory %u names directory %u, which has subdirectories: left to the kernel",
			       pino, eino);
	ret = rp_dir_area(r->p, pino, at->fofs, &a);
	if (ret)
		return ret;
	f2fs_dentry_area_remove(&a, at->slot, f2fs_dentry_slots(le16_get(a.dentry[at->slot].name_len)));
	r->ck->r->roll.unlinked++;
	if (e->dir) {
		struct f2fs_node *dn = rp_node(r->p, pino);

		if (!dn)
			return r->ck->err->code ? r->ck->err->code : -EIO;
		dn->i.i_links = le32_put(le32_get(dn->i.i_links) - 1);
	}
	if (links > drop) {
		e->blk->i.i_links = le32_put(links - drop);
		e->blk->i.i_ctime = le64_put((uint64_t)r->ck->opt->now);
		e->blk->i.i_ctime_nsec = 0;
		return 0;
	}
	return rr_drop_inode(r, e);
}

int rr_recover_dentry(struct rp_roll *r, const struct f2fs_node *c, struct rp_snode *inode)
{
	uint32_t pino = le32_get(c->i.i_pino), found = 0;
	struct rr_name n;
	struct rr_at at = { 0 };
	struct f2fs_node buf, *dn;
	const struct f2fs_node *nd;
	uint8_t type = f2fs_file_type_of_mode(le16_get(inode->blk->i.i_mode));
	int ret;

	if (!ck_is_dir(ck_inode(r->ck, pino)))
		return rr_stop(r, "the parent %u of inode %u is no directory the check knows: the kernel's recovery fails on it",
			       pino, inode->nid);
	nd = rp_node_peek(r->p, pino, &buf);
	if (!nd)
		return r->ck->err->code ? r->ck->err->code : -EIO;
	ret = recovered_name(r, c, pino, &nd->i, &n);
	/* a name another inode holds is unlinked first, as often as found */
	for (int tries = 0; !ret && !r->why[0]; tries++) {
		ret = find_name(r, pino, &n, &found, &at);
		if (ret || !found || found == inode->nid)
			break;
		if (tries == 8)
			return rr_stop(r, "the name of inode %u in directory %u is held by more than 8 inodes",
				       inode->nid, pino);
		ret = unlink_taken(r, pino, &at, found);
	}
	if (ret || r->why[0] || found == inode->nid)
		return ret;
	ret = rp_dir_add_hashed(r->p, pino, n.name, n.len, n.hash, inode->nid, type);
	if (ret)
		return ret;
	/* the kernel stamps the directory with the mount's time */
	dn = rp_node(r->p, pino);
	if (!dn)
		return r->ck->err->code ? r->ck->err->code : -EIO;
	dn->i.i_mtime = dn->i.i_ctime = le64_put((uint64_t)r->ck->opt->now);
	dn->i.i_mtime_nsec = dn->i.i_ctime_nsec = 0;
	inode->blk->i.i_pino = le32_put(pino);
	r->ck->r->roll.dentries++;
	return 0;
}
