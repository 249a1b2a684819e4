/* dump.f2fs: options, then the chosen views of an F2FS image (read-only). */
#include <f2fs/format/endian.h>
#include <f2fs/util/error.h>
#include <f2fs/fs/fs.h>

#include "dump.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static void usage(FILE *f);

static int json_wanted;   /* --json anywhere: failures are JSON on stdout too */

/* A failure as the one JSON document on stdout (fsck's shape). */
static void json_failure(const char *image, const char *kind, int code, const char *msg,
			 int exit_code)
{
	out_error_doc(stdout, OUT_JSON, image, kind, code, msg, exit_code);
}

static int usage_error(const char *fmt, const char *arg)
{
	char line[512];

	snprintf(line, sizeof(line), fmt, arg);
	fprintf(stderr, "%s: %s\n", prog, line);
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	if (json_wanted)
		json_failure(NULL, "usage", 0, line, EXIT_USAGE);
	return EXIT_USAGE;
}

/* "dump.f2fs: OPT ARG: why" and the pointer to --help. */
static int bad_value(const char *opt, const char *arg, const char *why)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "%s %s: %s", opt, arg, why);
	return usage_error("%s", msg);
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
	OPT_MAP_SVG,
	OPT_METADUMP,
	OPT_KEEP_NAMES,
	OPT_RESTORE,
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
	OPT_DEVICE,
	OPT_ZONES,
};

struct cli {
	const char *image;
	int show_sb, show_cp;      /* full listings */
	int ls;
	const char *ls_path;
	const char *inode;         /* -i PATH|INO */
	int debug;                 /* -d level */
	int nat, sit, ssa, owner, map, segments, gc, gc_free, gc_sim, json, zones;
	struct range nat_r, sit_r, ssa_r;
	uint64_t blkaddr;
	uint32_t bucket;
	struct gc_cli g;
	const char *extract, *outdir;
	const char *map_svg;       /* --map FILE */
	const char *metadump;      /* --metadump FILE */
	const char *restore;       /* --restore FILE (-o IMAGE) */
	bool keep_names;
	int nviews;
	const char *devices[F2FS_MAX_DEVICES];   /* -c/--device: devices 2.. */
	unsigned ndevices;
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
"      --ls [PATH]   list directory PATH (default /) like ls -li (with mtime,\n"
"                    and major, minor of devices); as a separate word PATH\n"
"                    must come before IMAGE (or use --ls=PATH)\n"
"  -i, --inode INO|PATH  details of an inode, by number (decimal or 0x hex)\n"
"                    or by path (/dir/file): attributes, flags, extra\n"
"                    attributes and the block map as extents with holes\n"
"  -n A~B            NAT entries in use for nids A..B (B = -1: to the end)\n"
"  -s A~B            SIT entries of segments A..B\n"
"  -a A~B            SSA entries of segments A..B\n"
"  -b BLKADDR        who owns block BLKADDR (inode, node, file offset)\n"
"  -M                nat_bits check and a block map (one character per segment)\n"
"      --metadump FILE  write the metadata (no file data; names scrambled\n"
"                    unless --keep-names) into FILE, zlib-compressed\n"
"      --restore FILE -o IMAGE  write a metadata image back into a new IMAGE\n"
"      --map FILE    draw the main area as an SVG picture into FILE: sections by\n"
"                    type and valid ratio, current logs, the GC victims ranked\n"
"                    (by --policy, --fg/--bg as for --gc)\n"
"      --segments[=W]  segment and section counts per log type, a histogram of\n"
"                    valid blocks per segment (buckets of W, default 64),\n"
"                    current segments, overprovision and reserved space\n"
"      --zones       zoned device: each zone's type, condition and write pointer\n"
"                    beside the section it holds (log, valid blocks)\n"
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
"  -c, --device DEV  a later device of a volume over several (mkfs -c), in\n"
"                    mkfs's order; repeat for each; default: the paths the\n"
"                    superblock records\n"
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

/* A number option within lo..hi; *out is left alone on error. */
static int opt_u32(const char *arg, uint64_t lo, uint64_t hi, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(arg, &v) || v < lo || v > hi)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int opt_range(const char *name, const char *arg, struct range *r, int *on)
{
	if (parse_range(arg, r))
		return bad_value(name, arg, "not a range (A~B)");
	*on = 1;
	return 0;
}

static int opt_policy(struct gc_cli *g, const char *arg)
{
	if (!strcmp(arg, "greedy"))
		g->policy = F2FS_GC_GREEDY;
	else if (!strcmp(arg, "cb") || !strcmp(arg, "cost-benefit"))
		g->policy = F2FS_GC_CB;
	else if (!strcmp(arg, "age") || !strcmp(arg, "atgc"))
		g->policy = F2FS_GC_AT;
	else
		return bad_value("--policy", arg, "use greedy, cb or age");
	g->policy_set = 1;
	return 0;
}

/* GC options: 0 taken, EXIT_USAGE on a bad value, -1 not a GC option. */
static int parse_gc_opt(struct cli *c, int opt, const char *arg)
{
	struct gc_cli *g = &c->g;

	switch (opt) {
	case OPT_GC:
		c->gc = 1;
		return 0;
	case OPT_POLICY:
		return opt_policy(g, arg);
	case OPT_FG:
	case OPT_BG:
		g->fg = opt == OPT_FG;
		g->fg_set = 1;
		return 0;
	case OPT_MAX_SEARCH:
		g->max_search_set = 1;
		return opt_u32(arg, 0, UINT32_MAX, &g->max_search) ?
		       bad_value("--max-search", arg, "not a number") : 0;
	case OPT_TOP:
		g->top_set = 1;
		return opt_u32(arg, 0, UINT32_MAX, &g->top) ?
		       bad_value("--top", arg, "not a number") : 0;
	case OPT_GC_FREE:
		c->gc_free = 1;
		return opt_u32(arg, 0, UINT32_MAX, &g->free_k) ?
		       bad_value("--gc-free", arg, "not a number") : 0;
	case OPT_GC_SIM:
		c->gc_sim = 1;
		return arg && opt_u32(arg, 1, UINT32_MAX, &g->sim_target) ?
		       bad_value("--gc-sim", arg, "not a section count") : 0;
	}
	return -1;
}

/* The views of f2fs-tools' single-letter options. */
static int parse_letter_opt(struct cli *c, int opt, const char *arg)
{
	uint32_t u;

	switch (opt) {
	case 'i':
		if (is_ino_arg(arg) && parse_ino_arg(arg, &u))
			return bad_value("-i", arg, "not an inode number");
		c->inode = arg;
		return 0;
	case 'd':
		/* f2fs-tools takes any level; above 2 nothing more is shown */
		if (opt_u32(arg, 0, 99, &u))
			return bad_value("-d", arg, "not a debug level (0, 1, 2, ...)");
		c->debug = (int)u;
		return 0;
	case 'n':
		return opt_range("-n", arg, &c->nat_r, &c->nat);
	case 's':
		return opt_range("-s", arg, &c->sit_r, &c->sit);
	case 'a':
		return opt_range("-a", arg, &c->ssa_r, &c->ssa);
	case 'b':
		c->owner = 1;
		return parse_u64(arg, &c->blkaddr) ?
		       bad_value("-b", arg, "not a block address") : 0;
	case 'M':
		c->map = 1;
		return 0;
	}
	return -1;
}

/* Options of this tool's own views. */
static int parse_long_opt(struct cli *c, int opt, const char *arg)
{
	switch (opt) {
	case OPT_SB:
		c->show_sb = 1;
		return 0;
	case OPT_CP:
		c->show_cp = 1;
		return 0;
	case OPT_LS:
		c->ls = 1;
		c->ls_path = arg;
		return 0;
	case OPT_MAP_SVG:
		c->map_svg = arg;
		return 0;
	case OPT_METADUMP:
		c->metadump = arg;
		return 0;
	case OPT_KEEP_NAMES:
		c->keep_names = true;
		return 0;
	case OPT_RESTORE:
		c->restore = arg;
		return 0;
	case OPT_SEGMENTS:
		c->segments = 1;
		return arg && opt_u32(arg, 1, F2FS_BLOCKS_PER_SEG, &c->bucket) ?
		       bad_value("--segments", arg, "bucket width must be 1..512") : 0;
	case OPT_JSON:
		c->json = 1;
		return 0;
	case OPT_ZONES:
		c->zones = 1;
		return 0;
	case OPT_EXTRACT:
		c->extract = arg;
		return 0;
	case 'o':
		c->outdir = arg;
		return 0;
	case 'c': case OPT_DEVICE:
		if (c->ndevices == F2FS_MAX_DEVICES - 1)
			return bad_value("--device", arg, "a volume has at most 8 devices");
		c->devices[c->ndevices++] = arg;
		return 0;
	}
	return -1;
}

/* A file or block device here, which an image argument must be. */
static bool could_be_image(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode));
}

/* What is left after the options: the image, and --ls's PATH when it was
 * given as a separate word; then the checks across options. */
static int parse_operands(struct cli *c, int argc, char **argv)
{
	int npos = argc - optind;

	if (c->ls && !c->ls_path && npos == 2) {
		/* PATH IMAGE, unless only the first word can be an image: then
		 * they were given the other way round */
		if (!could_be_image(argv[optind + 1]) && could_be_image(argv[optind])) {
			fprintf(stderr, "%s: --ls %s %s: the PATH goes before the image: --ls %s %s, or --ls=%s %s\n",
				prog, argv[optind], argv[optind + 1], argv[optind + 1], argv[optind],
				argv[optind + 1], argv[optind]);
			fprintf(stderr, "Try '%s --help' for more information.\n", prog);
			return EXIT_USAGE;
		}
		c->ls_path = argv[optind++];
		npos--;
	}
	if (c->restore) {
		/* the image is made, from the dump: -o names it */
		if (npos)
			return usage_error("unexpected argument %s (--restore writes -o IMAGE)",
					   argv[optind]);
		if (!c->outdir)
			return usage_error("%s", "--restore needs -o IMAGE");
		return 0;
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
	if ((c->g.policy_set || c->g.fg_set || c->g.max_search_set || c->g.top_set) &&
	    !(c->gc || c->gc_free || c->gc_sim))
		return usage_error("%s", "--policy, --fg, --bg, --max-search and --top go with --gc, --gc-free or --gc-sim");
	c->nviews = c->show_sb + c->show_cp + c->ls + !!c->inode + c->nat + c->sit + c->ssa +
		    c->owner + c->map + c->segments + c->gc + c->gc_free + c->gc_sim + !!c->extract +
		    c->zones + !!c->map_svg + !!c->metadump;
	return 0;
}

/* 0 to go on, -1 when done (help, version), else the exit status. */
static int parse_args(struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "sb", no_argument, NULL, OPT_SB },
		{ "cp", no_argument, NULL, OPT_CP },
		{ "ls", optional_argument, NULL, OPT_LS },
		{ "inode", required_argument, NULL, 'i' },
		{ "segments", optional_argument, NULL, OPT_SEGMENTS },
		{ "map", required_argument, NULL, OPT_MAP_SVG },
		{ "metadump", required_argument, NULL, OPT_METADUMP },
		{ "keep-names", no_argument, NULL, OPT_KEEP_NAMES },
		{ "restore", required_argument, NULL, OPT_RESTORE },
		{ "zones", no_argument, NULL, OPT_ZONES },
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
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, ret;

	opterr = 0;
	c->g.top = 10;
	c->bucket = 64;
	while ((opt = getopt_long(argc, argv, ":c:d:i:n:s:a:b:Mo:hV", longopts, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return -1;
		}
		if (opt == 'V') {
			printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION);
			return -1;
		}
		if (opt == ':')
			return usage_error("option %s needs an argument", argv[optind - 1]);
		ret = parse_letter_opt(c, opt, optarg);
		if (ret < 0)
			ret = parse_long_opt(c, opt, optarg);
		if (ret < 0)
			ret = parse_gc_opt(c, opt, optarg);
		if (ret < 0)
			return usage_error("unknown option %s", argv[optind - 1]);
		if (ret)
			return ret;
	}
	return parse_operands(c, argc, argv);
}

/* ---- views -------------------------------------------------------------- */

/* Each view behind one signature, so main() can run the chosen ones in a loop. */
static int run_summary(struct dump *d, const struct cli *c)
{
	(void)c;
	if (out_json(&d->out)) {
		view_sb(d);
		view_cp(d);
	} else {
		view_sb_summary(d);
		out_text(&d->out, "\n");
		view_cp_summary(d);
	}
	return EXIT_OK;
}

static int run_sb(struct dump *d, const struct cli *c)
{
	(void)c;
	view_sb(d);
	return EXIT_OK;
}

static int run_cp(struct dump *d, const struct cli *c)
{
	(void)c;
	view_cp(d);
	return EXIT_OK;
}

static int run_ls(struct dump *d, const struct cli *c) { return view_ls(d, c->ls_path); }
static int run_inode(struct dump *d, const struct cli *c) { return view_inode(d, c->inode); }
static int run_nat(struct dump *d, const struct cli *c) { return view_nat(d, c->nat_r); }
static int run_sit(struct dump *d, const struct cli *c) { return view_sit(d, c->sit_r); }
static int run_ssa(struct dump *d, const struct cli *c) { return view_ssa(d, c->ssa_r); }
static int run_owner(struct dump *d, const struct cli *c) { return view_owner(d, c->blkaddr); }
static int run_map(struct dump *d, const struct cli *c) { (void)c; return view_map(d); }
static int run_segments(struct dump *d, const struct cli *c) { return view_segments(d, c->bucket); }
static int run_zones(struct dump *d, const struct cli *c) { (void)c; return view_zones(d); }
static int run_map_svg(struct dump *d, const struct cli *c) { return view_svg_map(d, c->map_svg, &c->g); }
static int run_metadump(struct dump *d, const struct cli *c)
{
	return view_metadump(d, c->metadump, c->keep_names);
}
static int run_gc(struct dump *d, const struct cli *c) { return view_gc(d, &c->g); }
static int run_gc_free(struct dump *d, const struct cli *c) { return view_gc_free(d, &c->g); }
static int run_gc_sim(struct dump *d, const struct cli *c) { return view_gc_sim(d, &c->g); }
static int run_extract(struct dump *d, const struct cli *c)
{
	return do_extract(d, c->extract, c->outdir);
}

struct view {
	const char *name;
	int (*run)(struct dump *d, const struct cli *c);
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
static int run_views(struct dump *d, const struct cli *c)
{
	const struct view views[] = {
		{ "summary", run_summary, c->nviews == 0 },
		{ "sb", run_sb, c->show_sb }, { "cp", run_cp, c->show_cp },
		{ "ls", run_ls, c->ls }, { "inode", run_inode, c->inode != NULL },
		{ "nat", run_nat, c->nat }, { "sit", run_sit, c->sit },
		{ "ssa", run_ssa, c->ssa }, { "owner", run_owner, c->owner },
		{ "map", run_map, c->map }, { "map-svg", run_map_svg, c->map_svg != NULL },
		{ "segments", run_segments, c->segments },
		{ "metadump", run_metadump, c->metadump != NULL },
		{ "zones", run_zones, c->zones },
		{ "gc", run_gc, c->gc }, { "gc-free", run_gc_free, c->gc_free },
		{ "gc-sim", run_gc_sim, c->gc_sim }, { "extract", run_extract, c->extract != NULL },
	};
	int shown = 0, status = EXIT_OK;

	for (size_t k = 0; k < sizeof(views) / sizeof(views[0]) && status == EXIT_OK; k++) {
		double t0;

		if (!views[k].on)
			continue;
		if (shown++)
			out_text(&d->out, "\n");
		out_flush(&d->out);
		t0 = now_ms();
		status = views[k].run(d, c);
		out_flush(&d->out);
		debug_line(d, 2, "view %s: %.3f ms, exit %d", views[k].name, now_ms() - t0, status);
	}
	return status;
}

/* What open() chose, for -d 1: the copies in use and why. */
static void debug_open(const struct dump *d, const char *image)
{
	struct f2fs_fs *fs = d->fs;
	const struct f2fs_error *why;
	const struct f2fs_cp_choice *cp = f2fs_fs_cp_choice(fs);
	int copy = f2fs_fs_sb_copy(fs, &why);

	debug_line(d, 1, "opened %s: superblock copy %d%s%s", image, copy,
		   copy ? ", copy 0 rejected: " : "", copy && why ? why->msg : "");
	debug_line(d, 1, "checkpoint pack %d at block %u, version %" PRIu64 "%s%s",
		   cp->pack + 1, f2fs_fs_cp_start(fs), le64_get(f2fs_fs_cp(fs)->checkpoint_ver),
		   cp->other_valid ? "; other pack valid, older" : "; other pack invalid: ",
		   cp->other_valid ? "" : cp->other_err.msg);
	for (unsigned i = 0; f2fs_dev_nmembers(f2fs_fs_dev(fs)) > 1 &&
			     i < f2fs_dev_nmembers(f2fs_fs_dev(fs)); i++) {
		struct f2fs_dev_member m;

		f2fs_dev_member(f2fs_fs_dev(fs), i, &m);
		debug_line(d, 1, "device %u: %s, blocks %" PRIu64 "..%" PRIu64 " of the volume, %" PRIu64
			   " bytes", i + 1, m.path, m.start, m.start + m.blocks - 1,
			   f2fs_dev_bytes(m.dev));
	}
	debug_line(d, 1, "journals: %u NAT, %u SIT entries; %u nids",
		   le16_get(f2fs_fs_nat_journal(fs)->n_entries),
		   le16_get(f2fs_fs_sit_journal(fs)->n_entries), f2fs_fs_max_nid(fs));
}

int main(int argc, char **argv)
{
	struct cli c = { 0 };
	struct dump d = { 0 };
	struct f2fs_error err;
	int ret, status;
	double t0 = now_ms();

	for (int k = 1; k < argc; k++)
		json_wanted |= !strcmp(argv[k], "--json");
	ret = parse_args(&c, argc, argv);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (c.restore)
		return metadump_restore(c.restore, c.outdir);
	d.debug = c.debug;
	ret = f2fs_fs_open_devices(&d.fs, c.image, c.devices, c.ndevices, F2FS_DEV_RDONLY, &err);
	if (ret) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		if (c.json)
			json_failure(c.image, f2fs_strerror(err.code),
				     err.code < 0 ? -err.code : err.code, err.msg, EXIT_ERROR);
		return EXIT_ERROR;
	}
	for (int k = 0; k < f2fs_fs_nnotes(d.fs); k++)
		fprintf(stderr, "%s: warning: %s\n", prog, f2fs_fs_note(d.fs, k));
	debug_open(&d, c.image);
	debug_line(&d, 2, "open: %.3f ms", now_ms() - t0);
	out_init(&d.out, stdout, c.json ? OUT_JSON : OUT_TEXT);
	out_begin(&d.out);
	status = run_views(&d, &c);
	/* a view that failed: the document ends with what went wrong */
	if (status != EXIT_OK && out_json(&d.out)) {
		out_s(&d.out, "image", NULL, c.image);
		out_error(&d.out, "view", 0, error_last(), status);
	}
	out_end(&d.out);
	f2fs_fs_close(d.fs);
	if (out_flush(&d.out)) {
		fprintf(stderr, "%s: write error on standard output\n", prog);
		return EXIT_ERROR;
	}
	return status;
}
