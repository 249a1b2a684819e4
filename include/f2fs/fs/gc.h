/*
 * Offline garbage-collection victim selection, modelled on the kernel's
 * f2fs_get_victim() (LFS allocation): greedy, cost-benefit and
 * age-threshold (ATGC) policies over a rotating search window, plus a
 * simple simulation of repeated GC.
 */
#ifndef F2FS_GC_H
#define F2FS_GC_H

#include <stddef.h>
#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/fs/sit.h>

enum f2fs_gc_policy {
	F2FS_GC_GREEDY = 0,   /* fewest valid blocks (the kernel's FG default) */
	F2FS_GC_CB = 1,       /* cost-benefit (the kernel's BG default) */
	F2FS_GC_AT = 2,       /* age-threshold GC (mount option atgc) */
	F2FS_GC_NPOLICY
};

const char *f2fs_gc_policy_name(enum f2fs_gc_policy p);

/* Kernel defaults (fs/f2fs/gc.h) */
#define F2FS_GC_DEF_MAX_VICTIM_SEARCH 4096u
#define F2FS_GC_DEF_AGE_THRESHOLD     (60ull * 60 * 24 * 7)
#define F2FS_GC_DEF_CANDIDATE_RATIO   20u
#define F2FS_GC_DEF_MAX_CANDIDATES    10u
#define F2FS_GC_DEF_AGE_WEIGHT        60u

struct f2fs_gc_opts {
	enum f2fs_gc_policy policy;
	int fg;                     /* foreground: searches every dirty section */
	uint32_t max_search;        /* max_victim_search; 0 = unlimited */
	uint64_t age_threshold;     /* ATGC */
	uint32_t candidate_ratio, max_candidates, age_weight;   /* ATGC */
};

void f2fs_gc_opts_default(struct f2fs_gc_opts *o, enum f2fs_gc_policy policy, int fg);

/* Per-section state the selection works on. */
struct f2fs_gc_sec {
	uint64_t mtime;      /* average SIT mtime of the section's segments */
	uint32_t valid;      /* valid blocks of the section */
	uint8_t cur;         /* holds a current (or simulated destination) segment */
	uint8_t is_node;     /* type of its first segment is a node log */
};

struct f2fs_gc {
	uint32_t nsecs, segs_per_sec, sec_blocks;
	struct f2fs_gc_sec *sec;
	uint8_t *dirty;                 /* per section: in the kernel's dirty map
	                                 * (dirty_segmap[DIRTY] or dirty_secmap) */
	uint32_t nr_dirty, nr_free;
	uint64_t min_mtime, max_mtime;  /* the kernel's sit_i->min/max_mtime */
	uint64_t dirty_max_mtime;       /* ATGC */
	uint64_t elapsed_time;          /* checkpoint elapsed_time (the "now" of mtimes) */
	uint32_t last_victim[F2FS_GC_NPOLICY];   /* rotating start, per policy (segno) */
};

/* Build the state from a loaded SIT, as the kernel does at mount. */
int f2fs_gc_init(struct f2fs_gc **out, const struct f2fs_sit *sit, uint64_t elapsed_time,
		 struct f2fs_error *err);
int f2fs_gc_clone(struct f2fs_gc **out, const struct f2fs_gc *gc, struct f2fs_error *err);
void f2fs_gc_free(struct f2fs_gc *gc);

struct f2fs_gc_cand {
	uint32_t secno;
	uint32_t valid;
	uint64_t mtime;
	uint64_t age;     /* CB: 0..100 (100 = oldest); AT: weighted age term; greedy: 0 */
	uint64_t u;       /* CB: utilisation %; AT: weighted free-space term; greedy: 0 */
	uint32_t cost;    /* lower is a better victim */
	uint32_t order;   /* position in the scan */
};

struct f2fs_gc_scan_info {
	uint32_t start_segno;     /* where the window started */
	uint32_t max_search;      /* dirty sections the window may visit (current
	                           * sections are not in the map, so not counted) */
	uint32_t searched;        /* dirty sections visited */
	uint32_t next_segno;      /* last_victim after the scan */
	int retried;              /* ATGC retried with threshold 0 */
	uint32_t young;           /* ATGC: candidates dropped as too young */
};

/*
 * One victim selection. out (room for gc->nsecs entries, may be NULL)
 * receives every candidate whose cost was computed, in scan order; *n their
 * count. *victim is the index in out of the chosen one (-1: none) and, if
 * victim_secno is not NULL, its section (UINT32_MAX: none). With commit the
 * rotating offset advances as in the kernel.
 */
int f2fs_gc_select(struct f2fs_gc *gc, const struct f2fs_gc_opts *o, int commit,
		   struct f2fs_gc_cand *out, size_t *n, long *victim, uint32_t *victim_secno,
		   struct f2fs_gc_scan_info *info);

/* Sort candidates by cost (ties keep scan order; ATGC ties favour age). */
void f2fs_gc_sort(struct f2fs_gc_cand *c, size_t n, enum f2fs_gc_policy policy);

/*
 * Blocks that must move to gain k free sections, victims taken cheapest
 * first over all non-current used sections: *empty = blocks moved to empty
 * k victims; *net = blocks moved until k sections' worth of space is gained
 * (moved blocks use free space too), *net_victims the victims that takes.
 * Returns -1 when impossible.
 */
int f2fs_gc_cost_to_free(const struct f2fs_gc *gc, uint32_t k, uint64_t *empty,
			 uint64_t *net, uint32_t *net_victims);

struct f2fs_gc_sim {
	uint32_t victims;
	uint64_t moved;           /* valid blocks copied */
	uint64_t reclaimed;       /* invalid blocks freed */
	uint32_t free_before, free_after;
	const char *stop;         /* why it stopped */
};

/* Repeat selection on a copy of gc until target free sections. */
int f2fs_gc_simulate(const struct f2fs_gc *gc, const struct f2fs_gc_opts *o,
		     uint32_t target_free, struct f2fs_gc_sim *res, struct f2fs_error *err);

#endif
