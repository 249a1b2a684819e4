/*
 * Node blocks found without the NAT (see <f2fs/fs/node_find.h>).
 */
#include <f2fs/fs/node_find.h>
#include <f2fs/fs/ssa.h>
#include <f2fs/format/bitmap.h>
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/node_ofs.h>
#include <f2fs/io/dev.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Segments (or blocks) read at once: 256 KiB. */
#define FIND_IO_BLOCKS 64u
/* the footer scan reads up to a segment at a time: cold, 2 MiB reads run
 * at twice the rate of 256 KiB ones (bench/scan-bench.sh) */
#define SCAN_IO_BLOCKS F2FS_BLOCKS_PER_SEG

bool f2fs_node_footer_sane(const struct f2fs_node *nd, uint32_t max_nid)
{
	uint32_t nid = le32_get(nd->footer.nid), ino = le32_get(nd->footer.ino);
	uint32_t ofs = le32_get(nd->footer.flag) >> F2FS_NODE_OFS_SHIFT;
	enum f2fs_node_kind kind = f2fs_node_kind(ofs);

	if (nid <= F2FS_META_INO || nid >= max_nid || ino <= F2FS_META_INO || ino >= max_nid)
		return false;
	if (kind == F2FS_NODE_BAD)
		return false;
	/* an inode is its own; no other node is */
	return (kind == F2FS_NODE_INODE) == (nid == ino);
}

static int report(struct f2fs_fs *fs, const struct f2fs_node_find *q, const struct f2fs_node *nd,
		  uint32_t addr, uint32_t want_nid)
{
	uint32_t nid = le32_get(nd->footer.nid);

	if (nid != want_nid || !f2fs_node_footer_sane(nd, f2fs_fs_max_nid(fs)))
		return 0;
	return q->found(q->arg, &(struct f2fs_node_found){
		.nid = nid, .ino = le32_get(nd->footer.ino), .blkaddr = addr,
		.node_ofs = le32_get(nd->footer.flag) >> F2FS_NODE_OFS_SHIFT,
		.cp_ver = le64_get(nd->footer.cp_ver), .node = nd });
}

/* The blocks of one segment whose summaries name wanted nids. */
static int by_ssa_segment(struct f2fs_fs *fs, const struct f2fs_node_find *q, uint32_t s,
			  const uint8_t *map, const struct f2fs_summary_block *sum,
			  struct f2fs_node *nd, struct f2fs_error *err)
{
	uint32_t first = le32_get(f2fs_fs_sb(fs)->main_blkaddr) + s * F2FS_BLOCKS_PER_SEG;

	for (uint32_t b = 0; b < F2FS_BLOCKS_PER_SEG; b++) {
		uint32_t nid = le32_get(sum->entries[b].nid);
		int ret;

		if (!f2fs_msb_test(map, b) || !q->want(q->arg, nid))
			continue;
		ret = f2fs_fs_read_block(fs, first + b, nd, err);
		if (!ret)
			ret = report(fs, q, nd, first + b, nid);
		if (ret)
			return ret;
	}
	return 0;
}

int f2fs_node_find_by_ssa(struct f2fs_fs *fs, const struct f2fs_node_find *q,
			  struct f2fs_error *err)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	uint32_t segs = le32_get(sb->segment_count_main), ssa = le32_get(sb->ssa_blkaddr);
	struct f2fs_summary_block *io = malloc((size_t)FIND_IO_BLOCKS * F2FS_BLKSIZE);
	struct f2fs_summary_block cur;
	struct f2fs_node *nd = malloc(sizeof(*nd));
	int ret = 0;

	if (!io || !nd) {
		free(io);
		free(nd);
		return f2fs_fail(err, -ENOMEM, "out of memory for the summaries of node segments");
	}
	for (uint32_t s = 0; s < segs && !ret; s += FIND_IO_BLOCKS) {
		uint32_t n = segs - s < FIND_IO_BLOCKS ? segs - s : FIND_IO_BLOCKS;
		bool any = false;

		for (uint32_t k = 0; k < n && !any; k++)
			any = q->seg_map(q->arg, s + k) != NULL;
		if (!any)
			continue;
		ret = f2fs_dev_read(f2fs_fs_dev(fs), (uint64_t)ssa + s, io, n, err);
		for (uint32_t k = 0; k < n && !ret; k++) {
			const uint8_t *map = q->seg_map(q->arg, s + k);
			const struct f2fs_summary_block *sum = &io[k];

			if (!map)
				continue;
			/* a log's summaries live in the checkpoint pack */
			if (f2fs_cp_log_of(f2fs_fs_cp(fs), s + k) >= 0) {
				ret = f2fs_ssa_get(fs, s + k, &cur, NULL, err);
				sum = &cur;
			}
			if (!ret)
				ret = by_ssa_segment(fs, q, s + k, map, sum, nd, err);
		}
	}
	free(io);
	free(nd);
	return ret;
}

int f2fs_node_find_by_footer(struct f2fs_fs *fs, const struct f2fs_node_find *q,
			     struct f2fs_error *err)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	uint32_t segs = le32_get(sb->segment_count_main), main = le32_get(sb->main_blkaddr);
	struct f2fs_node *io = malloc((size_t)SCAN_IO_BLOCKS * F2FS_BLKSIZE);
	int ret = 0;

	if (!io)
		return f2fs_fail(err, -ENOMEM, "out of memory for the scan of node blocks");
	for (uint32_t s = 0; s < segs && !ret; s++) {
		const uint8_t *map = q->seg_map(q->arg, s);

		for (uint32_t b = 0; map && b < F2FS_BLOCKS_PER_SEG && !ret; ) {
			uint32_t n = 0, addr = main + s * F2FS_BLOCKS_PER_SEG + b;

			if (!f2fs_msb_test(map, b)) {
				b++;
				continue;
			}
			/* a run of blocks from a valid one, gaps included */
			while (b + n < F2FS_BLOCKS_PER_SEG && n < SCAN_IO_BLOCKS)
				n++;
			ret = f2fs_dev_read(f2fs_fs_dev(fs), addr, io, n, err);
			for (uint32_t k = 0; k < n && !ret; k++)
				if (f2fs_msb_test(map, b + k) &&
				    q->want(q->arg, le32_get(io[k].footer.nid)))
					ret = report(fs, q, &io[k], addr + k, le32_get(io[k].footer.nid));
			b += n;
		}
		if (q->progress && (s % 64 == 63 || s + 1 == segs))
			q->progress(q->arg, s + 1, segs);
	}
	free(io);
	return ret;
}
