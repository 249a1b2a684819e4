/*
 * The driver: opens the image and runs every pass in order. Only this file
 * calls the passes; the passes call the shared services (report, records,
 * reads) and the hooks of the passes that ride along the walk, never back.
 */
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>

#include "ck.h"
#include "passes.h"
#include "repair.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int f2fs_check_cp_clean(uint32_t flags)
{
	return (flags & F2FS_CP_UMOUNT) &&
	       !(flags & (F2FS_CP_ERROR | F2FS_CP_FSCK | F2FS_CP_QUOTA_NEED_FSCK));
}

int f2fs_check_fixable(enum f2fs_problem_code code, enum f2fs_fix_answer answer)
{
	return ck_repair_fixes(code, answer);
}

/* The walk: nodes, then (the orphans known) the directories, then what
 * their entries give; then the passes that rode along it finish. */
static int walk(struct ck *ck)
{
	int ret = ck_nodes(ck);

	if (!ret)
		ret = ck_orphans(ck);
	if (!ret)
		ret = ck_dirs(ck);
	if (!ret)
		ret = ck_links(ck);
	if (ret)
		return ret;
	/* a hook that lost data would make the checks below lie */
	if (ck->hook_nomem)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory during the tree walk");
	ck_meta_after_walk(ck);
	ck_orphans_after(ck);
	ret = ck_xattr_check(ck);
	if (!ret)
		ret = ck_names_check(ck);
	if (!ret)
		ret = ck_quota_check(ck);
	return ret;
}

/* Problems after which a repair may move a log to a fresh segment, or
 * rebuild its summaries: it then needs the owner of every block there. */
static int logs_in_doubt(const struct ck *ck)
{
	static const enum f2fs_problem_code codes[] = {
		F2FS_PB_CP_CURSEG_RANGE, F2FS_PB_CP_CURSEG_DUPLICATE, F2FS_PB_CP_CURSEG_TYPE,
		F2FS_PB_CP_CURSEG_BLKOFF, F2FS_PB_CP_SUMMARY, F2FS_PB_SIT_USED_INVALID,
		F2FS_PB_NAT_SEGMENT_TYPE, F2FS_PB_DATA_SEGMENT_TYPE,
		/* a rebuilt file is written into the logs, which may move */
		F2FS_PB_QUOTA_USAGE, F2FS_PB_QUOTA_BAD_FILE,
	};

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (ck->r->count[codes[i]])
			return 1;
	/* the roll-forward recovery appends past the logs' ends */
	return ck_roll_recoverable(ck);
}

static int want_logs_exact(struct ck *ck)
{
	int ret = 0;

	for (int t = 0; t < F2FS_NR_CURSEG_TYPE && !ret; t++)
		ret = ck_ssa_want_exact(ck, f2fs_cp_log_segno(ck->cp, t));
	return ret;
}

/* One run of the checker over a fresh ck (opt, err, ssa_exact set). */
static int check_run(struct ck *ck, const char *path)
{
	const struct f2fs_check_options *opt = ck->opt;
	int ret;

	ck->max_per = opt->max_per_problem ? opt->max_per_problem : 100;
	ck->r = calloc(1, sizeof(*ck->r));
	ck->io = malloc((size_t)CK_IO_BLOCKS * F2FS_BLKSIZE);
	if (!ck->r || !ck->io)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory");
	ck->r->mode = opt->mode;
	ret = f2fs_fs_open_devices(&ck->fs, path, opt->devices, opt->ndevices,
				   opt->fix == F2FS_ANSWER_NO ? F2FS_DEV_RDONLY :
				   F2FS_DEV_RDWR | F2FS_DEV_EXCL, ck->err);
	if (ret)
		return ret;
	if (opt->opened)
		opt->opened(ck->fs, opt->opened_arg);
	ret = ck_meta(ck);
	if (!ret)
		ret = ck_zones(ck);
	if (!ret)
		ret = ck_roll_forward(ck);
	if (!ret && opt->mode == F2FS_CHECK_FULL) {
		ret = walk(ck);
		if (!ret)
			ret = ck_ssa(ck);
		if (!ret && opt->fix != F2FS_ANSWER_NO && !ck->ssa_exact && logs_in_doubt(ck))
			ret = want_logs_exact(ck);
		if (!ret && ck->nredo)
			return 0;   /* run again; its report replaces this one */
		if (!ret)
			ret = ck_dirs_parents(ck);
		if (!ret)
			ck_resolve_paths(ck);
	}
	if (!ret)
		ck_root_paths(ck);
	return ret;
}

/* Everything a run holds but the report. */
static void check_release(struct ck *ck)
{
	ck_paths_free(ck);
	free(ck->segs);
	free(ck->nid_used);
	free(ck->nid_base);
	free(ck->nid_rank);
	f2fs_vec_free(&ck->nids);
	f2fs_vec_free(&ck->nodes);
	f2fs_vec_free(&ck->fparents);
	ck_cnt_free(ck);
	free(ck->nat_used);
	free(ck->owned);
	free(ck->nodemap);
	free(ck->revmap);
	f2fs_vec_free(&ck->dirs);
	f2fs_vec_free(&ck->dblks);
	f2fs_vec_free(&ck->dnodes);
	f2fs_vec_free(&ck->lost);
	f2fs_vec_free(&ck->edges);
	f2fs_vec_free(&ck->ino_from_footer);
	f2fs_vec_free(&ck->fixes);
	free(ck->segfp);
	free(ck->ssa_exact);
	free(ck->ssa_redo);
	free(ck->ssa_badtype);
	f2fs_vec_free(&ck->blks);
	ck_quota_free(ck);
	ck_xattr_free(ck);
	ck_names_free(ck);
	ck_orphans_free(ck);
	free(ck->io);
	f2fs_fs_close(ck->fs);
}

static void add_stats(struct f2fs_txn_stats *a, const struct f2fs_txn_stats *b)
{
	a->nat_dirty += b->nat_dirty;
	a->nat_blocks += b->nat_blocks;
	a->nat_journal += b->nat_journal;
	a->sit_dirty += b->sit_dirty;
	a->sit_blocks += b->sit_blocks;
	a->sit_journal += b->sit_journal;
	a->node_blocks += b->node_blocks;
	a->data_blocks += b->data_blocks;
	a->ssa_blocks += b->ssa_blocks;
	a->cp_blocks += b->cp_blocks;
	a->sb_blocks += b->sb_blocks;
	a->bytes += b->bytes;
}

/* After a repair that replayed the roll-forward chain, the image is checked
 * again: the first check counted the image before the replay, and what the
 * replay exposes (the quota usage moves with it: rp_roll_charge_quota) is
 * repaired as in any image, in a second transaction. Its problems join the
 * report r. */
static int check_after_roll(const char *path, const struct f2fs_check_options *opt,
			    struct f2fs_check_report *r, struct f2fs_error *err)
{
	struct f2fs_check_report *again;
	struct f2fs_problem *all;
	int ret = f2fs_check(path, opt, &again, err);

	if (ret)
		return ret;
	if (!again->errors && !again->warnings) {
		f2fs_check_report_free(again);
		return 0;
	}
	all = realloc(r->problems, (r->nproblems + again->nproblems) * sizeof(*all));
	if (!all) {
		f2fs_check_report_free(again);
		return f2fs_fail(err, -ENOMEM, "out of memory for the report");
	}
	r->problems = all;
	memcpy(all + r->nproblems, again->problems, again->nproblems * sizeof(*all));
	r->nproblems += again->nproblems;
	again->nproblems = 0;
	for (int c = 0; c < F2FS_PB_COUNT; c++)
		r->count[c] += again->count[c];
	r->errors += again->errors;
	r->warnings += again->warnings;
	r->suppressed += again->suppressed;
	r->repair.fixed += again->repair.fixed;
	r->repair.unfixed += again->repair.unfixed;
	r->repair.unfixed_errors += again->repair.unfixed_errors;
	add_stats(&r->repair.written, &again->repair.written);
	if (again->repair.refused[0])
		memcpy(r->repair.refused, again->repair.refused, sizeof(r->repair.refused));
	f2fs_check_report_free(again);
	return 0;
}

int f2fs_check(const char *path, const struct f2fs_check_options *opt,
	       struct f2fs_check_report **out, struct f2fs_error *err)
{
	struct f2fs_check_options dflt = { 0 };
	struct ck ck = { 0 };
	int ret;

	*out = NULL;
	if (opt && opt->fix != F2FS_ANSWER_NO && opt->mode == F2FS_CHECK_QUICK) {
		/* a repair stands on a full check: the quick one only says
		 * whether one is needed */
		struct f2fs_check_options o = *opt;

		o.fix = F2FS_ANSWER_NO;
		ret = f2fs_check(path, &o, out, err);
		if (ret || !((*out)->errors || (*out)->warnings))
			return ret;
		f2fs_check_report_free(*out);
		*out = NULL;
		o = *opt;
		o.mode = F2FS_CHECK_FULL;
		return f2fs_check(path, &o, out, err);
	}
	ck.opt = opt ? opt : &dflt;
	ck.err = err;
	ret = check_run(&ck, path);
	if (!ret && ck.nredo && !ck.ssa_exact) {
		/* Some segment's SSA differs from the blocks found: check again,
		 * keeping the blocks of those segments to name each entry. The
		 * check is deterministic, so the second report is the first
		 * plus those entries. */
		uint64_t *redo = ck.ssa_redo;

		ck.ssa_redo = NULL;
		check_release(&ck);
		f2fs_check_report_free(ck.r);
		memset(&ck, 0, sizeof(ck));
		ck.opt = opt ? opt : &dflt;
		ck.err = err;
		ck.ssa_exact = redo;
		ret = check_run(&ck, path);
	}
	if (!ret)
		ck.r->answer = ck.opt->fix;
	if (!ret && ck.opt->fix != F2FS_ANSWER_NO && ck.r->mode == F2FS_CHECK_FULL)
		ret = ck_repair(&ck);
	else if (!ret && ck.r->mode == F2FS_CHECK_FULL)
		ret = ck_roll_preview(&ck);
	if (!ret && ck.r->mode == F2FS_CHECK_FULL && ck.opt->fix == F2FS_ANSWER_NO)
		ret = ck_repair_plan(&ck);
	check_release(&ck);
	if (!ret && ck.r->roll.applied == 1 && ck.r->repair.committed)
		ret = check_after_roll(path, ck.opt, ck.r, err);
	if (ret) {
		f2fs_check_report_free(ck.r);
		return ret;
	}
	*out = ck.r;
	return 0;
}
