/* mkfs's in-memory image: the blocks of a new file system before writing. */
#ifndef F2FS_MKFS_BUILD_H
#define F2FS_MKFS_BUILD_H

#include <f2fs/format.h>
#include <f2fs/layout.h>
#include <f2fs/mkfs.h>

#define MKFS_MAX_INODES 8   /* root, three quota files, lost+found */
#define MKFS_MAX_BLOCKS 32  /* their node and data blocks */

struct mkfs_log {
	uint32_t segno;
	uint16_t blkoff;
	uint8_t valid_map[F2FS_SIT_VBLOCK_MAP_SIZE];
	struct f2fs_summary sum[F2FS_ENTRIES_IN_SUM];
};

/* A main-area block to write. */
struct mkfs_block {
	uint32_t blkaddr;
	uint8_t data[F2FS_BLKSIZE];
};

struct mkfs_nat_entry {
	uint32_t nid, ino, blkaddr;
};

struct mkfs_image {
	const struct f2fs_layout *l;
	uint32_t features;
	uint64_t cp_ver;
	uint32_t crc_seed;
	int64_t now;
	struct mkfs_log log[F2FS_NR_CURSEG_TYPE];
	struct mkfs_block *blocks;
	size_t nblocks, blocks_cap;
	struct mkfs_nat_entry nat[MKFS_MAX_INODES];
	size_t nnat;
	uint32_t next_nid;
	uint32_t valid_nodes, valid_inodes, valid_blocks;
	uint32_t qf_ino[F2FS_MAX_QUOTAS];
	uint32_t lpf_ino;
	bool trimmed;         /* the target was discarded: CP_TRIMMED */
};

/* Build root, quota files and lost+found into img (allocates img->blocks). */
int mkfs_build_tree(struct mkfs_image *img, const struct f2fs_mkfs_options *o,
		    struct f2fs_error *err);

/*
 * Build checkpoint pack p (0 or 1) into out: header .. footer blocks
 * (*nblocks of them) and the nat_bits area (nat_bits_out, layout's
 * nat_bits_blocks blocks). Pack 1 (p = 0) holds version cp_ver; pack 2
 * holds the same state one version older.
 */
int mkfs_build_cp_pack(const struct mkfs_image *img, int p, uint8_t *out,
		       uint32_t *nblocks, uint8_t *nat_bits_out, struct f2fs_error *err);

/* NAT block 0 (copy 1) for the entries in img. */
void mkfs_build_nat_block(const struct mkfs_image *img, struct f2fs_nat_block *nb);

/* Blocks a pack needs at most (header, payload, 2 summary, 3 node sums, footer). */
#define MKFS_CP_PACK_MAX_BLOCKS(l) (7 + (l)->cp_payload)

void mkfs_image_free(struct mkfs_image *img);

#endif
