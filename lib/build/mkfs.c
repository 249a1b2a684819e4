/* mkfs: check the targets, compute the layout, build, write. */
#include "build.h"
#include "populate.h"
#include "zoned.h"

#include <f2fs/format/crc.h>
#include <f2fs/io/dev.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/feature.h>
#include <f2fs/io/probe.h>
#include <f2fs/format/super.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <uuid/uuid.h>

struct mkfs_run {
	const struct f2fs_mkfs_options *o;
	struct f2fs_mkfs_report *rep;
	struct f2fs_dev *dev[F2FS_MAX_DEVICES];
	struct f2fs_dev *vol;   /* dev[] joined as the layout says; owns them */
	struct f2fs_layout layout;
	struct f2fs_super_block sb;
	struct f2fs_tree tree;
	bool have_tree;
	struct bld b;
	uint64_t cp_ver;
	int64_t now;
	uint32_t crc_seed;
	bool created;        /* the image file did not exist before */
	struct mkfs_zoned zoned;   /* -m: the zones of the targets */
};

void f2fs_mkfs_defaults(struct f2fs_mkfs_options *o)
{
	memset(o, 0, sizeof(*o));
	o->segs_per_sec = 1;
	o->secs_per_zone = 1;
	o->discard = true;
}

static int check_options(const struct f2fs_mkfs_options *o, struct f2fs_error *err)
{
	int ret = f2fs_feature_check(o->features, err);

	if (ret)
		return ret;
	if (o->ndevs < 1 || o->ndevs > F2FS_MAX_DEVICES)
		return f2fs_fail(err, -F2FS_E_BAD_OPTION,
				 "-c: %u devices given; F2FS takes 1 to %d in all",
				 o->ndevs, F2FS_MAX_DEVICES);
	if ((o->features & F2FS_FEATURE_CASEFOLD) && o->encoding == 0)
		return f2fs_fail(err, -F2FS_E_BAD_OPTION,
				 "-O casefold needs an encoding (-C utf8)");
	if (o->encoding && !(o->features & F2FS_FEATURE_CASEFOLD))
		return f2fs_fail(err, -F2FS_E_BAD_OPTION,
				 "-C: an encoding is only used with -O casefold");
	if (o->zoned && o->heap)
		return f2fs_fail(err, -F2FS_E_BAD_OPTION,
				 "-a: heap allocation cannot be used on zoned devices (-m)");
	return 0;
}

/* Two paths to one file (a symlink, another name, the same block device)
 * would be formatted as two devices of one volume. */
static int distinct_devices(const struct f2fs_mkfs_options *o, struct f2fs_error *err)
{
	struct stat st[F2FS_MAX_DEVICES];
	bool have[F2FS_MAX_DEVICES];

	for (uint32_t i = 0; i < o->ndevs && i < F2FS_MAX_DEVICES; i++) {
		have[i] = stat(o->devices[i], &st[i]) == 0;
		for (uint32_t j = 0; j < i && have[i]; j++) {
			bool same = have[j] &&
				    (S_ISBLK(st[i].st_mode) && S_ISBLK(st[j].st_mode) ?
				     st[i].st_rdev == st[j].st_rdev :
				     st[i].st_dev == st[j].st_dev && st[i].st_ino == st[j].st_ino);

			if (same)
				return f2fs_fail(err, -F2FS_E_BAD_OPTION,
						 "%s and %s are the same %s: a device can be given once",
						 o->devices[j], o->devices[i],
						 S_ISBLK(st[i].st_mode) ? "device" : "file");
		}
	}
	return 0;
}

static int open_devices(struct mkfs_run *r, struct f2fs_error *err)
{
	const struct f2fs_mkfs_options *o = r->o;

	struct stat st;
	int ret = distinct_devices(o, err);

	if (ret)
		return ret;

	r->created = stat(o->devices[0], &st) != 0 && errno == ENOENT &&
		     o->sector_count != 0;
	for (uint32_t i = 0; i < o->ndevs; i++) {
		int flags = F2FS_DEV_RDWR | F2FS_DEV_EXCL |
			    (i == 0 && r->created ? F2FS_DEV_CREATE : 0);
		ret = f2fs_dev_open(&r->dev[i], o->devices[i], flags, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* Refuse to overwrite a file system or partition table unless forced. */
static int probe_devices(struct mkfs_run *r, struct f2fs_error *err)
{
	for (uint32_t i = 0; i < r->o->ndevs; i++) {
		char what[128];
		int found;

		/* an empty or all-hole image file holds no signature to find */
		if (f2fs_dev_bytes(r->dev[i]) == 0 || f2fs_dev_is_all_holes(r->dev[i]))
			continue;
		found = f2fs_probe_existing(r->o->devices[i], what, sizeof(what), err);
		if (found < 0)
			return found;
		if (found && !r->o->force)
			return f2fs_fail(err, -F2FS_E_HAS_DATA,
					 "%s contains %s; use -f to overwrite it",
					 r->o->devices[i], what);
		if (found && !r->rep->existing) {
			memcpy(r->rep->existing_buf, what, sizeof(what));
			r->rep->existing = r->rep->existing_buf;
		}
	}
	return 0;
}

static int target_bytes(struct mkfs_run *r, uint32_t ssz, uint64_t *bytes,
			struct f2fs_error *err)
{
	const struct f2fs_mkfs_options *o = r->o;
	uint64_t have = f2fs_dev_bytes(r->dev[0]);

	if (!o->sector_count) {
		if (have == 0)
			return f2fs_fail(err, -F2FS_E_TOO_SMALL,
					 "%s is empty; give its size as a sector count",
					 o->devices[0]);
		*bytes = have;
		return 0;
	}
	if (o->sector_count > UINT64_MAX / ssz)
		return f2fs_fail(err, -F2FS_E_BAD_OPTION, "sector count %llu is too large",
				 (unsigned long long)o->sector_count);
	*bytes = o->sector_count * ssz;
	if (*bytes > have && f2fs_dev_is_blockdev(r->dev[0]))
		return f2fs_fail(err, -F2FS_E_BAD_OPTION,
				 "sector count %llu (%llu bytes) exceeds %s (%llu bytes)",
				 (unsigned long long)o->sector_count,
				 (unsigned long long)*bytes, o->devices[0],
				 (unsigned long long)have);
	return 0;
}

/* A device too small: the error says how large it must be, with these
 * options (-s, -z, -o, -i and the other devices as given). */
static int say_minimum(const struct f2fs_layout_params *p, struct f2fs_error *err)
{
	uint64_t min = f2fs_layout_min_bytes(p);
	char was[sizeof(err->msg)];

	if (!min)
		return err->code;
	snprintf(was, sizeof(was), "%s", err->msg);
	return f2fs_fail(err, -F2FS_E_TOO_SMALL, "%s; with these options at least %llu MiB (%llu sectors of 512 bytes) are needed",
			 was, (unsigned long long)(min >> 20), (unsigned long long)(min / 512));
}

static int compute_layout(struct mkfs_run *r, struct f2fs_error *err)
{
	const struct f2fs_mkfs_options *o = r->o;
	struct f2fs_layout_params p = {
		.ndevs = o->ndevs, .segs_per_sec = o->segs_per_sec,
		.secs_per_zone = o->secs_per_zone, .overprovision = o->overprovision,
		.heap = o->heap, .large_nat_bitmap = o->large_nat_bitmap,
	};
	uint32_t dev_ssz = f2fs_dev_sector_size(r->dev[0]);
	int ret;

	/* -w only sets the unit of the sector count, as in mkfs.f2fs */
	if (o->sector_size && (o->sector_size < 512 || o->sector_size > 4096 ||
			       (o->sector_size & (o->sector_size - 1))))
		return f2fs_fail(err, -F2FS_E_BAD_OPTION,
				 "-w %u: the sector size must be 512, 1024, 2048 or 4096",
				 o->sector_size);
	p.sector_size = dev_ssz;
	ret = target_bytes(r, o->sector_size ? o->sector_size : dev_ssz, &p.dev_bytes[0], err);
	if (ret)
		return ret;
	for (uint32_t i = 1; i < o->ndevs; i++)
		p.dev_bytes[i] = f2fs_dev_bytes(r->dev[i]);
	p.start_sector = f2fs_dev_start_sector(r->dev[0]);
	if (o->zoned) {
		ret = mkfs_zoned_probe(&r->zoned, r->dev, o->ndevs, &p.zone_bytes, err);
		if (ret)
			return ret;
	}
	ret = f2fs_layout_compute(&p, &r->layout, err);
	if (ret == -F2FS_E_TOO_SMALL && !o->zoned)
		ret = say_minimum(&p, err);
	if (!ret && o->zoned) {
		ret = mkfs_zoned_check(&r->zoned, r->dev, &r->layout, err);
		mkfs_zoned_count(&r->zoned, &r->rep->zones, &r->rep->zones_conventional);
		r->rep->zone_bytes = p.zone_bytes;
	}
	for (uint32_t i = 0; i < o->ndevs; i++)
		r->rep->device_bytes[i] = p.dev_bytes[i];
	r->rep->sector_size = p.sector_size;
	return ret;
}

static uint64_t pick_cp_version(const struct f2fs_mkfs_options *o, const uint8_t uuid[16])
{
	uint32_t v;

	/* the first rand() after srand(0), as mkfs.f2fs -r gives */
	if (o->fixed_version)
		return 1804289383;
	/* reproducible images: same UUID and time give the same version */
	if (o->uuid_set && o->timestamp_set)
		return (f2fs_crc32(~0u, uuid, 16) ^ (uint32_t)o->timestamp) | 1;
	if (getrandom(&v, sizeof(v), 0) != sizeof(v))
		v = (uint32_t)time(NULL);
	return (v & 0x7FFFFFFFu) | 1;
}

/* Everything that can fail on bad input, before the first write. */
static int prepare_image(struct mkfs_run *r, struct f2fs_error *err)
{
	const struct f2fs_mkfs_options *o = r->o;
	struct f2fs_sb_options so = {
		.label = o->label, .features = o->features, .encoding = o->encoding,
		.encoding_flags = o->encoding_flags, .version = o->kernel_version,
		.cold_exts = o->cold_exts, .hot_exts = o->hot_exts,
	};
	int ret;

	if (o->uuid_set)
		memcpy(so.uuid, o->uuid, 16);
	else
		uuid_generate(so.uuid);
	r->now = o->timestamp_set ? o->timestamp : (int64_t)time(NULL);
	r->cp_ver = pick_cp_version(o, so.uuid);
	r->crc_seed = f2fs_inode_crc_seed(so.uuid);
	populate_quota_inos(o->features, so.qf_ino);
	for (uint32_t i = 0; i < o->ndevs; i++)
		so.dev_paths[i] = o->devices[i];
	ret = f2fs_sb_build(&r->sb, &r->layout, &so, err);
	if (ret)
		return ret;
	memcpy(r->rep->uuid, so.uuid, 16);
	if (o->rootdir) {
		uint64_t need;

		struct f2fs_file_id avoid[F2FS_MAX_DEVICES];
		size_t navoid = 0;
		struct stat st;

		for (uint32_t i = 0; i < o->ndevs; i++)
			if (stat(o->devices[i], &st) == 0 && S_ISREG(st.st_mode))
				avoid[navoid++] = (struct f2fs_file_id){ st.st_dev, st.st_ino };
		ret = f2fs_tree_scan(&r->tree, o->rootdir, avoid, navoid, err);
		if (ret)
			return ret;
		r->have_tree = true;
		ret = populate_check_tree(&r->tree, o->features, o->encoding_flags, err);
		if (ret)
			return ret;
		need = populate_estimate(&r->tree, o->features);
		if (need > r->layout.user_block_count)
			return f2fs_fail(err, -F2FS_E_NO_SPACE,
					 "--rootdir %s needs about %llu MiB, the image holds %llu MiB for files",
					 o->rootdir, (unsigned long long)(need * F2FS_BLKSIZE >> 20),
					 (unsigned long long)(r->layout.user_block_count * F2FS_BLKSIZE >> 20));
		if (r->tree.ninodes + 16 > f2fs_layout_nat_blocks(&r->layout) * F2FS_NAT_ENTRY_PER_BLOCK)
			return f2fs_fail(err, -F2FS_E_NO_SPACE,
					 "--rootdir %s has %zu files, more than the image's node ids",
					 o->rootdir, r->tree.ninodes);
	}
	return 0;
}

/* Blocks of the volume: the set splits the range at its devices. */
static int zero(struct mkfs_run *r, uint64_t blk, uint64_t n, struct f2fs_error *err)
{
	return f2fs_dev_zero(r->vol, blk, n, NULL, err);
}

/* The devices as one volume, each holding its share of the layout, so
 * that block addresses are mapped in one place (lib/io/devset.c). dev[]
 * stays usable for per-device work; the set closes them. */
static int join_volume(struct mkfs_run *r, struct f2fs_error *err)
{
	const struct f2fs_layout *l = &r->layout;
	uint64_t blocks[F2FS_MAX_DEVICES];
	int ret;

	for (uint32_t i = 0; i < l->ndevs; i++)
		blocks[i] = l->devs[i].end_blkaddr - l->devs[i].start_blkaddr + 1;
	ret = f2fs_dev_set_join(&r->vol, r->dev, blocks, l->ndevs, err);
	if (ret)   /* the members are closed */
		memset(r->dev, 0, sizeof(r->dev));
	return ret;
}



/*
 * Make every metadata block that the kernel or a checker reads before
 * writing it read as zero, whatever the target held. On image files the
 * whole areas are cleared (punching holes costs nothing); on devices only
 * the live copies, to keep the write volume small.
 */
static int clear_metadata(struct mkfs_run *r, struct f2fs_error *err)
{
	const struct f2fs_layout *l = &r->layout;
	bool dev = f2fs_dev_is_blockdev(r->dev[0]);
	uint32_t sit_copy = l->segment_count_sit / 2 * F2FS_BLOCKS_PER_SEG;
	int ret;

	ret = zero(r, 0, l->sit_blkaddr, err);   /* superblocks and checkpoints */
	if (!ret)
		ret = zero(r, l->sit_blkaddr, dev ? sit_copy : 2ull * sit_copy, err);
	for (uint32_t s = 0; !ret && s < l->segment_count_nat; s += 2)
		ret = zero(r, l->nat_blkaddr + (uint64_t)s * F2FS_BLOCKS_PER_SEG,
			   (dev ? 1 : 2) * F2FS_BLOCKS_PER_SEG, err);
	if (!ret && !dev)
		ret = zero(r, l->ssa_blkaddr,
			   (uint64_t)l->segment_count_ssa * F2FS_BLOCKS_PER_SEG, err);
	/* roll-forward recovery starts at the warm node log: stop it there
	 * (a reset sequential zone reads zeros, and must not be written past
	 * the position the checkpoint gives its log) */
	for (int t = F2FS_SEG_WARM_NODE; !ret && t <= F2FS_SEG_COLD_NODE; t++) {
		uint64_t blk = l->main_blkaddr + (uint64_t)l->cur_seg[t] * F2FS_BLOCKS_PER_SEG;

		if (!r->o->zoned || !mkfs_zoned_is_seq(&r->zoned, l, blk))
			ret = zero(r, blk, 1, err);
	}
	return ret;
}

static int discard_devices(struct mkfs_run *r, struct f2fs_error *err)
{
	bool all = true;

	for (uint32_t i = 0; i < r->o->ndevs; i++) {
		int ret = f2fs_dev_discard_all(r->dev[i], err);

		if (ret < 0)
			return ret;
		all = all && ret == 1;
	}
	r->b.trimmed = all;
	return 0;
}

static int write_superblocks(struct mkfs_run *r, struct f2fs_error *err)
{
	uint8_t blk[F2FS_BLKSIZE] = { 0 };
	int ret;

	memcpy(blk + F2FS_SUPER_OFFSET, &r->sb, sizeof(r->sb));
	ret = f2fs_dev_write(r->dev[0], 0, blk, 1, err);
	if (!ret)
		ret = f2fs_dev_write(r->dev[0], 1, blk, 1, err);
	return ret;
}

/* The main area, NAT, SIT and checkpoints, through the builder. */
static int build_and_write(struct mkfs_run *r, struct f2fs_error *err)
{
	bool trimmed = r->b.trimmed;
	int ret = bld_init(&r->b, &r->layout, r->vol, r->o->features, r->cp_ver,
			   r->crc_seed, err);

	r->b.trimmed = trimmed;
	r->b.seq_sections = r->zoned.seq_sections;
	if (!ret)
		ret = populate(&r->b, r->o, &r->sb, r->have_tree ? &r->tree : NULL, r->now);
	if (!ret)
		ret = bld_finish(&r->b);
	if (!ret)
		ret = bld_write_checkpoints(&r->b);
	return ret;
}

/* Writes, ordered so that the image only claims to be F2FS once whole. */
static int write_all(struct mkfs_run *r, struct f2fs_error *err)
{
	uint64_t bytes = r->rep->device_bytes[0];
	int ret = f2fs_dev_grow(r->dev[0], bytes, err);

	if (!ret)
		ret = join_volume(r, err);
	/* zoned: the reset empties the sequential zones (a discard would
	 * not move their write pointers); the rest is not trimmed */
	if (!ret && r->o->zoned)
		ret = mkfs_zoned_reset(&r->zoned, r->dev, &r->layout, &r->rep->zones_reset, err);
	else if (!ret && r->o->discard)
		ret = discard_devices(r, err);
	if (!ret)
		ret = clear_metadata(r, err);
	if (!ret)
		ret = build_and_write(r, err);
	/* everything durable before the superblock makes it an F2FS image */
	for (uint32_t i = 0; i < r->o->ndevs && !ret; i++)
		ret = f2fs_dev_flush(r->dev[i], err);
	if (!ret)
		ret = write_superblocks(r, err);
	if (!ret)
		ret = f2fs_dev_flush(r->dev[0], err);
	return ret;
}

static void fill_report(struct mkfs_run *r)
{
	struct f2fs_mkfs_report *rep = r->rep;

	rep->layout = r->layout;
	rep->checkpoint_version = r->cp_ver;
	rep->trimmed = r->b.trimmed;
	rep->features = le32_get(r->sb.feature);
	rep->root_ino = F2FS_ROOT_INO;
	rep->lost_found_ino = r->b.lpf_ino;
	rep->files = r->have_tree ? r->tree.ninodes - 1 : 0;
	memcpy(rep->quota_ino, r->b.qf_ino, sizeof(rep->quota_ino));
	for (uint32_t i = 0; i < r->o->ndevs; i++)
		rep->bytes_written += f2fs_dev_bytes_written(r->dev[i]);
}

int f2fs_mkfs(const struct f2fs_mkfs_options *o, struct f2fs_mkfs_report *rep,
	      struct f2fs_error *err)
{
	struct mkfs_run *r = calloc(1, sizeof(*r));
	int ret;

	memset(rep, 0, sizeof(*rep));
	if (!r)
		return f2fs_fail(err, -ENOMEM, "out of memory");
	r->o = o;
	r->rep = rep;
	ret = check_options(o, err);
	if (!ret)
		ret = open_devices(r, err);
	if (!ret)
		ret = probe_devices(r, err);
	if (!ret)
		ret = compute_layout(r, err);
	if (!ret)
		ret = prepare_image(r, err);
	if (!ret)
		ret = write_all(r, err);
	if (!ret)
		fill_report(r);
	if (r->vol)
		f2fs_dev_close(r->vol);
	for (uint32_t i = 0; !r->vol && i < o->ndevs && i < F2FS_MAX_DEVICES; i++)
		f2fs_dev_close(r->dev[i]);
	/* a failed format leaves no new file behind */
	if (ret && r->created)
		unlink(o->devices[0]);
	bld_free(&r->b);
	mkfs_zoned_free(&r->zoned);
	if (r->have_tree)
		f2fs_tree_free(&r->tree);
	free(r);
	return ret;
}
