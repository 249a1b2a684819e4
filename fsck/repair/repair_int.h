/*
 * Internals of the repair, shared by its files: repair.c (the run and the
 * derived state), nodes.c (NAT entries staged, nodes freed),
 * logs.c (the current logs and the blocks written out of place into
 * them), quota.c (the quota usage moved by the repair, quota files
 * rebuilt).
 */
#ifndef F2FS_FSCK_REPAIR_INT_H
#define F2FS_FSCK_REPAIR_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <f2fs/format/dentry.h>
#include <f2fs/util/u32map.h>
#include <f2fs/write/txn.h>

#include "../check/ck.h"

/* A block written out of place, and its owner for the log's summary. */
struct rp_placed {
	uint32_t addr;
	uint32_t nid;             /* the node itself, or the node pointing to it */
	uint16_t ofs;             /* data: index in that node's pointer array */
	uint8_t version;          /* data: that node's NAT version */
	bool node;
};

/* A node the repair stages (stage.c): one entry per nid, shared by
 * every fix and the roll-forward recovery. */
struct rp_snode {
	uint32_t nid;
	uint32_t ino;             /* its inode (the NAT's, for the recovery); 0: freed */
	uint32_t ofs;             /* its offset in the inode's tree */
	uint32_t old_addr;        /* its block under the checkpoint (not fresh) */
	uint8_t version;          /* its NAT version when read or made */
	bool fresh;               /* a nid this repair takes anew */
	bool freed;               /* it goes: its NAT entry is freed at the flush */
	bool edited;              /* taken for an edit: written even if unchanged */
	bool roll;                /* the recovery's: sealed as the kernel's recovery
				   * leaves a node, in the log of its kind */
	bool dir;                 /* of a directory */
	bool flushed;             /* written out: it takes no more edits */
	uint32_t slot;            /* its place in the spill file + 1, or 0 */
	uint32_t used;            /* when it was last wanted (rp.clock) */
	struct f2fs_node *blk;    /* its content; NULL while spilled, or flushed */
};

/* A block of a file the repair changes (fresh: one it adds). */
struct rp_edata {
	uint32_t ino;
	uint64_t fofs;
	uint32_t old;             /* its address before */
	bool fresh;
	bool shared;              /* old stays in use by another owner */
	uint8_t *blk;
};

struct rp {
	struct ck *ck;
	/* the repair's own copies of the check's maps of the main blocks (in
	 * use, by a node), changed as it places, frees and guards blocks:
	 * the check's stay as the check left them */
	uint8_t *owned, *nodemap;
	struct f2fs_txn t;
	enum f2fs_fix_answer answer;   /* of the run (PLAN: what YES would do) */
	bool fix[F2FS_PB_COUNT];
	bool incomplete;          /* some node's pointers were not followed */
	bool free_bad;            /* nodes with a bad footer are freed */
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
	/* the staged nodes (stage.c) and file blocks (edit.c) */
	F2FS_VEC(struct rp_snode *) snodes;
	struct f2fs_u32map snode_at; /* nid -> index in snodes + 1 */
	struct f2fs_u32map nat_at;   /* nid -> index in t.nat + 1 */
	uint32_t resident;        /* staged nodes whose content is in memory */
	uint32_t clock;           /* counts the staged nodes' uses */
	int spill_fd;             /* where contents wait beyond the budget */
	bool spill_tried;         /* spill_fd is open, or cannot be */
	uint32_t spill_slots;
	F2FS_VEC(struct rp_edata) edata;
	/* inodes freed without being staged (rp_free_inode) */
	F2FS_VEC(uint32_t) gone;
	uint32_t added;           /* nodes added */
	uint32_t nid_cursor;      /* where the search for a free nid goes on */
	uint32_t lpf;             /* lost+found, once needed */
	bool lpf_made;            /* made by this repair */
	char lpf_path[F2FS_NAME_LEN + 2];   /* "/" and its name, when made */
	bool root_made;           /* the root, gone, made again by this repair */
	struct f2fs_super_block sb_new;   /* a superblock with fields fixed */
	struct rp_roll *roll;     /* the roll-forward recovery, or NULL */
};

/* The blocks of segment s in use for the new checkpoint (ck.owned). */
static inline const uint8_t *rp_own_map(const struct rp *p, uint32_t s)
{
	return p->owned + (size_t)s * F2FS_SIT_VBLOCK_MAP_SIZE;
}

/* ---- logs.c ---- */

/* The repair's copies of the check's block maps (struct rp owned,
 * nodemap), and their end. */
int rp_maps_begin(struct rp *p);
void rp_maps_free(struct rp *p);

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

/* Write block data to addr (reserved by rp_place), its owner noted for
 * the segment's summary. */
int rp_write(struct rp *p, const struct rp_placed *owner, const void *data);

/* addr stops being used (a block replaced by one written out of place). */
void rp_release(struct rp *p, uint32_t addr);

/* ---- nodes.c ---- */

/* Stage NAT entry d, replacing an entry for the same nid staged before. */
int rp_stage_nat(struct rp *p, const struct f2fs_nat_dirty *d);

/* The NAT version of node nid: the one staged last, else the NAT's. */
int rp_nat_version(struct rp *p, uint32_t nid, uint8_t *version);

/* Stage nid's NAT entry free (its version moves on). */
int rp_stage_nat_free(struct rp *p, uint32_t nid, uint8_t version);
/* Is (nid, idx) a data pointer to a block another pointer owned first
 * (ck.lost, sorted by rp_blocks_decide)? */
bool rp_lost_claim(const struct ck *ck, uint32_t nid, uint32_t idx);

/* Free node nid and what only it holds (its data blocks, the nodes below
 * an indirect node). */
int rp_free_node(struct rp *p, uint32_t nid);

/* ---- stage.c ---- */

/* The staged node nid, or NULL; its content may be spilled (rp_stage_load). */
struct rp_snode *rp_stage_find(const struct rp *p, uint32_t nid);
/* Bring s's content into memory (s->blk), marked as just used. */
int rp_stage_load(struct rp *p, struct rp_snode *s);
/* Beyond RP_STAGE_RESIDENT nodes in memory (opt.staged_nodes for tests),
 * the ones used longest ago go
 * to a spill file (unlinked, in $TMPDIR), read back when wanted: call
 * only where no caller holds a staged node's content. Without a spill file
 * they stay in memory. */
#define RP_STAGE_RESIDENT 512
/* The device's write queue during a repair (1 MiB). */
#define RP_WRITE_QUEUE_BLOCKS 256
void rp_stage_trim(struct rp *p);
/* Stage node nid from its block addr (its ino given, or 0: the footer's;
 * and its NAT version); roll: for the recovery. NULL on failure (ck.err). */
struct rp_snode *rp_stage_read(struct rp *p, uint32_t nid, uint32_t addr, uint32_t ino,
			       uint8_t version, bool roll);
/* Stage a new zeroed node at free nid (ino 0: an inode), its footer set;
 * it counts for the node count and its NAT block's entries. */
struct rp_snode *rp_stage_new(struct rp *p, uint32_t nid, uint32_t ino, uint32_t ofs,
			      uint8_t version, bool roll);
/* The node goes: its old block is released and its NAT entry freed at the
 * flush (a fresh one is simply not written). */
void rp_stage_drop(struct rp *p, struct rp_snode *s);
/* s ready to read or edit: its content in memory, and a dropped node
 * wanted again revived (its old block read anew and kept in use). */
int rp_stage_ready(struct rp *p, struct rp_snode *s);
/* Write every staged node that changed out of place (after the data
 * blocks, whose pointers edit nodes), sealed, its NAT entry staged. */
int rp_stage_flush(struct rp *p);
void rp_stage_free(struct rp *p);

/* ---- edit.c ---- */

/* Node nid to change: a copy read once (or the one changed already);
 * written out of place by rp_edits_flush(). NULL on failure (ck.err). */
struct f2fs_node *rp_node(struct rp *p, uint32_t nid);

/* Node nid as the edits have it, without taking it for an edit: the
 * changed copy, or the block on disk read into buf. NULL on failure. */
const struct f2fs_node *rp_node_peek(struct rp *p, uint32_t nid, struct f2fs_node *buf);

/* A new node with a free nid (*nid): of inode ino at node offset ofs, or
 * with ino 0 a new inode (ino = nid). Zeroed but for its footer. */
struct f2fs_node *rp_node_new(struct rp *p, uint32_t ino, uint32_t ofs, uint32_t *nid);
/* A directory that holds no directory's content (no "." or "..", its
 * entries broken by the dozen) gets no fix: the problems of its records
 * are left (decide()); nor is a duplicate name in an encrypted directory
 * renamed. */
void rp_dirs_not_dirs(struct rp *p);
/* A new empty directory named name in parent (not linked there): its
 * inode at nid (0: a free nid) and one block holding "." and "..". */
int rp_dir_new(struct rp *p, uint32_t nid, uint32_t parent, uint16_t perm, const char *name,
	       uint32_t *ino);
/* A new inode at nid, which the NAT has free (the root made again). */
struct f2fs_node *rp_inode_new_at(struct rp *p, uint32_t nid);

/* Is nid used by an edit or a staged NAT entry of this repair? */
bool rp_nid_taken(const struct rp *p, uint32_t nid);

/* The node holding the pointer of file block fofs of inode ino, and the
 * pointer's index there; with create, a missing direct node under the
 * inode is added. */
int rp_block_owner(struct rp *p, uint32_t ino, uint64_t fofs, bool create, uint32_t *nid,
		   uint32_t *idx);

/* File block fofs of inode ino to change (read once), or a new zeroed one
 * in a hole (the inode's i_blocks counts it). NULL on failure (ck.err). */
uint8_t *rp_data(struct rp *p, uint32_t ino, uint64_t fofs);
uint8_t *rp_data_new(struct rp *p, uint32_t ino, uint64_t fofs);
/* File block fofs as the edits have it, not taken for an edit: the changed
 * copy, or the block read into buf (F2FS_BLKSIZE). NULL on failure. */
const uint8_t *rp_data_peek(struct rp *p, uint32_t ino, uint64_t fofs, uint8_t *buf);
/* File block fofs of inode ino, whose block another file owns too: the
 * copy written out becomes this file's, the old block stays the other's. */
uint8_t *rp_data_clone(struct rp *p, uint32_t ino, uint64_t fofs);
/* Drop the pending edit of file block fofs of ino (its file is written
 * anew): true when its old block stays in use by another owner (a clone
 * was pending), which must then not be released. */
bool rp_data_forget(struct rp *p, uint32_t ino, uint64_t fofs);
/* Does the file have block fofs (on disk or added)? */
bool rp_data_exists(struct rp *p, uint32_t ino, uint64_t fofs);

/* File blocks [lo, hi) of inode ino change (a pointer set or cleared, a
 * node of the tree gone): its largest extent (i_ext) is dropped when it
 * covers any of them. Nothing for an inode that goes or cannot be read. */
int rp_extent_drop(struct rp *p, uint32_t ino, uint64_t lo, uint64_t hi);

/* Write every changed block out of place, their owners pointed at them. */
int rp_edits_flush(struct rp *p);
void rp_edits_free(struct rp *p);

/* ---- dirs.c ---- */

/* Hash of name in directory dir (case folded where dir is). */
uint32_t rp_name_hash(struct rp *p, uint32_t dir, const uint8_t *name, uint32_t len);
/* Add an entry to dir as the kernel would (its bucket, levels added as
 * needed; an inline directory that is full moves to a block). */
/* Is name in directory dir as this repair leaves it (where a lookup looks,
 * casefold rules applied)? */
bool rp_dir_has(struct rp *p, uint32_t dir, const uint8_t *name, uint32_t len);
/* name~N for the first N free in dir (the name cut to leave room). */
int rp_dir_free_name(struct rp *p, uint32_t dir, const uint8_t *name, uint32_t len,
		     uint8_t out[F2FS_NAME_LEN], uint32_t *olen);
int rp_dir_add(struct rp *p, uint32_t dir, const uint8_t *name, uint32_t len, uint32_t ino,
	       uint8_t type);
/* The same with the name's hash given (an encrypted directory's name,
 * whose hash cannot be computed here). */
int rp_dir_add_hashed(struct rp *p, uint32_t dir, const uint8_t *name, uint32_t len,
		      uint32_t hash, uint32_t ino, uint8_t type);
/* The entries of dir's block fofs (UINT64_MAX: its inline area), to change. */
struct f2fs_dentry_area;
int rp_dir_area(struct rp *p, uint32_t dir, uint64_t fofs, struct f2fs_dentry_area *a);
/* Add dir's "." (pointed at itself when there). */
int rp_dir_dot(struct rp *p, uint32_t dir);
/* Point dir's ".." at parent (added when missing). */
int rp_dir_dotdot(struct rp *p, uint32_t dir, uint32_t parent);
/* The entry fixes the check noted (ck.fixes) that p.fix allows. */
int rp_dirs(struct rp *p);

/* ---- blocks.c ---- */

/* Before the answers: will every node whose footer is bad be freed, with
 * every pointer naming it (the blocks behind them are then not unknown)? */
bool rp_blocks_free_bad(struct rp *p);
/* After the answers: the fixes of blocks and node pointers that cannot be
 * made for every instance, or only with another fix, are not made; true
 * when an error is thus left. */
bool rp_blocks_decide(struct rp *p);
/* Blocks owned twice cloned, bad data and node pointers cleared, data
 * blocks moved out of node segments, NAT entries of no node freed. */
int rp_blocks(struct rp *p);

/* ---- lost.c ---- */

/* Link the inodes no directory names into lost+found. */
int rp_relink(struct rp *p);
/* Link counts and i_blocks as counted. */
int rp_links(struct rp *p);
/* Inode ino's i_links := what the counts want, now (when it differs). */
int rp_links_set(struct rp *p, uint32_t ino);
/* Break the loops of directories the check found (FX_LOOP). */
int rp_loops(struct rp *p);

/* ---- orphans.c ---- */

/* The orphan list: a listed inode that is named stays (it leaves the list,
 * its links counted); one that is not is freed as the kernel's orphan
 * recovery would free it, and leaves the list. */
int rp_orphans(struct rp *p);

/* ---- free.c ---- */

/* May inodes be freed at all (every block's owner known, quota able to
 * follow)? */
bool rp_may_free(struct rp *p);
/* Free inode ino and all it holds, where all of it is its own (*freed). */
int rp_free_inode(struct rp *p, uint32_t ino, bool *freed);

/* ---- root.c ---- */

/* Is the root a directory but for its mode (root.bad fixable)? */
bool rp_root_restorable(struct ck *ck);
/* The root is gone: a new one is made (root.c). */
bool rp_root_makeable(struct ck *ck);
/* May a new node take nid? Free, or its NAT entry names no usable node and
 * a fix frees it (the new node's entry then replaces the freed one). */
bool rp_nid_reusable(const struct ck *ck, uint32_t nid);
/* Give it back its mode, and count its entries. */
int rp_root(struct rp *p);

/* ---- sb.c ---- */

/* Is code a problem of the superblock alone (its fix writes no checkpoint)? */
bool rp_sb_code(enum f2fs_problem_code code);
/* Can the superblock's quota inode numbers be fixed here? */
bool rp_sb_quota_fixable(struct ck *ck);

/* The checkpoint's space counts a repair writes (cp_counts.c);
 * -1 when the main area has room for no overprovision at all. */
struct rp_cp_counts {
	uint32_t rsvd, ovp;
	uint64_t user;
};
int rp_cp_counts(const struct ck *ck, struct rp_cp_counts *c);
/* Fields of the superblock (into p.sb_new, written through the txn). */
int rp_sb(struct rp *p);

/* ---- inodes.c, xattrs.c ---- */

/* Has every record of problem code a fix the repair can make (the codes
 * whose fix is noted per record; true for the others), and does its fix
 * not wait for an inode mode left invalid? Called in code order. */
bool rp_inodes_noted(const struct rp *p, enum f2fs_problem_code code);
/* The inode field fixes the check noted that p.fix allows. */
int rp_inodes(struct rp *p);
/* The i_extra_isize fixes, first of all edits: they move i_addr. */
int rp_extra_isizes(struct rp *p);
/* The xattr area fixes the check noted that p.fix allows. */
int rp_xattrs(struct rp *p);

/* ---- quota.c ---- */

/* Can the quota files the check found wrong be rebuilt here? Not from a
 * scan that could not follow every node: the usage counted would miss what
 * those nodes hold, which the kernel's accounting still has. */
bool rp_quota_rebuildable(const struct rp *p);

/* The usage the check counted, moved by what the fixes and the recovery
 * did: every inode staged or freed is taken out as the check charged it
 * and charged as it is now (its owners, its i_blocks, whether it is).
 * Once every edit is made, before the quota files are rebuilt. */
int rp_quota_usage(struct rp *p);

/* Rebuild those quota files from the usage the check counted. */
int rp_quota(struct rp *p);

/* ---- roll/roll.c ---- */

/* Replay the roll-forward chain as a mount would (ck_roll_recoverable) onto
 * copies of the nodes it changes; the blocks it makes valid, and the
 * chain's own blocks (until the commit), count as in use from here on.
 * Call before rp_choose_logs. When it cannot be done here, nothing is
 * staged and rp_roll_stopped() says so (ck.r->roll.why says why). */
int rp_roll_prepare(struct rp *p);
bool rp_roll_stopped(const struct rp *p);

/* The owners of the blocks the recovery made valid, into the summaries
 * (before the staged nodes are flushed: rp_edits_flush). */
int rp_roll_owners(struct rp *p);

/* The chain's blocks are free under the new checkpoint: after the last
 * block is placed (rp_edits_flush), before the SIT is made. */
void rp_roll_unguard(struct rp *p);

/* Does segment segno hold blocks the recovery made valid (its summary
 * block must be written)? */
bool rp_roll_touched(const struct rp *p, uint32_t segno);

void rp_roll_free(struct rp *p);

#endif
