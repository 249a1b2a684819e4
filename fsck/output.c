/*
 * fsck.f2fs's report. Each field is described once, in the order of the
 * JSON object; the text is sentences over those fields (out_template), so
 * that a line may name a field described earlier, in another object, or
 * in another order than JSON's (a problem's severity comes first in its
 * line, the statistics after the roll-forward).
 */
#include "checker.h"
#include "output.h"
#include "../common/out.h"
#include <f2fs/fs/fs.h>
#include <f2fs/io/dev.h>

#include <stdio.h>

/* A volume over several devices: where each device's blocks start, so that
 * a problem's block address names its device (filled once opened). */
static struct {
	unsigned n;
	char path[F2FS_MAX_DEVICES][256];
	uint64_t start[F2FS_MAX_DEVICES];
} volume_devs;

void output_note_devices(const struct f2fs_fs *fs)
{
	const struct f2fs_dev *dev = f2fs_fs_dev(fs);

	volume_devs.n = f2fs_dev_nmembers(dev);
	for (unsigned i = 0; i < volume_devs.n && i < F2FS_MAX_DEVICES; i++) {
		struct f2fs_dev_member m;

		f2fs_dev_member(dev, i, &m);
		snprintf(volume_devs.path[i], sizeof(volume_devs.path[i]), "%s", m.path);
		volume_devs.start[i] = m.start;
	}
}

/* The device holding blkaddr when there are several, else -1. */
static int device_of(uint64_t blkaddr)
{
	int i = (int)volume_devs.n - 1;

	if (volume_devs.n <= 1)
		return -1;
	while (i > 0 && blkaddr < volume_devs.start[i])
		i--;
	return i;
}

/* ---- a problem -------------------------------------------------------------- */

static uint64_t pf_nid(const struct f2fs_problem *p) { return p->nid; }
static uint64_t pf_ino(const struct f2fs_problem *p) { return p->ino; }
static uint64_t pf_blkaddr(const struct f2fs_problem *p) { return p->blkaddr; }
static uint64_t pf_segno(const struct f2fs_problem *p) { return p->segno; }
static uint64_t pf_expected(const struct f2fs_problem *p) { return p->expected; }
static uint64_t pf_found(const struct f2fs_problem *p) { return p->found; }

/* The numbers a problem may carry, in the order both forms list them: the
 * bit of p->have that says it is set, its JSON key, its text label. */
static const struct problem_field {
	uint32_t flag;
	const char *key, *label;
	uint64_t (*value)(const struct f2fs_problem *p);
} problem_fields[] = {
	{ F2FS_PF_NID, "nid", "nid", pf_nid },
	{ F2FS_PF_INO, "ino", "ino", pf_ino },
	{ F2FS_PF_BLKADDR, "blkaddr", "block", pf_blkaddr },
	{ F2FS_PF_SEGNO, "segno", "segment", pf_segno },
	{ F2FS_PF_EXPECTED, "expected", "expected", pf_expected },
	{ F2FS_PF_FOUND, "found", "found", pf_found },
};

#define NFIELDS (sizeof(problem_fields) / sizeof(problem_fields[0]))

/* What became of a problem, or would: the end of its line. The answer and
 * the repair's state decide it; JSON says it by fix, fixed and would_fix. */
static const char *outcome(const struct f2fs_check_report *r, const struct f2fs_problem *p,
			   const struct f2fs_problem_info *in)
{
	if (p->fixed)
		return ": fixed ({fix})";
	if (r->answer == F2FS_ANSWER_NO && p->would_fix)
		return ": fsck -y would fix it ({fix})";
	if (!r->repair.wanted || r->repair.refused[0])
		return "";
	if (!f2fs_fix_kind_repairs(in->fix))
		return ": not fixed (no fix exists)";
	if (r->answer == F2FS_ANSWER_PREEN && !in->preen)
		return ": not fixed (needs fsck -y)";
	if (r->repair.declined[p->code])
		return ": not fixed, as asked";
	if (r->repair.blocked_by[p->code])
		return ": not fixed (its fix stands on {left_for})";
	return ": not fixed";
}

/* An element of "problems"; in text the line
 * SEVERITY name [structure]: message (label value, ...) on DEV (...) path P */
static void problem(struct out *o, const struct f2fs_check_report *r,
		    const struct f2fs_problem *p)
{
	const struct f2fs_problem_info *in = f2fs_problem_info(p->code);
	int d = (p->have & F2FS_PF_BLKADDR) ? device_of(p->blkaddr) : -1;
	const char *sep = " (";

	out_obj_begin(o, NULL, NULL);
	out_s(o, "name", NULL, in->name);
	out_s(o, "structure", NULL, in->structure);
	out_s(o, "severity", NULL, in->severity == F2FS_SEV_ERROR ? "error" : "warning");
	for (size_t k = 0; k < NFIELDS; k++) {
		const struct problem_field *f = &problem_fields[k];

		if (p->have & f->flag)
			out_u(o, f->key, f->label, f->value(p));
	}
	if (d >= 0) {
		out_u(o, "device", "device", (uint64_t)d + 1);
		out_msg(o, "device_path", NULL, volume_devs.path[d]);
		out_u(o, "device_blkaddr", "block", p->blkaddr - volume_devs.start[d]);
	}
	if (p->path)
		out_bytes(o, "path", "path", (const uint8_t *)p->path, p->path_len);
	else
		out_s(o, "path", NULL, NULL);
	out_msg(o, "message", NULL, p->msg);
	out_s(o, "fix", NULL, f2fs_fix_kind_name(in->fix));
	out_b(o, "fixed", NULL, p->fixed);
	out_b(o, "would_fix", NULL, p->would_fix);
	if (p->moved_to)
		out_bytes(o, "moved_to", NULL, (const uint8_t *)p->moved_to, p->moved_to_len);
	else
		out_s(o, "moved_to", NULL, NULL);
	if (r->repair.wanted && !p->fixed) {
		/* why a fix that exists was not made: the answer to it, or
		 * the one to the problem it stands on (its name) */
		int b = r->repair.blocked_by[p->code];

		out_b(o, "declined", NULL, r->repair.declined[p->code]);
		out_s(o, "left_for", NULL, b ? f2fs_problem_info(b - 1)->name : NULL);
	}

	out_template(o, "{severity:upper} {name} [{structure}]: {message}");
	for (size_t k = 0; k < NFIELDS; k++) {
		char t[32];

		if (!(p->have & problem_fields[k].flag))
			continue;
		snprintf(t, sizeof(t), "%s{%s}", sep, problem_fields[k].key);
		out_template(o, t);
		sep = ", ";
	}
	if (sep[0] == ',')
		out_template(o, ")");
	if (d >= 0)
		out_template(o, " on {device_path} ({device}, {device_blkaddr})");
	if (p->path)
		out_template(o, " {path}");
	out_template(o, outcome(r, p, in));
	if (p->moved_to)
		out_template(o, ", now {moved_to}");
	out_template(o, "\n");
	out_obj_end(o);
}

/* ---- the rest of the report ---------------------------------------------------- */

static void roll_forward(struct out *o, const struct f2fs_check_report *r)
{
	const struct f2fs_roll_report *rr = &r->roll;

	out_obj_begin(o, "roll_forward", NULL);
	out_u(o, "nodes", NULL, r->roll_forward_nodes);
	out_u(o, "fsync", NULL, r->roll_forward_fsync);
	out_s(o, "recovery", NULL, rr->applied == 1 ? "done" : rr->applied == 2 ? "possible" :
		  rr->why[0] ? "not_here" : NULL);
	out_msg(o, "why", NULL, rr->why[0] ? rr->why : NULL);
	out_u(o, "inodes", NULL, rr->inodes);
	out_u(o, "created", NULL, rr->created);
	out_u(o, "dentries", NULL, rr->dentries);
	out_u(o, "blocks", NULL, rr->blocks);
	out_u(o, "invalidated", NULL, rr->invalidated);
	out_u(o, "xattr_nodes", NULL, rr->xattrs);
	out_u(o, "unlinked", NULL, rr->unlinked);

	if (r->roll_forward_nodes) {
		out_template(o, "{image}: roll-forward: {nodes} node block(s) written after the "
			     "checkpoint, {fsync} with an fsync mark");
		out_template(o, rr->applied == 1 ? "; recovered into the repair's checkpoint" :
			     r->repair.committed && rr->discard_asked ?
			     "; the repair's checkpoint drops them, as asked" :
			     r->repair.committed && !r->roll_forward_fsync ?
			     "; the repair's checkpoint drops them (no mount recovers a chain "
			     "without an fsync mark)" :
			     r->repair.committed ? "; the repair's checkpoint drops them" :
			     r->count[F2FS_PB_ROLL_FORWARD_LOOP] ? "" : "; the next mount recovers them");
		out_template(o, "\n");
	}
	if (rr->applied) {
		out_template(o, rr->applied == 1 ? "{image}: roll-forward recovery done: " :
			     "{image}: roll-forward recovery would recover: ");
		out_template(o, "{inodes} inode(s) ({created} created, {dentries} name(s) added), "
			     "{blocks} data block(s) recovered, {invalidated} block(s) freed, "
			     "{xattr_nodes} xattr node(s)\n");
	}
	if (rr->applied && rr->unlinked) {
		out_template(o, "{image}: roll-forward recovery: {unlinked} name(s) that a "
			     "recovered file takes from another inode ");
		out_template(o, rr->applied == 1 ? "were" : "would be");
		out_template(o, " unlinked first, as the kernel does\n");
	} else if (rr->why[0])
		out_template(o, "{image}: roll-forward recovery not done here: {why}\n");
	out_obj_end(o);
}

static void repair(struct out *o, const struct f2fs_repair_report *rr)
{
	const struct f2fs_txn_stats *w = &rr->written;

	out_obj_begin(o, "repair", NULL);
	out_b(o, "committed", NULL, rr->committed);
	out_msg(o, "refused", NULL, rr->refused[0] ? rr->refused : NULL);
	out_u(o, "fixed", NULL, rr->fixed);
	out_u(o, "unfixed", NULL, rr->unfixed);
	out_obj_begin(o, "nat", NULL);
	out_u(o, "dirty_entries", NULL, w->nat_dirty);
	out_u(o, "blocks_written", NULL, w->nat_blocks);
	out_u(o, "journal_entries", NULL, w->nat_journal);
	out_u(o, "blocks_one_per_entry", NULL, w->nat_dirty);
	out_obj_end(o);
	out_obj_begin(o, "sit", NULL);
	out_u(o, "dirty_entries", NULL, w->sit_dirty);
	out_u(o, "blocks_written", NULL, w->sit_blocks);
	out_u(o, "journal_entries", NULL, w->sit_journal);
	out_obj_end(o);
	out_u(o, "node_blocks", NULL, w->node_blocks);
	out_u(o, "data_blocks", NULL, w->data_blocks);
	out_u(o, "ssa_blocks", NULL, w->ssa_blocks);
	out_u(o, "checkpoint_blocks", NULL, w->cp_blocks);
	out_u(o, "superblock_blocks", NULL, w->sb_blocks);
	out_u(o, "stray_nodes_freed", NULL, rr->stray_nodes_freed);
	out_u(o, "logs_moved", NULL, rr->logs_moved);
	out_u(o, "bytes_written", NULL, w->bytes);

	if (rr->refused[0])
		out_template(o, "{image}: not repaired: {refused}\n");
	if (!rr->committed) {
		out_template(o, "{image}: {counts.errors} error(s), {counts.warnings} warning(s); "
			     "left uncorrected\n");
	} else {
		if (w->cp_blocks) {
			out_template(o, "{image}: NAT: {nat.dirty_entries} entries changed; "
				     "{nat.blocks_written} block(s) written, {nat.journal_entries} "
				     "entries in the journal (a block per entry would be "
				     "{nat.blocks_one_per_entry})\n");
			out_template(o, "{image}: SIT: {sit.dirty_entries} entries changed; "
				     "{sit.blocks_written} block(s) written, {sit.journal_entries} "
				     "entries in the journal\n");
			if (w->node_blocks || w->data_blocks)
				out_template(o, "{image}: written out of place: {node_blocks} node "
					     "block(s), {data_blocks} data block(s)\n");
			out_template(o, "{image}: written: {ssa_blocks} SSA block(s), a "
				     "{checkpoint_blocks}-block checkpoint pack, {superblock_blocks} "
				     "superblock copy(ies); {bytes_written} bytes\n");
		} else {
			out_template(o, "{image}: written: {superblock_blocks} superblock copy(ies), "
				     "no checkpoint (nothing else changed); {bytes_written} bytes\n");
		}
		out_template(o, rr->unfixed ?
			     "{image}: repaired: {fixed} problem(s) fixed, {unfixed} left uncorrected\n" :
			     "{image}: repaired: {fixed} problem(s) fixed\n");
	}
	out_obj_end(o);
}

/* What a repair would do to files, said before anyone answers -y. */
static void repair_plan(struct out *o, const struct f2fs_repair_plan *pl)
{
	out_obj_begin(o, "repair_plan", NULL);
	out_u(o, "inodes_freed", NULL, pl->inodes_freed);
	out_u(o, "files_relinked", NULL, pl->files_relinked);
	out_u(o, "entries_removed", NULL, pl->entries_removed);
	if (pl->inodes_freed || pl->files_relinked || pl->entries_removed)
		out_template(o, "{image}: a repair would free {inodes_freed} inode(s), relink "
			     "{files_relinked} file(s) no directory reaches and remove "
			     "{entries_removed} directory entry(ies) naming no inode\n");
	out_obj_end(o);
}

/* A count the quick check did not make (it walks no tree) is null. */
static void stat_u(struct out *o, const char *key, uint64_t v, int counted)
{
	if (counted)
		out_u(o, key, NULL, v);
	else
		out_s(o, key, NULL, NULL);
}

void output_report(struct out *o, const char *image, const struct f2fs_check_report *r,
		   const char *flagged, int exit_code)
{
	const struct f2fs_check_stats *st = &r->stats;
	int full = r->mode == F2FS_CHECK_FULL;

	out_lines(o);
	out_msg(o, "image", NULL, image);
	out_s(o, "mode", NULL, full ? "full" : "quick");
	if (!full)
		out_template(o, "{image}: cleanly unmounted; quick check only (superblock, "
			     "checkpoint, NAT and SIT); -n for a full check\n");
	out_x(o, "checkpoint_flags", NULL, r->ckpt_flags);
	out_msg(o, "flagged", NULL, flagged);
	out_array_begin(o, "problems");
	for (size_t i = 0; i < r->nproblems; i++)
		problem(o, r, &r->problems[i]);
	out_array_end(o);

	out_obj_begin(o, "counts", NULL);
	out_u(o, "errors", NULL, r->errors);
	out_u(o, "warnings", NULL, r->warnings);
	out_u(o, "suppressed", NULL, r->suppressed);
	if (r->suppressed)
		out_template(o, "{image}: {suppressed} more problem(s) not listed\n");
	out_obj_begin(o, "by_name", NULL);
	for (int c = 0; c < F2FS_PB_COUNT; c++)
		if (r->count[c])
			out_u(o, f2fs_problem_info(c)->name, NULL, r->count[c]);
	out_obj_end(o);
	out_obj_end(o);

	out_obj_begin(o, "stats", NULL);
	stat_u(o, "inodes", st->inodes, full);
	stat_u(o, "directories", st->dirs, full);
	stat_u(o, "files", st->files, full);
	stat_u(o, "symlinks", st->symlinks, full);
	stat_u(o, "other", st->others, full);
	stat_u(o, "nodes", st->nodes, full);
	stat_u(o, "data_blocks", st->data_blocks, full);
	stat_u(o, "dentries", st->dentries, full);
	out_obj_end(o);

	roll_forward(o, r);
	if (full)
		out_template(o, "{image}: {stats.inodes} inodes ({stats.directories} directories, "
			     "{stats.files} files, {stats.symlinks} symlinks, {stats.other} other), "
			     "{stats.nodes} nodes, {stats.data_blocks} data blocks, "
			     "{stats.dentries} entries\n");
	if (full && r->answer == F2FS_ANSWER_NO)
		repair_plan(o, &r->plan);

	if (r->repair.wanted)
		repair(o, &r->repair);
	else if (r->errors || r->warnings)
		out_template(o, r->errors ? "{image}: {counts.errors} error(s), {counts.warnings} "
			     "warning(s); left uncorrected\n" :
			     "{image}: {counts.errors} error(s), {counts.warnings} warning(s)\n");
	else
		out_template(o, "{image}: clean\n");
	out_i(o, "exit", NULL, exit_code);
}

void output_not_flagged(struct out *o, const char *image, uint32_t ckpt_flags, int exit_code)
{
	out_lines(o);
	out_msg(o, "image", NULL, image);
	out_s(o, "mode", NULL, "none");
	out_x(o, "checkpoint_flags", NULL, ckpt_flags);
	out_s(o, "flagged", NULL, NULL);
	out_template(o, "{image}: not flagged by the kernel for a check (checkpoint flags "
		     "{checkpoint_flags}); not checked: -n checks it\n");
	out_i(o, "exit", NULL, exit_code);
}
