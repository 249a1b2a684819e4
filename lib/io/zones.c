/* Zoned block devices: the zone report and write-pointer resets. */
#include <f2fs/io/zones.h>

#include <errno.h>
#include <linux/blkzoned.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#define REPORT_BATCH 4096   /* zones asked for per ioctl */

/* A device without zones answers the report with one of these. */
static bool not_zoned_errno(int e)
{
	return e == ENOTTY || e == EINVAL || e == EOPNOTSUPP || e == ENOTSUP;
}

static void copy_zone(struct f2fs_zone *to, const struct blk_zone *from, bool has_capacity)
{
	to->start = from->start;
	to->len = from->len;
	to->capacity = has_capacity && from->capacity ? from->capacity : from->len;
	to->wp = from->wp;
	to->type = from->type;
	to->cond = from->cond;
}

static int append_zones(struct f2fs_zones *out, size_t *cap, const struct blk_zone_report *rep,
			struct f2fs_dev *dev, struct f2fs_error *err)
{
	bool has_capacity = rep->flags & BLK_ZONE_REP_CAPACITY;

	if (out->count + rep->nr_zones > *cap) {
		size_t ncap = (*cap ? *cap * 2 : REPORT_BATCH) + rep->nr_zones;
		struct f2fs_zone *z = realloc(out->zone, ncap * sizeof(*z));

		if (!z)
			return f2fs_fail(err, -ENOMEM, "out of memory for the zones of %s",
					 f2fs_dev_path(dev));
		out->zone = z;
		*cap = ncap;
	}
	for (uint32_t i = 0; i < rep->nr_zones; i++)
		copy_zone(&out->zone[out->count++], &rep->zones[i], has_capacity);
	return 0;
}

int f2fs_zones_report(struct f2fs_dev *dev, struct f2fs_zones *out, struct f2fs_error *err)
{
	size_t size = sizeof(struct blk_zone_report) + REPORT_BATCH * sizeof(struct blk_zone);
	struct blk_zone_report *rep;
	uint64_t sector = 0, end = f2fs_dev_bytes(dev) / 512;
	size_t cap = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!f2fs_dev_is_blockdev(dev))
		return 0;
	rep = calloc(1, size);
	if (!rep)
		return f2fs_fail(err, -ENOMEM, "out of memory reporting the zones of %s",
				 f2fs_dev_path(dev));
	while (sector < end && !ret) {
		memset(rep, 0, sizeof(*rep));
		rep->sector = sector;
		rep->nr_zones = REPORT_BATCH;
		if (ioctl(f2fs_dev_fd(dev), BLKREPORTZONE, rep) != 0) {
			int e = errno;

			if (out->count == 0 && not_zoned_errno(e))
				break;   /* not zoned: no zones */
			ret = f2fs_fail(err, -e, "cannot report the zones of %s: %s",
					f2fs_dev_path(dev), strerror(e));
			break;
		}
		if (rep->nr_zones == 0)
			break;
		ret = append_zones(out, &cap, rep, dev, err);
		sector = out->zone[out->count - 1].start + out->zone[out->count - 1].len;
	}
	free(rep);
	if (ret) {
		f2fs_zones_free(out);
		return ret;
	}
	if (out->count)
		out->zone_sectors = out->zone[0].len;
	return 0;
}

void f2fs_zones_free(struct f2fs_zones *z)
{
	free(z->zone);
	memset(z, 0, sizeof(*z));
}

const struct f2fs_zone *f2fs_zones_find(const struct f2fs_zones *z, uint64_t sector)
{
	size_t i;

	if (!z->count || !z->zone_sectors)
		return NULL;
	/* all zones but the last have the first one's size */
	i = (size_t)(sector / z->zone_sectors);
	if (i >= z->count)
		i = z->count - 1;
	if (sector < z->zone[i].start || sector >= z->zone[i].start + z->zone[i].len)
		return NULL;
	return &z->zone[i];
}

int f2fs_zones_reset(struct f2fs_dev *dev, uint64_t sector, uint64_t nr_sectors,
		     struct f2fs_error *err)
{
	struct blk_zone_range range = { sector, nr_sectors };
	int ret = f2fs_dev_flush(dev, err);

	if (ret || nr_sectors == 0)
		return ret;
	if (ioctl(f2fs_dev_fd(dev), BLKRESETZONE, &range) != 0) {
		int e = errno;

		return f2fs_fail(err, -e, "cannot reset the zones of %s at sector %llu (%llu sectors): %s",
				 f2fs_dev_path(dev), (unsigned long long)sector,
				 (unsigned long long)nr_sectors, strerror(e));
	}
	return 0;
}

const char *f2fs_zone_type_name(uint8_t type)
{
	switch (type) {
	case F2FS_ZONE_CONVENTIONAL: return "conventional";
	case F2FS_ZONE_SEQ_REQUIRED: return "seq-required";
	case F2FS_ZONE_SEQ_PREFERRED: return "seq-preferred";
	default: return "unknown";
	}
}

const char *f2fs_zone_cond_name(uint8_t cond)
{
	switch (cond) {
	case F2FS_ZONE_NOT_WP: return "not-wp";
	case F2FS_ZONE_EMPTY: return "empty";
	case F2FS_ZONE_IMP_OPEN: return "open-implicit";
	case F2FS_ZONE_EXP_OPEN: return "open-explicit";
	case F2FS_ZONE_CLOSED: return "closed";
	case F2FS_ZONE_READONLY: return "read-only";
	case F2FS_ZONE_FULL: return "full";
	case F2FS_ZONE_OFFLINE: return "offline";
	default: return "unknown";
	}
}
