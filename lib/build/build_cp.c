/* Image builder: the two checkpoint packs, their summaries and nat_bits. */
#include "build.h"

#include <f2fs/format/endian.h>
#include <f2fs/write/cp_pack.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The checkpoint block; the pack writer adds version, sizes and CRC. */
static void fill_cp_block(const struct bld *b, struct f2fs_checkpoint *cp)
{
	const struct f2fs_layout *l = b->l;
	uint32_t free_segs = l->segment_count_main - b->taken_segs;

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
	cp->ckpt_flags = le32_put(F2FS_CP_UMOUNT |
				  (l->nat_bits_blocks ? F2FS_CP_NAT_BITS : 0) |
				  (b->trimmed ? F2FS_CP_TRIMMED : 0) |
				  (l->large_nat_bitmap ? F2FS_CP_LARGE_NAT_BITMAP : 0));
	cp->valid_node_count = le32_put(b->valid_nodes);
	cp->valid_inode_count = le32_put(b->valid_inodes);
	cp->next_free_nid = le32_put(b->next_nid);
	cp->sit_ver_bitmap_bytesize = le32_put(l->sit_bitmap_bytes);
	cp->nat_ver_bitmap_bytesize = le32_put(l->nat_bitmap_bytes);
	cp->checksum_offset = le32_put(l->large_nat_bitmap ? F2FS_CP_MIN_CHKSUM_OFFSET
							   : F2FS_CP_CHKSUM_OFFSET);
}

/* Entries in use per NAT block, as nat_bits count them (nid 0 included). */
static int nat_used(const struct bld *b, uint16_t **out)
{
	uint16_t *used = calloc(f2fs_layout_nat_blocks(b->l), sizeof(*used));

	if (!used)
		return f2fs_fail(b->err, -ENOMEM, "out of memory building nat_bits");
	used[0] = 1;
	for (uint32_t nid = 1; nid < b->nat_cap; nid++)
		used[nid / F2FS_NAT_ENTRY_PER_BLOCK] += b->nat[nid].blkaddr != 0;
	*out = used;
	return 0;
}

static void fill_pack(const struct bld *b, const void *head, const uint16_t *used,
		      struct f2fs_cp_pack *p)
{
	memset(p, 0, sizeof(*p));
	p->head = head;
	p->cp_payload = b->l->cp_payload;
	p->nat_j = &b->nat_journal;
	p->sit_j = &b->sit_journal;
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++) {
		p->sum[t] = b->log[t].sum;
		p->nsum[t] = b->log[t].blkoff;
	}
	p->nat_used = used;
	p->nat_blocks = f2fs_layout_nat_blocks(b->l);
}

int bld_write_checkpoints(struct bld *b)
{
	const struct f2fs_layout *l = b->l;
	uint8_t *head = calloc(1 + (size_t)l->cp_payload, F2FS_BLKSIZE);
	uint16_t *used = NULL;
	struct f2fs_block_io io;
	struct f2fs_cp_pack pack;
	int ret = head ? 0 : f2fs_fail(b->err, -ENOMEM, "out of memory");

	if (!ret && l->nat_bits_blocks)
		ret = nat_used(b, &used);
	if (!ret) {
		fill_cp_block(b, (struct f2fs_checkpoint *)head);
		fill_pack(b, head, used, &pack);
		bld_block_io(b, &io);
	}
	/* pack 2 first, one version older: pack 1, the newer, completes it */
	for (int p = 1; p >= 0 && !ret; p--)
		ret = f2fs_cp_pack_write(&pack, l->cp_blkaddr, p, p == 0 ? b->cp_ver : b->cp_ver - 1,
					 &io, b->err);
	free(head);
	free(used);
	return ret;
}
