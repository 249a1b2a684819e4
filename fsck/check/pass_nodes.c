/*
 * Pass: nodes and inodes. Every node block the NAT names is read once, in
 * block address order; each is checked against its NAT entry, an inode's
 * own fields are checked, its data pointers claimed, and parent->child node
 * pointers collected and checked after the sweep. Directory blocks found on
 * the way are queued for the directory pass.
 */
#include "../checker.h"
#include <f2fs/format/dir_levels.h>
#include <f2fs/format/compress.h>
#include <f2fs/format/crc.h>
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/format/node_ofs.h>
#include <f2fs/util/sort.h>

#include "ck.h"
#include "nat_answers.h"
#include "passes.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static int add_edge(struct ck *ck, uint32_t child, uint32_t owner, uint32_t ofs, int xattr)
{
	if (f2fs_vec_push(&ck->edges, (struct ck_edge){ child, owner, ofs, (uint8_t)xattr }))
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for node pointers");
	return 0;
}

/* A block now owned by nid (pointer idx): into its segment's SSA sum, and
 * kept when that segment's SSA is checked entry by entry. */
static int note_owner(struct ck *ck, uint32_t addr, uint32_t nid, uint32_t idx, int node)
{
	uint32_t s = ck_segno(ck, addr);

	ck->segfp[s] += ck_fp(addr, nid, node ? CK_FP_NODE : ck_sum_ofs(idx, ck_nat_version(ck, nid)));
	if (ck->ssa_exact && ck_bit64(ck->ssa_exact, s))
		return ck_add_blk(ck, addr, nid, idx, node);
	return 0;
}

/*
 * First nonzero pointer of p[k..n), or n. Zero is NULL_ADDR, and most
 * pointers of small files are zero: skipped 16 at a time, their OR taken
 * in vector registers. The offsets are size_t: in 32 bits, 4 * (k + j)
 * could wrap for all the compiler knows of n, and the 16 loads, no longer
 * contiguous, would stay scalar, as they did when a caller's n was a
 * struct field, not a value whose range the compiler could follow.
 */
static uint32_t next_ptr(const void *ptrs, uint32_t k, uint32_t n)
{
	const uint8_t *p = ptrs;

	for (; k + 16 <= n; k += 16) {
		uint32_t any = 0;

		for (uint32_t j = 0; j < 16; j++)
			any |= le32_load(p + 4 * ((size_t)k + j));
		if (any)
			break;
	}
	while (k < n && !le32_load(p + 4 * (size_t)k))
		k++;
	return k;
}

/* The node whose data pointers are being walked. */
struct owner {
	uint32_t nid, ino;
	uint32_t ndata;           /* data pointers counted */
	uint32_t ncaddr;          /* COMPRESS_ADDR pointers, counted later */
	int dir;                  /* 1: its blocks are a directory's to read */
};

/* A data pointer of node o at index idx. */
static int data_ptr(struct ck *ck, struct owner *o, uint32_t idx, uint32_t addr)
{
	const struct ck_seg *g;
	int ret;

	if (addr == F2FS_NULL_ADDR)
		return 0;
	if (addr == F2FS_COMPRESS_ADDR) {
		o->ncaddr++;
		return 0;
	}
	o->ndata++;
	if (addr == F2FS_NEW_ADDR) {
		ck->new_addrs++;   /* counted in valid_block_count, not the SIT */
		return 0;
	}
	if (!ck_in_main(ck, addr)) {
		ck_pb(ck, F2FS_PB_DATA_ADDR_OUT_OF_RANGE,
		      AT(A_NID(o->nid), A_INO(o->ino), A_BLK(addr), A_FOUND(idx)),
		      "nid %u pointer %u: block 0x%x outside the main area", o->nid, idx, addr);
		return ck_fix_add(ck, F2FS_PB_DATA_ADDR_OUT_OF_RANGE, FX_HOLE, o->ino, 0, idx, o->nid);
	}
	ck->r->stats.data_blocks++;
	g = &ck->segs[ck_segno(ck, addr)];
	if (ck_claim(ck, addr)) {
		ck_pb(ck, F2FS_PB_BLOCK_MULTIPLY_OWNED,
		      AT(A_NID(o->nid), A_INO(o->ino), A_BLK(addr), A_FOUND(idx)),
		      "block 0x%x (nid %u pointer %u) is already in use", addr, o->nid, idx);
		/* remembered so that a second reading of the node skips it too */
		if (f2fs_vec_push(&ck->lost, (uint64_t)o->nid << 32 | idx))
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for block records");
		return ck_fix_add(ck, F2FS_PB_BLOCK_MULTIPLY_OWNED, FX_CLONE, o->ino, 0, idx, o->nid);
	}
	ret = 0;
	/* a block the SIT forgot is judged too where its segment stays a
	 * node segment (other blocks in use, or a log) */
	if (ck_seg_is_node(g->type) && (ck_sit_valid(ck, addr) || g->vblocks || g->cur)) {
		ck_pb(ck, F2FS_PB_DATA_SEGMENT_TYPE,
		      AT(A_NID(o->nid), A_INO(o->ino), A_BLK(addr), A_SEG(ck_segno(ck, addr)),
			 A_FOUND(g->type)),
		      "data block 0x%x lies in a segment of node type %u", addr, g->type);
		ret = ck_fix_add(ck, F2FS_PB_DATA_SEGMENT_TYPE, FX_MOVE, o->ino, 0, idx, o->nid);
	}
	if (!ret)
		ret = note_owner(ck, addr, o->nid, idx, 0);
	if (!ret && o->dir)
		ret = ck_queue_dblk(ck, addr, o->nid, idx, 0);
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

static struct ck_dir *new_dir(struct ck *ck, uint32_t nid)
{
	struct ck_dir *d;

	if (f2fs_vec_reserve(&ck->dirs, ck->dirs.n + 1))
		return NULL;
	d = &ck->dirs.v[ck->dirs.n++];
	memset(d, 0, sizeof(*d));
	d->nid = nid;
	return d;
}

/* What the inode says of itself: record, counters, directory record. */
static int inode_record(struct ck *ck, struct ck_nid *n, uint32_t ino, const struct f2fs_inode *i,
			uint16_t mode, struct ck_dir **dirp)
{
	uint16_t type = mode & F2FS_S_IFMT;
	int ret;

	n->state = (uint8_t)((n->state & ((1u << IR_TYPE_SHIFT) - 1)) |
			     f2fs_file_type_of_mode(mode) << IR_TYPE_SHIFT);
	ret = ck_cnt_set(ck, n, CK_LINKS, le32_get(i->i_links));
	if (ret)
		return ret;
	if (le64_get(i->i_blocks) >> 32)
		n->state |= IR_BIG_IBLOCKS;
	*dirp = NULL;
	if (type == F2FS_S_IFDIR) {
		struct ck_dir *d = new_dir(ck, ino);

		if (!d)
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for directories");
		d->size = le64_get(i->i_size);
		d->pino = le32_get(i->i_pino);
		/* one out of range is set to 0 (check_dir_depth) */
		d->dir_level = i->i_dir_level;
		d->inline_flags = i->i_inline;
		if ((le32_get(i->i_flags) & F2FS_CASEFOLD_FL) &&
		    (ck->features & F2FS_FEATURE_CASEFOLD))
			d->state |= DR_CASEFOLD;
		if (i->i_advise & F2FS_ADVISE_ENCRYPT)
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

/*
 * A compressed regular file: its clusters are counted once all its nodes
 * are read (finish_compressed). Without a usable cluster size they cannot
 * be, and its i_blocks is not checked.
 */
static int compressed_inode(struct ck *ck, struct ck_nid *n, uint32_t ino,
			    const struct f2fs_inode *i, uint32_t extra, const uint8_t *ptrs,
			    uint32_t addrs)
{
	struct ck_cfile f = { .ino = ino };
	struct f2fs_compr_count cc;

	if (!(ck->features & F2FS_FEATURE_COMPRESSION) || extra * 4 < F2FS_EXTRA_ISIZE_COMPRESS ||
	    i->extra.i_log_cluster_size < F2FS_MIN_LOG_CLUSTER ||
	    i->extra.i_log_cluster_size > F2FS_MAX_LOG_CLUSTER) {
		n->state |= IR_NOCOUNT;
		return 0;
	}
	f.log_cs = i->extra.i_log_cluster_size;
	f.released = (i->i_inline & F2FS_COMPRESS_RELEASED) != 0;
	f.compr_blocks = le64_get(i->extra.i_compr_blocks);
	f2fs_compr_count(ptrs, addrs, f.log_cs, &cc);
	f.caddrs = cc.caddrs;
	f.saved = cc.saved;
	if (f2fs_vec_push(&ck->cfiles, f))
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for compressed files");
	return 0;
}

/*
 * One inode as its checks read it. i_addr holds, in order: extra words of
 * extra attributes, addrs pointers (or inline data or dentries), xwords
 * words of inline xattrs; extra and xwords are known once i_extra_isize
 * and i_inline_xattr_size are found good.
 */
struct inode_view {
	struct ck_nid *n;
	const struct f2fs_node *nd;
	const struct f2fs_inode *i;
	struct ck_dir *dir;         /* a directory's record, else NULL */
	uint64_t size;
	uint32_t ino;
	uint32_t extra, addrs, xwords;
	uint16_t mode, type;
	uint8_t inline_now;         /* i_inline as its fix leaves it (AS_POINTERS, AS_INLINE) */
	bool reread;                /* read again with inline_now */
};

/* What a check of i_addr's layout returns (errors being negative) when
 * the fields do not say where the pointers lie: the inode is left as it
 * is, its other checks would read the wrong words. AS_POINTERS: the fix
 * of its inline flags leaves pointers, which this run reads (*v's
 * inline_now); AS_INLINE: it leaves inline data or dentries, read so. */
enum { LAYOUT_UNKNOWN = 1, AS_POINTERS = 2, AS_INLINE = 3 };

/* A socket or a fifo with inline data of a size: such files hold no data,
 * so the type is the wrong part (one bit away from a regular file's). Read
 * as the regular file its fix makes, which an entry naming it as another
 * type adjusts (ck_fix_mode_seen_as). */
static int check_special_data(struct ck *ck, struct inode_view *v)
{
	uint16_t type = v->mode & F2FS_S_IFMT, want;
	int ret;

	if ((type != F2FS_S_IFSOCK && type != F2FS_S_IFIFO) ||
	    !(v->i->i_inline & F2FS_INLINE_DATA) || v->size == 0)
		return 0;
	ck_pb(ck, F2FS_PB_INODE_INLINE_FLAGS, AT(A_INO(v->ino), A_FOUND(v->i->i_inline)),
	      "inode %u (mode 0%o, i_inline 0x%02x): %llu bytes of inline data in a file that cannot have it",
	      v->ino, v->mode, v->i->i_inline, (unsigned long long)v->size);
	want = (uint16_t)(F2FS_S_IFREG | (v->mode & 07777u));
	ret = ck_fix_add(ck, F2FS_PB_INODE_INLINE_FLAGS, FX_MODE, v->ino, 0, 0, want);
	if (!ret)
		v->mode = want;
	return ret;
}

/* A mode without a valid file type. When the fix finds a directory's
 * content, the inode is read as the directory it is. */
static int check_mode(struct ck *ck, struct inode_view *v)
{
	uint16_t want;
	int ret;

	if (valid_mode(v->mode))
		return check_special_data(ck, v);
	ck_pb(ck, F2FS_PB_INODE_BAD_MODE, AT(A_INO(v->ino), A_BLK(v->n->blkaddr), A_FOUND(v->mode)),
	      "inode %u: mode 0%o has no valid file type", v->ino, v->mode);
	ret = ck_fix_mode(ck, v->ino, v->nd, v->mode, &want);
	/* read as the fix makes it: a directory, or a file whose data is
	 * inline (a regular file or a symlink, which both may have it) */
	if (!ret && ((want & F2FS_S_IFMT) == F2FS_S_IFDIR ||
		     (want && (v->i->i_inline & F2FS_INLINE_DATA))))
		v->mode = want;
	return ret;
}

/* i_extra_isize, where the pointers start. One out of range is read as
 * the size its fix finds fitting; with none, the layout is unknown. */
static int check_extra_isize(struct ck *ck, struct inode_view *v)
{
	uint32_t isize;
	int ret;

	v->extra = 0;
	if (!(v->i->i_inline & F2FS_EXTRA_ATTR))
		return 0;
	isize = le16_get(v->i->extra.i_extra_isize);
	if (!(ck->features & F2FS_FEATURE_EXTRA_ATTR) || isize < F2FS_EXTRA_ISIZE_BASE ||
	    isize > F2FS_EXTRA_ISIZE_COMPRESS || isize % 4) {
		ck_pb(ck, F2FS_PB_INODE_EXTRA_ISIZE, AT(A_INO(v->ino), A_FOUND(isize)),
		      (ck->features & F2FS_FEATURE_EXTRA_ATTR) ?
		      "inode %u: i_extra_isize %u out of range" :
		      "inode %u: extra attributes (%u bytes) without the extra_attr feature",
		      v->ino, isize);
		isize = 0;
		if ((ck->features & F2FS_FEATURE_EXTRA_ATTR) &&
		    (ret = ck_fix_extra_isize(ck, v->ino, v->i, &isize)))
			return ret;
		if (!(ck->features & F2FS_FEATURE_EXTRA_ATTR)) {
			bool fits;

			if ((ret = ck_fix_extra_attr_flag(ck, v->ino, v->i, &fits)))
				return ret;
			if (fits)
				return 0;   /* read as it will be: no extra area */
		}
		if (!isize) {
			v->n->state |= IR_BROKEN | IR_NOCOUNT;
			return LAYOUT_UNKNOWN;
		}
	} else if (!ck->extra_isize_seen) {
		ck->extra_isize_seen = (uint16_t)isize;
	}
	v->extra = isize / 4;
	return 0;
}

/* i_inline_xattr_size, where the pointers end: 1 to
 * CK_MAX_INLINE_XATTR_WORDS words when flexible, and one pointer at least
 * left between the extra attributes and the xattrs. One out of range is
 * read as the size its fix finds; with none, the layout is unknown. */
static int check_inline_xattr_size(struct ck *ck, struct inode_view *v)
{
	const struct f2fs_inode *i = v->i;
	int ret;

	v->xwords = f2fs_inode_inline_xattr_words(i, ck->features);
	if ((ck->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR) && (i->i_inline & F2FS_EXTRA_ATTR) &&
	    (i->i_inline & F2FS_INLINE_XATTR) &&
	    (v->xwords == 0 || v->xwords > CK_MAX_INLINE_XATTR_WORDS)) {
		ck_pb(ck, F2FS_PB_INODE_INLINE_XATTR_SIZE,
		      AT(A_INO(v->ino), A_EXP(CK_MAX_INLINE_XATTR_WORDS), A_FOUND(v->xwords)),
		      "inode %u: i_inline_xattr_size %u words (1..%u allowed)", v->ino, v->xwords,
		      CK_MAX_INLINE_XATTR_WORDS);
		ret = ck_fix_xattr_size(ck, v->ino, i, v->extra, &v->xwords);
		if (ret || !v->xwords) {
			v->n->state |= IR_BROKEN | IR_NOCOUNT;
			return ret ? ret : LAYOUT_UNKNOWN;
		}
		/* read as the fix leaves it */
	}
	/* the kernel gives an inode without inline xattrs none (0 words):
	 * a size past any area is that 0 damaged */
	if ((ck->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR) && (i->i_inline & F2FS_EXTRA_ATTR) &&
	    !(i->i_inline & F2FS_INLINE_XATTR) && v->xwords > CK_MAX_INLINE_XATTR_WORDS) {
		ck_pb(ck, F2FS_PB_INODE_INLINE_XATTR_SIZE,
		      AT(A_INO(v->ino), A_EXP(0), A_FOUND(v->xwords)),
		      "inode %u: i_inline_xattr_size %u words, without inline xattrs", v->ino,
		      v->xwords);
		v->xwords = 0;
		if ((ret = ck_fix_add(ck, F2FS_PB_INODE_INLINE_XATTR_SIZE, FX_INLINE_XATTR_SIZE,
				      v->ino, 0, 0, 0)))
			return ret;
	}
	if (v->extra + v->xwords + 1 >= F2FS_DEF_ADDRS_PER_INODE) {
		ck_pb(ck, F2FS_PB_INODE_INLINE_XATTR_SIZE, AT(A_INO(v->ino), A_FOUND(v->xwords)),
		      "inode %u: extra and inline xattr words (%u + %u) fill i_addr", v->ino,
		      v->extra, v->xwords);
		v->n->state |= IR_BROKEN | IR_NOCOUNT;
		return LAYOUT_UNKNOWN;
	}
	v->addrs = F2FS_DEF_ADDRS_PER_INODE - v->extra - v->xwords;
	return 0;
}

/* i_inode_checksum, where the inode has one: a wrong one is resealed. */
static int check_checksum(struct ck *ck, const struct inode_view *v)
{
	uint32_t want, got;

	if (!f2fs_inode_has_checksum(v->nd, ck->features))
		return 0;
	want = f2fs_inode_crc(v->nd, f2fs_fs_inode_crc_seed(ck->fs));
	got = le32_get(v->i->extra.i_inode_checksum);
	if (want == got)
		return 0;
	ck_pb(ck, F2FS_PB_INODE_BAD_CHECKSUM,
	      AT(A_INO(v->ino), A_BLK(v->n->blkaddr), A_EXP(want), A_FOUND(got)),
	      "inode %u: checksum 0x%08x, computed 0x%08x", v->ino, got, want);
	return ck_fix_add(ck, F2FS_PB_INODE_BAD_CHECKSUM, FX_RESEAL, v->ino, 0, 0, 0);
}

/* Does the first hash level of dir_level (two blocks a bucket) fit in
 * the largest file? Past that, no entry can be where the kernel looks. */
static bool dir_level_usable(uint8_t level, uint32_t addrs)
{
	return level <= F2FS_MAX_DIR_HASH_DEPTH &&
	       f2fs_dir_level_start(1, level) <= f2fs_node_tree_blocks(addrs);
}

/* A directory's i_current_depth and i_dir_level: at most the hash depth. */
static int check_dir_depth(struct ck *ck, const struct inode_view *v)
{
	uint32_t depth = le32_get(v->i->i_current_depth);
	uint8_t level = v->i->i_dir_level;

	if (v->type != F2FS_S_IFDIR ||
	    (depth <= F2FS_MAX_DIR_HASH_DEPTH && dir_level_usable(level, v->addrs)))
		return 0;
	ck_pb(ck, F2FS_PB_INODE_DEPTH, AT(A_INO(v->ino), A_FOUND(depth)),
	      "directory %u: i_current_depth %u, i_dir_level %u (at most %u, and a first hash level within the largest file)",
	      v->ino, depth, level, F2FS_MAX_DIR_HASH_DEPTH);
	/* the depth follows from i_size. A level past the hash depth gives
	 * the kernel's lookup buckets past any block: it becomes 0, the
	 * kernel's default, under which the entries' buckets are checked
	 * (new_dir) and mended (the level is set before the moves) */
	if (!dir_level_usable(level, v->addrs)) {
		int ret = ck_fix_add(ck, F2FS_PB_INODE_DEPTH, FX_DIR_LEVEL, v->ino, 0, 0, 0);

		if (v->dir)
			v->dir->dir_level = 0;

		if (ret)
			return ret;
	}
	return ck_fix_add(ck, F2FS_PB_INODE_DEPTH, FX_DEPTH, v->ino, 0, 0, 0);
}

/* What contradicts an inline inode's flags, or NULL. */
static const char *inline_conflict(struct ck *ck, const struct inode_view *v)
{
	uint8_t fl = v->i->i_inline;

	if ((fl & F2FS_INLINE_DATA) && (fl & F2FS_INLINE_DENTRY))
		return "both inline data and inline dentries";
	if ((fl & F2FS_INLINE_DENTRY) && v->type != F2FS_S_IFDIR)
		return "inline dentries in a non-directory";
	if ((fl & F2FS_INLINE_DATA) && v->type != F2FS_S_IFREG && v->type != F2FS_S_IFLNK)
		return "inline data in a file that cannot have it";
	for (int k = 0; k < F2FS_DEF_NIDS_PER_INODE; k++)
		if (v->i->i_nid[k])
			return "an inline inode with node pointers";
	if ((fl & F2FS_INLINE_DATA) && ck_inline_is_pointers(ck, v->i, v->type, v->extra, v->addrs))
		return "inline data flagged over block pointers";
	return NULL;
}

/* An inline symlink's target: the kernel reads it up to i_size or its
 * first NUL, whichever comes first; the size is set to what it reads (an
 * empty target is left to the empty-target check). */
static int check_inline_link(struct ck *ck, const struct inode_view *v, uint32_t cap)
{
	const uint8_t *t = (const uint8_t *)v->nd + f2fs_inode_inline_offset(v->i);
	uint64_t lim = v->size < cap ? v->size : cap;
	const uint8_t *nul = memchr(t, 0, (size_t)lim);
	uint64_t len = nul ? (uint64_t)(nul - t) : lim;

	if (len == v->size || len == 0)
		return 0;
	ck_pb(ck, F2FS_PB_INODE_INLINE_SIZE, AT(A_INO(v->ino), A_EXP(len), A_FOUND(v->size)),
	      "symlink %u: i_size %llu, but its inline target ends after %llu bytes", v->ino,
	      (unsigned long long)v->size, (unsigned long long)len);
	return ck_fix_add(ck, F2FS_PB_INODE_INLINE_SIZE, FX_ISIZE, v->ino, len, 0, 0);
}

/* An inode whose data or dentries lie in i_addr: inline flags its type can
 * have and no node pointers; inline data no larger than the area. */
static int check_inline(struct ck *ck, struct inode_view *v)
{
	const struct f2fs_inode *i = v->i;
	const char *why = inline_conflict(ck, v);
	uint32_t cap = 4 * (v->addrs - 1);
	int ret;

	if (why && v->reread) {
		/* the flags the fix leaves conflict too: left as it is */
		v->n->state |= IR_BROKEN | IR_NOCOUNT;
		return 0;
	}
	if (why) {
		ck_pb(ck, F2FS_PB_INODE_INLINE_FLAGS, AT(A_INO(v->ino), A_FOUND(i->i_inline)),
		      "inode %u (mode 0%o, i_inline 0x%02x): %s", v->ino, v->mode,
		      i->i_inline, why);
		ret = ck_fix_inline_flags(ck, v->ino, i, v->type, v->extra, v->addrs,
					  &v->inline_now);
		if (!ret && v->inline_now)
			return (v->inline_now & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)) ?
			       AS_INLINE : AS_POINTERS;
		if (!ret)
			v->n->state |= IR_BROKEN | IR_NOCOUNT;
		return ret;
	}
	/* the slot before the inline area becomes block 0's pointer when
	 * the file outgrows the inode: the kernel wants it empty until then
	 * (a move out of the inode that finds it set fails as corrupted) */
	if (le32_get(i->i_addr[v->extra])) {
		ck_pb(ck, F2FS_PB_INODE_INLINE_RESERVED,
		      AT(A_INO(v->ino), A_EXP(0), A_FOUND(le32_get(i->i_addr[v->extra]))),
		      "inode %u: reserved slot before its inline %s holds 0x%x", v->ino,
		      (i->i_inline & F2FS_INLINE_DATA) ? "data" : "dentries",
		      le32_get(i->i_addr[v->extra]));
		ret = ck_fix_add(ck, F2FS_PB_INODE_INLINE_RESERVED, FX_INLINE_RESERVED, v->ino, 0,
				 0, 0);
		if (ret)
			return ret;
	}
	/* an encrypted target is cipher text after its length: any byte */
	if ((i->i_inline & F2FS_INLINE_DATA) && v->type == F2FS_S_IFLNK &&
	    !(i->i_advise & F2FS_ADVISE_ENCRYPT))
		return check_inline_link(ck, v, cap);
	/* nothing lies past the inline area: the size stops there */
	if (!(i->i_inline & F2FS_INLINE_DATA) || v->size <= cap)
		return 0;
	ck_pb(ck, F2FS_PB_INODE_INLINE_SIZE, AT(A_INO(v->ino), A_EXP(cap), A_FOUND(v->size)),
	      "inode %u: i_size %llu exceeds the %u-byte inline area", v->ino,
	      (unsigned long long)v->size, cap);
	return ck_fix_add(ck, F2FS_PB_INODE_INLINE_SIZE, FX_ISIZE, v->ino, cap, 0, 0);
}

/* The size of an inode with pointers: a directory's in whole blocks,
 * anyone's within the largest file its pointers can map. */
static int check_pointer_size(struct ck *ck, const struct inode_view *v)
{
	bool beyond = v->size / F2FS_BLKSIZE > f2fs_node_tree_blocks(v->addrs);
	int ret;

	/* to a block (slot 1: down, unless the block it ends in is mapped) */
	if (v->type == F2FS_S_IFDIR && v->size % F2FS_BLKSIZE && !beyond) {
		ck_pb(ck, F2FS_PB_INODE_SIZE, AT(A_INO(v->ino), A_FOUND(v->size)),
		      "directory %u: i_size %llu is not a multiple of 4096", v->ino,
		      (unsigned long long)v->size);
		ret = ck_fix_add(ck, F2FS_PB_INODE_SIZE, FX_ISIZE, v->ino,
				 (v->size / F2FS_BLKSIZE + 1) * F2FS_BLKSIZE, 1, 0);
		if (ret)
			return ret;
	}
	if (!beyond)
		return 0;
	/* slot 2: to the end of the last block the file maps (what it holds
	 * is kept; a byte count within that block is not known) */
	ck_pb(ck, F2FS_PB_INODE_SIZE, AT(A_INO(v->ino), A_FOUND(v->size)),
	      "inode %u: i_size %llu beyond the largest file", v->ino,
	      (unsigned long long)v->size);
	return ck_fix_add(ck, F2FS_PB_INODE_SIZE, FX_ISIZE, v->ino, 0, 2, 0);
}

/* Each pointer of i_addr and i_nid followed: data blocks claimed (a
 * device has none, its pointers hold its number), compressed clusters
 * noted, node pointers kept for check_edges. */
static int follow_pointers(struct ck *ck, const struct inode_view *v, struct owner *o)
{
	const struct f2fs_inode *i = v->i;
	uint32_t extra = v->extra, addrs = v->addrs;
	const uint8_t *ptrs = (const uint8_t *)i + offsetof(struct f2fs_inode, i_addr) + 4 * extra;
	int ret;

	o->dir = v->dir != NULL;
	if (v->type == F2FS_S_IFCHR || v->type == F2FS_S_IFBLK)
		addrs = 0;
	for (uint32_t k = next_ptr(ptrs, 0, addrs); k < addrs; k = next_ptr(ptrs, k + 1, addrs))
		if ((ret = data_ptr(ck, o, k, le32_get(i->i_addr[extra + k]))))
			return ret;
	if (f2fs_inode_compressed(i, ck->features) &&
	    (ret = compressed_inode(ck, v->n, v->ino, i, extra, ptrs, addrs)))
		return ret;
	for (int k = 0; k < F2FS_DEF_NIDS_PER_INODE; k++) {
		uint32_t c = le32_get(i->i_nid[k]);

		if (c && (ret = add_edge(ck, c, v->ino, f2fs_node_top_ofs((uint32_t)k), 0)))
			return ret;
	}
	return 0;
}

/* What is checked later, once the blocks and nodes are all read: i_blocks
 * against the data blocks found (the inode block counts one; its nodes'
 * blocks come off as check_edges places them), inline dentries (the
 * directory pass), the xattr node (check_edges). And a symlink's target
 * is not empty. */
static int inode_follow_ups(struct ck *ck, const struct inode_view *v, const struct owner *o)
{
	const struct f2fs_inode *i = v->i;
	int ret;

	ret = ck_cnt_set(ck, v->n, CK_BDIFF, (uint32_t)le64_get(i->i_blocks) - 1 - o->ndata);
	if (ret)
		return ret;
	if (v->dir && (i->i_inline & F2FS_INLINE_DENTRY) && !(v->n->state & IR_BROKEN) &&
	    (ret = ck_queue_dblk(ck, v->n->blkaddr, v->ino, 0, 1)))
		return ret;
	if (v->type == F2FS_S_IFLNK && v->size == 0)
		ck_pb(ck, F2FS_PB_INODE_SIZE, AT(A_INO(v->ino), A_FOUND(0)),
		      "symlink %u: empty target", v->ino);
	if (le32_get(i->i_xattr_nid))
		return add_edge(ck, le32_get(i->i_xattr_nid), v->ino, F2FS_XATTR_NODE_OFFSET, 1);
	return 0;
}

/* No inline flag over an i_addr that reads as no pointers: the flags its
 * content shows are restored, and the inode read with them (in *copy). */
static int check_lost_flags(struct ck *ck, struct inode_view *v, struct f2fs_node *copy)
{
	uint8_t now;
	int ret = ck_fix_lost_flags(ck, v->ino, v->i, v->type, &now);

	if (ret || !now)
		return ret;
	ck_pb(ck, F2FS_PB_INODE_INLINE_FLAGS, AT(A_INO(v->ino), A_EXP(now), A_FOUND(0)),
	      "inode %u (mode 0%o, i_inline 0x00): i_addr reads as no block pointers but with flags 0x%02x",
	      v->ino, v->mode, now);
	*copy = *v->nd;
	copy->i.i_inline = now;
	v->nd = copy;
	v->i = &copy->i;
	if (v->dir)
		v->dir->inline_flags = now;
	return 0;
}

/* An inode block: first the fields that say how to read the others (the
 * mode; where i_addr's pointers start and end), then the others. */
static int sweep_inode(struct ck *ck, struct ck_nid *n, uint32_t ino, const struct f2fs_node *nd)
{
	struct inode_view v = { .n = n, .nd = nd, .i = &nd->i, .ino = ino };
	struct owner o = { ino, ino, 0, 0, 0 };
	struct f2fs_node copy;
	struct ck_dir *dir;
	int ret;

	v.mode = le16_get(v.i->i_mode);
	v.size = le64_get(v.i->i_size);
	ret = check_mode(ck, &v);
	if (!ret)
		ret = inode_record(ck, n, ino, v.i, v.mode, &dir);
	if (ret)
		return ret;
	v.dir = dir;
	v.type = v.mode & F2FS_S_IFMT;
	ck_quota_inode(ck, ino, nd);
	if (!v.i->i_inline && (ret = check_lost_flags(ck, &v, &copy)))
		return ret;
	ret = check_extra_isize(ck, &v);
	if (!ret)
		ret = check_inline_xattr_size(ck, &v);
	if (!ret)
		ret = check_checksum(ck, &v);
	if (ret)
		return ret == LAYOUT_UNKNOWN ? 0 : ret;
	if (dir) {
		dir->addrs = (uint16_t)v.addrs;
		dir->xwords = (uint16_t)v.xwords;
	}
	ck_xattr_inode(ck, ino, v.nd, v.xwords);
	if ((ret = check_dir_depth(ck, &v)))
		return ret;
	if (v.i->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))
		ret = check_inline(ck, &v);
	else
		ret = AS_POINTERS;
	if ((ret == AS_POINTERS && (v.i->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))) ||
	    ret == AS_INLINE) {
		/* read as the fix of its flags leaves it: an inline inode
		 * it leaves has no node pointers */
		copy = *nd;
		copy.i.i_inline = v.inline_now;
		if (ret == AS_INLINE)
			memset(copy.i.i_nid, 0, sizeof(copy.i.i_nid));
		v.nd = &copy;
		v.i = &copy.i;
		if (dir)
			dir->inline_flags = v.inline_now;
	}
	if (ret == AS_INLINE) {
		v.reread = true;
		ret = check_inline(ck, &v);
	}
	if (ret == AS_POINTERS && !(ret = check_pointer_size(ck, &v)))
		ret = follow_pointers(ck, &v, &o);
	if (!ret && !(v.n->state & IR_BROKEN))
		ck_extent_inode(ck, ino, v.i, v.type, v.extra, v.addrs);
	return ret ? ret : inode_follow_ups(ck, &v, &o);
}

/* Index in ck.revmap of the first nid the NAT maps to addr (ck.nnids when
 * none). Needed only when a node footer does not match or a node block
 * cannot be read, so the table behind it is made on first use. */
static int revmap_find(struct ck *ck, uint32_t addr, size_t *at)
{
	size_t lo;

	if (!ck->revmap) {
		struct ck_nid_iter it = { 0 };
		struct ck_nid *n;
		uint32_t x;
		size_t k = 0;

		ck->revmap = malloc(((size_t)ck->nids.n + 1) * sizeof(*ck->revmap));
		if (!ck->revmap)
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for the node map");
		while (ck_nid_next(ck, &it, &x, &n))
			ck->revmap[k++] = (uint64_t)n->blkaddr << 32 | x;
		f2fs_sort_u64(ck->revmap, k);
	}
	lo = f2fs_lower_bound_hi32(ck->revmap, ck->nids.n, addr);
	*at = lo < ck->nids.n && (uint32_t)(ck->revmap[lo] >> 32) == addr ? lo : ck->nids.n;
	return 0;
}

/* The nid the NAT maps to addr. */
static int nid_at(struct ck *ck, uint32_t addr, uint32_t *nid)
{
	size_t k;
	int ret = revmap_find(ck, addr, &k);

	if (ret)
		return ret;
	if (k == ck->nids.n)
		return f2fs_fail(ck->err, -F2FS_E_CORRUPT, "no nid for node block 0x%x", addr);
	*nid = (uint32_t)ck->revmap[k];
	return 0;
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
	ck_nat_doubt(ck, nid);
	return ck_fix_add(ck, F2FS_PB_NODE_FOOTER_NID, FX_NAT_FREE, 0, addr, 0, nid);
}

static int sweep_direct(struct ck *ck, struct ck_node *x, const struct f2fs_node *nd)
{
	uint32_t nid = x->nid, ino = x->ino;
	struct owner o = { nid, ino, 0, 0, 0 };
	const struct ck_nid *own = ck_inode(ck, ino);
	const uint8_t *ptrs = (const uint8_t *)nd + offsetof(struct f2fs_node, dn);
	int ret;

	for (uint32_t k = next_ptr(ptrs, 0, F2FS_ADDRS_PER_BLOCK); k < F2FS_ADDRS_PER_BLOCK;
	     k = next_ptr(ptrs, k + 1, F2FS_ADDRS_PER_BLOCK))
		if ((ret = data_ptr(ck, &o, k, le32_get(nd->dn.addr[k]))))
			return ret;
	x->ndata = o.ndata;
	if ((ret = ck_extent_dnode(ck, nid, ino, x->ofs, nd, own != NULL)))
		return ret;
	if (o.ncaddr) {
		struct ck_cnode cn = { nid, 0, { 0 } };
		struct f2fs_compr_count cc;

		for (uint32_t l = F2FS_MIN_LOG_CLUSTER; l <= F2FS_MAX_LOG_CLUSTER; l++) {
			f2fs_compr_count(ptrs, F2FS_ADDRS_PER_BLOCK, l, &cc);
			cn.caddrs = (uint16_t)cc.caddrs;
			cn.saved[l - F2FS_MIN_LOG_CLUSTER] = (uint16_t)cc.saved;
		}
		if (f2fs_vec_push(&ck->cnodes, cn))
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for compressed nodes");
	}
	/* its inode may be a directory not read yet: then read it again later */
	if ((!own || ck_ftype(own) == F2FS_FT_DIR) &&
	    f2fs_vec_push(&ck->dnodes, nid))
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for direct nodes");
	return 0;
}

/* A footer that names its own nid, in the right place for its kind, and an
 * inode number in range, is taken over a NAT entry whose ino differs: the
 * block is where the NAT says, so only the NAT's ino field is wrong (a
 * flipped or stale field), and the repair writes the footer's into it. */
static bool footer_ino_usable(const struct ck *ck, uint32_t nid, uint32_t fino,
			      enum f2fs_node_kind kind)
{
	return fino >= F2FS_ROOT_INO && fino < ck->max_nid && kind != F2FS_NODE_BAD &&
	       (fino == nid) == (kind == F2FS_NODE_INODE);
}

/* Does the tree of inode owner point at nid where a node at offset ofs
 * hangs (its pointers read through the NAT)? What cannot be read says no. */
static bool tree_points_at(struct ck *ck, uint32_t owner, uint32_t nid, uint32_t ofs)
{
	struct f2fs_node_path path;
	struct f2fs_error e = { 0 };
	struct f2fs_node buf, *nd = &buf;
	uint32_t cur = owner;

	if (!f2fs_node_path_of(ofs, &path) || !path.levels)
		return false;
	for (uint32_t l = 0; l < path.levels; l++) {
		const struct ck_nid *c = ck_nid_find(ck, cur);

		if (!c || f2fs_fs_read_block(ck->fs, c->blkaddr, nd, &e) ||
		    le32_get(nd->footer.nid) != cur)
			return false;
		cur = l == 0 ? le32_get(nd->i.i_nid[path.slot[0]]) : le32_get(nd->in.nid[path.slot[l]]);
	}
	return cur == nid;
}

/* The footer's ino (*fino) is the broken side: reported, fixed to want,
 * and read as fixed. what: how the line names the nid. */
static int footer_ino_fix(struct ck *ck, const char *what, uint32_t nid, uint32_t addr,
			  uint32_t want, uint32_t *fino, uint32_t nat_ino)
{
	ck_pb(ck, F2FS_PB_NODE_FOOTER_INO, AT(A_NID(nid), A_BLK(addr), A_EXP(want), A_FOUND(*fino)),
	      "%s %u: node footer ino %u, NAT ino %u", what, nid, *fino, nat_ino);
	*fino = want;
	return ck_fix_add(ck, F2FS_PB_NODE_FOOTER_INO, FX_FOOTER_INO, nid, 0, 0, want);
}

static int ino_from_footer(struct ck *ck, struct ck_nid *n, uint32_t nid, uint32_t fino,
			   struct ck_node **x)
{
	n->cnt = 0;
	*x = NULL;
	if (fino == nid)
		n->flags |= NR_SELF;
	else {
		n->flags &= (uint8_t)~NR_SELF;
		*x = ck_node_put(ck, nid, fino);
		if (!*x)
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for the node table");
	}
	if (f2fs_vec_push(&ck->ino_from_footer, nid))
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for NAT fixes");
	return 0;
}

/* Each node block the NAT names, in address order. */
static int sweep_cb(struct ck *ck, uint32_t item, uint32_t addr, const uint8_t *blk, void *arg)
{
	const struct f2fs_node *nd = (const void *)blk;
	uint32_t nid = le32_get(nd->footer.nid), fino = le32_get(nd->footer.ino), ino;
	uint32_t ofs = le32_get(nd->footer.flag) >> F2FS_NODE_OFS_SHIFT;
	struct ck_nid *n = ck_nid_find(ck, nid);
	enum f2fs_node_kind kind = f2fs_node_kind(ofs);
	struct ck_node *x;
	int ret;

	(void)item;
	(void)arg;
	ck->r->stats.node_blocks_read++;
	if (!n || n->blkaddr != addr)
		return footer_mismatch(ck, addr, nid);
	x = n->flags & NR_SELF ? NULL : ck_node_of(ck, nid);
	ino = x ? x->ino : nid;
	/* an inode's number is its nid: with neither the NAT's nor the
	 * footer's, a block that reads as an inode gets it on both */
	if (kind == F2FS_NODE_INODE && fino != nid && ino != nid &&
	    valid_mode(le16_get(nd->i.i_mode)) &&
	    (ret = footer_ino_fix(ck, "inode", nid, addr, nid, &fino, ino)))
		return ret;
	/* the NAT's ino fits the node and the footer's cannot, or the NAT's
	 * inode points at the node: the footer is the broken side */
	if (fino != ino && ino && footer_ino_usable(ck, nid, ino, kind) &&
	    (!footer_ino_usable(ck, nid, fino, kind) || tree_points_at(ck, ino, nid, ofs)) &&
	    (ret = footer_ino_fix(ck, "nid", nid, addr, ino, &fino, ino)))
		return ret;
	if (fino != ino) {
		/* an ino the NAT cannot hold was reported with the NAT */
		if (ino)
			ck_pb(ck, F2FS_PB_NAT_INO_MISMATCH,
			      AT(A_NID(nid), A_BLK(addr), A_EXP(fino), A_FOUND(ino)),
			      "nid %u: NAT ino %u, node footer ino %u", nid, ino, fino);
		if (!footer_ino_usable(ck, nid, fino, kind)) {
			n->flags |= NR_BAD;
			return 0;
		}
		ret = ino_from_footer(ck, n, nid, fino, &x);
		if (ret)
			return ret;
		ino = fino;
	}
	if ((nid == ino) != (kind == F2FS_NODE_INODE) || kind == F2FS_NODE_BAD) {
		ck_pb(ck, F2FS_PB_NODE_BAD_OFFSET,
		      AT(A_NID(nid), A_INO(ino), A_BLK(addr), A_FOUND(ofs)),
		      nid == ino ? "inode %u: node offset %u, expected 0" :
		      "nid %u: impossible node offset %u", nid, ofs);
		n->flags |= NR_BAD;
		return ck_fix_add(ck, F2FS_PB_NODE_BAD_OFFSET, FX_NAT_FREE, ino, addr, 0, nid);
	}
	if (x)
		x->ofs = ofs;
	n->flags |= NR_READ;
	ck->r->stats.nodes++;
	ret = note_owner(ck, addr, nid, 0, 1);
	if (ret)
		return ret;
	switch (kind) {
	case F2FS_NODE_INODE:
		n->flags |= NR_INODE;
		return sweep_inode(ck, n, nid, nd);
	case F2FS_NODE_DIRECT:
		return sweep_direct(ck, x, nd);
	case F2FS_NODE_INDIRECT:
	case F2FS_NODE_DOUBLE:
		for (uint32_t k = 0; k < F2FS_NIDS_PER_BLOCK; k++) {
			uint32_t c = le32_get(nd->in.nid[k]);

			if (c && (ret = add_edge(ck, c, ino, f2fs_node_child_ofs(ofs, k), 0)))
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
	if (k == ck->nids.n)
		return f2fs_fail(ck->err, -F2FS_E_CORRUPT, "no nid for node block 0x%x", addr);
	for (; k < ck->nids.n && (uint32_t)(ck->revmap[k] >> 32) == addr; k++) {
		uint32_t nid = (uint32_t)ck->revmap[k];

		ck_node_unreadable(ck, nid, addr, e);
		ck_nid_find(ck, nid)->flags |= NR_BAD | NR_UNREADABLE;
	}
	return 0;
}

/* The repair clears the pointer of edge ed (the xattr nid is the inode's). */
static int edge_fix(struct ck *ck, enum f2fs_problem_code code, const struct ck_edge *ed)
{
	return ck_fix_add(ck, code, FX_NODE_PTR, ed->owner, ed->expected_ofs, 0, ed->child);
}

/* A pointer to a node whose block is unusable (its footer): cleared with
 * the node's NAT entry, under that node's problem. */
static int bad_child_fix(struct ck *ck, const struct ck_edge *ed)
{
	for (size_t i = ck->fixes.n; i-- > 0;) {
		const struct ck_fix *f = &ck->fixes.v[i];

		if (f->op == FX_NAT_FREE && f->value == ed->child)
			return ck_fix_add(ck, (enum f2fs_problem_code)f->code, FX_NODE_PTR, ed->owner,
					  ed->expected_ofs, 0, ed->child);
	}
	return 0;
}

/* A pointer that names no node of its place: the owner's i_blocks cannot
 * be checked. An i_xattr_nid is cleared by the repair (the node it names
 * is no xattr node of this inode), after which its i_blocks is known. */
static int bad_pointer(struct ck *ck, const struct ck_edge *ed, struct ck_nid *owner)
{
	if (!owner)
		return 0;
	if (!ed->xattr) {
		owner->state |= IR_NOCOUNT;
		return 0;
	}
	owner->flags |= NR_XATTR_BAD;
	return ck_fix_add(ck, F2FS_PB_INODE_XATTR_NID, FX_XATTR_NID, ed->owner, 0, 0, ed->child);
}

/* The fix that clears inode ino's i_xattr_nid (bad_pointer), or NULL. */
static struct ck_fix *xattr_nid_fix(struct ck *ck, uint32_t ino)
{
	for (size_t k = ck->fixes.n; k-- > 0;)
		if (ck->fixes.v[k].op == FX_XATTR_NID && ck->fixes.v[k].ino == ino)
			return &ck->fixes.v[k];
	return NULL;
}

/* An xattr node no pointer reaches, whose inode's i_xattr_nid names a node
 * that is not its xattr node: the pointer was damaged, the node is the
 * one it lost. It is taken back (the repair sets i_xattr_nid to it rather
 * than clearing it), so the xattrs that continue into it are kept; its
 * area is checked with it. 1 when adopted. */
static int adopt_xattr_node(struct ck *ck, uint32_t nid, struct ck_nid *n)
{
	uint32_t ino = ck_nid_ino(ck, n, nid);
	const struct ck_node *cx = ck_node_of(ck, nid);
	struct ck_nid *in;
	struct ck_fix *f;
	int ret;

	if (ck_nid_ofs(ck, n, nid) != F2FS_XATTR_NODE_OFFSET)
		return 0;
	in = ck_inode(ck, ino);
	if (!in || !(in->flags & NR_XATTR_BAD) || !(f = xattr_nid_fix(ck, ino)))
		return 0;
	ck_pb(ck, F2FS_PB_INODE_XATTR_NID, AT(A_INO(ino), A_NID(nid), A_BLK(n->blkaddr)),
	      "inode %u: nid %u, its xattr node by its footer, is reached from nowhere: i_xattr_nid takes it back",
	      ino, nid);
	f->fofs = nid;
	/* every report its record: the same fix twice sets the pointer once */
	if ((ret = ck_fix_add(ck, F2FS_PB_INODE_XATTR_NID, FX_XATTR_NID, ino, nid, 0, f->value)))
		return ret;
	n->flags |= NR_REACHED;
	in->flags &= ~NR_XATTR_BAD;
	for (size_t k = 0; k < ck->xpend.n; k++)
		if (ck->xpend.v[k].ino == ino)
			ck->xpend.v[k].xnid = nid;
	ret = ck_cnt_add(ck, in, CK_BDIFF, (uint32_t)-(1 + (cx ? cx->ndata : 0)));
	return ret ? ret : 1;
}

static int check_edges(struct ck *ck)
{
	struct ck_nid_iter it = { 0 };
	struct ck_nid *n;
	uint32_t nid;

	for (size_t e = 0; e < ck->edges.n; e++) {
		const struct ck_edge *ed = &ck->edges.v[e];
		struct ck_nid *c = ck_nid_find(ck, ed->child);
		struct ck_nid *owner = ck_inode(ck, ed->owner);
		enum f2fs_problem_code code_missing = ed->xattr ? F2FS_PB_INODE_XATTR_NID :
				F2FS_PB_NODE_CHILD_MISSING;
		const struct ck_node *cx;
		uint32_t c_ino, c_ofs;
		int ret;

		if (!c) {
			ck_pb(ck, code_missing, AT(A_INO(ed->owner), A_NID(ed->child)),
			      "inode %u: pointer to nid %u, which is not in use", ed->owner,
			      ed->child);
			ck_nat_doubt(ck, ed->child);
			if ((ret = bad_pointer(ck, ed, owner)) ||
			    (!ed->xattr && (ret = edge_fix(ck, code_missing, ed))))
				return ret;
			continue;
		}
		if (!(c->flags & NR_READ)) {
			/* what an unreadable node maps cannot be counted */
			if ((c->flags & NR_UNREADABLE) && owner)
				owner->state |= IR_NOCOUNT;
			else if (!ed->xattr && (ret = bad_child_fix(ck, ed)))
				return ret;
			continue;
		}
		cx = c->flags & NR_SELF ? NULL : ck_node_of(ck, ed->child);
		c_ino = c->flags & NR_SELF ? ed->child : cx ? cx->ino : 0;
		c_ofs = cx ? cx->ofs : 0;
		if (c_ino != ed->owner) {
			ck_pb(ck, ed->xattr ? F2FS_PB_INODE_XATTR_NID : F2FS_PB_NODE_WRONG_OWNER,
			      AT(A_INO(ed->owner), A_NID(ed->child), A_EXP(ed->owner), A_FOUND(c_ino)),
			      "inode %u: pointer to nid %u, a node of inode %u", ed->owner,
			      ed->child, c_ino);
			ck_nat_doubt(ck, ed->child);
			if ((ret = bad_pointer(ck, ed, owner)) ||
			    (!ed->xattr && (ret = edge_fix(ck, F2FS_PB_NODE_WRONG_OWNER, ed))))
				return ret;
			continue;
		}
		if (c->flags & NR_REACHED) {
			ck_pb(ck, F2FS_PB_NODE_MULTIPLE_PARENTS,
			      AT(A_INO(ed->owner), A_NID(ed->child), A_BLK(c->blkaddr)),
			      "inode %u: nid %u is pointed to twice", ed->owner, ed->child);
			if ((ret = edge_fix(ck, F2FS_PB_NODE_MULTIPLE_PARENTS, ed)))
				return ret;
			continue;
		}
		if (c_ofs != ed->expected_ofs) {
			ck_pb(ck, ed->xattr ? F2FS_PB_INODE_XATTR_NID : F2FS_PB_NODE_BAD_OFFSET,
			      AT(A_INO(ed->owner), A_NID(ed->child), A_BLK(c->blkaddr),
				 A_EXP(ed->expected_ofs), A_FOUND(c_ofs)),
			      "inode %u: nid %u has node offset %u, its place needs %u",
			      ed->owner, ed->child, c_ofs, ed->expected_ofs);
			if ((ret = bad_pointer(ck, ed, owner)) ||
			    (!ed->xattr && (ret = edge_fix(ck, F2FS_PB_NODE_BAD_OFFSET, ed))))
				return ret;
			continue;
		}
		c->flags |= NR_REACHED;
		/* an inode cannot get here: its offset 0 is no child's */
		if (owner && (ret = ck_cnt_add(ck, owner, CK_BDIFF,
					       (uint32_t)-(1 + (cx ? cx->ndata : 0)))))
			return ret;
	}
	while (ck_nid_next(ck, &it, &nid, &n)) {
		int adopted;

		if ((n->flags & (NR_READ | NR_INODE | NR_REACHED)) != NR_READ)
			continue;
		adopted = adopt_xattr_node(ck, nid, n);
		if (adopted < 0)
			return adopted;
		if (!adopted)
			ck_pb(ck, F2FS_PB_NODE_UNREACHABLE,
			      AT(A_NID(nid), A_INO(ck_nid_ino(ck, n, nid)), A_BLK(n->blkaddr),
				 A_FOUND(ck_nid_ofs(ck, n, nid))),
			      "nid %u (offset %u of inode %u) is not reached from its inode",
			      nid, ck_nid_ofs(ck, n, nid), ck_nid_ino(ck, n, nid));
	}
	return 0;
}

static int cfile_less(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return ((const struct ck_cfile *)a)->ino < ((const struct ck_cfile *)b)->ino;
}

static struct ck_cfile *cfile_find(struct ck *ck, uint32_t ino)
{
	size_t lo = f2fs_lower_bound_u32(ck->cfiles.v, ck->cfiles.n, sizeof(*ck->cfiles.v),
					 offsetof(struct ck_cfile, ino), ino);

	return lo < ck->cfiles.n && ck->cfiles.v[lo].ino == ino ? &ck->cfiles.v[lo] : NULL;
}

/*
 * With every node read and placed: the COMPRESS_ADDR pointers of a file
 * that is not released are blocks of valid_block_count and i_blocks the
 * SIT does not mark, and i_compr_blocks is what its compressed clusters
 * save (the rule and the kernel code behind it: <f2fs/format/compress.h>).
 * COMPRESS_ADDR anywhere else counts for nothing, as in the kernel, which
 * takes a file without i_compr_blocks for released.
 */
static int finish_compressed(struct ck *ck)
{
	int ret = 0;

	f2fs_sort(ck->cfiles.v, ck->cfiles.n, sizeof(*ck->cfiles.v), cfile_less, NULL);
	for (size_t k = 0; k < ck->cnodes.n; k++) {
		const struct ck_cnode *cn = &ck->cnodes.v[k];
		const struct ck_nid *c = ck_nid_find(ck, cn->nid);
		struct ck_cfile *f;

		/* a node not reached is not counted for its inode at all */
		if (!c || !(c->flags & NR_REACHED))
			continue;
		f = cfile_find(ck, ck_nid_ino(ck, c, cn->nid));
		if (!f)
			continue;
		f->caddrs += cn->caddrs;
		f->saved += cn->saved[f->log_cs - F2FS_MIN_LOG_CLUSTER];
	}
	for (size_t k = 0; k < ck->cfiles.n && !ret; k++) {
		const struct ck_cfile *f = &ck->cfiles.v[k];
		struct ck_nid *in = ck_inode(ck, f->ino);
		uint64_t want = f->released ? 0 : f->saved;

		if (!f->released) {
			ck->compr_addrs += f->caddrs;
			if (in)
				ret = ck_cnt_add(ck, in, CK_BDIFF, -(uint32_t)f->caddrs);
		}
		if (f->compr_blocks != want) {
			ck_pb(ck, F2FS_PB_INODE_COMPR_BLOCKS,
			      AT(A_INO(f->ino), A_EXP(want), A_FOUND(f->compr_blocks)),
			      f->released ?
			      "inode %u: i_compr_blocks %llu in a released file, expected %llu" :
			      "inode %u: i_compr_blocks %llu, its compressed clusters save %llu",
			      f->ino, (unsigned long long)f->compr_blocks,
			      (unsigned long long)want);
			if (!ret)
				ret = ck_fix_add(ck, F2FS_PB_INODE_COMPR_BLOCKS, FX_COMPR_BLOCKS,
						 f->ino, want, 0, 0);
		}
	}
	f2fs_vec_free(&ck->cfiles);
	f2fs_vec_free(&ck->cnodes);
	return ret;
}

int ck_nodes(struct ck *ck)
{
	struct ck_nid *root;
	int ret;

	ck->segfp = calloc((size_t)ck->main_segs + 1, sizeof(*ck->segfp));
	if (!ck->segfp)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for the node sweep");
	/* node blocks in address order, straight from the map the NAT filled */
	ret = ck_read_map(ck, ck->nodemap, ck->main_end - ck->main_blkaddr, "nodes",
			  sweep_cb, sweep_bad, NULL);
	if (ret) {
		f2fs_vec_free(&ck->cfiles);
		f2fs_vec_free(&ck->cnodes);
		return ret;
	}
	ck_dirs_sort(ck);
	ret = check_edges(ck);
	if (ret) {
		f2fs_vec_free(&ck->cfiles);
		f2fs_vec_free(&ck->cnodes);
		return ret;
	}
	ret = finish_compressed(ck);
	if (ret)
		return ret;
	root = ck_inode(ck, F2FS_ROOT_INO);
	/* a root the NAT lost is asked of the node blocks before a new one
	 * is made (which would leave every file to lost+found) */
	if (!root)
		ck_nat_doubt(ck, F2FS_ROOT_INO);
	if (!ck_is_dir(root))
		ck_pb(ck, F2FS_PB_ROOT_BAD, AT(A_INO(F2FS_ROOT_INO)),
		      "the root inode %s (mode 0%o)",
		      root ? "is not a directory" : "does not exist or is unusable",
		      root ? ck_inode_mode(ck, root) : 0u);
	return 0;
}
