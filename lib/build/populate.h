/* mkfs: the inodes of a new image, from nothing or from a source tree. */
#ifndef F2FS_POPULATE_H
#define F2FS_POPULATE_H

#include "build.h"

#include <f2fs/build/mkfs.h>
#include <f2fs/build/tree.h>

/* Predicted nids of the quota files (for the superblock, before building). */
void populate_quota_inos(uint32_t features, uint32_t qf_ino[F2FS_MAX_QUOTAS]);

/* Refuse trees that clash with the image's own inodes (lost+found), and
 * case-insensitive directories holding two names that fold alike (or, with
 * the strict encoding flag, a name without a folding). */
int populate_check_tree(const struct f2fs_tree *t, uint32_t features,
			uint16_t encoding_flags, struct f2fs_error *err);

/* Blocks the tree will take at most (data, nodes, dentries), to refuse a
 * tree that cannot fit before anything is written. */
uint64_t populate_estimate(const struct f2fs_tree *t, uint32_t features);

/*
 * Write root, lost+found, the tree (may be NULL) and the quota files
 * through the builder. sb supplies the hot/cold extension lists.
 */
int populate(struct bld *b, const struct f2fs_mkfs_options *o,
	     const struct f2fs_super_block *sb, struct f2fs_tree *t, int64_t now);

#endif
