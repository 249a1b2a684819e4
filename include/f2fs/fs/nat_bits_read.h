/*
 * The nat_bits of the checkpoint in use on an opened image
 * (<f2fs/format/nat_bits.h>): where they lie, the header they should
 * carry, and how they compare with the NAT blocks.
 */
#ifndef F2FS_FS_NAT_BITS_READ_H
#define F2FS_FS_NAT_BITS_READ_H

#include <stdbool.h>
#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/nat_bits.h>
#include <f2fs/fs/fs.h>

/*
 * Where they lie: the last *blocks blocks of the segment of the pack in
 * use, from *blkaddr. False when they cannot (no block, or the whole
 * segment); *blocks and *blkaddr are set even then.
 */
bool f2fs_fs_nat_bits_where(const struct f2fs_fs *fs, uint32_t *blocks, uint64_t *blkaddr);

/* The header that ties them to the checkpoint in use. */
uint64_t f2fs_fs_nat_bits_want(const struct f2fs_fs *fs);

/* Read them into area (*blocks of f2fs_fs_nat_bits_where(), 4096 bytes each). */
int f2fs_fs_nat_bits_read(struct f2fs_fs *fs, void *area, struct f2fs_error *err);

/*
 * Tally the bits of area against the live copy of every NAT block, read
 * from the device (the NAT journal's entries are not in the blocks).
 */
int f2fs_fs_nat_bits_tally(struct f2fs_fs *fs, const uint8_t *area,
			   struct f2fs_nat_bits_tally *t, struct f2fs_error *err);

#endif
