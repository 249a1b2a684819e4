/* Image builder: the two checkpoint packs, their summaries and nat_bits. */
#include "build.h"

#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/nat_bits.h>
#include <f2fs/format/summary.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* header, payload, up to 3 data summaries, 3 node summaries, footer */
#define PACK_MAX_BLOCKS(l) (8 + (l)->cp_payload)

static void fill_cp_block(const struct bld *b, uint64_t ver, uint32_t flags,
			  uint32_t total, uint32_t start_sum, struct f2fs_checkpoint *cp)
{
	const struct f2fs_layout *l = b->l;
	uint32_t free_segs = l->segment_count_main - b->taken_segs;

	cp->checkpoint_ver = le64_put(ver);
	cp->user_block_count = le64_put(l->user_block_count);
	cp->valid_block_count = le64_put(b->valid_blocks);
	cp->rsvd_segment_count = le32_put(l->rsvd_segments);
	cp->overprov_segment_count = le32_put(l->ovp_segments);
	cp->free_segment_count = le32_put(free_segs);
	for (int i = 0; i < F2FS_MAX_ACTIVE_NODE_LOGS; i++) {
		cp->cur_node_segno[i] = le32_put(F2FS_NULL_SEGNO);
		cp->cur_data_segno[i] = le32_put(F2FS_NULL_SEGNO);
	}
	for (int i = 0; i < F2FS_NR_CURSEG_NODE; i++) {
		const struct bld_log *n = &b->log[F2FS_SEG_HOT_NODE + i];
		const struct bld_log *d = &b->log[F2FS_SEG_HOT_DATA + i];

		cp->cur_node_segno[i] = le32_put(n->segno);
		cp->cur_node_blkoff[i] = le16_put(n->blkoff);
		cp->cur_data_segno[i] = le32_put(d->segno);
		cp->cur_data_blkoff[i] = le16_put(d->blkoff);
	}
	cp->ckpt_flags = le32_put(flags);
	cp->cp_pack_total_block_count = le32_put(total);
	cp->cp_pack_start_sum = le32_put(start_sum);
	cp->valid_node_count = le32_put(b->valid_nodes);
	cp->valid_inode_count = le32_put(b->valid_inodes);
	cp->next_free_nid = le32_put(b->next_nid);
	cp->sit_ver_bitmap_bytesize = le32_put(l->sit_bitmap_bytes);
	cp->nat_ver_bitmap_bytesize = le32_put(l->nat_bitmap_bytes);
	cp->checksum_offset = le32_put(l->large_nat_bitmap ? F2FS_CP_MIN_CHKSUM_OFFSET
							   : F2FS_CP_CHKSUM_OFFSET);
}

static void fill_summary_block(const struct bld_log *lg, uint8_t type,
			       const struct f2fs_journal *j, void *out)
{
	struct f2fs_summary_block *sb = out;

	memset(sb, 0, sizeof(*sb));
	memcpy(sb->entries, lg->sum, lg->blkoff * sizeof(sb->entries[0]));
	if (j)
		sb->journal = *j;
	sb->footer.entry_type = type;
}

/* Data summaries: compacted when they fit in two blocks, else one per log. */
static int fill_data_summaries(const struct bld *b, uint8_t *out, uint32_t *nblocks)
{
	uint16_t counts[F2FS_NR_CURSEG_DATA];
	const struct f2fs_summary *ents[F2FS_NR_CURSEG_DATA];
	const struct bld_log *d = &b->log[F2FS_SEG_HOT_DATA];

	for (int i = 0; i < F2FS_NR_CURSEG_DATA; i++) {
		counts[i] = d[i].blkoff;
		ents[i] = d[i].sum;
	}
	*nblocks = f2fs_compact_sum_blocks(counts);
	if (*nblocks <= 2)
		return f2fs_compact_sum_encode(out, *nblocks, &b->nat_journal, &b->sit_journal,
					       ents, counts, b->err);
	fill_summary_block(&d[0], F2FS_SUM_TYPE_DATA, &b->nat_journal, out);
	fill_summary_block(&d[1], F2FS_SUM_TYPE_DATA, NULL, out + F2FS_BLKSIZE);
	fill_summary_block(&d[2], F2FS_SUM_TYPE_DATA, &b->sit_journal, out + 2 * F2FS_BLKSIZE);
	return 0;
}

static int fill_nat_bits(const struct bld *b, uint64_t ver, uint32_t crc, uint8_t *out)
{
	uint32_t nat_blocks = f2fs_layout_nat_blocks(b->l);
	uint16_t *used = calloc(nat_blocks, sizeof(*used));

	if (!used)
		return f2fs_fail(b->err, -ENOMEM, "out of memory building nat_bits");
	used[0] = 1;   /* nid 0 counts as used */
	for (uint32_t nid = 1; nid < b->nat_cap; nid++)
		used[nid / F2FS_NAT_ENTRY_PER_BLOCK] += b->nat[nid].blkaddr != 0;
	f2fs_nat_bits_encode(out, b->l->nat_bits_blocks, nat_blocks, used, ver, crc);
	free(used);
	return 0;
}

static int build_pack(const struct bld *b, int p, uint8_t *out, uint32_t *nblocks,
		      uint8_t *nat_bits)
{
	const struct f2fs_layout *l = b->l;
	uint64_t ver = p == 0 ? b->cp_ver : b->cp_ver - 1;
	uint32_t start_sum = 1 + l->cp_payload, sum_blocks, total, flags;
	uint8_t *nodes;
	int ret;

	memset(out, 0, (size_t)PACK_MAX_BLOCKS(l) * F2FS_BLKSIZE);
	ret = fill_data_summaries(b, out + (size_t)start_sum * F2FS_BLKSIZE, &sum_blocks);
	if (ret)
		return ret;
	total = start_sum + sum_blocks + F2FS_NR_CURSEG_NODE + 1;
	flags = F2FS_CP_UMOUNT | (sum_blocks <= 2 ? F2FS_CP_COMPACT_SUM : 0) |
		(l->nat_bits_blocks ? F2FS_CP_NAT_BITS : 0) |
		(b->trimmed ? F2FS_CP_TRIMMED : 0) |
		(l->large_nat_bitmap ? F2FS_CP_LARGE_NAT_BITMAP : 0);
	fill_cp_block(b, ver, flags, total, start_sum, (struct f2fs_checkpoint *)out);
	nodes = out + (size_t)(start_sum + sum_blocks) * F2FS_BLKSIZE;
	for (int i = 0; i < F2FS_NR_CURSEG_NODE; i++)
		fill_summary_block(&b->log[F2FS_SEG_HOT_NODE + i], F2FS_SUM_TYPE_NODE, NULL,
				   nodes + (size_t)i * F2FS_BLKSIZE);
	f2fs_cp_seal(out);
	memcpy(out + (size_t)(total - 1) * F2FS_BLKSIZE, out, F2FS_BLKSIZE);
	*nblocks = total;
	if (!l->nat_bits_blocks)
		return 0;
	return fill_nat_bits(b, ver, f2fs_cp_stored_crc(out), nat_bits);
}

int bld_write_checkpoints(struct bld *b)
{
	const struct f2fs_layout *l = b->l;
	uint8_t *pack = malloc((size_t)PACK_MAX_BLOCKS(l) * F2FS_BLKSIZE);
	uint8_t *bits = malloc((size_t)(l->nat_bits_blocks ? l->nat_bits_blocks : 1) *
			       F2FS_BLKSIZE);
	int ret = pack && bits ? 0 : f2fs_fail(b->err, -ENOMEM, "out of memory");

	/* pack 2 first: pack 1, the newer, completes the checkpoint */
	for (int p = 1; p >= 0 && !ret; p--) {
		uint64_t start = l->cp_blkaddr + (uint64_t)p * F2FS_BLOCKS_PER_SEG;
		uint32_t n;

		ret = build_pack(b, p, pack, &n, bits);
		for (uint32_t i = 0; i < n && !ret; i++)
			ret = bld_write(b, start + i, pack + (size_t)i * F2FS_BLKSIZE);
		for (uint32_t i = 0; i < l->nat_bits_blocks && !ret; i++)
			ret = bld_write(b, start + F2FS_BLOCKS_PER_SEG - l->nat_bits_blocks + i,
					bits + (size_t)i * F2FS_BLKSIZE);
	}
	free(pack);
	free(bits);
	return ret;
}
