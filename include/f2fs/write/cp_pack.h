/*
 * One checkpoint pack, written into slot 0 or 1 of the checkpoint area:
 * the checkpoint block and its cp_payload blocks, orphan blocks, the data
 * logs' summaries with the NAT and SIT journals (compacted when they fit
 * in two blocks), the node logs' summaries (umount and fastboot
 * checkpoints), and a copy of the checkpoint block as the pack's last
 * block; nat_bits, when the checkpoint carries them, at the end of the
 * slot's segment. The last block is written last: until it is there, the
 * pack does not count.
 */
#ifndef F2FS_WRITE_CP_PACK_H
#define F2FS_WRITE_CP_PACK_H

#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/write/block_io.h>

struct f2fs_cp_pack {
	/* The checkpoint block and its cp_payload blocks with every field and
	 * both version bitmaps filled, except what the writer sets: version,
	 * pack size, start of the summaries, the COMPACT_SUM and
	 * ORPHAN_PRESENT flags, and the CRC. */
	const void *head;
	uint32_t cp_payload;
	const void *orphans;              /* orphan_blocks blocks, or NULL */
	uint32_t orphan_blocks;
	const struct f2fs_journal *nat_j, *sit_j;
	/* Summary entries of the six current logs (enum f2fs_seg_type), and
	 * how many each has: the log's next block offset, or 512 for a log
	 * that allocates by SSR. */
	const struct f2fs_summary *sum[F2FS_NR_CURSEG_TYPE];
	uint16_t nsum[F2FS_NR_CURSEG_TYPE];
	/* For nat_bits (F2FS_CP_NAT_BITS in the head's flags): entries in use
	 * per NAT block, nid 0 counted, for nat_blocks blocks. */
	const uint16_t *nat_used;
	uint32_t nat_blocks;
};

/* Blocks of the pack (without nat_bits), given its head's flags. */
uint32_t f2fs_cp_pack_blocks(const struct f2fs_cp_pack *p);

/*
 * Assemble the pack with checkpoint version ver and write it to slot
 * (0 or 1) of the checkpoint area at cp_blkaddr: every block but the last,
 * the nat_bits area, the writer's barrier, then the last block.
 */
int f2fs_cp_pack_write(const struct f2fs_cp_pack *p, uint32_t cp_blkaddr, int slot,
		       uint64_t ver, const struct f2fs_block_io *io, struct f2fs_error *err);

#endif
