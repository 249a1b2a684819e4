/*
 * The repair's current logs: each log of the new checkpoint stays where the
 * old one left it while it can go on there, else it starts a free section.
 * Blocks written out of place (the repair never writes over a block the old
 * checkpoint uses) are appended to these logs, so that they are free under
 * the old checkpoint and in use under the new one, and their summaries go
 * into the new pack with the logs'. Only an appending (LFS) log takes
 * them: an SSR log written to starts a free section first, and appends
 * there. A log's next block is free, and an appending log's every block
 * from there on (the kernel refuses to mount otherwise); a log that fills
 * its segment starts a free section at once.
 */
#include <f2fs/format/checkpoint.h>

#include "repair_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int rp_maps_begin(struct rp *p)
{
	const struct ck *ck = p->ck;
	size_t bytes = (size_t)((ck->main_end - ck->main_blkaddr) / 8) + 1;

	p->owned = malloc(bytes);
	p->nodemap = malloc(bytes);
	if (!p->owned || !p->nodemap)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for the repair's block maps");
	memcpy(p->owned, ck->owned, bytes);
	memcpy(p->nodemap, ck->nodemap, bytes);
	return 0;
}

void rp_maps_free(struct rp *p)
{
	free(p->owned);
	free(p->nodemap);
	p->owned = p->nodemap = NULL;
}

static bool is_node_log(int t)
{
	return t >= F2FS_NR_CURSEG_DATA;
}

static bool is_unknown(const struct rp *p, uint32_t s, uint32_t b)
{
	return p->unknown && f2fs_msb_test(p->unknown + (size_t)s * F2FS_SIT_VBLOCK_MAP_SIZE, b);
}

/* Can log t go on in segment sn, and from which block (*off)? The segment
 * must be in range, not another log's, and hold only blocks of the log's
 * kind. The kernel writes the log's next block without looking, and
 * refuses to mount when it is in use: an appending (LFS) log goes on where
 * nothing from *off on is in use; an SSR log, which fills holes, goes on at
 * the first free block from *off on, else from the segment's start. */
static bool log_usable(const struct rp *p, int t, uint32_t sn, uint16_t *off)
{
	const struct ck *ck = p->ck;
	const uint8_t *own, *nm;
	bool ssr = f2fs_cp_log_ssr(ck->cp, t);

	if (sn >= ck->main_segs || *off >= F2FS_BLOCKS_PER_SEG)
		return false;
	for (int u = 0; u < t; u++)
		if (p->cur[u] == sn)
			return false;
	own = rp_own_map(p, sn);
	nm = p->nodemap + (size_t)sn * F2FS_SIT_VBLOCK_MAP_SIZE;
	for (uint32_t b = 0; b < F2FS_BLOCKS_PER_SEG; b++) {
		if (!f2fs_msb_test(own, b))
			continue;
		if (!is_unknown(p, sn, b) && (f2fs_msb_test(nm, b) != 0) != is_node_log(t))
			return false;
		if (!ssr && b >= *off)
			return false;
	}
	if (!ssr || !f2fs_msb_test(own, *off))
		return true;
	for (uint32_t k = 1; k < F2FS_BLOCKS_PER_SEG; k++) {
		uint32_t b = (*off + k) % F2FS_BLOCKS_PER_SEG;

		if (!f2fs_msb_test(own, b)) {
			*off = (uint16_t)b;
			return true;
		}
	}
	return false;
}

static bool sec_free(const struct rp *p, uint32_t sec, int upto)
{
	const struct ck *ck = p->ck;

	for (uint32_t s = sec * p->segs_per_sec; s < (sec + 1) * p->segs_per_sec; s++) {
		if (s >= ck->main_segs || f2fs_sit_map_weight(rp_own_map(p, s)))
			return false;
		for (int u = 0; u < upto; u++)
			if (p->cur[u] == s)
				return false;
	}
	return true;
}

/* Log t goes on at the start of the first free section. */
static int move_log(struct rp *p, int t)
{
	struct ck *ck = p->ck;
	uint32_t was = p->cur[t];

	p->cur[t] = UINT32_MAX;
	for (uint32_t sec = 0; sec * p->segs_per_sec < ck->main_segs; sec++)
		if (sec_free(p, sec, F2FS_NR_CURSEG_TYPE)) {
			p->cur[t] = sec * p->segs_per_sec;
			break;
		}
	if (p->cur[t] == UINT32_MAX)
		return f2fs_fail(ck->err, -F2FS_E_NO_SPACE,
				 "no free section for log %d, whose segment %u cannot go on", t, was);
	p->off[t] = 0;
	if (!p->moved[t])
		ck->r->repair.logs_moved++;
	p->moved[t] = true;
	return 0;
}

int rp_choose_logs(struct rp *p)
{
	struct ck *ck = p->ck;
	int ret = 0;

	/* every log where it was, so that no fresh section is one of them */
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++) {
		p->cur[t] = f2fs_cp_log_segno(ck->cp, t);
		p->off[t] = f2fs_cp_log_blkoff(ck->cp, t);
	}
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE && !ret; t++)
		if (!log_usable(p, t, p->cur[t], &p->off[t]))
			ret = move_log(p, t);
	return ret;
}

int rp_new_cur(const struct rp *p, uint32_t s)
{
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++)
		if (p->cur[t] == s)
			return t;
	return -1;
}


/* An appending log with room for count blocks in its segment. */
static bool log_has_room(const struct rp *p, int t, uint32_t count)
{
	/* a moved log starts appending (stage_logs); an SSR one fills holes */
	return (p->moved[t] || !f2fs_cp_log_ssr(p->ck->cp, t)) &&
	       p->off[t] + count <= F2FS_BLOCKS_PER_SEG;
}

int rp_place(struct rp *p, int t, uint32_t count, uint32_t *first)
{
	struct ck *ck = p->ck;
	uint32_t base;
	int ret;

	if (count == 0 || count > F2FS_BLOCKS_PER_SEG)
		return f2fs_fail(ck->err, -F2FS_E_NO_SPACE,
				 "%u blocks to write in one log do not fit a segment", count);
	if (!log_has_room(p, t, count)) {
		ret = move_log(p, t);
		if (ret)
			return ret;
	}
	base = ck->main_blkaddr + p->cur[t] * F2FS_BLOCKS_PER_SEG + p->off[t];
	for (uint32_t i = 0; i < count; i++) {
		f2fs_msb_set(p->owned, base + i - ck->main_blkaddr);
		if (is_node_log(t))
			f2fs_msb_set(p->nodemap, base + i - ck->main_blkaddr);
	}
	p->off[t] = (uint16_t)(p->off[t] + count);
	*first = base;
	/* a full segment is left at once, as the kernel leaves it: no
	 * checkpoint names a log's next block past its segment's end */
	if (p->off[t] == F2FS_BLOCKS_PER_SEG)
		return move_log(p, t);
	return 0;
}

int rp_write(struct rp *p, const struct rp_placed *owner, const void *data)
{
	if (f2fs_vec_push(&p->placed, *owner))
		return f2fs_fail(p->ck->err, -ENOMEM, "out of memory for blocks to write");
	return f2fs_txn_put_block(&p->t, owner->addr, owner->node, data, p->ck->err);
}

void rp_release(struct rp *p, uint32_t addr)
{
	struct ck *ck = p->ck;

	if (!ck_in_main(ck, addr))
		return;
	f2fs_msb_clear(p->owned, addr - ck->main_blkaddr);
	f2fs_msb_clear(p->nodemap, addr - ck->main_blkaddr);
}
