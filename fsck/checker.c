/*
 * f2fs_check (checker.h): a run of the checker (check/run.c), then, as
 * asked, the repair (repair/), or what it would do; after a repair that
 * replayed the roll-forward chain, a second run and repair.
 */
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>

#include "check/ck.h"
#include "check/passes.h"
#include "repair/repair.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(F2FS_PB_COUNT < 255, "a code + 1 fits the report's blocked_by");

int f2fs_check_cp_clean(uint32_t flags)
{
	return (flags & F2FS_CP_UMOUNT) &&
	       !(flags & (F2FS_CP_ERROR | F2FS_CP_FSCK | F2FS_CP_QUOTA_NEED_FSCK));
}

int f2fs_check_fixable(enum f2fs_problem_code code, enum f2fs_fix_answer answer)
{
	return ck_repair_fixes(code, answer);
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
 * replay exposes (the quota usage moves with it: rp_quota_usage) is
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
	r->repair.cancelled |= again->repair.cancelled;
	for (int c = 0; c < F2FS_PB_COUNT; c++) {
		r->repair.declined[c] |= again->repair.declined[c];
		if (!r->repair.blocked_by[c])
			r->repair.blocked_by[c] = again->repair.blocked_by[c];
	}
	f2fs_check_report_free(again);
	return 0;
}

/* A fresh run over the same image, keeping the answers for NAT entries
 * in doubt that the last one found, and the SSA segments to check entry
 * by entry (exact, may be NULL). */
static int run_again(struct ck *ck, const char *path, const struct f2fs_check_options *opt,
		     struct f2fs_error *err, uint64_t *exact)
{
	struct ck_answers *a = ck->answers;

	ck->answers = NULL;
	ck_release(ck);
	f2fs_check_report_free(ck->r);
	memset(ck, 0, sizeof(*ck));
	ck->opt = opt;
	ck->err = err;
	ck->ssa_exact = exact;
	ck->answers = a;
	ck->given_answers = a != NULL;
	return ck_run(ck, path);
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
	ret = ck_run(&ck, path);
	/* Node blocks answer for NAT entries the walk found in doubt: check
	 * again with the NAT they give (its report replaces this one). */
	if (!ret && ck.nat_rerun)
		ret = run_again(&ck, path, opt ? opt : &dflt, err, NULL);
	if (!ret && ck.nredo && !ck.ssa_exact) {
		/* Some segment's SSA differs from the blocks found: check again,
		 * keeping the blocks of those segments to name each entry. The
		 * check is deterministic, so the second report is the first
		 * plus those entries. */
		uint64_t *redo = ck.ssa_redo;

		ck.ssa_redo = NULL;
		ret = run_again(&ck, path, opt ? opt : &dflt, err, redo);
	}
	if (!ret) {
		ck.r->answer = ck.opt->fix;
		ck.r->roll.discard_asked = ck.opt->discard_roll_forward;
	}
	if (!ret && ck.opt->fix != F2FS_ANSWER_NO && ck.r->mode == F2FS_CHECK_FULL)
		ret = ck_repair(&ck);
	else if (!ret && ck.r->mode == F2FS_CHECK_FULL)
		ret = ck_roll_preview(&ck);
	if (!ret && ck.r->mode == F2FS_CHECK_FULL && ck.opt->fix == F2FS_ANSWER_NO)
		ret = ck_repair_plan(&ck);
	ck_release(&ck);
	if (!ret && ck.r->roll.applied == 1 && ck.r->repair.committed)
		ret = check_after_roll(path, ck.opt, ck.r, err);
	if (ret) {
		f2fs_check_report_free(ck.r);
		return ret;
	}
	*out = ck.r;
	return 0;
}
