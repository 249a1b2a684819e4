/*
 * The driver: opens the image and runs every pass in order. Only this file
 * calls the passes; the passes call the shared services (report, records,
 * reads) and the hooks of the passes that ride along the walk, never back.
 */
#include <f2fs/format/endian.h>

#include "ck.h"
#include "passes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int f2fs_check_cp_clean(uint32_t flags)
{
	return (flags & F2FS_CP_UMOUNT) &&
	       !(flags & (F2FS_CP_ERROR | F2FS_CP_FSCK | F2FS_CP_QUOTA_NEED_FSCK));
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
	ret = f2fs_fs_open(&ck->fs, path, ck->err);
	if (ret)
		return ret;
	if (opt->opened)
		opt->opened(ck->fs, opt->opened_arg);
	ret = ck_meta(ck);
	if (!ret)
		ret = ck_roll_forward(ck);
	if (!ret && opt->mode == F2FS_CHECK_FULL) {
		ret = walk(ck);
		if (!ret)
			ret = ck_ssa(ck);
		if (!ret && ck->nredo)
			return 0;   /* run again; its report replaces this one */
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
	free(ck->nid_rank);
	f2fs_vec_free(&ck->nids);
	free(ck->nat_used);
	free(ck->owned);
	free(ck->nodemap);
	free(ck->revmap);
	f2fs_vec_free(&ck->dirs);
	f2fs_vec_free(&ck->dblks);
	f2fs_vec_free(&ck->dnodes);
	f2fs_vec_free(&ck->lost);
	f2fs_vec_free(&ck->edges);
	free(ck->segfp);
	free(ck->ssa_exact);
	free(ck->ssa_redo);
	f2fs_vec_free(&ck->blks);
	ck_quota_free(ck);
	ck_xattr_free(ck);
	ck_names_free(ck);
	ck_orphans_free(ck);
	free(ck->io);
	f2fs_fs_close(ck->fs);
}

int f2fs_check(const char *path, const struct f2fs_check_options *opt,
	       struct f2fs_check_report **out, struct f2fs_error *err)
{
	struct f2fs_check_options dflt = { 0 };
	struct ck ck = { 0 };
	int ret;

	*out = NULL;
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
	check_release(&ck);
	if (ret) {
		f2fs_check_report_free(ck.r);
		return ret;
	}
	*out = ck.r;
	return 0;
}
