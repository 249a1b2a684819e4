/*
 * The repair of the tree's shape: inodes no directory names are linked
 * back into their parent under their own name when the inode says where
 * it was, else into /lost+found (made when missing, as e2fsck does) under
 * their name or as "#INO" (a directory gets its ".." and i_pino pointed
 * at its new parent); a loop of
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
#include <stdlib.h>
#include <string.h>

#define LPF_NAME "lost+found"

/* Directory dir's link count moves by delta (a subdirectory gained or
 * lost): the count it had moves with it, right or wrong, so that a wrong
 * count the user chose to keep stays as wrong as it was; rp_links sets it
 * whole when inode.links is fixed. */
static int links_move(struct rp *p, uint32_t dir, int delta)
{
	struct ck *ck = p->ck;
	struct f2fs_node *nd = rp_node(p, dir);
	uint32_t links;

	if (!nd)
		return ck->err->code ? ck->err->code : -EIO;
	links = le32_get(nd->i.i_links);
	if (delta < 0 && links < (uint32_t)-delta)
		return 0;
	nd->i.i_links = le32_put(links + (uint32_t)delta);
	return 0;
}

/* Directory dir gains a subdirectory: one made by this repair counts its
 * link in its node only (the check never counted it), another also among
 * the check's subdirectories (rp_links sets its count from them). */
static int subdir_added(struct rp *p, uint32_t dir, bool made)
{
	struct ck *ck = p->ck;

	if (!made)
		ck_dir_of(ck, ck_inode(ck, dir), dir)->subdirs++;
	return links_move(p, dir, 1);
}

/* A directory "lost+found" in the root, or a new one. */

static int lost_found(struct rp *p, uint32_t *lpf)
{
	struct ck *ck = p->ck;
	struct f2fs_error e = { 0 };
	uint8_t type, name[F2FS_NAME_LEN + 1];
	uint32_t ino, len = (uint32_t)strlen(LPF_NAME);
	int ret = 0;

	if (p->lpf) {
		*lpf = p->lpf;
		return 0;
	}
	memcpy(name, LPF_NAME, len);
	if (!p->root_made &&
	    !f2fs_dir_lookup(ck->fs, F2FS_ROOT_INO, name, len, &ino, &type, &e)) {
		if (ck_is_dir(ck_inode(ck, ino))) {
			*lpf = p->lpf = ino;
			return 0;
		}
		/* the name is a file's: the new directory takes a free one */
		ret = rp_dir_free_name(p, F2FS_ROOT_INO, (const uint8_t *)LPF_NAME, len, name, &len);
	}
	if (!ret && !p->root_made && !ck_dir_of(ck, ck_inode(ck, F2FS_ROOT_INO), F2FS_ROOT_INO))
		return f2fs_fail(ck->err, -EINVAL, "the root is no directory: no lost+found");
	name[len] = 0;
	if (!ret)
		ret = rp_dir_new(p, 0, F2FS_ROOT_INO, 0700, (const char *)name, &ino);
	if (!ret)
		ret = rp_dir_add(p, F2FS_ROOT_INO, name, len, ino, F2FS_FT_DIR);
	if (!ret)
		ret = subdir_added(p, F2FS_ROOT_INO, p->root_made);
	if (ret)
		return ret;
	p->lpf_made = true;
	snprintf(p->lpf_path, sizeof(p->lpf_path), "/%s", (const char *)name);
	*lpf = p->lpf = ino;
	return 0;
}

/* A name an entry can have: not empty, no '/' or NUL, not a dot entry. */
static bool name_usable(const uint8_t *name, uint32_t len)
{
	if (!len || len > F2FS_NAME_LEN || (name[0] == '.' && (len == 1 || (len == 2 && name[1] == '.'))))
		return false;
	return !memchr(name, '/', len) && !memchr(name, 0, len);
}

/* A directory whose names a lookup finds by a hash this repair can make
 * (an encrypted and casefolded one hashes the plain name, unknown here). */
static bool hashable(struct ck *ck, uint32_t dir)
{
	struct ck_dir *d = ck_dir_of(ck, ck_inode(ck, dir), dir);

	return d && (d->state & (DR_ENCRYPTED | DR_CASEFOLD)) != (DR_ENCRYPTED | DR_CASEFOLD);
}

/*
 * Where an inode no directory names goes, and under which name. The kernel
 * keeps an inode's last name and parent in i_name and i_pino, and sets the
 * lost-pino advice bit once a second link makes i_pino stale: with the bit
 * clear, one link (or a directory), a live parent that will stay connected and the name
 * free there, it goes back where it was. Otherwise lost+found takes it
 * under its name (name~N on a clash), or as "#INO" when it has none.
 */
static int destination(struct rp *p, uint32_t ino, bool home, uint32_t *dir,
		       uint8_t name[F2FS_NAME_LEN], uint32_t *len)
{
	struct ck *ck = p->ck;
	struct f2fs_node buf;
	const struct f2fs_node *nd = rp_node_peek(p, ino, &buf);
	uint32_t pino, nlen;
	const struct ck_nid *pin;
	int ret;

	if (!nd)
		return ck->err->code ? ck->err->code : -EIO;
	pino = le32_get(nd->i.i_pino);
	nlen = le32_get(nd->i.i_namelen);
	pin = pino != ino ? ck_inode(ck, pino) : NULL;
	if (!name_usable(nd->i.i_name, nlen)) {
		*len = (uint32_t)snprintf((char *)name, F2FS_NAME_LEN, "#%u", ino);
		return lost_found(p, dir);
	}
	memcpy(name, nd->i.i_name, nlen);
	*len = nlen;
	/* a directory has one name whatever its link count says; a root the
	 * repair made anew takes back what the lost one held */
	if (home && !(nd->i.i_advise & F2FS_ADVISE_LOST_PINO) &&
	    (le32_get(nd->i.i_links) == 1 || ck_is_dir(ck_inode(ck, ino))) &&
	    ((pino == F2FS_ROOT_INO && p->root_made) ||
	     (ck_is_dir(pin) && (pin->flags & NR_READ) && !(pin->state & IR_BROKEN) &&
	      !ck_links_unreachable(ck, pin, pino) && hashable(ck, pino))) &&
	    !rp_dir_has(p, pino, name, nlen)) {
		*dir = pino;
		return 0;
	}
	ret = lost_found(p, dir);
	if (ret || !rp_dir_has(p, *dir, name, nlen))
		return ret;
	return rp_dir_free_name(p, *dir, nd->i.i_name, nlen, name, len);
}

/* Say on the problem's line where the inode went. */
static void note_destination(struct rp *p, uint32_t ino, uint32_t dir, const uint8_t *name,
			     uint32_t len)
{
	struct ck *ck = p->ck;
	struct f2fs_check_report *r = ck->r;
	size_t plen = 0;
	char *path = NULL;

	for (size_t i = 0; i < r->nproblems; i++) {
		struct f2fs_problem *pb = &r->problems[i];

		if (pb->code != F2FS_PB_INODE_UNREACHABLE || pb->ino != ino || pb->moved_to)
			continue;
		if (!path) {
			path = dir == p->lpf && p->lpf_made ? strdup(p->lpf_path) :
			       ck_path_of(ck, dir, &plen);
			if (path && dir == p->lpf && p->lpf_made)
				plen = strlen(path);
			if (path)
				path = ck_path_join(path, &plen, name, len);
			if (!path)
				return;   /* the report goes without it */
		}
		pb->moved_to = path;
		pb->moved_to_len = plen;
		return;
	}
}

/* home: the inode may go back to its parent (not one taken out of a loop
 * of directories). */
static int relink(struct rp *p, uint32_t ino, struct ck_nid *in, bool home)
{
	struct ck *ck = p->ck;
	struct ck_dir *d = ck_dir_of(ck, in, ino);
	uint8_t name[F2FS_NAME_LEN];
	uint32_t len = 0, dir = 0;
	int ret = destination(p, ino, home, &dir, name, &len);

	if (!ret)
		ret = rp_dir_add(p, dir, name, len, ino, ck_ftype(in));
	if (!ret)
		ret = ck_cnt_set(ck, in, CK_REFS, 1);
	if (ret)
		return ret;
	note_destination(p, ino, dir, name, len);
	if (!d)
		return 0;
	/* a directory: dir is its parent now */
	ret = subdir_added(p, dir, (dir == p->lpf && p->lpf_made) ||
				(dir == F2FS_ROOT_INO && p->root_made));
	if (ret)
		return ret;
	d->parent = dir;
	/* the check asks no dots of a directory it found unreached */
	if (!(d->state & DR_HAS_DOT) && !(d->inline_flags & F2FS_INLINE_DOTS))
		ret = rp_dir_dot(p, ino);
	if (!ret)
		ret = rp_dir_dotdot(p, ino, dir);
	if (!ret) {
		struct f2fs_node *nd = rp_node(p, ino);

		if (!nd)
			return ck->err->code ? ck->err->code : -EIO;
		nd->i.i_pino = le32_put(dir);
	}
	return ret;
}

/* Relinked: its one name is back (its parent or lost+found), and its count says so (a file
 * 1, a directory 2 and its subdirectories), inode.links asked or not: no
 * problem named its count, the check having no name to count it from. */
static int relink_counted(struct rp *p, uint32_t ino, struct ck_nid *in)
{
	int ret = relink(p, ino, in, true);

	return ret ? ret : rp_links_set(p, ino);
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
			ret = relink_counted(p, ino, in);
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
	ret = links_move(p, parent, -1);
	if (!ret)
		ret = relink(p, ino, in, false);
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

/* The link count inode ino has now: as staged when a fix took it (a
 * subdirectory moved), else as the check read it. */
static uint32_t links_now(struct rp *p, uint32_t ino, const struct ck_nid *in, bool *ok)
{
	struct f2fs_node buf;
	const struct f2fs_node *now;

	*ok = true;
	if (!f2fs_u32map_get(&p->snode_at, ino))
		return ck_cnt(p->ck, in, CK_LINKS);
	now = rp_node_peek(p, ino, &buf);
	if (!now) {
		*ok = false;
		return 0;
	}
	return le32_get(now->i.i_links);
}

/*
 * inode.links: every inode's count set from the names found, but for an
 * inode still unreachable here (the user kept it so, declining
 * inode.unreachable, or its relinking was not made): named from nowhere,
 * it keeps the count it has. The relinking sets the counts of what it
 * relinks itself (relink_counted), and moves those of the directories it
 * changes (links_move), whatever the answer to inode.links.
 */
static int fix_inode(struct rp *p, uint32_t ino, struct ck_nid *in)
{
	struct ck *ck = p->ck;
	uint64_t want;
	bool links = p->fix[F2FS_PB_INODE_LINKS] && !ck_links_unreachable(ck, in, ino);
	bool big = in->state & IR_BIG_IBLOCKS;
	bool blocks = p->fix[F2FS_PB_INODE_I_BLOCKS] && !(in->state & IR_NOCOUNT) &&
		      !(in->flags & NR_XATTR_BAD) &&   /* inodes.c sets it */
		      (ck_cnt(ck, in, CK_BDIFF) || big);
	struct f2fs_node *nd;
	bool ok;

	if (links && ck_links_wanted(ck, in, ino, &want)) {
		links = want != links_now(p, ino, in, &ok);
		if (!ok)
			return ck->err->code ? ck->err->code : -EIO;
	} else {
		links = false;
	}
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
