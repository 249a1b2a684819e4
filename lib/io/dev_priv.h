/*
 * Internals of struct f2fs_dev, shared by lib/io/dev.c (one file or block
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

/* lib/io/devset.c: the operations of a struct f2fs_dev whose set is not
 * NULL, each splitting its range at the members' boundaries. */
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
