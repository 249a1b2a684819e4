/*
 * A read-only view of an existing F2FS image: the superblock in use, the
 * newest valid checkpoint pack, the NAT and SIT journals of its current data
 * summaries and the version bitmaps. Readers (dump, fsck) build on it with
 * <f2fs/nat.h> and <f2fs/dir.h>.
 */
#ifndef F2FS_FS_H
#define F2FS_FS_H

#include <stdint.h>

#include <f2fs/format/checkpoint.h>
#include <f2fs/fs/meta_read.h>
#include <f2fs/io/dev.h>
#include <f2fs/util/error.h>
#include <f2fs/format/format.h>

struct f2fs_fs;

/* Remarks about damage that open() worked around (not fatal). */
#define F2FS_FS_MAX_NOTES 4

/*
 * Open path read-only. Reads superblock copy 0, falling back to copy 1;
 * chooses the newest valid checkpoint pack (with its cp_payload blocks);
 * loads the NAT and SIT journals from the pack's data summaries (compacted
 * or normal) and the version bitmaps, checking every size against the
 * superblock before use.
 */
int f2fs_fs_open(struct f2fs_fs **out, const char *path, struct f2fs_error *err);
/* The same with the device opened with dev_flags (<f2fs/io/dev.h>): a
 * repair opens F2FS_DEV_RDWR | F2FS_DEV_EXCL, which refuses a mounted
 * target, naming where. */
int f2fs_fs_open_flags(struct f2fs_fs **out, const char *path, int dev_flags,
		       struct f2fs_error *err);
/*
 * The same for a volume over several devices: path is its first device;
 * the others are opened by the paths devices[0..ndevices) (in the order of
 * the superblock's device table, mkfs's -c order) or, with ndevices 0, by
 * the paths the table records. Refuses, naming the device: a missing or
 * unreadable one, one given twice (by any path), one smaller than the table
 * says, one whose node blocks are not this volume's (another volume's, or
 * out of order). f2fs_fs_dev() is then the set (<f2fs/io/dev.h>
 * f2fs_dev_member(): each device's path, fd, first block and size).
 */
int f2fs_fs_open_devices(struct f2fs_fs **out, const char *path,
			 const char *const *devices, unsigned ndevices, int dev_flags,
			 struct f2fs_error *err);
void f2fs_fs_close(struct f2fs_fs *fs);

struct f2fs_dev *f2fs_fs_dev(const struct f2fs_fs *fs);
const struct f2fs_super_block *f2fs_fs_sb(const struct f2fs_fs *fs);
uint32_t f2fs_fs_features(const struct f2fs_fs *fs);

/* Superblock copy in use (0 or 1). When it is 1, *why (if not NULL) is set
 * to the reason copy 0 was rejected. */
int f2fs_fs_sb_copy(const struct f2fs_fs *fs, const struct f2fs_error **why);

/* The checkpoint block of the pack in use (4096 bytes; the cp_payload
 * blocks follow it in memory), and how the pack was chosen. */
const struct f2fs_checkpoint *f2fs_fs_cp(const struct f2fs_fs *fs);
const struct f2fs_cp_choice *f2fs_fs_cp_choice(const struct f2fs_fs *fs);
/* First block of the pack in use. */
uint32_t f2fs_fs_cp_start(const struct f2fs_fs *fs);
/* ckpt_flags of the checkpoint in use as its pack bears them out
 * (f2fs_cp_effective_flags): what the summaries and orphans are read by. */
uint32_t f2fs_fs_ckpt_flags(const struct f2fs_fs *fs);

/* Version bitmaps (MSB-first; a set bit means copy 2 is live). */
const uint8_t *f2fs_fs_nat_bitmap(const struct f2fs_fs *fs, uint32_t *bytes);
const uint8_t *f2fs_fs_sit_bitmap(const struct f2fs_fs *fs, uint32_t *bytes);

/* Journals of the current data summaries; n_entries already bounded. */
const struct f2fs_journal *f2fs_fs_nat_journal(const struct f2fs_fs *fs);
const struct f2fs_journal *f2fs_fs_sit_journal(const struct f2fs_fs *fs);

/* Blocks of one NAT copy, and the number of nids they map. */
uint32_t f2fs_fs_nat_blocks(const struct f2fs_fs *fs);
uint32_t f2fs_fs_max_nid(const struct f2fs_fs *fs);

/* Seed of the inode checksums of this volume. */
uint32_t f2fs_fs_inode_crc_seed(const struct f2fs_fs *fs);

/* Non-fatal damage found while opening: count, and message i. */
int f2fs_fs_nnotes(const struct f2fs_fs *fs);
const char *f2fs_fs_note(const struct f2fs_fs *fs, int i);

/* Read one block; refuses addresses outside [0, block_count). A volume
 * over several devices reads from the one holding the block. */
int f2fs_fs_read_block(struct f2fs_fs *fs, uint64_t blkaddr, void *buf,
		       struct f2fs_error *err);

/* Is blkaddr a block of the main area? */
int f2fs_fs_in_main(const struct f2fs_fs *fs, uint64_t blkaddr);

#endif
