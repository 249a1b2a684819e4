/*
 * Checker, the tree: every node block in use is read once, sorted by block
 * address; parent->child node pointers and data pointers are collected and
 * checked after the sweep; directory blocks are then read the same way and
 * their entries give link counts, parents and reachability.
 */
#include "checker.h"
#include <f2fs/format/crc.h>
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/hash.h>
#include <f2fs/format/inode.h>

#include "ck.h"
#include "check_more.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define NPB F2FS_NIDS_PER_BLOCK
#define ENCRYPT_FL 0x00000800u
/* largest i_inline_xattr_size the kernel accepts (words) */
#define MAX_INLINE_XATTR_WORDS (F2FS_DEF_ADDRS_PER_INODE - 9 - 1 - 10)
#define DENTRY_SLOT (sizeof(struct f2fs_dir_entry) + F2FS_SLOT_LEN)

enum node_kind { NK_BAD, NK_INODE, NK_DIRECT, NK_INDIRECT, NK_DOUBLE, NK_XATTR };

static enum node_kind kind_of(uint32_t ofs)
{
	if (ofs == 0)
		return NK_INODE;
	if (ofs == F2FS_XATTR_NODE_OFFSET)
		return NK_XATTR;
	if (ofs == 1 || ofs == 2)
		return NK_DIRECT;
	if (ofs == 3 || ofs == 3 + NPB + 1)
		return NK_INDIRECT;
	if (ofs < 3 + 2 * (NPB + 1))
		return NK_DIRECT;
	if (ofs == 5 + 2 * NPB)
		return NK_DOUBLE;
	if (ofs > 5 + 2 * NPB) {
		uint32_t r = ofs - (6 + 2 * NPB);

		if (r / (NPB + 1) >= NPB)
			return NK_BAD;
		return r % (NPB + 1) == 0 ? NK_INDIRECT : NK_DIRECT;
	}
	return NK_BAD;
}

/* Offset of child k of an indirect or double node at ofs. */
static uint32_t child_ofs(uint32_t ofs, uint32_t k)
{
	if (ofs == 3)
		return 4 + k;
	if (ofs == 3 + NPB + 1)
		return 5 + NPB + k;
	if (ofs == 5 + 2 * NPB)
		return 6 + 2 * NPB + k * (NPB + 1);
	return ofs + 1 + k;        /* indirect under the double node */
}

/* First file block mapped by a direct node at ofs (addrs = inode pointers). */
static uint64_t direct_base(uint32_t ofs, uint32_t addrs)
{
	uint64_t p = addrs;

	if (ofs == 1)
		return p;
	if (ofs == 2)
		return p + NPB;
	if (ofs < 3 + NPB + 1)
		return p + 2 * NPB + (uint64_t)(ofs - 4) * NPB;
	if (ofs < 3 + 2 * (NPB + 1))
		return p + 2 * NPB + (uint64_t)NPB * NPB + (uint64_t)(ofs - 5 - NPB) * NPB;
	{
		uint32_t r = ofs - (6 + 2 * NPB);
		uint64_t j = r / (NPB + 1), k = r % (NPB + 1) - 1;

		return p + 2 * NPB + 2 * (uint64_t)NPB * NPB + (j * NPB + k) * NPB;
	}
}

static int add_edge(struct ck *ck, uint32_t child, uint32_t owner, uint32_t ofs, int xattr)
{
	if (ck->nedges == ck->edges_cap) {
		size_t cap = ck->edges_cap ? ck->edges_cap * 2 : 1024;
		struct ck_edge *p = realloc(ck->edges, cap * sizeof(*p));

		if (!p)
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for node pointers");
		ck->edges = p;
		ck->edges_cap = cap;
	}
	ck->edges[ck->nedges++] = (struct ck_edge){ child, owner, ofs, (uint8_t)xattr };
	return 0;
}

static int push_u64(uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 256;
		uint64_t *p = realloc(*v, c * sizeof(*p));

		if (!p)
			return -1;
		*v = p;
		*cap = c;
	}
	(*v)[(*n)++] = x;
	return 0;
}

static int push_u32(uint32_t **v, size_t *n, size_t *cap, uint32_t x)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 256;
		uint32_t *p = realloc(*v, c * sizeof(*p));

		if (!p)
			return -1;
		*v = p;
		*cap = c;
	}
	(*v)[(*n)++] = x;
	return 0;
}

/* A directory block to read after the walk. */
static int add_dblk(struct ck *ck, uint32_t addr, uint32_t nid, uint32_t idx, int inl)
{
	if (ck->ndblks == ck->dblks_cap) {
		size_t cap = ck->dblks_cap ? ck->dblks_cap * 2 : 256;
		struct ck_dblk *p = realloc(ck->dblks, cap * sizeof(*p));

		if (!p)
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for directory blocks");
		ck->dblks = p;
		ck->dblks_cap = cap;
	}
	ck->dblks[ck->ndblks++] = (struct ck_dblk){ addr, nid, (uint16_t)idx, (uint8_t)inl, 0 };
	return 0;
}

/* A block now owned by nid (pointer idx): into its segment's SSA sum, and
 * kept when that segment's SSA is checked entry by entry. */
static int note_owner(struct ck *ck, uint32_t addr, uint32_t nid, uint32_t idx, int node)
{
	uint32_t s = ck_segno(ck, addr);

	ck->segfp[s] += ck_fp(addr, nid, node ? CK_FP_NODE : idx);
	if (ck->ssa_exact && ck_bit64(ck->ssa_exact, s))
		return ck_add_blk(ck, addr, nid, idx, node);
	return 0;
}

/* First nonzero pointer of p[k..n), or n. Zero is NULL_ADDR, and most
 * pointers of small files are zero: skipped 16 at a time. */
static uint32_t next_ptr(const void *ptrs, uint32_t k, uint32_t n)
{
	const uint8_t *p = ptrs;

	for (; k + 16 <= n; k += 16) {
		uint32_t any = 0;

		for (uint32_t j = 0; j < 16; j++)
			any |= le32_load(p + 4 * (k + j));
		if (any)
			break;
	}
	while (k < n && !le32_load(p + 4 * k))
		k++;
	return k;
}

/* The node whose data pointers are being walked. */
struct owner {
	uint32_t nid, ino;
	uint32_t ndata;           /* data pointers counted */
	int dir;                  /* 1: its blocks are a directory's to read */
};

/* A data pointer of node o at index idx. */
static int data_ptr(struct ck *ck, struct owner *o, uint32_t idx, uint32_t addr)
{
	const struct ck_seg *g;
	int ret;

	if (addr == F2FS_NULL_ADDR || addr == F2FS_COMPRESS_ADDR)
		return 0;
	o->ndata++;
	if (addr == F2FS_NEW_ADDR) {
		ck->new_addrs++;   /* counted in valid_block_count, not the SIT */
		return 0;
	}
	if (!ck_in_main(ck, addr)) {
		ck_pb(ck, F2FS_PB_DATA_ADDR_OUT_OF_RANGE,
		      AT(A_NID(o->nid), A_INO(o->ino), A_BLK(addr), A_FOUND(idx)),
		      "nid %u pointer %u: block 0x%x outside the main area", o->nid, idx, addr);
		return 0;
	}
	ck->r->stats.data_blocks++;
	g = &ck->segs[ck_segno(ck, addr)];
	if (ck_claim(ck, addr)) {
		ck_pb(ck, F2FS_PB_BLOCK_MULTIPLY_OWNED,
		      AT(A_NID(o->nid), A_INO(o->ino), A_BLK(addr), A_FOUND(idx)),
		      "block 0x%x (nid %u pointer %u) is already in use", addr, o->nid, idx);
		/* remembered so that a second reading of the node skips it too */
		if (push_u64(&ck->lost, &ck->nlost, &ck->lost_cap, (uint64_t)o->nid << 32 | idx))
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for block records");
		return 0;
	}
	if (ck_seg_is_node(g->type) && ck_sit_valid(ck, addr))
		ck_pb(ck, F2FS_PB_DATA_SEGMENT_TYPE,
		      AT(A_NID(o->nid), A_INO(o->ino), A_BLK(addr), A_SEG(ck_segno(ck, addr)),
			 A_FOUND(g->type)),
		      "data block 0x%x lies in a segment of node type %u", addr, g->type);
	ret = note_owner(ck, addr, o->nid, idx, 0);
	if (!ret && o->dir)
		ret = add_dblk(ck, addr, o->nid, idx, 0);
	return ret;
}

static int valid_mode(uint16_t mode)
{
	switch (mode & F2FS_S_IFMT) {
	case F2FS_S_IFREG: case F2FS_S_IFDIR: case F2FS_S_IFLNK: case F2FS_S_IFCHR:
	case F2FS_S_IFBLK: case F2FS_S_IFIFO: case F2FS_S_IFSOCK:
		return 1;
	}
	return 0;
}

static struct ck_dir *new_dir(struct ck *ck, struct ck_nid *n, uint32_t nid)
{
	struct ck_dir *d;

	if (ck->ndirs == ck->dirs_cap) {
		uint32_t cap = ck->dirs_cap ? ck->dirs_cap * 2 : 64;
		struct ck_dir *p = realloc(ck->dirs, (size_t)cap * sizeof(*p));

		if (!p)
			return NULL;
		ck->dirs = p;
		ck->dirs_cap = cap;
	}
	n->u.i.aux = ck->ndirs;
	d = &ck->dirs[ck->ndirs++];
	memset(d, 0, sizeof(*d));
	d->nid = nid;
	return d;
}

/* What the inode says of itself: record, counters, directory record. */
static int inode_record(struct ck *ck, struct ck_nid *n, uint32_t ino, const struct f2fs_inode *i,
			struct ck_dir **dirp)
{
	uint64_t i_blocks = le64_get(i->i_blocks);
	uint16_t type;

	n->mode = le16_get(i->i_mode);
	n->u.i.links = le32_get(i->i_links);
	/* i_blocks counts the inode block itself; pointers are subtracted */
	n->u.i.bdiff = (uint32_t)i_blocks - 1;
	if (i_blocks >> 32)
		n->state |= IR_BIG_IBLOCKS;
	if (le32_get(i->i_flags) & F2FS_COMPR_FL)
		n->state |= IR_NOCOUNT;
	type = n->mode & F2FS_S_IFMT;
	*dirp = NULL;
	if (type == F2FS_S_IFDIR) {
		struct ck_dir *d = new_dir(ck, n, ino);

		if (!d)
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for directories");
		d->size = le64_get(i->i_size);
		d->pino = le32_get(i->i_pino);
		d->dir_level = i->i_dir_level;
		d->inline_flags = i->i_inline;
		if ((le32_get(i->i_flags) & F2FS_CASEFOLD_FL) &&
		    (ck->features & F2FS_FEATURE_CASEFOLD))
			d->state |= DR_CASEFOLD;
		if (le32_get(i->i_flags) & ENCRYPT_FL)
			d->state |= DR_ENCRYPTED;
		*dirp = d;
	}
	ck->r->stats.inodes++;
	if (type == F2FS_S_IFDIR)
		ck->r->stats.dirs++;
	else if (type == F2FS_S_IFREG)
		ck->r->stats.files++;
	else if (type == F2FS_S_IFLNK)
		ck->r->stats.symlinks++;
	else
		ck->r->stats.others++;
	return 0;
}

static int sweep_inode(struct ck *ck, struct ck_nid *n, uint32_t ino, const struct f2fs_node *nd)
{
	const struct f2fs_inode *i = &nd->i;
	struct owner o = { ino, ino, 0, 0 };
	uint64_t size = le64_get(i->i_size);
	uint32_t depth = le32_get(i->i_current_depth);
	uint32_t extra = 0, xwords, addrs;
	struct ck_dir *dir;
	uint16_t type;
	int ret;

	ret = inode_record(ck, n, ino, i, &dir);
	if (ret)
		return ret;
	type = n->mode & F2FS_S_IFMT;
	ck_quota_inode(ck, ino, nd);
	if (!valid_mode(n->mode))
		ck_pb(ck, F2FS_PB_INODE_BAD_MODE, AT(A_INO(ino), A_BLK(n->blkaddr), A_FOUND(n->mode)),
		      "inode %u: mode 0%o has no valid file type", ino, n->mode);
	if (i->i_inline & F2FS_EXTRA_ATTR) {
		uint32_t isize = le16_get(i->extra.i_extra_isize);

		if (!(ck->features & F2FS_FEATURE_EXTRA_ATTR) || isize < F2FS_EXTRA_ISIZE_BASE ||
		    isize > F2FS_EXTRA_ISIZE_COMPRESS || isize % 4) {
			ck_pb(ck, F2FS_PB_INODE_EXTRA_ISIZE, AT(A_INO(ino), A_FOUND(isize)),
			      (ck->features & F2FS_FEATURE_EXTRA_ATTR) ?
			      "inode %u: i_extra_isize %u out of range" :
			      "inode %u: extra attributes (%u bytes) without the extra_attr feature",
			      ino, isize);
			n->state |= IR_BROKEN | IR_NOCOUNT;
			return 0;
		}
		extra = isize / 4;
	}
	xwords = f2fs_inode_inline_xattr_words(i, ck->features);
	if ((ck->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR) && (i->i_inline & F2FS_EXTRA_ATTR) &&
	    (i->i_inline & F2FS_INLINE_XATTR) && (xwords == 0 || xwords > MAX_INLINE_XATTR_WORDS)) {
		ck_pb(ck, F2FS_PB_INODE_INLINE_XATTR_SIZE,
		      AT(A_INO(ino), A_EXP(MAX_INLINE_XATTR_WORDS), A_FOUND(xwords)),
		      "inode %u: i_inline_xattr_size %u words (1..%u allowed)", ino, xwords,
		      MAX_INLINE_XATTR_WORDS);
		n->state |= IR_BROKEN | IR_NOCOUNT;
		return 0;
	}
	if (extra + xwords + 1 >= F2FS_DEF_ADDRS_PER_INODE) {
		ck_pb(ck, F2FS_PB_INODE_INLINE_XATTR_SIZE, AT(A_INO(ino), A_FOUND(xwords)),
		      "inode %u: extra and inline xattr words (%u + %u) fill i_addr", ino,
		      extra, xwords);
		n->state |= IR_BROKEN | IR_NOCOUNT;
		return 0;
	}
	if (f2fs_inode_has_checksum(nd, ck->features)) {
		uint32_t want = f2fs_inode_crc(nd, f2fs_fs_inode_crc_seed(ck->fs));
		uint32_t got = le32_get(i->extra.i_inode_checksum);

		if (want != got)
			ck_pb(ck, F2FS_PB_INODE_BAD_CHECKSUM,
			      AT(A_INO(ino), A_BLK(n->blkaddr), A_EXP(want), A_FOUND(got)),
			      "inode %u: checksum 0x%08x, computed 0x%08x", ino, got, want);
	}
	addrs = F2FS_DEF_ADDRS_PER_INODE - extra - xwords;
	if (dir)
		dir->addrs = (uint16_t)addrs;
	ck_xattr_inode(ck, ino, nd, xwords);
	if (type == F2FS_S_IFDIR && (depth > F2FS_MAX_DIR_HASH_DEPTH ||
				     i->i_dir_level > F2FS_MAX_DIR_HASH_DEPTH))
		ck_pb(ck, F2FS_PB_INODE_DEPTH, AT(A_INO(ino), A_FOUND(depth)),
		      "directory %u: i_current_depth %u, i_dir_level %u (at most %u)", ino,
		      depth, i->i_dir_level, F2FS_MAX_DIR_HASH_DEPTH);
	if (i->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)) {
		uint32_t cap = 4 * (addrs - 1);
		int bad = 0;

		const char *why = NULL;

		if ((i->i_inline & F2FS_INLINE_DATA) && (i->i_inline & F2FS_INLINE_DENTRY))
			why = "both inline data and inline dentries";
		else if ((i->i_inline & F2FS_INLINE_DENTRY) && type != F2FS_S_IFDIR)
			why = "inline dentries in a non-directory";
		else if ((i->i_inline & F2FS_INLINE_DATA) && type != F2FS_S_IFREG &&
			 type != F2FS_S_IFLNK)
			why = "inline data in a file that cannot have it";
		for (int k = 0; k < F2FS_DEF_NIDS_PER_INODE && !why; k++)
			if (i->i_nid[k])
				why = "an inline inode with node pointers";
		if (why) {
			ck_pb(ck, F2FS_PB_INODE_INLINE_FLAGS, AT(A_INO(ino), A_FOUND(i->i_inline)),
			      "inode %u (mode 0%o, i_inline 0x%02x): %s", ino, n->mode,
			      i->i_inline, why);
			bad = 1;
		}
		if (!bad && (i->i_inline & F2FS_INLINE_DATA) && size > cap)
			ck_pb(ck, F2FS_PB_INODE_INLINE_SIZE, AT(A_INO(ino), A_EXP(cap), A_FOUND(size)),
			      "inode %u: i_size %llu exceeds the %u-byte inline area", ino,
			      (unsigned long long)size, cap);
		if (bad)
			n->state |= IR_BROKEN | IR_NOCOUNT;
	} else {
		static const uint32_t nid_ofs[F2FS_DEF_NIDS_PER_INODE] = {
			1, 2, 3, 3 + NPB + 1, 5 + 2 * NPB,
		};
		uint64_t maxb = addrs + 2 * (uint64_t)NPB + 2 * (uint64_t)NPB * NPB +
				(uint64_t)NPB * NPB * NPB;

		if (type == F2FS_S_IFDIR && size % F2FS_BLKSIZE)
			ck_pb(ck, F2FS_PB_INODE_SIZE, AT(A_INO(ino), A_FOUND(size)),
			      "directory %u: i_size %llu is not a multiple of 4096", ino,
			      (unsigned long long)size);
		if (size / F2FS_BLKSIZE > maxb)
			ck_pb(ck, F2FS_PB_INODE_SIZE, AT(A_INO(ino), A_FOUND(size)),
			      "inode %u: i_size %llu beyond the largest file", ino,
			      (unsigned long long)size);
		const uint8_t *ptrs = (const uint8_t *)i + offsetof(struct f2fs_inode, i_addr) +
				      4 * extra;

		o.dir = dir != NULL;
		/* a device's pointers hold its number (i_addr[0] or [1]), no blocks */
		if (type == F2FS_S_IFCHR || type == F2FS_S_IFBLK)
			addrs = 0;
		for (uint32_t k = next_ptr(ptrs, 0, addrs); k < addrs; k = next_ptr(ptrs, k + 1, addrs)) {
			ret = data_ptr(ck, &o, k, le32_get(i->i_addr[extra + k]));
			if (ret)
				return ret;
		}
		for (int k = 0; k < F2FS_DEF_NIDS_PER_INODE; k++) {
			uint32_t c = le32_get(i->i_nid[k]);

			if (c && (ret = add_edge(ck, c, ino, nid_ofs[k], 0)))
				return ret;
		}
	}
	n->u.i.bdiff -= o.ndata;
	if (dir && (i->i_inline & F2FS_INLINE_DENTRY) && !(n->state & IR_BROKEN) &&
	    (ret = add_dblk(ck, n->blkaddr, ino, 0, 1)))
		return ret;
	if (type == F2FS_S_IFLNK && size == 0)
		ck_pb(ck, F2FS_PB_INODE_SIZE, AT(A_INO(ino), A_FOUND(0)),
		      "symlink %u: empty target", ino);
	if (le32_get(i->i_xattr_nid))
		return add_edge(ck, le32_get(i->i_xattr_nid), ino, F2FS_XATTR_NODE_OFFSET, 1);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Index in ck.revmap of the first nid the NAT maps to addr (ck.nnids when
 * none). Needed only when a node footer does not match or a node block
 * cannot be read, so the table behind it is made on first use. */
static int revmap_find(struct ck *ck, uint32_t addr, size_t *at)
{
	size_t lo = 0, hi = ck->nnids;

	if (!ck->revmap) {
		struct ck_nid_iter it = { 0 };
		struct ck_nid *n;
		uint32_t x;
		size_t k = 0;

		ck->revmap = malloc(((size_t)ck->nnids + 1) * sizeof(*ck->revmap));
		if (!ck->revmap)
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for the node map");
		while (ck_nid_next(ck, &it, &x, &n))
			ck->revmap[k++] = (uint64_t)n->blkaddr << 32 | x;
		ck_sort_keys(ck->revmap, k);
	}
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if ((uint32_t)(ck->revmap[m] >> 32) < addr)
			lo = m + 1;
		else
			hi = m;
	}
	*at = lo < ck->nnids && (uint32_t)(ck->revmap[lo] >> 32) == addr ? lo : ck->nnids;
	return 0;
}

/* The nid the NAT maps to addr. */
static int nid_at(struct ck *ck, uint32_t addr, uint32_t *nid)
{
	size_t k;
	int ret = revmap_find(ck, addr, &k);

	if (ret)
		return ret;
	if (k == ck->nnids)
		return f2fs_fail(ck->err, -F2FS_E_CORRUPT, "no nid for node block 0x%x", addr);
	*nid = (uint32_t)ck->revmap[k];
	return 0;
}

void ck_node_unreadable(struct ck *ck, uint32_t nid, uint32_t addr, const struct f2fs_error *e)
{
	const struct ck_nid *n = ck_nid_find(ck, nid);
	uint32_t ino = n ? ck_nid_ino(n, nid) : 0;

	if (ino == nid)
		ck_pb(ck, F2FS_PB_NODE_UNREADABLE, AT(A_NID(nid), A_INO(ino), A_BLK(addr)),
		      "inode %u: its node block 0x%x could not be read (%s)", nid, addr,
		      f2fs_strerror(e->code));
	else
		ck_pb(ck, F2FS_PB_NODE_UNREADABLE, AT(A_NID(nid), A_INO(ino), A_BLK(addr)),
		      "nid %u (a node of inode %u): block 0x%x could not be read (%s)", nid,
		      ino, addr, f2fs_strerror(e->code));
}

/* The footer names no nid whose NAT entry is this block. */
static int footer_mismatch(struct ck *ck, uint32_t addr, uint32_t fnid)
{
	uint32_t nid = 0;
	int ret = nid_at(ck, addr, &nid);

	if (ret)
		return ret;
	ck_pb(ck, F2FS_PB_NODE_FOOTER_NID,
	      AT(A_NID(nid), A_BLK(addr), A_EXP(nid), A_FOUND(fnid)),
	      "node block 0x%x of nid %u has footer nid %u", addr, nid, fnid);
	ck_nid_find(ck, nid)->flags |= NR_BAD;
	return 0;
}

static int sweep_direct(struct ck *ck, struct ck_nid *n, uint32_t nid, uint32_t ino,
			const struct f2fs_node *nd)
{
	struct owner o = { nid, ino, 0, 0 };
	const struct ck_nid *own = ck_inode(ck, ino);
	const uint8_t *ptrs = (const uint8_t *)nd + offsetof(struct f2fs_node, dn);
	int ret;

	for (uint32_t k = next_ptr(ptrs, 0, F2FS_ADDRS_PER_BLOCK); k < F2FS_ADDRS_PER_BLOCK;
	     k = next_ptr(ptrs, k + 1, F2FS_ADDRS_PER_BLOCK))
		if ((ret = data_ptr(ck, &o, k, le32_get(nd->dn.addr[k]))))
			return ret;
	n->u.n.ndata = o.ndata;
	/* its inode may be a directory not read yet: then read it again later */
	if ((!own || (own->mode & F2FS_S_IFMT) == F2FS_S_IFDIR) &&
	    push_u32(&ck->dnodes, &ck->ndnodes, &ck->dnodes_cap, nid))
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for direct nodes");
	return 0;
}

/* Each node block the NAT names, in address order. */
static int sweep_cb(struct ck *ck, uint32_t item, uint32_t addr, const uint8_t *blk, void *arg)
{
	const struct f2fs_node *nd = (const void *)blk;
	uint32_t nid = le32_get(nd->footer.nid), fino = le32_get(nd->footer.ino), ino;
	uint32_t ofs = le32_get(nd->footer.flag) >> F2FS_NODE_OFS_SHIFT;
	struct ck_nid *n = ck_nid_find(ck, nid);
	enum node_kind kind = kind_of(ofs);
	int ret;

	(void)item;
	(void)arg;
	ck->r->stats.node_blocks_read++;
	if (!n || n->blkaddr != addr)
		return footer_mismatch(ck, addr, nid);
	ino = ck_nid_ino(n, nid);
	if (fino != ino) {
		ck_pb(ck, F2FS_PB_NAT_INO_MISMATCH,
		      AT(A_NID(nid), A_BLK(addr), A_EXP(fino), A_FOUND(ino)),
		      "nid %u: NAT ino %u, node footer ino %u", nid, ino, fino);
		n->flags |= NR_BAD;
		return 0;
	}
	if ((nid == ino) != (kind == NK_INODE) || kind == NK_BAD) {
		ck_pb(ck, F2FS_PB_NODE_BAD_OFFSET,
		      AT(A_NID(nid), A_INO(ino), A_BLK(addr), A_FOUND(ofs)),
		      nid == ino ? "inode %u: node offset %u, expected 0" :
		      "nid %u: impossible node offset %u", nid, ofs);
		n->flags |= NR_BAD;
		return 0;
	}
	if (!(n->flags & NR_SELF))
		n->u.n.ofs = ofs;
	n->flags |= NR_READ;
	ck->r->stats.nodes++;
	ret = note_owner(ck, addr, nid, 0, 1);
	if (ret)
		return ret;
	switch (kind) {
	case NK_INODE:
		n->flags |= NR_INODE;
		return sweep_inode(ck, n, nid, nd);
	case NK_DIRECT:
		return sweep_direct(ck, n, nid, ino, nd);
	case NK_INDIRECT:
	case NK_DOUBLE:
		for (uint32_t k = 0; k < NPB; k++) {
			uint32_t c = le32_get(nd->in.nid[k]);

			if (c && (ret = add_edge(ck, c, ino, child_ofs(ofs, k), 0)))
				return ret;
		}
		return 0;
	default:
		return 0;
	}
}

/* A node block the sweep could not read: every nid the NAT maps there is
 * reported and then treated as a node whose block is unusable, as one with
 * a bad footer (NR_BAD, never NR_READ). */
static int sweep_bad(struct ck *ck, uint32_t item, uint32_t addr, const struct f2fs_error *e,
		     void *arg)
{
	size_t k;
	int ret = revmap_find(ck, addr, &k);

	(void)item;
	(void)arg;
	if (ret)
		return ret;
	if (k == ck->nnids)
		return f2fs_fail(ck->err, -F2FS_E_CORRUPT, "no nid for node block 0x%x", addr);
	for (; k < ck->nnids && (uint32_t)(ck->revmap[k] >> 32) == addr; k++) {
		uint32_t nid = (uint32_t)ck->revmap[k];

		ck_node_unreadable(ck, nid, addr, e);
		ck_nid_find(ck, nid)->flags |= NR_BAD | NR_UNREADABLE;
	}
	return 0;
}

static void check_edges(struct ck *ck)
{
	struct ck_nid_iter it = { 0 };
	struct ck_nid *n;
	uint32_t nid;

	for (size_t e = 0; e < ck->nedges; e++) {
		const struct ck_edge *ed = &ck->edges[e];
		struct ck_nid *c = ck_nid_find(ck, ed->child);
		struct ck_nid *owner = ck_inode(ck, ed->owner);
		enum f2fs_problem_code code_missing = ed->xattr ? F2FS_PB_INODE_XATTR_NID :
				F2FS_PB_NODE_CHILD_MISSING;
		uint32_t c_ino, c_ofs;

		if (!c) {
			ck_pb(ck, code_missing, AT(A_INO(ed->owner), A_NID(ed->child)),
			      "inode %u: pointer to nid %u, which is not in use", ed->owner,
			      ed->child);
			if (owner)
				owner->state |= IR_NOCOUNT;
			continue;
		}
		if (!(c->flags & NR_READ)) {
			/* what an unreadable node maps cannot be counted */
			if ((c->flags & NR_UNREADABLE) && owner)
				owner->state |= IR_NOCOUNT;
			continue;
		}
		c_ino = ck_nid_ino(c, ed->child);
		c_ofs = ck_nid_ofs(c);
		if (c_ino != ed->owner) {
			ck_pb(ck, ed->xattr ? F2FS_PB_INODE_XATTR_NID : F2FS_PB_NODE_WRONG_OWNER,
			      AT(A_INO(ed->owner), A_NID(ed->child), A_EXP(ed->owner), A_FOUND(c_ino)),
			      "inode %u: pointer to nid %u, a node of inode %u", ed->owner,
			      ed->child, c_ino);
			if (owner)
				owner->state |= IR_NOCOUNT;
			continue;
		}
		if (c->flags & NR_REACHED) {
			ck_pb(ck, F2FS_PB_NODE_MULTIPLE_PARENTS,
			      AT(A_INO(ed->owner), A_NID(ed->child), A_BLK(c->blkaddr)),
			      "inode %u: nid %u is pointed to twice", ed->owner, ed->child);
			continue;
		}
		if (c_ofs != ed->expected_ofs) {
			ck_pb(ck, ed->xattr ? F2FS_PB_INODE_XATTR_NID : F2FS_PB_NODE_BAD_OFFSET,
			      AT(A_INO(ed->owner), A_NID(ed->child), A_BLK(c->blkaddr),
				 A_EXP(ed->expected_ofs), A_FOUND(c_ofs)),
			      "inode %u: nid %u has node offset %u, its place needs %u",
			      ed->owner, ed->child, c_ofs, ed->expected_ofs);
			if (owner)
				owner->state |= IR_NOCOUNT;
			continue;
		}
		c->flags |= NR_REACHED;
		/* an inode cannot get here: its offset 0 is no child's */
		if (owner)
			owner->u.i.bdiff -= 1 + c->u.n.ndata;
	}
	while (ck_nid_next(ck, &it, &nid, &n))
		if ((n->flags & (NR_READ | NR_INODE | NR_REACHED)) == NR_READ)
			ck_pb(ck, F2FS_PB_NODE_UNREACHABLE,
			      AT(A_NID(nid), A_INO(ck_nid_ino(n, nid)), A_BLK(n->blkaddr),
				 A_FOUND(ck_nid_ofs(n))),
			      "nid %u (offset %u of inode %u) is not reached from its inode",
			      nid, ck_nid_ofs(n), ck_nid_ino(n, nid));
}

/* ---- directories ------------------------------------------------------ */

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

/* Hash level and bucket of dentry block fofs; 0 if beyond the deepest level. */
static int bucket_of(uint64_t fofs, uint32_t dir_level, uint64_t *bucket, uint64_t *nbuckets)
{
	uint64_t start = 0;

	for (uint32_t lv = 0; lv < F2FS_MAX_DIR_HASH_DEPTH; lv++) {
		uint64_t nb = lv + dir_level < 31 ? 1ull << (lv + dir_level) : F2FS_MAX_DIR_BUCKETS;
		uint64_t bpb = lv < F2FS_MAX_DIR_HASH_DEPTH / 2 ? 2 : 4;

		if (fofs < start + nb * bpb) {
			*bucket = (fofs - start) / bpb;
			*nbuckets = nb;
			return 1;
		}
		start += nb * bpb;
	}
	return 0;
}

static void dentry(struct ck *ck, struct ck_dir *dir, const uint8_t *name, uint32_t len,
		   uint32_t hash, uint32_t ino, uint8_t ftype, uint64_t fofs, uint32_t blkaddr)
{
	int dot = len == 1 && name[0] == '.';
	int dotdot = len == 2 && name[0] == '.' && name[1] == '.';
	uint32_t d = dir->nid;
	struct ck_nid *child;
	struct ck_dir *cd;
	uint8_t want_type;

	ck->r->stats.dentries++;
	if (dot) {
		if (dir->state & DR_HAS_DOT)
			ck_pb(ck, F2FS_PB_DIR_BAD_NAME, AT(A_INO(d), A_BLK(blkaddr)),
			      "directory %u: a second \".\" entry", d);
		else if (ino != d)
			ck_pb(ck, F2FS_PB_DIR_DOT, AT(A_INO(d), A_EXP(d), A_FOUND(ino)),
			      "directory %u: \".\" names inode %u", d, ino);
		dir->state |= DR_HAS_DOT;
		return;
	}
	if (dotdot) {
		if (dir->state & DR_HAS_DOTDOT)
			ck_pb(ck, F2FS_PB_DIR_BAD_NAME, AT(A_INO(d), A_BLK(blkaddr)),
			      "directory %u: a second \"..\" entry", d);
		else
			dir->dotdot = ino;
		dir->state |= DR_HAS_DOTDOT;
		return;
	}
	ck_names_add(ck, d, name, len, (dir->state & DR_CASEFOLD) != 0);
	if (memchr(name, '/', len) || memchr(name, 0, len))
		ck_pb(ck, F2FS_PB_DIR_BAD_NAME, AT(A_DIRNAME(d, name, len), A_INO(ino), A_BLK(blkaddr)),
		      "directory %u: entry name contains '/' or NUL", d);
	if (!((dir->state & DR_CASEFOLD) && (dir->state & DR_ENCRYPTED))) {
		uint8_t folded[F2FS_NAME_LEN];
		const uint8_t *h = name;
		int ok = 1;

		if (dir->state & DR_CASEFOLD) {
			ok = f2fs_casefold_ascii(name, len, folded);
			h = folded;
		}
		if (ok) {
			uint32_t want = f2fs_dentry_hash(h, len);

			if (want != hash)
				ck_pb(ck, F2FS_PB_DIR_BAD_HASH,
				      AT(A_DIRNAME(d, name, len), A_INO(ino), A_BLK(blkaddr),
					 A_EXP(want), A_FOUND(hash)),
				      "directory %u: entry hash 0x%08x, the name hashes to 0x%08x",
				      d, hash, want);
			else if (fofs != UINT64_MAX) {
				uint64_t bucket, nb;

				if (bucket_of(fofs, dir->dir_level, &bucket, &nb) && hash % nb != bucket)
					ck_pb(ck, F2FS_PB_DIR_WRONG_BUCKET,
					      AT(A_DIRNAME(d, name, len), A_INO(ino), A_BLK(blkaddr),
						 A_EXP(hash % nb), A_FOUND(bucket)),
					      "directory %u: entry in bucket %llu of %llu, its hash belongs in %llu",
					      d, (unsigned long long)bucket, (unsigned long long)nb,
					      (unsigned long long)(hash % nb));
			}
		}
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
			return;
		}
		/* a node the sweep read that is no inode (an inode it read has
		 * NR_INODE); other nids are not in use or their block is broken */
		if (nn && (nn->flags & NR_READ))
			ck_pb(ck, F2FS_PB_INODE_NOT_INODE,
			      AT(A_DIRNAME(d, name, len), A_NID(ino), A_BLK(nn->blkaddr),
				 A_FOUND(ck_nid_ofs(nn))),
			      "directory %u: entry names nid %u (offset %u of inode %u), which is not an inode",
			      d, ino, ck_nid_ofs(nn), ck_nid_ino(nn, ino));
		else
			ck_pb(ck, F2FS_PB_DIR_DANGLING,
			      AT(A_DIRNAME(d, name, len), A_INO(ino), A_BLK(blkaddr)),
			      "directory %u: entry names inode %u, which does not exist", d, ino);
		return;
	}
	want_type = f2fs_file_type_of_mode(child->mode);
	if (ftype != want_type)
		ck_pb(ck, F2FS_PB_DIR_FILE_TYPE,
		      AT(A_DIRNAME(d, name, len), A_INO(ino), A_EXP(want_type), A_FOUND(ftype)),
		      "directory %u: entry type %u, inode %u has mode 0%o", d, ftype, ino,
		      child->mode);
	child->u.i.refs++;
	cd = ck_dir_of(ck, child);
	if (cd) {
		dir->subdirs++;
		if (cd->parent || ino == F2FS_ROOT_INO)
			ck_pb(ck, F2FS_PB_DIR_MULTIPLE_PARENTS,
			      AT(A_DIRNAME(d, name, len), A_INO(ino), A_EXP(cd->parent)),
			      "directory %u also has an entry in directory %u", ino, d);
		else
			cd->parent = d;
	} else if (!child->u.i.aux) {
		child->u.i.aux = d;
	}
}

static void scan_area(struct ck *ck, struct ck_dir *dir, const struct darea *a,
		      uint64_t fofs, uint32_t blkaddr)
{
	uint32_t i = 0;

	while (i < a->nslots) {
		const uint8_t *de = a->dentry + (size_t)i * sizeof(struct f2fs_dir_entry);
		uint32_t len, slots;

		if (!bit_le(a->bitmap, i)) {
			i++;
			continue;
		}
		len = (uint32_t)de[8] | (uint32_t)de[9] << 8;
		slots = f2fs_dentry_slots(len);
		if (len == 0 || len > F2FS_NAME_LEN || i + slots > a->nslots) {
			ck_pb(ck, F2FS_PB_DIR_BAD_NAME_LEN,
			      AT(A_INO(dir->nid), A_BLK(blkaddr), A_FOUND(len)),
			      "directory %u: slot %u has name length %u", dir->nid, i, len);
			/* skip the empty continuation slots of the broken entry */
			for (i++; i < a->nslots && bit_le(a->bitmap, i); i++) {
				const uint8_t *z = a->dentry + (size_t)i * sizeof(struct f2fs_dir_entry);

				if (le32_load(z) | le32_load(z + 4) | z[8] | z[9] | z[10])
					break;
			}
			continue;
		}
		for (uint32_t k = 1; k < slots; k++)
			if (!bit_le(a->bitmap, i + k)) {
				ck_pb(ck, F2FS_PB_DIR_BITMAP,
				      AT(A_DIRNAME(dir->nid, a->names + (size_t)i * F2FS_SLOT_LEN, len),
					 A_BLK(blkaddr), A_FOUND(i + k)),
				      "directory %u: slot %u of a %u-slot name is not marked used",
				      dir->nid, i + k, slots);
				break;
			}
		dentry(ck, dir, a->names + (size_t)i * F2FS_SLOT_LEN, len, le32_load(de),
		       le32_load(de + 4), de[10], fofs, blkaddr);
		i += slots;
	}
}

static int dentry_cb(struct ck *ck, uint32_t item, uint32_t addr, const uint8_t *blk, void *arg)
{
	const struct ck_dblk *b = &ck->dblks[item];
	struct ck_nid *n = ck_nid_find(ck, b->nid);
	struct darea a;

	(void)arg;
	if (b->inl) {
		const struct f2fs_node *nd = (const void *)blk;
		struct ck_dir *dir = ck_dir_of(ck, n);
		uint32_t extra = f2fs_inode_extra_words(&nd->i);
		uint32_t size = 4 * (dir->addrs - 1);
		uint32_t ns = size * 8 / (DENTRY_SLOT * 8 + 1);
		const uint8_t *base = (const uint8_t *)&nd->i.i_addr[extra + 1];

		/* the block was validated in the sweep; re-check it is the same */
		if (le32_get(nd->footer.nid) != b->nid || extra * 4 + 4 * dir->addrs > 4 * F2FS_DEF_ADDRS_PER_INODE)
			return 0;
		a.bitmap = base;
		a.dentry = base + size - ns * DENTRY_SLOT;
		a.names = base + size - ns * F2FS_SLOT_LEN;
		a.nslots = ns;
		ck->r->stats.dentry_blocks_read++;
		scan_area(ck, dir, &a, UINT64_MAX, addr);
	} else {
		const struct f2fs_dentry_block *db = (const void *)blk;
		struct ck_dir *dir = ck_dir_of(ck, ck_inode(ck, ck_nid_ino(n, b->nid)));
		uint64_t fofs = n->flags & NR_INODE ? b->idx :
				direct_base(ck_nid_ofs(n), dir->addrs) + b->idx;

		if (fofs >= (dir->size + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE)
			ck_pb(ck, F2FS_PB_DIR_BLOCK_BEYOND_SIZE,
			      AT(A_INO(dir->nid), A_BLK(addr), A_EXP(dir->size / F2FS_BLKSIZE),
				 A_FOUND(fofs)),
			      "directory %u: block %llu mapped beyond i_size %llu", dir->nid,
			      (unsigned long long)fofs, (unsigned long long)dir->size);
		a.bitmap = db->dentry_bitmap;
		a.dentry = (const uint8_t *)db->dentry;
		a.names = (const uint8_t *)db->filename;
		a.nslots = F2FS_NR_DENTRY_IN_BLOCK;
		ck->r->stats.dentry_blocks_read++;
		scan_area(ck, dir, &a, fofs, addr);
	}
	return 0;
}

/* Is (nid, idx) a pointer whose block another pointer owned first? */
static int lost_claim(const struct ck *ck, uint32_t nid, uint32_t idx)
{
	uint64_t key = (uint64_t)nid << 32 | idx;

	return ck->nlost && bsearch(&key, ck->lost, ck->nlost, sizeof(key), cmp_u64);
}

/* A direct node of a directory, read again: its blocks as the sweep kept them. */
static int dnode_cb(struct ck *ck, uint32_t item, uint32_t addr, const uint8_t *blk, void *arg)
{
	const struct f2fs_node *nd = (const void *)blk;
	uint32_t nid = ck->dnodes[item];
	int ret;

	(void)addr;
	(void)arg;
	for (uint32_t k = 0; k < F2FS_ADDRS_PER_BLOCK; k++) {
		uint32_t a = le32_get(nd->dn.addr[k]);

		if (a == F2FS_NULL_ADDR || a == F2FS_COMPRESS_ADDR || a == F2FS_NEW_ADDR ||
		    !ck_in_main(ck, a) || lost_claim(ck, nid, k))
			continue;
		if ((ret = add_dblk(ck, a, nid, k, 0)))
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
	ck_node_unreadable(ck, ck->dnodes[item], addr, e);
	return 0;
}

/* Directory blocks held by direct nodes: those nodes are read again (large
 * directories only) rather than every data pointer being kept. */
static int read_dir_dnodes(struct ck *ck)
{
	uint64_t *keys = NULL;
	size_t n = 0, cap = 0;
	int ret;

	for (size_t k = 0; k < ck->ndnodes; k++) {
		const struct ck_nid *nn = ck_nid_find(ck, ck->dnodes[k]);
		const struct ck_nid *in = ck_inode(ck, ck_nid_ino(nn, ck->dnodes[k]));
		const struct ck_dir *d = ck_dir_of(ck, in);

		if (!d || (in->state & IR_BROKEN) || (d->inline_flags & F2FS_INLINE_DENTRY) ||
		    !(nn->flags & NR_REACHED))
			continue;
		if (push_u64(&keys, &n, &cap, (uint64_t)nn->blkaddr << 32 | k)) {
			free(keys);
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for directory blocks");
		}
	}
	if (!n)
		return 0;
	if (ck->nlost)
		ck_sort_keys(ck->lost, ck->nlost);
	ck_sort_keys(keys, n);
	ret = ck_read_sorted(ck, keys, n, "directory nodes", dnode_cb, dnode_bad, NULL);
	free(keys);
	return ret;
}

static int read_dirs(struct ck *ck)
{
	uint64_t *keys;
	int ret = read_dir_dnodes(ck);

	if (ret)
		return ret;
	keys = malloc((ck->ndblks + 1) * sizeof(*keys));
	if (!keys)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for directory blocks");
	for (size_t k = 0; k < ck->ndblks; k++)
		keys[k] = (uint64_t)ck->dblks[k].addr << 32 | (uint32_t)k;
	ck_sort_keys(keys, ck->ndblks);
	ret = ck_read_sorted(ck, keys, ck->ndblks, "directories", dentry_cb, NULL, NULL);
	free(keys);
	return ret;
}

/* ---- after the directories: links, parents, reachability --------------- */

static struct ck_dir *dir_rec(struct ck *ck, uint32_t ino)
{
	return ck_dir_of(ck, ck_inode(ck, ino));
}

/* 1 when dir's parent chain reaches the root, 0 when not; reports loops. */
static int connected(struct ck *ck, struct ck_dir *dir)
{
	struct ck_dir *p = dir;
	uint32_t steps = 0;
	int result;

	/* conn: 0 unknown, 1 on the current walk, 2 connected, 3 not */
	while (p && p->conn == 0) {
		if (p->nid == F2FS_ROOT_INO) {
			p->conn = 2;
			break;
		}
		p->conn = 1;
		p = p->parent ? dir_rec(ck, p->parent) : NULL;
		if (++steps > ck->ndirs)
			break;
	}
	if (p && p->conn == 1)
		ck_pb(ck, F2FS_PB_DIR_LOOP, AT(A_INO(p->nid)),
		      "directory %u is in a loop of directories", p->nid);
	result = p && p->conn == 2;
	for (p = dir; p && p->conn == 1; p = p->parent ? dir_rec(ck, p->parent) : NULL)
		p->conn = result ? 2 : 3;
	return result;
}

/* i_blocks does not match: read it again for the message (the record
 * keeps only the difference). */
static int report_iblocks(struct ck *ck, const struct ck_nid *in, uint32_t ino)
{
	const struct f2fs_node *nd = (const void *)ck->io;
	uint64_t i_blocks, counted;
	int ret = f2fs_dev_read(f2fs_fs_dev(ck->fs), in->blkaddr, ck->io, 1, ck->err);

	if (ret)
		return ret;
	i_blocks = le64_get(nd->i.i_blocks);
	counted = (uint32_t)((uint32_t)i_blocks - in->u.i.bdiff);
	ck_pb(ck, F2FS_PB_INODE_I_BLOCKS, AT(A_INO(ino), A_EXP(counted), A_FOUND(i_blocks)),
	      "inode %u: i_blocks %llu, counted %llu", ino, (unsigned long long)i_blocks,
	      (unsigned long long)counted);
	return 0;
}

static void check_dir(struct ck *ck, uint32_t ino, struct ck_dir *d)
{
	int dots_ok = d->inline_flags & F2FS_INLINE_DOTS;

	if (!(d->state & DR_HAS_DOT) && !dots_ok)
		ck_pb(ck, F2FS_PB_DIR_DOT, AT(A_INO(ino)),
		      "directory %u has no \".\" entry", ino);
	if (!(d->state & DR_HAS_DOTDOT) && !dots_ok)
		ck_pb(ck, F2FS_PB_DIR_DOTDOT, AT(A_INO(ino)),
		      "directory %u has no \"..\" entry", ino);
	else if ((d->state & DR_HAS_DOTDOT) && d->parent && d->dotdot != d->parent)
		ck_pb(ck, F2FS_PB_DIR_DOTDOT,
		      AT(A_INO(ino), A_EXP(d->parent), A_FOUND(d->dotdot)),
		      "directory %u: \"..\" names %u, the parent is %u", ino,
		      d->dotdot, d->parent);
	if (ino != F2FS_ROOT_INO && d->parent && d->pino != d->parent)
		ck_pb(ck, F2FS_PB_DIR_BAD_PINO,
		      AT(A_INO(ino), A_EXP(d->parent), A_FOUND(d->pino)),
		      "directory %u: i_pino %u, the parent is %u", ino, d->pino,
		      d->parent);
	if (ino != F2FS_ROOT_INO && d->parent)
		connected(ck, d);
}

/* Every inode, in nid order. */
static int check_inodes(struct ck *ck)
{
	struct ck_nid *root = ck_inode(ck, F2FS_ROOT_INO);
	struct ck_nid_iter it = { 0 };
	struct ck_nid *in;
	uint32_t ino;
	int ret;

	for (int q = 0; q < F2FS_MAX_QUOTAS; q++) {
		struct ck_nid *qn = ck_inode(ck, le32_get(ck->sb->qf_ino[q]));

		if (qn && le32_get(ck->sb->qf_ino[q]))
			qn->state |= IR_SPECIAL;
	}
	if (root && ck_dir_of(ck, root))
		ck_dir_of(ck, root)->parent = F2FS_ROOT_INO;
	else if (root)
		root->u.i.aux = F2FS_ROOT_INO;
	while (ck_nid_next(ck, &it, &ino, &in)) {
		struct ck_dir *d = ck_dir_of(ck, in);
		int special = ino == F2FS_ROOT_INO || (in->state & (IR_SPECIAL | IR_ORPHAN));
		uint64_t want;

		if (!(in->flags & NR_INODE))
			continue;
		if (!(in->state & IR_NOCOUNT) && (in->u.i.bdiff || (in->state & IR_BIG_IBLOCKS)) &&
		    (ret = report_iblocks(ck, in, ino)))
			return ret;
		if (in->u.i.refs == 0 && !special) {
			ck_pb(ck, F2FS_PB_INODE_UNREACHABLE, AT(A_INO(ino), A_FOUND(in->u.i.links)),
			      "inode %u (mode 0%o, %u links) has no directory entry", ino,
			      in->mode, in->u.i.links);
			continue;
		}
		if (d && !(in->state & IR_BROKEN))
			check_dir(ck, ino, d);
		if (in->state & IR_SPECIAL)
			continue;
		want = in->state & IR_ORPHAN ? 0 : d ? 2 + (uint64_t)d->subdirs : in->u.i.refs;
		if (in->u.i.links != want && !(d && (in->state & IR_BROKEN)))
			ck_pb(ck, F2FS_PB_INODE_LINKS,
			      AT(A_INO(ino), A_EXP(want), A_FOUND(in->u.i.links)),
			      "inode %u: %u links, %llu found", ino, in->u.i.links,
			      (unsigned long long)want);
	}
	return 0;
}

int ck_tree(struct ck *ck)
{
	struct ck_nid *root;
	int ret;

	ck->segfp = calloc((size_t)ck->main_segs + 1, sizeof(*ck->segfp));
	if (!ck->segfp)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for the node sweep");
	/* node blocks in address order, straight from the map the NAT filled */
	ret = ck_read_map(ck, ck->nodemap, ck->main_end - ck->main_blkaddr, "nodes",
			  sweep_cb, sweep_bad, NULL);
	if (ret)
		return ret;
	check_edges(ck);
	root = ck_inode(ck, F2FS_ROOT_INO);
	if (!root || (root->mode & F2FS_S_IFMT) != F2FS_S_IFDIR)
		ck_pb(ck, F2FS_PB_ROOT_BAD, AT(A_INO(F2FS_ROOT_INO)),
		      "the root inode %s (mode 0%o)",
		      root ? "is not a directory" : "does not exist or is unusable",
		      root ? root->mode : 0u);
	ret = ck_orphans(ck);
	if (ret)
		return ret;
	ret = read_dirs(ck);
	if (ret)
		return ret;
	return check_inodes(ck);
}
