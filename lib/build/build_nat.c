/* Image builder: flush the NAT and SIT that the logs imply. */
#include "build.h"

#include <f2fs/format/endian.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NPB F2FS_NAT_ENTRY_PER_BLOCK

struct nat_set {
	uint32_t block;     /* NAT block index */
	uint32_t count;     /* entries in use */
};

static int cmp_set_count(const void *a, const void *b)
{
	const struct nat_set *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? -1 : 1;
	return x->block < y->block ? -1 : x->block > y->block;
}

static uint32_t nat_blocks_used(const struct bld *b)
{
	return b->nat_cap ? (b->nat_cap + NPB - 1) / NPB : 1;
}

/* Copy-1 address of NAT block k: copies alternate segment by segment. */
static uint64_t nat_block_addr(const struct bld *b, uint32_t k)
{
	return b->l->nat_blkaddr + (uint64_t)(k / F2FS_BLOCKS_PER_SEG) * 2 * F2FS_BLOCKS_PER_SEG +
	       k % F2FS_BLOCKS_PER_SEG;
}

static void fill_nat_block(const struct bld *b, uint32_t k, struct f2fs_nat_block *nb)
{
	memset(nb, 0, sizeof(*nb));
	for (uint32_t i = 0; i < NPB; i++) {
		uint32_t nid = k * NPB + i;

		if (nid >= b->nat_cap || !b->nat[nid].blkaddr)
			continue;
		nb->entries[i].ino = le32_put(b->nat[nid].ino);
		nb->entries[i].block_addr = le32_put(b->nat[nid].blkaddr);
	}
}

static void journal_set(struct bld *b, uint32_t k)
{
	struct f2fs_journal *j = &b->nat_journal;

	for (uint32_t i = 0; i < NPB; i++) {
		uint32_t nid = k * NPB + i, n = le16_get(j->n_entries);
		struct f2fs_nat_journal_entry *e = &j->nat_j.entries[n];

		if (nid >= b->nat_cap || !b->nat[nid].blkaddr)
			continue;
		e->nid = le32_put(nid);
		e->ne.ino = le32_put(b->nat[nid].ino);
		e->ne.block_addr = le32_put(b->nat[nid].blkaddr);
		j->n_entries = le16_put((uint16_t)(n + 1));
	}
}

/*
 * Each NAT block holding entries is one set. The sparsest sets go into the
 * journal while it has room; every other set costs one NAT block write.
 * The set of the reserved nids (block 0) always goes to its block.
 */
static int flush_nat(struct bld *b)
{
	uint32_t nblk = nat_blocks_used(b), nsets = 0, room = F2FS_NAT_JOURNAL_ENTRIES;
	struct nat_set *sets = calloc(nblk, sizeof(*sets));
	struct f2fs_nat_block nb;
	int ret = 0;

	if (!sets)
		return f2fs_fail(b->err, -ENOMEM, "out of memory flushing the NAT");
	for (uint32_t k = 0; k < nblk; k++) {
		uint32_t c = 0;

		for (uint32_t i = 0; i < NPB && k * NPB + i < b->nat_cap; i++)
			c += b->nat[k * NPB + i].blkaddr != 0;
		if (c || k == 0)
			sets[nsets++] = (struct nat_set){ k, c };
	}
	qsort(sets, nsets, sizeof(*sets), cmp_set_count);
	memset(&b->nat_journal, 0, sizeof(b->nat_journal));
	for (uint32_t s = 0; s < nsets && !ret; s++) {
		if (sets[s].block != 0 && sets[s].count <= room) {
			journal_set(b, sets[s].block);
			room -= sets[s].count;
			continue;
		}
		fill_nat_block(b, sets[s].block, &nb);
		ret = bld_write(b, nat_block_addr(b, sets[s].block), &nb);
	}
	free(sets);
	return ret;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Closed segments go to SIT blocks (copy 1); current ones to the journal. */
static int flush_sit(struct bld *b)
{
	static const enum f2fs_seg_type order[F2FS_NR_CURSEG_TYPE] = {
		F2FS_SEG_HOT_NODE, F2FS_SEG_WARM_NODE, F2FS_SEG_COLD_NODE,
		F2FS_SEG_HOT_DATA, F2FS_SEG_WARM_DATA, F2FS_SEG_COLD_DATA,
	};
	struct f2fs_sit_block sb;
	int ret = 0;

	/* only the closed segments: a big image is mostly empty SIT blocks */
	if (b->nclosed > 1)
		qsort(b->closed, b->nclosed, sizeof(*b->closed), cmp_u32);
	for (size_t i = 0; i < b->nclosed && !ret;) {
		uint32_t first = b->closed[i] / F2FS_SIT_ENTRY_PER_BLOCK * F2FS_SIT_ENTRY_PER_BLOCK;

		memset(&sb, 0, sizeof(sb));
		for (; i < b->nclosed && b->closed[i] < first + F2FS_SIT_ENTRY_PER_BLOCK; i++) {
			const struct bld_seg *s = &b->seg[b->closed[i]];
			struct f2fs_sit_entry *e = &sb.entries[b->closed[i] - first];

			e->vblocks = le16_put((uint16_t)((s->type << F2FS_SIT_VBLOCKS_SHIFT) | s->valid));
			memset(e->valid_map, 0xFF, sizeof(e->valid_map));
		}
		ret = bld_write(b, b->l->sit_blkaddr + first / F2FS_SIT_ENTRY_PER_BLOCK, &sb);
	}
	memset(&b->sit_journal, 0, sizeof(b->sit_journal));
	b->sit_journal.n_entries = le16_put(F2FS_NR_CURSEG_TYPE);
	for (int i = 0; i < F2FS_NR_CURSEG_TYPE; i++) {
		const struct bld_log *lg = &b->log[order[i]];
		struct f2fs_sit_journal_entry *e = &b->sit_journal.sit_j.entries[i];

		e->segno = le32_put(lg->segno);
		e->se.vblocks = le16_put((uint16_t)((order[i] << F2FS_SIT_VBLOCKS_SHIFT) |
						    lg->blkoff));
		memcpy(e->se.valid_map, lg->valid_map, sizeof(e->se.valid_map));
	}
	return ret;
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
