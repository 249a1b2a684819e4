/*
 * Block I/O on an image file or a block device: size and sector size,
 * refusal of mounted targets, batched writes, and zeroing that costs nothing
 * where the target allows it.
 */
#ifndef F2FS_DEV_H
#define F2FS_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <f2fs/util/error.h>

struct f2fs_dev;

enum f2fs_dev_flag {
	F2FS_DEV_RDONLY = 0,      /* open read-only (never O_RDWR) */
	F2FS_DEV_RDWR   = 1 << 0, /* open for writing */
	F2FS_DEV_EXCL   = 1 << 1, /* O_EXCL on block devices; refuse mounted targets */
	F2FS_DEV_CREATE = 1 << 2, /* create a missing regular file */
};

/* What zeroing did for a range. */
enum f2fs_zero_how {
	F2FS_ZERO_SKIPPED,   /* already known to read as zero */
	F2FS_ZERO_PUNCHED,   /* holes punched in a regular file */
	F2FS_ZERO_OFFLOADED, /* BLKZEROOUT on a block device */
	F2FS_ZERO_WRITTEN,   /* zero blocks written */
};

int f2fs_dev_open(struct f2fs_dev **out, const char *path, int flags,
		  struct f2fs_error *err);
/* Flushes queued writes (errors are lost: call f2fs_dev_flush() first). */
void f2fs_dev_close(struct f2fs_dev *dev);

const char *f2fs_dev_path(const struct f2fs_dev *dev);
uint64_t f2fs_dev_bytes(const struct f2fs_dev *dev);
uint32_t f2fs_dev_sector_size(const struct f2fs_dev *dev);
bool f2fs_dev_is_blockdev(const struct f2fs_dev *dev);
/* Start of the partition on its disk, in 512-byte sectors (0 for files). */
uint64_t f2fs_dev_start_sector(const struct f2fs_dev *dev);
/* Zone size in bytes of a host-managed/aware zoned device, else 0. */
uint64_t f2fs_dev_zone_bytes(const struct f2fs_dev *dev);

/* A regular file with no data at all (only holes)? */
bool f2fs_dev_is_all_holes(const struct f2fs_dev *dev);

/* Grow a regular file (sparse) to bytes; no-op if it is already as large. */
int f2fs_dev_grow(struct f2fs_dev *dev, uint64_t bytes, struct f2fs_error *err);

/* Read nblocks 4 KiB blocks at blkaddr. Queued writes are flushed first. */
int f2fs_dev_read(struct f2fs_dev *dev, uint64_t blkaddr, void *buf,
		  size_t nblocks, struct f2fs_error *err);
/* Read raw bytes (for probing headers smaller than a block). */
int f2fs_dev_pread(struct f2fs_dev *dev, uint64_t offset, void *buf,
		   size_t len, struct f2fs_error *err);

/*
 * Queue a write of nblocks blocks. The data is copied; writes are sorted and
 * merged into large vectored writes when the queue fills or on flush.
 */
int f2fs_dev_write(struct f2fs_dev *dev, uint64_t blkaddr, const void *buf,
		   size_t nblocks, struct f2fs_error *err);

/* Queue at most blocks blocks (1 to the default, 8 MiB worth) before
 * writing them out: for a writer that would rather hold less memory. The
 * queue is written out first. A device set keeps its members' queues. */
int f2fs_dev_set_write_queue(struct f2fs_dev *dev, size_t blocks, struct f2fs_error *err);

/* Make nblocks blocks at blkaddr read as zero; reports how in *how. */
int f2fs_dev_zero(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks,
		  enum f2fs_zero_how *how, struct f2fs_error *err);

/* Discard the whole target (punch a file, BLKDISCARD a device). Returns 1
 * when done, 0 when the target does not support it. */
int f2fs_dev_discard_all(struct f2fs_dev *dev, struct f2fs_error *err);

/* Write out queued blocks and make them durable (fsync). */
int f2fs_dev_flush(struct f2fs_dev *dev, struct f2fs_error *err);

/* Bytes handed to write system calls so far (for reports and benchmarks). */
uint64_t f2fs_dev_bytes_written(const struct f2fs_dev *dev);

/* Crash tests: fail every write after the next n blocks (-1 = never). */
void f2fs_dev_fail_after(struct f2fs_dev *dev, int64_t nblocks);
/* Crash tests, a torn write: as f2fs_dev_fail_after(), but the first bytes
 * (below 4096) of the block that fails still reach the target. */
void f2fs_dev_fail_torn(struct f2fs_dev *dev, int64_t nblocks, uint32_t bytes);

/* Tests: every read that touches blocks [blkaddr, blkaddr + count) fails
 * with -EIO, as on a bad sector, until called again (count 0 = none). */
void f2fs_dev_fail_read(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t count);

/*
 * A volume over several devices (F2FS's device table, mkfs -c): one
 * struct f2fs_dev whose block addresses run through its members in table
 * order, member i holding blocks [start, start + blocks) of the volume;
 * addresses past the last member's share fall to the last member (the
 * tail below a segment). Reads, writes, zeroing and flushes on it are
 * split at the members' boundaries; f2fs_dev_map() is the one place an
 * address is turned into a member and an offset. A plain device is a set
 * of one member, itself.
 */
struct f2fs_dev_member {
	struct f2fs_dev *dev;   /* the member (f2fs_dev_path, _bytes, _zone_bytes) */
	const char *path;
	int fd;
	uint64_t start;         /* first volume block it holds */
	uint64_t blocks;        /* volume blocks it holds */
};

/* Join n devices opened by f2fs_dev_open (n >= 1; not sets), blocks[i]
 * volume blocks on member i, into one; takes the members (closed with it,
 * or at once on failure). The set is writable when its members are. */
int f2fs_dev_set_join(struct f2fs_dev **out, struct f2fs_dev *const *members,
		      const uint64_t *blocks, unsigned n, struct f2fs_error *err);
unsigned f2fs_dev_nmembers(const struct f2fs_dev *dev);
/* Member i (< f2fs_dev_nmembers) into *out. */
void f2fs_dev_member(const struct f2fs_dev *dev, unsigned i, struct f2fs_dev_member *out);
/* The member holding blkaddr, and its block offset there in *offset. */
unsigned f2fs_dev_map(const struct f2fs_dev *dev, uint64_t blkaddr, uint64_t *offset);
/* The file descriptor (of member 0 for a set), for ioctls the layer does
 * not wrap. */
int f2fs_dev_fd(const struct f2fs_dev *dev);

#endif
