/*
 * One run of the checker: opens the image and runs every pass in order.
 * Only this file calls the passes; the passes call the shared services
 * (report, records, reads) and the hooks of the passes that ride along the
 * walk, never back.
 */
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>

#include "ck.h"
#include "nat_answers.h"
#include "passes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
		ret = ck_extent_check(ck);
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
int ck_run(struct ck *ck, const char *path)
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
			ret = ck_nat_answer_doubts(ck);
		if (!ret && ck->nat_rerun)
			return 0;   /* run again with the answers */
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
void ck_release(struct ck *ck)
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
	f2fs_vec_free(&ck->doubts);
	ck_answers_free(ck->answers);
	free(ck->segfp);
	free(ck->ssa_exact);
	free(ck->ssa_redo);
	free(ck->ssa_badtype);
	f2fs_vec_free(&ck->blks);
	ck_quota_free(ck);
	ck_xattr_free(ck);
	ck_extent_free(ck);
	f2fs_u32map_free(&ck->nat_ver);
	ck_names_free(ck);
	ck_orphans_free(ck);
	free(ck->io);
	f2fs_fs_close(ck->fs);
}
