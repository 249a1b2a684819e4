/*
 * Compressed clusters: what the data pointers of a compressed file count
 * for in valid_block_count, i_blocks and i_compr_blocks.
 *
 * A cluster is 2^i_log_cluster_size consecutive pointers, aligned in the
 * file (the kernel trims a compressed inode's and its direct nodes'
 * pointer counts to whole clusters, so clusters are aligned in each node
 * as well). A compressed cluster starts with COMPRESS_ADDR, then the
 * blocks holding the compressed data, then NEW_ADDR for every block the
 * compression saved. The kernel (6.1 fs/f2fs) keeps the whole cluster
 * charged while the saved blocks are reserved:
 *
 *  - every page of a cluster is reserved before it is written (NEW_ADDR,
 *    +1 in valid_block_count and i_blocks; compress.c
 *    f2fs_write_compressed_pages asserts that no slot it writes is
 *    NULL_ADDR); compressing the cluster (same function) turns slot 0 into
 *    COMPRESS_ADDR and leaves the unused slots NEW_ADDR (a slot that held
 *    a block is invalidated in the SIT and set to NEW_ADDR), without
 *    giving anything back, and adds cluster_size - compressed blocks to
 *    i_compr_blocks (f2fs.h f2fs_i_compr_blocks_update);
 *  - so COMPRESS_ADDR and those NEW_ADDR count one block each, like a
 *    written block: file.c f2fs_truncate_data_blocks_range frees one for
 *    every non-NULL pointer, COMPRESS_ADDR included unless the file is
 *    released (i_compr_blocks == 0);
 *  - F2FS_IOC_RELEASE_COMPRESS_BLOCKS (file.c release_compress_blocks)
 *    turns a cluster's NEW_ADDR into NULL_ADDR and gives back
 *    cluster_size - compressed blocks (the NEW_ADDRs and the
 *    COMPRESS_ADDR) from valid_block_count, i_blocks and i_compr_blocks,
 *    and marks the inode F2FS_COMPRESS_RELEASED (i_inline); after that
 *    only the compressed blocks count and i_compr_blocks is 0.
 *    F2FS_IOC_RESERVE_COMPRESS_BLOCKS (reserve_compress_blocks) undoes it.
 *
 * Hence, per compressed file that is not released, i_compr_blocks is the
 * sum over its compressed clusters of cluster_size minus the valid
 * blocks in the cluster, and every COMPRESS_ADDR is one block of
 * valid_block_count and i_blocks that the SIT does not mark.
 */
#ifndef F2FS_COMPRESS_H
#define F2FS_COMPRESS_H

#include <stdint.h>

/* the cluster sizes the kernel accepts (fs/f2fs/f2fs.h) */
#define F2FS_MIN_LOG_CLUSTER 2u
#define F2FS_MAX_LOG_CLUSTER 8u
#define F2FS_NR_LOG_CLUSTER (F2FS_MAX_LOG_CLUSTER - F2FS_MIN_LOG_CLUSTER + 1)

struct f2fs_compr_count {
	uint32_t caddrs;   /* COMPRESS_ADDR pointers, wherever they are */
	uint32_t saved;    /* over clusters led by COMPRESS_ADDR: cluster size
			    * minus the valid blocks in the cluster */
};

/*
 * Count n little-endian pointers at ptrs (slot 0 starts a cluster) for a
 * cluster of 2^log_cs pointers. A cluster cut short by n counts what it
 * holds.
 */
void f2fs_compr_count(const void *ptrs, uint32_t n, uint32_t log_cs,
		      struct f2fs_compr_count *out);

#endif
