/*
 * Offline GC victim selection, following the kernel's f2fs_get_victim()
 * for LFS allocation (fs/f2fs/gc.c get_victim_by_default() and
 * select_policy(), Linux 6.1):
 *
 * - The map walked: with one segment per section, dirty_segmap[DIRTY]
 *   (segments with 0 < valid < 512), max_search = nr_dirty[DIRTY]; with
 *   several, dirty_secmap (sections with 0 < valid < blocks per section),
 *   max_search = its bit count. Either way a current section is absent, not
 *   skipped: __locate_dirty_segment() never adds a current segment, and
 *   init_dirty_segmap() / __locate_dirty_segment() set a section's bit only
 *   when !IS_CURSEC(). So right after mount the window counts exactly the
 *   non-current partly valid sections, one step per section whatever its
 *   size; nothing is visited and skipped (sec_usage_check() only matters
 *   for a section that became current after its bit was set, at run time).
 * - The scan starts at last_victim[gc_mode] (a segno, 0 after mount), finds
 *   the next bit at or after offset / segs_per_sec, and counts every bit it
 *   finds in nsearched until max_search, wrapping once to 0 (the second lap
 *   ends at the old last_victim). A BG search is capped at max_victim_search
 *   (default 4096); a FG one is not, nor is ATGC. Where it stops,
 *   last_victim becomes the section after the last one seen (as a segno,
 *   modulo the main area), or the one after the old start if the lap
 *   wrapped past it.
 * - greedy: cost = valid blocks. cost-benefit: u = (valid/segs)*100/512,
 *   age = 100 - 100*(mtime - min)/(max - min) (unsigned char arithmetic),
 *   cost = UINT_MAX - 100*(100-u)*age/(100+u); min/max start as the
 *   smallest section mtime and the checkpoint's elapsed_time, and widen as
 *   sections are scanned. The first strictly cheaper section wins.
 * - ATGC: every dirty section is a candidate unless "young"
 *   (dirty_max_mtime - mtime < age_threshold); candidates are visited oldest
 *   first, at most max(max_candidates, ratio% of them); cost = UINT_MAX -
 *   (age + u) with the kernel's accuracy scaling and age_weight; when none
 *   qualifies and elapsed_time < age_threshold, retry with threshold 0.
 *
 * Not modelled: the BG victim_secmap (sections a BG pass already chose),
 * pinned files, next_victim_seg of large sections, SSR, zoned devices.
 */
#include <f2fs/fs/gc.h>
#include <f2fs/util/sort.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char *f2fs_gc_policy_name(enum f2fs_gc_policy p)
{
	switch (p) {
	case F2FS_GC_GREEDY: return "greedy";
	case F2FS_GC_CB:     return "cb";
	case F2FS_GC_AT:     return "age";
	default:             return "?";
	}
}

void f2fs_gc_opts_default(struct f2fs_gc_opts *o, enum f2fs_gc_policy policy, int fg)
{
	memset(o, 0, sizeof(*o));
	o->policy = policy;
	o->fg = fg;
	o->max_search = F2FS_GC_DEF_MAX_VICTIM_SEARCH;
	o->age_threshold = F2FS_GC_DEF_AGE_THRESHOLD;
	o->candidate_ratio = F2FS_GC_DEF_CANDIDATE_RATIO;
	o->max_candidates = F2FS_GC_DEF_MAX_CANDIDATES;
	o->age_weight = F2FS_GC_DEF_AGE_WEIGHT;
}

static int sec_dirty(const struct f2fs_gc *gc, const struct f2fs_gc_sec *s)
{
	if (s->valid == 0 || s->valid >= gc->sec_blocks)
		return 0;
	/* current sections never enter dirty_segmap nor dirty_secmap */
	return !s->cur;
}

static void refresh(struct f2fs_gc *gc, uint32_t secno)
{
	const struct f2fs_gc_sec *s = &gc->sec[secno];
	int was = gc->dirty[secno], now = sec_dirty(gc, s);

	gc->dirty[secno] = (uint8_t)now;
	gc->nr_dirty += (uint32_t)now - (uint32_t)was;
}

int f2fs_gc_init(struct f2fs_gc **out, const struct f2fs_sit *sit, uint64_t elapsed_time,
		 struct f2fs_error *err)
{
	struct f2fs_gc *gc = calloc(1, sizeof(*gc));
	uint32_t spsec = sit->segs_per_sec;

	*out = NULL;
	if (!gc)
		return f2fs_fail(err, -ENOMEM, "out of memory");
	gc->nsecs = sit->nsecs;
	gc->segs_per_sec = spsec;
	gc->sec_blocks = spsec * F2FS_BLOCKS_PER_SEG;
	gc->elapsed_time = elapsed_time;
	gc->sec = calloc(gc->nsecs ? gc->nsecs : 1, sizeof(*gc->sec));
	gc->dirty = calloc(gc->nsecs ? gc->nsecs : 1, 1);
	if (!gc->sec || !gc->dirty) {
		f2fs_gc_free(gc);
		return f2fs_fail(err, -ENOMEM, "out of memory");
	}
	gc->min_mtime = UINT64_MAX;
	for (uint32_t sec = 0; sec < gc->nsecs; sec++) {
		struct f2fs_gc_sec *s = &gc->sec[sec];
		const struct f2fs_seg *seg = &sit->seg[(size_t)sec * spsec];
		uint64_t mt = 0;

		for (uint32_t k = 0; k < spsec; k++) {
			mt += seg[k].mtime;
			s->valid += seg[k].valid;
			if (seg[k].flags & F2FS_SEG_CURRENT)
				s->cur = 1;
		}
		s->mtime = mt / spsec;
		s->is_node = seg[0].type >= F2FS_SEG_HOT_NODE && seg[0].type < F2FS_NR_CURSEG_TYPE;
		if (s->mtime < gc->min_mtime)   /* init_min_max_mtime() */
			gc->min_mtime = s->mtime;
		refresh(gc, sec);
		if (s->valid == 0 && !s->cur)
			gc->nr_free++;
	}
	if (gc->nsecs == 0)
		gc->min_mtime = 0;
	gc->max_mtime = elapsed_time;
	*out = gc;
	return 0;
}

int f2fs_gc_clone(struct f2fs_gc **out, const struct f2fs_gc *gc, struct f2fs_error *err)
{
	struct f2fs_gc *c = malloc(sizeof(*c));

	*out = NULL;
	if (!c)
		return f2fs_fail(err, -ENOMEM, "out of memory");
	*c = *gc;
	c->sec = malloc((gc->nsecs ? gc->nsecs : 1) * sizeof(*c->sec));
	c->dirty = malloc(gc->nsecs ? gc->nsecs : 1);
	if (!c->sec || !c->dirty) {
		f2fs_gc_free(c);
		return f2fs_fail(err, -ENOMEM, "out of memory");
	}
	memcpy(c->sec, gc->sec, gc->nsecs * sizeof(*c->sec));
	memcpy(c->dirty, gc->dirty, gc->nsecs);
	*out = c;
	return 0;
}

void f2fs_gc_free(struct f2fs_gc *gc)
{
	if (!gc)
		return;
	free(gc->sec);
	free(gc->dirty);
	free(gc);
}

/* get_cb_cost(): updates the running min/max like the kernel. */
static uint32_t cb_cost(struct f2fs_gc *gc, uint32_t secno, struct f2fs_gc_cand *c)
{
	const struct f2fs_gc_sec *s = &gc->sec[secno];
	uint64_t mtime = s->mtime;
	unsigned char age = 0, u;
	uint32_t vblocks = s->valid / gc->segs_per_sec;

	u = (unsigned char)((vblocks * 100) >> F2FS_LOG_BLOCKS_PER_SEG);
	if (mtime < gc->min_mtime)
		gc->min_mtime = mtime;
	if (mtime > gc->max_mtime)
		gc->max_mtime = mtime;
	if (gc->max_mtime != gc->min_mtime)
		age = (unsigned char)(100 - (100 * (mtime - gc->min_mtime)) /
					    (gc->max_mtime - gc->min_mtime));
	c->age = age;
	c->u = u;
	return UINT_MAX - ((100u * (100u - u) * age) / (100u + u));
}

static int mtime_less(const void *a, const void *b, void *ctx)
{
	const struct f2fs_gc_cand *x = a, *y = b;

	(void)ctx;
	return x->mtime != y->mtime ? x->mtime < y->mtime : x->order < y->order;
}

/* atgc_lookup_victim() over the collected entries (sorted by mtime). */
static long atgc_pick(const struct f2fs_gc *gc, const struct f2fs_gc_opts *o,
		      struct f2fs_gc_cand *c, size_t n, uint64_t dmin, uint64_t dmax,
		      size_t *evaluated)
{
	uint64_t max_mtime = dmax, total, accu;
	uint32_t threshold = o->candidate_ratio * (uint32_t)n / 100;
	uint32_t min_cost = UINT_MAX, iter = 0;
	uint64_t oldest = 0;
	long best = -1;
	size_t k;

	*evaluated = 0;
	if (threshold < o->max_candidates)
		threshold = o->max_candidates;
	if (n == 0 || dmax < dmin)
		return -1;
	f2fs_sort(c, n, sizeof(*c), mtime_less, NULL);
	max_mtime += 1;
	total = max_mtime - dmin;
	accu = UINT64_MAX / total / 100;
	if (accu > 10000)
		accu = 10000;
	for (k = 0; k < n && iter < threshold; k++) {
		uint64_t age, u;
		uint32_t cost;

		if (c[k].mtime >= max_mtime || c[k].mtime < dmin) {
			c[k].cost = UINT_MAX;
			continue;
		}
		age = accu * (max_mtime - c[k].mtime) / total * o->age_weight;
		u = accu * (gc->sec_blocks - c[k].valid) / gc->sec_blocks * (100 - o->age_weight);
		cost = (uint32_t)(UINT_MAX - (age + u));
		c[k].age = age;
		c[k].u = u;
		c[k].cost = cost;
		iter++;
		if (cost < min_cost || (cost == min_cost && age > oldest)) {
			min_cost = cost;
			oldest = age;
			best = (long)k;
		}
	}
	*evaluated = k;
	return best;
}

int f2fs_gc_select(struct f2fs_gc *gc, const struct f2fs_gc_opts *o, int commit,
		   struct f2fs_gc_cand *out, size_t *n, long *victim, uint32_t *victim_secno,
		   struct f2fs_gc_scan_info *info)
{
	uint32_t spsec = gc->segs_per_sec, nsegs = gc->nsecs * spsec;
	uint32_t saved_lv[F2FS_GC_NPOLICY];
	uint64_t saved_min = gc->min_mtime, saved_max = gc->max_mtime;
	uint64_t saved_dmax = gc->dirty_max_mtime;
	struct f2fs_gc_scan_info dummy;
	int is_at = o->policy == F2FS_GC_AT;
	uint64_t threshold = o->age_threshold;
	int retried = 0;

	if (!info)
		info = &dummy;
	memcpy(saved_lv, gc->last_victim, sizeof(saved_lv));
retry:
	memset(info, 0, sizeof(*info));
	info->retried = retried;
	{
		uint32_t *lv = &gc->last_victim[o->policy];
		uint32_t last_segment = nsegs, offset = *lv, last_victim = *lv;
		uint32_t max_search = gc->nr_dirty, nsearched = 0;
		uint32_t min_cost = o->policy == F2FS_GC_GREEDY ? 2 * gc->sec_blocks : UINT_MAX;
		uint64_t dmin = UINT64_MAX;
		size_t cnt = 0;
		long best = -1;

		if (!o->fg && !is_at && o->max_search && max_search > o->max_search)
			max_search = o->max_search;
		info->start_segno = offset;
		info->max_search = max_search;
		while (max_search) {
			uint32_t unit = offset / spsec, segno, secno;

			while (unit < last_segment / spsec && !gc->dirty[unit])
				unit++;
			segno = unit * spsec;
			if (segno >= last_segment) {
				if (*lv) {
					last_segment = *lv;
					*lv = 0;
					offset = 0;
					continue;
				}
				break;
			}
			offset = segno + spsec;
			nsearched++;
			secno = unit;
			{
				struct f2fs_gc_cand c = { .secno = secno, .valid = gc->sec[secno].valid,
							  .mtime = gc->sec[secno].mtime,
							  .order = (uint32_t)cnt };

				if (is_at) {
					/* add_victim_entry() */
					if (c.mtime < gc->min_mtime)
						gc->min_mtime = c.mtime;
					if (c.mtime > gc->max_mtime)
						gc->max_mtime = c.mtime;
					if (c.mtime < dmin)
						dmin = c.mtime;
					if (c.mtime > gc->dirty_max_mtime)
						gc->dirty_max_mtime = c.mtime;
					if (gc->dirty_max_mtime - c.mtime < threshold) {
						info->young++;
						goto next;
					}
					c.cost = UINT_MAX;
				} else if (o->policy == F2FS_GC_GREEDY) {
					c.cost = c.valid;
				} else {
					c.cost = cb_cost(gc, secno, &c);
				}
				if (!is_at && c.cost < min_cost) {
					min_cost = c.cost;
					best = (long)cnt;
				}
				if (out)
					out[cnt] = c;
				cnt++;
			}
next:
			if (nsearched >= max_search) {
				if (!*lv && segno <= last_victim)
					*lv = last_victim + spsec;
				else
					*lv = segno + spsec;
				*lv %= nsegs;
				break;
			}
		}
		info->searched = nsearched;
		info->next_segno = *lv;
		if (is_at) {
			size_t evaluated = 0;

			best = out ? atgc_pick(gc, o, out, cnt, dmin, gc->dirty_max_mtime, &evaluated) : -1;
			cnt = evaluated;
			if (best < 0 && gc->elapsed_time < threshold && !retried) {
				threshold = 0;
				retried = 1;
				gc->last_victim[o->policy] = saved_lv[o->policy];
				goto retry;
			}
		}
		*n = cnt;
		*victim = best;
		if (victim_secno)
			*victim_secno = best >= 0 && out ? out[best].secno : UINT32_MAX;
	}
	if (!commit) {
		memcpy(gc->last_victim, saved_lv, sizeof(saved_lv));
		gc->min_mtime = saved_min;
		gc->max_mtime = saved_max;
		gc->dirty_max_mtime = saved_dmax;
	}
	return 0;
}

/* Cheapest first; under age-based GC, of equal cost the older first. The
 * policy comes in ctx: mkfs --rootdir is threaded and the library keeps no
 * global state. */
static int cost_less(const void *a, const void *b, void *ctx)
{
	const struct f2fs_gc_cand *x = a, *y = b;
	enum f2fs_gc_policy policy = *(const enum f2fs_gc_policy *)ctx;

	if (x->cost != y->cost)
		return x->cost < y->cost;
	if (policy == F2FS_GC_AT && x->age != y->age)
		return x->age > y->age;
	if (policy == F2FS_GC_AT && x->mtime != y->mtime)
		return x->mtime < y->mtime;
	return x->order < y->order;
}

void f2fs_gc_sort(struct f2fs_gc_cand *c, size_t n, enum f2fs_gc_policy policy)
{
	f2fs_sort(c, n, sizeof(*c), cost_less, &policy);
}

int f2fs_gc_cost_to_free(const struct f2fs_gc *gc, uint32_t k, uint64_t *empty,
			 uint64_t *net, uint32_t *net_victims)
{
	/* counting sort by valid count: sections hold at most 512 * 2^k blocks */
	uint32_t maxv = gc->sec_blocks;
	uint32_t *count = calloc((size_t)maxv + 1, sizeof(*count));
	uint64_t moved = 0, gained = 0, need = (uint64_t)k * gc->sec_blocks;
	uint32_t taken = 0;
	int ret = -1;

	*empty = *net = 0;
	*net_victims = 0;
	if (!count)
		return -1;
	for (uint32_t s = 0; s < gc->nsecs; s++)
		if (!gc->sec[s].cur && gc->sec[s].valid > 0 && gc->sec[s].valid <= maxv)
			count[gc->sec[s].valid]++;
	/* k cheapest victims */
	for (uint32_t v = 1; v < maxv && taken < k; v++) {
		uint32_t take = count[v] < k - taken ? count[v] : k - taken;

		moved += (uint64_t)take * v;
		taken += take;
	}
	if (taken == k || k == 0) {
		*empty = moved;
		ret = 0;
	}
	/* net: keep taking until the invalid space freed covers k sections */
	moved = 0;
	taken = 0;
	for (uint32_t v = 1; v < maxv && gained < need; v++) {
		for (uint32_t c = 0; c < count[v] && gained < need; c++) {
			moved += v;
			gained += gc->sec_blocks - v;
			taken++;
		}
	}
	if (gained >= need) {
		*net = moved;
		*net_victims = taken;
	} else {
		ret = -1;
	}
	free(count);
	return ret;
}

/* Take the next free section (lowest number from a rotating hint). */
static long alloc_free(struct f2fs_gc *gc, uint32_t *hint)
{
	for (uint32_t k = 0; k < gc->nsecs; k++) {
		uint32_t s = (*hint + k) % gc->nsecs;

		if (gc->sec[s].valid == 0 && !gc->sec[s].cur) {
			*hint = s + 1;
			return (long)s;
		}
	}
	return -1;
}

int f2fs_gc_simulate(const struct f2fs_gc *base, const struct f2fs_gc_opts *o,
		     uint32_t target_free, struct f2fs_gc_sim *res, struct f2fs_error *err)
{
	struct f2fs_gc *gc;
	struct f2fs_gc_cand *cand;
	long dest[2] = { -1, -1 };
	uint32_t hint = 0, guard;
	int ret = f2fs_gc_clone(&gc, base, err);

	memset(res, 0, sizeof(*res));
	if (ret)
		return ret;
	cand = malloc((gc->nsecs ? gc->nsecs : 1) * sizeof(*cand));
	if (!cand) {
		f2fs_gc_free(gc);
		return f2fs_fail(err, -ENOMEM, "out of memory");
	}
	res->free_before = gc->nr_free;
	res->stop = "target reached";
	for (guard = 0; gc->nr_free < target_free; guard++) {
		size_t n;
		long v;
		uint32_t secno, remaining;
		struct f2fs_gc_sec *vs;
		int cls;

		if (guard > 4 * gc->nsecs + 16) {
			res->stop = "no progress";
			break;
		}
		f2fs_gc_select(gc, o, 1, cand, &n, &v, &secno, NULL);
		if (v < 0) {
			res->stop = "no victim";
			break;
		}
		vs = &gc->sec[secno];
		cls = vs->is_node;
		remaining = vs->valid;
		while (remaining) {
			struct f2fs_gc_sec *d;
			uint32_t room, take;

			if (dest[cls] < 0 || gc->sec[dest[cls]].valid >= gc->sec_blocks) {
				long s;

				if (dest[cls] >= 0) {          /* close the full one */
					gc->sec[dest[cls]].cur = 0;
					refresh(gc, (uint32_t)dest[cls]);
				}
				s = alloc_free(gc, &hint);
				if (s < 0) {
					res->stop = "out of free sections";
					goto done;
				}
				gc->nr_free--;
				gc->sec[s].cur = 1;
				gc->sec[s].is_node = (uint8_t)cls;
				gc->sec[s].mtime = 0;
				refresh(gc, (uint32_t)s);
				dest[cls] = s;
			}
			d = &gc->sec[dest[cls]];
			room = gc->sec_blocks - d->valid;
			take = remaining < room ? remaining : room;
			/* moved blocks keep their age: weighted mean of mtimes */
			d->mtime = (d->mtime * d->valid + vs->mtime * (uint64_t)take) / (d->valid + take);
			d->valid += take;
			remaining -= take;
			res->moved += take;
			vs->valid -= take;
		}
		res->reclaimed += gc->sec_blocks - (uint32_t)(cand[v].valid);
		res->victims++;
		refresh(gc, secno);
		gc->nr_free++;
	}
done:
	res->free_after = gc->nr_free;
	free(cand);
	f2fs_gc_free(gc);
	return 0;
}
