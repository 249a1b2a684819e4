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

/* Pointers to the NAT and SIT version bitmaps inside a buffer holding the
 * CP block followed by its cp_payload blocks. The bitmap sizes are taken
 * from the checkpoint as they are: check them against the superblock
 * before trusting these pointers on untrusted images. */
uint8_t *f2fs_cp_nat_bitmap(void *cp_pack, uint32_t cp_payload);
uint8_t *f2fs_cp_sit_bitmap(void *cp_pack, uint32_t cp_payload);

#endif
