/*
 * Pass: links. After the directories: every inode's link count against the
 * entries found, i_blocks against the blocks counted, reachability, and each
 * directory's ".", ".." and parent.
 */
#include "../checker.h"
#include <f2fs/format/endian.h>

#include "ck.h"
#include "passes.h"

#include <stdbool.h>
#include <stdlib.h>

static struct ck_dir *dir_rec(struct ck *ck, uint32_t ino)
{
	return ck_dir_of(ck, ck_inode(ck, ino), ino);
}

/* 1 when dir's parent chain reaches the root, 0 when not, < 0 out of
 * memory; reports loops (and notes the directory that will leave one). */
static int connected(struct ck *ck, struct ck_dir *dir)
{
	struct ck_dir *p = dir;
	uint32_t steps = 0;
	int result, ret = 0;

	/* conn: 0 unknown, 1 on the current walk, 2 connected, 3 not */
	while (p && p->conn == 0) {
		if (p->nid == F2FS_ROOT_INO) {
			p->conn = 2;
			break;
		}
		p->conn = 1;
		p = p->parent ? dir_rec(ck, p->parent) : NULL;
		if (++steps > ck->dirs.n)
			break;
	}
	if (p && p->conn == 1) {
		ck_pb(ck, F2FS_PB_DIR_LOOP, AT(A_INO(p->nid)),
		      "directory %u is in a loop of directories", p->nid);
		ret = ck_fix_add(ck, F2FS_PB_DIR_LOOP, FX_LOOP, p->nid, 0, 0, p->parent);
	}
	result = p && p->conn == 2;
	for (p = dir; p && p->conn == 1; p = p->parent ? dir_rec(ck, p->parent) : NULL)
		p->conn = result ? 2 : 3;
	return ret ? ret : result;
}

/* i_blocks does not match: read it again for the message (the record
 * keeps only the difference). */
static int report_iblocks(struct ck *ck, const struct ck_nid *in, uint32_t ino)
{
	const struct f2fs_node *nd = (const void *)ck->io;
	uint64_t i_blocks, counted;
	int ret = f2fs_dev_read(f2fs_fs_dev(ck->fs), in->blkaddr, ck->io, 1, ck->err);

	if (ret)
		return ret;
	i_blocks = le64_get(nd->i.i_blocks);
	counted = (uint32_t)((uint32_t)i_blocks - ck_cnt(ck, in, CK_BDIFF));
	ck_pb(ck, F2FS_PB_INODE_I_BLOCKS, AT(A_INO(ino), A_EXP(counted), A_FOUND(i_blocks)),
	      "inode %u: i_blocks %llu, counted %llu", ino, (unsigned long long)i_blocks,
	      (unsigned long long)counted);
	return 0;
}

static int check_dir(struct ck *ck, uint32_t ino, struct ck_dir *d)
{
	int dots_ok = d->inline_flags & F2FS_INLINE_DOTS, ret = 0;
	uint32_t parent = d->parent ? d->parent : ino;

	if (!(d->state & DR_HAS_DOT) && !dots_ok) {
		ck_pb(ck, F2FS_PB_DIR_DOT, AT(A_INO(ino)),
		      "directory %u has no \".\" entry", ino);
		ret = ck_fix_add(ck, F2FS_PB_DIR_DOT, FX_DOT, ino, 0, 0, ino);
	}
	if (!ret && !(d->state & DR_HAS_DOTDOT) && !dots_ok) {
		ck_pb(ck, F2FS_PB_DIR_DOTDOT, AT(A_INO(ino)),
		      "directory %u has no \"..\" entry", ino);
		ret = ck_fix_add(ck, F2FS_PB_DIR_DOTDOT, FX_DOTDOT, ino, 0, 0, parent);
	} else if (!ret && (d->state & DR_HAS_DOTDOT) && d->parent && d->dotdot != d->parent) {
		ck_pb(ck, F2FS_PB_DIR_DOTDOT,
		      AT(A_INO(ino), A_EXP(d->parent), A_FOUND(d->dotdot)),
		      "directory %u: \"..\" names %u, the parent is %u", ino,
		      d->dotdot, d->parent);
		ret = ck_fix_add(ck, F2FS_PB_DIR_DOTDOT, FX_DOTDOT, ino, 0, 0, d->parent);
	}
	if (!ret && ino != F2FS_ROOT_INO && d->parent && d->pino != d->parent) {
		ck_pb(ck, F2FS_PB_DIR_BAD_PINO,
		      AT(A_INO(ino), A_EXP(d->parent), A_FOUND(d->pino)),
		      "directory %u: i_pino %u, the parent is %u", ino, d->pino,
		      d->parent);
		ret = ck_fix_add(ck, F2FS_PB_DIR_BAD_PINO, FX_PINO, ino, 0, 0, d->parent);
	}
	if (!ret && ino != F2FS_ROOT_INO && d->parent) {
		int c = connected(ck, d);

		ret = c < 0 ? c : 0;
	}
	return ret;
}

bool ck_links_unreachable(struct ck *ck, const struct ck_nid *in, uint32_t ino)
{
	return ck_cnt(ck, in, CK_REFS) == 0 && ino != F2FS_ROOT_INO &&
	       !(in->state & (IR_SPECIAL | IR_ORPHAN));
}

bool ck_links_wanted(struct ck *ck, const struct ck_nid *in, uint32_t ino, uint64_t *want)
{
	struct ck_dir *d = ck_dir_of(ck, (struct ck_nid *)in, ino);

	if ((in->state & IR_SPECIAL) || (d && (in->state & IR_BROKEN)))
		return false;
	*want = in->state & IR_ORPHAN ? 0 : d ? 2 + (uint64_t)d->subdirs : ck_cnt(ck, in, CK_REFS);
	return true;
}

/* Every inode, in nid order. */
int ck_links(struct ck *ck)
{
	struct ck_nid *root = ck_inode(ck, F2FS_ROOT_INO);
	struct ck_nid_iter it = { 0 };
	struct ck_nid *in;
	uint32_t ino;
	int ret;

	for (int q = 0; q < F2FS_MAX_QUOTAS; q++) {
		struct ck_nid *qn = ck_inode(ck, ck->qf_ino[q]);

		if (qn && ck->qf_ino[q])
			qn->state |= IR_SPECIAL;
	}
	if (ck_dir_of(ck, root, F2FS_ROOT_INO))
		ck_dir_of(ck, root, F2FS_ROOT_INO)->parent = F2FS_ROOT_INO;
	while (ck_nid_next(ck, &it, &ino, &in)) {
		uint32_t links;
		struct ck_dir *d;
		uint64_t want;

		if (!(in->flags & NR_INODE))
			continue;
		d = ck_dir_of(ck, in, ino);
		links = ck_cnt(ck, in, CK_LINKS);
		if (!(in->state & IR_NOCOUNT) && !(in->flags & NR_XATTR_BAD) &&
		    (ck_cnt(ck, in, CK_BDIFF) || (in->state & IR_BIG_IBLOCKS)) &&
		    (ret = report_iblocks(ck, in, ino)))
			return ret;
		if (ck_links_unreachable(ck, in, ino)) {
			ck_pb(ck, F2FS_PB_INODE_UNREACHABLE, AT(A_INO(ino), A_FOUND(links)),
			      "inode %u (mode 0%o, %u links) has no directory entry", ino,
			      ck_inode_mode(ck, in), links);
			continue;
		}
		if (d && !(in->state & IR_BROKEN) && (ret = check_dir(ck, ino, d)))
			return ret;
		if (ck_links_wanted(ck, in, ino, &want) && links != want)
			ck_pb(ck, F2FS_PB_INODE_LINKS, AT(A_INO(ino), A_EXP(want), A_FOUND(links)),
			      "inode %u: %u links, %llu found", ino, links,
			      (unsigned long long)want);
	}
	return 0;
}
