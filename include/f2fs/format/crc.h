/* The F2FS CRC32 and the checksums of the structures that carry one. */
#ifndef F2FS_CRC_H
#define F2FS_CRC_H

#include <stddef.h>
#include <stdint.h>

#include <f2fs/format/format.h>

/*
 * F2FS's CRC32: reflected polynomial 0xEDB88320 run from a caller seed, with
 * no final inversion (so it is not zlib's crc32() of the same bytes).
 */
uint32_t f2fs_crc32(uint32_t seed, const void *buf, size_t len);

/* CRC of a superblock over [0, F2FS_SB_CHECKSUM_OFFSET). */
uint32_t f2fs_sb_crc(const struct f2fs_super_block *sb);

/*
 * CRC of a checkpoint block (4096 bytes) as its checksum_offset field says:
 * 4092 normally; 192 with a large NAT bitmap, where the CRC skips itself.
 * Returns 0 and leaves *crc unset when checksum_offset is out of range.
 */
int f2fs_cp_crc(const void *cp_block, uint32_t *crc);

/* Seed of inode checksums: the CRC of the volume UUID. */
uint32_t f2fs_inode_crc_seed(const uint8_t uuid[16]);

/* Checksum of an inode block (all 4096 bytes, the footer included). */
uint32_t f2fs_inode_crc(const struct f2fs_node *node, uint32_t seed);

#endif
