/* Checkpoint blocks: CRC, validation, and the choice between the two packs. */
#ifndef F2FS_CHECKPOINT_H
#define F2FS_CHECKPOINT_H

#include <stdint.h>

#include <f2fs/dev.h>
#include <f2fs/error.h>
#include <f2fs/format.h>

/* Store the CRC of a checkpoint block at its checksum_offset. */
void f2fs_cp_seal(void *cp_block);

/* Is the block's CRC right? 0, or an error naming the mismatch. */
int f2fs_cp_verify(const void *cp_block, uint64_t blkaddr, struct f2fs_error *err);

/* CRC stored in a checkpoint block (at its checksum_offset). */
uint32_t f2fs_cp_stored_crc(const void *cp_block);

/* Pointers to the NAT and SIT version bitmaps inside a buffer holding the
 * CP block followed by its cp_payload blocks. The bitmap sizes are taken
 * from the checkpoint as they are: check them against the superblock
 * before trusting these pointers on untrusted images. */
uint8_t *f2fs_cp_nat_bitmap(void *cp_pack, uint32_t cp_payload);
uint8_t *f2fs_cp_sit_bitmap(void *cp_pack, uint32_t cp_payload);

struct f2fs_cp_choice {
	int pack;               /* 0 or 1: the pack in use */
	uint64_t version;
	int other_valid;        /* the other pack also passed */
	struct f2fs_error other_err;  /* why the other pack failed, if it did */
};

/*
 * Read the header (with payload) of both packs, check CRCs and that each
 * footer matches its header, and pick the newest valid one. buf receives
 * 1 + cp_payload blocks of the chosen pack's header.
 */
int f2fs_cp_choose(struct f2fs_dev *dev, uint32_t cp_blkaddr, uint32_t cp_payload,
		   void *buf, struct f2fs_cp_choice *choice, struct f2fs_error *err);

#endif
