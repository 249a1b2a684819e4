/*
 * The hash levels of a directory: level L holds buckets of 2 blocks (4
 * from level 31 on), 2^(L + i_dir_level) of them up to 2^30; a name of
 * hash h lies in bucket h % buckets of a level, found from level 0 down
 * to i_current_depth. These rules place an entry (mkfs, the repair, the
 * roll-forward) and judge where one lies (the check).
 */
#ifndef F2FS_FORMAT_DIR_LEVELS_H
#define F2FS_FORMAT_DIR_LEVELS_H

#include <stdbool.h>
#include <stdint.h>

/* Buckets of a level. */
uint64_t f2fs_dir_buckets(uint32_t level, uint32_t dir_level);
/* Blocks of one bucket of a level. */
uint32_t f2fs_dir_bucket_blocks(uint32_t level);
/* The file block where a level begins. */
uint64_t f2fs_dir_level_start(uint32_t level, uint32_t dir_level);
/* The first block of a name's bucket at a level. */
uint64_t f2fs_dir_bucket_start(uint32_t level, uint32_t dir_level, uint32_t hash);
/* Level and bucket of dentry block fofs (and the level's buckets); false
 * past the deepest level. */
bool f2fs_dir_bucket_of(uint64_t fofs, uint32_t dir_level, uint32_t *level, uint64_t *bucket,
			uint64_t *nbuckets);

#endif
