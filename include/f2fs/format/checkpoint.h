/* Checkpoint blocks: CRC, validation, the version bitmaps. */
#ifndef F2FS_CHECKPOINT_H
#define F2FS_CHECKPOINT_H

#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>

/* Store the CRC of a checkpoint block at its checksum_offset. */
void f2fs_cp_seal(void *cp_block);

/* Is the block's CRC right? 0, or an error naming the mismatch. */
int f2fs_cp_verify(const void *cp_block, uint64_t blkaddr, struct f2fs_error *err);

/* CRC stored in a checkpoint block (at its checksum_offset). */
uint32_t f2fs_cp_stored_crc(const void *cp_block);

/* The current logs of a checkpoint, t by enum f2fs_seg_type (the data logs,
 * then the node logs): log t's segment and next block, setting both, and
 * the log whose segment is segno (-1 when none). */
uint32_t f2fs_cp_log_segno(const struct f2fs_checkpoint *cp, int t);
uint16_t f2fs_cp_log_blkoff(const struct f2fs_checkpoint *cp, int t);
void f2fs_cp_set_log(struct f2fs_checkpoint *cp, int t, uint32_t segno, uint16_t blkoff);
int f2fs_cp_log_of(const struct f2fs_checkpoint *cp, uint32_t segno);
/* Does log t fill holes (SSR)? As the kernel reads alloc_type: SSR is 1,
 * any other value appends (LFS). */
int f2fs_cp_log_ssr(const struct f2fs_checkpoint *cp, int t);

/*
 * ckpt_flags as the pack's layout bears them out. The pack holds its data
 * summaries compacted in 1 or 2 blocks, or in 3, and the node summaries
 * (3 blocks) with UMOUNT or FASTBOOT, between cp_pack_start_sum and its
 * last block: so the count of summary blocks says whether they are
 * compacted, whatever the flag says. The large NAT bitmap form has its
 * CRC at byte 192: not there, not flagged. A word with bits no kernel sets
 * is garbage: of it only these, an unmount where node summaries are, and
 * the CRC-recovery flag are kept. (An orphan flag without orphan blocks
 * is the orphan check's: the kernel reads none.)
 */
uint32_t f2fs_cp_effective_flags(const struct f2fs_checkpoint *cp);

/* Pointers to the NAT and SIT version bitmaps inside a buffer holding the
 * CP block followed by its cp_payload blocks. The bitmap sizes are taken
 * from the checkpoint as they are: check them against the superblock
 * before trusting these pointers on untrusted images. */
uint8_t *f2fs_cp_nat_bitmap(void *cp_pack, uint32_t cp_payload);
uint8_t *f2fs_cp_sit_bitmap(void *cp_pack, uint32_t cp_payload);

#endif
