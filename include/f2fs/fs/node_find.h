/*
 * Node blocks found without the NAT: every node block's footer names its
 * nid and inode, and the summary of its segment names its nid too, so a
 * NAT entry that is damaged or lost can be answered for from the main
 * area. Two ways, cheapest first: through the summaries of node segments
 * (one summary block per segment, then only the blocks they name), or by
 * reading every block of the segments asked for (what a rescue needs when
 * the summaries are gone as well).
 */
#ifndef F2FS_NODE_FIND_H
#define F2FS_NODE_FIND_H

#include <stdbool.h>
#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/fs/fs.h>

/* A node block whose footer names the nid it was found for. */
struct f2fs_node_found {
	uint32_t nid, ino;
	uint32_t blkaddr;
	uint32_t node_ofs;       /* from the footer */
	uint64_t cp_ver;         /* the footer's checkpoint version */
	const struct f2fs_node *node;   /* the block, during the call only */
};

struct f2fs_node_find {
	/* Valid map (MSB first, one bit per block) of main segment segno, or
	 * NULL to skip the segment: the caller's view of the SIT. */
	const uint8_t *(*seg_map)(void *arg, uint32_t segno);
	/* Is a block for nid wanted? */
	bool (*want)(void *arg, uint32_t nid);
	/* A block found; a non-zero return stops the search with it. */
	int (*found)(void *arg, const struct f2fs_node_found *f);
	/* Progress of the footer scan (may be NULL): segments done of total. */
	void (*progress)(void *arg, uint32_t done, uint32_t total);
	void *arg;
};

/* Is this block a plausible node of nid: footer nid, an inode number in
 * range, an offset some node of a tree has, an inode that is its own. */
bool f2fs_node_footer_sane(const struct f2fs_node *nd, uint32_t max_nid);

/*
 * Through the summaries: each block seg_map marks valid whose summary
 * entry names a wanted nid is read, and reported when its footer names
 * the same nid. Current segments take their summaries from the checkpoint
 * pack (f2fs_ssa_get). Blocks read: one per block reported or rejected.
 */
int f2fs_node_find_by_ssa(struct f2fs_fs *fs, const struct f2fs_node_find *q,
			  struct f2fs_error *err);

/*
 * By footers: every block seg_map marks valid is read, in large
 * sequential reads, and reported when it is a sane node of a wanted nid.
 */
int f2fs_node_find_by_footer(struct f2fs_fs *fs, const struct f2fs_node_find *q,
			     struct f2fs_error *err);

#endif
