/* fsck.f2fs: check an F2FS image (read-only; repair is not implemented yet). */
#include "checker.h"
#include <f2fs/util/error.h>
#include <f2fs/fs/fs.h>

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXIT_CLEAN     0
#define EXIT_UNFIXED   4
#define EXIT_OPERROR   8
#define EXIT_USAGE     16

static const char *prog = "fsck.f2fs";

enum { OPT_JSON = 256 };

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [options] IMAGE\n"
"Check an F2FS image or device. It is opened read-only: nothing is written.\n"
"\n"
"  -n, --dry-run    check only (the default while repair is not implemented)\n"
"  -f, --force      full check even if the file system was cleanly unmounted\n"
"  -a, -p           automatic repair: not available yet, checks as with -n\n"
"  -y               answer yes to repairs: not available yet, checks as with -n\n"
"  -C, --progress   show progress of the long phases on stderr\n"
"      --json       print one JSON object instead of text\n"
"  -V, --version    print the version and exit\n"
"  -h, --help       print this help and exit\n"
"\n"
"Without -f, a cleanly unmounted file system gets a quick check: superblock,\n"
"checkpoint, and the NAT and SIT against each other.\n"
"Exit status: 0 no errors, 4 errors left uncorrected, 8 operational error,\n"
"16 usage error.\n", prog);
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

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void print_text_problem(const struct f2fs_problem *p)
{
	const struct f2fs_problem_info *in = f2fs_problem_info(p->code);
	const char *sep = " (";

	printf("%s %s [%s]: %s", in->severity == F2FS_SEV_ERROR ? "ERROR" : "WARNING",
	       in->name, in->structure, p->msg);
#define FIELD(flag, label, val) \
	if (p->have & (flag)) { \
		printf("%s" label " %" PRIu64, sep, (uint64_t)(val)); \
		sep = ", "; \
	}
	FIELD(F2FS_PF_NID, "nid", p->nid)
	FIELD(F2FS_PF_INO, "ino", p->ino)
	FIELD(F2FS_PF_BLKADDR, "block", p->blkaddr)
	FIELD(F2FS_PF_SEGNO, "segment", p->segno)
	FIELD(F2FS_PF_EXPECTED, "expected", p->expected)
	FIELD(F2FS_PF_FOUND, "found", p->found)
#undef FIELD
	if (sep[0] == ',')
		putchar(')');
	if (p->path) {
		printf(" path ");
		for (const char *s = p->path; *s; s++)
			putchar((unsigned char)*s < 0x20 ? '?' : *s);
	}
	putchar('\n');
}

static void print_json(const char *image, const struct f2fs_check_report *r, int exit_code)
{
	printf("{\"image\":");
	json_str(stdout, image);
	printf(",\"mode\":\"%s\",\"checkpoint_flags\":%u,\"problems\":[",
	       r->mode == F2FS_CHECK_FULL ? "full" : "quick", r->ckpt_flags);
	for (size_t i = 0; i < r->nproblems; i++) {
		const struct f2fs_problem *p = &r->problems[i];
		const struct f2fs_problem_info *in = f2fs_problem_info(p->code);

		printf("%s{\"name\":\"%s\",\"structure\":\"%s\",\"severity\":\"%s\"", i ? "," : "",
		       in->name, in->structure,
		       in->severity == F2FS_SEV_ERROR ? "error" : "warning");
#define JFIELD(flag, label, val) \
		if (p->have & (flag)) \
			printf(",\"" label "\":%" PRIu64, (uint64_t)(val));
		JFIELD(F2FS_PF_NID, "nid", p->nid)
		JFIELD(F2FS_PF_INO, "ino", p->ino)
		JFIELD(F2FS_PF_BLKADDR, "blkaddr", p->blkaddr)
		JFIELD(F2FS_PF_SEGNO, "segno", p->segno)
		JFIELD(F2FS_PF_EXPECTED, "expected", p->expected)
		JFIELD(F2FS_PF_FOUND, "found", p->found)
#undef JFIELD
		printf(",\"path\":");
		if (p->path)
			json_str(stdout, p->path);
		else
			printf("null");
		printf(",\"message\":");
		json_str(stdout, p->msg);
		putchar('}');
	}
	printf("],\"counts\":{\"errors\":%" PRIu64 ",\"warnings\":%" PRIu64
	       ",\"suppressed\":%" PRIu64 ",\"by_name\":{",
	       r->errors, r->warnings, r->suppressed);
	for (int c = 0, first = 1; c < F2FS_PB_COUNT; c++) {
		if (!r->count[c])
			continue;
		printf("%s\"%s\":%" PRIu64, first ? "" : ",", f2fs_problem_info(c)->name,
		       r->count[c]);
		first = 0;
	}
	printf("}},\"stats\":{\"inodes\":%" PRIu64 ",\"directories\":%" PRIu64
	       ",\"files\":%" PRIu64 ",\"symlinks\":%" PRIu64 ",\"other\":%" PRIu64
	       ",\"nodes\":%" PRIu64 ",\"data_blocks\":%" PRIu64 ",\"dentries\":%" PRIu64 "}",
	       r->stats.inodes, r->stats.dirs, r->stats.files, r->stats.symlinks,
	       r->stats.others, r->stats.nodes, r->stats.data_blocks, r->stats.dentries);
	printf(",\"roll_forward\":{\"nodes\":%" PRIu64 ",\"fsync\":%" PRIu64 "}",
	       r->roll_forward_nodes, r->roll_forward_fsync);
	printf(",\"exit\":%d}\n", exit_code);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "force", no_argument, NULL, 'f' },
		{ "progress", no_argument, NULL, 'C' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct f2fs_check_options opt = { 0 };
	struct f2fs_check_report *r = NULL;
	struct progress prog_state = { 0 };
	struct f2fs_error err;
	struct f2fs_fs *fs;
	int force = 0, repair = 0, json = 0, show_progress = 0, c, code;
	const char *image;
	uint32_t flags;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "nfapyCVh", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': break;
		case 'f': force = 1; break;
		case 'a': case 'p': case 'y': repair = 1; break;
		case 'C': show_progress = 1; break;
		case OPT_JSON: json = 1; break;
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
	image = argv[optind];
	if (repair)
		fprintf(stderr, "%s: repair is not available yet; checking only, as with -n\n", prog);

	if (f2fs_fs_open(&fs, image, &err)) {
		fprintf(stderr, "%s: %s: %s\n", prog, image, err.msg);
		return EXIT_OPERROR;
	}
	flags = f2fs_fs_cp(fs)->ckpt_flags;   /* little-endian on disk */
	flags = (uint32_t)((const uint8_t *)&flags)[0] | (uint32_t)((const uint8_t *)&flags)[1] << 8 |
		(uint32_t)((const uint8_t *)&flags)[2] << 16 | (uint32_t)((const uint8_t *)&flags)[3] << 24;
	f2fs_fs_close(fs);

	opt.mode = force || !f2fs_check_cp_clean(flags) ? F2FS_CHECK_FULL : F2FS_CHECK_QUICK;
	if (show_progress) {
		opt.progress = progress_cb;
		opt.progress_arg = &prog_state;
	}
	if (f2fs_check(image, &opt, &r, &err)) {
		if (prog_state.phase)
			fputc('\n', stderr);
		fprintf(stderr, "%s: %s: %s\n", prog, image, err.msg);
		return EXIT_OPERROR;
	}
	if (prog_state.phase)
		fputc('\n', stderr);
	code = r->errors ? EXIT_UNFIXED : EXIT_CLEAN;
	if (json) {
		print_json(image, r, code);
	} else {
		if (opt.mode == F2FS_CHECK_QUICK)
			printf("%s: cleanly unmounted; quick check only (superblock, checkpoint, NAT and SIT); use -f for a full check\n",
			       image);
		for (size_t i = 0; i < r->nproblems; i++)
			print_text_problem(&r->problems[i]);
		if (r->suppressed)
			printf("%s: %" PRIu64 " more problem(s) not listed\n", image, r->suppressed);
		if (r->roll_forward_nodes)
			printf("%s: roll-forward: %" PRIu64 " node block(s) written after the checkpoint, %" PRIu64
			       " with an fsync mark%s\n", image, r->roll_forward_nodes,
			       r->roll_forward_fsync,
			       r->count[F2FS_PB_ROLL_FORWARD_LOOP] ? "" : "; the next mount recovers them");
		if (opt.mode == F2FS_CHECK_FULL)
			printf("%s: %" PRIu64 " inodes (%" PRIu64 " directories, %" PRIu64
			       " files, %" PRIu64 " symlinks, %" PRIu64 " other), %" PRIu64
			       " nodes, %" PRIu64 " data blocks, %" PRIu64 " entries\n",
			       image, r->stats.inodes, r->stats.dirs, r->stats.files,
			       r->stats.symlinks, r->stats.others, r->stats.nodes,
			       r->stats.data_blocks, r->stats.dentries);
		if (r->errors || r->warnings)
			printf("%s: %" PRIu64 " error(s), %" PRIu64 " warning(s)%s\n", image,
			       r->errors, r->warnings,
			       r->errors ? "; left uncorrected" : "");
		else
			printf("%s: clean\n", image);
	}
	f2fs_check_report_free(r);
	return code;
}
