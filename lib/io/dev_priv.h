/*
 * Internals of struct f2fs_dev, shared by lib/io/dev.c (the public calls,
 * passed on to one of the two others), lib/io/disk.c (one file or block
 * device) and lib/io/devset.c (a volume over several of them).
 */
#ifndef F2FS_IO_DEV_PRIV_H
#define F2FS_IO_DEV_PRIV_H

#include <f2fs/io/dev.h>

#include <sys/types.h>

struct queued_write {
	uint64_t blkaddr;
	size_t nblocks;
	uint8_t *data;
};

struct f2fs_dev {
	int fd;
	char *path;
	bool blockdev;
	bool writable;
	dev_t rdev;
	uint64_t bytes;
	uint32_t sector_size;
	uint64_t start_sector;
	uint64_t zone_bytes;
	struct queued_write *queue;
	size_t nqueued, queue_cap, queued_blocks;
	size_t queue_max;         /* blocks queued before a flush; 0: the default */
	uint8_t *arena;           /* the queued data, queue_max blocks */
	uint64_t *queued_addr;    /* open hash of queued block addresses + 1 */
	uint64_t bytes_written;
	bool dirty;             /* changed since the last fsync */
	int64_t fail_after;     /* blocks until injected failure; -1 = never */
	uint32_t torn_bytes;    /* of the block that fails: bytes still written */
	uint64_t bad_start, bad_count;   /* blocks whose reads fail (tests) */
	struct f2fs_devset *set;         /* a volume over several devices, or NULL */
};

/* lib/io/disk.c: the operations of a struct f2fs_dev whose set is NULL (one
 * file or device), as <f2fs/io/dev.h> describes them; f2fs_dev_open makes
 * such a device, and f2fs_dev_set_write_queue, which sizes its queue, is
 * there too. disk_zero wants how not NULL and nblocks > 0. */
void disk_close(struct f2fs_dev *dev);
int disk_pread(struct f2fs_dev *dev, uint64_t offset, void *buf, size_t len,
	       struct f2fs_error *err);
int disk_write(struct f2fs_dev *dev, uint64_t blkaddr, const void *buf,
	       size_t nblocks, struct f2fs_error *err);
int disk_zero(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t nblocks,
	      enum f2fs_zero_how *how, struct f2fs_error *err);
int disk_flush(struct f2fs_dev *dev, struct f2fs_error *err);
int disk_discard_all(struct f2fs_dev *dev, struct f2fs_error *err);
int disk_grow(struct f2fs_dev *dev, uint64_t bytes, struct f2fs_error *err);
bool disk_is_all_holes(const struct f2fs_dev *dev);
void disk_fail_torn(struct f2fs_dev *dev, int64_t nblocks, uint32_t bytes);
void disk_fail_read(struct f2fs_dev *dev, uint64_t blkaddr, uint64_t count);

/* lib/io/devset.c: the operations of a struct f2fs_dev whose set is not
 * NULL, each splitting its range at the members' boundaries and passing
 * the pieces to disk.c (a member is one file or device, never a set). */
void devset_free(struct f2fs_devset *set);
int devset_pread(struct f2fs_devset *set, uint64_t offset, void *buf, size_t len,
		 struct f2fs_error *err);
int devset_write(struct f2fs_devset *set, uint64_t blkaddr, const void *buf,
		 size_t nblocks, struct f2fs_error *err);
int devset_zero(struct f2fs_devset *set, uint64_t blkaddr, uint64_t nblocks,
		enum f2fs_zero_how *how, struct f2fs_error *err);
int devset_flush(struct f2fs_devset *set, struct f2fs_error *err);
int devset_discard_all(struct f2fs_devset *set, struct f2fs_error *err);
uint64_t devset_bytes_written(const struct f2fs_devset *set);
void devset_fail_torn(struct f2fs_devset *set, int64_t nblocks, uint32_t bytes);
void devset_fail_read(struct f2fs_devset *set, uint64_t blkaddr, uint64_t count);

#endif
