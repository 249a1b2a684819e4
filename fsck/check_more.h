/*
 * Checks that ride along the tree walk of lib/check_tree.c and finish after
 * it: quota files against usage (check_quota.c), xattr areas
 * (check_xattr.c), duplicate names in a directory (check_names.c) and the
 * orphan list (check_orphan.c). The walk calls the hooks below; their state
 * lives here, apart from the walk's own per-inode records, so that those can
 * change without these checks noticing.
 */
#ifndef F2FS_LIB_CHECK_MORE_H
#define F2FS_LIB_CHECK_MORE_H

#include <stddef.h>
#include <stdint.h>

#include <f2fs/format/format.h>

#include "ck.h"

/* Usage of one quota id; a slot with used == 0 is empty. */
struct ck_qusage {
	uint32_t id;
	uint32_t used;
	uint64_t inodes, space;   /* space in bytes, as the quota file keeps it */
};

/* Open-addressing table of ids (cap is a power of two). */
struct ck_qtab {
	struct ck_qusage *slot;
	uint32_t cap, n;
};

/* An inode whose xattrs continue in an xattr node: its inline part, kept
 * until the node is read after the walk. */
struct ck_xpend {
	uint32_t ino, xnid;
	uint32_t inline_len;
	uint8_t *inline_copy;
};

struct ck_more {
	int nomem;                         /* a hook could not allocate */
	struct ck_qtab quota[F2FS_MAX_QUOTAS];
	struct ck_xpend *xp;
	size_t nxp, xp_cap;
	uint8_t *seen;                     /* bit per (directory, name hash) */
	uint64_t seen_mask;                /* bits in seen, minus one */
	uint64_t *names;                   /* keys of entries whose bit was set */
	size_t nnames, names_cap;
	uint32_t *orphans;                 /* inos accepted as orphans */
	size_t norphans, orphans_cap;
};

/* lib/check_more.c: set-up, the after-walk phase, clean-up. */
int ck_more_init(struct ck *ck);
int ck_more_after_tree(struct ck *ck);
void ck_more_free(struct ck *ck);

/* Hooks of the walk. Hooks that cannot allocate set more->nomem, which
 * fails the check after the walk rather than leave it silently partial. */
void ck_quota_inode(struct ck *ck, uint32_t ino, const struct f2fs_node *nd);
void ck_xattr_inode(struct ck *ck, uint32_t ino, const struct f2fs_node *nd,
		    uint32_t xwords);
void ck_names_add(struct ck *ck, uint32_t dir, const uint8_t *name, uint32_t len,
		  int casefold);
/* Reads the orphan blocks and marks the orphans (IR_ORPHAN); replaces the
 * walk's own reading so that bad entries are not accepted as orphans. */
int ck_orphans(struct ck *ck);

/* After the walk. */
int ck_quota_check(struct ck *ck);
int ck_xattr_check(struct ck *ck);
int ck_names_check(struct ck *ck);
void ck_orphans_after(struct ck *ck);

/*
 * The walk's records, seen only through these (lib/check_more.c), so that a
 * change of their layout touches one file.
 */
/* Links and directory entries of inode ino; 0 when ino is no inode. */
int ck_more_inode(struct ck *ck, uint32_t ino, uint32_t *links, uint32_t *refs);
/* Owner of node nid, or 0 when nid is not in use. */
uint32_t ck_more_node_owner(struct ck *ck, uint32_t nid);
/* Was the block of nid unreadable in the walk (node.unreadable)? */
int ck_more_unreadable(struct ck *ck, uint32_t nid);
/* Mark inode ino as an orphan; returns 1 if it was marked already. */
int ck_more_set_orphan(struct ck *ck, uint32_t ino);
/* Is directory dir casefolded? */
int ck_more_casefold(struct ck *ck, uint32_t dir);
/* Call fn for each inode whose i_blocks differs from the blocks the walk
 * counted (diff = i_blocks - counted), skipping those it could not count. */
typedef int (*ck_more_bdiff_fn)(struct ck *ck, uint32_t ino, int64_t diff, void *arg);
int ck_more_foreach_bdiff(struct ck *ck, ck_more_bdiff_fn fn, void *arg);
/* Block of nid when the walk read it as the reached xattr node of owner;
 * 0 otherwise (the walk reports such damage itself). */
uint32_t ck_more_xattr_node(struct ck *ck, uint32_t nid, uint32_t owner);

#endif
