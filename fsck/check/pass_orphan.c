/*
 * Checker, the orphan list. Inodes whose last link went while they were
 * still open are listed in the orphan blocks of the checkpoint pack (after
 * the cp_payload blocks, up to cp_pack_start_sum) when ORPHAN_PRESENT is
 * set; the next mount frees them. Each block holds up to 1020 inode numbers,
 * its entry count, and its place: blk_addr (1-based index) of blk_count.
 *
 * An entry is accepted as an orphan only if it names an inode with no
 * links: such an inode needs no directory entry. Anything else is reported
 * here and the inode is left to the ordinary link and reachability checks,
 * since the kernel would free a linked inode that it finds in the list.
 */
#include <f2fs/format/endian.h>

#include "ck.h"
#include "passes.h"

#include <errno.h>
#include <stdlib.h>

static int entry(struct ck *ck, uint32_t ino, uint32_t blk, uint32_t k, uint64_t addr)
{
	uint32_t links, refs, owner;

	if (!ck_rec_inode(ck, ino, &links, &refs)) {
		if (ck_rec_unreadable(ck, ino))
			return 0;   /* node.unreadable says it all */
		owner = ck_rec_node_owner(ck, ino);
		if (owner)
			ck_pb(ck, F2FS_PB_ORPHAN_NOT_INODE, AT(A_NID(ino), A_BLK(addr), A_FOUND(k)),
			      "orphan block %u entry %u: nid %u is a node of inode %u, not an inode",
			      blk, k, ino, owner);
		else
			ck_pb(ck, F2FS_PB_ORPHAN_NOT_INODE, AT(A_NID(ino), A_BLK(addr), A_FOUND(k)),
			      "orphan block %u entry %u: inode %u is not in use", blk, k, ino);
		return 0;
	}
	if (links) {
		ck_pb(ck, F2FS_PB_ORPHAN_LINKED, AT(A_INO(ino), A_EXP(0), A_FOUND(links)),
		      "orphan inode %u has %u links; mounting would free a linked file", ino,
		      links);
		return 0;
	}
	if (ck_rec_set_orphan(ck, ino)) {
		ck_pb(ck, F2FS_PB_ORPHAN_DUPLICATE, AT(A_INO(ino), A_BLK(addr), A_FOUND(k)),
		      "orphan block %u entry %u: inode %u is listed already", blk, k, ino);
		return 0;
	}
	if (f2fs_vec_push(&ck->orphans, ino))
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for orphans");
	return 0;
}

static int one_block(struct ck *ck, const struct f2fs_orphan_block *ob, uint32_t b,
		     uint32_t nblocks, uint64_t addr)
{
	uint32_t cnt = le32_get(ob->entry_count);
	uint32_t idx = le16_get(ob->blk_addr), of = le16_get(ob->blk_count);
	int ret = 0;

	if (idx != b + 1 || of != nblocks)
		ck_pb(ck, F2FS_PB_CP_ORPHAN_BLOCK, AT(A_BLK(addr), A_EXP(b + 1), A_FOUND(idx)),
		      "orphan block %u: blk_addr %u and blk_count %u, expected %u and %u", b, idx,
		      of, b + 1, nblocks);
	if (cnt > F2FS_ORPHANS_PER_BLOCK) {
		ck_pb(ck, F2FS_PB_CP_ORPHAN_BLOCK, AT(A_BLK(addr), A_FOUND(cnt)),
		      "orphan block %u holds %u entries", b, cnt);
		cnt = F2FS_ORPHANS_PER_BLOCK;
	}
	for (uint32_t k = 0; k < cnt && !ret; k++)
		ret = entry(ck, le32_get(ob->ino[k]), b, k, addr);
	return ret;
}

int ck_orphans(struct ck *ck)
{
	uint32_t first = 1 + le32_get(ck->sb->cp_payload);
	uint32_t start = le32_get(ck->cp->cp_pack_start_sum);
	uint32_t nblocks = start > first ? start - first : 0;
	uint64_t base = f2fs_fs_cp_start(ck->fs);
	int ret = 0;

	/* without the flag the kernel does not look at orphan blocks at all */
	if (!(ck->ckpt_flags & F2FS_CP_ORPHAN_PRESENT))
		return 0;
	if (nblocks == 0) {
		ck_pb(ck, F2FS_PB_CP_ORPHAN_BLOCK, AT(A_EXP(1), A_FOUND(0)),
		      "ORPHAN_PRESENT is set but the pack has no orphan blocks (cp_pack_start_sum %u)",
		      start);
		return 0;
	}
	for (uint32_t b = 0; b < nblocks && !ret; b++) {
		uint64_t addr = base + first + b;

		ret = f2fs_dev_read(f2fs_fs_dev(ck->fs), addr, ck->io, 1, ck->err);
		if (!ret)
			ret = one_block(ck, (const void *)ck->io, b, nblocks, addr);
	}
	return ret;
}

/* After the directories: an orphan must have no directory entry either. */
void ck_orphans_after(struct ck *ck)
{
	for (size_t k = 0; k < ck->orphans.n; k++) {
		uint32_t ino = ck->orphans.v[k], links, refs;

		if (ck_rec_inode(ck, ino, &links, &refs) && refs)
			ck_pb(ck, F2FS_PB_ORPHAN_LINKED, AT(A_INO(ino), A_EXP(0), A_FOUND(refs)),
			      "orphan inode %u (0 links) is named by %u directory entries", ino,
			      refs);
	}
}

void ck_orphans_free(struct ck *ck)
{
	f2fs_vec_free(&ck->orphans);
}
