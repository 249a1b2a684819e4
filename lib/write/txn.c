/* A repair transaction: staged NAT, SIT, SSA and checkpoint, committed last. */
#include <f2fs/write/txn.h>
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/write/cp_pack.h>
#include <f2fs/write/flush_plan.h>
#include <f2fs/write/fs_flush.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define BLK F2FS_BLKSIZE

int f2fs_txn_begin(struct f2fs_txn *t, struct f2fs_fs *fs, struct f2fs_error *err)
{
	size_t bytes = (1 + (size_t)le32_get(f2fs_fs_sb(fs)->cp_payload)) * BLK;

	memset(t, 0, sizeof(*t));
	t->fs = fs;
	t->cp = malloc(bytes);
	if (!t->cp)
		return f2fs_fail(err, -ENOMEM, "out of memory for a checkpoint");
	memcpy(t->cp, f2fs_fs_cp(fs), bytes);
	t->bytes_at_begin = f2fs_dev_bytes_written(f2fs_fs_dev(fs));
	return 0;
}

void f2fs_txn_free(struct f2fs_txn *t)
{
	free(t->cp);
	f2fs_vec_free(&t->nat);
	f2fs_vec_free(&t->sit);
	f2fs_vec_free(&t->ssa);
	f2fs_vec_free(&t->orphans);
	for (int i = 0; i < F2FS_NR_CURSEG_TYPE; i++)
		free(t->sum[i]);
	free(t->nat_used);
	memset(t, 0, sizeof(*t));
}

/* ---- the writer: the device's queue, counted by area ------------------ */

static int count_write(void *arg, uint64_t blkaddr, const void *block, struct f2fs_error *err)
{
	struct f2fs_txn *t = arg;
	const struct f2fs_super_block *sb = f2fs_fs_sb(t->fs);

	/* the areas lie in this order: checkpoint, SIT, NAT, SSA */
	if (blkaddr < le32_get(sb->sit_blkaddr))
		t->stats.cp_blocks++;
	else if (blkaddr < le32_get(sb->nat_blkaddr))
		t->stats.sit_blocks++;
	else
		t->stats.nat_blocks++;
	return f2fs_dev_write(f2fs_fs_dev(t->fs), blkaddr, block, 1, err);
}

static int barrier(void *arg, struct f2fs_error *err)
{
	struct f2fs_txn *t = arg;

	return f2fs_dev_flush(f2fs_fs_dev(t->fs), err);
}

/* ---- the steps ---------------------------------------------------------- */

/* A clean-unmount checkpoint with nat_bits: the kernel empties the NAT
 * journal whenever it writes them, and its bitmaps are only right if every
 * changed NAT block is on disk. */
static int writes_nat_bits(const struct f2fs_checkpoint *cp)
{
	uint32_t flags = le32_get(cp->ckpt_flags);

	return (flags & F2FS_CP_NAT_BITS) && (flags & F2FS_CP_UMOUNT);
}

static int flush_meta(struct f2fs_txn *t, struct f2fs_fs_flush *fl, struct f2fs_error *err)
{
	const uint8_t *cp_live = (const uint8_t *)f2fs_fs_cp(t->fs);
	struct f2fs_block_io out = { NULL, count_write, t, NULL };
	int ret;

	f2fs_flush_sort(t->nat.v, t->nat.n, sizeof(*t->nat.v));
	f2fs_flush_sort(t->sit.v, t->sit.n, sizeof(*t->sit.v));
	f2fs_fs_flush_start(fl, t->fs, t->cp + (f2fs_fs_nat_bitmap(t->fs, NULL) - cp_live),
			    t->cp + (f2fs_fs_sit_bitmap(t->fs, NULL) - cp_live), &out);
	if (writes_nat_bits(f2fs_txn_cp(t))) {
		fl->nat_policy = F2FS_FLUSH_NO_JOURNAL;
		fl->nat_used = t->nat_used;
	}
	if (t->nat_no_journal)
		fl->nat_policy = F2FS_FLUSH_NO_JOURNAL;
	if (t->sit_no_journal)
		fl->sit_policy = F2FS_FLUSH_NO_JOURNAL;
	t->stats.nat_dirty = t->nat.n;
	t->stats.sit_dirty = t->sit.n;
	ret = f2fs_fs_flush_nat(fl, t->nat.v, t->nat.n, err);
	if (!ret)
		ret = f2fs_fs_flush_sit(fl, t->sit.v, t->sit.n, err);
	t->stats.nat_journal = le16_get(fl->nat_j.n_entries);
	t->stats.sit_journal = le16_get(fl->sit_j.n_entries);
	return ret;
}

/* Each block is free under the old checkpoint: nothing the old state reads
 * changes, so the order among them does not matter, nor when they go. */
int f2fs_txn_put_block(struct f2fs_txn *t, uint32_t addr, bool node, const void *data,
		       struct f2fs_error *err)
{
	if (!f2fs_fs_in_main(t->fs, addr))
		return f2fs_fail(err, -EINVAL, "block 0x%x to write is outside the main area", addr);
	if (node)
		t->stats.node_blocks++;
	else
		t->stats.data_blocks++;
	return f2fs_dev_write(f2fs_fs_dev(t->fs), addr, data, 1, err);
}

static int write_ssa(struct f2fs_txn *t, struct f2fs_error *err)
{
	uint32_t ssa = le32_get(f2fs_fs_sb(t->fs)->ssa_blkaddr);
	int ret = 0;

	for (size_t i = 0; i < t->ssa.n && !ret; i++)
		ret = f2fs_dev_write(f2fs_fs_dev(t->fs), (uint64_t)ssa + t->ssa.v[i].segno,
				     &t->ssa.v[i].blk, 1, err);
	t->stats.ssa_blocks = t->ssa.n;
	return ret;
}

static int orphan_blocks(const struct f2fs_txn *t, uint8_t **out, uint32_t *nblocks,
			 struct f2fs_error *err)
{
	uint32_t n = (uint32_t)((t->orphans.n + F2FS_ORPHANS_PER_BLOCK - 1) / F2FS_ORPHANS_PER_BLOCK);

	*out = NULL;
	*nblocks = n;
	if (!n)
		return 0;
	*out = calloc(n, BLK);
	if (!*out)
		return f2fs_fail(err, -ENOMEM, "out of memory for orphan blocks");
	for (uint32_t b = 0; b < n; b++) {
		struct f2fs_orphan_block *ob = (void *)(*out + (size_t)b * BLK);
		size_t first = (size_t)b * F2FS_ORPHANS_PER_BLOCK;
		size_t cnt = t->orphans.n - first;

		if (cnt > F2FS_ORPHANS_PER_BLOCK)
			cnt = F2FS_ORPHANS_PER_BLOCK;
		for (size_t k = 0; k < cnt; k++)
			ob->ino[k] = le32_put(t->orphans.v[first + k]);
		ob->blk_addr = le16_put((uint16_t)(b + 1));
		ob->blk_count = le16_put((uint16_t)n);
		ob->entry_count = le32_put((uint32_t)cnt);
	}
	return 0;
}

static int write_pack(struct f2fs_txn *t, const struct f2fs_fs_flush *fl, struct f2fs_error *err)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(t->fs);
	struct f2fs_block_io io = { NULL, count_write, t, barrier };
	struct f2fs_cp_pack p = { 0 };
	uint8_t *orphans;
	int ret = orphan_blocks(t, &orphans, &p.orphan_blocks, err);

	if (ret)
		return ret;
	p.head = t->cp;
	p.cp_payload = le32_get(sb->cp_payload);
	p.orphans = orphans;
	p.nat_j = &fl->nat_j;
	p.sit_j = &fl->sit_j;
	for (int i = 0; i < F2FS_NR_CURSEG_TYPE; i++) {
		p.sum[i] = t->sum[i];
		p.nsum[i] = t->sum[i] ? t->nsum[i] : 0;
	}
	p.nat_used = t->nat_used;
	p.nat_blocks = f2fs_fs_nat_blocks(t->fs);
	ret = f2fs_cp_pack_write(&p, le32_get(sb->cp_blkaddr), !f2fs_fs_cp_choice(t->fs)->pack,
				 le64_get(f2fs_fs_cp(t->fs)->checkpoint_ver) + 1, &io, err);
	free(orphans);
	return ret;
}

/* Superblock copy k from the copy in use (or from sb_new, the copy in use
 * last: one copy is whole at any cut), made durable before the next. */
static int rewrite_sb(struct f2fs_txn *t, struct f2fs_error *err)
{
	struct f2fs_dev *dev = f2fs_fs_dev(t->fs);
	int use = f2fs_fs_sb_copy(t->fs, NULL);
	uint8_t blk[BLK];
	int ret = 0;

	for (int i = 0; i < 2 && !ret; i++) {
		int k = i ? use : !use;

		if (!t->sb_new && (k == use || !(t->sb_rewrite & (1u << k))))
			continue;
		ret = f2fs_dev_read(dev, (uint64_t)use, blk, 1, err);
		if (!ret && t->sb_new)
			memcpy(blk + F2FS_SUPER_OFFSET, t->sb_new, sizeof(*t->sb_new));
		if (!ret)
			ret = f2fs_dev_write(dev, (uint64_t)k, blk, 1, err);
		if (!ret)
			ret = f2fs_dev_flush(dev, err);
		t->stats.sb_blocks++;
	}
	return ret;
}

int f2fs_txn_commit(struct f2fs_txn *t, struct f2fs_error *err)
{
	struct f2fs_dev *dev = f2fs_fs_dev(t->fs);
	struct f2fs_fs_flush fl;
	int ret;

	if (writes_nat_bits(f2fs_txn_cp(t)) && !t->nat_used)
		return f2fs_fail(err, -EINVAL, "a checkpoint with nat_bits needs the NAT counts");
	/* First: a copy made from the one in use is right under the old
	 * checkpoint and the new, and an interrupted run redoes the rest
	 * exactly as this one would. A changed superblock (sb_new) goes
	 * last: it may stop naming what the new checkpoint frees. */
	ret = 0;
	if (!t->sb_new || t->sb_only)
		ret = rewrite_sb(t, err);
	if (ret || t->sb_only)
		goto out;
	ret = flush_meta(t, &fl, err);
	if (!ret)
		ret = write_ssa(t, err);
	if (!ret)
		ret = write_pack(t, &fl, err);
	if (!ret)
		ret = f2fs_dev_flush(dev, err);
	if (!ret && t->sb_new)
		ret = rewrite_sb(t, err);
out:
	/* blocks written before the commit count too */
	t->stats.bytes = f2fs_dev_bytes_written(dev) - t->bytes_at_begin;
	return ret;
}
