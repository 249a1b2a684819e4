/*
 * The checkpoint's space counts, set again when out of range: the reserve
 * (rsvd_segment_count), the overprovision that includes it
 * (overprov_segment_count) and the blocks left to users
 * (user_block_count), which mkfs sets as (main - overprovision) segments.
 * What is intact is kept: a user count past the main area less the
 * overprovision becomes exactly that; a bad overprovision is taken back
 * from an intact user count where the reserve fits under it; else all
 * three are what mkfs gives this main area (the ratio that leaves users
 * the most space), which the kernel accepts for any image of this layout.
 */
#include <f2fs/format/endian.h>
#include <f2fs/format/feature.h>
#include <f2fs/format/layout.h>

#include "repair_int.h"

static bool user_intact(uint64_t user, uint32_t main_segs)
{
	return user && user % F2FS_BLOCKS_PER_SEG == 0 && user / F2FS_BLOCKS_PER_SEG < main_segs;
}

int rp_cp_counts(const struct ck *ck, struct rp_cp_counts *c)
{
	const struct f2fs_checkpoint *cp = ck->cp;
	uint32_t main_segs = ck->main_segs;
	struct f2fs_overprovision o;
	struct f2fs_error err = { 0 };

	c->rsvd = le32_get(cp->rsvd_segment_count);
	c->ovp = le32_get(cp->overprov_segment_count);
	c->user = le64_get(cp->user_block_count);
	if (!ck->r->count[F2FS_PB_CP_OVERPROVISION]) {
		c->user = (uint64_t)(main_segs - c->ovp) * F2FS_BLOCKS_PER_SEG;
		return 0;
	}
	if (user_intact(c->user, main_segs) && c->rsvd &&
	    c->rsvd <= main_segs - c->user / F2FS_BLOCKS_PER_SEG) {
		c->ovp = main_segs - (uint32_t)(c->user / F2FS_BLOCKS_PER_SEG);
		return 0;
	}
	if (f2fs_overprovision_size(main_segs, le32_get(ck->sb->segs_per_sec),
				    (ck->features & F2FS_FEATURE_BLKZONED) != 0, 0, &o, &err))
		return -1;
	c->rsvd = o.rsvd_segments;
	c->ovp = o.ovp_segments;
	c->user = o.user_block_count;
	return 0;
}
