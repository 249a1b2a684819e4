/* Image builder: nids, log blocks, segments and sections. */
#include "build.h"

#include <f2fs/format/bitmap.h>
#include <f2fs/util/vec.h>
#include <f2fs/format/endian.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int bld_init(struct bld *b, const struct f2fs_layout *l, struct f2fs_dev *vol,
	     uint32_t features, uint64_t cp_ver, uint32_t crc_seed, struct f2fs_error *err)
{
	memset(b, 0, sizeof(*b));
	b->l = l;
	b->vol = vol;
	b->features = features;
	b->cp_ver = cp_ver;
	b->crc_seed = crc_seed;
	b->err = err;
	b->max_nid = f2fs_layout_nat_blocks(l) * F2FS_NAT_ENTRY_PER_BLOCK;
	b->next_nid = F2FS_ROOT_INO;
	b->seg = calloc(l->segment_count_main, sizeof(*b->seg));
	if (!b->seg)
		return f2fs_fail(err, -ENOMEM, "out of memory for %u segments",
				 l->segment_count_main);
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++) {
		b->log[t].segno = l->cur_seg[t];
		b->taken_segs += !b->seg[l->cur_seg[t]].taken;
		b->seg[l->cur_seg[t]].taken = 1;
		b->seg[l->cur_seg[t]].type = (uint8_t)t;
	}
	return 0;
}

void bld_free(struct bld *b)
{
	free(b->seg);
	free(b->nat);
	free(b->closed);
	b->closed = NULL;
	b->seg = NULL;
	b->nat = NULL;
}

/* Entries up to nid (< max_nid), zeroed: nat_cap never passes the NAT. */
static int grow_nat(struct bld *b, uint32_t nid)
{
	size_t cap = b->nat_cap;

	if (f2fs_array_reserve(b->nat, cap, (size_t)nid + 1))
		return f2fs_fail(b->err, -ENOMEM, "out of memory for %u node ids", nid + 1);
	if (cap > b->max_nid)
		cap = b->max_nid;
	memset(b->nat + b->nat_cap, 0, (cap - b->nat_cap) * sizeof(*b->nat));
	b->nat_cap = (uint32_t)cap;
	return 0;
}

uint32_t bld_alloc_nid(struct bld *b)
{
	if (b->next_nid >= b->max_nid) {
		f2fs_fail(b->err, -F2FS_E_NO_SPACE,
			  "out of node ids: the NAT holds %u", b->max_nid);
		return 0;
	}
	if (b->next_nid >= b->nat_cap && grow_nat(b, b->next_nid))
		return 0;
	return b->next_nid++;
}

int bld_set_nat(struct bld *b, uint32_t nid, uint32_t ino, uint32_t blkaddr)
{
	if (nid >= b->max_nid)
		return f2fs_fail(b->err, -F2FS_E_NO_SPACE, "nid %u beyond the NAT", nid);
	if (nid >= b->nat_cap) {
		int ret = grow_nat(b, nid);

		if (ret)
			return ret;
	}
	b->nat[nid].ino = ino;
	b->nat[nid].blkaddr = blkaddr;
	return 0;
}

uint64_t bld_blocks_left(const struct bld *b)
{
	return b->l->user_block_count > b->valid_blocks ?
	       b->l->user_block_count - b->valid_blocks : 0;
}

/*
 * Blocks written to a zoned target between syncs. The device's queue
 * drains in address order, and a log fills its zone in address order,
 * but through the page cache: background writeback, once dirty pages
 * pass its threshold, starts where it last stopped, which can be the
 * middle of a zone, and a sequential zone takes no write past its
 * pointer (mkfs --rootdir of 300 MiB onto a zoned null_blk failed with
 * EIO). Syncing every 8 MiB keeps the dirty pages below any threshold,
 * and a sync writes them back in address order.
 */
#define ZONED_SYNC_BLOCKS 2048u

/* A block of the volume (the set maps it to its device). */
int bld_write(struct bld *b, uint64_t blkaddr, const void *data)
{
	int ret = f2fs_dev_write(b->vol, blkaddr, data, 1, b->err);

	if (!ret && b->seq_sections && ++b->unsynced >= ZONED_SYNC_BLOCKS) {
		b->unsynced = 0;
		ret = f2fs_dev_flush(b->vol, b->err);
	}
	return ret;
}

static int io_write(void *arg, uint64_t blkaddr, const void *block, struct f2fs_error *err)
{
	struct bld *b = arg;
	int ret = bld_write(b, blkaddr, block);

	if (ret && err && err != b->err)
		*err = *b->err;
	return ret;
}

void bld_block_io(struct bld *b, struct f2fs_block_io *io)
{
	*io = (struct f2fs_block_io){ NULL, io_write, b, NULL };
}

static int write_ssa(struct bld *b, enum f2fs_seg_type t)
{
	struct bld_log *lg = &b->log[t];
	struct f2fs_summary_block sum;

	memset(&sum, 0, sizeof(sum));
	memcpy(sum.entries, lg->sum, sizeof(sum.entries));
	sum.footer.entry_type = t >= F2FS_SEG_HOT_NODE ? F2FS_SUM_TYPE_NODE
						       : F2FS_SUM_TYPE_DATA;
	return bld_write(b, (uint64_t)b->l->ssa_blkaddr + lg->segno, &sum);
}

static bool section_free(const struct bld *b, uint32_t sec)
{
	uint32_t sps = b->l->segs_per_sec;

	for (uint32_t s = sec * sps; s < (sec + 1) * sps; s++)
		if (b->seg[s].taken)
			return false;
	return true;
}

/* The next segment for a log: the rest of its section, then a free section. */
static int next_segment(struct bld *b, uint32_t cur, uint32_t *out)
{
	const struct f2fs_layout *l = b->l;
	uint32_t sps = l->segs_per_sec, nsec = l->section_count;

	if ((cur + 1) % sps != 0 && !b->seg[cur + 1].taken) {
		*out = cur + 1;
		return 0;
	}
	for (uint32_t n = 0; n < nsec; n++) {
		uint32_t sec = (b->next_sec + n) % nsec;

		if (section_free(b, sec)) {
			b->next_sec = (sec + 1) % nsec;
			*out = sec * sps;
			return 0;
		}
	}
	return f2fs_fail(b->err, -F2FS_E_NO_SPACE, "no free section left in the main area");
}

static int close_segment(struct bld *b, enum f2fs_seg_type t)
{
	struct bld_log *lg = &b->log[t];
	uint32_t next = 0;
	int ret = write_ssa(b, t);

	if (!ret)
		ret = next_segment(b, lg->segno, &next);
	if (!ret && f2fs_array_reserve(b->closed, b->closed_cap, b->nclosed + 1))
		ret = f2fs_fail(b->err, -ENOMEM, "out of memory closing segments");
	if (ret)
		return ret;
	b->closed[b->nclosed++] = lg->segno;
	b->seg[lg->segno].valid = lg->blkoff;
	b->seg[next].taken = 1;
	b->seg[next].type = (uint8_t)t;
	b->taken_segs++;
	memset(lg, 0, sizeof(*lg));
	lg->segno = next;
	return 0;
}

int bld_end_node_logs(struct bld *b)
{
	static const uint8_t zero[F2FS_BLKSIZE];

	for (int t = F2FS_SEG_WARM_NODE; t <= F2FS_SEG_COLD_NODE; t++) {
		const struct bld_log *lg = &b->log[t];
		int ret;

		if (lg->segno == b->l->cur_seg[t] && lg->blkoff == 0)
			continue;
		/* a reset zone reads as zeros past its write pointer, and a
		 * write there would move the pointer past the checkpoint's */
		if (b->seq_sections && b->seq_sections[lg->segno / b->l->segs_per_sec])
			continue;
		ret = bld_write(b, b->l->main_blkaddr + (uint64_t)lg->segno * F2FS_BLOCKS_PER_SEG +
				lg->blkoff, zero);
		if (ret)
			return ret;
	}
	return 0;
}

int bld_alloc_block(struct bld *b, enum f2fs_seg_type t, uint32_t nid,
		    uint16_t ofs_in_node, uint32_t *blkaddr)
{
	struct bld_log *lg = &b->log[t];
	uint32_t off;

	if (b->valid_blocks >= b->l->user_block_count)
		return f2fs_fail(b->err, -F2FS_E_NO_SPACE,
				 "the content does not fit: all %llu user blocks are used",
				 (unsigned long long)b->l->user_block_count);
	off = lg->blkoff++;
	lg->sum[off].nid = le32_put(nid);
	lg->sum[off].version = 0;
	lg->sum[off].ofs_in_node = le16_put(ofs_in_node);
	f2fs_msb_set(lg->valid_map, off);
	b->valid_blocks++;
	*blkaddr = b->l->main_blkaddr + lg->segno * F2FS_BLOCKS_PER_SEG + off;
	/* a checkpoint may not name a full current segment: move on now */
	if (lg->blkoff == F2FS_BLOCKS_PER_SEG)
		return close_segment(b, t);
	return 0;
}
