/* The hash levels of a directory: <f2fs/format/dir_levels.h>. */
#include <f2fs/format/dir_levels.h>
#include <f2fs/format/format.h>

/* levels below half the hash depth: 2-block buckets, doubling */
#define HALF_DEPTH (F2FS_MAX_DIR_HASH_DEPTH / 2)

uint64_t f2fs_dir_buckets(uint32_t level, uint32_t dir_level)
{
	return level + dir_level < HALF_DEPTH ? 1ull << (level + dir_level) : F2FS_MAX_DIR_BUCKETS;
}

uint32_t f2fs_dir_bucket_blocks(uint32_t level)
{
	return level < HALF_DEPTH ? 2 : 4;
}

uint64_t f2fs_dir_level_start(uint32_t level, uint32_t dir_level)
{
	uint64_t start = 0;

	for (uint32_t lv = 0; lv < level && lv < F2FS_MAX_DIR_HASH_DEPTH; lv++)
		start += f2fs_dir_buckets(lv, dir_level) * f2fs_dir_bucket_blocks(lv);
	return start;
}

uint64_t f2fs_dir_bucket_start(uint32_t level, uint32_t dir_level, uint32_t hash)
{
	return f2fs_dir_level_start(level, dir_level) +
	       (hash % f2fs_dir_buckets(level, dir_level)) * f2fs_dir_bucket_blocks(level);
}

bool f2fs_dir_bucket_of(uint64_t fofs, uint32_t dir_level, uint32_t *level, uint64_t *bucket,
			uint64_t *nbuckets)
{
	uint64_t start = 0;

	for (uint32_t lv = 0; lv < F2FS_MAX_DIR_HASH_DEPTH; lv++) {
		uint64_t nb = f2fs_dir_buckets(lv, dir_level);
		uint32_t per = f2fs_dir_bucket_blocks(lv);

		if (fofs < start + nb * per) {
			*level = lv;
			*bucket = (fofs - start) / per;
			*nbuckets = nb;
			return true;
		}
		start += nb * per;
	}
	return false;
}
