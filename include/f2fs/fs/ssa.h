/*
 * Segment summaries of an opened image, and block owner lookup:
 * block address -> segment/offset -> summary (nid, ofs_in_node) -> the
 * node that must point back at the block.
 */
#ifndef F2FS_SSA_H
#define F2FS_SSA_H

#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/fs/fs.h>
#include <f2fs/fs/sit.h>

/* Where a summary block came from. */
enum f2fs_sum_src {
	F2FS_SUM_SRC_SSA = 0,      /* the SSA area */
	F2FS_SUM_SRC_CP_COMPACT,   /* current data log: compacted summary in the CP pack */
	F2FS_SUM_SRC_CP_NORMAL,    /* current log: normal summary block in the CP pack */
	F2FS_SUM_SRC_REBUILT,      /* current node log without CP node summaries:
				      rebuilt from node footers, as the kernel does */
};

const char *f2fs_sum_src_name(enum f2fs_sum_src src);

/*
 * The summary block of main segment segno. Current segments come from the
 * checkpoint pack; their entries at and after the log's next free block
 * are zero (compacted form) or as written. *src may be NULL.
 */
int f2fs_ssa_get(struct f2fs_fs *fs, uint32_t segno, struct f2fs_summary_block *out,
		 enum f2fs_sum_src *src, struct f2fs_error *err);

/* Areas of the device. */
enum f2fs_area {
	F2FS_AREA_SB = 0, F2FS_AREA_CP, F2FS_AREA_SIT, F2FS_AREA_NAT, F2FS_AREA_SSA,
	F2FS_AREA_MAIN, F2FS_AREA_BEYOND,
};

const char *f2fs_area_name(enum f2fs_area a);
enum f2fs_area f2fs_area_of(const struct f2fs_fs *fs, uint64_t blkaddr);

/* Outcome of an owner lookup. */
enum f2fs_owner_status {
	F2FS_OWNER_NOT_MAIN = 0,   /* a metadata area: no owner */
	F2FS_OWNER_FREE,           /* the SIT says the block is not valid */
	F2FS_OWNER_OK,             /* the owner points back at the block */
	F2FS_OWNER_MISMATCH,       /* summary and node/NAT disagree (see note) */
};

const char *f2fs_owner_status_name(enum f2fs_owner_status s);

struct f2fs_owner {
	uint64_t blkaddr;
	enum f2fs_area area;
	enum f2fs_owner_status status;
	/* main area only */
	uint32_t segno, offset, secno;
	uint8_t seg_type;          /* SIT type */
	int valid;                 /* SIT map bit (-1 unknown) */
	int is_node;               /* summary footer entry_type (node = 1) */
	enum f2fs_sum_src sum_src;
	uint32_t nid;              /* summary: owner node (data) or the node itself */
	uint8_t version;
	uint16_t ofs_in_node;
	/* resolved through the node */
	uint32_t ino;              /* owning inode (footer ino), 0 if unknown */
	uint32_t node_ofs;         /* node's offset in its inode's tree */
	int node_kind;             /* enum f2fs_node_kind */
	uint64_t fofs;             /* data: file block index; UINT64_MAX if unknown */
	char note[320];
};

/*
 * Find who owns blkaddr. sit may be NULL (then validity is unknown and the
 * segment type is read from the SIT entry on disk is not consulted).
 * Returns 0 with o->status set, < 0 only for read errors of the summary.
 */
int f2fs_block_owner(struct f2fs_fs *fs, const struct f2fs_sit *sit, uint64_t blkaddr,
		     struct f2fs_owner *o, struct f2fs_error *err);

#endif
