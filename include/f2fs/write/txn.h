/*
 * A repair transaction on an opened image (<f2fs/fs/fs.h>, opened
 * writable): the caller stages the new state, and the commit writes it the
 * way the kernel writes a checkpoint, so that a crash at any point leaves
 * the old image or the new one:
 *   0. superblock copies to rewrite, from the one in use, one at a time,
 *      each with a flush (right under the old checkpoint and the new; a
 *      rerun after any interruption then writes what this run would);
 *   1. node and data blocks written out of place, into main-area blocks
 *      that the old checkpoint does not use, handed to the device as
 *      they are staged (nothing the old checkpoint reads changes, so they
 *      may reach the disk before the commit: the device's write queue
 *      holds them until it fills);
 *      dirty NAT and SIT entries, planned into sets (<f2fs/write/flush_plan.h>):
 *      blocks to their inactive copies, the rest into the journals;
 *      SSA blocks whose new content is right for the old state too;
 *   2. the new checkpoint pack into the slot not in use (version + 1), all
 *      but its last block, and nat_bits when it carries them;
 *   3. a flush; the pack's last block; a flush.
 * Nothing of steps 1 and 2 is seen by the kernel or by any reader before
 * the last block of step 3.
 */
#ifndef F2FS_WRITE_TXN_H
#define F2FS_WRITE_TXN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <f2fs/fs/fs.h>
#include <f2fs/format/format.h>
#include <f2fs/util/error.h>
#include <f2fs/util/vec.h>
#include <f2fs/write/nat_flush.h>
#include <f2fs/write/sit_flush.h>

/* An SSA block to write in place: segment segno's summary block. */
struct f2fs_txn_ssa {
	uint32_t segno;
	struct f2fs_summary_block blk;
};

/* What a commit wrote (blocks), and how the NAT and SIT were planned. */
struct f2fs_txn_stats {
	uint64_t nat_dirty, nat_blocks, nat_journal;   /* entries, blocks, journal entries */
	uint64_t sit_dirty, sit_blocks, sit_journal;
	uint64_t node_blocks, data_blocks;             /* out of place, main area */
	uint64_t ssa_blocks, cp_blocks, sb_blocks;
	uint64_t bytes;                                /* handed to the device */
};

struct f2fs_txn {
	struct f2fs_fs *fs;
	/* The new checkpoint block and its cp_payload blocks: a copy of the
	 * image's, which the caller edits (counters, current segments,
	 * flags); the commit sets the version, pack layout, CRC and the
	 * version bitmaps. */
	uint8_t *cp;
	/* Staged changes: NAT and SIT entries (any order, each key once),
	 * SSA blocks. */
	F2FS_VEC(struct f2fs_nat_dirty) nat;
	F2FS_VEC(struct f2fs_sit_dirty) sit;
	F2FS_VEC(struct f2fs_txn_ssa) ssa;
	/* The new pack's orphan inodes and the current logs' summaries
	 * (sum[t] has nsum[t] entries; t by enum f2fs_seg_type). */
	F2FS_VEC(uint32_t) orphans;
	struct f2fs_summary *sum[F2FS_NR_CURSEG_TYPE];
	uint16_t nsum[F2FS_NR_CURSEG_TYPE];
	/* Entries in use per NAT block after the staged changes (nid 0
	 * counted): needed when the new checkpoint carries nat_bits. */
	uint16_t *nat_used;
	/* Empty the NAT (SIT) journal into the blocks even without nat_bits:
	 * a journal holding bad entries is rebuilt so. */
	bool nat_no_journal, sit_no_journal;
	/* Superblock copies (bit 0, bit 1) to rewrite from the one in use. */
	unsigned sb_rewrite;
	/* Or a changed superblock (its CRC set by the caller): both copies
	 * are written from it, the copy in use last, after the checkpoint. */
	const struct f2fs_super_block *sb_new;
	/* Only the superblock changes: no NAT, SIT, SSA or checkpoint is
	 * written (steps 1 to 3 are skipped). */
	bool sb_only;
	struct f2fs_txn_stats stats;
	uint64_t bytes_at_begin;   /* the device's count when the transaction began */
};

/* Start a transaction on fs: the checkpoint copy and empty stages. */
int f2fs_txn_begin(struct f2fs_txn *t, struct f2fs_fs *fs, struct f2fs_error *err);
void f2fs_txn_free(struct f2fs_txn *t);

/*
 * Write main-area block addr, free under the old checkpoint: a node or data
 * block the new checkpoint makes valid (F2FS_BLKSIZE bytes of data, not
 * kept). The caller keeps addr off every block the old checkpoint's
 * roll-forward chain can reach: it may reach the disk before the commit.
 */
int f2fs_txn_put_block(struct f2fs_txn *t, uint32_t addr, bool node, const void *data,
		       struct f2fs_error *err);

/* The new checkpoint block (in t->cp). */
static inline struct f2fs_checkpoint *f2fs_txn_cp(struct f2fs_txn *t)
{
	return (struct f2fs_checkpoint *)t->cp;
}

/*
 * Write the staged state as above. The NAT goes through the journal
 * unless the new checkpoint carries nat_bits (then every dirty NAT block
 * is written and the journal emptied). On failure the image is the old
 * one, or (after the last block of the pack) the new one.
 */
int f2fs_txn_commit(struct f2fs_txn *t, struct f2fs_error *err);

#endif
