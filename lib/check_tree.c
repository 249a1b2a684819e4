/*
 * Checker, the tree: every node block in use is read once, sorted by block
 * address; parent->child node pointers and data pointers are collected and
 * checked after the sweep; directory blocks are then read the same way and
 * their entries give link counts, parents and reachability.
 */
#include <f2fs/check.h>
#include <f2fs/crc.h>
#include <f2fs/dentry.h>
#include <f2fs/endian.h>
#include <f2fs/hash.h>
#include <f2fs/inode.h>

#include "check.h"

#include <errno.h>
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

static int add_blk(struct ck *ck, uint32_t addr, uint32_t nid, uint32_t idx, int node)
{
	if (ck->nblks == ck->blks_cap) {
		/* first guess: the blocks the SIT marks valid (exact when the
		 * image is consistent), so that no doubling slack is left over */
		size_t cap = ck->blks_cap ? ck->blks_cap * 2 :
			     ck->sit_valid_total + 16 > 4096 &&
			     ck->sit_valid_total < ck->main_end - ck->main_blkaddr ?
			     (size_t)ck->sit_valid_total + 16 : 4096;
		struct ck_blk *p = realloc(ck->blks, cap * sizeof(*p));

		if (!p)
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for block records");
		ck->blks = p;
		ck->blks_cap = cap;
	}
	ck->blks[ck->nblks++] = (struct ck_blk){ addr, nid, (uint16_t)idx, (uint8_t)node, 0 };
	return 0;
}

/* A data pointer of node n at index idx. */
static int data_ptr(struct ck *ck, struct ck_nid *n, uint32_t idx, uint32_t addr)
{
	const struct ck_seg *g;

	if (addr == F2FS_NULL_ADDR || addr == F2FS_COMPRESS_ADDR)
		return 0;
	n->ndata++;
	if (addr == F2FS_NEW_ADDR)
		return 0;
	if (!ck_in_main(ck, addr)) {
		ck_pb(ck, F2FS_PB_DATA_ADDR_OUT_OF_RANGE,
		      AT(A_NID(n->nid), A_INO(n->ino), A_BLK(addr), A_FOUND(idx)),
		      "nid %u pointer %u: block 0x%x outside the main area", n->nid, idx, addr);
		return 0;
	}
	ck->r->stats.data_blocks++;
	g = &ck->segs[ck_segno(ck, addr)];
	if (ck_claim(ck, addr)) {
		ck_pb(ck, F2FS_PB_BLOCK_MULTIPLY_OWNED,
		      AT(A_NID(n->nid), A_INO(n->ino), A_BLK(addr), A_FOUND(idx)),
		      "block 0x%x (nid %u pointer %u) is already in use", addr, n->nid, idx);
		return 0;
	}
	if (ck_seg_is_node(g->type) && ck_sit_valid(ck, addr))
		ck_pb(ck, F2FS_PB_DATA_SEGMENT_TYPE,
		      AT(A_NID(n->nid), A_INO(n->ino), A_BLK(addr), A_SEG(ck_segno(ck, addr)),
			 A_FOUND(g->type)),
		      "data block 0x%x lies in a segment of node type %u", addr, g->type);
	return add_blk(ck, addr, n->nid, idx, 0);
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

static struct ck_ino *new_ino(struct ck *ck, struct ck_nid *n)
{
	struct ck_ino *in;

	if (ck->ninos == ck->inos_cap) {
		/* first guess: the inodes the NAT names (exact when consistent) */
		uint32_t cap = ck->inos_cap ? ck->inos_cap * 2 :
			       ck->nat_inodes + 16 > 1024 ? ck->nat_inodes + 16 : 1024;
		struct ck_ino *p = realloc(ck->inos, (size_t)cap * sizeof(*p));

		if (!p)
			return NULL;
		ck->inos = p;
		ck->inos_cap = cap;
	}
	n->inode_idx = ck->ninos;
	in = &ck->inos[ck->ninos++];
	memset(in, 0, sizeof(*in));
	in->nid = n->nid;
	return in;
}

static int sweep_inode(struct ck *ck, struct ck_nid *n, const struct f2fs_node *nd)
{
	const struct f2fs_inode *i = &nd->i;
	struct ck_ino *in = new_ino(ck, n);
	uint32_t ino = n->nid, extra = 0, xwords, addrs;
	uint16_t type;
	int ret;

	if (!in)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for inodes");
	in->mode = le16_get(i->i_mode);
	in->inline_flags = i->i_inline;
	in->links = le32_get(i->i_links);
	in->size = le64_get(i->i_size);
	in->i_blocks = le64_get(i->i_blocks);
	in->pino = le32_get(i->i_pino);
	in->depth = le32_get(i->i_current_depth);
	in->dir_level = i->i_dir_level;
	in->counted = 1;
	type = in->mode & F2FS_S_IFMT;
	ck->r->stats.inodes++;
	if (type == F2FS_S_IFDIR)
		ck->r->stats.dirs++;
	else if (type == F2FS_S_IFREG)
		ck->r->stats.files++;
	else if (type == F2FS_S_IFLNK)
		ck->r->stats.symlinks++;
	else
		ck->r->stats.others++;
	if ((le32_get(i->i_flags) & F2FS_CASEFOLD_FL) && (ck->features & F2FS_FEATURE_CASEFOLD))
		in->state |= IR_CASEFOLD;
	if (le32_get(i->i_flags) & ENCRYPT_FL)
		in->state |= IR_ENCRYPTED;
	if (le32_get(i->i_flags) & F2FS_COMPR_FL)
		in->state |= IR_NOCOUNT;
	if (!valid_mode(in->mode))
		ck_pb(ck, F2FS_PB_INODE_BAD_MODE, AT(A_INO(ino), A_BLK(n->blkaddr), A_FOUND(in->mode)),
		      "inode %u: mode 0%o has no valid file type", ino, in->mode);
	if (i->i_inline & F2FS_EXTRA_ATTR) {
		uint32_t isize = le16_get(i->extra.i_extra_isize);

		if (!(ck->features & F2FS_FEATURE_EXTRA_ATTR) || isize < F2FS_EXTRA_ISIZE_BASE ||
		    isize > F2FS_EXTRA_ISIZE_COMPRESS || isize % 4) {
			ck_pb(ck, F2FS_PB_INODE_EXTRA_ISIZE, AT(A_INO(ino), A_FOUND(isize)),
			      (ck->features & F2FS_FEATURE_EXTRA_ATTR) ?
			      "inode %u: i_extra_isize %u out of range" :
			      "inode %u: extra attributes (%u bytes) without the extra_attr feature",
			      ino, isize);
			in->state |= IR_BROKEN | IR_NOCOUNT;
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
		in->state |= IR_BROKEN | IR_NOCOUNT;
		return 0;
	}
	if (extra + xwords + 1 >= F2FS_DEF_ADDRS_PER_INODE) {
		ck_pb(ck, F2FS_PB_INODE_INLINE_XATTR_SIZE, AT(A_INO(ino), A_FOUND(xwords)),
		      "inode %u: extra and inline xattr words (%u + %u) fill i_addr", ino,
		      extra, xwords);
		in->state |= IR_BROKEN | IR_NOCOUNT;
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
	in->addrs = addrs;
	if (type == F2FS_S_IFDIR && (in->depth > F2FS_MAX_DIR_HASH_DEPTH ||
				     in->dir_level > F2FS_MAX_DIR_HASH_DEPTH))
		ck_pb(ck, F2FS_PB_INODE_DEPTH, AT(A_INO(ino), A_FOUND(in->depth)),
		      "directory %u: i_current_depth %u, i_dir_level %u", ino, in->depth,
		      in->dir_level);
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
			      "inode %u (mode 0%o, i_inline 0x%02x): %s", ino, in->mode,
			      i->i_inline, why);
			bad = 1;
		}
		if (!bad && (i->i_inline & F2FS_INLINE_DATA) && in->size > cap)
			ck_pb(ck, F2FS_PB_INODE_INLINE_SIZE, AT(A_INO(ino), A_EXP(cap), A_FOUND(in->size)),
			      "inode %u: i_size %llu exceeds the %u-byte inline area", ino,
			      (unsigned long long)in->size, cap);
		if (bad)
			in->state |= IR_BROKEN | IR_NOCOUNT;
	} else {
		static const uint32_t nid_ofs[F2FS_DEF_NIDS_PER_INODE] = {
			1, 2, 3, 3 + NPB + 1, 5 + 2 * NPB,
		};
		uint64_t maxb = addrs + 2 * (uint64_t)NPB + 2 * (uint64_t)NPB * NPB +
				(uint64_t)NPB * NPB * NPB;

		if (type == F2FS_S_IFDIR && in->size % F2FS_BLKSIZE)
			ck_pb(ck, F2FS_PB_INODE_SIZE, AT(A_INO(ino), A_FOUND(in->size)),
			      "directory %u: i_size %llu is not a multiple of 4096", ino,
			      (unsigned long long)in->size);
		if (in->size / F2FS_BLKSIZE > maxb)
			ck_pb(ck, F2FS_PB_INODE_SIZE, AT(A_INO(ino), A_FOUND(in->size)),
			      "inode %u: i_size %llu beyond the largest file", ino,
			      (unsigned long long)in->size);
		for (uint32_t k = 0; k < addrs; k++) {
			ret = data_ptr(ck, n, k, le32_get(i->i_addr[extra + k]));
			if (ret)
				return ret;
		}
		for (int k = 0; k < F2FS_DEF_NIDS_PER_INODE; k++) {
			uint32_t c = le32_get(i->i_nid[k]);

			if (c && (ret = add_edge(ck, c, ino, nid_ofs[k], 0)))
				return ret;
		}
	}
	if (type == F2FS_S_IFLNK && in->size == 0)
		ck_pb(ck, F2FS_PB_INODE_SIZE, AT(A_INO(ino), A_FOUND(0)),
		      "symlink %u: empty target", ino);
	if (le32_get(i->i_xattr_nid))
		return add_edge(ck, le32_get(i->i_xattr_nid), ino, F2FS_XATTR_NODE_OFFSET, 1);
	return 0;
}

static int sweep_cb(struct ck *ck, uint32_t item, uint32_t addr, const uint8_t *blk, void *arg)
{
	const struct f2fs_node *nd = (const void *)blk;
	struct ck_nid *n = &ck->nids[item];
	uint32_t fnid = le32_get(nd->footer.nid), fino = le32_get(nd->footer.ino);
	uint32_t ofs = le32_get(nd->footer.flag) >> F2FS_NODE_OFS_SHIFT;
	enum node_kind kind = kind_of(ofs);
	int ret;

	(void)arg;
	ck->r->stats.node_blocks_read++;
	if (fnid != n->nid) {
		ck_pb(ck, F2FS_PB_NODE_FOOTER_NID,
		      AT(A_NID(n->nid), A_BLK(addr), A_EXP(n->nid), A_FOUND(fnid)),
		      "node block 0x%x of nid %u has footer nid %u", addr, n->nid, fnid);
		n->flags |= NR_BAD;
		return 0;
	}
	if (fino != n->ino) {
		ck_pb(ck, F2FS_PB_NAT_INO_MISMATCH,
		      AT(A_NID(n->nid), A_BLK(addr), A_EXP(fino), A_FOUND(n->ino)),
		      "nid %u: NAT ino %u, node footer ino %u", n->nid, n->ino, fino);
		n->flags |= NR_BAD;
		return 0;
	}
	if ((n->nid == n->ino) != (kind == NK_INODE) || kind == NK_BAD) {
		ck_pb(ck, F2FS_PB_NODE_BAD_OFFSET,
		      AT(A_NID(n->nid), A_INO(n->ino), A_BLK(addr), A_FOUND(ofs)),
		      n->nid == n->ino ? "inode %u: node offset %u, expected 0" :
		      "nid %u: impossible node offset %u", n->nid, ofs);
		n->flags |= NR_BAD;
		return 0;
	}
	n->ofs = ofs;
	n->flags |= NR_READ;
	ck->r->stats.nodes++;
	ret = add_blk(ck, addr, n->nid, 0, 1);
	if (ret)
		return ret;
	switch (kind) {
	case NK_INODE:
		n->flags |= NR_INODE;
		return sweep_inode(ck, n, nd);
	case NK_DIRECT:
		for (uint32_t k = 0; k < F2FS_ADDRS_PER_BLOCK; k++)
			if ((ret = data_ptr(ck, n, k, le32_get(nd->dn.addr[k]))))
				return ret;
		return 0;
	case NK_INDIRECT:
	case NK_DOUBLE:
		for (uint32_t k = 0; k < NPB; k++) {
			uint32_t c = le32_get(nd->in.nid[k]);

			if (c && (ret = add_edge(ck, c, n->ino, child_ofs(ofs, k), 0)))
				return ret;
		}
		return 0;
	default:
		return 0;
	}
}

static struct ck_ino *ino_rec(struct ck *ck, uint32_t ino)
{
	struct ck_nid *n = ck_nid_find(ck, ino);

	if (!n || n->inode_idx == UINT32_MAX)
		return NULL;
	return &ck->inos[n->inode_idx];
}

static void check_edges(struct ck *ck)
{
	for (size_t e = 0; e < ck->nedges; e++) {
		const struct ck_edge *ed = &ck->edges[e];
		struct ck_nid *c = ck_nid_find(ck, ed->child);
		struct ck_ino *owner = ino_rec(ck, ed->owner);
		enum f2fs_problem_code code_missing = ed->xattr ? F2FS_PB_INODE_XATTR_NID :
				F2FS_PB_NODE_CHILD_MISSING;

		if (!c) {
			ck_pb(ck, code_missing, AT(A_INO(ed->owner), A_NID(ed->child)),
			      "inode %u: pointer to nid %u, which is not in use", ed->owner,
			      ed->child);
			if (owner)
				owner->state |= IR_NOCOUNT;
			continue;
		}
		if (!(c->flags & NR_READ))
			continue;
		if (c->ino != ed->owner) {
			ck_pb(ck, ed->xattr ? F2FS_PB_INODE_XATTR_NID : F2FS_PB_NODE_WRONG_OWNER,
			      AT(A_INO(ed->owner), A_NID(ed->child), A_EXP(ed->owner), A_FOUND(c->ino)),
			      "inode %u: pointer to nid %u, a node of inode %u", ed->owner,
			      ed->child, c->ino);
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
		if (c->ofs != ed->expected_ofs) {
			ck_pb(ck, ed->xattr ? F2FS_PB_INODE_XATTR_NID : F2FS_PB_NODE_BAD_OFFSET,
			      AT(A_INO(ed->owner), A_NID(ed->child), A_BLK(c->blkaddr),
				 A_EXP(ed->expected_ofs), A_FOUND(c->ofs)),
			      "inode %u: nid %u has node offset %u, its place needs %u",
			      ed->owner, ed->child, c->ofs, ed->expected_ofs);
			if (owner)
				owner->state |= IR_NOCOUNT;
			continue;
		}
		c->flags |= NR_REACHED;
		if (owner)
			owner->counted += 1 + c->ndata;
	}
	for (uint32_t k = 0; k < ck->nnids; k++) {
		struct ck_nid *n = &ck->nids[k];

		if ((n->flags & (NR_READ | NR_INODE | NR_REACHED)) == NR_READ)
			ck_pb(ck, F2FS_PB_NODE_UNREACHABLE,
			      AT(A_NID(n->nid), A_INO(n->ino), A_BLK(n->blkaddr), A_FOUND(n->ofs)),
			      "nid %u (offset %u of inode %u) is not reached from its inode",
			      n->nid, n->ofs, n->ino);
		if (n->flags & NR_INODE)
			ck->inos[n->inode_idx].counted += n->ndata;
	}
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

static void dentry(struct ck *ck, struct ck_ino *dir, const uint8_t *name, uint32_t len,
		   uint32_t hash, uint32_t ino, uint8_t ftype, uint64_t fofs, uint32_t blkaddr)
{
	int dot = len == 1 && name[0] == '.';
	int dotdot = len == 2 && name[0] == '.' && name[1] == '.';
	uint32_t d = dir->nid;
	struct ck_ino *child;
	uint8_t want_type;

	ck->r->stats.dentries++;
	if (dot) {
		if (dir->state & IR_HAS_DOT)
			ck_pb(ck, F2FS_PB_DIR_BAD_NAME, AT(A_INO(d), A_BLK(blkaddr)),
			      "directory %u: a second \".\" entry", d);
		else if (ino != d)
			ck_pb(ck, F2FS_PB_DIR_DOT, AT(A_INO(d), A_EXP(d), A_FOUND(ino)),
			      "directory %u: \".\" names inode %u", d, ino);
		dir->state |= IR_HAS_DOT;
		return;
	}
	if (dotdot) {
		if (dir->state & IR_HAS_DOTDOT)
			ck_pb(ck, F2FS_PB_DIR_BAD_NAME, AT(A_INO(d), A_BLK(blkaddr)),
			      "directory %u: a second \"..\" entry", d);
		else
			dir->dotdot = ino;
		dir->state |= IR_HAS_DOTDOT;
		return;
	}
	if (memchr(name, '/', len) || memchr(name, 0, len))
		ck_pb(ck, F2FS_PB_DIR_BAD_NAME, AT(A_DIRNAME(d, name, len), A_INO(ino), A_BLK(blkaddr)),
		      "directory %u: entry name contains '/' or NUL", d);
	if (!((dir->state & IR_CASEFOLD) && (dir->state & IR_ENCRYPTED))) {
		uint8_t folded[F2FS_NAME_LEN];
		const uint8_t *h = name;
		int ok = 1;

		if (dir->state & IR_CASEFOLD) {
			for (uint32_t k = 0; k < len; k++) {
				if (name[k] & 0x80)
					ok = 0;
				folded[k] = (name[k] >= 'A' && name[k] <= 'Z') ?
					    (uint8_t)(name[k] + 32) : name[k];
			}
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
	child = ino_rec(ck, ino);
	if (!child) {
		ck_pb(ck, F2FS_PB_DIR_DANGLING, AT(A_DIRNAME(d, name, len), A_INO(ino), A_BLK(blkaddr)),
		      "directory %u: entry names inode %u, which does not exist", d, ino);
		return;
	}
	want_type = f2fs_file_type_of_mode(child->mode);
	if (ftype != want_type)
		ck_pb(ck, F2FS_PB_DIR_FILE_TYPE,
		      AT(A_DIRNAME(d, name, len), A_INO(ino), A_EXP(want_type), A_FOUND(ftype)),
		      "directory %u: entry type %u, inode %u has mode 0%o", d, ftype, ino,
		      child->mode);
	child->refs++;
	if ((child->mode & F2FS_S_IFMT) == F2FS_S_IFDIR) {
		dir->subdirs++;
		if (child->parent || ino == F2FS_ROOT_INO)
			ck_pb(ck, F2FS_PB_DIR_MULTIPLE_PARENTS,
			      AT(A_DIRNAME(d, name, len), A_INO(ino), A_EXP(child->parent)),
			      "directory %u also has an entry in directory %u", ino, d);
		else
			child->parent = d;
	} else if (!child->parent) {
		child->parent = d;
	}
}

static void scan_area(struct ck *ck, struct ck_ino *dir, const struct darea *a,
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

#define INLINE_ITEM 0x80000000u

static int dentry_cb(struct ck *ck, uint32_t item, uint32_t addr, const uint8_t *blk, void *arg)
{
	struct darea a;

	(void)arg;
	if (item & INLINE_ITEM) {
		const struct f2fs_node *nd = (const void *)blk;
		struct ck_nid *n = &ck->nids[item & ~INLINE_ITEM];
		struct ck_ino *dir = &ck->inos[n->inode_idx];
		uint32_t extra = f2fs_inode_extra_words(&nd->i);
		uint32_t size = 4 * (dir->addrs - 1);
		uint32_t ns = size * 8 / (DENTRY_SLOT * 8 + 1);
		const uint8_t *base = (const uint8_t *)&nd->i.i_addr[extra + 1];

		/* the block was validated in the sweep; re-check it is the same */
		if (le32_get(nd->footer.nid) != n->nid || extra * 4 + 4 * dir->addrs > 4 * F2FS_DEF_ADDRS_PER_INODE)
			return 0;
		a.bitmap = base;
		a.dentry = base + size - ns * DENTRY_SLOT;
		a.names = base + size - ns * F2FS_SLOT_LEN;
		a.nslots = ns;
		ck->r->stats.dentry_blocks_read++;
		scan_area(ck, dir, &a, UINT64_MAX, addr);
	} else {
		const struct ck_blk *b = &ck->blks[item];
		const struct f2fs_dentry_block *db = (const void *)blk;
		struct ck_nid *n = ck_nid_find(ck, b->nid);
		struct ck_ino *dir = ino_rec(ck, n->ino);
		uint64_t fofs = n->flags & NR_INODE ? b->idx : direct_base(n->ofs, dir->addrs) + b->idx;

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

static int push_key(uint64_t **keys, size_t *n, size_t *cap, uint64_t key)
{
	if (*n == *cap) {
		uint64_t *p = realloc(*keys, 2 * *cap * sizeof(**keys));

		if (!p)
			return -1;
		*keys = p;
		*cap *= 2;
	}
	(*keys)[(*n)++] = key;
	return 0;
}

static int read_dirs(struct ck *ck)
{
	uint64_t *keys;
	size_t n = 0, cap = 1024;
	int ret;

	/* grown as needed: directory blocks are few next to all the blocks */
	keys = malloc(cap * sizeof(*keys));
	if (!keys)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for directory blocks");
	for (uint32_t k = 0; k < ck->nnids; k++) {
		struct ck_nid *nn = &ck->nids[k];
		struct ck_ino *in;

		if (!(nn->flags & NR_INODE))
			continue;
		in = &ck->inos[nn->inode_idx];
		if ((in->mode & F2FS_S_IFMT) == F2FS_S_IFDIR && !(in->state & IR_BROKEN) &&
		    (in->inline_flags & F2FS_INLINE_DENTRY)) {
			if (push_key(&keys, &n, &cap, (uint64_t)nn->blkaddr << 32 | k | INLINE_ITEM))
				goto nomem;
		}
	}
	for (size_t k = 0; k < ck->nblks; k++) {
		const struct ck_blk *b = &ck->blks[k];
		struct ck_nid *nn;
		struct ck_ino *in;

		if (b->node)
			continue;
		nn = ck_nid_find(ck, b->nid);
		in = nn ? ino_rec(ck, nn->ino) : NULL;
		if (!in || (in->mode & F2FS_S_IFMT) != F2FS_S_IFDIR || (in->state & IR_BROKEN) ||
		    (in->inline_flags & F2FS_INLINE_DENTRY))
			continue;
		if (!(nn->flags & NR_INODE) && !(nn->flags & NR_REACHED))
			continue;
		if (push_key(&keys, &n, &cap, (uint64_t)b->addr << 32 | (uint32_t)k))
			goto nomem;
	}
	ck_sort_keys(keys, n);
	ret = ck_read_sorted(ck, keys, n, "directories", dentry_cb, NULL);
	free(keys);
	return ret;
nomem:
	free(keys);
	return f2fs_fail(ck->err, -ENOMEM, "out of memory for directory blocks");
}

/* ---- orphans ------------------------------------------------------------ */

static int read_orphans(struct ck *ck)
{
	uint32_t payload = le32_get(ck->sb->cp_payload);
	uint32_t start = le32_get(ck->cp->cp_pack_start_sum);
	uint32_t first = 1 + payload;
	uint8_t *blk = ck->io;
	int ret;

	if (!(ck->ckpt_flags & F2FS_CP_ORPHAN_PRESENT))
		return 0;
	for (uint32_t b = first; b < start; b++) {
		const struct f2fs_orphan_block *ob = (const void *)blk;
		uint32_t cnt;

		ret = f2fs_dev_read(f2fs_fs_dev(ck->fs), (uint64_t)f2fs_fs_cp_start(ck->fs) + b,
				    blk, 1, ck->err);
		if (ret)
			return ret;
		cnt = le32_get(ob->entry_count);
		if (cnt > F2FS_ORPHANS_PER_BLOCK) {
			ck_pb(ck, F2FS_PB_CP_ORPHAN_BLOCK,
			      AT(A_BLK(f2fs_fs_cp_start(ck->fs) + b), A_FOUND(cnt)),
			      "orphan block %u holds %u entries", b - first, cnt);
			cnt = F2FS_ORPHANS_PER_BLOCK;
		}
		for (uint32_t k = 0; k < cnt; k++) {
			uint32_t ino = le32_get(ob->ino[k]);
			struct ck_ino *in = ino_rec(ck, ino);

			if (!in) {
				ck_pb(ck, F2FS_PB_CP_ORPHAN_BLOCK, AT(A_INO(ino)),
				      "orphan inode %u does not exist", ino);
				continue;
			}
			in->state |= IR_ORPHAN;
		}
	}
	return 0;
}

/* ---- after the directories: links, parents, reachability --------------- */

/* 1 when dir's parent chain reaches the root, 0 when not; reports loops. */
static int connected(struct ck *ck, struct ck_ino *dir)
{
	struct ck_ino *p = dir;
	uint32_t steps = 0;
	int result;

	/* conn: 0 unknown, 1 on the current walk, 2 connected, 3 not */
	while (p && p->conn == 0) {
		if (p->nid == F2FS_ROOT_INO) {
			p->conn = 2;
			break;
		}
		p->conn = 1;
		p = p->parent ? ino_rec(ck, p->parent) : NULL;
		if (++steps > ck->ninos)
			break;
	}
	if (p && p->conn == 1)
		ck_pb(ck, F2FS_PB_DIR_LOOP, AT(A_INO(p->nid)),
		      "directory %u is in a loop of directories", p->nid);
	result = p && p->conn == 2;
	for (p = dir; p && p->conn == 1; p = p->parent ? ino_rec(ck, p->parent) : NULL)
		p->conn = result ? 2 : 3;
	return result;
}

static void check_inodes(struct ck *ck)
{
	struct ck_ino *root = ino_rec(ck, F2FS_ROOT_INO);

	for (int q = 0; q < F2FS_MAX_QUOTAS; q++) {
		struct ck_ino *in = ino_rec(ck, le32_get(ck->sb->qf_ino[q]));

		if (in && le32_get(ck->sb->qf_ino[q]))
			in->state |= IR_SPECIAL;
	}
	if (root)
		root->parent = F2FS_ROOT_INO;
	for (uint32_t k = 0; k < ck->ninos; k++) {
		struct ck_ino *in = &ck->inos[k];
		int is_dir = (in->mode & F2FS_S_IFMT) == F2FS_S_IFDIR;
		int special = in->nid == F2FS_ROOT_INO || (in->state & (IR_SPECIAL | IR_ORPHAN));
		uint64_t want;

		if (!(in->state & IR_NOCOUNT) && in->counted != in->i_blocks)
			ck_pb(ck, F2FS_PB_INODE_I_BLOCKS,
			      AT(A_INO(in->nid), A_EXP(in->counted), A_FOUND(in->i_blocks)),
			      "inode %u: i_blocks %llu, counted %llu", in->nid,
			      (unsigned long long)in->i_blocks, (unsigned long long)in->counted);
		if (in->refs == 0 && !special) {
			ck_pb(ck, F2FS_PB_INODE_UNREACHABLE, AT(A_INO(in->nid), A_FOUND(in->links)),
			      "inode %u (mode 0%o, %u links) has no directory entry", in->nid,
			      in->mode, in->links);
			continue;
		}
		if (is_dir && !(in->state & IR_BROKEN)) {
			int dots_ok = in->inline_flags & F2FS_INLINE_DOTS;

			if (!(in->state & IR_HAS_DOT) && !dots_ok)
				ck_pb(ck, F2FS_PB_DIR_DOT, AT(A_INO(in->nid)),
				      "directory %u has no \".\" entry", in->nid);
			if (!(in->state & IR_HAS_DOTDOT) && !dots_ok)
				ck_pb(ck, F2FS_PB_DIR_DOTDOT, AT(A_INO(in->nid)),
				      "directory %u has no \"..\" entry", in->nid);
			else if ((in->state & IR_HAS_DOTDOT) && in->parent && in->dotdot != in->parent)
				ck_pb(ck, F2FS_PB_DIR_DOTDOT,
				      AT(A_INO(in->nid), A_EXP(in->parent), A_FOUND(in->dotdot)),
				      "directory %u: \"..\" names %u, the parent is %u", in->nid,
				      in->dotdot, in->parent);
			if (in->nid != F2FS_ROOT_INO && in->parent && in->pino != in->parent)
				ck_pb(ck, F2FS_PB_DIR_BAD_PINO,
				      AT(A_INO(in->nid), A_EXP(in->parent), A_FOUND(in->pino)),
				      "directory %u: i_pino %u, the parent is %u", in->nid, in->pino,
				      in->parent);
			if (in->nid != F2FS_ROOT_INO && in->parent)
				connected(ck, in);
		}
		if (in->state & IR_SPECIAL)
			continue;
		want = in->state & IR_ORPHAN ? 0 : is_dir ? 2 + (uint64_t)in->subdirs : in->refs;
		if (in->links != want && !(is_dir && (in->state & IR_BROKEN)))
			ck_pb(ck, F2FS_PB_INODE_LINKS, AT(A_INO(in->nid), A_EXP(want), A_FOUND(in->links)),
			      "inode %u: %u links, %llu found", in->nid, in->links,
			      (unsigned long long)want);
	}
}

static int by_addr(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int ck_tree(struct ck *ck)
{
	uint64_t *keys = malloc(((size_t)ck->nnids + 1) * sizeof(*keys));
	struct ck_ino *root;
	int ret;

	if (!keys)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for the node sweep");
	for (uint32_t k = 0; k < ck->nnids; k++)
		keys[k] = (uint64_t)ck->nids[k].blkaddr << 32 | k;
	qsort(keys, ck->nnids, sizeof(*keys), by_addr);
	ret = ck_read_sorted(ck, keys, ck->nnids, "nodes", sweep_cb, NULL);
	free(keys);
	if (ret)
		return ret;
	check_edges(ck);
	root = ino_rec(ck, F2FS_ROOT_INO);
	if (!root || (root->mode & F2FS_S_IFMT) != F2FS_S_IFDIR)
		ck_pb(ck, F2FS_PB_ROOT_BAD, AT(A_INO(F2FS_ROOT_INO)),
		      "the root inode %s (mode 0%o)",
		      root ? "is not a directory" : "does not exist or is unusable",
		      root ? root->mode : 0u);
	ret = read_orphans(ck);
	if (ret)
		return ret;
	ret = read_dirs(ck);
	if (ret)
		return ret;
	check_inodes(ck);
	return 0;
}
