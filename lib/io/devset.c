/*
 * A volume over several devices: the address map (volume block -> member,
 * offset) and the operations of struct f2fs_dev that split at members.
 */
#include <f2fs/io/dev.h>
#include <f2fs/format/format.h>

#include "dev_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct f2fs_devset {
	unsigned n;
	struct f2fs_dev **member;
	uint64_t *start;          /* n + 1 entries: start[n] ends the table's share */
};

void devset_free(struct f2fs_devset *set)
{
	if (!set)
		return;
	for (unsigned i = 0; i < set->n; i++)
		disk_close(set->member[i]);
	free(set->member);
	free(set->start);
	free(set);
}

int f2fs_dev_set_join(struct f2fs_dev **out, struct f2fs_dev *const *members,
		      const uint64_t *blocks, unsigned n, struct f2fs_error *err)
{
	struct f2fs_devset *set = calloc(1, sizeof(*set));
	struct f2fs_dev *dev = calloc(1, sizeof(*dev));
	bool writable = true;

	*out = NULL;
	if (set) {
		set->member = calloc(n, sizeof(*set->member));
		set->start = calloc(n + 1, sizeof(*set->start));
	}
	if (!set || !dev || !set->member || !set->start || n == 0 ||
	    !(dev->path = strdup(members[0]->path))) {
		for (unsigned i = 0; i < n; i++)
			disk_close(members[i]);
		if (set)
			devset_free(set);
		free(dev);
		return n ? f2fs_fail(err, -ENOMEM, "out of memory joining %u devices", n)
			 : f2fs_fail(err, -EINVAL, "no device to join");
	}
	set->n = n;
	for (unsigned i = 0; i < n; i++) {
		set->member[i] = members[i];
		set->start[i + 1] = set->start[i] + blocks[i];
		dev->bytes += members[i]->bytes;
		writable = writable && members[i]->writable;
	}
	/* the volume's geometry as seen from its first device */
	dev->fd = members[0]->fd;
	dev->blockdev = members[0]->blockdev;
	dev->rdev = members[0]->rdev;
	dev->sector_size = members[0]->sector_size;
	dev->start_sector = members[0]->start_sector;
	dev->zone_bytes = members[0]->zone_bytes;
	dev->writable = writable;
	dev->fail_after = -1;
	dev->set = set;
	*out = dev;
	return 0;
}

unsigned f2fs_dev_nmembers(const struct f2fs_dev *dev)
{
	return dev->set ? dev->set->n : 1;
}

void f2fs_dev_member(const struct f2fs_dev *dev, unsigned i, struct f2fs_dev_member *out)
{
	const struct f2fs_devset *set = dev->set;
	struct f2fs_dev *m = set ? set->member[i] : (struct f2fs_dev *)dev;

	out->dev = m;
	out->path = m->path;
	out->fd = m->fd;
	out->start = set ? set->start[i] : 0;
	out->blocks = set ? set->start[i + 1] - set->start[i] : m->bytes / F2FS_BLKSIZE;
}

/* The member holding blkaddr; *left is how many blocks from blkaddr on it
 * holds (no limit on the last one). */
static unsigned locate(const struct f2fs_devset *set, uint64_t blkaddr,
		       uint64_t *offset, uint64_t *left)
{
	unsigned i = 0;

	while (i + 1 < set->n && blkaddr >= set->start[i + 1])
		i++;
	*offset = blkaddr - set->start[i];
	*left = i + 1 < set->n ? set->start[i + 1] - blkaddr : UINT64_MAX;
	return i;
}

unsigned f2fs_dev_map(const struct f2fs_dev *dev, uint64_t blkaddr, uint64_t *offset)
{
	uint64_t left;

	if (!dev->set) {
		*offset = blkaddr;
		return 0;
	}
	return locate(dev->set, blkaddr, offset, &left);
}

int f2fs_dev_fd(const struct f2fs_dev *dev)
{
	return dev->fd;
}

int devset_pread(struct f2fs_devset *set, uint64_t offset, void *buf, size_t len,
		 struct f2fs_error *err)
{
	uint8_t *p = buf;

	while (len > 0) {
		uint64_t blk_off, left;
		unsigned i = locate(set, offset / F2FS_BLKSIZE, &blk_off, &left);
		uint64_t in_blk = offset % F2FS_BLKSIZE;
		size_t n = len;
		int ret;

		if (left != UINT64_MAX && left * F2FS_BLKSIZE - in_blk < n)
			n = (size_t)(left * F2FS_BLKSIZE - in_blk);
		ret = disk_pread(set->member[i], blk_off * F2FS_BLKSIZE + in_blk, p, n, err);
		if (ret)
			return ret;
		p += n;
		len -= n;
		offset += n;
	}
	return 0;
}

int devset_write(struct f2fs_devset *set, uint64_t blkaddr, const void *buf,
		 size_t nblocks, struct f2fs_error *err)
{
	const uint8_t *p = buf;

	while (nblocks > 0) {
		uint64_t off, left;
		unsigned i = locate(set, blkaddr, &off, &left);
		size_t n = left < nblocks ? (size_t)left : nblocks;
		int ret = disk_write(set->member[i], off, p, n, err);

		if (ret)
			return ret;
		p += n * F2FS_BLKSIZE;
		nblocks -= n;
		blkaddr += n;
	}
	return 0;
}

int devset_zero(struct f2fs_devset *set, uint64_t blkaddr, uint64_t nblocks,
		enum f2fs_zero_how *how, struct f2fs_error *err)
{
	while (nblocks > 0) {
		uint64_t off, left;
		unsigned i = locate(set, blkaddr, &off, &left);
		uint64_t n = left < nblocks ? left : nblocks;
		int ret = disk_zero(set->member[i], off, n, how, err);

		if (ret)
			return ret;
		nblocks -= n;
		blkaddr += n;
	}
	return 0;
}

/* Every member is flushed even when one fails; the first error is kept. */
int devset_flush(struct f2fs_devset *set, struct f2fs_error *err)
{
	int first = 0;

	for (unsigned i = 0; i < set->n; i++) {
		struct f2fs_error e;
		int ret = disk_flush(set->member[i], &e);

		if (ret && !first) {
			first = ret;
			if (err)
				*err = e;
		}
	}
	return first;
}

/* 1 only when every member was discarded. */
int devset_discard_all(struct f2fs_devset *set, struct f2fs_error *err)
{
	int all = 1;

	for (unsigned i = 0; i < set->n; i++) {
		int ret = disk_discard_all(set->member[i], err);

		if (ret < 0)
			return ret;
		all = all && ret == 1;
	}
	return all;
}

uint64_t devset_bytes_written(const struct f2fs_devset *set)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < set->n; i++)
		sum += set->member[i]->bytes_written;
	return sum;
}

/* Crash tests: each member gets the budget (a power cut stops them all,
 * but the blocks each one lets through are counted on its own). */
void devset_fail_torn(struct f2fs_devset *set, int64_t nblocks, uint32_t bytes)
{
	for (unsigned i = 0; i < set->n; i++)
		disk_fail_torn(set->member[i], nblocks, bytes);
}

/* Tests: the member holding blkaddr fails reads of the range's share on it. */
void devset_fail_read(struct f2fs_devset *set, uint64_t blkaddr, uint64_t count)
{
	uint64_t off, left;
	unsigned i = locate(set, blkaddr, &off, &left);

	for (unsigned k = 0; k < set->n; k++)
		disk_fail_read(set->member[k], 0, 0);
	if (count)
		disk_fail_read(set->member[i], off, left < count ? left : count);
}
