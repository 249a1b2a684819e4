/*
 * The roll-forward chain. Node blocks the kernel writes between checkpoints
 * (for fsync) go on from where the checkpoint left the warm node log, each
 * footer naming the next block of the log and carrying the checkpoint's
 * version. Every mount follows that chain and recovers the fsync-marked
 * nodes on it, so this is where a node's checkpoint version matters: the
 * chain must end (on a loop the kernel gives up the whole recovery), and
 * it must run over blocks the checkpoint has free, since nothing written
 * after a checkpoint can take a block that checkpoint still uses.
 */
#include "ck.h"
#include "passes.h"

#include <f2fs/format/crc.h>
#include <f2fs/io/dev.h>
#include <f2fs/format/endian.h>

/* The version a node of this checkpoint carries, and how much of it to
 * compare: with NOCRC_RECOVERY (set by a checker's repair) the low 32 bits. */
uint64_t ck_chain_version(const struct ck *ck, uint64_t *mask)
{
	uint64_t ver = le64_get(ck->cp->checkpoint_ver);

	*mask = UINT64_MAX;
	if (ck->ckpt_flags & F2FS_CP_NOCRC_RECOVERY)
		*mask = UINT32_MAX;
	else if (ck->ckpt_flags & F2FS_CP_CRC_RECOVERY)
		ver |= (uint64_t)f2fs_cp_stored_crc(ck->cp) << 32;
	return ver & *mask;
}

int ck_roll_forward(struct ck *ck)
{
	uint32_t segno = le32_get(ck->cp->cur_node_segno[1]);   /* the warm node log */
	uint16_t blkoff = le16_get(ck->cp->cur_node_blkoff[1]);
	uint64_t mask, want = ck_chain_version(ck, &mask);
	uint64_t valid = le64_get(ck->cp->valid_block_count);
	uint64_t main_blocks = (uint64_t)ck->main_segs * F2FS_BLOCKS_PER_SEG;
	/* a chain longer than the free blocks visits one twice */
	uint64_t limit = valid < main_blocks ? main_blocks - valid : 0;
	uint64_t addr, first = 0;
	/* Brent's cycle finding: a block saved at each power of two of steps */
	uint64_t saved = UINT64_MAX, power = 1, since = 0;
	struct f2fs_dev *dev = f2fs_fs_dev(ck->fs);

	if (segno >= ck->main_segs || blkoff >= F2FS_BLOCKS_PER_SEG)
		return 0;   /* cp.curseg_range said so; there is no start */
	addr = ck->main_blkaddr + (uint64_t)segno * F2FS_BLOCKS_PER_SEG + blkoff;
	/* the log's next block in use: the kernel refuses to mount (so
	 * recovers nothing), cp.curseg_blkoff reports it, and the repair
	 * moves the log; no chain starts there */
	if (ck_sit_valid(ck, addr))
		return 0;
	while (ck_in_main(ck, addr)) {
		const struct f2fs_node_footer *f;
		int ret = f2fs_dev_read(dev, addr, ck->io, 1, ck->err);

		if (ret)
			return ret;
		f = (const struct f2fs_node_footer *)(ck->io + F2FS_BLKSIZE - sizeof(*f));
		if ((le64_get(f->cp_ver) & mask) != want)
			break;   /* the kernel stops here too */
		if (addr == saved || ck->r->roll_forward_nodes++ == limit) {
			ck_pb(ck, F2FS_PB_ROLL_FORWARD_LOOP, AT(A_BLK(addr)),
			      "the roll-forward chain from block 0x%llx comes back to block 0x%llx: it loops, and the kernel's mount then recovers none of the fsynced data",
			      (unsigned long long)first, (unsigned long long)addr);
			break;
		}
		if (++since == power) {
			saved = addr;
			power *= 2;
			since = 0;
		}
		if (!first)
			first = addr;
		if (le32_get(f->flag) & F2FS_NODE_FSYNC)
			ck->r->roll_forward_fsync++;
		if (ck_sit_valid(ck, addr))
			ck_pb(ck, F2FS_PB_ROLL_FORWARD_IN_USE,
			      AT(A_NID(le32_get(f->nid)), A_INO(le32_get(f->ino)), A_BLK(addr)),
			      "roll-forward chain: block 0x%llx (nid %u of inode %u) carries this checkpoint's version but the checkpoint has it in use",
			      (unsigned long long)addr, le32_get(f->nid), le32_get(f->ino));
		addr = le32_get(f->next_blkaddr);
	}
	return 0;
}

int ck_roll_recoverable(const struct ck *ck)
{
	return ck->r->roll_forward_fsync && !ck->opt->discard_roll_forward && !ck->opt->keep_roll_forward;
}
