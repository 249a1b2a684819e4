/*
 * NAT entries in doubt, answered for by the node blocks that hold their
 * nids. A NAT block of garbage, an entry zeroed or pointing at the wrong
 * block would otherwise make every node it lost look unused: the repair
 * would cut the directory entries and pointers naming them and free
 * intact files. But every node block's footer names its nid and its
 * inode, the summary of its segment names its nid, and the SIT says it is
 * in use: a block on which all three agree answers for its nid, and the
 * NAT pass takes it in place of the entry (the repair writes the entry).
 *
 * Two moments ask: the NAT pass, for the nids of a NAT block holding
 * entries no image can have (before it reads them, so one run does); and
 * the end of a run whose walk found nids named but not usable (dangling
 * entries, pointers to nids not in use, footers naming other nids), for
 * which the run is made again with the answers.
 */
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/format/node_ofs.h>
#include <f2fs/fs/node_find.h>
#include <f2fs/fs/ssa.h>

#include "ck.h"
#include "nat_answers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void ck_nat_doubt(struct ck *ck, uint32_t nid)
{
	/* a run given answers asks nothing more */
	if (ck->given_answers || nid >= ck->max_nid)
		return;
	if (f2fs_vec_push(&ck->doubts, nid))
		ck->hook_nomem = 1;
}

const struct ck_answer *ck_answer_of(const struct ck *ck, uint32_t nid)
{
	uint32_t at = ck->answers ? f2fs_u32map_get(&ck->answers->at, nid) : 0;

	return at ? &ck->answers->v.v[at - 1] : NULL;
}

const struct ck_answer *ck_answer_at(const struct ck *ck, uint32_t blkaddr)
{
	uint32_t at = ck->answers ? f2fs_u32map_get(&ck->answers->by_addr, blkaddr) : 0;

	return at ? &ck->answers->v.v[at - 1] : NULL;
}

void ck_answers_free(struct ck_answers *a)
{
	if (!a)
		return;
	f2fs_u32map_free(&a->at);
	f2fs_u32map_free(&a->by_addr);
	f2fs_vec_free(&a->v);
	free(a->asked);
	free(a);
}

struct search {
	struct ck *ck;
	struct ck_answers *a;
	uint32_t cp_ver;
	bool any_block;           /* blocks the SIT marks free answer too */
};

static const uint8_t every_block[F2FS_SIT_VBLOCK_MAP_SIZE] = {
#define ONES8 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
	ONES8, ONES8, ONES8, ONES8, ONES8, ONES8, ONES8, ONES8,
#undef ONES8
};
_Static_assert(F2FS_SIT_VBLOCK_MAP_SIZE == 64, "a segment's map is 64 bytes");

static const uint8_t *seg_map(void *arg, uint32_t segno)
{
	const struct search *q = arg;
	const struct ck_seg *g = &q->ck->segs[segno];

	if (!ck_seg_is_node(g->type))
		return NULL;
	if (q->any_block)
		return every_block;
	return g->vblocks ? g->map : NULL;
}

static bool want(void *arg, uint32_t nid)
{
	const struct search *q = arg;

	return nid < q->ck->max_nid && ck_bit64(q->a->asked, nid);
}

/* The NAT entry version a node's data blocks' summaries record (the
 * kernel's GC and f2fs-tools compare the two): its first data block's;
 * 0 for a node with none. */
static uint8_t data_version(struct ck *ck, const struct f2fs_node_found *f)
{
	const struct f2fs_node *nd = f->node;
	enum f2fs_node_kind kind = f2fs_node_kind(f->node_ofs);
	uint32_t n = 0, addr = F2FS_NULL_ADDR;
	struct f2fs_summary_block sum;
	struct f2fs_error keep = *ck->err;
	uint8_t version = 0;

	if (kind == F2FS_NODE_INODE && !(nd->i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)))
		n = f2fs_inode_addrs(&nd->i, ck->features);
	else if (kind == F2FS_NODE_DIRECT)
		n = F2FS_ADDRS_PER_BLOCK;
	for (uint32_t k = 0; k < n && !ck_in_main(ck, addr); k++)
		addr = kind == F2FS_NODE_INODE ? f2fs_inode_get_addr(&nd->i, k) : le32_get(nd->dn.addr[k]);
	if (!ck_in_main(ck, addr))
		return 0;
	if (!f2fs_ssa_get(ck->fs, ck_segno(ck, addr), &sum, NULL, ck->err)) {
		const struct f2fs_summary *e = &sum.entries[(addr - ck->main_blkaddr) % F2FS_BLOCKS_PER_SEG];

		if (le32_get(e->nid) == f->nid)
			version = e->version;
	}
	*ck->err = keep;   /* a summary not read leaves version 0 */
	return version;
}

/*
 * Versions compare in their low 32 bits: with CRC recovery the high ones
 * hold the checkpoint's CRC. The newest copy of a node answers, one the
 * SIT marks valid before one of the same version it does not. A block the
 * SIT leaves free with the checkpoint's own version was written after it
 * (a chain the roll-forward recovery owns) and answers for nothing; one
 * with a later version belongs to no checkpoint of this volume.
 */
static int found(void *arg, const struct f2fs_node_found *f)
{
	struct search *q = arg;
	struct ck_answers *a = q->a;
	uint32_t ver = (uint32_t)f->cp_ver, at = f2fs_u32map_get(&a->at, f->nid);
	int32_t age = (int32_t)(ver - q->cp_ver);
	bool valid = ck_sit_valid(q->ck, f->blkaddr);
	struct ck_answer *x, y;

	if (age > 0 || (age == 0 && !valid))
		return 0;
	y = (struct ck_answer){ f->nid, f->ino, f->blkaddr, ver, 0, valid, 0 };
	if (!at) {
		y.version = data_version(q->ck, f);
		if (f2fs_vec_push(&a->v, y) || f2fs_u32map_put(&a->at, f->nid, (uint32_t)a->v.n))
			return f2fs_fail(q->ck->err, -ENOMEM, "out of memory for NAT answers");
		return 0;
	}
	x = &a->v.v[at - 1];
	if (ver == x->ver && valid == x->valid) {
		x->ties++;
	} else if ((int32_t)(ver - x->ver) > 0 || (ver == x->ver && valid)) {
		y.version = data_version(q->ck, f);
		*x = y;
	}
	return 0;
}

static void progress(void *arg, uint32_t done, uint32_t total)
{
	ck_progress(((struct search *)arg)->ck, "node scan", done, total);
}

/* The answers for the nids set in a->asked. footers, for nids something
 * names: blocks the SIT marks free answer too, and when the summaries
 * leave some unanswered, every block of the node segments is read. */
static int search(struct ck *ck, struct ck_answers *a, bool footers)
{
	struct search q = { ck, a, (uint32_t)le64_get(ck->cp->checkpoint_ver), footers };
	struct f2fs_node_find nf = { seg_map, want, found, progress, &q };
	size_t before = a->v.n;
	int ret = f2fs_node_find_by_ssa(ck->fs, &nf, ck->err);

	if (!ret && footers) {
		uint64_t left = 0;

		/* ask the footers only about the nids still unanswered */
		for (size_t i = before; i < a->v.n; i++)
			ck_bit64_clear(a->asked, a->v.v[i].nid);
		for (size_t w = 0; w < ((size_t)ck->max_nid + 63) / 64; w++)
			left += (uint64_t)__builtin_popcountll(a->asked[w]);
		if (left)
			ret = f2fs_node_find_by_footer(ck->fs, &nf, ck->err);
	}
	for (size_t i = before; !ret && i < a->v.n; i++)
		if (f2fs_u32map_put(&a->by_addr, a->v.v[i].blkaddr, (uint32_t)i + 1))
			ret = f2fs_fail(ck->err, -ENOMEM, "out of memory for NAT answers");
	return ret;
}

static int answers_new(struct ck *ck)
{
	if (ck->answers)
		return 0;
	ck->answers = calloc(1, sizeof(*ck->answers));
	if (ck->answers)
		ck->answers->asked = calloc(((size_t)ck->max_nid + 63) / 64 + 1, sizeof(uint64_t));
	if (!ck->answers || !ck->answers->asked)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for NAT answers");
	return 0;
}

int ck_nat_ask_block(struct ck *ck, uint32_t nat_block)
{
	uint32_t first = nat_block * F2FS_NAT_ENTRY_PER_BLOCK;
	int ret = answers_new(ck);

	if (ret)
		return ret;
	for (uint32_t nid = first; nid < first + F2FS_NAT_ENTRY_PER_BLOCK && nid < ck->max_nid; nid++)
		ck_bit64_set(ck->answers->asked, nid);
	return 0;
}

int ck_nat_answer_asked(struct ck *ck)
{
	int ret = search(ck, ck->answers, false);

	/* asked once: the bits of another search start clear */
	memset(ck->answers->asked, 0, (((size_t)ck->max_nid + 63) / 64) * sizeof(uint64_t));
	return ret;
}

int ck_nat_answer_doubts(struct ck *ck)
{
	struct ck_answers *a;
	int ret;

	if (!ck->doubts.n || ck->given_answers)
		return 0;
	ret = answers_new(ck);
	if (ret)
		return ret;
	a = ck->answers;
	/* a NAT block that lost one entry something names may have lost its
	 * others (zeroed, as free entries look): the whole block is asked,
	 * of blocks the SIT marks valid only, then the doubts themselves of
	 * any block that names them */
	for (size_t i = 0; i < ck->doubts.n && !ret; i++)
		ret = ck_nat_ask_block(ck, ck->doubts.v[i] / F2FS_NAT_ENTRY_PER_BLOCK);
	for (size_t i = 0; i < a->v.n; i++)
		ck_bit64_clear(a->asked, a->v.v[i].nid);
	if (!ret)
		ret = ck_nat_answer_asked(ck);
	for (size_t i = 0; i < ck->doubts.n && !ret; i++)
		if (!ck_answer_of(ck, ck->doubts.v[i]))
			ck_bit64_set(a->asked, ck->doubts.v[i]);
	if (!ret)
		ret = search(ck, a, true);
	if (ret)
		return ret;
	/* an answer the NAT (or this run) gives already changes nothing */
	for (size_t i = 0; i < a->v.n && !ck->nat_rerun; i++) {
		const struct ck_answer *x = &a->v.v[i];
		const struct ck_nid *n = ck_nid_find(ck, x->nid);

		ck->nat_rerun = !n || n->blkaddr != x->blkaddr || ck_nid_ino(ck, n, x->nid) != x->ino;
	}
	return 0;
}
