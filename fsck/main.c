/* fsck.f2fs: check an F2FS image, and repair it when asked. */
#include "checker.h"
#include "info.h"
#include "output.h"
#include "../common/out.h"
#include <f2fs/util/error.h>
#include <f2fs/format/endian.h>
#include <f2fs/fs/fs.h>
#include <f2fs/io/dev.h>

#include <ctype.h>
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
#define EXIT_CANCELED  32

static const char prog[] = "fsck.f2fs";

enum {
	OPT_JSON = 256, OPT_DISCARD_ROLL, OPT_PROGRESS, OPT_QUICK, OPT_DEBUG_CACHE,
	OPT_KERNEL_CHECK, OPT_NO_KERNEL_CHECK, OPT_DEVICE, OPT_KEEP_ROLL,
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [options] IMAGE\n"
"Check an F2FS image or device, and repair it when asked.\n"
"\n"
"  -n, -N, --dry-run  check only: the image is opened read-only, nothing is written\n"
"  -y               repair every problem fsck can fix\n"
"  -f               repair as -y does (f2fs-tools' meaning); on a terminal, ask\n"
"                   per kind of problem; with -n, check only\n"
"  -a, -p [0|2]     only if the kernel flagged the image (checkpoint flags, stop\n"
"                   reasons, errors in the superblock): check it and repair what is\n"
"                   safe without a person (preen); otherwise say so and exit 0\n"
"  -p 1             quick check if cleanly unmounted and not flagged; the full\n"
"                   check and preen repair when it finds something or if flagged\n"
"      --quick      quick check of a cleanly unmounted, unflagged image (superblock,\n"
"                   checkpoint, NAT and SIT)\n"
"      --discard-roll-forward\n"
"                   drop the fsync'd data after the checkpoint (the roll-forward\n"
"                   chain) instead of recovering it as a mount would\n"
"      --keep-roll-forward\n"
"                   leave that chain to the kernel's next mount: nothing is\n"
"                   written while the image holds one\n"
"  -l               print the superblock and checkpoint and exit\n"
"  -t               print the directory tree, then check\n"
"  -M               print the file map (inode number, type, path) and exit\n"
"      --progress   show progress of the long phases on stderr\n"
"      --json       print one JSON object instead of text\n"
"  -g android       the defaults of Android's fsck (as -a)\n"
"      --device DEV a later device of a volume over several (mkfs -c), in\n"
"                   mkfs's order; repeat for each; default: the paths the\n"
"                   superblock records\n"
"  -d N, -c N, -m N, -q N, --debug-cache, --kernel-check, --no-kernel-check\n"
"                   accepted for f2fs-tools' command lines; no effect here\n"
"  -O FEATURE, -C ENCODING[:FLAGS], -S\n"
"                   accepted, refused: not supported yet (exit 8)\n"
"  -V, --version    print the version and exit\n"
"  -h, --help       print this help and exit\n"
"\n"
"Without an option, fsck runs the full check; on a terminal it then asks,\n"
"per kind of problem, whether to repair. Without a terminal it only checks.\n"
"A check-only run never writes. A repair is one transaction: the new\n"
"checkpoint is written last, so an interrupted repair leaves the image as\n"
"it was or repaired.\n"
"Questions come in the order of cause (a name before the link counts it\n"
"changes); a fix standing on one declined is not asked, and not made.\n"
"[q]uit writes nothing, whatever was answered before, and exits 32.\n"
"Exit status: 0 no errors, 1 errors corrected, 4 errors left uncorrected,\n"
"8 operational error, 16 usage error, 32 cancelled at a question.\n", prog);
}

static int json_wanted;   /* --json: errors are JSON objects on stdout too */

static void json_error(const char *image, const char *kind, int code, const char *msg, int exit_code)
{
	out_error_doc(stdout, OUT_JSON_COMPACT, image, kind, code, msg, exit_code);
}

static int usage_error(const char *msg, const char *arg)
{
	char line[512];

	snprintf(line, sizeof(line), "%s%s", msg, arg ? arg : "");
	fprintf(stderr, "%s: %s\n", prog, line);
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	if (json_wanted)
		json_error(NULL, "usage", 0, line, EXIT_USAGE);
	return EXIT_USAGE;
}

/* Something f2fs-tools' fsck.f2fs does that this one does not do yet. */
static int unsupported(const char *what)
{
	fprintf(stderr, "%s: %s: not supported yet\n", prog, what);
	if (json_wanted) {
		char line[512];

		snprintf(line, sizeof(line), "%s: not supported yet", what);
		json_error(NULL, "unsupported", 0, line, EXIT_OPERROR);
	}
	return EXIT_OPERROR;
}

/* An error of the library: it names the image itself when it can. */
static int op_error(const char *image, const struct f2fs_error *err)
{
	if (strstr(err->msg, image))
		fprintf(stderr, "%s: %s\n", prog, err->msg);
	else
		fprintf(stderr, "%s: %s: %s\n", prog, image, err->msg);
	if (json_wanted)
		json_error(image, f2fs_strerror(err->code), err->code < 0 ? -err->code : err->code,
			   err->msg, EXIT_OPERROR);
	return EXIT_OPERROR;
}

/* ---- progress ----------------------------------------------------------- */

/*
 * One line per phase. On a terminal the line is rewritten in place (\r)
 * at most ten times a second; otherwise a line is printed every five
 * seconds of a long phase and one at its end. A phase's last line is
 * 100%, and its rate is units per second since the phase began (the end
 * of the previous phase, or the check's start, when the checker reports
 * the phase only after its first batch).
 */
struct progress {
	int tty;
	const char *phase;
	uint64_t done, total;
	double start, last;
	double prev_end;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void progress_line(struct progress *p, double t, int final)
{
	double secs = t - p->start;

	fprintf(stderr, "%s%s: %3u%% (%" PRIu64 "/%" PRIu64 ", %.0f/s)%s",
		p->tty ? "\r" : "", p->phase,
		p->total ? (unsigned)(p->done * 100 / p->total) : 100u, p->done, p->total,
		secs > 0 ? (double)p->done / secs : 0.0,
		p->tty && !final ? "   " : "\n");
	fflush(stderr);
}

/* End the open phase: its last line says 100%. */
static void progress_end(struct progress *p)
{
	double t = now();

	if (!p->phase)
		return;
	p->done = p->total;
	progress_line(p, t, 1);
	p->phase = NULL;
	p->prev_end = t;
}

static void progress_cb(const char *phase, uint64_t done, uint64_t total, void *arg)
{
	struct progress *p = arg;
	double t = now();

	if (!p->phase || strcmp(p->phase, phase) != 0 || done < p->done) {
		progress_end(p);
		p->phase = phase;
		p->start = done ? p->prev_end : t;
		p->last = t;
		p->done = 0;
		if (p->tty) {
			p->total = total;
			progress_line(p, t, 0);
		}
	}
	p->done = done;
	p->total = total;
	if (t - p->last < (p->tty ? 0.1 : 5.0))
		return;
	p->last = t;
	progress_line(p, t, 0);
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

/* ---- asking ------------------------------------------------------------- */

/* On a terminal, the answers to "fix this kind of problem?", asked once
 * per kind after the check-only run has shown the problems, in the order
 * of cause (problem.h's order column). */
struct answers {
	signed char fix[F2FS_PB_COUNT];   /* 1 yes, 0 no, -1 not asked */
	int all, none;                    /* "a": yes to the rest; EOF: no to the rest */
	int quit;                         /* "q": nothing is written */
};

/* 1 yes, 0 no, -1 quit. */
static int ask_kind(struct answers *a, enum f2fs_problem_code code, uint64_t count)
{
	const struct f2fs_problem_info *in = f2fs_problem_info(code);
	char line[32];

	if (a->quit)
		return -1;
	if (a->fix[code] >= 0)
		return a->fix[code];
	if (a->all || a->none)
		return a->fix[code] = (signed char)a->all;
	for (;;) {
		printf("%s (%" PRIu64 "): %s.\nFix? [y]es, [n]o, [a]ll, [q]uit: ", in->name, count,
		       in->description);
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin)) {
			putchar('\n');
			a->none = 1;
			return a->fix[code] = 0;
		}
		switch (tolower((unsigned char)line[0])) {
		case 'y': return a->fix[code] = 1;
		case 'n': return a->fix[code] = 0;
		case 'a': a->all = 1; return a->fix[code] = 1;
		case 'q': a->quit = 1; return -1;
		default: break;
		}
	}
}

/* A fix standing on one found and not to be made (f2fs_problem_needs):
 * that one's code, or -1. */
static int stands_on_undone(const struct f2fs_check_report *r, const struct answers *a,
			    enum f2fs_problem_code c)
{
	for (int b = 0; b < F2FS_PB_COUNT; b++)
		if (r->count[b] && f2fs_problem_needs(c, (enum f2fs_problem_code)b) &&
		    !(f2fs_check_fixable((enum f2fs_problem_code)b, F2FS_ANSWER_YES) && a->fix[b] == 1))
			return b;
	return -1;
}

/* Ask, per kind the repair can fix, after the check-only run, in the order
 * of cause; a kind whose fix stands on one declined is not asked (the
 * repair would not make it). Returns whether anything is to be fixed, or
 * -1 when the user quit. */
static int ask_repair(const struct f2fs_check_report *r, struct answers *a)
{
	enum f2fs_problem_code order[F2FS_PB_COUNT];
	int any = 0;

	memset(a->fix, -1, sizeof(a->fix));
	a->all = a->none = a->quit = 0;
	f2fs_problems_in_order(order);
	for (int k = 0; k < F2FS_PB_COUNT; k++) {
		enum f2fs_problem_code c = order[k];
		int b, yes;

		if (!r->count[c] || !f2fs_check_fixable(c, F2FS_ANSWER_YES))
			continue;
		if ((b = stands_on_undone(r, a, c)) >= 0) {
			a->fix[c] = 0;
			if (!a->all && !a->none)
				printf("%s (%" PRIu64 "): not asked: its fix stands on %s, not fixed.\n",
				       f2fs_problem_info(c)->name, r->count[c],
				       f2fs_problem_info((enum f2fs_problem_code)b)->name);
			continue;
		}
		yes = ask_kind(a, c, r->count[c]);
		if (yes < 0)
			return -1;
		any |= yes;
	}
	return any;
}

/* The repair run's question: the answer given, asked now if the second
 * run found a kind the first did not (< 0: the user quit). */
static int confirm_cb(enum f2fs_problem_code code, uint64_t count, void *arg)
{
	return ask_kind(arg, code, count);
}

static int exit_code(const struct f2fs_check_report *r)
{
	if (r->repair.cancelled)
		return EXIT_CANCELED;
	if (!r->repair.wanted)
		return r->errors ? EXIT_UNFIXED : EXIT_CLEAN;
	if (r->repair.unfixed_errors)
		return EXIT_UNFIXED;
	return r->repair.committed ? EXIT_FIXED : EXIT_CLEAN;
}

/* ---- options ------------------------------------------------------------- */

struct cli {
	int dry, yes, force, auto_fix, preen, quick, json, progress;
	int layout, tree, map;
	const char *image;
	const char *devices[F2FS_MAX_DEVICES];   /* --device: devices 2.. */
	unsigned ndevices;
	const char *refuse;         /* an option not supported yet */
	char refuse_buf[300];
};

static int digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* -p takes an optional level as the next word, as f2fs-tools reads it: a
 * word of digits that is not the last argument (the image). */
static int preen_level(struct cli *c, int argc, char **argv)
{
	int attached = optarg != argv[optind - 1];

	if (!attached && (!digits(optarg) || optind == argc)) {
		optind--;
		c->preen = 0;
		return 0;
	}
	if (!digits(optarg))
		return usage_error("-p: the preen level is 0, 1 or 2, not ", optarg);
	c->preen = atoi(optarg) > 2 ? 2 : atoi(optarg);
	return 0;
}

static int parse(struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "quick", no_argument, NULL, OPT_QUICK },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "discard-roll-forward", no_argument, NULL, OPT_DISCARD_ROLL },
		{ "keep-roll-forward", no_argument, NULL, OPT_KEEP_ROLL },
		{ "debug-cache", no_argument, NULL, OPT_DEBUG_CACHE },
		{ "kernel-check", no_argument, NULL, OPT_KERNEL_CHECK },
		{ "no-kernel-check", no_argument, NULL, OPT_NO_KERNEL_CHECK },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o, ret;

	c->preen = -1;
	opterr = 0;
	while ((o = getopt_long(argc, argv, ":ac:C:d:fg:hlm:MnNO:p:q:StVy", longopts, NULL)) != -1) {
		switch (o) {
		case 'n': case 'N': c->dry = 1; break;
		case 'y': c->yes = 1; break;
		case 'f': c->force = 1; break;
		case 'a': c->auto_fix = 1; break;
		case 'p':
			if ((ret = preen_level(c, argc, argv)))
				return ret;
			break;
		case 'g':
			if (strcmp(optarg, "android"))
				return usage_error("-g: the only default set is 'android', not ", optarg);
			c->auto_fix = 1;
			break;
		case 'd': case 'c': case 'm': case 'q':
			if (!digits(optarg)) {
				char o2[4] = { '-', (char)o, ' ', 0 };

				return usage_error(o2, "needs a number");
			}
			break;   /* debug level, cache size, hash collisions, quota limits */
		case OPT_DEBUG_CACHE: case OPT_KERNEL_CHECK: case OPT_NO_KERNEL_CHECK:
			break;
		case 'O':
			snprintf(c->refuse_buf, sizeof(c->refuse_buf),
				 "-O %s: enabling features on an existing image", optarg);
			c->refuse = c->refuse_buf;
			break;
		case 'C':
			snprintf(c->refuse_buf, sizeof(c->refuse_buf),
				 "-C %s: enabling casefolding on an existing image", optarg);
			c->refuse = c->refuse_buf;
			break;
		case 'S':
			c->refuse = "-S: Android sparse images (simg2img makes a raw image of one)";
			break;
		case 'l': c->layout = 1; break;
		case 't': c->tree = 1; break;
		case 'M': c->map = 1; break;
		case OPT_PROGRESS: c->progress = 1; break;
		case OPT_QUICK: c->quick = 1; break;
		case OPT_JSON: c->json = 1; break;
		case OPT_DISCARD_ROLL: break;   /* read again by main */
		case OPT_DEVICE:
			if (c->ndevices == F2FS_MAX_DEVICES - 1)
				return usage_error("--device: a volume has at most 8 devices", NULL);
			c->devices[c->ndevices++] = optarg;
			break;
		case OPT_KEEP_ROLL: break;      /* read again by main */
		case 'V': printf("%s (f2fsprogs) %s\n", prog, PACKAGE_VERSION); return -1;
		case 'h': usage(stdout); return -1;
		case ':':
			if (optopt == 'p') {   /* -p as the last word: the level is 0 */
				c->preen = 0;
				break;
			}
			{
				char o2[3] = { '-', (char)optopt, 0 };

				return usage_error(o2, " needs an argument");
			}
		default:
			if (optopt && optopt < 256) {
				char o2[2] = { (char)optopt, 0 };

				return usage_error("invalid option -", o2);
			}
			return usage_error("invalid option ", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return usage_error(optind >= argc ? "no image given" : "too many arguments", NULL);
	c->image = argv[optind];
	if (c->dry && c->yes)
		return usage_error("-n, -N or --dry-run (check only) cannot go with -y", NULL);
	if (c->quick && c->force)
		return usage_error("--quick cannot go with -f (a full check)", NULL);
	if (c->tree && c->json)
		return usage_error("-t prints text; it cannot go with --json", NULL);
	return 0;
}

/* ---- main ---------------------------------------------------------------- */

/* -l, -M: print and exit, nothing checked. */
static int show_only(const struct cli *c)
{
	struct f2fs_error err = { 0 };
	struct f2fs_fs *fs;
	struct out o;
	unsigned failed = 0;

	if (f2fs_fs_open_devices(&fs, c->image, c->devices, c->ndevices, F2FS_DEV_RDONLY, &err))
		return op_error(c->image, &err);
	out_init(&o, stdout, c->json ? OUT_JSON_COMPACT : OUT_TEXT);
	out_begin(&o);
	out_s(&o, "image", NULL, c->image);
	if (c->layout)
		info_layout(&o, fs);
	if (c->map)
		failed = info_tree(&o, fs, 1);
	if (c->json)
		out_i(&o, "exit", NULL, failed ? EXIT_OPERROR : EXIT_CLEAN);
	out_end(&o);
	f2fs_fs_close(fs);
	if (failed)
		fprintf(stderr, "%s: %s: %u director%s could not be read\n", prog, c->image, failed,
			failed == 1 ? "y" : "ies");
	return failed ? EXIT_OPERROR : EXIT_CLEAN;
}

/* -a, -p 0/2 on an image the kernel did not flag: one line, no check. */
static int not_flagged(const struct cli *c, uint32_t ckpt_flags)
{
	struct out o;

	out_init(&o, stdout, c->json ? OUT_JSON_COMPACT : OUT_TEXT);
	out_begin(&o);
	output_not_flagged(&o, c->image, ckpt_flags, EXIT_CLEAN);
	out_end(&o);
	return EXIT_CLEAN;
}

int main(int argc, char **argv)
{
	struct f2fs_check_options opt = { .now = (int64_t)time(NULL) };
	struct f2fs_check_report *r = NULL;
	struct cli c = { 0 };
	struct out o;
	struct progress prog_state = { 0 };
	struct answers answers;
	struct fault fault;
	struct f2fs_error err = { 0 };
	struct f2fs_fs *fs;
	char why[256];
	const char *flagged_why;
	int ask = 0, any, flagged, clean, code;
	uint32_t ckpt_flags;

	for (int k = 1; k < argc && strcmp(argv[k], "--"); k++)
		if (!strcmp(argv[k], "--json"))
			json_wanted = 1;
	for (int k = 1; k < argc && strcmp(argv[k], "--"); k++)
		if (!strcmp(argv[k], "--discard-roll-forward"))
			opt.discard_roll_forward = 1;
		else if (!strcmp(argv[k], "--keep-roll-forward"))
			opt.keep_roll_forward = 1;
	code = parse(&c, argc, argv);
	if (code)
		return code < 0 ? EXIT_CLEAN : code;
	if (c.refuse)
		return unsupported(c.refuse);
	if (c.layout || c.map)
		return show_only(&c);

	if (f2fs_fs_open_devices(&fs, c.image, c.devices, c.ndevices, F2FS_DEV_RDONLY, &err))
		return op_error(c.image, &err);
	opt.devices = c.devices;
	opt.ndevices = c.ndevices;
	output_note_devices(fs);
	ckpt_flags = le32_get(f2fs_fs_cp(fs)->ckpt_flags);
	flagged = info_kernel_flagged(fs, why, sizeof(why));
	flagged_why = flagged ? why : NULL;
	clean = f2fs_check_cp_clean(ckpt_flags) && !flagged;
	if (c.tree) {
		unsigned failed;

		out_init(&o, stdout, OUT_TEXT);
		failed = info_tree(&o, fs, 0);
		if (failed)
			fprintf(stderr, "%s: %s: %u director%s could not be read\n", prog, c.image,
				failed, failed == 1 ? "y" : "ies");
	}
	f2fs_fs_close(fs);

	/* what to check and what to fix (the man page's table) */
	opt.mode = F2FS_CHECK_FULL;
	if (c.yes) {
		opt.fix = F2FS_ANSWER_YES;
	} else if (c.force) {
		/* f2fs-tools' -f repairs; a person at a terminal is asked */
		if (c.dry)
			opt.fix = F2FS_ANSWER_NO;
		else if (!c.json && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
			ask = 1;
		else
			opt.fix = F2FS_ANSWER_YES;
	} else if (c.auto_fix || c.preen >= 0) {
		if (c.preen == 1) {
			if (clean)
				opt.mode = F2FS_CHECK_QUICK;
		} else if (!flagged) {
			return not_flagged(&c, ckpt_flags);
		}
		opt.fix = c.dry ? F2FS_ANSWER_NO : F2FS_ANSWER_PREEN;
	} else {
		ask = !c.dry && !c.json && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	}
	if (c.quick && clean)
		opt.mode = F2FS_CHECK_QUICK;

	if (c.progress) {
		prog_state.tty = isatty(STDERR_FILENO);
		opt.progress = progress_cb;
		opt.progress_arg = &prog_state;
	}
	if (fault_from_env(&fault)) {
		opt.opened = arm_fault;
		opt.opened_arg = &fault;
	}
	if (getenv("F2FS_FSCK_STAGED_NODES"))
		opt.staged_nodes = (unsigned)strtoul(getenv("F2FS_FSCK_STAGED_NODES"), NULL, 10);
	for (;;) {
		prog_state.prev_end = now();
		if (f2fs_check(c.image, &opt, &r, &err)) {
			progress_end(&prog_state);
			return op_error(c.image, &err);
		}
		progress_end(&prog_state);
		out_init(&o, stdout, c.json ? OUT_JSON_COMPACT : OUT_TEXT);
		code = exit_code(r);
		out_begin(&o);
		output_report(&o, c.image, r, flagged_why, code);
		out_end(&o);
		if (!ask || !(r->errors || r->warnings))
			break;
		any = ask_repair(r, &answers);
		if (any < 0) {
			/* q: the check-only run wrote nothing, and nothing is */
			fprintf(stderr, "%s: %s: cancelled: nothing written\n", prog, c.image);
			code = EXIT_CANCELED;
			break;
		}
		if (!any)
			break;
		/* the repair, with the answers given */
		f2fs_check_report_free(r);
		ask = 0;
		opt.fix = F2FS_ANSWER_YES;
		opt.confirm = confirm_cb;
		opt.confirm_arg = &answers;
	}
	f2fs_check_report_free(r);
	return code;
}
