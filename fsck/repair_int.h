/*
 * Internals of the repair, shared by its files: repair.c (the run and the
 * derived state), repair_nodes.c (NAT entries staged, nodes freed),
 * repair_logs.c (the current logs and the blocks written out of place into
 * them), repair_quota.c (quota files rebuilt).
 */
#ifndef F2FS_FSCK_REPAIR_INT_H
#define F2FS_FSCK_REPAIR_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <f2fs/write/txn.h>

#include "ck.h"

/* A block written out of place, and its owner for the log's summary. */
struct rp_placed {
	uint32_t addr;
	uint32_t nid;             /* the node itself, or the node pointing to it */
	uint16_t ofs;             /* data: index in that node's pointer array */
	uint8_t version;          /* data: that node's NAT version */
	bool node;
};

struct rp {
	struct ck *ck;
	struct f2fs_txn t;
	bool fix[F2FS_PB_COUNT];
	bool incomplete;          /* some node's pointers were not followed */
	uint64_t new_addrs;
	uint32_t freed;           /* nodes freed (stray ones and others) */
	uint32_t strays;          /* of which stray */
	int32_t inodes_delta;     /* inodes the NAT fixes add (or remove) */
	uint32_t segs_per_sec;
	/* the logs of the new checkpoint */
	uint32_t cur[F2FS_NR_CURSEG_TYPE];
	uint16_t off[F2FS_NR_CURSEG_TYPE];
	bool moved[F2FS_NR_CURSEG_TYPE];
	uint8_t *type;            /* new SIT type per segment */
	uint8_t *unknown;         /* blocks kept valid only because the SIT says
				   * so (incomplete), of no known kind; or NULL */
	uint16_t *used;           /* NAT entries in use per block, after the fixes */
	F2FS_VEC(struct rp_placed) placed;
};

/* The blocks of segment s in use for the new checkpoint (ck.owned). */
static inline const uint8_t *rp_own_map(const struct ck *ck, uint32_t s)
{
	return ck->owned + (size_t)s * F2FS_SIT_VBLOCK_MAP_SIZE;
}

/* ---- repair_logs.c ---- */

/* Keep each log where it is when it can go on there, else move it to a
 * free section. */
int rp_choose_logs(struct rp *p);

/* The log (enum f2fs_seg_type) that segment s is for the new checkpoint,
 * or -1. */
int rp_new_cur(const struct rp *p, uint32_t s);

/* Reserve count consecutive blocks at the end of log t (moved to a free
 * section first when it has no room there): *first receives the first
 * address. The blocks count as in use from here on. */
int rp_place(struct rp *p, int t, uint32_t count, uint32_t *first);

/* Stage block data for addr (reserved by rp_place) and its owner. */
int rp_write(struct rp *p, const struct rp_placed *owner, const void *data);

/* addr stops being used (a block replaced by one written out of place). */
void rp_release(struct rp *p, uint32_t addr);

/* ---- repair_nodes.c ---- */

/* Stage NAT entry d, replacing an entry for the same nid staged before. */
int rp_stage_nat(struct rp *p, const struct f2fs_nat_dirty *d);

/* Free node nid and what only it holds (its data blocks, the nodes below
 * an indirect node). */
int rp_free_node(struct rp *p, uint32_t nid);

/* ---- repair_quota.c ---- */

/* Can the quota files the check found wrong be rebuilt here? Not from a
 * scan that could not follow every node: the usage counted would miss what
 * those nodes hold, which the kernel's accounting still has. */
bool rp_quota_rebuildable(const struct rp *p);

/* Rebuild those quota files from the usage the check counted. */
int rp_quota(struct rp *p);

#endif
