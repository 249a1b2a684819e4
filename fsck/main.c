/* fsck.f2fs: check an F2FS image, and repair it when asked. */
#include "checker.h"
#include "../common/out.h"
#include <f2fs/util/error.h>
#include <f2fs/format/endian.h>
#include <f2fs/fs/fs.h>
#include <f2fs/io/dev.h>

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EXIT_CLEAN     0
#define EXIT_FIXED     1
#define EXIT_UNFIXED   4
#define EXIT_OPERROR   8
#define EXIT_USAGE     16

static const char prog[] = "fsck.f2fs";

enum { OPT_JSON = 256, OPT_DISCARD_ROLL };

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [options] IMAGE\n"
"Check an F2FS image or device, and repair it when asked.\n"
"\n"
"  -n, --dry-run    check only: the image is opened read-only, nothing is written\n"
"  -y               repair every problem fsck can fix\n"
"  -p, -a           repair what is safe without a person (preen); name the rest\n"
"  -f, --force      full check even if the file system was cleanly unmounted\n"
"      --discard-roll-forward\n"
"                   repair even though the image holds fsync'd data after its\n"
"                   checkpoint (the repair's checkpoint drops it; mounting the\n"
"                   image first recovers it)\n"
"  -C, --progress   show progress of the long phases on stderr\n"
"      --json       print one JSON object instead of text\n"
"  -V, --version    print the version and exit\n"
"  -h, --help       print this help and exit\n"
"\n"
"Without -f, a cleanly unmounted file system gets a quick check: superblock,\n"
"checkpoint, and the NAT and SIT against each other (a repair first runs the\n"
"full check). Without -n, -y, -p or -a, fsck asks before repairing when it\n"
"runs on a terminal, and only checks otherwise.\n"
"A repair is one transaction: the new checkpoint is written last, so an\n"
"interrupted repair leaves the image as it was or repaired.\n"
"Exit status: 0 no errors, 1 errors corrected, 4 errors left uncorrected,\n"
"8 operational error, 16 usage error.\n", prog);
}

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "%s: %s%s\n", prog, msg, arg ? arg : "");
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	return EXIT_USAGE;
}

/* ---- progress ----------------------------------------------------------- */

struct progress {
	const char *phase;
	double start, last;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void progress_cb(const char *phase, uint64_t done, uint64_t total, void *arg)
{
	struct progress *p = arg;
	double t = now();

	if (p->phase != phase) {
		if (p->phase)
			fputc('\n', stderr);
		p->phase = phase;
		p->start = t;
		p->last = 0;
	}
	if (done < total && t - p->last < 0.1)
		return;
	p->last = t;
	fprintf(stderr, "\r%s: %3u%% (%" PRIu64 "/%" PRIu64 ", %.0f/s)", phase,
		total ? (unsigned)(done * 100 / total) : 100u, done, total,
		t > p->start ? (double)done / (t - p->start) : 0.0);
	fflush(stderr);
}

/* ---- output ------------------------------------------------------------- */

static uint64_t pf_nid(const struct f2fs_problem *p) { return p->nid; }
static uint64_t pf_ino(const struct f2fs_problem *p) { return p->ino; }
static uint64_t pf_blkaddr(const struct f2fs_problem *p) { return p->blkaddr; }
static uint64_t pf_segno(const struct f2fs_problem *p) { return p->segno; }
static uint64_t pf_expected(const struct f2fs_problem *p) { return p->expected; }
static uint64_t pf_found(const struct f2fs_problem *p) { return p->found; }

/* The numbers a problem may carry, in the order both outputs list them:
 * the bit of p->have that says it is set, its text label, its JSON key. */
static const struct problem_field {
	uint32_t flag;
	const char *label, *key;
	uint64_t (*value)(const struct f2fs_problem *p);
} problem_fields[] = {
	{ F2FS_PF_NID, "nid", "nid", pf_nid },
	{ F2FS_PF_INO, "ino", "ino", pf_ino },
	{ F2FS_PF_BLKADDR, "block", "blkaddr", pf_blkaddr },
	{ F2FS_PF_SEGNO, "segment", "segno", pf_segno },
	{ F2FS_PF_EXPECTED, "expected", "expected", pf_expected },
	{ F2FS_PF_FOUND, "found", "found", pf_found },
};

#define NFIELDS (sizeof(problem_fields) / sizeof(problem_fields[0]))

/* A path on the problem's line: a control character would break the
 * line, so it shows as '?'. */
static void text_path(struct out *o, const char *s)
{
	while (*s) {
		size_t n = 0;

		while (s[n] && (unsigned char)s[n] >= 0x20)
			n++;
		out_text(o, "%.*s", (int)n, s);
		s += n;
		if (*s) {
			out_text(o, "?");
			s++;
		}
	}
}

/* SEVERITY name [structure]: message (label value, ...) path P */
static void text_problem(struct out *o, const struct f2fs_problem *p)
{
	const struct f2fs_problem_info *in = f2fs_problem_info(p->code);
	const char *sep = " (";

	out_text(o, "%s %s [%s]: %s", in->severity == F2FS_SEV_ERROR ? "ERROR" : "WARNING",
		 in->name, in->structure, p->msg);
	for (size_t k = 0; k < NFIELDS; k++) {
		const struct problem_field *f = &problem_fields[k];

		if (!(p->have & f->flag))
			continue;
		out_text(o, "%s%s %" PRIu64, sep, f->label, f->value(p));
		sep = ", ";
	}
	if (sep[0] == ',')
		out_text(o, ")");
	if (p->path) {
		out_text(o, " path ");
		text_path(o, p->path);
	}
	if (p->fixed)
		out_text(o, ": fixed (%s)", f2fs_fix_kind_name(in->fix));
	out_text(o, "\n");
}

static void json_problem(struct out *o, const struct f2fs_problem *p)
{
	const struct f2fs_problem_info *in = f2fs_problem_info(p->code);

	out_obj_begin(o, NULL, NULL);
	out_s(o, "name", NULL, in->name);
	out_s(o, "structure", NULL, in->structure);
	out_s(o, "severity", NULL, in->severity == F2FS_SEV_ERROR ? "error" : "warning");
	for (size_t k = 0; k < NFIELDS; k++) {
		const struct problem_field *f = &problem_fields[k];

		if (p->have & f->flag)
			out_u(o, f->key, NULL, f->value(p));
	}
	out_s(o, "path", NULL, p->path);
	out_s(o, "message", NULL, p->msg);
	out_s(o, "fix", NULL, f2fs_fix_kind_name(in->fix));
	out_b(o, "fixed", NULL, p->fixed);
	out_obj_end(o);
}

static void json_repair(struct out *o, const struct f2fs_repair_report *rr)
{
	out_obj_begin(o, "repair", NULL);
	out_b(o, "committed", NULL, rr->committed);
	out_s(o, "refused", NULL, rr->refused[0] ? rr->refused : NULL);
	out_u(o, "fixed", NULL, rr->fixed);
	out_u(o, "unfixed", NULL, rr->unfixed);
	out_obj_begin(o, "nat", NULL);
	out_u(o, "dirty_entries", NULL, rr->written.nat_dirty);
	out_u(o, "blocks_written", NULL, rr->written.nat_blocks);
	out_u(o, "journal_entries", NULL, rr->written.nat_journal);
	out_u(o, "blocks_one_per_entry", NULL, rr->written.nat_dirty);
	out_obj_end(o);
	out_obj_begin(o, "sit", NULL);
	out_u(o, "dirty_entries", NULL, rr->written.sit_dirty);
	out_u(o, "blocks_written", NULL, rr->written.sit_blocks);
	out_u(o, "journal_entries", NULL, rr->written.sit_journal);
	out_obj_end(o);
	out_u(o, "node_blocks", NULL, rr->written.node_blocks);
	out_u(o, "data_blocks", NULL, rr->written.data_blocks);
	out_u(o, "ssa_blocks", NULL, rr->written.ssa_blocks);
	out_u(o, "checkpoint_blocks", NULL, rr->written.cp_blocks);
	out_u(o, "superblock_blocks", NULL, rr->written.sb_blocks);
	out_u(o, "stray_nodes_freed", NULL, rr->stray_nodes_freed);
	out_u(o, "logs_moved", NULL, rr->logs_moved);
	out_u(o, "bytes_written", NULL, rr->written.bytes);
	out_obj_end(o);
}

static void json_report(struct out *o, const char *image, const struct f2fs_check_report *r,
			int exit_code)
{
	const struct f2fs_check_stats *st = &r->stats;

	out_s(o, "image", NULL, image);
	out_s(o, "mode", NULL, r->mode == F2FS_CHECK_FULL ? "full" : "quick");
	out_u(o, "checkpoint_flags", NULL, r->ckpt_flags);
	out_array_begin(o, "problems");
	for (size_t i = 0; i < r->nproblems; i++)
		json_problem(o, &r->problems[i]);
	out_array_end(o);
	out_obj_begin(o, "counts", NULL);
	out_u(o, "errors", NULL, r->errors);
	out_u(o, "warnings", NULL, r->warnings);
	out_u(o, "suppressed", NULL, r->suppressed);
	out_obj_begin(o, "by_name", NULL);
	for (int c = 0; c < F2FS_PB_COUNT; c++)
		if (r->count[c])
			out_u(o, f2fs_problem_info(c)->name, NULL, r->count[c]);
	out_obj_end(o);
	out_obj_end(o);
	out_obj_begin(o, "stats", NULL);
	out_u(o, "inodes", NULL, st->inodes);
	out_u(o, "directories", NULL, st->dirs);
	out_u(o, "files", NULL, st->files);
	out_u(o, "symlinks", NULL, st->symlinks);
	out_u(o, "other", NULL, st->others);
	out_u(o, "nodes", NULL, st->nodes);
	out_u(o, "data_blocks", NULL, st->data_blocks);
	out_u(o, "dentries", NULL, st->dentries);
	out_obj_end(o);
	out_obj_begin(o, "roll_forward", NULL);
	out_u(o, "nodes", NULL, r->roll_forward_nodes);
	out_u(o, "fsync", NULL, r->roll_forward_fsync);
	out_obj_end(o);
	if (r->repair.wanted)
		json_repair(o, &r->repair);
	out_i(o, "exit", NULL, exit_code);
}

static void text_repair(struct out *o, const char *image, const struct f2fs_check_report *r)
{
	const struct f2fs_repair_report *rr = &r->repair;

	if (rr->refused[0])
		out_text(o, "%s: not repaired: %s\n", image, rr->refused);
	if (!rr->committed) {
		out_text(o, "%s: %" PRIu64 " error(s), %" PRIu64 " warning(s); left uncorrected\n",
			 image, r->errors, r->warnings);
		return;
	}
	if (rr->written.cp_blocks) {
		out_text(o, "%s: NAT: %" PRIu64 " entries changed; %" PRIu64 " block(s) written, %"
			 PRIu64 " entries in the journal (a block per entry would be %" PRIu64 ")\n",
			 image, rr->written.nat_dirty, rr->written.nat_blocks, rr->written.nat_journal, rr->written.nat_dirty);
		out_text(o, "%s: SIT: %" PRIu64 " entries changed; %" PRIu64 " block(s) written, %"
			 PRIu64 " entries in the journal\n", image, rr->written.sit_dirty, rr->written.sit_blocks,
			 rr->written.sit_journal);
		if (rr->written.node_blocks || rr->written.data_blocks)
			out_text(o, "%s: written out of place: %" PRIu64 " node block(s), %" PRIu64
				 " data block(s)\n", image, rr->written.node_blocks,
				 rr->written.data_blocks);
		out_text(o, "%s: written: %" PRIu64 " SSA block(s), a %" PRIu64
			 "-block checkpoint pack, %" PRIu64 " superblock copy(ies); %" PRIu64 " bytes\n",
			 image, rr->written.ssa_blocks, rr->written.cp_blocks, rr->written.sb_blocks, rr->written.bytes);
	} else {
		out_text(o, "%s: written: %" PRIu64 " superblock copy(ies), no checkpoint (nothing "
			 "else changed); %" PRIu64 " bytes\n", image, rr->written.sb_blocks, rr->written.bytes);
	}
	if (!rr->unfixed)
		out_text(o, "%s: repaired: %" PRIu64 " problem(s) fixed\n", image, rr->fixed);
	else
		out_text(o, "%s: repaired: %" PRIu64 " problem(s) fixed, %" PRIu64
			 " left uncorrected\n", image, rr->fixed, rr->unfixed);
}

static void text_report(struct out *o, const char *image, const struct f2fs_check_report *r)
{
	const struct f2fs_check_stats *st = &r->stats;

	if (r->mode == F2FS_CHECK_QUICK)
		out_text(o, "%s: cleanly unmounted; quick check only (superblock, checkpoint, NAT and SIT); use -f for a full check\n",
			 image);
	for (size_t i = 0; i < r->nproblems; i++)
		text_problem(o, &r->problems[i]);
	if (r->suppressed)
		out_text(o, "%s: %" PRIu64 " more problem(s) not listed\n", image, r->suppressed);
	if (r->roll_forward_nodes)
		out_text(o, "%s: roll-forward: %" PRIu64 " node block(s) written after the checkpoint, %" PRIu64
			 " with an fsync mark%s\n", image, r->roll_forward_nodes,
			 r->roll_forward_fsync,
			 r->repair.committed ? "; the repair's checkpoint drops them, as asked" :
			 r->count[F2FS_PB_ROLL_FORWARD_LOOP] ? "" : "; the next mount recovers them");
	if (r->mode == F2FS_CHECK_FULL)
		out_text(o, "%s: %" PRIu64 " inodes (%" PRIu64 " directories, %" PRIu64
			 " files, %" PRIu64 " symlinks, %" PRIu64 " other), %" PRIu64
			 " nodes, %" PRIu64 " data blocks, %" PRIu64 " entries\n",
			 image, st->inodes, st->dirs, st->files, st->symlinks, st->others,
			 st->nodes, st->data_blocks, st->dentries);
	if (r->repair.wanted)
		text_repair(o, image, r);
	else if (r->errors || r->warnings)
		out_text(o, "%s: %" PRIu64 " error(s), %" PRIu64 " warning(s)%s\n", image,
			 r->errors, r->warnings, r->errors ? "; left uncorrected" : "");
	else
		out_text(o, "%s: clean\n", image);
}

/* Tests: F2FS_FSCK_FAULT=K[:BYTES] stops a repair's writes after K blocks,
 * letting BYTES of the next one through (a torn write), as a power cut
 * would; the run then ends with an operational error. */
struct fault {
	int64_t after;
	uint32_t torn;
};

static void arm_fault(struct f2fs_fs *fs, void *arg)
{
	const struct fault *f = arg;

	f2fs_dev_fail_torn(f2fs_fs_dev(fs), f->after, f->torn);
}

static int fault_from_env(struct fault *f)
{
	const char *v = getenv("F2FS_FSCK_FAULT");
	char *end;

	if (!v || !*v)
		return 0;
	f->after = strtoll(v, &end, 10);
	f->torn = *end == ':' ? (uint32_t)strtoul(end + 1, &end, 10) : 0;
	return f->after >= 0 && !*end;
}

/* An error of the library: it names the image itself when it can. */
static void op_error(const char *image, const struct f2fs_error *err)
{
	if (strstr(err->msg, image))
		fprintf(stderr, "%s: %s\n", prog, err->msg);
	else
		fprintf(stderr, "%s: %s: %s\n", prog, image, err->msg);
}

/* On a terminal without an answer option: ask once, after the check has
 * shown the problems, whether to repair them (as one transaction). */
static int ask_repair(const struct f2fs_check_report *r)
{
	char line[16];

	if (!(r->errors || r->warnings) || !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return 0;
	printf("Repair these problems? [y/N] ");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	return line[0] == 'y' || line[0] == 'Y';
}

static int exit_code(const struct f2fs_check_report *r)
{
	if (!r->repair.wanted)
		return r->errors ? EXIT_UNFIXED : EXIT_CLEAN;
	if (r->repair.unfixed_errors)
		return EXIT_UNFIXED;
	return r->repair.committed ? EXIT_FIXED : EXIT_CLEAN;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "force", no_argument, NULL, 'f' },
		{ "progress", no_argument, NULL, 'C' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "discard-roll-forward", no_argument, NULL, OPT_DISCARD_ROLL },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct f2fs_check_options opt = { 0 };
	struct f2fs_check_report *r = NULL;
	struct out o;
	struct progress prog_state = { 0 };
	struct fault fault;
	struct f2fs_error err;
	struct f2fs_fs *fs;
	int force = 0, json = 0, show_progress = 0, dry = 0, answered = 0, c, code;
	const char *image;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "nfapyCVh", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': dry = 1; break;
		case 'f': force = 1; break;
		case 'a': case 'p':
			if (opt.fix != F2FS_ANSWER_YES)
				opt.fix = F2FS_ANSWER_PREEN;
			answered = 1;
			break;
		case 'y': opt.fix = F2FS_ANSWER_YES; answered = 1; break;
		case 'C': show_progress = 1; break;
		case OPT_JSON: json = 1; break;
		case OPT_DISCARD_ROLL: opt.discard_roll_forward = 1; break;
		case 'V': printf("%s (f2fsprogs) %s\n", prog, PACKAGE_VERSION); return EXIT_CLEAN;
		case 'h': usage(stdout); return EXIT_CLEAN;
		default:
			if (optopt && optopt < 256) {
				char o[2] = { (char)optopt, 0 };

				return usage_error("invalid option -", o);
			}
			return usage_error("invalid option ", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return usage_error(optind >= argc ? "no image given" : "too many arguments", NULL);
	if (dry && answered)
		return usage_error("-n (check only) cannot go with -y, -p or -a", NULL);
	image = argv[optind];

	if (f2fs_fs_open(&fs, image, &err)) {
		op_error(image, &err);
		return EXIT_OPERROR;
	}
	/* -y asks for every fix: it gets the full check, as a plain run will */
	opt.mode = force || opt.fix == F2FS_ANSWER_YES || !f2fs_check_cp_clean(le32_get(f2fs_fs_cp(fs)->ckpt_flags)) ?
		   F2FS_CHECK_FULL : F2FS_CHECK_QUICK;
	f2fs_fs_close(fs);
	if (show_progress) {
		opt.progress = progress_cb;
		opt.progress_arg = &prog_state;
	}
	if (fault_from_env(&fault)) {
		opt.opened = arm_fault;
		opt.opened_arg = &fault;
	}
	for (;;) {
		if (f2fs_check(image, &opt, &r, &err)) {
			if (prog_state.phase)
				fputc('\n', stderr);
			op_error(image, &err);
			return EXIT_OPERROR;
		}
		if (prog_state.phase)
			fputc('\n', stderr);
		prog_state.phase = NULL;
		out_init(&o, stdout, json ? OUT_JSON_COMPACT : OUT_TEXT);
		code = exit_code(r);
		out_begin(&o);
		if (json)
			json_report(&o, image, r, code);
		else
			text_report(&o, image, r);
		out_end(&o);
		if (dry || answered || json || !ask_repair(r))
			break;
		f2fs_check_report_free(r);
		opt.fix = F2FS_ANSWER_YES;
		answered = 1;
	}
	f2fs_check_report_free(r);
	return code;
}
