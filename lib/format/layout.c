/* Geometry of a new file system, computed as mkfs.f2fs 1.15 and the kernel expect. */
#include <f2fs/format/layout.h>

#include <errno.h>

#include <stdlib.h>

#define SEG_BYTES ((uint64_t)F2FS_SEGMENT_BYTES)
#define CKPT_SEGMENTS 2u
#define MIN_TOTAL_SEGMENTS 9u      /* sb + cp + sit + nat + ssa + main, at least */
/* SIT bitmap of the largest (16 TiB) volume: the clamp mkfs applies */
#define MAX_SIT_BITMAP_BYTES \
	(DIV_UP(DIV_UP(F2FS_MAX_SEGMENTS, F2FS_SIT_ENTRY_PER_BLOCK), F2FS_BLOCKS_PER_SEG) * \
	 F2FS_BLOCKS_PER_SEG / 8)
/* bitmap room when the CRC moves to 192 (large NAT bitmap), as mkfs counts it */
#define LARGE_NAT_BITMAP_ROOM (F2FS_CP_CHKSUM_OFFSET - F2FS_CP_BITMAP_OFFSET - 1)
#define LARGE_NAT_RATIO 20         /* percent of the needed NAT with -i */

#define DIV_UP(a, b) (((a) + (b) - 1) / (b))

static int ilog2_exact(uint32_t v)
{
	int n = 0;

	if (v == 0 || (v & (v - 1)))
		return -1;
	while ((1u << n) != v)
		n++;
	return n;
}

static int check_params(const struct f2fs_layout_params *p, struct f2fs_error *err)
{
	int lss = ilog2_exact(p->sector_size);

	if (lss < 9 || lss > 12)
		return f2fs_fail(err, -F2FS_E_BAD_OPTION,
				 "sector size %u is not a power of two from 512 to 4096",
				 p->sector_size);
	if (p->ndevs < 1 || p->ndevs > F2FS_MAX_DEVICES)
		return f2fs_fail(err, -F2FS_E_BAD_OPTION,
				 "%u devices given; F2FS takes 1 to %d",
				 p->ndevs, F2FS_MAX_DEVICES);
	if (p->overprovision < 0 || p->overprovision >= 100)
		return f2fs_fail(err, -F2FS_E_BAD_OPTION,
				 "-o %g: overprovision must be above 0 and below 100 percent",
				 p->overprovision);
	if (p->zone_bytes) {
		if (p->zone_bytes % SEG_BYTES ||
		    ilog2_exact((uint32_t)(p->zone_bytes / SEG_BYTES)) < 0)
			return f2fs_fail(err, -F2FS_E_BAD_OPTION,
					 "zone size %llu bytes is not a power-of-two multiple of the 2 MiB segment",
					 (unsigned long long)p->zone_bytes);
		return 0;
	}
	if (p->segs_per_sec < 1 || p->segs_per_sec > F2FS_MAX_SEGMENTS)
		return f2fs_fail(err, -F2FS_E_BAD_OPTION,
				 "-s %u: segments per section must be 1 or more",
				 p->segs_per_sec);
	if (p->secs_per_zone < 1 ||
	    (uint64_t)p->secs_per_zone * p->segs_per_sec > F2FS_MAX_SEGMENTS)
		return f2fs_fail(err, -F2FS_E_BAD_OPTION,
				 "-z %u: sections per zone must be 1 or more and a zone at most 16 TiB",
				 p->secs_per_zone);
	return 0;
}

static void set_units(const struct f2fs_layout_params *p, struct f2fs_layout *l)
{
	l->log_sectorsize = (uint32_t)ilog2_exact(p->sector_size);
	l->log_sectors_per_block = F2FS_BLKSIZE_BITS - l->log_sectorsize;
	l->zoned = p->zone_bytes != 0;
	if (l->zoned) {
		l->segs_per_sec = (uint32_t)(p->zone_bytes / SEG_BYTES);
		l->secs_per_zone = 1;
	} else {
		l->segs_per_sec = p->segs_per_sec;
		l->secs_per_zone = p->secs_per_zone;
	}
	l->segs_per_zone = l->segs_per_sec * l->secs_per_zone;
	l->segment_count_ckpt = CKPT_SEGMENTS;
	l->large_nat_bitmap = p->large_nat_bitmap;
}

/*
 * segment0 starts on the first zone boundary after the two superblock blocks,
 * measured from the start of the disk when the partition is 4 KiB aligned.
 */
static uint64_t zone_align_offset(const struct f2fs_layout_params *p,
				  const struct f2fs_layout *l)
{
	uint64_t zone = SEG_BYTES * l->segs_per_zone;
	uint64_t start = p->start_sector * 512;

	if (start % F2FS_BLKSIZE)
		start = 0;
	return DIV_UP(start + 2 * F2FS_BLKSIZE, zone) * zone - start;
}

static int size_devices(const struct f2fs_layout_params *p, struct f2fs_layout *l,
			struct f2fs_error *err)
{
	uint64_t align = zone_align_offset(p, l), total_bytes = 0, segs = 0;
	uint32_t z = l->segs_per_zone;

	if (p->dev_bytes[0] < align + SEG_BYTES * z)
		return f2fs_fail(err, -F2FS_E_TOO_SMALL,
				 "device of %llu bytes is too small for F2FS",
				 (unsigned long long)p->dev_bytes[0]);
	l->segment0_blkaddr = (uint32_t)(align / F2FS_BLKSIZE);
	l->ndevs = p->ndevs;
	for (uint32_t i = 0; i < p->ndevs; i++) {
		uint64_t b = i == 0 ? p->dev_bytes[0] - align : p->dev_bytes[i];
		uint64_t n = b / SEG_BYTES / z * z;
		struct f2fs_layout_dev *d = &l->devs[i];

		if (n == 0)
			return f2fs_fail(err, -F2FS_E_TOO_SMALL,
					 "device %u of %llu bytes holds no whole zone",
					 i + 1, (unsigned long long)p->dev_bytes[i]);
		d->total_segments = (uint32_t)(n > UINT32_MAX ? UINT32_MAX : n);
		d->start_blkaddr = i == 0 ? 0 : l->devs[i - 1].end_blkaddr + 1;
		d->end_blkaddr = (i == 0 ? l->segment0_blkaddr : d->start_blkaddr) +
				 n * F2FS_BLOCKS_PER_SEG - 1;
		segs += n;
		total_bytes += p->dev_bytes[i];
	}
	if (segs > F2FS_MAX_SEGMENTS - 1 ||
	    l->segment0_blkaddr + segs * F2FS_BLOCKS_PER_SEG > (1ull << 32))
		return f2fs_fail(err, -F2FS_E_TOO_LARGE,
				 "%llu bytes is beyond the 16 TiB F2FS can address; give a smaller sector count",
				 (unsigned long long)total_bytes);
	if (segs < MIN_TOTAL_SEGMENTS)
		return f2fs_fail(err, -F2FS_E_TOO_SMALL,
				 "%llu bytes is too small for F2FS (at least %u segments of 2 MiB are needed)",
				 (unsigned long long)total_bytes, MIN_TOTAL_SEGMENTS);
	l->segment_count = (uint32_t)segs;
	l->block_count = total_bytes / F2FS_BLKSIZE;
	l->cp_blkaddr = l->segment0_blkaddr;
	return 0;
}

/* NAT copies and the checkpoint room for the version bitmaps. */
static void size_nat(struct f2fs_layout *l)
{
	uint32_t sit_copy = l->segment_count_sit / 2;
	uint64_t avail = (uint64_t)(l->segment_count - CKPT_SEGMENTS -
				    l->segment_count_sit) * F2FS_BLOCKS_PER_SEG;
	uint32_t nat_segs = (uint32_t)DIV_UP(DIV_UP(avail, F2FS_NAT_ENTRY_PER_BLOCK),
					     F2FS_BLOCKS_PER_SEG);
	uint32_t sit_bm = sit_copy * F2FS_BLOCKS_PER_SEG / 8;
	uint32_t max_nat_bm;

	if (sit_bm > MAX_SIT_BITMAP_BYTES)
		sit_bm = MAX_SIT_BITMAP_BYTES;
	if (l->large_nat_bitmap) {
		uint32_t want = nat_segs * LARGE_NAT_RATIO / 100;

		nat_segs = want ? want : 1;
		max_nat_bm = nat_segs * F2FS_BLOCKS_PER_SEG / 8;
		l->cp_payload = sit_bm + max_nat_bm > LARGE_NAT_BITMAP_ROOM ?
			DIV_UP(sit_bm + max_nat_bm - LARGE_NAT_BITMAP_ROOM, F2FS_BLKSIZE) : 0;
	} else {
		/* keep 64 bytes of slack before moving the SIT bitmap out */
		if (sit_bm > F2FS_CP_BITMAP_ROOM - 64) {
			max_nat_bm = F2FS_CP_BITMAP_ROOM;
			l->cp_payload = DIV_UP(sit_bm, F2FS_BLKSIZE);
		} else {
			max_nat_bm = F2FS_CP_BITMAP_ROOM - sit_bm;
			l->cp_payload = 0;
		}
		if (nat_segs > max_nat_bm * 8 / F2FS_BLOCKS_PER_SEG)
			nat_segs = max_nat_bm * 8 / F2FS_BLOCKS_PER_SEG;
	}
	l->segment_count_nat = nat_segs * 2;
}

static int size_areas(struct f2fs_layout *l, struct f2fs_error *err)
{
	uint32_t z = l->segs_per_zone, meta, meta_zones, total_zones;
	uint64_t avail;

	l->segment_count_sit = 2 * (uint32_t)DIV_UP(
		DIV_UP(l->segment_count, F2FS_SIT_ENTRY_PER_BLOCK), F2FS_BLOCKS_PER_SEG);
	l->sit_blkaddr = l->segment0_blkaddr + CKPT_SEGMENTS * F2FS_BLOCKS_PER_SEG;
	size_nat(l);
	l->nat_blkaddr = l->sit_blkaddr + l->segment_count_sit * F2FS_BLOCKS_PER_SEG;
	if (CKPT_SEGMENTS + l->segment_count_sit + l->segment_count_nat >= l->segment_count)
		return f2fs_fail(err, -F2FS_E_TOO_SMALL,
				 "device too small: no room left after the metadata areas");
	avail = (uint64_t)(l->segment_count - CKPT_SEGMENTS - l->segment_count_sit -
			   l->segment_count_nat) * F2FS_BLOCKS_PER_SEG;
	l->segment_count_ssa = (uint32_t)DIV_UP(avail / F2FS_BLOCKS_PER_SEG + 1,
						F2FS_BLOCKS_PER_SEG);
	meta = CKPT_SEGMENTS + l->segment_count_sit + l->segment_count_nat +
	       l->segment_count_ssa;
	if (meta % z) {
		/* pad the SSA so that the main area starts on a zone */
		l->segment_count_ssa += z - meta % z;
		meta += z - meta % z;
	}
	l->ssa_blkaddr = l->nat_blkaddr + l->segment_count_nat * F2FS_BLOCKS_PER_SEG;
	meta_zones = meta / z;
	l->main_blkaddr = l->segment0_blkaddr + meta_zones * z * F2FS_BLOCKS_PER_SEG;
	if (l->segment_count / z <= meta_zones + 6)
		return f2fs_fail(err, -F2FS_E_TOO_SMALL,
				 "device too small: %u zones of %u segments left for data, more than 6 are needed",
				 l->segment_count / z > meta_zones ? l->segment_count / z - meta_zones : 0,
				 z);
	total_zones = l->segment_count / z - meta_zones;
	l->section_count = total_zones * l->secs_per_zone;
	l->segment_count_main = l->section_count * l->segs_per_sec;
	l->sit_bitmap_bytes = l->segment_count_sit / 2 * F2FS_BLOCKS_PER_SEG / 8;
	l->nat_bitmap_bytes = l->segment_count_nat / 2 * F2FS_BLOCKS_PER_SEG / 8;
	return 0;
}

static double reserved_for(double ovp, uint32_t segs_per_sec)
{
	return (2 * (100 / ovp + 1) + F2FS_NR_CURSEG_TYPE) * segs_per_sec;
}

/*
 * The ratio that leaves users the most space: the same search, in the same
 * double arithmetic, as mkfs.f2fs, so that the same device gets the same
 * numbers from either tool. One difference: where the device does not end
 * on a zone, mkfs.f2fs 1.15 (built with zoned support) takes its base from
 * f2fs_get_usable_segments(), which also counts the segments after the last
 * whole zone, and its per-section multiplier round_up(usable, sections)
 * becomes segs_per_sec + 1; its free_segment_count then exceeds the main
 * area (its own fsck fails the fresh image) and user_block_count counts
 * segments that do not exist. We count the main area only, so every counter
 * agrees with the segments there; the kernel fills and garbage-collects
 * both layouts (tests/kernel/layout-partial-zone.sh).
 */
static double best_overprovision(uint32_t usable, uint32_t segs_per_sec)
{
	double candidate, end, step, best = 0, best_space = 0;

	if (usable < 256) {
		candidate = 10;
		end = 95;
		step = 5;
	} else {
		candidate = 0.01;
		end = 10;
		step = 0.01;
	}
	for (; candidate <= end; candidate += step) {
		double rsvd = reserved_for(candidate, segs_per_sec);
		double ovp = (usable - rsvd) * candidate / 100;
		double space = usable - rsvd - ovp;

		if (ovp >= 0 && best_space < space) {
			best_space = space;
			best = candidate;
		}
	}
	return best;
}

/*
 * Zoned: a section is a whole zone (32 segments for 64 MiB zones), and the
 * kernel counts its reserve in whole sections (reserved_sections() is
 * rsvd_segment_count / segs_per_sec, rounded down), which it keeps free for
 * garbage collection: writers wait for foreground GC once the free sections
 * fall to it (has_not_enough_free_secs()). The same reserve formula as
 * above, in sections rounded up so the kernel gets all of it, but the
 * ratio searched over 0.5-95% in steps of 0.5: with few sections the
 * reserve term 2 (100/r + 1) dominates, and the fine search over 0.01-10%
 * that mkfs.f2fs applies from 256 segments on would reserve 28 of 30
 * sections of a 2 GiB device with 64 MiB zones (116 MiB left for users);
 * near 30% it leaves 680 MiB with the same guarantee.
 */
static uint32_t zoned_reserved_for(double ovp, uint32_t segs_per_sec)
{
	double sections = 2 * (100 / ovp + 1) + F2FS_NR_CURSEG_TYPE;
	uint32_t whole = (uint32_t)sections;

	return (whole + (sections > whole)) * segs_per_sec;
}

static double zoned_best_overprovision(uint32_t usable, uint32_t segs_per_sec)
{
	double best = 0, best_space = 0;

	for (int half_pct = 1; half_pct <= 190; half_pct++) {
		double r = half_pct / 2.0;
		uint32_t rsvd = zoned_reserved_for(r, segs_per_sec);
		double space;

		if (rsvd >= usable)
			continue;
		space = (usable - rsvd) * (1 - r / 100);
		if (best_space < space) {
			best_space = space;
			best = r;
		}
	}
	return best;
}

int f2fs_overprovision_size(uint32_t usable, uint32_t spsec, bool zoned, double chosen,
			    struct f2fs_overprovision *o, struct f2fs_error *err)
{
	double r = chosen > 0 ? chosen :
		   zoned ? zoned_best_overprovision(usable, spsec) :
		   best_overprovision(usable, spsec);

	if (r <= 0 && zoned)
		return f2fs_fail(err, -F2FS_E_TOO_SMALL,
				 "device too small for zoned F2FS: %u sections of %u MiB in the main area; the six logs and the GC reserve need at least %u",
				 usable / spsec, spsec * 2, zoned_reserved_for(95, 1) + 1);
	if (r <= 0)
		return f2fs_fail(err, -F2FS_E_TOO_SMALL,
				 "device too small: no overprovision ratio leaves room for data");
	o->ratio = r;
	o->rsvd_segments = zoned ? zoned_reserved_for(r, spsec) : (uint32_t)reserved_for(r, spsec);
	if (usable < F2FS_NR_CURSEG_TYPE || usable - F2FS_NR_CURSEG_TYPE < o->rsvd_segments) {
		/* a ratio the user chose is what does not fit, not the device */
		if (chosen > 0)
			return f2fs_fail(err, -F2FS_E_BAD_OPTION,
					 "-o %g: overprovision ratio too small for this device: it needs %u reserved segments, more than the %u main segments",
					 r, o->rsvd_segments, usable);
		return f2fs_fail(err, -F2FS_E_TOO_SMALL,
				 "device too small for %g%% overprovision: %u main segments, %u reserved",
				 r, usable, o->rsvd_segments);
	}
	o->ovp_segments = (uint32_t)((usable - o->rsvd_segments) * r / 100) + o->rsvd_segments;
	if (o->ovp_segments >= usable)
		return f2fs_fail(err, -F2FS_E_BAD_OPTION, "-o %g leaves no space for users", r);
	o->user_block_count = (uint64_t)(usable - o->ovp_segments) * F2FS_BLOCKS_PER_SEG;
	return 0;
}

static int size_overprovision(const struct f2fs_layout_params *p,
			      struct f2fs_layout *l, struct f2fs_error *err)
{
	struct f2fs_overprovision o;
	int ret = f2fs_overprovision_size(l->segment_count_main,
					  (uint32_t)DIV_UP(l->segment_count_main, l->section_count),
					  l->zoned, p->overprovision, &o, err);

	if (ret)
		return ret;
	l->overprovision = o.ratio;
	l->rsvd_segments = o.rsvd_segments;
	l->ovp_segments = o.ovp_segments;
	l->user_block_count = o.user_block_count;
	return 0;
}

/*
 * Spread the six logs: by default nodes low and data from a quarter and a
 * half of the device; with heap allocation data low and nodes at the top.
 */
static void place_current_segments(const struct f2fs_layout_params *p,
				   struct f2fs_layout *l)
{
	uint32_t z = l->segs_per_zone, *c = l->cur_seg;
	uint32_t zones = l->segment_count_main / z;

	if (p->heap && !l->zoned) {
		c[F2FS_SEG_HOT_NODE] = (zones - 1) * z + (l->secs_per_zone - 1) * l->segs_per_sec;
		c[F2FS_SEG_WARM_NODE] = c[F2FS_SEG_HOT_NODE] - z;
		c[F2FS_SEG_COLD_NODE] = c[F2FS_SEG_WARM_NODE] - z;
		c[F2FS_SEG_HOT_DATA] = c[F2FS_SEG_COLD_NODE] - z;
		c[F2FS_SEG_COLD_DATA] = 0;
		c[F2FS_SEG_WARM_DATA] = z;
		return;
	}
	c[F2FS_SEG_HOT_NODE] = 0;
	c[F2FS_SEG_WARM_NODE] = z;
	c[F2FS_SEG_COLD_NODE] = 2 * z;
	c[F2FS_SEG_HOT_DATA] = 3 * z;
	c[F2FS_SEG_COLD_DATA] = zones / 4 >= 1 ? (zones / 4 - 1) * z : 0;
	if (c[F2FS_SEG_COLD_DATA] < c[F2FS_SEG_HOT_DATA] + z)
		c[F2FS_SEG_COLD_DATA] = c[F2FS_SEG_HOT_DATA] + z;
	c[F2FS_SEG_WARM_DATA] = zones / 2 >= 1 ? (zones / 2 - 1) * z : 0;
	if (c[F2FS_SEG_WARM_DATA] < c[F2FS_SEG_COLD_DATA] + z)
		c[F2FS_SEG_WARM_DATA] = c[F2FS_SEG_COLD_DATA] + z;
}

uint32_t f2fs_layout_nat_blocks(const struct f2fs_layout *l)
{
	return l->segment_count_nat / 2 * F2FS_BLOCKS_PER_SEG;
}

static void size_nat_bits(struct f2fs_layout *l)
{
	uint32_t bytes = f2fs_layout_nat_blocks(l) / 8;
	uint32_t n = DIV_UP(2 * bytes + F2FS_NAT_BITS_HEADER_SIZE, F2FS_BLKSIZE);
	/* header, payload, data summary, three node summaries, footer */
	uint32_t pack = 6 + l->cp_payload;

	l->nat_bits_blocks = pack <= F2FS_BLOCKS_PER_SEG - n ? n : 0;
}

int f2fs_layout_compute(const struct f2fs_layout_params *p,
			struct f2fs_layout *l, struct f2fs_error *err)
{
	int ret;

	*l = (struct f2fs_layout){ 0 };
	ret = check_params(p, err);
	if (ret)
		return ret;
	set_units(p, l);
	ret = size_devices(p, l, err);
	if (!ret)
		ret = size_areas(l, err);
	if (!ret)
		ret = size_overprovision(p, l, err);
	if (ret)
		return ret;
	place_current_segments(p, l);
	size_nat_bits(l);
	return 0;
}

uint64_t f2fs_layout_min_bytes(const struct f2fs_layout_params *p)
{
	struct f2fs_layout_params q = *p;
	struct f2fs_layout *l = malloc(sizeof(*l));
	struct f2fs_error e = { 0 };
	uint64_t lo = 0, hi = 1ull << 40;   /* in bytes; 1 TiB lays out */

	if (!l)
		return 0;
	q.dev_bytes[0] = hi;
	if (f2fs_layout_compute(&q, l, &e)) {
		free(l);
		return 0;
	}
	/* the smallest whole number of segments that lays out: a larger
	 * device only adds segments to the main area */
	while (hi - lo > SEG_BYTES) {
		uint64_t mid = lo + (hi - lo) / 2 / SEG_BYTES * SEG_BYTES;

		q.dev_bytes[0] = mid;
		if (f2fs_layout_compute(&q, l, &e))
			lo = mid;
		else
			hi = mid;
	}
	free(l);
	return hi;
}
