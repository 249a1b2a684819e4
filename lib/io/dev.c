/*
 * The calls of <f2fs/io/dev.h> on a struct f2fs_dev: each goes to the one
 * file or device it is (disk.c) or, for a volume over several, to the set
 * (devset.c), which works on its members through disk.c in turn.
 */
#include <f2fs/io/dev.h>
#include <f2fs/format/format.h>

#include "dev_priv.h"

#include <errno.h>
#include <stdlib.h>

void f2fs_dev_close(struct f2fs_dev *dev)
{
	if (!dev)
		return;
	if (!dev->set) {
		disk_close(dev);
		return;
	}
	/* the fd is its first member's */
	devset_free(dev->set);
	free(dev->path);
	free(dev);
}

const char *f2fs_dev_path(const struct f2fs_dev *dev) { return dev->path; }
uint64_t f2fs_dev_bytes(const struct f2fs_dev *dev) { return dev->bytes; }
uint32_t f2fs_dev_sector_size(const struct f2fs_dev *dev) { return dev->sector_size; }
bool f2fs_dev_is_blockdev(const struct f2fs_dev *dev) { return dev->blockdev; }
uint64_t f2fs_dev_start_sector(const struct f2fs_dev *dev) { return dev->start_sector; }
uint64_t f2fs_dev_zone_bytes(const struct f2fs_dev *dev) { return dev->zone_bytes; }
uint64_t f2fs_dev_bytes_written(const struct f2fs_dev *dev)
{
	return dev->set ? devset_bytes_written(dev->set) : dev->bytes_written;
}

void f2fs_dev_fail_torn(struct f2fs_dev *dev, int64_t nblocks, uint32_t bytes)
{
	if (dev->set)
		devset_fail_torn(dev->set, nblocks, bytes);
	else
		disk_fail_torn(dev, nblocks, bytes);
}

void f2fs_dev_fail_after(struct f2fs_dev *dev, int64_t nblocks)
{
	f2fs_dev_fail_torn(dev, nblocks, 0);
}

void f2fs_dev_fail_read(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t count)
{
	if (dev->set)
		devset_fail_read(dev->set, blkaddr, count);
	else
		disk_fail_read(dev, blkaddr, count);
}

bool f2fs_dev_is_all_holes(const struct f2fs_dev *dev)
{
	return !dev->set && disk_is_all_holes(dev);
}

int f2fs_dev_grow(struct f2fs_dev *dev, uint64_t bytes, struct f2fs_error *err)
{
	if (!dev->set)
		return disk_grow(dev, bytes, err);
	if (dev->blockdev || bytes <= dev->bytes)
		return 0;
	return f2fs_fail(err, -EINVAL, "%s: a volume over several devices cannot grow",
			 dev->path);
}

int f2fs_dev_pread(struct f2fs_dev *dev, uint64_t offset, void *buf,
		   size_t len, struct f2fs_error *err)
{
	if (dev->set)
		return devset_pread(dev->set, offset, buf, len, err);
	return disk_pread(dev, offset, buf, len, err);
}

int f2fs_dev_read(struct f2fs_dev *dev, uint64_t blkaddr, void *buf,
		  size_t nblocks, struct f2fs_error *err)
{
	return f2fs_dev_pread(dev, blkaddr * F2FS_BLKSIZE, buf,
			      nblocks * F2FS_BLKSIZE, err);
}

int f2fs_dev_write(struct f2fs_dev *dev, uint64_t blkaddr, const void *buf,
		   size_t nblocks, struct f2fs_error *err)
{
	if (!dev->set)
		return disk_write(dev, blkaddr, buf, nblocks, err);
	if (!dev->writable)
		return f2fs_fail(err, -EBADF, "%s is open read-only", dev->path);
	return devset_write(dev->set, blkaddr, buf, nblocks, err);
}

int f2fs_dev_flush(struct f2fs_dev *dev, struct f2fs_error *err)
{
	if (!dev->set)
		return disk_flush(dev, err);
	if (!dev->writable)
		return 0;
	return devset_flush(dev->set, err);
}

int f2fs_dev_zero(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks,
		  enum f2fs_zero_how *how, struct f2fs_error *err)
{
	enum f2fs_zero_how dummy;

	if (!how)
		how = &dummy;
	if (nblocks == 0) {
		*how = F2FS_ZERO_SKIPPED;
		return 0;
	}
	if (dev->set)
		return devset_zero(dev->set, blkaddr, nblocks, how, err);
	return disk_zero(dev, blkaddr, nblocks, how, err);
}

int f2fs_dev_discard_all(struct f2fs_dev *dev, struct f2fs_error *err)
{
	if (dev->set)
		return devset_discard_all(dev->set, err);
	return disk_discard_all(dev, err);
}
