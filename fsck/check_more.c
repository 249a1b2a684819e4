/* Checker: set-up and the phase after the tree walk for lib/check_more.h. */
#include <errno.h>
#include <stdlib.h>

#include "check_more.h"

int ck_more_init(struct ck *ck)
{
	ck->more = calloc(1, sizeof(*ck->more));
	if (!ck->more)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory");
	return 0;
}

int ck_more_inode(struct ck *ck, uint32_t ino, uint32_t *links, uint32_t *refs)
{
	const struct ck_nid *n = ck_inode(ck, ino);

	if (!n)
		return 0;
	*links = n->u.i.links;
	*refs = n->u.i.refs;
	return 1;
}

uint32_t ck_more_node_owner(struct ck *ck, uint32_t nid)
{
	const struct ck_nid *n = ck_nid_find(ck, nid);

	return n ? ck_nid_ino(n, nid) : 0;
}

int ck_more_unreadable(struct ck *ck, uint32_t nid)
{
	const struct ck_nid *n = ck_nid_find(ck, nid);

	return n && (n->flags & NR_UNREADABLE);
}

int ck_more_set_orphan(struct ck *ck, uint32_t ino)
{
	struct ck_nid *n = ck_inode(ck, ino);
	int was;

	if (!n)
		return 0;
	was = (n->state & IR_ORPHAN) != 0;
	n->state |= IR_ORPHAN;
	return was;
}

int ck_more_casefold(struct ck *ck, uint32_t dir)
{
	const struct ck_dir *d = ck_dir_of(ck, ck_inode(ck, dir));

	return d && (d->state & DR_CASEFOLD);
}

uint32_t ck_more_xattr_node(struct ck *ck, uint32_t nid, uint32_t owner)
{
	const struct ck_nid *n = ck_nid_find(ck, nid);

	if (!n || !(n->flags & NR_READ) || !(n->flags & NR_REACHED) ||
	    ck_nid_ino(n, nid) != owner || ck_nid_ofs(n) != F2FS_XATTR_NODE_OFFSET)
		return 0;
	return n->blkaddr;
}

int ck_more_foreach_bdiff(struct ck *ck, ck_more_bdiff_fn fn, void *arg)
{
	struct ck_nid_iter it = { 0 };
	struct ck_nid *n;
	uint32_t nid;

	while (ck_nid_next(ck, &it, &nid, &n)) {
		int ret;

		if (!(n->flags & NR_INODE) || (n->state & (IR_NOCOUNT | IR_BIG_IBLOCKS)) ||
		    !n->u.i.bdiff)
			continue;
		ret = fn(ck, nid, (int32_t)n->u.i.bdiff, arg);
		if (ret)
			return ret;
	}
	return 0;
}

int ck_more_after_tree(struct ck *ck)
{
	int ret;

	/* a hook that lost data would make the checks below lie */
	if (ck->more->nomem)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory during the tree walk");
	ck_meta_after_tree(ck);
	ck_orphans_after(ck);
	ret = ck_xattr_check(ck);
	if (!ret)
		ret = ck_names_check(ck);
	if (!ret)
		ret = ck_quota_check(ck);
	return ret;
}

void ck_more_free(struct ck *ck)
{
	struct ck_more *m = ck->more;

	if (!m)
		return;
	for (int q = 0; q < F2FS_MAX_QUOTAS; q++)
		free(m->quota[q].slot);
	for (size_t i = 0; i < m->nxp; i++)
		free(m->xp[i].inline_copy);
	free(m->xp);
	free(m->seen);
	free(m->names);
	free(m->orphans);
	free(m);
	ck->more = NULL;
}
