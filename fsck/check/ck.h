/*
 * Internals of the checker: the state of a run (struct ck), the records the
 * walk keeps, and the services every pass uses (report.c, records.c,
 * read.c). The passes themselves are declared in passes.h.
 */
#ifndef F2FS_FSCK_CK_H
#define F2FS_FSCK_CK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../checker.h"
#include <f2fs/format/bitmap.h>
#include <f2fs/format/compress.h>
#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/fs/fs.h>
#include <f2fs/util/u32map.h>
#include <f2fs/util/vec.h>

/* Largest read issued at once, in blocks (256 KiB): large enough that the
 * syscalls cost nothing next to the copying, small next to the records. */
#define CK_IO_BLOCKS 64u
/* Words of the nid bitmap per nid_base entry: fewer than 2^16 / 64. */
#define CK_RANK_SPAN 1024u
/* Gap of unwanted blocks a batched read may span rather than split. */
#define CK_IO_GAP 16u

/* Where a problem is: the numbers that apply, and what names its path. */
struct ck_at {
	uint32_t nid, ino, segno;
	uint64_t blkaddr, expected, found;
	uint8_t h_nid, h_ino, h_seg, h_blk, h_exp, h_found;
	uint8_t has_path;
	uint32_t path_ino;        /* path of this inode (or directory of name) */
	const uint8_t *name;      /* entry name inside path_ino, may be NULL */
	uint32_t name_len;
};

#define A_NID(x)   .nid = (x), .h_nid = 1
#define A_INO(x)   .ino = (x), .h_ino = 1
#define A_SEG(x)   .segno = (x), .h_seg = 1
#define A_BLK(x)   .blkaddr = (x), .h_blk = 1
#define A_EXP(x)   .expected = (x), .h_exp = 1
#define A_FOUND(x) .found = (x), .h_found = 1
#define A_DIRNAME(d, nm, len) .has_path = 1, .path_ino = (d), .name = (nm), .name_len = (len)
#define AT(...) (&(struct ck_at){ __VA_ARGS__ })

/* One SIT entry of a main segment, journal applied. */
struct ck_seg {
	uint64_t mtime;           /* kept by a repair that rewrites the entry */
	uint16_t vblocks;         /* valid count as stored */
	uint8_t type;             /* segment type as stored */
	uint8_t cur;              /* 1 + log index when a current segment */
	uint8_t map[F2FS_SIT_VBLOCK_MAP_SIZE];   /* MSB-first */
};

/* A nid in use (NAT block address in the main area). */
enum {
	NR_READ   = 1 << 0,       /* block read, footer nid matches */
	NR_INODE  = 1 << 1,       /* an inode (nid == ino, offset 0) */
	NR_REACHED = 1 << 2,      /* pointed to by its parent node */
	NR_BAD    = 1 << 3,       /* unusable: reported already */
	NR_SELF   = 1 << 4,       /* the NAT gives ino == nid */
	NR_UNREADABLE = 1 << 5,   /* its block could not be read (with NR_BAD) */
	/* inode: i_xattr_nid names no xattr node of its own; i_blocks is not
	 * checked, but is known again once the pointer is cleared */
	NR_XATTR_BAD = 1 << 6,
};

/* Per inode (NR_INODE), the low bits of ck_nid.state; its file type
 * (F2FS_FT_*, from i_mode) takes the bits from IR_TYPE_SHIFT up. */
enum {
	IR_ORPHAN   = 1 << 0,
	IR_SPECIAL  = 1 << 1,     /* quota file: no directory entry */
	IR_NOCOUNT  = 1 << 2,     /* do not check i_blocks (damaged) */
	IR_BROKEN   = 1 << 3,     /* layout unusable; content skipped */
	IR_BIG_IBLOCKS = 1 << 4,  /* i_blocks >= 2^32: cannot match any count */
};
#define IR_TYPE_SHIFT 5

/*
 * One record per nid in use, inode or not: 8 bytes, so that a million
 * files cost 8 MB. ck.nids[] is in nid order and found through the
 * nid_used bitmap (ck_nid_find), so the nid itself is not stored. Only
 * what every nid needs is here; what few need lives beside it: a node
 * other than an inode in ck.nodes, a directory in ck.dirs, a counter too
 * large for its bits in ck.wide. A report that wants an inode's mode reads
 * the inode again (only damaged images have such reports), and the first
 * directory naming a file is found again when a report wants its path.
 */
struct ck_nid {
	uint32_t blkaddr;         /* from the NAT */
	uint8_t flags;            /* NR_* */
	uint8_t state;            /* inode: IR_* | F2FS_FT_* << IR_TYPE_SHIFT */
	uint16_t cnt;             /* inode: its counters (ck_cnt) */
};
_Static_assert(sizeof(struct ck_nid) == 8, "a record per nid in use is 8 bytes");

/* A node whose NAT ino is not its own nid (NR_SELF clear): never an inode. */
struct ck_node {
	uint32_t nid;
	uint32_t ino;             /* from the NAT */
	uint32_t ofs;             /* node offset from the footer, once read */
	uint32_t ndata;           /* data pointers counted */
};

/*
 * The counters of an inode, each a uint32_t (mod 2^32, as the checks
 * compare them). Almost all are small (a file has one link, one entry, and
 * its i_blocks matches), so each has a few bits of ck_nid.cnt; a value
 * that does not fit leaves a mark there and sits exactly in ck.wide.
 */
enum ck_cnt {
	CK_LINKS,                 /* i_links */
	CK_REFS,                  /* directory entries naming it */
	CK_BDIFF,                 /* i_blocks minus blocks counted */
	CK_NCNT
};

/* The counters of one record that did not fit. */
struct ck_wide {
	uint32_t v[CK_NCNT];
};

struct ck_wtab {
	struct f2fs_u32map at;              /* index in ck.nids -> index in cnt */
	F2FS_VEC(struct ck_wide) cnt;
};

/* Per directory. */
enum {
	DR_HAS_DOT    = 1 << 0,
	DR_HAS_DOTDOT = 1 << 1,
	DR_CASEFOLD   = 1 << 2,
	DR_ENCRYPTED  = 1 << 3,
};

/* Per directory, in nid order once the node pass is over (ck_dir_of). */
struct ck_dir {
	uint32_t nid;
	uint32_t parent;          /* first directory found naming it */
	uint32_t dotdot;          /* ino in its ".." entry */
	uint32_t pino;
	uint32_t subdirs;
	uint64_t size;
	uint16_t addrs;           /* data pointers in the inode (<= 923) */
	uint16_t xwords;          /* inline xattr words, as the sweep read them */
	uint8_t dir_level, inline_flags;
	uint8_t state;            /* DR_* */
	uint8_t conn;             /* reachability walk state */
};

/* A directory block to read after the walk (inline: the inode's block). */
struct ck_dblk {
	uint32_t addr, nid;
	uint16_t idx;             /* index in the node's pointer array */
	uint8_t inl;              /* 1: inline dentries in the inode block */
	uint8_t pad;
};

/* What the repair is to change where the check found a problem it can
 * only fix knowing where (ck.fixes): an entry of directory ino, or a
 * field of inode ino. */
enum ck_fix_op {
	FX_REMOVE,                /* drop the entry (value: slots it spans) */
	FX_TYPE,                  /* entry's file type := value */
	FX_HASH,                  /* entry's hash := value */
	FX_REBUCKET,              /* move the entry to its hash's bucket */
	FX_INO,                   /* entry's ino := value ("." naming another) */
	FX_MARK,                  /* mark the entry's value slots used */
	FX_RENAME,                /* a second copy of a name: rename it */
	FX_DOT,                   /* the directory needs a "." entry */
	FX_DOTDOT,                /* its ".." must name value (add it if none) */
	FX_PINO,                  /* inode's i_pino := value */
	FX_DIR_SIZE,              /* directory's i_size := value blocks at least */
	FX_DIR_LEVEL,             /* directory's i_dir_level := value */
	/* orphans, root, loops */
	FX_LOOP,                  /* directory ino is in a loop: its entry in
				   * value (its loop parent) goes, it moves to
				   * lost+found */
	/* blocks and node pointers (blocks.c): ino is the inode, value
	 * the node holding the data pointer at index slot */
	FX_CLONE,                 /* its block is owned already: a copy for it */
	FX_HOLE,                  /* it points outside the main area: a hole */
	FX_MOVE,                  /* its block lies in a node segment: moved */
	FX_NODE_PTR,              /* the pointer at node offset fofs to nid value
				   * (in inode ino's tree) is cleared */
	FX_NAT_FREE,              /* the NAT entry of nid value is freed */
	FX_NAT_SET,               /* the NAT entry of nid value := ino, block fofs,
				   * version slot (a node block answers for it) */
	/* inode fields and xattrs (inodes.c, xattrs.c) */
	FX_RESEAL,                /* inode rewritten: its checksum recomputed */
	FX_FOOTER_INO,            /* node ino's footer ino := value */
	FX_MODE,                  /* inode's i_mode := value */
	FX_EXTRA_ISIZE,           /* inode's i_extra_isize := value (first of all) */
	FX_ISIZE,                 /* inode's i_size := fofs */
	FX_COMPR_BLOCKS,          /* inode's i_compr_blocks := fofs */
	FX_DEPTH,                 /* directory's i_current_depth := value */
	FX_XATTR_NID,             /* i_xattr_nid (value: the nid) cleared, or set
				   * to fofs, a lost xattr node, when not 0 */
	FX_INLINE_XATTR_SIZE,     /* i_inline_xattr_size := value words */
	FX_INLINE_CLEAR,          /* i_inline &= ~value, then |= fofs; slot 1:
				   * i_nid[] cleared too */
	FX_EXTENT,                /* inode's largest extent (i_ext) dropped */
	FX_INLINE_RESERVED,       /* inline inode's reserved pointer slot := 0 */
	FX_XATTR_MAGIC,           /* xattr area (value: xattr nid or 0): magic set */
	FX_XATTR_CUT,             /* xattr area cut at byte fofs (zeroed from there) */
	FX_XATTR_DROP,            /* entry at byte fofs of the area (slot bytes) removed */
};

struct ck_fix {
	uint32_t ino;
	uint32_t value;
	uint64_t fofs;            /* the entry's dentry block; UINT64_MAX inline */
	uint16_t slot;
	uint8_t op;               /* enum ck_fix_op */
	uint8_t code;             /* the problem (enum f2fs_problem_code) */
};

/* A compressed file, and what its clusters count for (the rule is in
 * <f2fs/format/compress.h>); kept by the node pass until its end. */
struct ck_cfile {
	uint32_t ino;
	uint8_t log_cs;           /* i_log_cluster_size */
	uint8_t released;         /* F2FS_COMPRESS_RELEASED */
	uint64_t compr_blocks;    /* i_compr_blocks */
	uint64_t caddrs, saved;   /* counted over its pointers */
};

/* A direct node with COMPRESS_ADDR pointers. Its inode may be read after
 * it, so its clusters are counted for every cluster size. */
struct ck_cnode {
	uint32_t nid;
	uint16_t caddrs;
	uint16_t saved[F2FS_NR_LOG_CLUSTER];   /* by log cluster size */
};

/* An inode's largest extent that runs past i_addr into direct nodes
 * (pass_extent.c), and a direct node's part of one. */
struct ck_ext {
	uint32_t ino, addrs;      /* the inode, its pointers in i_addr */
	uint32_t fofs, blk, len;  /* i_ext */
	uint32_t matched;         /* blocks past i_addr the reached nodes match */
	uint8_t bad;              /* a reached node does not match */
};

struct ck_ext_node {
	uint32_t nid, ext;        /* the direct node, index in ck.exts */
	uint32_t count;           /* blocks of the extent it maps */
	uint8_t ok;               /* its pointers match them */
};

/* A block and its owner, kept only for segments whose SSA must be checked
 * entry by entry (ck.ssa_exact). */
struct ck_blk {
	uint32_t addr;
	uint32_t nid;             /* node holding the pointer, or the node itself */
	uint16_t idx;             /* index in the node's pointer array */
	uint8_t node;             /* 1: a node block */
	uint8_t pad;
};

/* Parent node -> child node pointer. */
struct ck_edge {
	uint32_t child, owner, expected_ofs;
	uint8_t xattr;
};

struct ck_pending_path {
	uint32_t ino;
	uint8_t *name;      /* name_len bytes, NULL when the path is ino's own */
	uint32_t name_len;
};

/* ---- the state of the passes that ride along the walk ---------------- */

/* Usage of one quota id. */
struct ck_qusage {
	uint32_t id;
	bool recorded;            /* the quota file has a record of it */
	uint64_t inodes, space;   /* space in bytes, as the quota file keeps it */
};

/* The usage of every id charged; reports walk it in the map's order. */
struct ck_qtab {
	struct f2fs_u32map at;              /* id -> index in usage */
	F2FS_VEC(struct ck_qusage) usage;
};

/* An inode whose xattrs continue in an xattr node: its inline part, kept
 * until the node is read after the walk. */
struct ck_xpend {
	uint32_t ino, xnid;
	uint32_t inline_len;
	uint8_t *inline_copy;
};

struct ck_names {
	uint8_t *seen;                     /* bit per (directory, name hash) */
	uint64_t seen_mask;                /* bits in seen, minus one */
	F2FS_VEC(uint64_t) keys;           /* keys of entries whose bit was set */
};

/* A node block that answers for a nid whose NAT entry is in doubt: its
 * footer, its summary entry and the SIT agree on it (nat_answers.c). */
struct ck_answer {
	uint32_t nid, ino, blkaddr;
	uint32_t ver;             /* low 32 bits of the footer's cp_ver */
	uint32_t ties;            /* other blocks of the same version */
	uint8_t valid;            /* the SIT marks the block valid */
	uint8_t version;          /* NAT entry version its data summaries give */
};

struct ck_answers {
	struct f2fs_u32map at;              /* nid -> index in v + 1 */
	struct f2fs_u32map by_addr;         /* blkaddr -> index in v + 1 */
	F2FS_VEC(struct ck_answer) v;
	uint64_t *asked;                    /* nids asked about, over max_nid */
};

struct ck {
	struct f2fs_fs *fs;
	const struct f2fs_super_block *sb;
	const struct f2fs_checkpoint *cp;
	uint16_t extra_isize_seen;        /* i_extra_isize of the first sound inode read */
	const struct f2fs_check_options *opt;
	struct f2fs_check_report *r;
	size_t problems_cap;              /* of r->problems */
	F2FS_VEC(struct ck_pending_path) paths;   /* parallel to r->problems */
	uint32_t max_per;
	uint32_t features, ckpt_flags;

	uint32_t main_blkaddr, main_segs, ssa_blkaddr;
	uint64_t main_end;
	uint32_t max_nid, nat_blocks;
	uint32_t qf_ino[F2FS_MAX_QUOTAS];  /* the quota inodes followed (check_sb) */

	struct ck_seg *segs;              /* main_segs */
	uint64_t sit_valid_total;

	uint64_t *nid_used;               /* bitmap over max_nid */
	/* used nids before each word of nid_used: those before its span of
	 * CK_RANK_SPAN words plus those before it in the span (16 bits are
	 * enough there, and half the memory of 32) */
	uint32_t *nid_base;
	uint16_t *nid_rank;
	F2FS_VEC(struct ck_nid) nids;     /* in nid order */
	F2FS_VEC(struct ck_node) nodes;   /* in nid order */
	struct ck_wtab wide;              /* counters too large for ck_nid.cnt */
	/* (ino << 32 | first directory naming it), sorted: for the files
	 * whose path a report wants (ck_dirs_parents) */
	F2FS_VEC(uint64_t) fparents;
	uint16_t *nat_used;               /* entries in use per NAT block */
	uint32_t nat_nodes, nat_inodes;
	/* nids whose NAT ino the walk replaced by their footer's */
	F2FS_VEC(uint32_t) ino_from_footer;

	uint8_t *owned;                   /* per main block, MSB-first per segment */
	uint8_t *nodemap;                 /* main blocks the NAT names, same layout */
	uint64_t *revmap;                 /* (blkaddr << 32 | nid), sorted; made
					   * only when a footer does not match */

	F2FS_VEC(struct ck_dir) dirs;
	F2FS_VEC(struct ck_dblk) dblks;   /* directory blocks to read */
	/* direct nodes whose data may be a directory's: read again if so */
	F2FS_VEC(uint32_t) dnodes;
	/* (nid << 32 | idx) of pointers to blocks owned already, sorted */
	F2FS_VEC(uint64_t) lost;
	F2FS_VEC(struct ck_edge) edges;

	/* SSA: per segment, a sum of hashes of (block, owner) over the blocks
	 * found in use; compared with the same sum over the SSA entries. Only
	 * a segment whose sums differ is checked entry by entry, in a second
	 * run that keeps its blocks (ssa_exact set, blks). */
	uint64_t *segfp;
	uint64_t *ssa_exact;              /* bitmap over main_segs, or NULL */
	uint64_t *ssa_redo;               /* segments whose sums differ */
	uint64_t *ssa_badtype;            /* segments whose summary type is wrong */
	uint32_t nredo;
	F2FS_VEC(struct ck_blk) blks;

	uint8_t *io;                      /* CK_IO_BLOCKS blocks */
	struct f2fs_error *err;

	uint64_t new_addrs;               /* NEW_ADDR pointers found */
	uint64_t compr_addrs;             /* COMPRESS_ADDR pointers that count */
	F2FS_VEC(struct ck_cfile) cfiles; /* the node pass's own, freed there */
	F2FS_VEC(struct ck_cnode) cnodes;

	/* the passes that ride along the walk (passes.h) */
	int hook_nomem;                   /* a hook could not allocate */
	struct ck_qtab quota[F2FS_MAX_QUOTAS];
	uint8_t quota_bad;                /* bit per quota type found wrong */
	F2FS_VEC(struct ck_xpend) xpend;
	F2FS_VEC(struct ck_ext) exts;
	struct f2fs_u32map ext_at;        /* ino -> index in exts + 1 */
	/* nid -> its NAT entry's version, for the versions that are not 0
	 * (a nid freed and taken again): a data block's summary carries its
	 * node's, which the kernel's GC compares (ck_nat_version) */
	struct f2fs_u32map nat_ver;
	F2FS_VEC(struct ck_ext_node) ext_nodes;
	F2FS_VEC(uint32_t) ext_later;     /* direct nodes read before their inode */
	struct ck_names names;
	F2FS_VEC(uint32_t) orphans;       /* inos accepted as orphans */
	F2FS_VEC(struct ck_fix) fixes;    /* what the repair is to change */

	/* NAT entries in doubt: nids the walk found named but not usable
	 * (doubts), and the node blocks found to answer for such nids, which
	 * the NAT pass takes in place of their entries (answers; a second
	 * run is given those of the first) */
	F2FS_VEC(uint32_t) doubts;
	struct ck_answers *answers;
	bool given_answers;               /* a second run's, from the first */
	bool nat_rerun;                   /* answers found: check again */
};

/* Note a fix for the repair; fails only out of memory. */
int ck_fix_add(struct ck *ck, enum f2fs_problem_code code, enum ck_fix_op op, uint32_t ino,
	       uint64_t fofs, uint32_t slot, uint32_t value);

/* ---- report.c ---------------------------------------------------------- */

/* Report a problem (the message is printf-style). */
void ck_pb(struct ck *ck, enum f2fs_problem_code code, const struct ck_at *at,
	   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Name the path of the first record of code about nid, if it has none yet:
 * entry name (len bytes) of directory dir. */
void ck_pb_name(struct ck *ck, enum f2fs_problem_code code, uint32_t nid, uint32_t dir,
		const uint8_t *name, uint32_t len);

/* Report node.unreadable for nid, whose block addr could not be read. */
void ck_node_unreadable(struct ck *ck, uint32_t nid, uint32_t addr, const struct f2fs_error *e);

void ck_progress(struct ck *ck, const char *phase, uint64_t done, uint64_t total);

/* At the end of a full run: the paths of the records that name an inode
 * (of the first CK_PATHS_MAX such records). */
#define CK_PATHS_MAX 500
void ck_resolve_paths(struct ck *ck);
/* The inodes whose paths ck_resolve_paths will look for (at most max). */
size_t ck_paths_pending(const struct ck *ck, uint32_t *inos, size_t max);
/* At the end of any run: "/" for records about the root without a path. */
void ck_root_paths(struct ck *ck);
void ck_paths_free(struct ck *ck);
/* Path of inode ino from the parents the walk found (*len bytes; a name
 * may hold NUL), or NULL; base + "/" + name (base freed; NULL when out
 * of memory). */
char *ck_path_of(struct ck *ck, uint32_t ino, size_t *len);
char *ck_path_join(char *base, size_t *len, const uint8_t *name, size_t name_len);



/* Is blkaddr in the main area; its segment and offset. */
static inline int ck_in_main(const struct ck *ck, uint64_t a)
{
	return a >= ck->main_blkaddr && a < ck->main_end;
}

static inline uint32_t ck_segno(const struct ck *ck, uint64_t a)
{
	return (uint32_t)((a - ck->main_blkaddr) / F2FS_BLOCKS_PER_SEG);
}

static inline int ck_seg_is_node(uint8_t type)
{
	return type >= F2FS_SEG_HOT_NODE && type <= F2FS_SEG_COLD_NODE;
}

/* Valid bit of a main block in the SIT. */
static inline int ck_sit_valid(const struct ck *ck, uint64_t a)
{
	uint64_t off = a - ck->main_blkaddr;

	return f2fs_msb_test(ck->segs[off / F2FS_BLOCKS_PER_SEG].map,
			  (uint32_t)(off % F2FS_BLOCKS_PER_SEG));
}

/* Claim a main block; returns 1 if it was already claimed. */
static inline int ck_claim(struct ck *ck, uint64_t a)
{
	uint64_t off = a - ck->main_blkaddr;
	uint8_t mask = (uint8_t)(0x80u >> (off % 8));
	uint8_t *p = &ck->owned[off / 8];
	int was = (*p & mask) != 0;

	*p |= mask;
	return was;
}

/* ---- records.c --------------------------------------------------------- */

/* The record of a nid in use, or NULL. */
struct ck_nid *ck_nid_find(struct ck *ck, uint32_t nid);

/* The record of inode ino (NR_INODE), or NULL. */
struct ck_nid *ck_inode(struct ck *ck, uint32_t ino);

/* File type of an inode record (F2FS_FT_*). */
static inline uint8_t ck_ftype(const struct ck_nid *n)
{
	return (uint8_t)(n->state >> IR_TYPE_SHIFT);
}

static inline int ck_is_dir(const struct ck_nid *n)
{
	return n && (n->flags & NR_INODE) && ck_ftype(n) == F2FS_FT_DIR;
}

/* i_mode of an inode record, read again from its block (the record keeps
 * only the file type, which is what is left when that read fails). */
uint16_t ck_inode_mode(struct ck *ck, const struct ck_nid *n);

/* The directory record of inode record n of nid, or NULL. Usable once
 * the node pass has put ck.dirs in nid order (ck_dirs_sort). */
struct ck_dir *ck_dir_of(struct ck *ck, const struct ck_nid *n, uint32_t nid);
void ck_dirs_sort(struct ck *ck);

/* First directory found naming inode record n of nid (0 if none or not
 * known: a file's is known only when a report asked, ck_dirs_parents). */
uint32_t ck_parent(struct ck *ck, const struct ck_nid *n, uint32_t nid);

/* The node record of nid whose record n has NR_SELF clear. */
struct ck_node *ck_node_of(struct ck *ck, uint32_t nid);
/* Make (or reset) the node record of nid: owner ino, nothing counted yet;
 * NULL when out of memory. For a NAT ino the walk corrects (rare). */
struct ck_node *ck_node_put(struct ck *ck, uint32_t nid, uint32_t ino);

/* Owner inode and node offset of a node record n of nid. */
static inline uint32_t ck_nid_ino(struct ck *ck, const struct ck_nid *n, uint32_t nid)
{
	const struct ck_node *x;

	if (n->flags & NR_SELF)
		return nid;
	x = ck_node_of(ck, nid);
	return x ? x->ino : 0;
}

static inline uint32_t ck_nid_ofs(struct ck *ck, const struct ck_nid *n, uint32_t nid)
{
	const struct ck_node *x;

	if (n->flags & NR_SELF)
		return 0;
	x = ck_node_of(ck, nid);
	return x ? x->ofs : 0;
}

/* Walk the nids in use in nid order: it = { 0 }, then while (ck_nid_next()). */
struct ck_nid_iter {
	uint32_t w, k;
	uint64_t bits;
	int started;
};
int ck_nid_next(struct ck *ck, struct ck_nid_iter *it, uint32_t *nid, struct ck_nid **n);

/* The NAT version of nid in use (0 for most). */
static inline uint8_t ck_nat_version(const struct ck *ck, uint32_t nid)
{
	return ck->nat_ver.n ? (uint8_t)f2fs_u32map_get(&ck->nat_ver, nid) : 0;
}

/* What a data block's summary says besides its nid, as one value: its
 * offset in the node and the node's NAT version. */
static inline uint32_t ck_sum_ofs(uint32_t ofs, uint8_t version)
{
	return ofs | (uint32_t)version << 16;
}

/* Hash of a block and its owner, summed per segment (ck.segfp). */
static inline uint64_t ck_fp(uint32_t addr, uint32_t nid, uint32_t ofs)
{
	uint64_t x = ((uint64_t)addr << 32 | nid) * 0x9E3779B97F4A7C15ull;

	x ^= ((uint64_t)ofs + 1) * 0xC2B2AE3D27D4EB4Full;
	x ^= x >> 31;
	x *= 0xBF58476D1CE4E5B9ull;
	x ^= x >> 29;
	x *= 0x94D049BB133111EBull;
	return x ^ (x >> 32);
}
/* ofs used for node blocks, whose SSA offset is not checked */
#define CK_FP_NODE 0x10000u

static inline int ck_bit64(const uint64_t *m, uint64_t i)
{
	return (int)((m[i / 64] >> (i % 64)) & 1);
}

static inline void ck_bit64_set(uint64_t *m, uint64_t i)
{
	m[i / 64] |= 1ull << (i % 64);
}

static inline void ck_bit64_clear(uint64_t *m, uint64_t i)
{
	m[i / 64] &= ~(1ull << (i % 64));
}

/* Queue a directory block for the directory pass (inl: inline dentries in
 * the inode's own block). */
int ck_queue_dblk(struct ck *ck, uint32_t addr, uint32_t nid, uint32_t idx, int inl);

/* Keep a block and its owner for the entry-by-entry SSA check. */
int ck_add_blk(struct ck *ck, uint32_t addr, uint32_t nid, uint32_t idx, int node);

/*
 * The records as the passes riding along the walk see them.
 */
/* Links and directory entries of inode ino; 0 when ino is no inode. */
int ck_rec_inode(struct ck *ck, uint32_t ino, uint32_t *links, uint32_t *refs);
/* Owner of node nid, or 0 when nid is not in use. */
uint32_t ck_rec_node_owner(struct ck *ck, uint32_t nid);
/* Was the block of nid unreadable in the walk (node.unreadable)? */
int ck_rec_unreadable(struct ck *ck, uint32_t nid);
/* Mark inode ino as an orphan; returns 1 if it was marked already. */
int ck_rec_set_orphan(struct ck *ck, uint32_t ino);
/* Do directory dir's names fold (casefolded, and not encrypted: cipher
 * text is compared as stored)? */
int ck_rec_casefold(struct ck *ck, uint32_t dir);
/* Is directory dir encrypted (its names cipher text)? */
int ck_rec_encrypted(struct ck *ck, uint32_t dir);
/* Call fn for each inode whose i_blocks differs from the blocks the walk
 * counted (diff = i_blocks - counted), skipping those it could not count. */
typedef int (*ck_rec_bdiff_fn)(struct ck *ck, uint32_t ino, int64_t diff, void *arg);
int ck_rec_foreach_bdiff(struct ck *ck, ck_rec_bdiff_fn fn, void *arg);
/* The diff ck_rec_foreach_bdiff gives inode ino; 0 when it skips it. */
int64_t ck_rec_bdiff(struct ck *ck, uint32_t ino);
/* Block of nid when the walk read it as the reached xattr node of owner;
 * 0 otherwise (the walk reports such damage itself). */
uint32_t ck_rec_xattr_node(struct ck *ck, uint32_t nid, uint32_t owner);

/* ---- counts.c ------------------------------------------------------------ */

/*
 * The counters in ck_nid.cnt: 5 bits each for CK_LINKS and CK_REFS
 * (0..30), 6 signed bits for CK_BDIFF (-31..31); the bits left over (31,
 * -32) mark a value kept in ck.wide. The common case is inline, with the
 * counter a constant at every call; counts.c keeps the table.
 */
static inline uint32_t ck_cnt_shift(enum ck_cnt c) { return (uint32_t)c * 5; }
static inline uint32_t ck_cnt_bits(enum ck_cnt c) { return c == CK_BDIFF ? 6 : 5; }
static inline uint32_t ck_cnt_mark(enum ck_cnt c)
{
	return c == CK_BDIFF ? 1u << 5 : (1u << 5) - 1;
}

uint32_t ck_cnt_wide(const struct ck *ck, const struct ck_nid *n, enum ck_cnt c);
int ck_cnt_set_wide(struct ck *ck, struct ck_nid *n, enum ck_cnt c, uint32_t v);
void ck_cnt_free(struct ck *ck);

/* A counter of inode record n. */
static inline uint32_t ck_cnt(const struct ck *ck, const struct ck_nid *n, enum ck_cnt c)
{
	uint32_t half = 1u << (ck_cnt_bits(c) - 1);
	uint32_t b = ((uint32_t)n->cnt >> ck_cnt_shift(c)) & ((1u << ck_cnt_bits(c)) - 1);

	if (b == ck_cnt_mark(c))
		return ck_cnt_wide(ck, n, c);
	return c == CK_BDIFF ? (b ^ half) - half : b;
}

/* Set it; fails only when ck.wide cannot grow. */
static inline int ck_cnt_set(struct ck *ck, struct ck_nid *n, enum ck_cnt c, uint32_t v)
{
	uint32_t half = 1u << (ck_cnt_bits(c) - 1), mask = (1u << ck_cnt_bits(c)) - 1;
	int fits = c == CK_BDIFF ? v + (half - 1) < 2 * half - 1 : v < ck_cnt_mark(c);

	if (!fits)
		return ck_cnt_set_wide(ck, n, c, v);
	n->cnt = (uint16_t)((n->cnt & ~(mask << ck_cnt_shift(c))) | (v & mask) << ck_cnt_shift(c));
	return 0;
}

static inline int ck_cnt_add(struct ck *ck, struct ck_nid *n, enum ck_cnt c, uint32_t d)
{
	return ck_cnt_set(ck, n, c, ck_cnt(ck, n, c) + d);
}

/* ---- read.c -------------------------------------------------------------- */

typedef int (*ck_block_fn)(struct ck *ck, uint32_t item, uint32_t addr,
			   const uint8_t *blk, void *arg);
/* A block that could not be read (e says why); returns 0 to go on. */
typedef int (*ck_bad_fn)(struct ck *ck, uint32_t item, uint32_t addr,
			 const struct f2fs_error *e, void *arg);
/*
 * Read the main blocks set in map (ck.owned layout) in address order, in
 * batches; fn gets each (item 0). A batch whose read fails is read again
 * block by block: bad gets each block that still fails and the rest go on;
 * with bad NULL such a block ends the read with its error.
 */
int ck_read_map(struct ck *ck, const uint8_t *map, uint64_t total, const char *phase,
		ck_block_fn fn, ck_bad_fn bad, void *arg);

/* Read sorted (addr << 32 | item) keys in batches; fn gets each block,
 * bad each that cannot be read, as ck_read_map(). */
int ck_read_sorted(struct ck *ck, const uint64_t *keys, size_t n,
		   const char *phase, ck_block_fn fn, ck_bad_fn bad, void *arg);

#endif
