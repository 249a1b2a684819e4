/*
 * Checker, quota: with the quota_ino feature the kernel keeps user, group
 * (and with project_quota, project) usage in hidden quota files. The walk
 * charges every inode it reads to its ids, as the kernel does: one inode
 * and every block but the inode's own (i_blocks - 1, in bytes); the quota
 * files themselves are not charged. Where the walk counted other blocks than
 * i_blocks says (inode.i_blocks, reported already), the charge is corrected
 * to the count, so that the quota is judged against the blocks really in
 * use. Then each quota file is read through its tree and every record
 * compared with the usage.
 */
#include <f2fs/format/endian.h>
#include <f2fs/fs/nat.h>
#include <f2fs/format/quota.h>

#include "ck.h"
#include "nat_answers.h"
#include "passes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A quota file larger than this is reported rather than read (1M ids take
 * about 75 MiB). */
#define QUOTA_FILE_MAX (256u << 20)

static const char *const qname[F2FS_MAX_QUOTAS] = { "user", "group", "project" };

int ck_quota_active(const struct ck *ck, int q)
{
	if (!(ck->features & F2FS_FEATURE_QUOTA_INO))
		return 0;
	if (q == F2FS_QUOTA_PRJ && !(ck->features & F2FS_FEATURE_PRJQUOTA))
		return 0;
	return ck->qf_ino[q] != 0;
}

/* The usage of id, added when missing; NULL only when out of memory. The
 * pointer holds until the next id is added. */
static struct ck_qusage *qtab_get(struct ck_qtab *t, uint32_t id, int add)
{
	const uint32_t *at = f2fs_u32map_find(&t->at, id);

	if (at)
		return &t->usage.v[*at];
	if (!add || f2fs_vec_push(&t->usage, (struct ck_qusage){ .id = id }))
		return NULL;
	if (f2fs_u32map_put(&t->at, id, (uint32_t)(t->usage.n - 1))) {
		t->usage.n--;
		return NULL;
	}
	return &t->usage.v[t->usage.n - 1];
}

static uint32_t projid_of(const struct ck *ck, const struct f2fs_inode *i)
{
	/* without a stored project id the kernel uses 0 */
	if (!(ck->features & F2FS_FEATURE_PRJQUOTA) || !(i->i_inline & F2FS_EXTRA_ATTR) ||
	    le16_get(i->extra.i_extra_isize) < F2FS_EXTRA_ISIZE_PROJID)
		return 0;
	return le32_get(i->extra.i_projid);
}

int ck_is_quota_file(const struct ck *ck, uint32_t ino)
{
	for (int q = 0; q < F2FS_MAX_QUOTAS; q++)
		if (ck_quota_active(ck, q) && ck->qf_ino[q] == ino)
			return 1;
	return 0;
}

/* Bytes charged for an i_blocks (the inode block itself is not), in
 * unsigned arithmetic: a damaged count of 2^63 or more is charged as
 * stored too (wrapping), which the repair's correction takes back. */
static uint64_t space_of(uint64_t blocks)
{
	return blocks ? (blocks - 1) * F2FS_BLKSIZE : 0;
}

/* The blocks counted for an i_blocks that is diff more, in 32 bits as the
 * difference was taken: it may be any 32-bit value. */
static uint64_t counted_of(uint64_t iblocks, int64_t diff)
{
	return (uint32_t)((uint32_t)iblocks - (uint32_t)diff);
}

static void ids_of(const struct ck *ck, const struct f2fs_inode *i, uint32_t ids[F2FS_MAX_QUOTAS])
{
	ids[F2FS_QUOTA_USR] = le32_get(i->i_uid);
	ids[F2FS_QUOTA_GRP] = le32_get(i->i_gid);
	ids[F2FS_QUOTA_PRJ] = projid_of(ck, i);
}

/* Add c to the usage of its id of quota type q (or, with sign -1, take
 * it out); -1 when out of memory. */
static int charge_q(struct ck *ck, int q, const struct ck_qcharge *c, int sign)
{
	struct ck_qusage *u = qtab_get(&ck->quota[q], c->id[q], 1);

	if (!u)
		return -1;
	/* wraps back for a correction or a charge taken out */
	u->inodes += (uint64_t)sign * c->inodes;
	u->space += (uint64_t)sign * c->space;
	return 0;
}

static int charge(struct ck *ck, const struct ck_qcharge *c)
{
	for (int q = 0; q < F2FS_MAX_QUOTAS; q++)
		if (ck_quota_active(ck, q) && charge_q(ck, q, c, 1))
			return -1;
	return 0;
}

void ck_quota_of(const struct ck *ck, uint32_t ino, const struct f2fs_node *nd, int64_t diff,
		 struct ck_qcharge *c)
{
	uint64_t blocks;

	*c = (struct ck_qcharge){ { 0 }, 0, 0 };
	if (!nd || !(ck->features & F2FS_FEATURE_QUOTA_INO) || ck_is_quota_file(ck, ino))
		return;
	blocks = le64_get(nd->i.i_blocks);
	ids_of(ck, &nd->i, c->id);
	c->inodes = 1;
	c->space = space_of(diff ? counted_of(blocks, diff) : blocks);
}

void ck_quota_inode(struct ck *ck, uint32_t ino, const struct f2fs_node *nd)
{
	struct ck_qcharge c;

	ck_quota_of(ck, ino, nd, 0, &c);
	if (c.inodes && charge(ck, &c))
		ck->hook_nomem = 1;
}

/* Only with a user or group quota are the charges corrected. */
static bool corrects(const struct ck *ck)
{
	return ck_quota_active(ck, F2FS_QUOTA_USR) || ck_quota_active(ck, F2FS_QUOTA_GRP);
}

/* The correction of inode ino's charge from its i_blocks to the blocks
 * counted (i_blocks - diff): false when none is made (a quota file, or
 * an inode that cannot be read now). */
static bool correction(struct ck *ck, uint32_t ino, int64_t diff, struct ck_qcharge *c)
{
	struct f2fs_node nd;
	struct f2fs_error e;
	uint64_t iblocks;

	if (ck_is_quota_file(ck, ino) || ck_read_inode(ck, ino, &nd, &e))
		return false;
	iblocks = le64_get(nd.i.i_blocks);
	ids_of(ck, &nd.i, c->id);
	c->inodes = 0;
	c->space = space_of(counted_of(iblocks, diff)) - space_of(iblocks);
	return true;
}

static int correct(struct ck *ck, uint32_t ino, int64_t diff, void *arg)
{
	struct ck_qcharge c;

	(void)arg;
	if (correction(ck, ino, diff, &c) && charge(ck, &c))
		return f2fs_fail(ck->err, -ENOMEM, "out of memory counting quota");
	return 0;
}

int ck_quota_checked(struct ck *ck, uint32_t ino, struct ck_qcharge *c, int64_t *diff)
{
	const struct ck_nid *n = ck_nid_find(ck, ino);
	struct ck_qcharge k;
	struct f2fs_node nd;

	*c = (struct ck_qcharge){ { 0 }, 0, 0 };
	*diff = 0;
	if (!n || !(n->flags & NR_INODE) || !(ck->features & F2FS_FEATURE_QUOTA_INO) ||
	    ck_is_quota_file(ck, ino))
		return 0;   /* the walk charged only what it read as an inode */
	if (f2fs_fs_read_block(ck->fs, n->blkaddr, &nd, ck->err))
		return ck->err->code;
	/* The correction read the inode again through the NAT, whose block is
	 * the one the walk read: the same ids, the same i_blocks. Whether that
	 * read failed then (the charge was left as stored) is not kept: the
	 * read now stands for it. */
	*diff = ck_rec_bdiff(ck, ino);
	if (*diff && !(corrects(ck) && correction(ck, ino, *diff, &k)))
		*diff = 0;
	ck_quota_of(ck, ino, &nd, *diff, c);
	return 0;
}

int ck_quota_move(struct ck *ck, const struct ck_qcharge *was, const struct ck_qcharge *now)
{
	for (int q = 0; q < F2FS_MAX_QUOTAS; q++) {
		if (!ck_quota_active(ck, q) ||
		    (was->id[q] == now->id[q] && was->inodes == now->inodes &&
		     was->space == now->space))
			continue;
		if (((was->inodes || was->space) && charge_q(ck, q, was, -1)) ||
		    ((now->inodes || now->space) && charge_q(ck, q, now, 1)))
			return f2fs_fail(ck->err, -ENOMEM, "out of memory counting quota");
		ck->quota_bad |= (uint8_t)(1u << q);
	}
	return 0;
}

/* ---- after the walk ----------------------------------------------------- */

struct qcmp {
	struct ck *ck;
	int q;
	uint32_t qino;
};

static void report(struct ck *ck, int q, uint32_t qino, uint32_t id, uint64_t rec_inodes,
		   uint64_t rec_space, uint64_t inodes, uint64_t space)
{
	int by_inodes = rec_inodes != inodes;

	ck->quota_bad |= 1u << q;
	ck_pb(ck, F2FS_PB_QUOTA_USAGE,
	      AT(A_INO(qino), A_EXP(by_inodes ? inodes : space),
		 A_FOUND(by_inodes ? rec_inodes : rec_space)),
	      "%s quota, id %u: the file records %llu inodes and %llu bytes, its inodes use %llu and %llu",
	      qname[q], id, (unsigned long long)rec_inodes, (unsigned long long)rec_space,
	      (unsigned long long)inodes, (unsigned long long)space);
}

static int record_cb(const struct f2fs_quota_usage *r, void *arg)
{
	struct qcmp *c = arg;
	struct ck_qusage *u = qtab_get(&c->ck->quota[c->q], r->id, 0);
	uint64_t inodes = u ? u->inodes : 0, space = u ? u->space : 0;

	if (u)
		u->recorded = true;
	if (r->inodes != inodes || r->space_bytes != space)
		report(c->ck, c->q, c->qino, r->id, r->inodes, r->space_bytes, inodes, space);
	return 0;
}

int ck_read_inode(struct ck *ck, uint32_t ino, struct f2fs_node *nd, struct f2fs_error *e)
{
	const struct ck_nid *n = ck_nid_find(ck, ino);

	if (n && (n->flags & (NR_READ | NR_INODE)) == (NR_READ | NR_INODE))
		return f2fs_fs_read_block(ck->fs, n->blkaddr, nd, e);
	return f2fs_read_inode(ck->fs, ino, nd, e);
}

/* A quota inode as the fixes of where its pointers lie leave it, so that
 * its file reads as the repair leaves it. */
int ck_read_quota_inode(struct ck *ck, uint32_t qino, struct f2fs_node *nd, struct f2fs_error *e)
{
	int ret = ck_read_inode(ck, qino, nd, e);

	for (size_t k = 0; k < ck->fixes.n && !ret; k++) {
		const struct ck_fix *f = &ck->fixes.v[k];

		if (f->ino != qino)
			continue;
		if (f->op == FX_EXTRA_ISIZE)
			nd->i.extra.i_extra_isize = le16_put((uint16_t)f->value);
		else if (f->op == FX_INLINE_XATTR_SIZE)
			nd->i.extra.i_inline_xattr_size = le16_put((uint16_t)f->value);
	}
	return ret;
}

int ck_quota_read_file(struct ck *ck, uint32_t qino, uint8_t **buf, size_t *len,
		      struct f2fs_error *e)
{
	struct f2fs_node nd;
	uint64_t size, nblk;
	uint8_t *b;
	int ret = ck_read_quota_inode(ck, qino, &nd, e);

	if (ret)
		return ret;
	size = le64_get(nd.i.i_size);
	if (size == 0 || size > QUOTA_FILE_MAX)
		return f2fs_fail(e, -F2FS_E_CORRUPT, "i_size %llu", (unsigned long long)size);
	nblk = (size + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
	b = calloc(nblk, F2FS_BLKSIZE);
	if (!b)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for a quota file");
	for (uint64_t f = 0; f < nblk && !ret; f++) {
		uint32_t addr;

		ret = f2fs_file_block(ck->fs, &nd, f, &addr, NULL, e);
		if (ret || addr == F2FS_NULL_ADDR || addr == F2FS_NEW_ADDR)
			continue;   /* a hole reads as zeros */
		if (!f2fs_fs_in_main(ck->fs, addr))
			ret = f2fs_fail(e, -F2FS_E_CORRUPT, "block %llu at 0x%x outside the main area",
					(unsigned long long)f, addr);
		else
			ret = f2fs_fs_read_block(ck->fs, addr, b + f * F2FS_BLKSIZE, e);
	}
	if (ret) {
		free(b);
		return ret;
	}
	*buf = b;
	*len = (size_t)size;
	return 0;
}

static int check_one(struct ck *ck, int q)
{
	struct ck_qtab *t = &ck->quota[q];
	uint32_t qino = ck->qf_ino[q];
	struct qcmp c = { ck, q, qino };
	enum f2fs_quota_type type;
	struct f2fs_error e = { 0 };
	uint8_t *buf = NULL;
	size_t len = 0;
	int ret = ck_quota_read_file(ck, qino, &buf, &len, &e);

	if (ret == -ENOMEM)
		return ret;
	/* the superblock names the inode: a NAT entry that lost it is asked
	 * of the node blocks, as an entry of the tree is */
	if (ret)
		ck_nat_doubt(ck, qino);
	if (!ret)
		ret = f2fs_quota_file_walk(buf, len, &type, record_cb, &c, &e);
	free(buf);
	if (ret == -ENOMEM)
		return f2fs_fail(ck->err, ret, "%s", e.msg);
	if (!ret && type != (enum f2fs_quota_type)q) {
		ret = -F2FS_E_CORRUPT;
		snprintf(e.msg, sizeof(e.msg), "it has the magic of a %s quota file", qname[type]);
	}
	if (ret) {
		/* records already compared are kept; the rest cannot be judged */
		ck->quota_bad |= 1u << q;
		ck_pb(ck, F2FS_PB_QUOTA_BAD_FILE, AT(A_INO(qino)),
		      "%s quota file (inode %u): %s", qname[q], qino, e.msg);
		return 0;
	}
	for (uint32_t pos = 0, at; f2fs_u32map_next(&t->at, &pos, NULL, &at);) {
		const struct ck_qusage *u = &t->usage.v[at];

		if (!u->recorded && (u->inodes || u->space))
			report(ck, q, qino, u->id, 0, 0, u->inodes, u->space);
	}
	return 0;
}

int ck_quota_check(struct ck *ck)
{
	int ret = 0;

	if (corrects(ck))
		ret = ck_rec_foreach_bdiff(ck, correct, NULL);
	if (ret)
		return ret;
	for (int q = 0; q < F2FS_MAX_QUOTAS; q++) {

		if (!ck_quota_active(ck, q))
			continue;
		ret = check_one(ck, q);
		if (ret)
			return ret;
	}
	return 0;
}

void ck_quota_free(struct ck *ck)
{
	for (int q = 0; q < F2FS_MAX_QUOTAS; q++) {
		f2fs_u32map_free(&ck->quota[q].at);
		f2fs_vec_free(&ck->quota[q].usage);
	}
}
