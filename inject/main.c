/* inject.f2fs: the command line; the target found (locate.c), the member
 * changed (apply.c), the block written. */
#include "inject.h"

#include <f2fs/format/format.h>
#include <f2fs/fs/fs.h>
#include <f2fs/io/dev.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [options] TARGET --mb MEMBER [--idx I] [--val V | --str S] IMAGE\n"
"Change one field of an F2FS image's metadata in place, for testing checkers\n"
"and repairs. The superblock, checkpoint and inode checksums are recomputed\n"
"unless the member is the checksum itself or --stale is given.\n"
"\n"
"Targets (as f2fs-tools' inject.f2fs):\n"
"  --sb N              superblock copy N (1 or 2; 0 is copy 1)\n"
"  --cp N              checkpoint pack N (1 or 2; 0 the one in use); also the\n"
"                      members nat_ver_bitmap and sit_ver_bitmap (--idx bit)\n"
"  --nat N --nid X     X's NAT entry: 0 the live one (the journal first),\n"
"                      1 or 2 that copy of its NAT block\n"
"  --sit N --blk B     the SIT entry of B's segment, chosen as for --nat\n"
"  --ssa --blk B       B's summary entry (--idx another) and the footer\n"
"  --node --nid X      X's node block: footer, inode, direct or indirect node\n"
"  --dent --nid X      the entry naming inode X in its parent (i_pino);\n"
"      [--dots 1|2]    with --dots, X's own \".\" or \"..\"\n"
"Targets f2fs-tools' inject.f2fs does not reach:\n"
"  --orphan N [--blk K]   orphan block K (default 0) of checkpoint pack N\n"
"  --nat-bits N           nat_bits of pack N: header, or a bit of the full or\n"
"                         empty bitmap (--mb full|empty --idx NAT-BLOCK)\n"
"  --quota N --id ID      the record of ID in quota file N (0 user, 1 group,\n"
"                         2 project)\n"
"  --xattr --nid X        inode X's inline xattrs, else its xattr node: the\n"
"                         header, and entry --idx (default 0)\n"
"  --garbage random|zero|ones --blk B   the whole block B (--val: the seed)\n"
"\n"
"Options:\n"
"  --mb NAME           the member (an unknown one lists the target's members)\n"
"  --idx I             the element of an array member\n"
"  --val V             the new value (0x hex, 0 octal; -1 is all ones)\n"
"  --str S             the new string (devs.path, version, i_name, filename, ...)\n"
"  --dry-run           print the old and new value; write nothing\n"
"  --stale             leave the checksums as they were\n"
"  -d N                debug level (accepted, as f2fs-tools')\n"
"  -V, --version       print the version\n"
"  -h, --help          this help\n"
"\n"
"Exit status: 0 done, 1 a command-line mistake (option, member, index, value),\n"
"2 no such instance in the image, 8 the image cannot be opened, read or\n"
"written (a mounted one included). See inject.f2fs(8).\n", prog);
}

static int bad(const char *opt, const char *arg, const char *why)
{
	fprintf(stderr, "%s: %s%s%s: %s\nTry '%s --help' for more information.\n", prog, opt,
		arg ? " " : "", arg ? arg : "", why, prog);
	return EXIT_USAGE;
}

/* A number: 0x hex, 0 octal, else decimal; a leading '-' for --val. */
static int number(const char *s, bool negative_ok, uint64_t max, uint64_t *out)
{
	char *end;
	bool neg = negative_ok && s[0] == '-';

	if (!*s || (s[0] == '-' && !neg))
		return -1;
	errno = 0;
	*out = strtoull(neg ? s + 1 : s, &end, 0);
	if (errno || *end || (neg ? s[1] == '-' || !s[1] : 0) || *out > max)
		return -1;
	if (neg) {
		if (*out > (uint64_t)INT64_MAX + 1)
			return -1;
		*out = (uint64_t)0 - *out;
	}
	return 0;
}

static int set_target(struct inj_opts *o, enum inj_target t, const char *opt)
{
	if (o->target != T_NONE)
		return bad(opt, NULL, "one target at a time");
	o->target = t;
	return 0;
}

enum {
	O_MB = 256, O_IDX, O_VAL, O_STR, O_NID, O_BLK, O_SB, O_CP, O_NAT, O_SIT, O_SSA, O_NODE,
	O_DENT, O_DOTS, O_DRY, O_STALE, O_ORPHAN, O_NAT_BITS, O_XATTR, O_GARBAGE, O_QUOTA,
	O_ID,
};

static const struct option longopts[] = {
	{ "mb", required_argument, NULL, O_MB },   { "idx", required_argument, NULL, O_IDX },
	{ "val", required_argument, NULL, O_VAL }, { "str", required_argument, NULL, O_STR },
	{ "nid", required_argument, NULL, O_NID }, { "blk", required_argument, NULL, O_BLK },
	{ "sb", required_argument, NULL, O_SB },   { "cp", required_argument, NULL, O_CP },
	{ "nat", required_argument, NULL, O_NAT }, { "sit", required_argument, NULL, O_SIT },
	{ "ssa", no_argument, NULL, O_SSA },       { "node", no_argument, NULL, O_NODE },
	{ "dent", no_argument, NULL, O_DENT },     { "dots", required_argument, NULL, O_DOTS },
	{ "dry-run", no_argument, NULL, O_DRY },   { "stale", no_argument, NULL, O_STALE },
	{ "orphan", required_argument, NULL, O_ORPHAN },
	{ "nat-bits", required_argument, NULL, O_NAT_BITS },
	{ "xattr", no_argument, NULL, O_XATTR },   { "garbage", required_argument, NULL, O_GARBAGE },
	{ "quota", required_argument, NULL, O_QUOTA }, { "id", required_argument, NULL, O_ID },
	{ "help", no_argument, NULL, 'h' },        { "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* A target that takes N (0, 1 or 2). */
static int copy_target(struct inj_opts *o, enum inj_target t, const char *opt, const char *arg)
{
	uint64_t n;

	if (number(arg, false, 2, &n))
		return bad(opt, arg, "0, 1 or 2");
	o->copy = (int)n;
	return set_target(o, t, opt);
}

static int parse_one(struct inj_opts *o, int c, const char *arg)
{
	uint64_t n;

	switch (c) {
	case O_MB: o->mb = arg; return 0;
	case O_STR: o->str = arg; return 0;
	case O_IDX:
		if (number(arg, false, UINT32_MAX - 1, &n))
			return bad("--idx", arg, "not an index");
		o->idx = (uint32_t)n;
		o->has_idx = true;
		return 0;
	case O_VAL:
		if (number(arg, true, UINT64_MAX, &o->val))
			return bad("--val", arg, "not a number");
		o->has_val = true;
		return 0;
	case O_NID:
		if (number(arg, false, UINT32_MAX - 1, &n))
			return bad("--nid", arg, "not a node id");
		o->nid = (uint32_t)n;
		o->has_nid = true;
		return 0;
	case O_BLK:
		if (number(arg, false, UINT32_MAX - 1, &o->blk))
			return bad("--blk", arg, "not a block address");
		o->has_blk = true;
		return 0;
	case O_DOTS:
		if (number(arg, false, 2, &n) || n == 0)
			return bad("--dots", arg, "1 (\".\") or 2 (\"..\")");
		o->dots = (int)n;
		return 0;
	case O_SB: return copy_target(o, T_SB, "--sb", arg);
	case O_CP: return copy_target(o, T_CP, "--cp", arg);
	case O_NAT: return copy_target(o, T_NAT, "--nat", arg);
	case O_SIT: return copy_target(o, T_SIT, "--sit", arg);
	case O_ORPHAN: return copy_target(o, T_ORPHAN, "--orphan", arg);
	case O_NAT_BITS: return copy_target(o, T_NAT_BITS, "--nat-bits", arg);
	case O_QUOTA: return copy_target(o, T_QUOTA, "--quota", arg);
	case O_ID:
		if (number(arg, false, UINT32_MAX, &n))
			return bad("--id", arg, "not a quota id");
		o->id = (uint32_t)n;
		o->has_id = true;
		return 0;
	case O_SSA: return set_target(o, T_SSA, "--ssa");
	case O_NODE: return set_target(o, T_NODE, "--node");
	case O_DENT: return set_target(o, T_DENT, "--dent");
	case O_XATTR: return set_target(o, T_XATTR, "--xattr");
	case O_GARBAGE:
		o->garbage = arg;
		return set_target(o, T_GARBAGE, "--garbage");
	case O_DRY: o->dry_run = true; return 0;
	case O_STALE: o->stale = true; return 0;
	case 'd':
		if (number(arg, false, 100, &n))
			return bad("-d", arg, "a debug level");
		o->debug = (int)n;
		return 0;
	}
	return bad("option", NULL, "unknown");
}

/* What each target needs besides --mb. */
static int complete(const struct inj_opts *o)
{
	bool nid = o->target == T_NAT || o->target == T_NODE || o->target == T_DENT ||
		   o->target == T_XATTR;
	bool blk = o->target == T_SIT || o->target == T_SSA || o->target == T_GARBAGE;

	if (o->target == T_NONE)
		return bad("a target", NULL, "one of --sb, --cp, --nat, --sit, --ssa, --node, --dent, "
			   "--orphan, --nat-bits, --xattr, --quota, --garbage is needed");
	if (nid && !o->has_nid)
		return bad("--nid", NULL, "this target needs it");
	if (blk && !o->has_blk)
		return bad("--blk", NULL, "this target needs it");
	if (o->target == T_QUOTA && !o->has_id)
		return bad("--id", NULL, "--quota needs it");
	if (o->dots && o->target != T_DENT)
		return bad("--dots", NULL, "only with --dent");
	if (!o->mb && o->target != T_GARBAGE)
		return bad("--mb", NULL, "the member to change is needed");
	return 0;
}

static int run(struct inj_opts *o)
{
	struct f2fs_error err = { 0 };
	struct f2fs_fs *fs = NULL;
	struct inj_loc l;
	uint8_t blk[F2FS_BLKSIZE];
	int ret;

	/* a dry run opens for reading only (and so does not refuse a
	 * mounted device); a change opens exclusively, refusing one */
	if (f2fs_fs_open_flags(&fs, o->image, o->dry_run ? 0 : F2FS_DEV_RDWR | F2FS_DEV_EXCL, &err)) {
		fprintf(stderr, "%s: %s: %s\n", prog, o->image, err.msg);
		return EXIT_IO;
	}
	ret = inj_locate(fs, o, &l, &err);
	if (!ret && f2fs_dev_read(f2fs_fs_dev(fs), l.blk, blk, 1, &err))
		ret = EXIT_IO;
	if (!ret)
		ret = inj_apply(fs, o, &l, blk, &err);
	if (!ret && !o->dry_run &&
	    (f2fs_dev_write(f2fs_fs_dev(fs), l.blk, blk, 1, &err) ||
	     (l.mirror && f2fs_dev_write(f2fs_fs_dev(fs), l.mirror, blk, 1, &err)) ||
	     f2fs_dev_flush(f2fs_fs_dev(fs), &err)))
		ret = EXIT_IO;
	if (ret)
		fprintf(stderr, "%s: %s: %s\n", prog, o->image, err.msg);
	f2fs_fs_close(fs);
	return ret;
}

int main(int argc, char **argv)
{
	struct inj_opts o = { 0 };
	int c, ret;

	while ((c = getopt_long(argc, argv, "d:hV", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_DONE;
		}
		if (c == 'V') {
			printf("%s %s\n", prog, PACKAGE_VERSION);
			return EXIT_DONE;
		}
		if (c == '?')
			return bad("option", NULL, "see the usage");
		if ((ret = parse_one(&o, c, optarg)))
			return ret;
	}
	if (optind != argc - 1)
		return bad("IMAGE", NULL, optind >= argc ? "missing" : "one image only");
	o.image = argv[optind];
	if ((ret = complete(&o)))
		return ret;
	return run(&o);
}
