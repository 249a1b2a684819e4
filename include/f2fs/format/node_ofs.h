/*
 * Where a node sits in its inode's tree. Every node's footer carries its
 * offset in a walk of that tree: 0 the inode, 1 and 2 the two direct nodes,
 * 3 the first indirect node followed by its NIDS_PER_BLOCK direct nodes,
 * then the second indirect node and its direct nodes, then the double
 * indirect node, each of its indirect nodes followed by their direct nodes.
 * The xattr node has an offset of its own.
 */
#ifndef F2FS_NODE_OFS_H
#define F2FS_NODE_OFS_H

#include <stdbool.h>
#include <stdint.h>

enum f2fs_node_kind {
	F2FS_NODE_BAD = -1,        /* no node of any tree has this offset */
	F2FS_NODE_INODE = 0,
	F2FS_NODE_DIRECT = 1,
	F2FS_NODE_INDIRECT = 2,
	F2FS_NODE_DOUBLE = 3,
	F2FS_NODE_XATTR = 4,
};

enum f2fs_node_kind f2fs_node_kind(uint32_t node_ofs);

/* Offset of the node that child k (0-based) of the indirect or double
 * indirect node at node_ofs points to. */
uint32_t f2fs_node_child_ofs(uint32_t node_ofs, uint32_t k);

/* File block index of the first data pointer of the node at node_ofs in
 * the tree of an inode with addrs_per_inode pointers (0 for the inode). */
uint64_t f2fs_node_start_bidx(uint32_t node_ofs, uint32_t addrs_per_inode);

/* The node i_nid[k] (k < F2FS_DEF_NIDS_PER_INODE) points to: its offset,
 * and the levels of nodes below it down to the data (0: it is a direct
 * node, 1: an indirect one, 2: the double indirect one). */
uint32_t f2fs_node_top_ofs(uint32_t k);
uint32_t f2fs_node_top_depth(uint32_t k);

/* File blocks under a node depth levels above the data (0: a direct node). */
uint64_t f2fs_node_span(uint32_t depth);

/* File blocks an inode with addrs_per_inode pointers can map at the most. */
uint64_t f2fs_node_tree_blocks(uint32_t addrs_per_inode);

/*
 * The nodes from an inode down to one node of its tree, level 0 being the
 * inode: ofs[l] is the offset of the node at level l, slot[l] the pointer
 * of that node the walk follows down (for l = 0 an index in i_nid). For a
 * file block's path, slot[levels] indexes the block's data pointer in the
 * last node (in i_addr when levels is 0).
 */
struct f2fs_node_path {
	uint32_t levels;          /* nodes below the inode: 0 to 3 */
	uint32_t ofs[4];
	uint32_t slot[4];
};

/* The path to the node at node_ofs (0, the inode: no levels); false for
 * an offset no node of the tree has (the xattr node's, one past the tree). */
bool f2fs_node_path_of(uint32_t node_ofs, struct f2fs_node_path *p);

/* The path to the pointer of file block fofs in the tree of an inode with
 * addrs_per_inode pointers; false beyond the largest file. */
bool f2fs_block_path(uint64_t fofs, uint32_t addrs_per_inode, struct f2fs_node_path *p);

/* File blocks from a block path's block to the end of what the node at
 * level (1 to levels) maps: the hole a missing node there leaves. */
uint64_t f2fs_block_path_rest(const struct f2fs_node_path *p, uint32_t level);

#endif
