/* Segment summaries (SSA area and CP pack) and block owner lookup. */
#include <f2fs/fs/ssa.h>
#include <f2fs/format/node_ofs.h>
#include <f2fs/io/dev.h>
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/fs/nat.h>
#include <f2fs/format/summary.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *f2fs_sum_src_name(enum f2fs_sum_src src)
{
	switch (src) {
	case F2FS_SUM_SRC_SSA:        return "ssa";
	case F2FS_SUM_SRC_CP_COMPACT: return "cp-compacted";
	case F2FS_SUM_SRC_CP_NORMAL:  return "cp";
	case F2FS_SUM_SRC_REBUILT:    return "rebuilt";
	}
	return "?";
}

const char *f2fs_area_name(enum f2fs_area a)
{
	static const char *const n[] = { "superblock", "checkpoint", "sit", "nat", "ssa",
					 "main", "beyond" };

	return (unsigned)a <= F2FS_AREA_BEYOND ? n[a] : "?";
}

const char *f2fs_owner_status_name(enum f2fs_owner_status s)
{
	static const char *const n[] = { "metadata", "free", "ok", "mismatch" };

	return (unsigned)s <= F2FS_OWNER_MISMATCH ? n[s] : "?";
}

enum f2fs_area f2fs_area_of(const struct f2fs_fs *fs, uint64_t blkaddr)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);

	if (blkaddr >= le64_get(sb->block_count))
		return F2FS_AREA_BEYOND;
	if (blkaddr >= le32_get(sb->main_blkaddr))
		return f2fs_fs_in_main(fs, blkaddr) ? F2FS_AREA_MAIN : F2FS_AREA_BEYOND;
	if (blkaddr >= le32_get(sb->ssa_blkaddr))
		return F2FS_AREA_SSA;
	if (blkaddr >= le32_get(sb->nat_blkaddr))
		return F2FS_AREA_NAT;
	if (blkaddr >= le32_get(sb->sit_blkaddr))
		return F2FS_AREA_SIT;
	if (blkaddr >= le32_get(sb->cp_blkaddr))
		return F2FS_AREA_CP;
	return F2FS_AREA_SB;
}

/* The node summaries of current node logs are in the pack only with these. */
static int has_node_sums(uint32_t flags)
{
	return (flags & (F2FS_CP_UMOUNT | F2FS_CP_FASTBOOT)) != 0;
}

static int read_cp_data_sum(struct f2fs_fs *fs, int type, struct f2fs_summary_block *out,
			    enum f2fs_sum_src *src, struct f2fs_error *err)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	uint32_t flags = f2fs_fs_ckpt_flags(fs);
	uint32_t start = f2fs_fs_cp_start(fs) + le32_get(cp->cp_pack_start_sum);
	uint32_t total = le32_get(cp->cp_pack_total_block_count);
	uint8_t *buf;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!(flags & F2FS_CP_COMPACT_SUM)) {
		if (le32_get(cp->cp_pack_start_sum) + 3 > total)
			return f2fs_fail(err, -F2FS_E_CORRUPT,
					 "checkpoint: data summaries run past the pack");
		*src = F2FS_SUM_SRC_CP_NORMAL;
		return f2fs_dev_read(f2fs_fs_dev(fs), start + (uint32_t)type, out, 1, err);
	}
	{
		uint16_t count[F2FS_NR_CURSEG_DATA];
		struct f2fs_summary *ent[F2FS_NR_CURSEG_DATA];
		struct f2fs_journal *nj, *sj;
		uint32_t nb;

		f2fs_data_sum_counts(cp, count);
		for (int t = 0; t < F2FS_NR_CURSEG_DATA; t++) {
			if (count[t] > F2FS_ENTRIES_IN_SUM)
				return f2fs_fail(err, -F2FS_E_CORRUPT,
						 "checkpoint: cur_data_blkoff[%d] = %u is beyond a segment",
						 t, count[t]);
		}
		nb = f2fs_compact_sum_blocks(count);
		if (nb > 2 || le32_get(cp->cp_pack_start_sum) + nb > total)
			return f2fs_fail(err, -F2FS_E_CORRUPT,
					 "checkpoint: compacted summaries do not fit the pack");
		buf = malloc((size_t)nb * F2FS_BLKSIZE + 2 * sizeof(struct f2fs_journal) +
			     3 * sizeof(struct f2fs_summary) * F2FS_ENTRIES_IN_SUM);
		if (!buf)
			return f2fs_fail(err, -ENOMEM, "out of memory");
		nj = (void *)(buf + (size_t)nb * F2FS_BLKSIZE);
		sj = nj + 1;
		for (int t = 0; t < F2FS_NR_CURSEG_DATA; t++)
			ent[t] = (struct f2fs_summary *)(void *)(sj + 1) + t * F2FS_ENTRIES_IN_SUM;
		ret = f2fs_dev_read(f2fs_fs_dev(fs), start, buf, nb, err);
		if (!ret)
			ret = f2fs_compact_sum_decode(buf, nb, nj, sj, ent, count, err);
		if (!ret) {
			memcpy(out->entries, ent[type], count[type] * sizeof(struct f2fs_summary));
			if (type == F2FS_SEG_HOT_DATA)
				memcpy(&out->journal, nj, sizeof(*nj));
			else if (type == F2FS_SEG_COLD_DATA)
				memcpy(&out->journal, sj, sizeof(*sj));
			out->footer.entry_type = F2FS_SUM_TYPE_DATA;
			*src = F2FS_SUM_SRC_CP_COMPACT;
		}
		free(buf);
		return ret;
	}
}

/* The kernel rebuilds a current node log's summary from the node footers. */
static int rebuild_node_sum(struct f2fs_fs *fs, uint32_t segno, struct f2fs_summary_block *out,
			    struct f2fs_error *err)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	uint64_t start = le32_get(sb->main_blkaddr) + (uint64_t)segno * F2FS_BLOCKS_PER_SEG;
	uint8_t *buf = malloc((size_t)F2FS_BLOCKS_PER_SEG * F2FS_BLKSIZE);
	int ret;

	if (!buf)
		return f2fs_fail(err, -ENOMEM, "out of memory");
	memset(out, 0, sizeof(*out));
	ret = f2fs_dev_read(f2fs_fs_dev(fs), start, buf, F2FS_BLOCKS_PER_SEG, err);
	if (!ret) {
		for (uint32_t k = 0; k < F2FS_BLOCKS_PER_SEG; k++) {
			const struct f2fs_node *n = (const void *)(buf + (size_t)k * F2FS_BLKSIZE);

			out->entries[k].nid = n->footer.nid;
		}
		out->footer.entry_type = F2FS_SUM_TYPE_NODE;
	}
	free(buf);
	return ret;
}

int f2fs_ssa_get(struct f2fs_fs *fs, uint32_t segno, struct f2fs_summary_block *out,
		 enum f2fs_sum_src *src, struct f2fs_error *err)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	uint32_t flags = f2fs_fs_ckpt_flags(fs);
	enum f2fs_sum_src dummy;
	int t;

	if (!src)
		src = &dummy;
	if (segno >= le32_get(sb->segment_count_main))
		return f2fs_fail(err, -F2FS_E_CORRUPT, "segment %u is beyond the main area (%u segments)",
				 segno, le32_get(sb->segment_count_main));
	t = f2fs_cp_log_of(cp, segno);
	if (t >= 0 && t < F2FS_NR_CURSEG_DATA)
		return read_cp_data_sum(fs, t, out, src, err);
	if (t >= 0 && has_node_sums(flags)) {
		uint32_t total = le32_get(cp->cp_pack_total_block_count);

		if (total < 5)
			return f2fs_fail(err, -F2FS_E_CORRUPT,
					 "checkpoint: pack of %u blocks has no room for node summaries",
					 total);
		*src = F2FS_SUM_SRC_CP_NORMAL;
		return f2fs_dev_read(f2fs_fs_dev(fs),
				     (uint64_t)f2fs_fs_cp_start(fs) + total - 4 + (uint32_t)(t - 3),
				     out, 1, err);
	}
	if (t >= 0) {
		*src = F2FS_SUM_SRC_REBUILT;
		return rebuild_node_sum(fs, segno, out, err);
	}
	*src = F2FS_SUM_SRC_SSA;
	return f2fs_dev_read(f2fs_fs_dev(fs), (uint64_t)le32_get(sb->ssa_blkaddr) + segno, out, 1, err);
}

static int seg_is_current(const struct f2fs_fs *fs, uint32_t segno, int *type)
{
	*type = f2fs_cp_log_of(f2fs_fs_cp(fs), segno);
	return *type >= 0;
}

static void resolve_node_block(struct f2fs_fs *fs, struct f2fs_owner *o, struct f2fs_node *n)
{
	struct f2fs_nat_info ne;
	struct f2fs_error e;
	uint32_t fnid;

	if (f2fs_fs_read_block(fs, o->blkaddr, n, &e)) {
		o->status = F2FS_OWNER_MISMATCH;
		snprintf(o->note, sizeof(o->note), "cannot read the block: %s", e.msg);
		return;
	}
	fnid = le32_get(n->footer.nid);
	o->ino = le32_get(n->footer.ino);
	o->node_ofs = le32_get(n->footer.flag) >> F2FS_NODE_OFS_SHIFT;
	o->node_kind = f2fs_node_kind(o->node_ofs);
	if (fnid != o->nid) {
		o->status = F2FS_OWNER_MISMATCH;
		snprintf(o->note, sizeof(o->note), "summary names nid %u, the node footer nid %u",
			 o->nid, fnid);
		return;
	}
	if (f2fs_nat_lookup(fs, o->nid, &ne, NULL, &e)) {
		o->status = F2FS_OWNER_MISMATCH;
		snprintf(o->note, sizeof(o->note), "%s", e.msg);
		return;
	}
	if (ne.blkaddr != o->blkaddr) {
		o->status = F2FS_OWNER_MISMATCH;
		snprintf(o->note, sizeof(o->note), "stale: NAT maps nid %u to block %u",
			 o->nid, ne.blkaddr);
		return;
	}
	o->status = F2FS_OWNER_OK;
}

static void resolve_data_block(struct f2fs_fs *fs, struct f2fs_owner *o, struct f2fs_node *n)
{
	uint32_t features = f2fs_fs_features(fs);
	struct f2fs_error e;
	uint32_t ptr, addrs;

	if (f2fs_read_node(fs, o->nid, n, &e)) {
		o->status = F2FS_OWNER_MISMATCH;
		snprintf(o->note, sizeof(o->note), "owner nid %u: %s", o->nid, e.msg);
		return;
	}
	o->ino = le32_get(n->footer.ino);
	o->node_ofs = le32_get(n->footer.flag) >> F2FS_NODE_OFS_SHIFT;
	o->node_kind = f2fs_node_kind(o->node_ofs);
	if (o->node_kind == 0) {
		addrs = f2fs_inode_addrs(&n->i, features);
		if (o->ofs_in_node >= addrs) {
			o->status = F2FS_OWNER_MISMATCH;
			snprintf(o->note, sizeof(o->note), "ofs_in_node %u beyond the inode's %u pointers",
				 o->ofs_in_node, addrs);
			return;
		}
		ptr = f2fs_inode_get_addr(&n->i, o->ofs_in_node);
		o->fofs = o->ofs_in_node;
	} else if (o->node_kind == 1) {
		struct f2fs_node *inode = malloc(sizeof(*inode));

		if (o->ofs_in_node >= F2FS_ADDRS_PER_BLOCK) {
			free(inode);
			o->status = F2FS_OWNER_MISMATCH;
			snprintf(o->note, sizeof(o->note), "ofs_in_node %u beyond a direct node",
				 o->ofs_in_node);
			return;
		}
		ptr = le32_get(n->dn.addr[o->ofs_in_node]);
		/* the file offset needs the inode's pointer count; cross-check it
		 * by mapping the offset back through the inode's tree */
		if (inode && !f2fs_read_inode(fs, o->ino, inode, &e)) {
			uint64_t fofs = f2fs_node_start_bidx(o->node_ofs,
							     f2fs_inode_addrs(&inode->i, features)) +
					o->ofs_in_node;
			uint32_t back;

			if (!f2fs_file_block(fs, inode, fofs, &back, NULL, &e) && back == o->blkaddr)
				o->fofs = fofs;
			else
				snprintf(o->note, sizeof(o->note),
					 "node offset %u does not map file block %llu back to this block",
					 o->node_ofs, (unsigned long long)fofs);
		}
		free(inode);
	} else {
		o->status = F2FS_OWNER_MISMATCH;
		snprintf(o->note, sizeof(o->note), "owner nid %u is not a node with data pointers (offset %u)",
			 o->nid, o->node_ofs);
		return;
	}
	if (ptr != o->blkaddr) {
		o->status = F2FS_OWNER_MISMATCH;
		snprintf(o->note, sizeof(o->note), "stale: nid %u pointer %u holds block %u",
			 o->nid, o->ofs_in_node, ptr);
		return;
	}
	o->status = F2FS_OWNER_OK;
}

int f2fs_block_owner(struct f2fs_fs *fs, const struct f2fs_sit *sit, uint64_t blkaddr,
		     struct f2fs_owner *o, struct f2fs_error *err)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	struct f2fs_summary_block *sum;
	struct f2fs_node *n;
	const struct f2fs_summary *se;
	int cur_type, ret;

	memset(o, 0, sizeof(*o));
	o->blkaddr = blkaddr;
	o->valid = -1;
	o->node_kind = -1;
	o->fofs = UINT64_MAX;
	o->area = f2fs_area_of(fs, blkaddr);
	o->status = F2FS_OWNER_NOT_MAIN;
	if (o->area == F2FS_AREA_BEYOND)
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "block %llu is beyond the end of the file system (%llu blocks)",
				 (unsigned long long)blkaddr,
				 (unsigned long long)le64_get(sb->block_count));
	if (o->area != F2FS_AREA_MAIN)
		return 0;
	o->segno = (uint32_t)((blkaddr - le32_get(sb->main_blkaddr)) / F2FS_BLOCKS_PER_SEG);
	o->offset = (uint32_t)((blkaddr - le32_get(sb->main_blkaddr)) % F2FS_BLOCKS_PER_SEG);
	o->secno = o->segno / (le32_get(sb->segs_per_sec) ? le32_get(sb->segs_per_sec) : 1);
	if (sit && o->segno < sit->nsegs) {
		o->seg_type = sit->seg[o->segno].type;
		o->valid = f2fs_sit_block_valid(sit, o->segno, o->offset);
	}
	sum = malloc(sizeof(*sum));
	n = malloc(sizeof(*n));
	if (!sum || !n) {
		free(sum);
		free(n);
		return f2fs_fail(err, -ENOMEM, "out of memory");
	}
	ret = f2fs_ssa_get(fs, o->segno, sum, &o->sum_src, err);
	if (ret)
		goto out;
	se = &sum->entries[o->offset];
	o->nid = le32_get(se->nid);
	o->version = se->version;
	o->ofs_in_node = le16_get(se->ofs_in_node);
	if (seg_is_current(fs, o->segno, &cur_type))
		o->is_node = cur_type >= F2FS_SEG_HOT_NODE;
	else
		o->is_node = sum->footer.entry_type == F2FS_SUM_TYPE_NODE;
	if (o->valid == 0) {
		o->status = F2FS_OWNER_FREE;
		snprintf(o->note, sizeof(o->note), "not valid in the SIT");
		goto out;
	}
	if (o->nid == 0) {
		o->status = F2FS_OWNER_MISMATCH;
		snprintf(o->note, sizeof(o->note), "summary entry is empty (nid 0)");
		goto out;
	}
	if (o->is_node)
		resolve_node_block(fs, o, n);
	else
		resolve_data_block(fs, o, n);
out:
	free(sum);
	free(n);
	return ret;
}
