/* The SIT of an opened image: live copy + journal, read sequentially. */
#include <f2fs/format/bitmap.h>
#include <f2fs/fs/sit.h>
#include <f2fs/io/dev.h>
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/ver_bitmap.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Blocks per read: 4 MiB. */
#define SIT_RUN_BLOCKS 1024u

uint64_t f2fs_sit_entry_blkaddr(const struct f2fs_fs *fs, uint32_t segno)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	uint32_t bytes;
	const uint8_t *map = f2fs_fs_sit_bitmap(fs, &bytes);
	uint32_t blk = segno / F2FS_SIT_ENTRY_PER_BLOCK;

	return f2fs_sit_copy_addr(le32_get(sb->sit_blkaddr), le32_get(sb->segment_count_sit), blk,
				  blk / 8 < bytes && f2fs_ver_bit(map, blk));
}

static void set_entry(struct f2fs_sit *sit, uint32_t segno,
		      const struct f2fs_sit_entry *e, uint8_t src)
{
	struct f2fs_seg *s = &sit->seg[segno];
	uint16_t vb = le16_get(e->vblocks);
	uint32_t valid = vb & F2FS_SIT_VBLOCKS_MASK;
	uint32_t bits = f2fs_sit_map_weight(e->valid_map);

	s->flags &= F2FS_SEG_CURRENT;
	s->type = (uint8_t)(vb >> F2FS_SIT_VBLOCKS_SHIFT);
	s->src = src;
	s->mtime = le64_get(e->mtime);
	if (valid > F2FS_BLOCKS_PER_SEG) {
		s->flags |= F2FS_SEG_OVERFULL;
		valid = F2FS_BLOCKS_PER_SEG;
	}
	if (bits != (vb & F2FS_SIT_VBLOCKS_MASK))
		s->flags |= F2FS_SEG_BAD_COUNT;
	if (s->type >= F2FS_NR_CURSEG_TYPE)
		s->flags |= F2FS_SEG_BAD_TYPE;
	s->valid = (uint16_t)valid;
	if (sit->maps)
		memcpy(sit->maps + (size_t)segno * F2FS_SIT_VBLOCK_MAP_SIZE, e->valid_map,
		       F2FS_SIT_VBLOCK_MAP_SIZE);
}

int f2fs_sit_load(struct f2fs_fs *fs, unsigned flags, struct f2fs_sit **out,
		  struct f2fs_error *err)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	const struct f2fs_journal *j = f2fs_fs_sit_journal(fs);
	uint32_t nsegs = le32_get(sb->segment_count_main);
	uint32_t spsec = le32_get(sb->segs_per_sec);
	uint32_t sit_segs = le32_get(sb->segment_count_sit);
	uint64_t copy_blocks = f2fs_sit_copy_span(sit_segs);
	uint32_t bytes;
	const uint8_t *vmap = f2fs_fs_sit_bitmap(fs, &bytes);
	uint32_t nblocks = (uint32_t)(((uint64_t)nsegs + F2FS_SIT_ENTRY_PER_BLOCK - 1) /
				      F2FS_SIT_ENTRY_PER_BLOCK);
	uint32_t sit_addr = le32_get(sb->sit_blkaddr);
	struct f2fs_sit *sit;
	uint8_t *buf = NULL;
	int ret = 0;

	*out = NULL;
	if (spsec == 0 || nsegs % spsec)
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "superblock: %u main segments are not whole sections of %u",
				 nsegs, spsec);
	if (nblocks > copy_blocks || nblocks > (uint64_t)bytes * 8)
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "SIT: %u main segments need %u SIT blocks, one copy has %llu",
				 nsegs, nblocks, (unsigned long long)copy_blocks);
	sit = calloc(1, sizeof(*sit));
	if (!sit)
		return f2fs_fail(err, -ENOMEM, "out of memory");
	sit->nsegs = nsegs;
	sit->segs_per_sec = spsec;
	sit->nsecs = nsegs / spsec;
	sit->sit_blocks = nblocks;
	sit->seg = calloc(nsegs ? nsegs : 1, sizeof(*sit->seg));
	if (flags & F2FS_SIT_WANT_MAPS)
		sit->maps = calloc(nsegs ? nsegs : 1, F2FS_SIT_VBLOCK_MAP_SIZE);
	buf = malloc((size_t)SIT_RUN_BLOCKS * F2FS_BLKSIZE);
	if (!sit->seg || !buf || ((flags & F2FS_SIT_WANT_MAPS) && !sit->maps)) {
		ret = f2fs_fail(err, -ENOMEM, "out of memory");
		goto fail;
	}
	/* runs of blocks living in the same copy: one read each */
	for (uint32_t b = 0; b < nblocks;) {
		int copy = f2fs_ver_bit(vmap, b);
		uint32_t n = 1;

		while (b + n < nblocks && n < SIT_RUN_BLOCKS && f2fs_ver_bit(vmap, b + n) == copy)
			n++;
		ret = f2fs_dev_read(f2fs_fs_dev(fs), f2fs_sit_copy_addr(sit_addr, sit_segs, b, copy),
				    buf, n, err);
		if (ret)
			goto fail;
		for (uint32_t k = 0; k < n; k++) {
			const struct f2fs_sit_block *blk =
				(const void *)(buf + (size_t)k * F2FS_BLKSIZE);
			uint32_t first = (b + k) * F2FS_SIT_ENTRY_PER_BLOCK;

			for (uint32_t e = 0; e < F2FS_SIT_ENTRY_PER_BLOCK && first + e < nsegs; e++)
				set_entry(sit, first + e, &blk->entries[e], (uint8_t)copy);
		}
		b += n;
	}
	for (uint32_t k = 0; k < le16_get(j->n_entries); k++) {
		uint32_t segno = le32_get(j->sit_j.entries[k].segno);

		if (segno >= nsegs) {
			sit->n_journal_bad++;
			continue;
		}
		set_entry(sit, segno, &j->sit_j.entries[k].se, F2FS_SIT_SRC_JOURNAL);
		sit->n_journal++;
	}
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++) {
		uint32_t s = f2fs_cp_log_segno(cp, t);

		sit->cur_segno[t] = s;
		sit->cur_blkoff[t] = f2fs_cp_log_blkoff(cp, t);
		if (s < nsegs) {
			sit->seg[s].flags |= F2FS_SEG_CURRENT;
			sit->seg[s].cur_type = (uint8_t)t;
		}
	}
	for (uint32_t s = 0; s < nsegs; s++) {
		sit->n_bad_count += !!(sit->seg[s].flags & F2FS_SEG_BAD_COUNT);
		sit->n_bad_type += !!(sit->seg[s].flags & F2FS_SEG_BAD_TYPE);
		sit->n_overfull += !!(sit->seg[s].flags & F2FS_SEG_OVERFULL);
	}
	free(buf);
	*out = sit;
	return 0;
fail:
	free(buf);
	f2fs_sit_free(sit);
	return ret;
}

void f2fs_sit_free(struct f2fs_sit *sit)
{
	if (!sit)
		return;
	free(sit->seg);
	free(sit->maps);
	free(sit);
}

int f2fs_sit_block_valid(const struct f2fs_sit *sit, uint32_t segno, uint32_t off)
{
	if (!sit->maps || segno >= sit->nsegs || off >= F2FS_BLOCKS_PER_SEG)
		return -1;
	return f2fs_msb_test(sit->maps + (size_t)segno * F2FS_SIT_VBLOCK_MAP_SIZE, off);
}

uint32_t f2fs_sit_sec_valid(const struct f2fs_sit *sit, uint32_t secno)
{
	uint32_t v = 0, first = secno * sit->segs_per_sec;

	for (uint32_t k = 0; k < sit->segs_per_sec; k++)
		v += sit->seg[first + k].valid;
	return v;
}

int f2fs_sit_sec_current(const struct f2fs_sit *sit, uint32_t secno)
{
	uint32_t first = secno * sit->segs_per_sec;

	for (uint32_t k = 0; k < sit->segs_per_sec; k++)
		if (sit->seg[first + k].flags & F2FS_SEG_CURRENT)
			return 1;
	return 0;
}

enum f2fs_seg_state f2fs_sit_seg_state(const struct f2fs_sit *sit, uint32_t segno)
{
	const struct f2fs_seg *s = &sit->seg[segno];

	if (s->flags & F2FS_SEG_CURRENT)
		return F2FS_STATE_CURRENT;
	if (s->valid == 0)
		return F2FS_STATE_FREE;
	return s->valid >= F2FS_BLOCKS_PER_SEG ? F2FS_STATE_FULL : F2FS_STATE_PARTIAL;
}

enum f2fs_seg_state f2fs_sit_sec_state(const struct f2fs_sit *sit, uint32_t secno)
{
	uint32_t v;

	if (f2fs_sit_sec_current(sit, secno))
		return F2FS_STATE_CURRENT;
	v = f2fs_sit_sec_valid(sit, secno);
	if (v == 0)
		return F2FS_STATE_FREE;
	return v >= sit->segs_per_sec * F2FS_BLOCKS_PER_SEG ? F2FS_STATE_FULL : F2FS_STATE_PARTIAL;
}

static unsigned type_row(uint8_t type)
{
	return type < F2FS_NR_CURSEG_TYPE ? type : F2FS_NR_CURSEG_TYPE;
}

void f2fs_sit_stats(const struct f2fs_sit *sit, uint32_t bucket, uint32_t *hist,
		    struct f2fs_sit_stats *st)
{
	uint32_t spsec = sit->segs_per_sec;

	memset(st, 0, sizeof(*st));
	if (bucket == 0 || bucket > F2FS_BLOCKS_PER_SEG)
		bucket = 64;
	st->bucket = bucket;
	st->nbuckets = (F2FS_BLOCKS_PER_SEG + bucket - 1) / bucket;
	st->hist = hist;
	memset(hist, 0, st->nbuckets * sizeof(*hist));
	st->min_mtime = UINT64_MAX;
	for (uint32_t s = 0; s < sit->nsegs; s++) {
		const struct f2fs_seg *e = &sit->seg[s];
		enum f2fs_seg_state state = f2fs_sit_seg_state(sit, s);
		unsigned row = type_row(e->type);

		st->segs[row][state]++;
		st->valid_blocks[row] += e->valid;
		st->total_valid += e->valid;
		if (state == F2FS_STATE_FREE)
			st->free_segs++;
		if (e->valid == 0)
			st->hist_zero++;
		else
			hist[(e->valid - 1) / bucket]++;
		if (e->mtime < st->min_mtime)
			st->min_mtime = e->mtime;
		if (e->mtime > st->max_mtime)
			st->max_mtime = e->mtime;
	}
	if (sit->nsegs == 0)
		st->min_mtime = 0;
	for (uint32_t sec = 0; sec < sit->nsecs; sec++) {
		enum f2fs_seg_state state = f2fs_sit_sec_state(sit, sec);

		st->secs[type_row(sit->seg[sec * spsec].type)][state]++;
		if (state == F2FS_STATE_FREE)
			st->free_secs++;
	}
}
