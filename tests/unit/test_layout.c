/*
 * f2fs_layout_compute: the worked examples (read back from superblocks and
 * checkpoints written by mkfs.f2fs 1.15), a sweep of sizes checking the
 * invariants every layout must keep, size limits, multiple devices, zoned
 * devices and bad parameters.
 */
#include <check.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/format/layout.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)
#define TiB (1ull << 40)
#define SEG 512u

static struct f2fs_layout_params params(uint64_t bytes, uint32_t s, uint32_t z, double o)
{
	struct f2fs_layout_params p;

	memset(&p, 0, sizeof(p));
	p.ndevs = 1;
	p.dev_bytes[0] = bytes;
	p.sector_size = 512;
	p.segs_per_sec = s;
	p.secs_per_zone = z;
	p.overprovision = o;
	return p;
}

/* Compute a layout that must succeed. */
static void compute_ok(const struct f2fs_layout_params *p, struct f2fs_layout *l)
{
	struct f2fs_error err;

	memset(&err, 0, sizeof(err));
	ck_assert_msg(f2fs_layout_compute(p, l, &err) == 0,
		      "layout of %llu bytes failed: %s",
		      (unsigned long long)p->dev_bytes[0], err.msg);
}

/* ---- worked examples ---------------------------------------------------- */

struct example {
	const char *name;
	uint64_t bytes;
	uint32_t s, z;
	double o;
	/* expected */
	uint64_t block_count;
	uint32_t segment_count, sit, nat, ssa, main, sections;
	uint32_t seg0, sit_blk, nat_blk, ssa_blk, main_blk;
	uint32_t cp_payload, sit_bm, nat_bm;
	double ratio;
	uint32_t rsvd, ovp;
	uint64_t user_blocks;
	/* hot/warm/cold data, hot/warm/cold node (enum f2fs_seg_type order) */
	uint32_t cur[6];
	uint32_t nat_bits_blocks;
};

/*
 * The first four rows and the numbers named in the fact sheet for the
 * others come from real images ([img]); the remaining fields of the other
 * rows follow from the same sizing steps, which reproduced all ten images.
 */
static const struct example examples[] = {
	{ "1 GiB", GiB, 1, 1, 0,
	  262144, 511, 2, 4, 1, 502, 502,
	  512, 1536, 2560, 4608, 5120, 0, 64, 128, 6.36, 39, 68, 222208,
	  { 3, 250, 124, 0, 1, 2 }, 1 },
	{ "64 GiB", 64 * GiB, 1, 1, 0,
	  16777216, 32767, 4, 116, 64, 32581, 32581,
	  512, 1536, 3584, 62976, 95744, 0, 128, 3712, 0.78, 264, 516, 16417280,
	  { 3, 16289, 8144, 0, 1, 2 }, 2 },
	{ "1 TiB", TiB, 1, 1, 0,
	  268435456, 524287, 38, 82, 1024, 523141, 523141,
	  512, 1536, 20992, 62976, 587264, 0, 1216, 2624, 0.20, 1007, 2051, 266798080,
	  { 3, 261569, 130784, 0, 1, 2 }, 2 },
	{ "4 TiB", 4 * TiB, 1, 1, 0,
	  1073741824, 2097151, 150, 120, 4096, 2092783, 2092783,
	  512, 1536, 78336, 139776, 2236928, 2, 4800, 3840, 0.10, 2008, 4098, 1069406720,
	  { 3, 1046390, 523194, 0, 1, 2 }, 2 },
	{ "100 MiB", 100 * MiB, 1, 1, 0,
	  25600, 49, 2, 2, 1, 42, 42,
	  512, 1536, 2560, 3584, 4096, 0, 64, 64, 25, 16, 22, 10240,
	  { 3, 20, 9, 0, 1, 2 }, 1 },
	{ "60 MiB", 60 * MiB, 1, 1, 0,
	  15360, 29, 2, 2, 1, 22, 22,
	  512, 1536, 2560, 3584, 4096, 0, 64, 64, 40, 13, 16, 3072,
	  { 3, 10, 4, 0, 1, 2 }, 1 },
	{ "1 GiB -s 4 -z 2", GiB, 4, 2, 0,
	  262144, 504, 2, 4, 8, 488, 122,
	  4096, 5120, 6144, 8192, 12288, 0, 64, 128, 10, 112, 149, 173568,
	  { 24, 232, 112, 0, 8, 16 }, 1 },
	{ "3100 MiB -s 2 -z 3", 3100 * MiB, 2, 3, 0,
	  793600, 1542, 2, 8, 6, 1524, 762,
	  3072, 4096, 5120, 9216, 12288, 0, 64, 256, 5.15, 93, 166, 695296,
	  { 18, 756, 372, 0, 6, 12 }, 1 },
	{ "64 GiB -s 8 -z 4", 64 * GiB, 8, 4, 0,
	  16777216, 32736, 4, 116, 70, 32544, 4068,
	  16384, 17408, 19456, 78848, 114688, 0, 128, 3712, 2.22, 784, 1489, 15900160,
	  { 96, 16224, 8096, 0, 32, 64 }, 2 },
	{ "1 GiB -o 5", GiB, 1, 1, 5,
	  262144, 511, 2, 4, 1, 502, 502,
	  512, 1536, 2560, 4608, 5120, 0, 64, 128, 5, 48, 70, 221184,
	  { 3, 250, 124, 0, 1, 2 }, 1 },
};

#define NEXAMPLES (sizeof(examples) / sizeof(examples[0]))

START_TEST(test_example)
{
	const struct example *e = &examples[_i];
	struct f2fs_layout_params p = params(e->bytes, e->s, e->z, e->o);
	struct f2fs_layout l;

	compute_ok(&p, &l);
#define EQ(field, want) \
	ck_assert_msg((uint64_t)(field) == (uint64_t)(want), "%s: %s = %llu, expected %llu", \
		      e->name, #field, (unsigned long long)(field), (unsigned long long)(want))
	EQ(l.log_sectorsize, 9);
	EQ(l.log_sectors_per_block, 3);
	EQ(l.segs_per_sec, e->s);
	EQ(l.secs_per_zone, e->z);
	EQ(l.segs_per_zone, e->s * e->z);
	EQ(l.block_count, e->block_count);
	EQ(l.segment_count, e->segment_count);
	EQ(l.segment_count_ckpt, 2);
	EQ(l.segment_count_sit, e->sit);
	EQ(l.segment_count_nat, e->nat);
	EQ(l.segment_count_ssa, e->ssa);
	EQ(l.segment_count_main, e->main);
	EQ(l.section_count, e->sections);
	EQ(l.segment0_blkaddr, e->seg0);
	EQ(l.cp_blkaddr, e->seg0);
	EQ(l.sit_blkaddr, e->sit_blk);
	EQ(l.nat_blkaddr, e->nat_blk);
	EQ(l.ssa_blkaddr, e->ssa_blk);
	EQ(l.main_blkaddr, e->main_blk);
	EQ(l.cp_payload, e->cp_payload);
	EQ(l.sit_bitmap_bytes, e->sit_bm);
	EQ(l.nat_bitmap_bytes, e->nat_bm);
	EQ(l.rsvd_segments, e->rsvd);
	EQ(l.ovp_segments, e->ovp);
	EQ(l.user_block_count, e->user_blocks);
	EQ(l.nat_bits_blocks, e->nat_bits_blocks);
	EQ(l.large_nat_bitmap, 0);
	EQ(l.zoned, 0);
	EQ(l.ndevs, 1);
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++)
		ck_assert_msg(l.cur_seg[t] == e->cur[t], "%s: cur_seg[%d] = %u, expected %u",
			      e->name, t, l.cur_seg[t], e->cur[t]);
	ck_assert_msg(fabs(l.overprovision - e->ratio) < 0.005,
		      "%s: overprovision %f, expected %f", e->name, l.overprovision, e->ratio);
	/* the free count the checkpoint gets: main - 6 (496 on 1 GiB) */
	if (e->bytes == GiB && e->s == 1 && e->o == 0)
		EQ(l.segment_count_main - 6, 496);
	EQ(f2fs_layout_nat_blocks(&l), e->nat / 2 * SEG);
#undef EQ
}
END_TEST

START_TEST(test_example_ratio_exact)
{
	/* the search lands on the same double mkfs prints with %.3f */
	struct f2fs_layout_params p = params(GiB, 1, 1, 0);
	struct f2fs_layout l;
	char buf[32];

	compute_ok(&p, &l);
	snprintf(buf, sizeof(buf), "%.3f", l.overprovision);
	ck_assert_str_eq(buf, "6.360");
	p = params(4 * TiB, 1, 1, 0);
	compute_ok(&p, &l);
	snprintf(buf, sizeof(buf), "%.3f", l.overprovision);
	ck_assert_str_eq(buf, "0.100");
}
END_TEST

/* ---- invariants over a sweep ------------------------------------------- */

static void check_invariants(const struct f2fs_layout_params *p, const struct f2fs_layout *l)
{
	uint64_t bytes = p->dev_bytes[0];
	uint32_t z = l->segs_per_zone;
	uint64_t end = (uint64_t)l->segment0_blkaddr + (uint64_t)l->segment_count * SEG;
	uint32_t pack = 6 + l->cp_payload;

#define CK(cond) ck_assert_msg(cond, "%llu bytes (-s %u -z %u): %s", \
			       (unsigned long long)bytes, l->segs_per_sec, l->secs_per_zone, #cond)
	CK(l->segs_per_zone == l->segs_per_sec * l->secs_per_zone);
	CK(l->block_count == bytes / F2FS_BLKSIZE);
	CK(end <= l->block_count);
	CK(end <= (1ull << 32));
	CK(l->segment_count <= F2FS_MAX_SEGMENTS);
	CK(l->segment_count % z == 0);
	/* segment0 on the first zone boundary after the superblocks */
	CK(l->segment0_blkaddr >= 2);
	CK(l->segment0_blkaddr % (z * SEG) == 0);
	CK(l->segment0_blkaddr < 2 + z * SEG);
	/* areas are contiguous, in order */
	CK(l->cp_blkaddr == l->segment0_blkaddr);
	CK(l->segment_count_ckpt == 2);
	CK(l->sit_blkaddr == l->cp_blkaddr + 2 * SEG);
	CK(l->nat_blkaddr == l->sit_blkaddr + l->segment_count_sit * SEG);
	CK(l->ssa_blkaddr == l->nat_blkaddr + l->segment_count_nat * SEG);
	CK(l->main_blkaddr == l->ssa_blkaddr + l->segment_count_ssa * SEG);
	CK((uint64_t)l->main_blkaddr + (uint64_t)l->segment_count_main * SEG == end);
	CK(2 + l->segment_count_sit + l->segment_count_nat + l->segment_count_ssa +
	   l->segment_count_main == l->segment_count);
	/* main starts on a zone boundary, counted from segment0 */
	CK((l->main_blkaddr - l->segment0_blkaddr) % (z * SEG) == 0);
	CK(l->segment_count_main == l->section_count * l->segs_per_sec);
	CK(l->section_count % l->secs_per_zone == 0);
	/* the areas are big enough */
	CK(l->segment_count_sit >= 2 && l->segment_count_sit % 2 == 0);
	CK(l->segment_count_nat >= 2 && l->segment_count_nat % 2 == 0);
	CK((uint64_t)l->segment_count_sit / 2 * SEG * F2FS_SIT_ENTRY_PER_BLOCK >=
	   l->segment_count);
	CK((uint64_t)l->segment_count_ssa * SEG >= l->segment_count_main);
	/* version bitmaps fit in the CP block, or SIT moves to the payload */
	CK(l->sit_bitmap_bytes == l->segment_count_sit / 2 * SEG / 8);
	CK(l->nat_bitmap_bytes == l->segment_count_nat / 2 * SEG / 8);
	if (l->cp_payload == 0) {
		CK(l->sit_bitmap_bytes + l->nat_bitmap_bytes <= F2FS_CP_BITMAP_ROOM);
	} else {
		CK(l->nat_bitmap_bytes <= F2FS_CP_BITMAP_ROOM);
		CK((uint64_t)l->cp_payload * F2FS_BLKSIZE >= l->sit_bitmap_bytes);
		CK((uint64_t)(l->cp_payload - 1) * F2FS_BLKSIZE < l->sit_bitmap_bytes);
	}
	/* nat_bits fit between the pack and the end of its segment */
	CK(l->nat_bits_blocks ==
	   (2 * (f2fs_layout_nat_blocks(l) / 8) + 8 + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE);
	CK(l->nat_bits_blocks >= 1);
	CK(pack + l->nat_bits_blocks <= SEG);
	/* overprovisioning */
	CK(l->rsvd_segments > 0);
	CK(l->ovp_segments > l->rsvd_segments);
	CK(l->ovp_segments < l->segment_count_main);
	CK(l->segment_count_main - 6 >= l->rsvd_segments);
	CK(l->overprovision > 0 && l->overprovision < 100);
	CK(l->user_block_count > 0);
	CK(l->user_block_count == (uint64_t)(l->segment_count_main - l->ovp_segments) * SEG);
	/* six distinct current segments inside main, on zone starts */
	for (int i = 0; i < F2FS_NR_CURSEG_TYPE; i++) {
		CK(l->cur_seg[i] < l->segment_count_main);
		CK(l->cur_seg[i] % z == 0);
		for (int j = 0; j < i; j++)
			CK(l->cur_seg[i] / z != l->cur_seg[j] / z);
	}
	if (!p->heap) {
		uint32_t zones = l->segment_count_main / z, cd, wd;

		CK(l->cur_seg[F2FS_SEG_HOT_NODE] == 0);
		CK(l->cur_seg[F2FS_SEG_WARM_NODE] == z);
		CK(l->cur_seg[F2FS_SEG_COLD_NODE] == 2 * z);
		CK(l->cur_seg[F2FS_SEG_HOT_DATA] == 3 * z);
		cd = zones / 4 >= 1 ? (zones / 4 - 1) * z : 0;
		if (cd < 4 * z)
			cd = 4 * z;
		wd = zones / 2 >= 1 ? (zones / 2 - 1) * z : 0;
		if (wd < cd + z)
			wd = cd + z;
		CK(l->cur_seg[F2FS_SEG_COLD_DATA] == cd);
		CK(l->cur_seg[F2FS_SEG_WARM_DATA] == wd);
	}
	CK(l->ndevs == 1);
	CK(l->devs[0].total_segments == l->segment_count);
	CK(l->devs[0].start_blkaddr == 0);
	CK(l->devs[0].end_blkaddr == end - 1);
#undef CK
}

START_TEST(test_sweep)
{
	static const uint32_t sz[][2] = { { 1, 1 }, { 2, 1 }, { 4, 2 }, { 2, 3 }, { 1, 4 } };
	int n = 0;

	for (size_t k = 0; k < sizeof(sz) / sizeof(sz[0]); k++) {
		uint32_t s = sz[k][0], z = sz[k][1];

		/* powers of two and odd sizes around them, 64 MiB .. 16 TiB */
		for (uint64_t base = 64 * MiB * s * z; base <= 16 * TiB; base *= 2) {
			static const int64_t deltas[] = { 0, -4096, 4095, 3 * 1048576 + 512,
							  -7 * 1048576 - 1024 };

			for (size_t d = 0; d < sizeof(deltas) / sizeof(deltas[0]); d++) {
				uint64_t bytes = base + (uint64_t)deltas[d];
				struct f2fs_layout_params p = params(bytes, s, z, 0);
				struct f2fs_layout l;

				if (bytes > 16 * TiB)
					continue;
				if (k > 0 && d > 2)
					continue;   /* keep the run short */
				compute_ok(&p, &l);
				check_invariants(&p, &l);
				n++;
			}
		}
	}
	/* a spread of odd sizes between 52 MiB and 64 GiB */
	for (uint64_t bytes = 52 * MiB; bytes < 64 * GiB; bytes = bytes * 13 / 11 + 12345) {
		struct f2fs_layout_params p = params(bytes, 1, 1, 0);
		struct f2fs_layout l;

		compute_ok(&p, &l);
		check_invariants(&p, &l);
		p.heap = true;
		compute_ok(&p, &l);
		check_invariants(&p, &l);
		n++;
	}
	ck_assert_int_ge(n, 200);
}
END_TEST

START_TEST(test_every_small_size)
{
	/* every whole-segment size from the minimum to 1 GiB works */
	for (uint64_t bytes = 52 * MiB; bytes <= GiB; bytes += 2 * MiB) {
		struct f2fs_layout_params p = params(bytes, 1, 1, 0);
		struct f2fs_layout l;

		compute_ok(&p, &l);
		check_invariants(&p, &l);
	}
}
END_TEST

START_TEST(test_heap)
{
	struct f2fs_layout_params p = params(GiB, 1, 1, 0);
	struct f2fs_layout l;

	p.heap = true;
	compute_ok(&p, &l);
	check_invariants(&p, &l);
	/* data low, nodes at the top of main */
	ck_assert_uint_eq(l.cur_seg[F2FS_SEG_COLD_DATA], 0);
	ck_assert_uint_eq(l.cur_seg[F2FS_SEG_WARM_DATA], 1);
	ck_assert_uint_eq(l.cur_seg[F2FS_SEG_HOT_NODE], 501);
	ck_assert_uint_eq(l.cur_seg[F2FS_SEG_WARM_NODE], 500);
	ck_assert_uint_eq(l.cur_seg[F2FS_SEG_COLD_NODE], 499);
	ck_assert_uint_eq(l.cur_seg[F2FS_SEG_HOT_DATA], 498);
	/* the areas do not move */
	ck_assert_uint_eq(l.main_blkaddr, 5120);
	ck_assert_uint_eq(l.rsvd_segments, 39);
}
END_TEST

/* ---- limits ------------------------------------------------------------- */

static int compute_err(const struct f2fs_layout_params *p, struct f2fs_error *err)
{
	struct f2fs_layout l;

	memset(err, 0, sizeof(*err));
	return f2fs_layout_compute(p, &l, err);
}

START_TEST(test_minimum)
{
	/* 2 MiB for the superblocks (to segment0) + 25 segments is the least
	 * mkfs.f2fs 1.15 accepts with default options */
	struct f2fs_layout_params p = params(52 * MiB, 1, 1, 0);
	struct f2fs_layout l;
	struct f2fs_error err;

	compute_ok(&p, &l);
	check_invariants(&p, &l);
	ck_assert_uint_eq(l.segment_count, 25);
	ck_assert_uint_eq(l.segment_count_main, 18);

	p = params(50 * MiB, 1, 1, 0);   /* one segment less */
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_TOO_SMALL);
	ck_assert_int_eq(err.code, -F2FS_E_TOO_SMALL);
	ck_assert_msg(strlen(err.msg) > 0, "no message");
	p = params(52 * MiB - 4096, 1, 1, 0);   /* just short of it */
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_TOO_SMALL);
}
END_TEST

START_TEST(test_minimum_zoned_sections)
{
	/* with bigger zones the minimum grows; the sizing model gives these
	 * smallest whole-segment sizes for each -s/-z */
	static const struct { uint32_t s, z; uint64_t min; } m[] = {
		{ 2, 1, 76 * MiB }, { 4, 2, 144 * MiB }, { 2, 3, 120 * MiB },
		{ 8, 4, 576 * MiB }, { 1, 4, 80 * MiB },
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		struct f2fs_layout_params p = params(m[i].min, m[i].s, m[i].z, 0);
		struct f2fs_layout l;
		struct f2fs_error err;

		compute_ok(&p, &l);
		check_invariants(&p, &l);
		p = params(m[i].min - 2 * MiB, m[i].s, m[i].z, 0);
		ck_assert_msg(compute_err(&p, &err) == -F2FS_E_TOO_SMALL,
			      "-s %u -z %u: %llu bytes accepted", m[i].s, m[i].z,
			      (unsigned long long)p.dev_bytes[0]);
	}
}
END_TEST

START_TEST(test_tiny)
{
	static const uint64_t sizes[] = { 0, 4096, 8192, 2 * MiB, 4 * MiB, 17 * MiB, 30 * MiB };
	struct f2fs_error err;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct f2fs_layout_params p = params(sizes[i], 1, 1, 0);

		ck_assert_msg(compute_err(&p, &err) == -F2FS_E_TOO_SMALL,
			      "%llu bytes: %d", (unsigned long long)sizes[i], err.code);
	}
}
END_TEST

START_TEST(test_maximum)
{
	struct f2fs_layout_params p = params(16 * TiB, 1, 1, 0);
	struct f2fs_layout l;
	struct f2fs_error err;

	compute_ok(&p, &l);
	check_invariants(&p, &l);
	ck_assert_uint_eq(l.segment_count, F2FS_MAX_SEGMENTS - 1);
	ck_assert_uint_eq(l.block_count, 1ull << 32);
	ck_assert_uint_gt(l.cp_payload, 0);

	p = params(16 * TiB + 2 * MiB, 1, 1, 0);
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_TOO_LARGE);
	ck_assert_ptr_nonnull(strstr(err.msg, "16 TiB"));
	p = params(64 * TiB, 1, 1, 0);
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_TOO_LARGE);
	/* a tail smaller than a segment beyond 16 TiB is not addressed */
	p = params(16 * TiB + 2 * MiB - 4096, 1, 1, 0);
	compute_ok(&p, &l);
	ck_assert_uint_eq(l.segment_count, F2FS_MAX_SEGMENTS - 1);
}
END_TEST

/* ---- multiple devices ---------------------------------------------------- */

static void check_devices(const struct f2fs_layout_params *p, const struct f2fs_layout *l)
{
	uint64_t sum = 0, bytes = 0;

	ck_assert_uint_eq(l->ndevs, p->ndevs);
	for (uint32_t i = 0; i < l->ndevs; i++) {
		const struct f2fs_layout_dev *d = &l->devs[i];
		uint64_t start = i == 0 ? l->segment0_blkaddr : d->start_blkaddr;
		uint64_t avail = i == 0 ? p->dev_bytes[0] - (uint64_t)l->segment0_blkaddr * 4096
					: p->dev_bytes[i];

		ck_assert_uint_eq(d->total_segments % l->segs_per_zone, 0);
		ck_assert_uint_gt(d->total_segments, 0);
		/* as many whole zones as the device holds */
		ck_assert_uint_eq(d->total_segments,
				  avail / F2FS_SEGMENT_BYTES / l->segs_per_zone * l->segs_per_zone);
		if (i == 0)
			ck_assert_uint_eq(d->start_blkaddr, 0);
		else
			ck_assert_uint_eq(d->start_blkaddr, l->devs[i - 1].end_blkaddr + 1);
		ck_assert_uint_eq(d->end_blkaddr, start + (uint64_t)d->total_segments * SEG - 1);
		/* a device never claims blocks beyond its end */
		ck_assert_uint_le((d->end_blkaddr - d->start_blkaddr + 1) * 4096, p->dev_bytes[i]);
		sum += d->total_segments;
		bytes += p->dev_bytes[i];
	}
	ck_assert_uint_eq(sum, l->segment_count);
	ck_assert_uint_eq(l->block_count, bytes / 4096);
	ck_assert_uint_eq(l->devs[l->ndevs - 1].end_blkaddr + 1,
			  (uint64_t)l->main_blkaddr + (uint64_t)l->segment_count_main * SEG);
}

START_TEST(test_multi_device)
{
	struct f2fs_layout_params p = params(GiB, 1, 1, 0);
	struct f2fs_layout l;

	p.ndevs = 3;
	p.dev_bytes[1] = 512 * MiB;
	p.dev_bytes[2] = 301 * MiB + 4096;   /* not a whole number of segments */
	compute_ok(&p, &l);
	check_devices(&p, &l);
	ck_assert_uint_eq(l.devs[0].total_segments, 511);
	ck_assert_uint_eq(l.devs[0].end_blkaddr, 512 + 511 * 512 - 1);
	ck_assert_uint_eq(l.devs[1].start_blkaddr, 512 * 512);
	ck_assert_uint_eq(l.devs[1].total_segments, 256);
	ck_assert_uint_eq(l.devs[2].total_segments, 150);
	ck_assert_uint_eq(l.segment_count, 511 + 256 + 150);
	ck_assert_uint_eq(l.main_blkaddr + (uint64_t)l.segment_count_main * SEG,
			  512 + (511 + 256 + 150) * 512);
}
END_TEST

START_TEST(test_multi_device_zones)
{
	struct f2fs_layout_params p = params(GiB + 3 * MiB, 2, 2, 0);
	struct f2fs_layout l;

	p.ndevs = 4;
	p.dev_bytes[1] = 256 * MiB + 6 * MiB;   /* 131 segments: 32 zones of 4 */
	p.dev_bytes[2] = 64 * MiB;
	p.dev_bytes[3] = 2 * GiB + 5;
	compute_ok(&p, &l);
	check_devices(&p, &l);
	ck_assert_uint_eq(l.devs[1].total_segments, 128);
	ck_assert_uint_eq(l.devs[2].total_segments, 32);
	ck_assert_uint_eq(l.devs[3].total_segments, 1024);
	/* segment0 on an 8 MiB zone: block 2048 */
	ck_assert_uint_eq(l.segment0_blkaddr, 2048);
	ck_assert_uint_eq((l.main_blkaddr - l.segment0_blkaddr) % (4 * SEG), 0);
}
END_TEST

START_TEST(test_multi_device_limits)
{
	struct f2fs_layout_params p = params(GiB, 1, 1, 0);
	struct f2fs_layout l;
	struct f2fs_error err;

	/* a device smaller than a segment holds nothing */
	p.ndevs = 2;
	p.dev_bytes[1] = MiB;
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_TOO_SMALL);
	ck_assert_ptr_nonnull(strstr(err.msg, "device 2"));
	/* together beyond 16 TiB */
	p.ndevs = 3;
	p.dev_bytes[1] = 8 * TiB;
	p.dev_bytes[2] = 8 * TiB;
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_TOO_LARGE);
	/* exactly up to the limit is fine */
	p.ndevs = 2;
	p.dev_bytes[0] = 8 * TiB;
	p.dev_bytes[1] = 8 * TiB;
	compute_ok(&p, &l);
	check_devices(&p, &l);
	ck_assert_uint_le((uint64_t)l.devs[1].end_blkaddr, 0xFFFFFFFFull);
	/* device counts */
	p.ndevs = 0;
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_BAD_OPTION);
	p.ndevs = 9;
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_BAD_OPTION);
}
END_TEST

/* ---- zoned --------------------------------------------------------------- */

static void check_zoned(uint64_t bytes, uint64_t zone)
{
	struct f2fs_layout_params p = params(bytes, 1, 1, 0);
	struct f2fs_layout l;
	uint32_t zblocks = (uint32_t)(zone / 4096), spz = (uint32_t)(zone / (2 * MiB));

	p.zone_bytes = zone;
	compute_ok(&p, &l);
	ck_assert(l.zoned);
	ck_assert_uint_eq(l.segs_per_sec, spz);
	ck_assert_uint_eq(l.secs_per_zone, 1);
	ck_assert_uint_eq(l.segs_per_zone, spz);
	ck_assert_uint_eq(l.segment0_blkaddr, zblocks);
	ck_assert_uint_eq(l.segment0_blkaddr % zblocks, 0);
	ck_assert_uint_eq(l.main_blkaddr % zblocks, 0);
	ck_assert_uint_eq(l.segment_count % spz, 0);
	ck_assert_uint_eq(l.segment_count_main % spz, 0);
	ck_assert_uint_eq(l.section_count * spz, l.segment_count_main);
	for (int i = 0; i < F2FS_NR_CURSEG_TYPE; i++) {
		ck_assert_uint_eq(l.cur_seg[i] % spz, 0);
		ck_assert_uint_lt(l.cur_seg[i], l.segment_count_main);
		for (int j = 0; j < i; j++)
			ck_assert_uint_ne(l.cur_seg[i], l.cur_seg[j]);
	}
	/* a section is the zone: the reserve is counted in whole zones */
	ck_assert_uint_ge(l.rsvd_segments, 8 * spz);
	ck_assert_uint_gt(l.ovp_segments, l.rsvd_segments);
	ck_assert_uint_gt(l.user_block_count, 0);
	ck_assert_uint_eq(l.main_blkaddr + (uint64_t)l.segment_count_main * SEG,
			  (uint64_t)l.segment0_blkaddr + (uint64_t)l.segment_count * SEG);
}

START_TEST(test_zoned)
{
	check_zoned(32 * GiB, 256 * MiB);
	check_zoned(8 * GiB, 64 * MiB);
	check_zoned(100 * GiB + 5 * MiB, 128 * MiB);
	check_zoned(GiB, 2 * MiB);
}
END_TEST

/*
 * The reserve of a zoned layout is whole sections (the kernel rounds
 * rsvd_segment_count down to sections), and the ratio search must not
 * give most of a device with few large zones to the reserve: 2 GiB with
 * 64 MiB zones kept 116 MiB for users with the 0.01-10% search.
 */
START_TEST(test_zoned_reserve_sections)
{
	static const struct { uint64_t bytes, zone, min_user; } c[] = {
		{ 2 * GiB, 64 * MiB, 600 * MiB },
		{ GiB, 16 * MiB, 520 * MiB },
		{ 4 * GiB, 128 * MiB, 1300 * MiB },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct f2fs_layout_params p = params(c[i].bytes, 1, 1, 0);
		struct f2fs_layout l;

		p.zone_bytes = c[i].zone;
		compute_ok(&p, &l);
		ck_assert_uint_eq(l.rsvd_segments % l.segs_per_sec, 0);
		/* six logs and a GC reserve of whole sections, below ovp */
		ck_assert_uint_ge(l.rsvd_segments / l.segs_per_sec, F2FS_NR_CURSEG_TYPE + 2);
		ck_assert_uint_gt(l.ovp_segments, l.rsvd_segments);
		ck_assert_msg(l.user_block_count * 4096 >= c[i].min_user,
			      "%llu MiB zones of %llu: %llu MiB for users",
			      (unsigned long long)(c[i].zone >> 20), (unsigned long long)(c[i].bytes >> 20),
			      (unsigned long long)(l.user_block_count * 4096 >> 20));
	}
}
END_TEST

/* Seven sections of 256 MiB cannot hold six logs and a GC reserve. */
START_TEST(test_zoned_too_few_sections)
{
	struct f2fs_layout_params p = params(2 * GiB, 1, 1, 0);
	struct f2fs_error err;

	p.zone_bytes = 256 * MiB;
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_TOO_SMALL);
	ck_assert_msg(strstr(err.msg, "too small") != NULL, "%s", err.msg);
}
END_TEST

START_TEST(test_zoned_heap_ignored)
{
	struct f2fs_layout_params p = params(32 * GiB, 1, 1, 0);
	struct f2fs_layout l;

	p.zone_bytes = 256 * MiB;
	p.heap = true;
	compute_ok(&p, &l);
	ck_assert_uint_eq(l.cur_seg[F2FS_SEG_HOT_NODE], 0);
	ck_assert_uint_eq(l.cur_seg[F2FS_SEG_WARM_NODE], 128);
}
END_TEST

START_TEST(test_zoned_bad_zone)
{
	static const uint64_t bad[] = { 3 * MiB, 6 * MiB, 96 * MiB, 1 * MiB, 2 * MiB + 4096 };
	struct f2fs_error err;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct f2fs_layout_params p = params(32 * GiB, 1, 1, 0);

		p.zone_bytes = bad[i];
		ck_assert_msg(compute_err(&p, &err) == -F2FS_E_BAD_OPTION,
			      "zone %llu accepted", (unsigned long long)bad[i]);
		ck_assert_ptr_nonnull(strstr(err.msg, "zone"));
	}
}
END_TEST

START_TEST(test_zoned_bad_overprovision)
{
	struct f2fs_layout_params p = params(32 * GiB, 1, 1, 0);
	struct f2fs_error err;

	p.zone_bytes = 256 * MiB;
	p.overprovision = -5;
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_BAD_OPTION);
	ck_assert_ptr_nonnull(strstr(err.msg, "-o"));
}
END_TEST

/* ---- parameters ---------------------------------------------------------- */

START_TEST(test_sector_sizes)
{
	static const uint32_t good[] = { 512, 1024, 2048, 4096 };
	static const uint32_t bad[] = { 0, 256, 1000, 8192, 513 };
	struct f2fs_error err;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct f2fs_layout_params p = params(GiB, 1, 1, 0);
		struct f2fs_layout l;

		p.sector_size = good[i];
		compute_ok(&p, &l);
		ck_assert_uint_eq(1u << l.log_sectorsize, good[i]);
		ck_assert_uint_eq(l.log_sectorsize + l.log_sectors_per_block, 12);
		ck_assert_uint_eq(l.main_blkaddr, 5120);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct f2fs_layout_params p = params(GiB, 1, 1, 0);

		p.sector_size = bad[i];
		ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_BAD_OPTION);
		ck_assert_ptr_nonnull(strstr(err.msg, "sector size"));
	}
}
END_TEST

START_TEST(test_bad_options)
{
	struct f2fs_layout_params p;
	struct f2fs_error err;

	p = params(GiB, 0, 1, 0);
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_BAD_OPTION);
	ck_assert_ptr_nonnull(strstr(err.msg, "-s"));
	p = params(GiB, 1, 0, 0);
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_BAD_OPTION);
	ck_assert_ptr_nonnull(strstr(err.msg, "-z"));
	p = params(GiB, 1, 1, 100);
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_BAD_OPTION);
	ck_assert_ptr_nonnull(strstr(err.msg, "-o"));
	p = params(GiB, 1, 1, 150);
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_BAD_OPTION);
	p = params(GiB, 1, 1, -1);
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_BAD_OPTION);
	ck_assert_ptr_nonnull(strstr(err.msg, "-o"));
	/* a huge -s -z product */
	p = params(GiB, 4096, 4096, 0);
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_BAD_OPTION);
	/* -s bigger than the device: too small, not a crash */
	p = params(GiB, 1024, 1, 0);
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_TOO_SMALL);
}
END_TEST

START_TEST(test_overprovision_option)
{
	struct f2fs_layout_params p = params(GiB, 1, 1, 20);
	struct f2fs_layout l;
	struct f2fs_error err;

	compute_ok(&p, &l);
	/* rsvd = (2*(100/20+1)+6) = 18; ovp = (502-18)*0.2 + 18 = 96 + 18 */
	ck_assert_uint_eq(l.rsvd_segments, 18);
	ck_assert_uint_eq(l.ovp_segments, 114);
	ck_assert_uint_eq(l.user_block_count, (502 - 114) * 512);
	ck_assert(fabs(l.overprovision - 20) < 1e-9);
	/* so small a ratio that the reserve exceeds main: an option error */
	p = params(GiB, 1, 1, 0.1);
	ck_assert_int_eq(compute_err(&p, &err), -F2FS_E_BAD_OPTION);
	ck_assert_ptr_nonnull(strstr(err.msg, "overprovision"));
	/* 99.5% on 100 MiB: rsvd 10, ovp 10 + 31, one segment left for users */
	p = params(100 * MiB, 1, 1, 99.5);
	compute_ok(&p, &l);
	ck_assert_uint_eq(l.rsvd_segments, 10);
	ck_assert_uint_eq(l.ovp_segments, 41);
	ck_assert_uint_eq(l.user_block_count, 512);
}
END_TEST

START_TEST(test_large_nat_bitmap)
{
	struct f2fs_layout_params p = params(64 * GiB, 1, 1, 0);
	struct f2fs_layout l, plain;

	compute_ok(&p, &plain);
	p.large_nat_bitmap = true;
	compute_ok(&p, &l);
	ck_assert(l.large_nat_bitmap);
	/* areas stay contiguous and the bitmaps fit in CP block + payload */
	ck_assert_uint_eq(l.nat_blkaddr, l.sit_blkaddr + l.segment_count_sit * SEG);
	ck_assert_uint_eq(l.main_blkaddr, l.ssa_blkaddr + l.segment_count_ssa * SEG);
	ck_assert_uint_eq(l.main_blkaddr + (uint64_t)l.segment_count_main * SEG,
			  512 + (uint64_t)l.segment_count * SEG);
	ck_assert_uint_le(l.sit_bitmap_bytes + l.nat_bitmap_bytes,
			  4096 - 196 + (uint64_t)l.cp_payload * 4096);
	ck_assert_uint_gt(l.nat_bits_blocks, 0);
	ck_assert_uint_le(6 + l.cp_payload + l.nat_bits_blocks, SEG);
	ck_assert_uint_eq(l.segment_count, plain.segment_count);
}
END_TEST

START_TEST(test_start_sector)
{
	/* a partition at 1 MiB: segment0 is placed on a 2 MiB boundary of the
	 * disk, so it sits 1 MiB (block 256) into the partition */
	struct f2fs_layout_params p = params(GiB, 1, 1, 0);
	struct f2fs_layout l;

	p.start_sector = 2048;
	compute_ok(&p, &l);
	ck_assert_uint_eq(l.segment0_blkaddr, 256);
	ck_assert_uint_eq((l.segment0_blkaddr * 4096ull + 2048 * 512) % (2 * MiB), 0);
	ck_assert_uint_eq(l.segment_count, (GiB - MiB) / (2 * MiB));
	/* an unaligned partition start is ignored */
	p.start_sector = 7;
	compute_ok(&p, &l);
	ck_assert_uint_eq(l.segment0_blkaddr, 512);
}
END_TEST

START_TEST(test_error_cleared_layout)
{
	/* a failed call must not leave a plausible layout behind */
	struct f2fs_layout_params p = params(GiB, 0, 1, 0);
	struct f2fs_layout l;
	struct f2fs_error err;

	memset(&l, 0xAB, sizeof(l));
	ck_assert_int_lt(f2fs_layout_compute(&p, &l, &err), 0);
	ck_assert_uint_eq(l.segment_count_main, 0);
	/* and a NULL error pointer is allowed */
	ck_assert_int_eq(f2fs_layout_compute(&p, &l, NULL), -F2FS_E_BAD_OPTION);
}
END_TEST

static Suite *layout_suite(void)
{
	Suite *s = suite_create("layout");
	TCase *ex = tcase_create("examples");
	TCase *sw = tcase_create("sweep");
	TCase *lim = tcase_create("limits");
	TCase *dev = tcase_create("devices");
	TCase *opt = tcase_create("options");

	tcase_add_loop_test(ex, test_example, 0, NEXAMPLES);
	tcase_add_test(ex, test_example_ratio_exact);
	tcase_add_test(sw, test_sweep);
	tcase_add_test(sw, test_every_small_size);
	tcase_add_test(sw, test_heap);
	tcase_set_timeout(sw, 60);
	tcase_add_test(lim, test_minimum);
	tcase_add_test(lim, test_minimum_zoned_sections);
	tcase_add_test(lim, test_tiny);
	tcase_add_test(lim, test_maximum);
	tcase_add_test(dev, test_multi_device);
	tcase_add_test(dev, test_multi_device_zones);
	tcase_add_test(dev, test_multi_device_limits);
	tcase_add_test(dev, test_zoned);
	tcase_add_test(dev, test_zoned_heap_ignored);
	tcase_add_test(dev, test_zoned_reserve_sections);
	tcase_add_test(dev, test_zoned_too_few_sections);
	tcase_add_test(dev, test_zoned_bad_zone);
	tcase_add_test(opt, test_sector_sizes);
	tcase_add_test(opt, test_bad_options);
	tcase_add_test(opt, test_zoned_bad_overprovision);
	tcase_add_test(opt, test_overprovision_option);
	tcase_add_test(opt, test_large_nat_bitmap);
	tcase_add_test(opt, test_start_sector);
	tcase_add_test(opt, test_error_cleared_layout);
	suite_add_tcase(s, ex);
	suite_add_tcase(s, sw);
	suite_add_tcase(s, lim);
	suite_add_tcase(s, dev);
	suite_add_tcase(s, opt);
	return s;
}

int main(void)
{
	return unit_run(layout_suite());
}
