/* mkfs: the checkpoint packs, their summaries and nat_bits. */
#include "mkfs_build.h"

#include <f2fs/checkpoint.h>
#include <f2fs/endian.h>
#include <f2fs/nat_bits.h>
#include <f2fs/summary.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* SIT journal order: node logs first, as the kernel writes them. */
static const enum f2fs_seg_type sit_journal_order[F2FS_NR_CURSEG_TYPE] = {
	F2FS_SEG_HOT_NODE, F2FS_SEG_WARM_NODE, F2FS_SEG_COLD_NODE,
	F2FS_SEG_HOT_DATA, F2FS_SEG_WARM_DATA, F2FS_SEG_COLD_DATA,
};

static void fill_journals(const struct mkfs_image *img, struct f2fs_journal *nat_j,
			  struct f2fs_journal *sit_j)
{
	memset(nat_j, 0, sizeof(*nat_j));
	memset(sit_j, 0, sizeof(*sit_j));
	/* the inodes go in the NAT journal too, as mkfs.f2fs does */
	nat_j->n_entries = le16_put((uint16_t)img->nnat);
	for (size_t i = 0; i < img->nnat; i++) {
		struct f2fs_nat_journal_entry *e = &nat_j->nat_j.entries[i];

		e->nid = le32_put(img->nat[i].nid);
		e->ne.ino = le32_put(img->nat[i].ino);
		e->ne.block_addr = le32_put(img->nat[i].blkaddr);
	}
	sit_j->n_entries = le16_put(F2FS_NR_CURSEG_TYPE);
	for (int i = 0; i < F2FS_NR_CURSEG_TYPE; i++) {
		enum f2fs_seg_type t = sit_journal_order[i];
		const struct mkfs_log *lg = &img->log[t];
		struct f2fs_sit_journal_entry *e = &sit_j->sit_j.entries[i];

		e->segno = le32_put(lg->segno);
		e->se.vblocks = le16_put((uint16_t)((t << F2FS_SIT_VBLOCKS_SHIFT) | lg->blkoff));
		memcpy(e->se.valid_map, lg->valid_map, sizeof(e->se.valid_map));
	}
}

static void fill_cp_block(const struct mkfs_image *img, uint64_t ver,
			  uint32_t flags, uint32_t total, uint32_t start_sum,
			  struct f2fs_checkpoint *cp)
{
	const struct f2fs_layout *l = img->l;

	cp->checkpoint_ver = le64_put(ver);
	cp->user_block_count = le64_put(l->user_block_count);
	cp->valid_block_count = le64_put(img->valid_blocks);
	cp->rsvd_segment_count = le32_put(l->rsvd_segments);
	cp->overprov_segment_count = le32_put(l->ovp_segments);
	cp->free_segment_count = le32_put(l->segment_count_main - F2FS_NR_CURSEG_TYPE);
	for (int i = 0; i < F2FS_MAX_ACTIVE_NODE_LOGS; i++) {
		cp->cur_node_segno[i] = le32_put(F2FS_NULL_SEGNO);
		cp->cur_data_segno[i] = le32_put(F2FS_NULL_SEGNO);
	}
	for (int i = 0; i < F2FS_NR_CURSEG_NODE; i++) {
		const struct mkfs_log *n = &img->log[F2FS_SEG_HOT_NODE + i];
		const struct mkfs_log *d = &img->log[F2FS_SEG_HOT_DATA + i];

		cp->cur_node_segno[i] = le32_put(n->segno);
		cp->cur_node_blkoff[i] = le16_put(n->blkoff);
		cp->cur_data_segno[i] = le32_put(d->segno);
		cp->cur_data_blkoff[i] = le16_put(d->blkoff);
	}
	cp->ckpt_flags = le32_put(flags);
	cp->cp_pack_total_block_count = le32_put(total);
	cp->cp_pack_start_sum = le32_put(start_sum);
	cp->valid_node_count = le32_put(img->valid_nodes);
	cp->valid_inode_count = le32_put(img->valid_inodes);
	cp->next_free_nid = le32_put(img->next_nid);
	cp->sit_ver_bitmap_bytesize = le32_put(l->sit_bitmap_bytes);
	cp->nat_ver_bitmap_bytesize = le32_put(l->nat_bitmap_bytes);
	cp->checksum_offset = le32_put(l->large_nat_bitmap ? F2FS_CP_MIN_CHKSUM_OFFSET
							   : F2FS_CP_CHKSUM_OFFSET);
}

static void fill_node_summary(const struct mkfs_log *lg, struct f2fs_summary_block *sb)
{
	memset(sb, 0, sizeof(*sb));
	memcpy(sb->entries, lg->sum, lg->blkoff * sizeof(sb->entries[0]));
	sb->footer.entry_type = F2FS_SUM_TYPE_NODE;
}

static int fill_nat_bits(const struct mkfs_image *img, uint64_t ver, uint32_t crc,
			 uint8_t *out, struct f2fs_error *err)
{
	uint32_t nat_blocks = f2fs_layout_nat_blocks(img->l);
	uint16_t *used = calloc(nat_blocks, sizeof(*used));
	struct f2fs_nat_block nb;

	if (!used)
		return f2fs_fail(err, -ENOMEM, "out of memory building nat_bits");
	mkfs_build_nat_block(img, &nb);
	used[0] = (uint16_t)f2fs_nat_block_used(&nb, 0);
	f2fs_nat_bits_encode(out, img->l->nat_bits_blocks, nat_blocks, used, ver, crc);
	free(used);
	return 0;
}

int mkfs_build_cp_pack(const struct mkfs_image *img, int p, uint8_t *out,
		       uint32_t *nblocks, uint8_t *nat_bits_out, struct f2fs_error *err)
{
	const struct f2fs_layout *l = img->l;
	uint16_t counts[F2FS_NR_CURSEG_DATA];
	const struct f2fs_summary *ents[F2FS_NR_CURSEG_DATA];
	struct f2fs_journal nat_j, sit_j;
	uint64_t ver = p == 0 ? img->cp_ver : img->cp_ver - 1;
	uint32_t sum_blocks, total, start_sum = 1 + l->cp_payload, flags;
	uint8_t *b;
	int ret;

	for (int i = 0; i < F2FS_NR_CURSEG_DATA; i++) {
		counts[i] = img->log[F2FS_SEG_HOT_DATA + i].blkoff;
		ents[i] = img->log[F2FS_SEG_HOT_DATA + i].sum;
	}
	sum_blocks = f2fs_compact_sum_blocks(counts);
	total = start_sum + sum_blocks + F2FS_NR_CURSEG_NODE + 1;
	flags = F2FS_CP_UMOUNT | F2FS_CP_COMPACT_SUM |
		(l->nat_bits_blocks ? F2FS_CP_NAT_BITS : 0) |
		(img->trimmed ? F2FS_CP_TRIMMED : 0) |
		(l->large_nat_bitmap ? F2FS_CP_LARGE_NAT_BITMAP : 0);
	memset(out, 0, (size_t)total * F2FS_BLKSIZE);
	fill_cp_block(img, ver, flags, total, start_sum, (struct f2fs_checkpoint *)out);
	fill_journals(img, &nat_j, &sit_j);
	ret = f2fs_compact_sum_encode(out + (size_t)start_sum * F2FS_BLKSIZE, sum_blocks,
				      &nat_j, &sit_j, ents, counts, err);
	if (ret)
		return ret;
	b = out + (size_t)(start_sum + sum_blocks) * F2FS_BLKSIZE;
	for (int i = 0; i < F2FS_NR_CURSEG_NODE; i++)
		fill_node_summary(&img->log[F2FS_SEG_HOT_NODE + i],
				  (struct f2fs_summary_block *)(b + (size_t)i * F2FS_BLKSIZE));
	f2fs_cp_seal(out);
	memcpy(out + (size_t)(total - 1) * F2FS_BLKSIZE, out, F2FS_BLKSIZE);
	*nblocks = total;
	if (!l->nat_bits_blocks)
		return 0;
	return fill_nat_bits(img, ver, f2fs_cp_stored_crc(out), nat_bits_out, err);
}
