/*
 * The repair of the orphan list. At mount the kernel frees every inode the
 * list names (f2fs_recover_orphan_inodes: the inode's links are dropped and
 * its eviction truncates it: data blocks, node blocks, xattr node, the
 * inode's NAT entry, its quota charge). A repair writes a new checkpoint
 * anyway, so it does the same and the new checkpoint has no orphans: a
 * listed inode that no directory names is freed here. One that a directory
 * still names is kept alive by that entry: it leaves the list and its link
 * count is set from the entries (orphan.linked), rather than being left
 * for the kernel to free a named file.
 *
 * An orphan is freed only where all it holds is known to be its own
 * (free.c); any other stays on the list for the kernel.
 */
#include <f2fs/format/endian.h>

#include "../check/passes.h"
#include "repair_int.h"

#include <errno.h>

/* Will a checkpoint be written (not only superblock copies)? */
static bool writes_checkpoint(const struct rp *p)
{
	for (int c = 0; c < F2FS_PB_COUNT; c++)
		if (p->fix[c] && !rp_sb_code((enum f2fs_problem_code)c))
			return true;
	return false;
}

int rp_orphans(struct rp *p)
{
	struct ck *ck = p->ck;
	bool frees = writes_checkpoint(p) && rp_may_free(p);
	size_t kept = 0;
	int ret = 0;

	for (size_t k = 0; k < ck->orphans.n && !ret; k++) {
		uint32_t ino = ck->orphans.v[k], links = 0, refs = 0;
		struct ck_nid *in = ck_inode(ck, ino);
		bool freed;

		ck->orphans.v[kept++] = ino;
		if (!in || !ck_rec_inode(ck, ino, &links, &refs))
			continue;
		if (refs) {
			/* named: it lives, counted as its entries say */
			if (p->fix[F2FS_PB_ORPHAN_LINKED]) {
				in->state &= (uint8_t)~IR_ORPHAN;
				ret = rp_links_set(p, ino);
			}
			continue;
		}
		if (links || !frees || (in->state & IR_SPECIAL))
			continue;
		ret = rp_free_inode(p, ino, &freed);
		if (freed)
			kept--;   /* off the list */
	}
	ck->orphans.n = kept;
	return ret;
}
