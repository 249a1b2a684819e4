/*
 * Internals of the roll-forward recovery (roll/roll.c, the chain, the
 * inodes and their data; roll/roll_dir.c, the names it gives back, through
 * the repair's directory edits; roll/roll_nodes.c, the copies of the
 * file nodes it edits, and what it frees). The
 * recovery edits nodes and directory blocks in the repair's staging cache
 * (stage.c, edit.c), as the kernel edits its page cache
 * during a mount; they are written out of place at the end, with the
 * other fixes' changes, into the repair's transaction.
 */
#ifndef F2FS_FSCK_REPAIR_ROLL_H
#define F2FS_FSCK_REPAIR_ROLL_H

#include <stdbool.h>
#include <stdint.h>

#include <f2fs/format/endian.h>

#include "../repair_int.h"

/* An inode with fsync-marked nodes on the chain (the kernel's list). */
struct rr_ino {
	uint32_t ino;
	uint32_t last;            /* its last fsync-marked node's block */
	uint32_t last_dentry;     /* its last inode block with a dentry mark, or 0 */
	bool done;                /* past its last block: nothing more applies */
};

/* A data block the recovery made valid, and the pointer holding it. */
struct rr_own {
	uint32_t addr, nid;
	uint16_t idx;
};

struct rp_roll {
	struct rp *p;
	struct ck *ck;
	uint32_t features;
	F2FS_VEC(uint32_t) chain;          /* node blocks in chain order */
	F2FS_VEC(uint32_t) guarded;        /* chain blocks kept from the logs */
	F2FS_VEC(struct rr_ino) inos;
	struct f2fs_u32map ino_at;         /* ino -> index in inos + 1 */
	F2FS_VEC(struct rr_own) owns;
	struct f2fs_u32map own_at;         /* addr -> index in owns + 1 */
	struct f2fs_u32map chain_at;       /* addrs of the chain's blocks (a set) */
	uint64_t *touched;                 /* segments whose SSA gains entries */
	uint32_t nid_hint;
	char why[200];                     /* what keeps the recovery from going on */
};

static inline bool rr_is_inode_blk(const struct f2fs_node *n)
{
	return le32_get(n->footer.nid) == le32_get(n->footer.ino);
}

static inline uint32_t rr_footer_ofs(const struct f2fs_node *n)
{
	return le32_get(n->footer.flag) >> 3;
}

/* ---- roll/roll_nodes.c ---- */

/* The node nid as the recovery has it (read on first use), or NULL with
 * r->why set (or an error in *ret). */
struct rp_snode *rr_node_get(struct rp_roll *r, uint32_t nid, int *ret);

/* The node holding the pointer of file block idx of inode n, and the
 * pointer's index there; with alloc, missing nodes on the way are made
 * (as the kernel's ALLOC_NODE lookup does). NULL for a hole (no alloc)
 * or when r->why / *ret says why. */
struct rp_snode *rr_block_slot(struct rp_roll *r, struct rp_snode *inode, uint64_t idx,
			      bool alloc, uint32_t *pos, int *ret);

/* Pointer pos of node n, and setting it (the inode's pointers count from
 * after its extra attributes). */
uint32_t rr_ptr(const struct rp_snode *n, uint32_t pos);
void rr_set_ptr(struct rp_snode *n, uint32_t pos, uint32_t addr);

/* A new node (nid want when free, else the next free one; want 0: any),
 * zeroed, with its footer; it counts for the node count and (not an inode)
 * its inode's blocks. */
struct rp_snode *rr_new_node(struct rp_roll *r, uint32_t want, uint32_t ino, uint32_t ofs,
			    bool dir, int *ret);

/* The direct node at offset ofs in the tree of inode (made with the path to
 * it when missing and alloc; want: the nid to give a new direct node). */
struct rp_snode *rr_locate(struct rp_roll *r, struct rp_snode *inode, uint32_t ofs,
			  uint32_t want, bool alloc, int *ret);

/* Data pointers in inode's own block. */
uint32_t rr_inode_addrs(const struct rp_roll *r, const struct rp_snode *inode);

/* Node n goes (truncated away or replaced): its block is released and
 * its NAT entry cleared at the flush; a nid the recovery gets again reads
 * it anew. */
void rr_free_node(struct rp_roll *r, struct rp_snode *n);

/* Add delta to the i_blocks of inode ino (the recovery's copy). */
int rr_add_blocks(struct rp_roll *r, uint32_t ino, int64_t delta);

/* Block addr stops being used (a pointer replaced, truncated or freed
 * with its inode): released, and no longer a block the recovery gave. */
void rr_drop_block(struct rp_roll *r, uint32_t addr);

/* The kernel's eviction of an inode whose last link the recovery took:
 * its data blocks, nodes and xattr node are freed, and the inode with
 * them; nothing on the chain applies to it any more. */
int rr_drop_inode(struct rp_roll *r, struct rp_snode *in);

/* Set r->why (printf-style); returns 0 so that callers can return it. */
int rr_stop(struct rp_roll *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Out of memory: the error to return. */
int rr_nomem(struct rp_roll *r);

/* ---- roll/roll_dir.c ---- */

/* The kernel's recover_dentry: the name inode c (a chain inode block with
 * a dentry mark) gives itself, in its parent directory, if not there (the
 * directory changed through the repair's edits, edit.c). */
int rr_recover_dentry(struct rp_roll *r, const struct f2fs_node *c, struct rp_snode *inode);

#endif
