/*
 * The repair of a root inode that is no directory (root.bad). When its
 * mode alone was damaged, its content is still a directory's: "." and ".."
 * both name the root. Then the mode becomes a directory's again (the
 * permission bits kept) and the entries the check could not count,
 * because it took the root for a file, are counted now, so that nothing
 * the root names is taken for unreachable and every link count comes out
 * as the tree says. Left unfixed: a root inode that is gone, unreadable or
 * broken (inline dentries in an inode whose mode is not a directory's are
 * such), or whose content is not a directory.
 *
 * A root that is gone (its NAT entry free) is made again, empty, at its
 * nid: what it named is then unreachable and goes into a new lost+found
 * (lost.c), as e2fsck does.
 */
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/fs/dir.h>

#include "../check/passes.h"
#include "repair_int.h"

#include <errno.h>
#include <string.h>

static bool is_dots(const struct f2fs_dirent *de, uint32_t len)
{
	return de->name_len == len && !memcmp(de->name, "..", len);
}

struct root_dots {
	uint32_t dot, dotdot;
};

static int find_dots(const struct f2fs_dirent *de, void *arg)
{
	struct root_dots *d = arg;

	if (is_dots(de, 1))
		d->dot = de->ino;
	else if (is_dots(de, 2))
		d->dotdot = de->ino;
	return 0;
}

bool rp_root_makeable(struct ck *ck)
{
	return rp_nid_reusable(ck, F2FS_ROOT_INO);
}

static int make_root(struct rp *p)
{
	uint32_t ino;
	int ret = rp_dir_new(p, F2FS_ROOT_INO, F2FS_ROOT_INO, 0755, NULL, &ino);

	if (!ret)
		p->root_made = true;
	return ret;
}

bool rp_root_restorable(struct ck *ck)
{
	struct ck_nid *root = ck_inode(ck, F2FS_ROOT_INO);
	struct root_dots d = { 0 };
	struct f2fs_error e = { 0 };

	if (!root || !(root->flags & NR_READ) || (root->state & IR_BROKEN) || ck_is_dir(root))
		return false;
	return f2fs_dir_foreach_content(ck->fs, F2FS_ROOT_INO, find_dots, &d, &e) == 0 &&
	       d.dot == F2FS_ROOT_INO && d.dotdot == F2FS_ROOT_INO;
}

/* An entry of the root: counted as the directory pass would have. */
static int count_entry(const struct f2fs_dirent *de, void *arg)
{
	struct ck *ck = arg;
	struct ck_nid *in;
	struct ck_dir *d;

	if (is_dots(de, 1) || is_dots(de, 2) || !(in = ck_inode(ck, de->ino)))
		return 0;
	if (ck_cnt_add(ck, in, CK_REFS, 1))
		return -ENOMEM;
	d = ck_dir_of(ck, in, de->ino);
	if (!d)
		return 0;
	ck->dirs.v[0].subdirs++;
	if (!d->parent)
		d->parent = F2FS_ROOT_INO;
	return 0;
}

int rp_root(struct rp *p)
{
	struct ck *ck = p->ck;
	struct ck_nid *root = ck_inode(ck, F2FS_ROOT_INO);
	struct f2fs_node *nd;
	struct ck_dir rd = { 0 };
	struct f2fs_error e = { 0 };
	int ret;

	if (!p->fix[F2FS_PB_ROOT_BAD])
		return 0;
	if (rp_root_makeable(ck))
		return make_root(p);
	nd = rp_node(p, F2FS_ROOT_INO);
	if (!nd)
		return ck->err->code ? ck->err->code : -EIO;
	nd->i.i_mode = le16_put((uint16_t)(F2FS_S_IFDIR | (le16_get(nd->i.i_mode) & 07777)));
	root->state = (uint8_t)((root->state & ((1u << IR_TYPE_SHIFT) - 1)) |
				F2FS_FT_DIR << IR_TYPE_SHIFT);
	/* its directory record, first in nid order (no directory's nid is
	 * below the root's) */
	rd = (struct ck_dir){
		.nid = F2FS_ROOT_INO, .parent = F2FS_ROOT_INO, .dotdot = F2FS_ROOT_INO,
		.pino = le32_get(nd->i.i_pino), .size = le64_get(nd->i.i_size),
		.addrs = (uint16_t)f2fs_inode_addrs(&nd->i, ck->features),
		.dir_level = nd->i.i_dir_level, .inline_flags = nd->i.i_inline,
		.state = DR_HAS_DOT | DR_HAS_DOTDOT, .conn = 2,
	};
	if (f2fs_vec_push(&ck->dirs, rd))
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for the root");
	memmove(&ck->dirs.v[1], &ck->dirs.v[0], (ck->dirs.n - 1) * sizeof(rd));
	ck->dirs.v[0] = rd;
	ret = f2fs_dir_foreach_content(ck->fs, F2FS_ROOT_INO, count_entry, ck, &e);
	if (ret == -ENOMEM)
		return f2fs_fail(ck->err, ret, "out of memory counting the root's entries");
	if (ret)
		return f2fs_fail(ck->err, ret, "the root's entries: %s", e.msg);
	return 0;
}
