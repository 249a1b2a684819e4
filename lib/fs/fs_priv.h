/* Internals of struct f2fs_fs, shared by the files of lib/fs/ that open it
 * (fs_open.c, fs_devices.c) and read it (fs.c, nat.c, dir_read.c). */
#ifndef F2FS_FS_PRIV_H
#define F2FS_FS_PRIV_H

#include <stdint.h>

#include <f2fs/format/checkpoint.h>
#include <f2fs/io/dev.h>
#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/fs/fs.h>
#include <f2fs/fs/meta_read.h>

/* Node blocks kept in memory (inode, indirect, direct: one walk's path). */
#define F2FS_FS_NODE_CACHE 4

struct f2fs_fs_node_slot {
	uint32_t nid;             /* 0 = empty */
	uint64_t stamp;           /* last use, for eviction */
	struct f2fs_node node;
};

struct f2fs_fs {
	struct f2fs_dev *dev;
	struct f2fs_super_block sb;
	int sb_copy;
	struct f2fs_error sb_primary_err;

	uint32_t cp_payload;
	uint32_t cp_start;
	uint8_t *cp_buf;                   /* (1 + cp_payload) blocks */
	uint32_t ckpt_flags;               /* as the pack bears them out */
	struct f2fs_cp_choice choice;

	uint8_t *nat_bitmap, *sit_bitmap;  /* point into cp_buf */
	uint32_t nat_bitmap_bytes, sit_bitmap_bytes;
	uint32_t nat_blocks, max_nid;

	struct f2fs_journal nat_j, sit_j;  /* n_entries bounded */
	uint32_t crc_seed;

	struct f2fs_error notes[F2FS_FS_MAX_NOTES];
	int nnotes;

	/* caches (read-only data, so never stale) */
	uint64_t nat_cache_addr;           /* UINT64_MAX = empty */
	struct f2fs_nat_block nat_cache;
	struct f2fs_fs_node_slot nodes[F2FS_FS_NODE_CACHE];
	uint64_t node_clock;
};

/* lib/fs/fs_devices.c: replace fs->dev, the first device, by the set of
 * the volume's devices when its superblock lists several (paths given, in
 * table order after the first, or else those recorded); then, once the
 * checkpoint is read, see that the later ones hold this volume's blocks. */
int fs_open_devices(struct f2fs_fs *fs, const char *first, const char *const *devices,
		    unsigned ndevices, int flags, struct f2fs_error *err);
int fs_verify_devices(struct f2fs_fs *fs, struct f2fs_error *err);

#endif
