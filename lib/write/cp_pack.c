/* A checkpoint pack: assembled in memory, written with its last block last. */
#include <f2fs/write/cp_pack.h>
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/nat_bits.h>
#include <f2fs/format/summary.h>

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define BLK F2FS_BLKSIZE

static uint32_t head_flags(const struct f2fs_cp_pack *p)
{
	return le32_get(((const struct f2fs_checkpoint *)p->head)->ckpt_flags);
}

/* The kernel reads node summaries from the pack only after these. */
static bool has_node_sums(uint32_t flags)
{
	return flags & (F2FS_CP_UMOUNT | F2FS_CP_FASTBOOT);
}

static uint32_t start_sum(const struct f2fs_cp_pack *p)
{
	return 1 + p->cp_payload + p->orphan_blocks;
}

uint32_t f2fs_cp_pack_blocks(const struct f2fs_cp_pack *p)
{
	return start_sum(p) + f2fs_compact_sum_blocks(p->nsum) +
	       (has_node_sums(head_flags(p)) ? F2FS_NR_CURSEG_NODE : 0) + 1;
}

static void fill_normal(const struct f2fs_summary *sum, uint16_t n, uint8_t type,
			const struct f2fs_journal *j, void *out)
{
	struct f2fs_summary_block *sb = out;

	if (n)
		memcpy(sb->entries, sum, n * sizeof(sb->entries[0]));
	if (j)
		sb->journal = *j;
	sb->footer.entry_type = type;
}

/* Data summaries: compacted in one or two blocks, else one block per log. */
static int fill_data_sums(const struct f2fs_cp_pack *p, uint32_t nblocks, uint8_t *out,
			  struct f2fs_error *err)
{
	if (nblocks <= 2)
		return f2fs_compact_sum_encode(out, nblocks, p->nat_j, p->sit_j, p->sum, p->nsum,
					       err);
	fill_normal(p->sum[F2FS_SEG_HOT_DATA], p->nsum[F2FS_SEG_HOT_DATA], F2FS_SUM_TYPE_DATA,
		    p->nat_j, out);
	fill_normal(p->sum[F2FS_SEG_WARM_DATA], p->nsum[F2FS_SEG_WARM_DATA], F2FS_SUM_TYPE_DATA,
		    NULL, out + BLK);
	fill_normal(p->sum[F2FS_SEG_COLD_DATA], p->nsum[F2FS_SEG_COLD_DATA], F2FS_SUM_TYPE_DATA,
		    p->sit_j, out + 2 * BLK);
	return 0;
}

static void fill_head(const struct f2fs_cp_pack *p, uint64_t ver, uint32_t data_blocks,
		      uint32_t total, uint8_t *out)
{
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)out;
	uint32_t flags = head_flags(p) & ~(uint32_t)(F2FS_CP_COMPACT_SUM | F2FS_CP_ORPHAN_PRESENT);

	if (data_blocks <= 2)
		flags |= F2FS_CP_COMPACT_SUM;
	if (p->orphan_blocks)
		flags |= F2FS_CP_ORPHAN_PRESENT;
	memcpy(out, p->head, (1 + (size_t)p->cp_payload) * BLK);
	cp->checkpoint_ver = le64_put(ver);
	cp->ckpt_flags = le32_put(flags);
	cp->cp_pack_total_block_count = le32_put(total);
	cp->cp_pack_start_sum = le32_put(start_sum(p));
}

static int assemble(const struct f2fs_cp_pack *p, uint64_t ver, uint32_t total, uint8_t *out,
		    struct f2fs_error *err)
{
	uint32_t data = f2fs_compact_sum_blocks(p->nsum), s = start_sum(p);
	uint8_t *nodes = out + (size_t)(s + data) * BLK;
	int ret;

	memset(out, 0, (size_t)total * BLK);
	fill_head(p, ver, data, total, out);
	if (p->orphan_blocks)
		memcpy(out + (1 + (size_t)p->cp_payload) * BLK, p->orphans,
		       (size_t)p->orphan_blocks * BLK);
	ret = fill_data_sums(p, data, out + (size_t)s * BLK, err);
	if (ret)
		return ret;
	for (int i = 0; i < F2FS_NR_CURSEG_NODE && has_node_sums(head_flags(p)); i++)
		fill_normal(p->sum[F2FS_SEG_HOT_NODE + i], p->nsum[F2FS_SEG_HOT_NODE + i],
			    F2FS_SUM_TYPE_NODE, NULL, nodes + (size_t)i * BLK);
	f2fs_cp_seal(out);
	memcpy(out + (size_t)(total - 1) * BLK, out, BLK);
	return 0;
}

static uint32_t nat_bits_blocks(const struct f2fs_cp_pack *p)
{
	return (head_flags(p) & F2FS_CP_NAT_BITS) ? f2fs_nat_bits_blocks(p->nat_blocks) : 0;
}

static int check_pack(const struct f2fs_cp_pack *p, int slot, uint32_t total,
		      struct f2fs_error *err)
{
	const struct f2fs_checkpoint *cp = p->head;

	if (slot != 0 && slot != 1)
		return f2fs_fail(err, -EINVAL, "checkpoint slot %d (there are 0 and 1)", slot);
	if (!p->nat_j || !p->sit_j)
		return f2fs_fail(err, -EINVAL, "a checkpoint pack needs both journals");
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++)
		if (p->nsum[t] > F2FS_ENTRIES_IN_SUM)
			return f2fs_fail(err, -EINVAL, "log %d: %u summary entries, a segment has %u",
					 t, p->nsum[t], F2FS_ENTRIES_IN_SUM);
	/* the kernel reads a whole segment of entries for an SSR data log */
	for (int t = 0; t < F2FS_NR_CURSEG_DATA; t++)
		if (f2fs_cp_log_ssr(cp, t) && p->nsum[t] != F2FS_ENTRIES_IN_SUM)
			return f2fs_fail(err, -EINVAL,
					 "data log %d allocates by SSR: %u summary entries, it needs %u",
					 t, p->nsum[t], F2FS_ENTRIES_IN_SUM);
	if (nat_bits_blocks(p) && !p->nat_used)
		return f2fs_fail(err, -EINVAL, "a checkpoint with nat_bits needs the NAT counts");
	if (total + nat_bits_blocks(p) > F2FS_BLOCKS_PER_SEG)
		return f2fs_fail(err, -F2FS_E_NO_SPACE,
				 "checkpoint pack of %u blocks and %u of nat_bits exceed a segment",
				 total, nat_bits_blocks(p));
	return 0;
}

static int write_blocks(const struct f2fs_block_io *io, uint64_t addr, const uint8_t *buf,
			uint32_t n, struct f2fs_error *err)
{
	int ret = 0;

	for (uint32_t i = 0; i < n && !ret; i++)
		ret = io->write(io->arg, addr + i, buf + (size_t)i * BLK, err);
	return ret;
}

static int write_nat_bits(const struct f2fs_cp_pack *p, uint64_t slot_start, uint64_t ver,
			  uint32_t crc, const struct f2fs_block_io *io, struct f2fs_error *err)
{
	uint32_t n = nat_bits_blocks(p);
	uint8_t *area = malloc((size_t)n * BLK);
	int ret;

	if (!area)
		return f2fs_fail(err, -ENOMEM, "out of memory for nat_bits");
	f2fs_nat_bits_encode(area, n, p->nat_blocks, p->nat_used, ver, crc);
	ret = write_blocks(io, slot_start + F2FS_BLOCKS_PER_SEG - n, area, n, err);
	free(area);
	return ret;
}

int f2fs_cp_pack_write(const struct f2fs_cp_pack *p, uint32_t cp_blkaddr, int slot,
		       uint64_t ver, const struct f2fs_block_io *io, struct f2fs_error *err)
{
	uint32_t total = f2fs_cp_pack_blocks(p);
	uint64_t start = cp_blkaddr + (uint64_t)slot * F2FS_BLOCKS_PER_SEG;
	uint8_t *pack;
	int ret = check_pack(p, slot, total, err);

	if (ret)
		return ret;
	pack = malloc((size_t)total * BLK);
	if (!pack)
		return f2fs_fail(err, -ENOMEM, "out of memory for a checkpoint pack");
	ret = assemble(p, ver, total, pack, err);
	if (!ret)
		ret = write_blocks(io, start, pack, total - 1, err);
	if (!ret && nat_bits_blocks(p))
		ret = write_nat_bits(p, start, ver, f2fs_cp_stored_crc(pack), io, err);
	if (!ret && io->barrier)
		ret = io->barrier(io->arg, err);
	if (!ret)
		ret = write_blocks(io, start + total - 1, pack + (size_t)(total - 1) * BLK, 1, err);
	free(pack);
	return ret;
}
