/*
 * Opening the devices of a volume over several (the superblock's device
 * table): by the paths it records or by those the caller gives, each one
 * checked against the table before the volume is read through them.
 */
#include <f2fs/fs/fs.h>
#include <f2fs/fs/nat.h>
#include <f2fs/fs/sit.h>
#include <f2fs/fs/ssa.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/super.h>

#include "fs_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Node blocks read per later device to tell whether it holds this volume. */
#define PROBE_NODES 8

/* Blocks of the volume device i holds by the table (the first device
 * also holds the blocks before segment 0). */
static uint64_t table_blocks(const struct f2fs_super_block *sb, unsigned i)
{
	uint64_t blocks = (uint64_t)le32_get(sb->devs[i].total_segments) * F2FS_BLOCKS_PER_SEG;

	return i == 0 ? blocks + le32_get(sb->segment0_blkaddr) : blocks;
}

/* What identifies a file or a block device, whatever the path to it. */
struct dev_id {
	dev_t dev;
	ino_t ino;
};

static int identify(const char *path, struct dev_id *id)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return -1;
	id->dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	id->ino = S_ISBLK(st.st_mode) ? 0 : st.st_ino;
	return 0;
}

struct devs_ctx {
	struct f2fs_fs *fs;
	unsigned n;
	char paths[F2FS_MAX_DEVICES][F2FS_MAX_DEVICE_PATH + 1];
	int given;                 /* paths from the caller, not the table */
	struct f2fs_dev *dev[F2FS_MAX_DEVICES];
	uint64_t blocks[F2FS_MAX_DEVICES];
};

static int choose_paths(struct devs_ctx *c, const char *first,
			const char *const *devices, unsigned ndevices,
			struct f2fs_error *err)
{
	const struct f2fs_super_block *sb = &c->fs->sb;

	if (ndevices && ndevices != c->n - 1)
		return f2fs_fail(err, -EINVAL,
				 "%s: the volume has %u devices: %u more to give in mkfs's order, not %u",
				 first, c->n, c->n - 1, ndevices);
	c->given = ndevices > 0;
	snprintf(c->paths[0], sizeof(c->paths[0]), "%s", first);
	for (unsigned i = 1; i < c->n; i++) {
		if (c->given)
			snprintf(c->paths[i], sizeof(c->paths[i]), "%s", devices[i - 1]);
		else
			memcpy(c->paths[i], sb->devs[i].path, F2FS_MAX_DEVICE_PATH);
	}
	return 0;
}

/* The same file or device named twice, maybe through two paths. */
static int refuse_twice(const struct devs_ctx *c, struct f2fs_error *err)
{
	struct dev_id id[F2FS_MAX_DEVICES];

	for (unsigned i = 0; i < c->n; i++) {
		if (identify(c->paths[i], &id[i]) != 0)
			continue;   /* the open says why */
		for (unsigned j = 0; j < i; j++)
			if (id[j].dev == id[i].dev && id[j].ino == id[i].ino)
				return f2fs_fail(err, -EINVAL,
						 "%s (device %u of %u) is the same as %s (device %u): each device of the volume must be given once",
						 c->paths[i], i + 1, c->n, c->paths[j], j + 1);
	}
	return 0;
}

static int open_member(struct devs_ctx *c, unsigned i, int flags, struct f2fs_error *err)
{
	struct f2fs_error e;
	int ret = f2fs_dev_open(&c->dev[i], c->paths[i], flags, &e);

	if (ret)
		return f2fs_fail(err, ret, "device %u of %u: %s%s", i + 1, c->n, e.msg,
				 c->given ? "" : " (the path the superblock records; --device gives another)");
	return 0;
}

/* Each device at least as large as the table says (mkfs rounds down to
 * whole zones, so a device may hold a little more). */
static int check_size(const struct devs_ctx *c, unsigned i, struct f2fs_error *err)
{
	uint64_t have = f2fs_dev_bytes(c->dev[i]) / F2FS_BLKSIZE;

	if (have >= c->blocks[i])
		return 0;
	return f2fs_fail(err, -F2FS_E_CORRUPT,
			 "%s (device %u of %u): %llu blocks, the device table needs %llu (%u segments): a device of another volume, or the devices out of order?",
			 c->paths[i], i + 1, c->n, (unsigned long long)have,
			 (unsigned long long)c->blocks[i],
			 le32_get(c->fs->sb.devs[i].total_segments));
}

/* A later device never holds a superblock of this volume at its start: if
 * it does, it is the first device (or a copy of it) given in the wrong place. */
static int check_not_first(const struct devs_ctx *c, unsigned i, struct f2fs_error *err)
{
	struct f2fs_super_block other;
	struct f2fs_error e;

	if (f2fs_dev_pread(c->dev[i], F2FS_SUPER_OFFSET, &other, sizeof(other), &e) != 0 ||
	    le32_get(other.magic) != F2FS_SUPER_MAGIC ||
	    memcmp(other.uuid, c->fs->sb.uuid, sizeof(other.uuid)) != 0)
		return 0;
	return f2fs_fail(err, -F2FS_E_CORRUPT,
			 "%s (device %u of %u) holds this volume's superblock: it is the first device, not device %u (devices out of order?)",
			 c->paths[i], i + 1, c->n, i + 1);
}

int fs_open_devices(struct f2fs_fs *fs, const char *first, const char *const *devices,
		    unsigned ndevices, int flags, struct f2fs_error *err)
{
	struct devs_ctx *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return f2fs_fail(err, -ENOMEM, "out of memory");
	c->fs = fs;
	c->n = f2fs_sb_ndevs(&fs->sb);
	if (c->n <= 1) {
		free(c);
		if (ndevices)
			return f2fs_fail(err, -EINVAL,
					 "%s: a volume of one device: no other device to give", first);
		return 0;
	}
	ret = choose_paths(c, first, devices, ndevices, err);
	if (!ret)
		ret = refuse_twice(c, err);
	c->dev[0] = fs->dev;   /* already open: the superblock came from it */
	for (unsigned i = 0; i < c->n && !ret; i++) {
		c->blocks[i] = table_blocks(&fs->sb, i);
		if (i > 0)
			ret = open_member(c, i, flags, err);
		if (!ret)
			ret = check_size(c, i, err);
		if (!ret && i > 0)
			ret = check_not_first(c, i, err);
	}
	if (ret) {
		for (unsigned i = 1; i < c->n; i++)
			f2fs_dev_close(c->dev[i]);
		free(c);
		return ret;
	}
	fs->dev = NULL;   /* the set owns it now */
	ret = f2fs_dev_set_join(&fs->dev, c->dev, c->blocks, c->n, err);
	free(c);
	return ret;
}

/*
 * Is the node block at addr the one its summary names? Only when the NAT
 * agrees that nid lives at addr is the block a witness (a damaged summary
 * proves nothing about the device): then 1 when its footer names that nid
 * and inode, 0 when not, and -1 for no witness or an unreadable block.
 */
static int node_matches(struct f2fs_fs *fs, uint64_t addr, uint32_t nid, struct f2fs_node *blk)
{
	struct f2fs_nat_info ne;
	struct f2fs_error e;

	if (f2fs_nat_lookup(fs, nid, &ne, NULL, &e) != 0 || ne.blkaddr != addr ||
	    f2fs_dev_read(fs->dev, addr, blk, 1, &e) != 0)
		return -1;
	return le32_get(blk->footer.nid) == nid && le32_get(blk->footer.ino) == ne.ino;
}

/* Up to PROBE_NODES valid node blocks of segments [first, end) whose
 * summaries are recorded; *seen counts those compared, the result those
 * that match. */
static int probe_segments(struct f2fs_fs *fs, const struct f2fs_sit *sit, uint32_t first,
			  uint32_t end, unsigned *seen, uint64_t *bad_addr, uint32_t *bad_nid)
{
	uint64_t main = le32_get(fs->sb.main_blkaddr);
	struct f2fs_summary_block *sum = malloc(sizeof(*sum));
	struct f2fs_node *blk = malloc(sizeof(*blk));
	int matched = 0;

	for (uint32_t s = first; s < end && sum && blk && *seen < PROBE_NODES; s++) {
		const struct f2fs_seg *g = &sit->seg[s];
		enum f2fs_sum_src src;
		struct f2fs_error e;

		/* a summary rebuilt from the node footers would vouch for itself */
		if (!g->valid || g->type < F2FS_SEG_HOT_NODE || g->type > F2FS_SEG_COLD_NODE ||
		    f2fs_ssa_get(fs, s, sum, &src, &e) != 0 || src == F2FS_SUM_SRC_REBUILT)
			continue;
		for (uint32_t off = 0; off < F2FS_BLOCKS_PER_SEG && *seen < PROBE_NODES; off++) {
			uint64_t addr = main + (uint64_t)s * F2FS_BLOCKS_PER_SEG + off;
			uint32_t nid = le32_get(sum->entries[off].nid);
			int m;

			if (f2fs_sit_block_valid(sit, s, off) != 1)
				continue;
			m = node_matches(fs, addr, nid, blk);
			if (m < 0)
				continue;
			(*seen)++;
			matched += m;
			if (!m) {
				*bad_addr = addr;
				*bad_nid = nid;
			}
			off += F2FS_BLOCKS_PER_SEG / PROBE_NODES;   /* spread the probes */
		}
	}
	free(sum);
	free(blk);
	return matched;
}

/*
 * A later device of the right size may still be another one: the devices
 * out of order, or one of another volume. Its node blocks tell: a valid
 * node block whose address the NAT and the summary agree on carries that
 * nid and inode in its footer. Refused only when every node block compared
 * disagrees, so one damaged node is left to the check; a device without
 * node blocks (or an unreadable SIT) proves nothing.
 */
int fs_verify_devices(struct f2fs_fs *fs, struct f2fs_error *err)
{
	unsigned n = f2fs_dev_nmembers(fs->dev);
	uint64_t main = le32_get(fs->sb.main_blkaddr);
	struct f2fs_sit *sit;
	struct f2fs_error e;

	if (n <= 1 || f2fs_sit_load(fs, F2FS_SIT_WANT_MAPS, &sit, &e) != 0)
		return 0;
	for (unsigned i = 1; i < n; i++) {
		struct f2fs_dev_member m;
		uint64_t end_blk;
		uint32_t first, end, bad_nid = 0;
		uint64_t bad_addr = 0;
		unsigned seen = 0;

		f2fs_dev_member(fs->dev, i, &m);
		end_blk = i + 1 < n ? m.start + m.blocks : main +
			  (uint64_t)sit->nsegs * F2FS_BLOCKS_PER_SEG;
		if (m.start < main || end_blk <= m.start)
			continue;
		first = (uint32_t)((m.start - main) / F2FS_BLOCKS_PER_SEG);
		end = (uint32_t)((end_blk - main) / F2FS_BLOCKS_PER_SEG);
		if (end > sit->nsegs)
			end = sit->nsegs;
		if (probe_segments(fs, sit, first, end, &seen, &bad_addr, &bad_nid) == 0 && seen) {
			f2fs_sit_free(sit);
			return f2fs_fail(err, -F2FS_E_CORRUPT,
					 "%s (device %u of %u) does not hold this volume's blocks: none of %u node block(s) read there is the node the NAT and the summary name (block %llu should be node %u): a device of another volume, or the devices out of order?",
					 m.path, i + 1, n, seen, (unsigned long long)bad_addr, bad_nid);
		}
	}
	f2fs_sit_free(sit);
	return 0;
}
