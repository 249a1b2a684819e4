/* Image builder: flush the NAT and SIT that the logs imply. */
#include "build.h"

#include <f2fs/util/sort.h>
#include <f2fs/format/ver_bitmap.h>
#include <f2fs/write/nat_flush.h>
#include <f2fs/write/sit_flush.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Every NAT entry in use, in nid order. */
static int nat_entries(const struct bld *b, struct f2fs_nat_dirty **out, size_t *n)
{
	size_t count = 0, k = 0;
	struct f2fs_nat_dirty *e;

	for (uint32_t nid = 0; nid < b->nat_cap; nid++)
		count += b->nat[nid].blkaddr != 0;
	e = malloc(count * sizeof(*e) + 1);
	if (!e)
		return f2fs_fail(b->err, -ENOMEM, "out of memory flushing the NAT");
	for (uint32_t nid = 0; nid < b->nat_cap; nid++)
		if (b->nat[nid].blkaddr)
			e[k++] = (struct f2fs_nat_dirty){ nid, b->nat[nid].ino, b->nat[nid].blkaddr, 0 };
	*out = e;
	*n = count;
	return 0;
}

/*
 * A fresh NAT: every NAT block with entries is written once, the block of
 * the reserved nids always. Only without nat_bits may the sparsest blocks go
 * into the journal instead: the kernel never writes nat_bits beside a NAT
 * journal (it empties the journal whenever it writes them), and f2fs-tools'
 * fsck takes that pair for corrupted nat_bits and rewrites the checkpoint.
 */
static int flush_nat(struct bld *b)
{
	struct f2fs_nat_flush f;
	struct f2fs_block_io io;
	struct f2fs_nat_dirty *e = NULL;
	size_t n = 0;
	int ret = nat_entries(b, &e, &n);

	if (ret)
		return ret;
	bld_block_io(b, &io);
	f2fs_meta_area_nat(&f.area, b->l->nat_blkaddr, f2fs_layout_nat_blocks(b->l), NULL, NULL,
			   &io);
	memset(&b->nat_journal, 0, sizeof(b->nat_journal));
	f.journal = &b->nat_journal;
	f.used = NULL;
	f.policy = F2FS_FLUSH_BLOCK0 | (b->l->nat_bits_blocks ? F2FS_FLUSH_NO_JOURNAL : 0);
	ret = f2fs_nat_flush(&f, e, n, b->err);
	free(e);
	return ret;
}

static int u32_less(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return *(const uint32_t *)a < *(const uint32_t *)b;
}

/* Closed segments (always full): the SIT entries that go to SIT blocks. */
static int closed_entries(struct bld *b, struct f2fs_sit_dirty **out)
{
	struct f2fs_sit_dirty *e = malloc(b->nclosed * sizeof(*e) + 1);

	if (!e)
		return f2fs_fail(b->err, -ENOMEM, "out of memory flushing the SIT");
	f2fs_sort(b->closed, b->nclosed, sizeof(*b->closed), u32_less, NULL);
	for (size_t i = 0; i < b->nclosed; i++) {
		const struct bld_seg *s = &b->seg[b->closed[i]];

		e[i] = (struct f2fs_sit_dirty){ .segno = b->closed[i], .type = s->type,
						.valid = s->valid };
		memset(e[i].map, 0xFF, sizeof(e[i].map));
	}
	*out = e;
	return 0;
}

/* The current segments, in the order mkfs has always journaled them. */
static int journal_current(struct bld *b)
{
	static const enum f2fs_seg_type order[F2FS_NR_CURSEG_TYPE] = {
		F2FS_SEG_HOT_NODE, F2FS_SEG_WARM_NODE, F2FS_SEG_COLD_NODE,
		F2FS_SEG_HOT_DATA, F2FS_SEG_WARM_DATA, F2FS_SEG_COLD_DATA,
	};
	struct f2fs_sit_dirty e[F2FS_NR_CURSEG_TYPE];

	for (int i = 0; i < F2FS_NR_CURSEG_TYPE; i++) {
		const struct bld_log *lg = &b->log[order[i]];

		e[i] = (struct f2fs_sit_dirty){ .segno = lg->segno, .type = (uint8_t)order[i],
						.valid = lg->blkoff };
		memcpy(e[i].map, lg->valid_map, sizeof(e[i].map));
	}
	return f2fs_sit_journal_put(&b->sit_journal, e, F2FS_NR_CURSEG_TYPE, b->err);
}

/*
 * Closed segments go to SIT blocks (only those: a big image is mostly empty
 * SIT blocks, left as cleared), the current ones into the journal.
 */
static int flush_sit(struct bld *b)
{
	const struct f2fs_layout *l = b->l;
	struct f2fs_sit_flush f;
	struct f2fs_block_io io;
	struct f2fs_sit_dirty *e = NULL;
	int ret = closed_entries(b, &e);

	if (ret)
		return ret;
	bld_block_io(b, &io);
	f2fs_meta_area_sit(&f.area, l->sit_blkaddr, l->segment_count_sit,
			   f2fs_sit_copy_span(l->segment_count_sit), NULL, NULL, &io);
	f.main_segs = l->segment_count_main;
	memset(&b->sit_journal, 0, sizeof(b->sit_journal));
	f.journal = &b->sit_journal;
	f.policy = F2FS_FLUSH_NO_JOURNAL;
	ret = f2fs_sit_flush(&f, e, b->nclosed, b->err);
	free(e);
	return ret ? ret : journal_current(b);
}

int bld_finish(struct bld *b)
{
	int ret;

	/* node and meta inodes are not nodes, but their NAT entries say block 1 */
	ret = bld_set_nat(b, F2FS_NODE_INO, F2FS_NODE_INO, 1);
	if (!ret)
		ret = bld_set_nat(b, F2FS_META_INO, F2FS_META_INO, 1);
	if (!ret)
		ret = bld_end_node_logs(b);
	if (!ret)
		ret = flush_nat(b);
	if (!ret)
		ret = flush_sit(b);
	return ret;
}
