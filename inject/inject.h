/* inject.f2fs: change one field of an F2FS image's metadata, for tests. */
#ifndef INJECT_H
#define INJECT_H

#include <stdbool.h>
#include <stdint.h>

#include <f2fs/fs/fs.h>
#include <f2fs/util/error.h>

/* Exit statuses (inject.f2fs(8)). */
#define EXIT_DONE     0
#define EXIT_USAGE    1   /* the command line: an option, a member, an index, a value */
#define EXIT_NOTARGET 2   /* the image has no such instance (nid not in use, ...) */
#define EXIT_IO       8   /* cannot open, read or write the image (mounted included) */

enum inj_target {
	T_NONE = 0, T_SB, T_CP, T_NAT, T_SIT, T_SSA, T_NODE, T_DENT,
	/* what f2fs-tools' inject.f2fs does not reach */
	T_ORPHAN, T_NAT_BITS, T_XATTR, T_QUOTA, T_GARBAGE,
};

struct inj_opts {
	const char *image;
	const char *mb;          /* --mb: the member */
	const char *str;         /* --str */
	const char *garbage;     /* --garbage: random, zero or ones */
	enum inj_target target;
	int copy;                /* N of --sb/--cp/--nat/--sit/--orphan/--nat-bits;
				    the quota type of --quota */
	uint32_t nid, idx, id;
	uint64_t blk, val;
	bool has_nid, has_blk, has_idx, has_val, has_id;
	int dots;                /* --dots: 1 ".", 2 ".." */
	bool dry_run, stale;
	int debug;
};

/* What seals the structure after a change. */
enum inj_seal { SEAL_NONE, SEAL_SB, SEAL_CP, SEAL_INODE };

/* Where the instance a target names lies. */
struct inj_loc {
	uint64_t blk;            /* the block holding it */
	uint32_t off;            /* byte of the instance in the block */
	uint64_t mirror;         /* a block written with the same content (0: none) */
	unsigned kinds[3];       /* table kinds whose members apply, in order */
	uint32_t kind_off[3];    /* byte of each kind's instance in the block */
	unsigned nkinds;
	enum inj_seal seal;
	uint32_t dir;            /* dent: the directory, for a name's hash */
	uint32_t slot;           /* dent: the entry's slot; ssa: the entry */
	uint32_t bitmap_off;     /* dent: byte of the slot bitmap in the block;
				    a bitmap member: the byte holding the bit */
	int bit;                 /* a bitmap member's bit in that byte, else -1 */
	int64_t default_idx;     /* an array member's element without --idx, else -1 */
	bool msb;                /* bits numbered from the high bit (version bitmaps) */
	uint32_t names_off;      /* dent: byte of the name slots */
	char what[128];          /* the instance, as the output names it */
};

extern const char prog[];          /* "inject.f2fs" (apply.c) */

/* Find the instance o names (locate.c). Returns an exit status. */
int inj_locate(struct f2fs_fs *fs, const struct inj_opts *o, struct inj_loc *l,
	       struct f2fs_error *err);

/* Change the member in blk (the block at l->blk), printing old and new
 * (apply.c). Returns an exit status. */
int inj_apply(struct f2fs_fs *fs, const struct inj_opts *o, const struct inj_loc *l,
	      uint8_t *blk, struct f2fs_error *err);

#endif
