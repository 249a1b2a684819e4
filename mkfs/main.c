/* mkfs.f2fs: parse options, format through libf2fs, print a summary. */
#include <f2fs/util/error.h>
#include <f2fs/format/feature.h>
#include <f2fs/build/mkfs.h>
#include <f2fs/util/units.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <uuid/uuid.h>

#define EXIT_OK     0
#define EXIT_ERROR  1
#define EXIT_USAGE  16

enum { OPT_ROOTDIR = 256, OPT_PROGRESS };

static const char *prog = "mkfs.f2fs";

struct cli {
	struct f2fs_mkfs_options o;
	int sparse;
	int quiet;
	int debug;
	int progress;
	struct utsname uts;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [options] device [sectors]\n"
"Format device (a block device or an image file) as F2FS.\n"
"\n"
"  -a 0|1        heap-based allocation (1: data at the start, nodes at the end)\n"
"  -c device     add a device (repeat for up to 7); device holds the metadata\n"
"  -C enc[:strict]  casefolding encoding (utf8); implies -O casefold\n"
"  -d level      debug output level (0 = default)\n"
"  -e ext,...    extra cold-file extensions\n"
"  -E ext,...    extra hot-file extensions\n"
"  -f            overwrite an existing file system or partition table\n"
"  -g android    Android defaults: -O encrypt,quota,project_quota,extra_attr,verity\n"
"                -w 4096, root owned by 0:0; implies -f\n"
"  -i            large NAT bitmap (room for more node ids)\n"
"  -l label      volume label (UTF-8, up to 512 UTF-16 units)\n"
"  -m            zoned block device layout\n"
"  -o percent    overprovision ratio (default or 0: the best for the size)\n"
"  -O feature,...  enable features: encrypt extra_attr project_quota\n"
"                inode_checksum flexible_inline_xattr quota inode_crtime\n"
"                lost_found verity sb_checksum casefold compression\n"
"  -q            quiet: print nothing on success\n"
"  -r            fixed checkpoint version 1804289383 (for repeatable images)\n"
"  -R, --root-owner uid:gid  owner of the root directory (default 0:0, or\n"
"                the --rootdir directory's owner)\n"
"  --rootdir DIR copy the tree under DIR into the new file system: files,\n"
"                directories, symlinks, hard links, devices, fifos, sockets,\n"
"                owners, modes, times and xattrs; case-insensitive\n"
"                directories stay so (needs -O casefold)\n"
"  --progress    show how far --rootdir has got (on stderr)\n"
"  -s count      segments per section (default 1)\n"
"  -S            sparse image: create the file if missing (needs the sector\n"
"                count after the device)\n"
"  -t 0|1        discard the target first (default 1)\n"
"  -T seconds    fixed time: of new inodes, and atime/ctime of copied ones\n"
"                (-1: the current time, the default)\n"
"                (default: now, or SOURCE_DATE_EPOCH)\n"
"  -U uuid       volume UUID (or \"random\")\n"
"  -w bytes      sector size that [sectors] counts in\n"
"  -z count      sections per zone (default 1)\n"
"  -V, --version print the version and exit\n"
"  -h, --help    print this help and exit\n"
"\n"
"sectors: size of the file system in sectors (default: the whole device).\n"
"An image file that does not exist is created when sectors is given.\n"
"Exit status: 0 formatted, 1 error (nothing written), 16 usage error.\n",
		prog);
}

/* A usage error: one line naming it, then where the options are listed. */
static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s\n", prog, what, arg ? " " : "", arg ? arg : "");
	fprintf(stderr, "Try '%s --help' for the options.\n", prog);
	return EXIT_USAGE;
}

static int bad_value(char opt, const char *val, const char *why)
{
	fprintf(stderr, "%s: -%c %s: %s\n", prog, opt, val, why);
	return EXIT_ERROR;
}

static int parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-' || v < min || v > max)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int parse_owner(const char *s, uint32_t *uid, uint32_t *gid)
{
	char *end;
	unsigned long long u, g;

	errno = 0;
	u = strtoull(s, &end, 10);
	if (errno || end == s || *end != ':' || s[0] == '-' || u > UINT32_MAX)
		return -1;
	s = end + 1;
	g = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || g > UINT32_MAX)
		return -1;
	*uid = (uint32_t)u;
	*gid = (uint32_t)g;
	return 0;
}

static int parse_encoding(const char *s, struct f2fs_mkfs_options *o)
{
	size_t n = strcspn(s, ":");

	if (n != 4 || strncmp(s, "utf8", 4) != 0)
		return -1;
	o->encoding = F2FS_ENC_UTF8_12_1;
	o->encoding_flags = 0;
	if (s[n] == ':') {
		if (strcmp(s + n + 1, "strict") != 0)
			return -1;
		o->encoding_flags = F2FS_ENC_STRICT_MODE_FL;
	}
	o->features |= F2FS_FEATURE_CASEFOLD;
	return 0;
}

static int parse_timestamp(const char *s, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < 0)
		return -1;
	*out = v;
	return 0;
}

static void apply_android(struct f2fs_mkfs_options *o)
{
	o->features |= F2FS_FEATURE_ENCRYPT | F2FS_FEATURE_QUOTA_INO |
		       F2FS_FEATURE_PRJQUOTA | F2FS_FEATURE_EXTRA_ATTR |
		       F2FS_FEATURE_VERITY;
	o->force = true;
	o->sector_size = 4096;
	o->root_uid = o->root_gid = 0;
}

/* One option; returns 0, or an exit status to stop with. */
static int take_option(struct cli *c, int opt, const char *arg)
{
	struct f2fs_mkfs_options *o = &c->o;
	struct f2fs_error err;
	uint32_t v;
	char *end;

	switch (opt) {
	case 'a':
		if (parse_u32(arg, 0, 1, &v))
			return bad_value('a', arg, "must be 0 or 1");
		o->heap = v;
		return 0;
	case 'C':
		return parse_encoding(arg, o) ? bad_value('C', arg, "expected utf8 or utf8:strict") : 0;
	case 'd':
		if (parse_u32(arg, 0, 10, &v))
			return bad_value('d', arg, "debug level must be 0 to 10");
		c->debug = (int)v;
		return 0;
	case 'e':
		o->cold_exts = arg;
		return 0;
	case 'E':
		o->hot_exts = arg;
		return 0;
	case 'f':
		o->force = true;
		return 0;
	case 'g':
		if (strcmp(arg, "android") != 0)
			return bad_value('g', arg, "the only preset is \"android\"");
		apply_android(o);
		return 0;
	case 'i':
		o->large_nat_bitmap = true;
		return 0;
	case 'l':
		o->label = arg;
		return 0;
	case 'm':
		o->zoned = true;
		return 0;
	case 'o':
		errno = 0;
		o->overprovision = strtod(arg, &end);
		/* 0 is the default, as in mkfs.f2fs: the best ratio for the size */
		if (errno || end == arg || *end || !(o->overprovision >= 0) ||
		    o->overprovision >= 100)
			return bad_value('o', arg, "must be a percentage below 100 (0: the best)");
		return 0;
	case 'O':
		if (f2fs_feature_parse(arg, &o->features, &err)) {
			fprintf(stderr, "%s: %s\n", prog, err.msg);
			return EXIT_ERROR;
		}
		return 0;
	case 'q':
		c->quiet = 1;
		return 0;
	case 'r':
		o->fixed_version = true;
		return 0;
	case 'R':
		if (parse_owner(arg, &o->root_uid, &o->root_gid))
			return bad_value('R', arg, "expected uid:gid");
		o->root_owner_set = true;
		return 0;
	case OPT_ROOTDIR:
		o->rootdir = arg;
		return 0;
	case OPT_PROGRESS:
		c->progress = 1;
		return 0;
	case 's':
		if (parse_u32(arg, 1, F2FS_MAX_SEGMENTS, &o->segs_per_sec))
			return bad_value('s', arg, "segments per section must be 1 or more");
		return 0;
	case 'S':
		c->sparse = 1;   /* image files are always written sparse */
		return 0;
	case 't':
		if (parse_u32(arg, 0, 1, &v))
			return bad_value('t', arg, "must be 0 or 1");
		o->discard = v;
		return 0;
	case 'T':
		/* -1 is the current time, as in mkfs.f2fs: the default */
		if (!strcmp(arg, "-1"))
			return 0;
		if (parse_timestamp(arg, &o->timestamp))
			return bad_value('T', arg, "expected seconds since the epoch, or -1 (now)");
		o->timestamp_set = true;
		return 0;
	case 'U':
		if (strcmp(arg, "random") == 0) {
			o->uuid_set = false;
			return 0;
		}
		if (uuid_parse(arg, o->uuid))
			return bad_value('U', arg, "not a UUID");
		o->uuid_set = true;
		return 0;
	case 'w':
		if (parse_u32(arg, 512, 4096, &v) || (v & (v - 1)))
			return bad_value('w', arg, "sector size must be 512, 1024, 2048 or 4096");
		o->sector_size = v;
		return 0;
	case 'z':
		if (parse_u32(arg, 1, F2FS_MAX_SEGMENTS, &o->secs_per_zone))
			return bad_value('z', arg, "sections per zone must be 1 or more");
		return 0;
	case 'V':
		printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION);
		return -1;
	case 'h':
		usage(stdout);
		return -1;
	default:
		return usage_error("unknown option", NULL);
	}
}

static int parse_args(struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "rootdir", required_argument, NULL, OPT_ROOTDIR },
		{ "root-owner", required_argument, NULL, 'R' },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ NULL, 0, NULL, 0 },
	};
	const char *extra[F2FS_MAX_DEVICES];
	uint32_t nextra = 0;
	int opt;

	opterr = 0;   /* our own message, with our own prefix */
	while ((opt = getopt_long(argc, argv, "a:c:C:d:e:E:fg:hil:mo:O:qrR:s:St:T:U:Vw:z:",
				  longopts, NULL)) != -1) {
		int ret;

		if (opt == 'c') {
			if (nextra >= F2FS_MAX_DEVICES - 1)
				return bad_value('c', optarg, "at most 7 additional devices");
			extra[nextra++] = optarg;
			continue;
		}
		if (opt == '?') {
			if (optopt && strchr("acCdeEgloORstTUwz", optopt))
				fprintf(stderr, "%s: -%c needs a value\n", prog, optopt);
			else if (optopt)
				fprintf(stderr, "%s: unknown option -%c\n", prog, optopt);
			else
				fprintf(stderr, "%s: unknown option %s\n", prog, argv[optind - 1]);
			fprintf(stderr, "Try '%s --help' for the options.\n", prog);
			return EXIT_USAGE;
		}
		ret = take_option(c, opt, optarg);
		if (ret)
			return ret;
	}
	if (optind >= argc || argc - optind > 2)
		return usage_error(optind >= argc ? "no device given" : "too many arguments", NULL);
	if (c->sparse && argc - optind != 2)
		return usage_error("-S makes a sparse image of a given size: put the sector count after the device", NULL);
	c->o.devices[0] = argv[optind];
	c->o.ndevs = 1 + nextra;
	for (uint32_t i = 0; i < nextra; i++)
		c->o.devices[1 + i] = extra[i];
	if (argc - optind == 2) {
		char *end;

		errno = 0;
		c->o.sector_count = strtoull(argv[optind + 1], &end, 0);
		if (errno || end == argv[optind + 1] || *end || c->o.sector_count == 0 ||
		    argv[optind + 1][0] == '-') {
			fprintf(stderr, "%s: sector count \"%s\" is not a positive number\n",
				prog, argv[optind + 1]);
			fprintf(stderr, "Try '%s --help' for the options.\n", prog);
			return EXIT_USAGE;
		}
	}
	return 0;
}

static int apply_environment(struct cli *c)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");

	/* as -T, which it stands for: a value that is no time is an error */
	if (!c->o.timestamp_set && sde && *sde) {
		if (parse_timestamp(sde, &c->o.timestamp)) {
			fprintf(stderr, "%s: SOURCE_DATE_EPOCH=%s: expected seconds since the epoch\n",
				prog, sde);
			return EXIT_ERROR;
		}
		c->o.timestamp_set = true;
	}
	if ((c->o.features & F2FS_FEATURE_CASEFOLD) && !c->o.encoding)
		c->o.encoding = F2FS_ENC_UTF8_12_1;
	if (uname(&c->uts) == 0)
		c->o.kernel_version = c->uts.release;
	return 0;
}

static void show_progress(void *arg, uint64_t done, uint64_t total)
{
	(void)arg;
	fprintf(stderr, "\rcopying: %" PRIu64 " of %" PRIu64 " files (%" PRIu64 "%%)%s", done,
		total, total ? done * 100 / total : 100, done == total ? "\n" : "");
}

static void print_summary(const struct cli *c, const struct f2fs_mkfs_report *r)
{
	const struct f2fs_layout *l = &r->layout;
	char size[32], user[32], uuid[37], feats[256];

	uuid_unparse(r->uuid, uuid);
	f2fs_feature_format(r->features, feats, sizeof(feats));
	for (uint32_t i = 0; i < c->o.ndevs; i++) {
		f2fs_human_size(r->device_bytes[i], size, sizeof(size));
		printf("Device %u:       %s (%s, %" PRIu64 " sectors of %u bytes)\n", i,
		       c->o.devices[i], size, r->device_bytes[i] / r->sector_size,
		       r->sector_size);
	}
	if (r->existing)
		printf("Overwrote:      %s\n", r->existing);
	printf("Label:          %s\n", c->o.label ? c->o.label : "(none)");
	printf("UUID:           %s\n", uuid);
	printf("Features:       %s\n", feats);
	printf("Segments:       %u in all, %u in the main area; %u per section, %u section(s) per zone\n",
	       l->segment_count, l->segment_count_main, l->segs_per_sec, l->secs_per_zone);
	printf("Areas (block):  CP %u, SIT %u, NAT %u, SSA %u, main %u\n",
	       l->cp_blkaddr, l->sit_blkaddr, l->nat_blkaddr, l->ssa_blkaddr, l->main_blkaddr);
	printf("Overprovision:  %.3f%% (%u segments, %u of them reserved for GC)\n",
	       l->overprovision, l->ovp_segments, l->rsvd_segments);
	f2fs_human_size(l->user_block_count * F2FS_BLKSIZE, user, sizeof(user));
	printf("User space:     %s (%" PRIu64 " blocks)\n", user, l->user_block_count);
	printf("Checkpoint:     version 0x%" PRIx64 ", nat_bits %s\n", r->checkpoint_version,
	       l->nat_bits_blocks ? "on" : "off (no room in the pack)");
	if (c->debug > 0)
		printf("Current logs:   hot/warm/cold node %u/%u/%u, hot/warm/cold data %u/%u/%u\n",
		       l->cur_seg[F2FS_SEG_HOT_NODE], l->cur_seg[F2FS_SEG_WARM_NODE],
		       l->cur_seg[F2FS_SEG_COLD_NODE], l->cur_seg[F2FS_SEG_HOT_DATA],
		       l->cur_seg[F2FS_SEG_WARM_DATA], l->cur_seg[F2FS_SEG_COLD_DATA]);
	if (c->o.zoned)
		printf("Zones:          %u of %u MiB, %u conventional; %u sequential zone(s) reset\n",
		       r->zones, (unsigned)(r->zone_bytes >> 20), r->zones_conventional,
		       r->zones_reset);
	else
		printf("Discard:        %s\n", !c->o.discard ? "skipped (-t 0)" :
		       r->trimmed ? "done" : "not supported by the target");
	if (c->o.rootdir)
		printf("Copied:         %" PRIu64 " files and directories from %s\n", r->files,
		       c->o.rootdir);
	f2fs_human_size(r->bytes_written, size, sizeof(size));
	printf("Format done:    %s written\n", size);
}

int main(int argc, char **argv)
{
	struct cli c = { 0 };
	struct f2fs_mkfs_report rep;
	struct f2fs_error err = { 0 };
	int ret;

	f2fs_mkfs_defaults(&c.o);
	ret = parse_args(&c, argc, argv);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	ret = apply_environment(&c);
	if (ret)
		return ret;
	if (c.progress) {
		c.o.progress = show_progress;
		c.o.progress_arg = &c;
	}
	if (f2fs_mkfs(&c.o, &rep, &err)) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return EXIT_ERROR;
	}
	if (!c.quiet)
		print_summary(&c, &rep);
	return EXIT_OK;
}
