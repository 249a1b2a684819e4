/*
 * Pass: directories. The directory blocks the node pass queued are read in
 * address order and every entry checked: its slots, name, hash and bucket,
 * the inode it names and its type; the entries give link counts, each
 * directory's parent, and its "." and "..".
 */
#include "../checker.h"
#include <f2fs/format/dir_levels.h>
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/hash.h>
#include <f2fs/format/inode.h>
#include <f2fs/format/node_ofs.h>
#include <f2fs/util/sort.h>

#include "ck.h"
#include "nat_answers.h"
#include "passes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DENTRY_SLOT (sizeof(struct f2fs_dir_entry) + F2FS_SLOT_LEN)

/* A reading of the directory blocks: the pass, which checks each entry,
 * or a quiet one that only looks for the first directory naming each
 * file of a list, for the paths of the reports (ck_dirs_parents). */
struct dscan {
	int quiet;
	uint64_t *want;             /* (ino << 32 | parent found), by ino */
	size_t nwant;
};

struct darea {
	const uint8_t *bitmap;
	const uint8_t *dentry;      /* 11-byte entries */
	const uint8_t *names;       /* 8-byte slots */
	uint32_t nslots;
};

static int bit_le(const uint8_t *m, uint32_t i)
{
	return (m[i / 8] >> (i % 8)) & 1;
}

/* Where an entry is: its block (file block fofs, UINT64_MAX inline, at
 * blkaddr) and first slot. */
struct eloc {
	uint64_t fofs;
	uint32_t blkaddr, slot;
};

static int efix(struct ck *ck, enum f2fs_problem_code code, enum ck_fix_op op,
		const struct ck_dir *dir, const struct eloc *at, uint32_t value)
{
	return ck_fix_add(ck, code, op, dir->nid, at->fofs, at->slot, value);
}

static int dentry(struct ck *ck, struct ck_dir *dir, const uint8_t *name, uint32_t len,
		  uint32_t hash, uint32_t ino, uint8_t ftype, const struct eloc *at)
{
	uint64_t fofs = at->fofs;
	uint32_t blkaddr = at->blkaddr;
	int dot = len == 1 && name[0] == '.';
	int dotdot = len == 2 && name[0] == '.' && name[1] == '.';
	uint32_t d = dir->nid, klen;
	uint8_t key[F2FS_NAME_LEN];
	const uint8_t *k;
	struct ck_nid *child;
	struct ck_dir *cd;
	uint8_t want_type;
	int ret = 0;

	ck->r->stats.dentries++;
	if (dot) {
		if (dir->state & DR_HAS_DOT) {
			ck_pb(ck, F2FS_PB_DIR_BAD_NAME, AT(A_INO(d), A_BLK(blkaddr)),
			      "directory %u: a second \".\" entry", d);
			ret = efix(ck, F2FS_PB_DIR_BAD_NAME, FX_REMOVE, dir, at, 1);
		} else if (ino != d) {
			ck_pb(ck, F2FS_PB_DIR_DOT, AT(A_INO(d), A_EXP(d), A_FOUND(ino)),
			      "directory %u: \".\" names inode %u", d, ino);
			ret = efix(ck, F2FS_PB_DIR_DOT, FX_INO, dir, at, d);
		}
		dir->state |= DR_HAS_DOT;
		return ret;
	}
	if (dotdot) {
		if (dir->state & DR_HAS_DOTDOT) {
			ck_pb(ck, F2FS_PB_DIR_BAD_NAME, AT(A_INO(d), A_BLK(blkaddr)),
			      "directory %u: a second \"..\" entry", d);
			ret = efix(ck, F2FS_PB_DIR_BAD_NAME, FX_REMOVE, dir, at, 1);
		} else {
			dir->dotdot = ino;
		}
		dir->state |= DR_HAS_DOTDOT;
		return ret;
	}
	/* the key once: the duplicate check and the hash both take it */
	k = ck_name_key(name, len, (dir->state & DR_CASEFOLD) && !(dir->state & DR_ENCRYPTED),
			key, &klen);
	ck_names_add(ck, d, k, klen);
	if ((dir->state & DR_CASEFOLD) && k == name && !(dir->state & DR_ENCRYPTED) &&
	    (le16_get(ck->sb->s_encoding_flags) & F2FS_ENC_STRICT_MODE_FL)) {
		ck_pb(ck, F2FS_PB_DIR_BAD_NAME, AT(A_DIRNAME(d, name, len), A_INO(ino), A_BLK(blkaddr)),
		      "directory %u: entry name has no casefolded form, which the strict encoding refuses",
		      d);
		/* the kernel cannot look it up: the file is found again (lost+found) */
		return efix(ck, F2FS_PB_DIR_BAD_NAME, FX_REMOVE, dir, at, f2fs_dentry_slots(len));
	}
	/* an encrypted name is cipher text: any byte is fine there */
	if (!(dir->state & DR_ENCRYPTED) && (memchr(name, '/', len) || memchr(name, 0, len))) {
		ck_pb(ck, F2FS_PB_DIR_BAD_NAME, AT(A_DIRNAME(d, name, len), A_INO(ino), A_BLK(blkaddr)),
		      "directory %u: entry name contains '/' or NUL", d);
		/* no path can name it: the file is found again (lost+found) */
		return efix(ck, F2FS_PB_DIR_BAD_NAME, FX_REMOVE, dir, at, f2fs_dentry_slots(len));
	}
	if (!((dir->state & DR_CASEFOLD) && (dir->state & DR_ENCRYPTED))) {
		/* a casefolded name hashes its key, as the kernel's lookup does */
		uint32_t want = f2fs_dentry_hash(k, klen);
		uint64_t bucket, nb;
		uint32_t lv;

		if (want != hash) {
			ck_pb(ck, F2FS_PB_DIR_BAD_HASH,
			      AT(A_DIRNAME(d, name, len), A_INO(ino), A_BLK(blkaddr),
				 A_EXP(want), A_FOUND(hash)),
			      "directory %u: entry hash 0x%08x, the name hashes to 0x%08x",
			      d, hash, want);
			ret = efix(ck, F2FS_PB_DIR_BAD_HASH, FX_HASH, dir, at, want);
			hash = want;   /* its bucket is that of its right hash */
		}
		if (!ret && fofs != UINT64_MAX && f2fs_dir_bucket_of(fofs, dir->dir_level, &lv, &bucket, &nb) &&
		    hash % nb != bucket) {
			ck_pb(ck, F2FS_PB_DIR_WRONG_BUCKET,
			      AT(A_DIRNAME(d, name, len), A_INO(ino), A_BLK(blkaddr),
				 A_EXP(hash % nb), A_FOUND(bucket)),
			      "directory %u: entry in bucket %llu of %llu, its hash belongs in %llu",
			      d, (unsigned long long)bucket, (unsigned long long)nb,
			      (unsigned long long)(hash % nb));
			ret = efix(ck, F2FS_PB_DIR_WRONG_BUCKET, FX_REBUCKET, dir, at, 0);
		}
		if (ret)
			return ret;
	}
	child = ck_inode(ck, ino);
	if (!child) {
		const struct ck_nid *nn = ck_nid_find(ck, ino);

		/* an inode (by the NAT) that could not be read: reported
		 * already, the entry gives that record its path; the entry
		 * itself may be fine */
		if (nn && (nn->flags & NR_UNREADABLE) && (nn->flags & NR_SELF)) {
			ck_pb_name(ck, F2FS_PB_NODE_UNREADABLE, ino, d, name, len);
			if (ftype == F2FS_FT_DIR)
				dir->subdirs++;   /* as its "..": no links error for d */
			return 0;
		}
		/* a node the sweep read that is no inode (an inode it read has
		 * NR_INODE); other nids are not in use or their block is broken */
		if (nn && (nn->flags & NR_READ)) {
			ck_pb(ck, F2FS_PB_INODE_NOT_INODE,
			      AT(A_DIRNAME(d, name, len), A_NID(ino), A_BLK(nn->blkaddr),
				 A_FOUND(ck_nid_ofs(ck, nn, ino))),
			      "directory %u: entry names nid %u (offset %u of inode %u), which is not an inode",
			      d, ino, ck_nid_ofs(ck, nn, ino), ck_nid_ino(ck, nn, ino));
			return efix(ck, F2FS_PB_INODE_NOT_INODE, FX_REMOVE, dir, at,
				    f2fs_dentry_slots(len));
		}
		ck_pb(ck, F2FS_PB_DIR_DANGLING,
		      AT(A_DIRNAME(d, name, len), A_INO(ino), A_BLK(blkaddr)),
		      "directory %u: entry names inode %u, which does not exist", d, ino);
		ck_nat_doubt(ck, ino);
		return efix(ck, F2FS_PB_DIR_DANGLING, FX_REMOVE, dir, at, f2fs_dentry_slots(len));
	}
	want_type = ck_ftype(child);
	if (ftype != want_type) {
		ck_pb(ck, F2FS_PB_DIR_FILE_TYPE,
		      AT(A_DIRNAME(d, name, len), A_INO(ino), A_EXP(want_type), A_FOUND(ftype)),
		      "directory %u: entry type %u, inode %u has mode 0%o", d, ftype, ino,
		      ck_inode_mode(ck, child));
		/* an inode whose mode has no type: its fix heeds the entry,
		 * and an entry that still differs follows the fix (value
		 * unknown) */
		if ((want_type != F2FS_FT_UNKNOWN || ck_fix_mode_seen_as(ck, ino, ftype) != ftype) &&
		    (ret = efix(ck, F2FS_PB_DIR_FILE_TYPE, FX_TYPE, dir, at, want_type)))
			return ret;
	}
	cd = ck_dir_of(ck, child, ino);
	if (cd && (cd->parent || ino == F2FS_ROOT_INO)) {
		ck_pb(ck, F2FS_PB_DIR_MULTIPLE_PARENTS,
		      AT(A_DIRNAME(d, name, len), A_INO(ino), A_EXP(cd->parent)),
		      "directory %u also has an entry in directory %u", ino, d);
		/* a directory has one parent: this entry goes, and is not
		 * counted as one of its links */
		return efix(ck, F2FS_PB_DIR_MULTIPLE_PARENTS, FX_REMOVE, dir, at, f2fs_dentry_slots(len));
	}
	ret = ck_cnt_add(ck, child, CK_REFS, 1);
	if (ret)
		return ret;
	/* a file's first directory is not kept: ck_dirs_parents finds it
	 * again for the few files a report names */
	if (cd) {
		dir->subdirs++;
		cd->parent = d;
	}
	return 0;
}

static uint64_t *want_find(struct dscan *s, uint32_t ino)
{
	size_t lo = f2fs_lower_bound_hi32(s->want, s->nwant, ino);

	return lo < s->nwant && (uint32_t)(s->want[lo] >> 32) == ino ? &s->want[lo] : NULL;
}

/* An entry as the quiet reading sees it: the entries that dentry() counts
 * for a file, in the same order, so that the first is the same. */
static void parent_entry(struct ck *ck, struct dscan *s, uint32_t d, const uint8_t *name,
			 uint32_t len, uint32_t ino)
{
	const struct ck_nid *child;
	uint64_t *w;

	if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
		return;
	child = ck_inode(ck, ino);
	if (!child || ck_is_dir(child))
		return;
	w = want_find(s, ino);
	if (w && !(uint32_t)*w)
		*w |= d;
}

static int scan_area(struct ck *ck, struct dscan *s, struct ck_dir *dir, const struct darea *a,
		     uint64_t fofs, uint32_t blkaddr)
{
	struct eloc at = { fofs, blkaddr, 0 };
	uint32_t i = 0;
	int ret;

	while (i < a->nslots) {
		const uint8_t *de = a->dentry + (size_t)i * sizeof(struct f2fs_dir_entry);
		uint32_t len, slots;

		if (!bit_le(a->bitmap, i)) {
			i++;
			continue;
		}
		len = (uint32_t)de[8] | (uint32_t)de[9] << 8;
		slots = f2fs_dentry_slots(len);
		at.slot = i;
		if (len == 0 || len > F2FS_NAME_LEN || i + slots > a->nslots) {
			uint32_t first = i;

			if (!s->quiet)
				ck_pb(ck, F2FS_PB_DIR_BAD_NAME_LEN,
				      AT(A_INO(dir->nid), A_BLK(blkaddr), A_FOUND(len)),
				      "directory %u: slot %u has name length %u", dir->nid, i, len);
			/* skip the empty continuation slots of the broken entry */
			for (i++; i < a->nslots && bit_le(a->bitmap, i); i++) {
				const uint8_t *z = a->dentry + (size_t)i * sizeof(struct f2fs_dir_entry);

				if (le32_load(z) | le32_load(z + 4) | z[8] | z[9] | z[10])
					break;
			}
			if (!s->quiet && (ret = efix(ck, F2FS_PB_DIR_BAD_NAME_LEN, FX_REMOVE, dir, &at,
						     i - first)))
				return ret;
			continue;
		}
		for (uint32_t k = 1; k < slots && !s->quiet; k++)
			if (!bit_le(a->bitmap, i + k)) {
				ck_pb(ck, F2FS_PB_DIR_BITMAP,
				      AT(A_DIRNAME(dir->nid, a->names + (size_t)i * F2FS_SLOT_LEN, len),
					 A_BLK(blkaddr), A_FOUND(i + k)),
				      "directory %u: slot %u of a %u-slot name is not marked used",
				      dir->nid, i + k, slots);
				if ((ret = efix(ck, F2FS_PB_DIR_BITMAP, FX_MARK, dir, &at, slots)))
					return ret;
				break;
			}
		if (s->quiet)
			parent_entry(ck, s, dir->nid, a->names + (size_t)i * F2FS_SLOT_LEN, len,
				     le32_load(de + 4));
		else if ((ret = dentry(ck, dir, a->names + (size_t)i * F2FS_SLOT_LEN, len,
				       le32_load(de), le32_load(de + 4), de[10], &at)))
			return ret;
		i += slots;
	}
	return 0;
}

static int dentry_cb(struct ck *ck, uint32_t item, uint32_t addr, const uint8_t *blk, void *arg)
{
	const struct ck_dblk *b = &ck->dblks.v[item];
	struct ck_nid *n = ck_nid_find(ck, b->nid);
	struct dscan *s = arg;
	struct darea a;

	if (b->inl) {
		const struct f2fs_node *nd = (const void *)blk;
		struct ck_dir *dir = ck_dir_of(ck, n, b->nid);
		/* the areas as the sweep laid them out (an i_extra_isize or
		 * flags read as their fixes set them), not as the inode says */
		uint32_t xwords = dir->xwords;
		uint32_t extra = F2FS_DEF_ADDRS_PER_INODE - dir->addrs - xwords;
		uint32_t size = 4 * (dir->addrs - 1);
		uint32_t ns = size * 8 / (DENTRY_SLOT * 8 + 1);
		const uint8_t *base;

		/* the block was validated in the sweep; re-check it is the same */
		if (le32_get(nd->footer.nid) != b->nid || !dir->addrs ||
		    dir->addrs + xwords > F2FS_DEF_ADDRS_PER_INODE)
			return 0;
		base = (const uint8_t *)&nd->i.i_addr[extra + 1];
		a.bitmap = base;
		a.dentry = base + size - ns * DENTRY_SLOT;
		a.names = base + size - ns * F2FS_SLOT_LEN;
		a.nslots = ns;
		if (!s->quiet)
			ck->r->stats.dentry_blocks_read++;
		return scan_area(ck, s, dir, &a, UINT64_MAX, addr);
	} else {
		const struct f2fs_dentry_block *db = (const void *)blk;
		uint32_t ino = ck_nid_ino(ck, n, b->nid);
		struct ck_dir *dir = ck_dir_of(ck, ck_inode(ck, ino), ino);
		uint64_t fofs = n->flags & NR_INODE ? b->idx :
				f2fs_node_start_bidx(ck_nid_ofs(ck, n, b->nid), dir->addrs) + b->idx;

		if (fofs >= (dir->size + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE && !s->quiet) {
			int ret;

			ck_pb(ck, F2FS_PB_DIR_BLOCK_BEYOND_SIZE,
			      AT(A_INO(dir->nid), A_BLK(addr), A_EXP(dir->size / F2FS_BLKSIZE),
				 A_FOUND(fofs)),
			      "directory %u: block %llu mapped beyond i_size %llu", dir->nid,
			      (unsigned long long)fofs, (unsigned long long)dir->size);
			/* the entries there are the directory's: i_size grows to them */
			ret = ck_fix_add(ck, F2FS_PB_DIR_BLOCK_BEYOND_SIZE, FX_DIR_SIZE, dir->nid,
					 fofs, 0, (uint32_t)fofs + 1);
			if (ret)
				return ret;
		}
		a.bitmap = db->dentry_bitmap;
		a.dentry = (const uint8_t *)db->dentry;
		a.names = (const uint8_t *)db->filename;
		a.nslots = F2FS_NR_DENTRY_IN_BLOCK;
		if (!s->quiet)
			ck->r->stats.dentry_blocks_read++;
		return scan_area(ck, s, dir, &a, fofs, addr);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Is (nid, idx) a pointer whose block another pointer owned first? */
static int lost_claim(const struct ck *ck, uint32_t nid, uint32_t idx)
{
	uint64_t key = (uint64_t)nid << 32 | idx;

	return ck->lost.n && bsearch(&key, ck->lost.v, ck->lost.n, sizeof(key), cmp_u64);
}

/* A direct node of a directory, read again: its blocks as the sweep kept them. */
static int dnode_cb(struct ck *ck, uint32_t item, uint32_t addr, const uint8_t *blk, void *arg)
{
	const struct f2fs_node *nd = (const void *)blk;
	uint32_t nid = ck->dnodes.v[item];
	int ret;

	(void)addr;
	(void)arg;
	for (uint32_t k = 0; k < F2FS_ADDRS_PER_BLOCK; k++) {
		uint32_t a = le32_get(nd->dn.addr[k]);

		if (a == F2FS_NULL_ADDR || a == F2FS_COMPRESS_ADDR || a == F2FS_NEW_ADDR ||
		    !ck_in_main(ck, a) || lost_claim(ck, nid, k))
			continue;
		if ((ret = ck_queue_dblk(ck, a, nid, k, 0)))
			return ret;
	}
	return 0;
}

/* A direct node the sweep read that cannot be read again: its directory
 * blocks are not checked (their entries are missed as if absent). */
static int dnode_bad(struct ck *ck, uint32_t item, uint32_t addr, const struct f2fs_error *e,
		     void *arg)
{
	(void)arg;
	ck_node_unreadable(ck, ck->dnodes.v[item], addr, e);
	return 0;
}

/* Directory blocks held by direct nodes: those nodes are read again (large
 * directories only) rather than every data pointer being kept. */
static int read_dir_dnodes(struct ck *ck)
{
	F2FS_VEC(uint64_t) keys = { 0 };
	int ret;

	for (size_t k = 0; k < ck->dnodes.n; k++) {
		const struct ck_nid *nn = ck_nid_find(ck, ck->dnodes.v[k]);
		uint32_t ino = ck_nid_ino(ck, nn, ck->dnodes.v[k]);
		const struct ck_nid *in = ck_inode(ck, ino);
		const struct ck_dir *d = ck_dir_of(ck, in, ino);

		if (!d || (in->state & IR_BROKEN) || (d->inline_flags & F2FS_INLINE_DENTRY) ||
		    !(nn->flags & NR_REACHED))
			continue;
		if (f2fs_vec_push(&keys, (uint64_t)nn->blkaddr << 32 | k)) {
			f2fs_vec_free(&keys);
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for directory blocks");
		}
	}
	if (!keys.n)
		return 0;
	f2fs_sort_u64(ck->lost.v, ck->lost.n);
	f2fs_sort_u64(keys.v, keys.n);
	ret = ck_read_sorted(ck, keys.v, keys.n, "directory nodes", dnode_cb, dnode_bad, NULL);
	f2fs_vec_free(&keys);
	return ret;
}

/* Every queued directory block, in address order. */
static int read_dblks(struct ck *ck, const char *phase, struct dscan *s)
{
	uint64_t *keys = malloc((ck->dblks.n + 1) * sizeof(*keys));
	int ret;

	if (!keys)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for directory blocks");
	for (size_t k = 0; k < ck->dblks.n; k++)
		keys[k] = (uint64_t)ck->dblks.v[k].addr << 32 | (uint32_t)k;
	f2fs_sort_u64(keys, ck->dblks.n);
	ret = ck_read_sorted(ck, keys, ck->dblks.n, phase, dentry_cb, NULL, s);
	free(keys);
	return ret;
}

int ck_dirs(struct ck *ck)
{
	struct dscan s = { 0 };
	int ret = read_dir_dnodes(ck);

	return ret ? ret : read_dblks(ck, "directories", &s);
}

int ck_dirs_parents(struct ck *ck)
{
	uint32_t inos[CK_PATHS_MAX];
	size_t n = ck_paths_pending(ck, inos, CK_PATHS_MAX);
	struct dscan s = { 1, NULL, 0 };
	int ret;

	for (size_t k = 0; k < n; k++) {
		const struct ck_nid *in = ck_inode(ck, inos[k]);

		if (in && !ck_is_dir(in) && inos[k] != F2FS_ROOT_INO &&
		    f2fs_vec_push(&ck->fparents, (uint64_t)inos[k] << 32))
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for paths");
	}
	if (!ck->fparents.n)
		return 0;
	f2fs_sort_u64(ck->fparents.v, ck->fparents.n);
	for (size_t k = 0; k < ck->fparents.n; k++)
		if (!s.nwant || ck->fparents.v[k] != ck->fparents.v[s.nwant - 1])
			ck->fparents.v[s.nwant++] = ck->fparents.v[k];
	ck->fparents.n = s.nwant;
	s.want = ck->fparents.v;
	ret = read_dblks(ck, "paths", &s);
	return ret;
}

