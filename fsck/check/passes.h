/*
 * The passes of the checker, in the order the driver (run.c) runs them.
 * Only the driver calls a pass's entry point. The node and directory passes
 * call the hooks of the passes that ride along the walk (quota, xattrs,
 * names); nothing calls back into the walk.
 */
#ifndef F2FS_FSCK_PASSES_H
#define F2FS_FSCK_PASSES_H

#include <stdbool.h>
#include <stdint.h>

#include <f2fs/format/format.h>

#include "ck.h"

/* ---- run.c: one run of every pass, in order, over a fresh ck (opt, err,
 * ssa_exact set); and everything a run holds but its report ---- */
int ck_run(struct ck *ck, const char *path);
void ck_release(struct ck *ck);

/* pass_meta.c: superblock, checkpoint, SIT, NAT, nat_bits; after the walk,
 * valid_block_count against the SIT and the walk's reservations. */
int ck_meta(struct ck *ck);
void ck_meta_after_walk(struct ck *ck);

/* pass_roll.c: the roll-forward chain after the checkpoint. */
int ck_roll_forward(struct ck *ck);
/* Will a repair replay the chain (fsync'd nodes on it, no loop, neither
 * dropping nor keeping it asked)? */
int ck_roll_recoverable(const struct ck *ck);

/* pass_nodes.c: every node block the NAT names, inodes, node pointers, the
 * root. */
int ck_nodes(struct ck *ck);

/* pass_orphan.c: reads the orphan blocks and marks the orphans before the
 * directory pass; after the walk, orphans that still have entries. */
int ck_orphans(struct ck *ck);
void ck_orphans_after(struct ck *ck);
void ck_orphans_free(struct ck *ck);

/* pass_dirs.c: every directory block the node pass queued; at the end,
 * before the paths are resolved, those blocks again, quietly, for the
 * first directory naming each file a report names (ck.fparents). */
int ck_dirs(struct ck *ck);
int ck_dirs_parents(struct ck *ck);

/* pass_links.c: link counts, i_blocks, reachability, ".", "..", parents. */
int ck_links(struct ck *ck);
/* The version a node of the roll-forward chain carries under this
 * checkpoint, and the mask of its bits to compare (pass_roll.c). */
uint64_t ck_chain_version(const struct ck *ck, uint64_t *mask);
/* Does inode record in of ino lack the entry it needs (no directory
 * names it, and it is no root, quota file or orphan)? */
bool ck_links_unreachable(struct ck *ck, const struct ck_nid *in, uint32_t ino);
/* The link count inode record in of ino must have (false: none to check). */
bool ck_links_wanted(struct ck *ck, const struct ck_nid *in, uint32_t ino, uint64_t *want);

/* pass_inode_fix.c: the fixes of an inode's own fields, noted where the
 * inode says what they must be (a mode, an inline xattr size, inline flags
 * given the file type, its extra words and data pointers). */
/* largest i_inline_xattr_size the kernel accepts (words) */
#define CK_MAX_INLINE_XATTR_WORDS (F2FS_DEF_ADDRS_PER_INODE - 9 - 1 - 10)
int ck_fix_mode(struct ck *ck, uint32_t ino, const struct f2fs_node *nd, uint16_t mode,
		uint16_t *want);
bool ck_content_is_dir(struct ck *ck, uint32_t ino, const struct f2fs_node *nd);
int ck_fix_extra_isize(struct ck *ck, uint32_t ino, const struct f2fs_inode *i, uint32_t *isize);
int ck_fix_extra_attr_flag(struct ck *ck, uint32_t ino, const struct f2fs_inode *i, bool *fits);
uint8_t ck_fix_mode_seen_as(struct ck *ck, uint32_t ino, uint8_t ftype);
/* An i_inline of zero that the content contradicts: the flags it holds
 * (*now, 0 when none reads well). */
int ck_fix_lost_flags(struct ck *ck, uint32_t ino, const struct f2fs_inode *i, uint16_t type,
		      uint8_t *now);
int ck_fix_xattr_size(struct ck *ck, uint32_t ino, const struct f2fs_inode *i, uint32_t extra,
		      uint32_t *words);
bool ck_inline_is_pointers(const struct ck *ck, const struct f2fs_inode *i, uint16_t type,
			   uint32_t extra, uint32_t addrs);
/* *now: i_inline as the fix leaves it (0 when there is no fix). */
int ck_fix_inline_flags(struct ck *ck, uint32_t ino, const struct f2fs_inode *i, uint16_t type,
			uint32_t extra, uint32_t addrs, uint8_t *now);

/* pass_xattr.c: xattr areas; the inline ones during the walk (hook), those
 * continued in an xattr node after it. */
void ck_xattr_inode(struct ck *ck, uint32_t ino, const struct f2fs_node *nd,
		    uint32_t xwords);
int ck_xattr_check(struct ck *ck);
void ck_xattr_free(struct ck *ck);

/* pass_extent.c: the largest extent (i_ext) against the pointers; the
 * inode's part and its direct nodes' during the sweep (hooks), the rest
 * once the nodes are placed. */
void ck_extent_inode(struct ck *ck, uint32_t ino, const struct f2fs_inode *i, uint16_t type,
		     uint32_t extra, uint32_t addrs);
int ck_extent_dnode(struct ck *ck, uint32_t nid, uint32_t ino, uint32_t ofs,
		    const struct f2fs_node *nd, bool inode_read);
int ck_extent_check(struct ck *ck);
void ck_extent_free(struct ck *ck);

/* pass_names.c: duplicate names in a directory; every entry (hook), then
 * the candidates confirmed. */
/* What a name is compared by: in a casefolded directory its key (the
 * kernel's lookup matches keys, made in buf), else, or when it has none,
 * the name itself; *klen its length. */
const uint8_t *ck_name_key(const uint8_t *name, uint32_t len, int casefold,
			   uint8_t buf[F2FS_NAME_LEN], uint32_t *klen);
/* An entry's name as ck_name_key gives it, in directory dir. */
void ck_names_add(struct ck *ck, uint32_t dir, const uint8_t *key, uint32_t len);
int ck_names_check(struct ck *ck);
void ck_names_free(struct ck *ck);

/* pass_quota.c: every inode charged to its ids (hook), then the quota files
 * against the usage. */
void ck_quota_inode(struct ck *ck, uint32_t ino, const struct f2fs_node *nd);
int ck_quota_check(struct ck *ck);
/* What one inode is charged: its id per quota type, one inode and the
 * bytes of its blocks but the inode's own; nothing (0, 0) for a quota
 * file or without quota. */
struct ck_qcharge {
	uint32_t id[F2FS_MAX_QUOTAS];
	uint64_t inodes, space;
};
/* The charge of inode ino whose block is nd (NULL: none, nothing), its
 * blocks taken as counted: i_blocks - diff, in 32 bits as the check takes
 * the difference (diff 0: i_blocks as stored). */
void ck_quota_of(const struct ck *ck, uint32_t ino, const struct f2fs_node *nd, int64_t diff,
		 struct ck_qcharge *c);
/* What the check charged for nid ino: its block as the walk read it, the
 * charge moved to the blocks counted where it was (*diff: that correction,
 * or 0); nothing for a nid the walk did not read as an inode. */
int ck_quota_checked(struct ck *ck, uint32_t ino, struct ck_qcharge *c, int64_t *diff);
/* Move an inode's charge from was to now; the quota types whose usage
 * this changes are marked for a rebuild (ck.quota_bad). */
int ck_quota_move(struct ck *ck, const struct ck_qcharge *was, const struct ck_qcharge *now);
void ck_quota_free(struct ck *ck);
/* Is quota type q kept in a file on this image? */
int ck_quota_active(const struct ck *ck, int q);
/* Is ino the quota file of an active quota type? */
int ck_is_quota_file(const struct ck *ck, uint32_t ino);
/* Inode ino's block where the walk found it (a NAT entry a node block
 * answered for included), else where the NAT says. */
int ck_read_inode(struct ck *ck, uint32_t ino, struct f2fs_node *nd, struct f2fs_error *e);
/* Quota inode qino as read, with the fixes of its layout applied. */
int ck_read_quota_inode(struct ck *ck, uint32_t qino, struct f2fs_node *nd, struct f2fs_error *e);
/* The whole content of quota file qino into *buf (*len bytes; malloc'd). */
int ck_quota_read_file(struct ck *ck, uint32_t qino, uint8_t **buf, size_t *len,
		       struct f2fs_error *e);

/* pass_zones.c: on a zoned device, every sequential zone's write pointer
 * against the SIT and the current segments. */
int ck_zones(struct ck *ck);

/* pass_ssa.c: blocks in use against the SIT, and against the SSA. A
 * segment may be asked for the second run that keeps each block's owner
 * (a repair that rebuilds its summary). */
int ck_ssa(struct ck *ck);
int ck_ssa_want_exact(struct ck *ck, uint32_t segno);

#endif
