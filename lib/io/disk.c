/*
 * One image file or block device: open, size, batched writes, cheap
 * zeroing. Apart from dev.c, which passes each call on to here or to a set
 * of several (devset.c), so that a set's members, each one of these, are
 * reached without calling back through dev.c.
 */
#include <f2fs/io/dev.h>
#include <f2fs/util/sort.h>
#include <f2fs/format/format.h>

#include "dev_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#define QUEUE_MAX_BLOCKS 2048   /* 8 MiB buffered before an automatic flush */
#define QUEUE_HASH_SLOTS 4096   /* > 2 x QUEUE_MAX_BLOCKS: queued addresses */
#define ZERO_CHUNK_BLOCKS 256

static int drain_queue(struct f2fs_dev *dev, struct f2fs_error *err);

static int sys_fail(struct f2fs_error *err, const char *what, const char *path)
{
	int e = errno;

	return f2fs_fail(err, -e, "%s %s: %s", what, path, strerror(e));
}

/* Read a small sysfs attribute of a block device as an integer or text. */
static int read_sysfs(dev_t rdev, const char *attr, char *buf, size_t len)
{
	char p[PATH_MAX];
	FILE *f;
	int ok;

	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/%s", major(rdev),
		 minor(rdev), attr);
	f = fopen(p, "r");
	if (!f)
		return 0;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static void probe_blockdev_geometry(struct f2fs_dev *dev)
{
	char buf[64];
	int ssz = 512;

	if (ioctl(dev->fd, BLKGETSIZE64, &dev->bytes) != 0)
		dev->bytes = 0;
	if (ioctl(dev->fd, BLKSSZGET, &ssz) == 0 && ssz > 0)
		dev->sector_size = (uint32_t)ssz;
	if (read_sysfs(dev->rdev, "start", buf, sizeof(buf)))
		dev->start_sector = strtoull(buf, NULL, 10);
	if (read_sysfs(dev->rdev, "queue/zoned", buf, sizeof(buf)) &&
	    strncmp(buf, "host-", 5) == 0 &&
	    read_sysfs(dev->rdev, "queue/chunk_sectors", buf, sizeof(buf)))
		dev->zone_bytes = strtoull(buf, NULL, 10) * 512;
}

/* Is the block device mounted? Compares device numbers in the mount table. */
static int find_mount_of_rdev(dev_t rdev, char *where, size_t len)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char src[PATH_MAX], dst[PATH_MAX];
	struct stat st;
	int found = 0;

	if (!f)
		return 0;
	while (!found && fscanf(f, "%4095s %4095s %*[^\n]", src, dst) == 2) {
		if (src[0] == '/' && stat(src, &st) == 0 &&
		    S_ISBLK(st.st_mode) && st.st_rdev == rdev) {
			snprintf(where, len, "%s", dst);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* Is a regular file the backing file of a loop device? */
static int find_loop_of_file(const struct stat *file, char *loop, size_t len)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d)) != NULL) {
		char p[PATH_MAX], back[PATH_MAX];
		struct stat st;
		FILE *f;

		if (strncmp(e->d_name, "loop", 4) != 0)
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file", e->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (fgets(back, sizeof(back), f)) {
			back[strcspn(back, "\n")] = '\0';
			if (stat(back, &st) == 0 && st.st_dev == file->st_dev &&
			    st.st_ino == file->st_ino) {
				snprintf(loop, len, "/dev/%s", e->d_name);
				found = 1;
			}
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

static int refuse_if_in_use(struct f2fs_dev *dev, const struct stat *st,
			    struct f2fs_error *err)
{
	char where[PATH_MAX];

	if (dev->blockdev && find_mount_of_rdev(dev->rdev, where, sizeof(where)))
		return f2fs_fail(err, -F2FS_E_IN_USE, "%s is mounted on %s",
				 dev->path, where);
	if (!dev->blockdev && find_loop_of_file(st, where, sizeof(where)))
		return f2fs_fail(err, -F2FS_E_IN_USE,
				 "%s is in use as the backing file of %s",
				 dev->path, where);
	return 0;
}

/* A regular file has no O_EXCL: two tools writing one image at once are
 * kept apart by a lock each exclusive open takes. */
static int lock_file(struct f2fs_dev *dev, struct f2fs_error *err)
{
	if (flock(dev->fd, LOCK_EX | LOCK_NB) == 0)
		return 0;
	if (errno == EWOULDBLOCK)
		return f2fs_fail(err, -F2FS_E_IN_USE, "%s is in use by another program",
				 dev->path);
	return sys_fail(err, "cannot lock", dev->path);
}

static int open_fd(struct f2fs_dev *dev, int flags, struct stat *st,
		   struct f2fs_error *err)
{
	int oflags = (flags & F2FS_DEV_RDWR) ? O_RDWR : O_RDONLY;

	if (stat(dev->path, st) != 0) {
		if (errno != ENOENT || !(flags & F2FS_DEV_CREATE))
			return sys_fail(err, "cannot open", dev->path);
		oflags |= O_CREAT;
	} else if (S_ISBLK(st->st_mode) && (flags & F2FS_DEV_EXCL)) {
		oflags |= O_EXCL;
	} else if (!S_ISBLK(st->st_mode) && !S_ISREG(st->st_mode)) {
		return f2fs_fail(err, -ENODEV,
				 "%s is neither a block device nor a regular file",
				 dev->path);
	}
	dev->fd = open(dev->path, oflags | O_CLOEXEC, 0644);
	if (dev->fd < 0) {
		if (errno == EBUSY)
			return f2fs_fail(err, -F2FS_E_IN_USE,
					 "%s is in use (mounted or held by another program)",
					 dev->path);
		return sys_fail(err, "cannot open", dev->path);
	}
	if (fstat(dev->fd, st) != 0)
		return sys_fail(err, "cannot stat", dev->path);
	return 0;
}

int f2fs_dev_open(struct f2fs_dev **out, const char *path, int flags,
		  struct f2fs_error *err)
{
	struct f2fs_dev *dev = calloc(1, sizeof(*dev));
	struct stat st;
	int ret;

	*out = NULL;
	if (!dev || !(dev->path = strdup(path))) {
		free(dev);
		return f2fs_fail(err, -ENOMEM, "out of memory opening %s", path);
	}
	dev->fd = -1;
	dev->fail_after = -1;
	dev->sector_size = 512;
	dev->writable = (flags & F2FS_DEV_RDWR) != 0;
	ret = open_fd(dev, flags, &st, err);
	if (ret == 0) {
		dev->blockdev = S_ISBLK(st.st_mode);
		dev->rdev = st.st_rdev;
		if (dev->blockdev)
			probe_blockdev_geometry(dev);
		else
			dev->bytes = (uint64_t)st.st_size;
		if (flags & F2FS_DEV_EXCL)
			ret = refuse_if_in_use(dev, &st, err);
		if (!ret && (flags & F2FS_DEV_EXCL) && !dev->blockdev)
			ret = lock_file(dev, err);
	}
	if (ret) {
		disk_close(dev);
		return ret;
	}
	*out = dev;
	return 0;
}

void disk_close(struct f2fs_dev *dev)
{
	if (!dev)
		return;
	if (dev->fd >= 0) {
		disk_flush(dev, NULL);
		close(dev->fd);
	}
	free(dev->queue);
	free(dev->arena);
	free(dev->queued_addr);
	free(dev->path);
	free(dev);
}

void disk_fail_torn(struct f2fs_dev *dev, int64_t nblocks, uint32_t bytes)
{
	dev->fail_after = nblocks;
	dev->torn_bytes = bytes < F2FS_BLKSIZE ? bytes : F2FS_BLKSIZE - 1;
}

void disk_fail_read(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t count)
{
	dev->bad_start = blkaddr;
	dev->bad_count = count;
}

bool disk_is_all_holes(const struct f2fs_dev *dev)
{
	return !dev->blockdev && lseek(dev->fd, 0, SEEK_DATA) < 0 && errno == ENXIO;
}

int disk_grow(struct f2fs_dev *dev, uint64_t bytes, struct f2fs_error *err)
{
	if (dev->blockdev || bytes <= dev->bytes)
		return 0;
	if (ftruncate(dev->fd, (off_t)bytes) != 0)
		return sys_fail(err, "cannot resize", dev->path);
	dev->dirty = true;
	dev->bytes = bytes;
	return 0;
}

int disk_pread(struct f2fs_dev *dev, uint64_t offset, void *buf,
	       size_t len, struct f2fs_error *err)
{
	uint8_t *p = buf;
	int ret = drain_queue(dev, err);

	if (ret)
		return ret;
	if (dev->bad_count && len > 0 && offset / F2FS_BLKSIZE < dev->bad_start + dev->bad_count &&
	    (offset + len - 1) / F2FS_BLKSIZE >= dev->bad_start) {
		uint64_t first = offset / F2FS_BLKSIZE;

		if (first < dev->bad_start)
			first = dev->bad_start;
		return f2fs_fail(err, -EIO, "read error on %s: %s (injected at block %llu)",
				 dev->path, strerror(EIO), (unsigned long long)first);
	}
	while (len > 0) {
		ssize_t n = pread(dev->fd, p, len, (off_t)offset);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return sys_fail(err, "read error on", dev->path);
		}
		if (n == 0)
			return f2fs_fail(err, -F2FS_E_SHORT_IO,
					 "%s: read past the end at byte %llu",
					 dev->path, (unsigned long long)offset);
		p += n;
		len -= (size_t)n;
		offset += (uint64_t)n;
	}
	return 0;
}

/*
 * Blocks of a write of nblocks that the injected-failure budget lets
 * through (all of them when no failure is armed); a torn failure lets
 * torn_bytes more through, as a power cut inside a block would.
 */
static size_t fault_budget(const struct f2fs_dev *dev, size_t nblocks)
{
	if (dev->fail_after < 0 || (int64_t)nblocks <= dev->fail_after)
		return nblocks * F2FS_BLKSIZE;
	return (size_t)dev->fail_after * F2FS_BLKSIZE + dev->torn_bytes;
}

/* Cut a vector down to its first len bytes; returns its new count. */
static int trim_iov(struct iovec *iov, int n, size_t len)
{
	for (int k = 0; k < n; k++) {
		if (len <= iov[k].iov_len) {
			iov[k].iov_len = len;
			return len ? k + 1 : k;
		}
		len -= iov[k].iov_len;
	}
	return n;
}

static int write_iov(struct f2fs_dev *dev, struct iovec *iov, int n,
		     uint64_t blkaddr, size_t nblocks, struct f2fs_error *err)
{
	off_t off = (off_t)(blkaddr * F2FS_BLKSIZE);
	size_t want = nblocks * F2FS_BLKSIZE, left = fault_budget(dev, nblocks);
	bool fails = left < want;

	if (dev->fail_after >= 0)
		dev->fail_after = fails ? 0 : dev->fail_after - (int64_t)nblocks;
	if (fails)
		n = trim_iov(iov, n, left);
	while (left > 0) {
		ssize_t w = pwritev(dev->fd, iov, n, off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return sys_fail(err, "write error on", dev->path);
		}
		if (w == 0)
			return f2fs_fail(err, -F2FS_E_SHORT_IO, "%s: short write",
					 dev->path);
		dev->bytes_written += (uint64_t)w;
		dev->dirty = true;
		left -= (size_t)w;
		off += w;
		/* advance the vector past what was written */
		while (n > 0 && (size_t)w >= iov->iov_len) {
			w -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (uint8_t *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	if (fails) {
		dev->torn_bytes = 0;
		return f2fs_fail(err, -EIO, "%s: injected write failure", dev->path);
	}
	return 0;
}

/* Queued writes never overlap (an overlapping one drains the queue first),
 * so the order by address is total. */
static int queued_less(const void *a, const void *b, void *ctx)
{
	const struct queued_write *x = a, *y = b;

	(void)ctx;
	return x->blkaddr < y->blkaddr;
}

/* Write the queue in address order, merging contiguous runs. */
static int drain_queue(struct f2fs_dev *dev, struct f2fs_error *err)
{
	struct iovec iov[IOV_MAX < 1024 ? IOV_MAX : 1024];
	size_t i = 0;
	int ret = 0;

	if (dev->nqueued == 0)
		return 0;
	f2fs_sort(dev->queue, dev->nqueued, sizeof(*dev->queue), queued_less, NULL);
	while (i < dev->nqueued && ret == 0) {
		uint64_t start = dev->queue[i].blkaddr, next = start;
		size_t run = 0;
		int n = 0;

		while (i < dev->nqueued && dev->queue[i].blkaddr == next &&
		       n < (int)(sizeof(iov) / sizeof(iov[0]))) {
			iov[n].iov_base = dev->queue[i].data;
			iov[n].iov_len = dev->queue[i].nblocks * F2FS_BLKSIZE;
			next += dev->queue[i].nblocks;
			run += dev->queue[i].nblocks;
			n++;
			i++;
		}
		ret = write_iov(dev, iov, n, start, run, err);
	}
	dev->nqueued = 0;
	dev->queued_blocks = 0;
	memset(dev->queued_addr, 0, QUEUE_HASH_SLOTS * sizeof(*dev->queued_addr));
	return ret;
}

static size_t addr_slot(uint64_t blkaddr)
{
	return (size_t)((blkaddr * 0x9E3779B97F4A7C15ull) >> 52) & (QUEUE_HASH_SLOTS - 1);
}

static bool is_queued(const struct f2fs_dev *dev, uint64_t blkaddr)
{
	for (size_t h = addr_slot(blkaddr); dev->queued_addr[h]; h = (h + 1) & (QUEUE_HASH_SLOTS - 1))
		if (dev->queued_addr[h] == blkaddr + 1)
			return true;
	return false;
}

static void mark_queued(struct f2fs_dev *dev, uint64_t blkaddr)
{
	size_t h = addr_slot(blkaddr);

	while (dev->queued_addr[h])
		h = (h + 1) & (QUEUE_HASH_SLOTS - 1);
	dev->queued_addr[h] = blkaddr + 1;
}

static bool overlaps_queue(const struct f2fs_dev *dev, uint64_t blkaddr,
			   size_t nblocks)
{
	for (size_t i = 0; i < nblocks; i++)
		if (is_queued(dev, blkaddr + i))
			return true;
	return false;
}

static size_t queue_max(const struct f2fs_dev *dev)
{
	return dev->queue_max ? dev->queue_max : QUEUE_MAX_BLOCKS;
}

static int queue_alloc(struct f2fs_dev *dev, struct f2fs_error *err)
{
	if (dev->arena)
		return 0;
	dev->arena = malloc(queue_max(dev) * F2FS_BLKSIZE);
	if (!dev->queued_addr)
		dev->queued_addr = calloc(QUEUE_HASH_SLOTS, sizeof(*dev->queued_addr));
	dev->queue = malloc(queue_max(dev) * sizeof(*dev->queue));
	if (!dev->arena || !dev->queued_addr || !dev->queue)
		return f2fs_fail(err, -ENOMEM, "out of memory queueing writes");
	dev->queue_cap = queue_max(dev);
	return 0;
}

int f2fs_dev_set_write_queue(struct f2fs_dev *dev, size_t blocks, struct f2fs_error *err)
{
	int ret = dev->writable && !dev->set ? drain_queue(dev, err) : 0;

	if (ret)
		return ret;
	free(dev->arena);
	free(dev->queue);
	dev->arena = NULL;
	dev->queue = NULL;
	dev->queue_cap = 0;
	dev->queue_max = blocks < 1 ? 1 : blocks > QUEUE_MAX_BLOCKS ? QUEUE_MAX_BLOCKS : blocks;
	return 0;
}

int disk_write(struct f2fs_dev *dev, uint64_t blkaddr, const void *buf,
	       size_t nblocks, struct f2fs_error *err)
{
	struct queued_write *q;
	int ret;

	if (!dev->writable)
		return f2fs_fail(err, -EBADF, "%s is open read-only", dev->path);
	if (blkaddr > dev->bytes / F2FS_BLKSIZE ||
	    nblocks > dev->bytes / F2FS_BLKSIZE - blkaddr)
		return f2fs_fail(err, -ENOSPC,
				 "%s: write beyond the end (block %llu)", dev->path,
				 (unsigned long long)(blkaddr + nblocks - 1));
	ret = queue_alloc(dev, err);
	if (ret)
		return ret;
	/* a rewrite of a queued block must land after it: drain first */
	if (dev->queued_blocks + nblocks > queue_max(dev) ||
	    overlaps_queue(dev, blkaddr, nblocks)) {
		ret = drain_queue(dev, err);
		if (ret)
			return ret;
	}
	if (nblocks > queue_max(dev)) {   /* too big to queue: write it now */
		struct iovec iov = { (void *)buf, nblocks * F2FS_BLKSIZE };

		return write_iov(dev, &iov, 1, blkaddr, nblocks, err);
	}
	q = &dev->queue[dev->nqueued];
	q->data = dev->arena + dev->queued_blocks * F2FS_BLKSIZE;
	memcpy(q->data, buf, nblocks * F2FS_BLKSIZE);
	q->blkaddr = blkaddr;
	q->nblocks = nblocks;
	for (size_t i = 0; i < nblocks; i++)
		mark_queued(dev, blkaddr + i);
	dev->nqueued++;
	dev->queued_blocks += nblocks;
	return 0;
}

int disk_flush(struct f2fs_dev *dev, struct f2fs_error *err)
{
	int ret;

	if (!dev->writable)
		return 0;
	ret = drain_queue(dev, err);
	if (ret || !dev->dirty)
		return ret;
	if (fsync(dev->fd) != 0 && errno != EINVAL)
		return sys_fail(err, "cannot sync", dev->path);
	dev->dirty = false;
	return 0;
}

/* Does a regular file hold any data (not holes) in [off, off+len)? */
static bool file_range_has_data(int fd, off_t off, off_t len)
{
	off_t d = lseek(fd, off, SEEK_DATA);

	if (d < 0)
		return errno != ENXIO;   /* ENXIO: only holes up to EOF */
	return d < off + len;
}

static int write_zero_blocks(struct f2fs_dev *dev, uint64_t blkaddr,
			     uint64_t nblocks, struct f2fs_error *err)
{
	uint8_t *zero = calloc(ZERO_CHUNK_BLOCKS, F2FS_BLKSIZE);
	int ret = 0;

	if (!zero)
		return f2fs_fail(err, -ENOMEM, "out of memory zeroing %s", dev->path);
	while (nblocks > 0 && ret == 0) {
		size_t n = nblocks > ZERO_CHUNK_BLOCKS ? ZERO_CHUNK_BLOCKS : nblocks;
		struct iovec iov = { zero, n * F2FS_BLKSIZE };

		ret = write_iov(dev, &iov, 1, blkaddr, n, err);
		blkaddr += n;
		nblocks -= n;
	}
	free(zero);
	return ret;
}

static int zero_file_range(struct f2fs_dev *dev, uint64_t blkaddr,
			   uint64_t nblocks, enum f2fs_zero_how *how,
			   struct f2fs_error *err)
{
	off_t off = (off_t)(blkaddr * F2FS_BLKSIZE);
	off_t len = (off_t)(nblocks * F2FS_BLKSIZE);
	struct stat st;

	if (fstat(dev->fd, &st) != 0)
		return sys_fail(err, "cannot stat", dev->path);
	if (off >= st.st_size || !file_range_has_data(dev->fd, off, len)) {
		*how = F2FS_ZERO_SKIPPED;
		return 0;
	}
	if (fallocate(dev->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      off, len) == 0) {
		dev->dirty = true;
		*how = F2FS_ZERO_PUNCHED;
		return 0;
	}
	if (errno != EOPNOTSUPP && errno != ENOSYS)
		return sys_fail(err, "cannot punch a hole in", dev->path);
	*how = F2FS_ZERO_WRITTEN;
	return write_zero_blocks(dev, blkaddr, nblocks, err);
}

int disk_zero(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks,
	      enum f2fs_zero_how *how, struct f2fs_error *err)
{
	int ret = drain_queue(dev, err);

	if (ret)
		return ret;
	if (!dev->blockdev)
		return zero_file_range(dev, blkaddr, nblocks, how, err);
	{
		uint64_t range[2] = { blkaddr * F2FS_BLKSIZE, nblocks * F2FS_BLKSIZE };

		/* BLKZEROOUT guarantees zeroes (unlike discard), offloaded or not */
		if (ioctl(dev->fd, BLKZEROOUT, range) == 0) {
			dev->dirty = true;
			*how = F2FS_ZERO_OFFLOADED;
			return 0;
		}
	}
	*how = F2FS_ZERO_WRITTEN;
	return write_zero_blocks(dev, blkaddr, nblocks, err);
}

int disk_discard_all(struct f2fs_dev *dev, struct f2fs_error *err)
{
	int ret = drain_queue(dev, err);

	if (ret)
		return ret;
	if (!dev->blockdev) {
		if (dev->bytes == 0)
			return 1;
		if (fallocate(dev->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      0, (off_t)dev->bytes) == 0) {
			dev->dirty = true;
			return 1;
		}
	} else {
		uint64_t range[2] = { 0, dev->bytes };

		if (ioctl(dev->fd, BLKDISCARD, range) == 0) {
			dev->dirty = true;
			return 1;
		}
	}
	return 0;
}
