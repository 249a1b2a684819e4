/* dump.f2fs: options, then the chosen views of an F2FS image (read-only). */
#include <f2fs/endian.h>
#include <f2fs/error.h>
#include <f2fs/fs.h>

#include "dump.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *prog = "dump.f2fs";

static void usage(FILE *f);

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	return EXIT_USAGE;
}

int debug_level;

void debug_line(int level, const char *fmt, ...)
{
	va_list ap;

	if (debug_level < level)
		return;
	fprintf(stderr, "%s: debug: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int error_line(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_ERROR;
}

/* ---- main ------------------------------------------------------------- */

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (s[0] == '-' || s[0] == '\0' || s[0] == ' ')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* "N", "A~B" or "A~-1" (to the end). */
static int parse_range(const char *s, struct range *r)
{
	const char *t = strchr(s, '~');
	char a[64];

	if (!t)
		return parse_u64(s, &r->start) ? -1 : (r->end = r->start, 0);
	if ((size_t)(t - s) >= sizeof(a))
		return -1;
	memcpy(a, s, (size_t)(t - s));
	a[t - s] = '\0';
	if (parse_u64(a, &r->start))
		return -1;
	if (!strcmp(t + 1, "-1")) {
		r->end = UINT64_MAX;
		return 0;
	}
	return parse_u64(t + 1, &r->end);
}

enum {
	OPT_SB = 256,
	OPT_CP,
	OPT_LS,
	OPT_SEGMENTS,
	OPT_GC,
	OPT_POLICY,
	OPT_FG,
	OPT_BG,
	OPT_MAX_SEARCH,
	OPT_TOP,
	OPT_GC_FREE,
	OPT_GC_SIM,
	OPT_JSON,
	OPT_EXTRACT,
};

struct cli {
	const char *image;
	int show_sb, show_cp;      /* full listings */
	int ls;
	const char *ls_path;
	const char *inode;         /* -i PATH|INO */
	int debug;                 /* -d level */
	int nat, sit, ssa, owner, map, segments, gc, gc_free, gc_sim, json;
	struct range nat_r, sit_r, ssa_r;
	uint64_t blkaddr;
	uint32_t bucket;
	struct gc_cli g;
	const char *extract, *outdir;
	int nviews;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [options] IMAGE\n"
"Print the metadata of an F2FS image or device (never writes to it).\n"
"Without options: a summary of the superblock and the checkpoint in use.\n"
"\n"
"      --sb          list every superblock field\n"
"      --cp          list every field of the checkpoint in use, and its journals\n"
"      --ls [PATH]   list directory PATH (default /) like ls -l; as a separate\n"
"                    word PATH must come before IMAGE (or use --ls=PATH)\n"
"  -i, --inode INO|PATH  details of an inode, by number (decimal or 0x hex)\n"
"                    or by path (/dir/file): attributes, flags, extra\n"
"                    attributes and the block map as extents with holes\n"
"  -n A~B            NAT entries in use for nids A..B (B = -1: to the end)\n"
"  -s A~B            SIT entries of segments A..B\n"
"  -a A~B            SSA entries of segments A..B\n"
"  -b BLKADDR        who owns block BLKADDR (inode, node, file offset)\n"
"  -M                nat_bits check and a block map (one character per segment)\n"
"      --segments[=W]  segment and section counts per log type, a histogram of\n"
"                    valid blocks per segment (buckets of W, default 64),\n"
"                    current segments, overprovision and reserved space\n"
"      --gc          rank GC victims as the kernel would (see --policy ...)\n"
"      --policy P    greedy, cb (cost-benefit) or age (ATGC)\n"
"      --fg, --bg    foreground (greedy, whole dirty map) or background GC\n"
"                    (cost-benefit, window of --max-search); default --bg\n"
"      --max-search N  max_victim_search (default 4096; 0 = no limit)\n"
"      --top N       candidates to list (default 10)\n"
"      --gc-free K   blocks that must move to free K sections\n"
"      --gc-sim[=K]  simulate repeated GC until K free sections, per policy and\n"
"                    window; report blocks moved and write amplification\n"
"      --extract PATH|INO -o DEST  copy a file or a tree out of the image\n"
"  -o DEST           destination of --extract\n"
"      --json        print the views as one JSON object\n"
"  -d LEVEL          debug level (as f2fs-tools): 0 none (default), 1 adds on\n"
"                    stderr what was opened (superblock copy, checkpoint pack)\n"
"                    and how paths resolved, 2 or more also the time of each view\n"
"  -V, --version     print the version and exit\n"
"  -h, --help        print this help and exit\n"
"\n"
"Exit status: 0 success, 1 error (not F2FS, damaged, bad path, out of range),\n"
"16 usage error.\n",
		prog);
}

static int parse_args(struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "sb", no_argument, NULL, OPT_SB },
		{ "cp", no_argument, NULL, OPT_CP },
		{ "ls", optional_argument, NULL, OPT_LS },
		{ "inode", required_argument, NULL, 'i' },
		{ "segments", optional_argument, NULL, OPT_SEGMENTS },
		{ "gc", no_argument, NULL, OPT_GC },
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "fg", no_argument, NULL, OPT_FG },
		{ "bg", no_argument, NULL, OPT_BG },
		{ "max-search", required_argument, NULL, OPT_MAX_SEARCH },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "gc-free", required_argument, NULL, OPT_GC_FREE },
		{ "gc-sim", optional_argument, NULL, OPT_GC_SIM },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "extract", required_argument, NULL, OPT_EXTRACT },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, npos;
	uint64_t v;
	uint32_t ino;

	opterr = 0;
	c->g.top = 10;
	c->bucket = 64;
	while ((opt = getopt_long(argc, argv, ":d:i:n:s:a:b:Mo:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_SB:
			c->show_sb = 1;
			break;
		case OPT_CP:
			c->show_cp = 1;
			break;
		case OPT_LS:
			c->ls = 1;
			c->ls_path = optarg;
			break;
		case 'i':
			if (is_ino_arg(optarg) && parse_ino_arg(optarg, &ino))
				return usage_error("-i %s: not an inode number", optarg);
			c->inode = optarg;
			break;
		case 'd':
			/* f2fs-tools takes any level; above 2 nothing more is shown */
			if (parse_u64(optarg, &v) || v > 99)
				return usage_error("-d %s: not a debug level (0, 1, 2, ...)", optarg);
			c->debug = (int)v;
			break;
		case 'n':
			if (parse_range(optarg, &c->nat_r))
				return usage_error("-n %s: not a range (A~B)", optarg);
			c->nat = 1;
			break;
		case 's':
			if (parse_range(optarg, &c->sit_r))
				return usage_error("-s %s: not a range (A~B)", optarg);
			c->sit = 1;
			break;
		case 'a':
			if (parse_range(optarg, &c->ssa_r))
				return usage_error("-a %s: not a range (A~B)", optarg);
			c->ssa = 1;
			break;
		case 'b':
			if (parse_u64(optarg, &c->blkaddr))
				return usage_error("-b %s: not a block address", optarg);
			c->owner = 1;
			break;
		case 'M':
			c->map = 1;
			break;
		case 'o':
			c->outdir = optarg;
			break;
		case OPT_SEGMENTS:
			c->segments = 1;
			if (optarg) {
				if (parse_u64(optarg, &v) || v == 0 || v > F2FS_BLOCKS_PER_SEG)
					return usage_error("--segments=%s: bucket width must be 1..512", optarg);
				c->bucket = (uint32_t)v;
			}
			break;
		case OPT_GC:
			c->gc = 1;
			break;
		case OPT_POLICY:
			if (!strcmp(optarg, "greedy"))
				c->g.policy = F2FS_GC_GREEDY;
			else if (!strcmp(optarg, "cb") || !strcmp(optarg, "cost-benefit"))
				c->g.policy = F2FS_GC_CB;
			else if (!strcmp(optarg, "age") || !strcmp(optarg, "atgc"))
				c->g.policy = F2FS_GC_AT;
			else
				return usage_error("--policy %s: use greedy, cb or age", optarg);
			c->g.policy_set = 1;
			break;
		case OPT_FG:
			c->g.fg = 1;
			break;
		case OPT_BG:
			c->g.fg = 0;
			break;
		case OPT_MAX_SEARCH:
			if (parse_u64(optarg, &v) || v > UINT32_MAX)
				return usage_error("--max-search %s: not a number", optarg);
			c->g.max_search = (uint32_t)v;
			c->g.max_search_set = 1;
			break;
		case OPT_TOP:
			if (parse_u64(optarg, &v) || v > UINT32_MAX)
				return usage_error("--top %s: not a number", optarg);
			c->g.top = (uint32_t)v;
			break;
		case OPT_GC_FREE:
			if (parse_u64(optarg, &v) || v > UINT32_MAX)
				return usage_error("--gc-free %s: not a number", optarg);
			c->g.free_k = (uint32_t)v;
			c->gc_free = 1;
			break;
		case OPT_GC_SIM:
			if (optarg) {
				if (parse_u64(optarg, &v) || v == 0 || v > UINT32_MAX)
					return usage_error("--gc-sim=%s: not a section count", optarg);
				c->g.sim_target = (uint32_t)v;
			}
			c->gc_sim = 1;
			break;
		case OPT_JSON:
			c->json = 1;
			break;
		case OPT_EXTRACT:
			c->extract = optarg;
			break;
		case 'h':
			usage(stdout);
			return -1;
		case 'V':
			printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION);
			return -1;
		case ':':
			return usage_error("option %s needs an argument", argv[optind - 1]);
		default:
			return usage_error("unknown option %s", argv[optind - 1]);
		}
	}
	npos = argc - optind;
	if (c->ls && !c->ls_path && npos == 2) {
		c->ls_path = argv[optind++];
		npos--;
	}
	if (npos == 0)
		return usage_error("%s", "no image given");
	if (npos > 1)
		return usage_error("unexpected argument %s", argv[optind + 1]);
	c->image = argv[optind];
	if (c->ls && !c->ls_path)
		c->ls_path = "/";
	if (c->extract && !c->outdir)
		return usage_error("%s", "--extract needs -o DEST");
	if (c->outdir && !c->extract)
		return usage_error("%s", "-o needs --extract");
	c->nviews = c->show_sb + c->show_cp + c->ls + !!c->inode + c->nat + c->sit + c->ssa +
		    c->owner + c->map + c->segments + c->gc + c->gc_free + c->gc_sim + !!c->extract;
	return 0;
}

/* ---- views -------------------------------------------------------------- */

/* Each view behind one signature, so main() can run the chosen ones in a loop. */
static int run_summary(struct f2fs_fs *fs, const struct cli *c)
{
	(void)c;
	if (out_json()) {
		view_sb(fs);
		view_cp(fs);
	} else {
		view_sb_summary(fs);
		printf("\n");
		view_cp_summary(fs);
	}
	return EXIT_OK;
}

static int run_sb(struct f2fs_fs *fs, const struct cli *c)
{
	(void)c;
	view_sb(fs);
	return EXIT_OK;
}

static int run_cp(struct f2fs_fs *fs, const struct cli *c)
{
	(void)c;
	view_cp(fs);
	return EXIT_OK;
}

static int run_ls(struct f2fs_fs *fs, const struct cli *c) { return view_ls(fs, c->ls_path); }
static int run_inode(struct f2fs_fs *fs, const struct cli *c) { return view_inode(fs, c->inode); }
static int run_nat(struct f2fs_fs *fs, const struct cli *c) { return view_nat(fs, c->nat_r); }
static int run_sit(struct f2fs_fs *fs, const struct cli *c) { return view_sit(fs, c->sit_r); }
static int run_ssa(struct f2fs_fs *fs, const struct cli *c) { return view_ssa(fs, c->ssa_r); }
static int run_owner(struct f2fs_fs *fs, const struct cli *c) { return view_owner(fs, c->blkaddr); }
static int run_map(struct f2fs_fs *fs, const struct cli *c) { (void)c; return view_map(fs); }
static int run_segments(struct f2fs_fs *fs, const struct cli *c) { return view_segments(fs, c->bucket); }
static int run_gc(struct f2fs_fs *fs, const struct cli *c) { return view_gc(fs, &c->g); }
static int run_gc_free(struct f2fs_fs *fs, const struct cli *c) { return view_gc_free(fs, &c->g); }
static int run_gc_sim(struct f2fs_fs *fs, const struct cli *c) { return view_gc_sim(fs, &c->g); }
static int run_extract(struct f2fs_fs *fs, const struct cli *c)
{
	return do_extract(fs, c->extract, c->outdir);
}

struct view {
	const char *name;
	int (*run)(struct f2fs_fs *fs, const struct cli *c);
	int on;
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Run the chosen views in a fixed order, stopping at the first failure;
 * a blank line separates text views. */
static int run_views(struct f2fs_fs *fs, const struct cli *c)
{
	const struct view views[] = {
		{ "summary", run_summary, c->nviews == 0 },
		{ "sb", run_sb, c->show_sb }, { "cp", run_cp, c->show_cp },
		{ "ls", run_ls, c->ls }, { "inode", run_inode, c->inode != NULL },
		{ "nat", run_nat, c->nat }, { "sit", run_sit, c->sit },
		{ "ssa", run_ssa, c->ssa }, { "owner", run_owner, c->owner },
		{ "map", run_map, c->map }, { "segments", run_segments, c->segments },
		{ "gc", run_gc, c->gc }, { "gc-free", run_gc_free, c->gc_free },
		{ "gc-sim", run_gc_sim, c->gc_sim }, { "extract", run_extract, c->extract != NULL },
	};
	int shown = 0, status = EXIT_OK;

	for (size_t k = 0; k < sizeof(views) / sizeof(views[0]) && status == EXIT_OK; k++) {
		double t0;

		if (!views[k].on)
			continue;
		if (shown++ && !out_json())
			printf("\n");
		fflush(stdout);
		t0 = now_ms();
		status = views[k].run(fs, c);
		fflush(stdout);
		debug_line(2, "view %s: %.3f ms, exit %d", views[k].name, now_ms() - t0, status);
	}
	return status;
}

/* What open() chose, for -d 1: the copies in use and why. */
static void debug_open(struct f2fs_fs *fs, const char *image)
{
	const struct f2fs_error *why;
	const struct f2fs_cp_choice *cp = f2fs_fs_cp_choice(fs);
	int copy = f2fs_fs_sb_copy(fs, &why);

	debug_line(1, "opened %s: superblock copy %d%s%s", image, copy,
		   copy ? ", copy 0 rejected: " : "", copy && why ? why->msg : "");
	debug_line(1, "checkpoint pack %d at block %u, version %" PRIu64 "%s%s",
		   cp->pack + 1, f2fs_fs_cp_start(fs), le64_get(f2fs_fs_cp(fs)->checkpoint_ver),
		   cp->other_valid ? "; other pack valid, older" : "; other pack invalid: ",
		   cp->other_valid ? "" : cp->other_err.msg);
	debug_line(1, "journals: %u NAT, %u SIT entries; %u nids",
		   le16_get(f2fs_fs_nat_journal(fs)->n_entries),
		   le16_get(f2fs_fs_sit_journal(fs)->n_entries), f2fs_fs_max_nid(fs));
}

int main(int argc, char **argv)
{
	struct cli c = { 0 };
	struct f2fs_fs *fs;
	struct f2fs_error err;
	int ret, status;
	double t0 = now_ms();

	ret = parse_args(&c, argc, argv);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	debug_level = c.debug;
	ret = f2fs_fs_open(&fs, c.image, &err);
	if (ret) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return EXIT_ERROR;
	}
	for (int k = 0; k < f2fs_fs_nnotes(fs); k++)
		fprintf(stderr, "%s: warning: %s\n", prog, f2fs_fs_note(fs, k));
	debug_open(fs, c.image);
	debug_line(2, "open: %.3f ms", now_ms() - t0);
	out_init(c.json);
	out_begin();
	status = run_views(fs, &c);
	out_end();
	f2fs_fs_close(fs);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: write error on standard output\n", prog);
		return EXIT_ERROR;
	}
	return status;
}
