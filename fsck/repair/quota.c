/*
 * Repair, quota files. The usage the check counted first moves by what the
 * repair did, once every edit is made: each inode it staged or freed is
 * taken out as the check charged it and charged as it ends (owners,
 * i_blocks, whether it is there at all). Not by each fix as it goes: an
 * inode that several fixes and the roll-forward recovery change, or that
 * is freed and wanted again, then moves once, by what it became; and a
 * fix need not know what the check made of the inode. A quota type whose
 * usage moves needs its file rebuilt.
 *
 * A quota file the check found wrong (a record that differs from what its
 * id's inodes use, or a file that cannot be read as a quota tree), or
 * whose usage moved, is rebuilt from that usage, keeping the
 * limits, deadlines and grace periods of the records that could be read.
 * The new content goes out of place: data blocks to the warm data log, the
 * quota inode to the warm node log, its NAT entry moved there; the old
 * blocks are released. Only a quota inode the check read whole, whose new
 * content fits its own pointers and one segment, is rebuilt here.
 */
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/format/quota.h>
#include <f2fs/fs/nat.h>
#include <f2fs/util/sort.h>

#include "../check/passes.h"
#include "repair_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* What one quota file becomes. */
struct qnew {
	F2FS_VEC(struct f2fs_quota_usage) ids;
	struct f2fs_quota_grace grace;
	bool has_grace;
	uint8_t *buf;
	size_t size;
	uint32_t nblk;
};

static uint32_t qino_of(const struct ck *ck, int q)
{
	return ck->qf_ino[q];
}

/* The usage counted for q: every id owning something. */
static int usage_ids(const struct ck *ck, int q, struct qnew *nw)
{
	const struct ck_qtab *t = &ck->quota[q];

	for (uint32_t pos = 0, at; f2fs_u32map_next(&t->at, &pos, NULL, &at);) {
		const struct ck_qusage *u = &t->usage.v[at];
		struct f2fs_quota_usage e = { u->id, u->inodes, u->space, { 0 } };

		if (!u->inodes && !u->space)
			continue;
		if (f2fs_vec_push(&nw->ids, e))
			return -ENOMEM;
	}
	return 0;
}

static int id_less(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return ((const struct f2fs_quota_usage *)a)->id < ((const struct f2fs_quota_usage *)b)->id;
}

static struct f2fs_quota_usage *find_id(struct qnew *nw, size_t n, uint32_t id)
{
	size_t lo = f2fs_lower_bound_u32(nw->ids.v, n, sizeof(*nw->ids.v),
					 offsetof(struct f2fs_quota_usage, id), id);

	return lo < n && nw->ids.v[lo].id == id ? &nw->ids.v[lo] : NULL;
}

struct keep {
	struct qnew *nw;
	size_t counted;           /* ids from the usage, sorted, before the kept */
};

static bool has_limits(const struct f2fs_quota_limits *l)
{
	static const struct f2fs_quota_limits none;

	return memcmp(l, &none, sizeof(none)) != 0;
}

/* A record of the old file: its limits stay, on the usage counted now. */
static int keep_limits(const struct f2fs_quota_usage *r, void *arg)
{
	struct keep *k = arg;
	struct f2fs_quota_usage *u = find_id(k->nw, k->counted, r->id);
	struct f2fs_quota_usage e = { r->id, 0, 0, r->lim };

	if (u) {
		u->lim = r->lim;
		return 0;
	}
	if (!has_limits(&r->lim))
		return 0;   /* owns nothing and limits nothing: the kernel drops it */
	return f2fs_vec_push(&k->nw->ids, e) ? -ENOMEM : 0;
}

/* Limits and grace periods from the old file, as far as it reads. */
static int old_limits(struct ck *ck, int q, struct qnew *nw)
{
	struct keep k = { nw, nw->ids.n };
	struct f2fs_error e = { 0 };
	uint8_t *buf = NULL;
	size_t len = 0;
	int ret;

	f2fs_sort(nw->ids.v, nw->ids.n, sizeof(*nw->ids.v), id_less, NULL);
	ret = ck_quota_read_file(ck, qino_of(ck, q), &buf, &len, &e);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return 0;   /* nothing readable: no limits to keep */
	nw->has_grace = f2fs_quota_file_grace(buf, len, &nw->grace, &e) == 0;
	/* a damaged tree gives the records before the damage */
	ret = f2fs_quota_file_walk(buf, len, NULL, keep_limits, &k, &e);
	free(buf);
	return ret == -ENOMEM ? ret : 0;
}

static int build(struct ck *ck, int q, struct qnew *nw)
{
	struct f2fs_error e = { 0 };
	int ret = usage_ids(ck, q, nw);

	if (!ret)
		ret = old_limits(ck, q, nw);
	if (ret)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory rebuilding a quota file");
	nw->size = f2fs_quota_file_size(nw->ids.v, nw->ids.n);
	nw->nblk = (uint32_t)((nw->size + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE);
	nw->buf = calloc(nw->nblk ? nw->nblk : 1, F2FS_BLKSIZE);
	if (!nw->size || !nw->buf)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory rebuilding a quota file");
	ret = f2fs_quota_file_build((enum f2fs_quota_type)q, nw->ids.v, nw->ids.n,
				    nw->has_grace ? &nw->grace : NULL, nw->buf,
				    (size_t)nw->nblk * F2FS_BLKSIZE, &e);
	if (ret)
		return f2fs_fail(ck->err, ret, "quota file %d: %s", q, e.msg);
	return 0;
}

static void qnew_free(struct qnew *nw)
{
	f2fs_vec_free(&nw->ids);
	free(nw->buf);
}

/* ---- the usage the repair changes ------------------------------------------ */

/* Inode nid's charge moves from what the check charged (nothing for a nid
 * this repair takes anew) to what it is now (nothing: gone). */
static int move(struct rp *p, uint32_t nid, bool fresh, const struct f2fs_node *now)
{
	struct ck_qcharge was = { { 0 }, 0, 0 }, is;
	int64_t diff = 0;
	int ret = fresh ? 0 : ck_quota_checked(p->ck, nid, &was, &diff);

	if (ret)
		return ret;
	/* An i_blocks the check corrected is set to the count by rp_links;
	 * without that fix it stays off by the same difference (the blocks a
	 * fix adds or takes count on both sides), and the next check will
	 * charge the count again: so is it charged here. */
	if (p->fix[F2FS_PB_INODE_I_BLOCKS])
		diff = 0;
	ck_quota_of(p->ck, nid, now, diff, &is);
	return ck_quota_move(p->ck, &was, &is);
}

int rp_quota_usage(struct rp *p)
{
	struct ck *ck = p->ck;
	int ret = 0;

	if (!(ck->features & F2FS_FEATURE_QUOTA_INO))
		return 0;
	for (size_t k = 0; k < p->snodes.n && !ret; k++) {
		struct rp_snode *s = p->snodes.v[k];
		/* as the flush writes it: a freed node has ino 0 */
		bool is = s->ino == s->nid && s->ofs == 0;
		const struct ck_nid *n = s->fresh ? NULL : ck_nid_find(ck, s->nid);

		if (!is && !(n && (n->flags & NR_INODE)))
			continue;   /* no inode before or after */
		if (is && (ret = rp_stage_load(p, s)))
			break;
		ret = move(p, s->nid, s->fresh, is ? s->blk : NULL);
		rp_stage_trim(p);
	}
	for (size_t k = 0; k < p->gone.n && !ret; k++)
		ret = move(p, p->gone.v[k], false, NULL);
	return ret;
}

/* ---- where the new content goes ------------------------------------------- */

/* The quota inode as read, usable for a rebuild: read whole by the check,
 * its data in plain block pointers. */
static bool inode_usable(const struct ck *ck, uint32_t qino, const struct f2fs_node *nd)
{
	const struct ck_nid *n = ck_nid_find((struct ck *)ck, qino);

	if (!n || (n->flags & (NR_READ | NR_INODE | NR_BAD)) != (NR_READ | NR_INODE) ||
	    (n->state & IR_BROKEN))
		return false;
	return !(nd->i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)) &&
	       !f2fs_inode_compressed(&nd->i, ck->features);
}

bool rp_quota_rebuildable(const struct rp *p)
{
	struct ck *ck = p->ck;

	if (p->incomplete)
		return false;
	for (int q = 0; q < F2FS_MAX_QUOTAS; q++) {
		struct qnew nw = { 0 };
		struct f2fs_node nd;
		struct f2fs_error e = { 0 };
		bool ok;

		if (!(ck->quota_bad & (1u << q)))
			continue;
		if (!ck_quota_active(ck, q) || ck_read_quota_inode(ck, qino_of(ck, q), &nd, &e) ||
		    !inode_usable(ck, qino_of(ck, q), &nd))
			return false;
		ok = build(ck, q, &nw) == 0 &&
		     nw.nblk <= f2fs_inode_addrs(&nd.i, ck->features) &&
		     nw.nblk <= F2FS_BLOCKS_PER_SEG;
		qnew_free(&nw);
		if (!ok)
			return false;
	}
	return true;
}

/* Release the old file's blocks and nodes, and point the inode at count
 * blocks from first. */
static int repoint(struct rp *p, struct f2fs_node *nd, uint32_t first, uint32_t count)
{
	uint32_t addrs = f2fs_inode_addrs(&nd->i, p->ck->features);
	int ret = 0;

	for (uint32_t k = 0; k < addrs; k++) {
		uint32_t a = f2fs_inode_get_addr(&nd->i, k);
		/* a pending edit of the old block (a clone for a block another
		 * file owns too) goes with it; a shared block stays in use */
		bool shared = rp_data_forget(p, le32_get(nd->footer.ino), k);

		if (a == F2FS_NEW_ADDR && p->new_addrs)
			p->new_addrs--;
		else if (a != F2FS_NULL_ADDR && !shared)
			rp_release(p, a);
		f2fs_inode_set_addr(&nd->i, k, k < count ? first + k : F2FS_NULL_ADDR);
	}
	for (int k = 0; k < F2FS_DEF_NIDS_PER_INODE && !ret; k++) {
		uint32_t child = le32_get(nd->i.i_nid[k]);

		nd->i.i_nid[k] = le32_put(0);
		if (child)
			ret = rp_free_node(p, child);
	}
	nd->i.i_blocks = le64_put(1 + (uint64_t)count);
	/* the kernel's largest extent would name the new blocks, not the old */
	nd->i.i_ext.fofs = le32_put(0);
	nd->i.i_ext.blk = le32_put(first);
	nd->i.i_ext.len = le32_put(count);
	return ret;
}

/* The new file's blocks are written here; its inode goes through the
 * edits (edit.c), so that a fix of another of its fields and this
 * one land in the one copy the flush writes. */
static int rebuild_one(struct rp *p, int q)
{
	struct ck *ck = p->ck;
	uint32_t qino = qino_of(ck, q), first;
	struct qnew nw = { 0 };
	uint8_t version;
	struct f2fs_node *nd;
	/* the NAT entry as this repair leaves it (one rebuilt included) */
	int ret = rp_nat_version(p, qino, &version);

	if (ret)
		return ret;
	nd = rp_node(p, qino);
	if (!nd)
		return ck->err->code ? ck->err->code : -EIO;
	ret = build(ck, q, &nw);
	if (!ret)
		ret = rp_place(p, F2FS_SEG_WARM_DATA, nw.nblk, &first);
	for (uint32_t k = 0; k < nw.nblk && !ret; k++) {
		struct rp_placed o = { first + k, qino, (uint16_t)k, version, false };

		ret = rp_write(p, &o, nw.buf + (size_t)k * F2FS_BLKSIZE);
	}
	if (!ret)
		ret = repoint(p, nd, first, nw.nblk);
	if (!ret) {
		nd->i.i_size = le64_put(nw.size);
		/* a quota file is a regular file, whatever its mode said */
		nd->i.i_mode = le16_put((uint16_t)(F2FS_S_IFREG | (le16_get(nd->i.i_mode) & 07777u)));
	}
	qnew_free(&nw);
	return ret;
}

int rp_quota(struct rp *p)
{
	int ret = 0;

	if (!p->fix[F2FS_PB_QUOTA_USAGE] && !p->fix[F2FS_PB_QUOTA_BAD_FILE])
		return 0;
	for (int q = 0; q < F2FS_MAX_QUOTAS && !ret; q++)
		if (p->ck->quota_bad & (1u << q))
			ret = rebuild_one(p, q);
	return ret;
}
