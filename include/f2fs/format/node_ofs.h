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

#endif
