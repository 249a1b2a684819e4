/*
 * The repair of the tree's shape: inodes no directory names are linked
 * into /lost+found as "#INO" (a directory there gets its ".." and i_pino
 * pointed at lost+found), made when missing, as e2fsck does; a loop of
 * directories not connected to the root is broken the same way, one of its
 * directories taken out of its loop parent into lost+found; then every
 * inode's link count and i_blocks are set from what the check counted,
 * with the entries the repair removed and added.
 */
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/fs/dir.h>

#include "../check/passes.h"
#include "repair_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define LPF_NAME "lost+found"

/* A directory "lost+found" in the root, or a new one. */
/* Directory dir gains a subdirectory: one made by this repair counts its
 * link in its node (the check never counted it), another among the
 * check's subdirectories (rp_links sets its count from them). */
static int subdir_added(struct rp *p, uint32_t dir, bool made)
{
	struct ck *ck = p->ck;
	struct f2fs_node *nd;

	if (!made) {
		ck_dir_of(ck, ck_inode(ck, dir), dir)->subdirs++;
		return 0;
	}
	nd = rp_node(p, dir);
	if (!nd)
		return ck->err->code ? ck->err->code : -EIO;
	nd->i.i_links = le32_put(le32_get(nd->i.i_links) + 1);
	return 0;
}

static int lost_found(struct rp *p, uint32_t *lpf)
{
	struct ck *ck = p->ck;
	struct f2fs_error e = { 0 };
	uint8_t type;
	uint32_t ino;
	int ret;

	if (p->lpf) {
		*lpf = p->lpf;
		return 0;
	}
	if (!p->root_made &&
	    !f2fs_dir_lookup(ck->fs, F2FS_ROOT_INO, (const uint8_t *)LPF_NAME, strlen(LPF_NAME), &ino,
			     &type, &e) && ck_is_dir(ck_inode(ck, ino))) {
		*lpf = p->lpf = ino;
		return 0;
	}
	if (!p->root_made && !ck_dir_of(ck, ck_inode(ck, F2FS_ROOT_INO), F2FS_ROOT_INO))
		return f2fs_fail(ck->err, -EINVAL, "the root is no directory: no lost+found");
	ret = rp_dir_new(p, 0, F2FS_ROOT_INO, 0700, LPF_NAME, &ino);
	if (!ret)
		ret = rp_dir_add(p, F2FS_ROOT_INO, (const uint8_t *)LPF_NAME, strlen(LPF_NAME), ino,
				 F2FS_FT_DIR);
	if (!ret)
		ret = subdir_added(p, F2FS_ROOT_INO, p->root_made);
	if (ret)
		return ret;
	p->lpf_made = true;
	*lpf = p->lpf = ino;
	return 0;
}

static int relink(struct rp *p, uint32_t ino, struct ck_nid *in)
{
	struct ck *ck = p->ck;
	struct ck_dir *d = ck_dir_of(ck, in, ino);
	char name[16];
	uint32_t lpf = 0;
	int len = snprintf(name, sizeof(name), "#%u", ino);
	int ret = lost_found(p, &lpf);

	if (!ret)
		ret = rp_dir_add(p, lpf, (const uint8_t *)name, (uint32_t)len, ino, ck_ftype(in));
	if (!ret)
		ret = ck_cnt_set(ck, in, CK_REFS, 1);
	if (ret || !d)
		return ret;
	/* a directory: lost+found is its parent now */
	ret = subdir_added(p, lpf, p->lpf_made);
	if (ret)
		return ret;
	d->parent = lpf;
	ret = rp_dir_dotdot(p, ino, lpf);
	if (!ret) {
		struct f2fs_node *nd = rp_node(p, ino);

		if (!nd)
			return ck->err->code ? ck->err->code : -EIO;
		nd->i.i_pino = le32_put(lpf);
	}
	return ret;
}

int rp_relink(struct rp *p)
{
	struct ck *ck = p->ck;
	struct ck_nid_iter it = { 0 };
	struct ck_nid *in;
	uint32_t ino;
	int ret = 0;

	if (!p->fix[F2FS_PB_INODE_UNREACHABLE])
		return 0;
	while (!ret && ck_nid_next(ck, &it, &ino, &in))
		if ((in->flags & NR_INODE) && ck_links_unreachable(ck, in, ino))
			ret = relink(p, ino, in);
	return ret;
}

/* ---- loops of directories ------------------------------------------------------ */

/* Where directory parent names child (not by "." or ".."). */
struct named_at {
	uint32_t child;
	uint64_t block;
	uint32_t slot, len;
	bool found;
};

static int naming_entry(const struct f2fs_dirent *de, void *arg)
{
	struct named_at *w = arg;
	bool dots = de->name[0] == '.' && (de->name_len == 1 ||
					   (de->name_len == 2 && de->name[1] == '.'));

	if (de->ino != w->child || dots)
		return 0;
	w->block = de->block;
	w->slot = de->slot;
	w->len = de->name_len;
	w->found = true;
	return 1;
}

/* Directory ino of a loop leaves its loop parent for lost+found: nothing
 * in the loop is lost, and the loop hangs from the root again. */
static int break_loop(struct rp *p, uint32_t ino, uint32_t parent)
{
	struct ck *ck = p->ck;
	struct ck_nid *in = ck_inode(ck, ino);
	struct ck_dir *pd = ck_dir_of(ck, ck_inode(ck, parent), parent);
	struct named_at w = { .child = ino };
	struct f2fs_dentry_area a;
	struct f2fs_error e = { 0 };
	int ret;

	/* the entry as it lies on disk (a fix of the entries before this one
	 * keeps it in its slot; one that moved it leaves nothing to find) */
	if (!ck_is_dir(in) || !pd || f2fs_dir_foreach(ck->fs, parent, naming_entry, &w, &e) < 0 ||
	    !w.found)
		return 0;
	ret = rp_dir_area(p, parent, w.block, &a);
	if (ret)
		return ret;
	if (w.slot >= a.slots || !f2fs_dentry_area_used(&a, w.slot) ||
	    le32_get(a.dentry[w.slot].ino) != ino)
		return 0;
	f2fs_dentry_area_remove(&a, w.slot, f2fs_dentry_slots(w.len));
	if (pd->subdirs)
		pd->subdirs--;
	ret = relink(p, ino, in);
	if (!ret)
		ret = rp_links_set(p, parent);
	if (!ret)
		ret = rp_links_set(p, p->lpf);
	return ret;
}

int rp_loops(struct rp *p)
{
	const struct ck *ck = p->ck;
	int ret = 0;

	if (!p->fix[F2FS_PB_DIR_LOOP])
		return 0;
	for (size_t i = 0; i < ck->fixes.n && !ret; i++)
		if (ck->fixes.v[i].op == FX_LOOP)
			ret = break_loop(p, ck->fixes.v[i].ino, ck->fixes.v[i].value);
	return ret;
}

/* ---- link counts and i_blocks ----------------------------------------------------- */

int rp_links_set(struct rp *p, uint32_t ino)
{
	struct ck *ck = p->ck;
	struct ck_nid *in = ck_inode(ck, ino);
	struct f2fs_node buf, *nd;
	const struct f2fs_node *now;
	uint64_t want;

	if (!in || !(in->flags & NR_READ) || !ck_links_wanted(ck, in, ino, &want))
		return 0;   /* none, or made by this repair (its count is set) */
	now = rp_node_peek(p, ino, &buf);
	if (!now)
		return ck->err->code ? ck->err->code : -EIO;
	if (le32_get(now->i.i_links) == want)
		return 0;
	if (!(nd = rp_node(p, ino)))
		return ck->err->code ? ck->err->code : -EIO;
	nd->i.i_links = le32_put((uint32_t)want);
	return 0;
}

static int fix_inode(struct rp *p, uint32_t ino, struct ck_nid *in)
{
	struct ck *ck = p->ck;
	uint64_t want;
	bool links = p->fix[F2FS_PB_INODE_LINKS] || p->fix[F2FS_PB_INODE_UNREACHABLE];
	bool big = in->state & IR_BIG_IBLOCKS;
	bool blocks = p->fix[F2FS_PB_INODE_I_BLOCKS] && !(in->state & IR_NOCOUNT) &&
		      !(in->flags & NR_XATTR_BAD) &&   /* inodes.c sets it */
		      (ck_cnt(ck, in, CK_BDIFF) || big);
	struct f2fs_node *nd;

	links = links && ck_links_wanted(ck, in, ino, &want) && want != ck_cnt(ck, in, CK_LINKS);
	if (!links && !blocks)
		return 0;
	if (!(nd = rp_node(p, ino)))
		return ck->err->code ? ck->err->code : -EIO;
	if (links)
		nd->i.i_links = le32_put((uint32_t)want);
	/* the count is the stored value's low half less the difference kept,
	 * in 32 bits (as the check computes it: the difference may be any
	 * 32-bit value, and an i_blocks of 2^32 or more keeps its low half) */
	if (blocks)
		nd->i.i_blocks = le64_put((uint32_t)((uint32_t)le64_get(nd->i.i_blocks) -
						     ck_cnt(ck, in, CK_BDIFF)));
	return 0;
}

int rp_links(struct rp *p)
{
	struct ck *ck = p->ck;
	struct ck_nid_iter it = { 0 };
	struct ck_nid *in;
	uint32_t ino;
	int ret = 0;

	while (!ret && ck_nid_next(ck, &it, &ino, &in))
		if ((in->flags & NR_INODE) && (in->flags & NR_READ))
			ret = fix_inode(p, ino, in);
	return ret;
}
