/*
 * fsck-fsops CMD ARGS...: file operations for the kernel tests that a
 * busybox shell cannot do, or cannot do fast enough under TCG (a fork
 * costs 5-20 ms there). Built static on the host, shipped with kvm-run
 * --file. Every command is deterministic and prints one line; any failure
 * but the ENOSPC that "fill" waits for exits 1.
 *
 *   fill DIR KB          files DIR/f0, f1, ... of KB KiB each until ENOSPC
 *   thin DIR             unlink every other file of fill (f0, f2, ...), so
 *                        that most segments are left half valid
 *   many DIR N           N one-block files in DIR, then rename every third
 *   falloc FILE MB       fallocate MB MiB (blocks reserved, NEW_ADDR)
 *   mixed DIR N SEED     N files of 4 KiB..2 MiB, some compressible, some
 *                        not; overwrite ranges, truncate, unlink some
 *   release FILE         F2FS_IOC_RELEASE_COMPRESS_BLOCKS
 *   reserve FILE         F2FS_IOC_RESERVE_COMPRESS_BLOCKS
 *   gc PATH N            F2FS_IOC_GARBAGE_COLLECT (foreground, synchronous)
 *                        up to N times on the filesystem of PATH; stops
 *                        early when the kernel finds no victim
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* from the kernel's uapi linux/f2fs.h, which older hosts lack */
#define F2FS_IOCTL_MAGIC 0xf5
#define RELEASE_COMPRESS_BLOCKS _IOR(F2FS_IOCTL_MAGIC, 18, uint64_t)
#define RESERVE_COMPRESS_BLOCKS _IOR(F2FS_IOCTL_MAGIC, 19, uint64_t)
#define GARBAGE_COLLECT _IOW(F2FS_IOCTL_MAGIC, 6, uint32_t)

static uint32_t rng;

static uint32_t next(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "fsck-fsops: %s %s: %s\n", what, path, strerror(errno));
	return 1;
}

/* kind 0: text that compresses well; 1: noise that does not */
static void fill_buf(char *b, size_t n, int kind, uint32_t tag)
{
	for (size_t i = 0; i < n; i++)
		b[i] = kind ? (char)next() : (char)('a' + (tag + i / 64) % 26);
}

static int write_all(int fd, const char *b, size_t n, off_t at)
{
	while (n) {
		ssize_t w = pwrite(fd, b, n, at);

		if (w <= 0)
			return -1;
		b += w, n -= (size_t)w, at += w;
	}
	return 0;
}

static int cmd_fill(const char *dir, long kb)
{
	static char buf[1 << 20];
	char path[4096];
	size_t n = (size_t)kb * 1024;
	long i;

	if (n > sizeof(buf))
		n = sizeof(buf);
	fill_buf(buf, n, 0, 7);
	for (i = 0;; i++) {
		int fd, ret;

		snprintf(path, sizeof(path), "%s/f%ld", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			if (errno == ENOSPC)
				break;
			return fail("create", path);
		}
		buf[0] = (char)i;
		ret = write_all(fd, buf, n, 0);
		if (ret && errno != ENOSPC)
			return fail("write", path);
		close(fd);
		if (ret) {
			unlink(path);
			break;
		}
	}
	printf("fill: %ld files\n", i);
	return 0;
}

static int cmd_thin(const char *dir)
{
	char path[4096];
	long i, gone = 0;

	for (i = 0;; i += 2) {
		snprintf(path, sizeof(path), "%s/f%ld", dir, i);
		if (unlink(path)) {
			if (errno == ENOENT)
				break;
			return fail("unlink", path);
		}
		gone++;
	}
	printf("thin: %ld files removed\n", gone);
	return 0;
}

static int cmd_many(const char *dir, long n)
{
	char path[4096], to[4096], buf[4096];

	fill_buf(buf, sizeof(buf), 0, 3);
	for (long i = 0; i < n; i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/entry_with_a_longer_name_%06ld", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			return fail("create", path);
		if (write_all(fd, buf, 1 + (size_t)(i % 4000), 0))
			return fail("write", path);
		close(fd);
	}
	for (long i = 0; i < n; i += 3) {
		snprintf(path, sizeof(path), "%s/entry_with_a_longer_name_%06ld", dir, i);
		snprintf(to, sizeof(to), "%s/renamed_%06ld", dir, i);
		if (rename(path, to))
			return fail("rename", path);
	}
	printf("many: %ld files\n", n);
	return 0;
}

static int cmd_falloc(const char *file, long mb)
{
	int fd = open(file, O_WRONLY | O_CREAT, 0644);

	if (fd < 0)
		return fail("create", file);
	if (fallocate(fd, 0, 0, (off_t)mb << 20))
		return fail("fallocate", file);
	close(fd);
	printf("falloc: %s %ld MiB\n", file, mb);
	return 0;
}

static int cmd_mixed(const char *dir, long n, long seed)
{
	static char buf[2 << 20];
	char path[4096];

	rng = (uint32_t)seed;
	for (long i = 0; i < n; i++) {
		size_t size = (size_t)4096 << (next() % 10);
		int kind = next() % 4 == 0, fd;

		size += next() % 4096;
		if (size > sizeof(buf))
			size = sizeof(buf);
		snprintf(path, sizeof(path), "%s/m%ld", dir, i);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			return fail("create", path);
		fill_buf(buf, size, kind, (uint32_t)i);
		if (write_all(fd, buf, size, 0))
			return fail("write", path);
		if (i % 3 == 1) {       /* overwrite a range, compressible or not */
			size_t at = next() % size, len = 1 + next() % (64 * 1024);

			if (at + len > size)
				len = size - at;
			fill_buf(buf, len, (int)(next() % 2), 99);
			if (write_all(fd, buf, len, (off_t)at))
				return fail("overwrite", path);
		}
		if (i % 7 == 2 && ftruncate(fd, (off_t)(size / 3)))
			return fail("truncate", path);
		if (i % 5 == 0)
			fsync(fd);
		close(fd);
		if (i % 11 == 4 && unlink(path))
			return fail("unlink", path);
	}
	printf("mixed: %ld files\n", n);
	return 0;
}

static int cmd_blocks(const char *file, unsigned long req, const char *what)
{
	uint64_t blocks = 0;
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		return fail("open", file);
	if (ioctl(fd, req, &blocks))
		return fail(what, file);
	close(fd);
	printf("%s: %s %llu blocks\n", what, file, (unsigned long long)blocks);
	return 0;
}

/* each call frees at most a section; EAGAIN/ENODATA: nothing left to move */
static int cmd_gc(const char *path, long n)
{
	uint32_t sync_gc = 1;
	long done = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return fail("open", path);
	while (done < n) {
		if (ioctl(fd, GARBAGE_COLLECT, &sync_gc) == 0) {
			done++;
			continue;
		}
		if (errno == EAGAIN || errno == ENODATA || errno == EBUSY)
			break;
		return fail("garbage collect", path);
	}
	close(fd);
	printf("gc: %ld of %ld passes%s%s\n", done, n, done < n ? ", then " : "",
	       done < n ? strerror(errno) : "");
	return 0;
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";

	if (!strcmp(c, "fill") && argc == 4)
		return cmd_fill(argv[2], atol(argv[3]));
	if (!strcmp(c, "thin") && argc == 3)
		return cmd_thin(argv[2]);
	if (!strcmp(c, "many") && argc == 4)
		return cmd_many(argv[2], atol(argv[3]));
	if (!strcmp(c, "falloc") && argc == 4)
		return cmd_falloc(argv[2], atol(argv[3]));
	if (!strcmp(c, "mixed") && argc == 5)
		return cmd_mixed(argv[2], atol(argv[3]), atol(argv[4]));
	if (!strcmp(c, "release") && argc == 3)
		return cmd_blocks(argv[2], RELEASE_COMPRESS_BLOCKS, "release");
	if (!strcmp(c, "reserve") && argc == 3)
		return cmd_blocks(argv[2], RESERVE_COMPRESS_BLOCKS, "reserve");
	if (!strcmp(c, "gc") && argc == 4)
		return cmd_gc(argv[2], atol(argv[3]));
	fprintf(stderr, "usage: fsck-fsops fill|thin|many|falloc|mixed|release|reserve|gc ...\n");
	return 2;
}
