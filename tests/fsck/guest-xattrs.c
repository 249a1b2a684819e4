/*
 * fsck-xattrs DIR [PROJ]: run inside the test guest (built static, shipped
 * with kvm-run --file) so that the real kernel writes extended attributes,
 * owners and project ids for fsck.f2fs to check. Deterministic: 24 files
 * and a directory under DIR get user.* values from 1 to ~3 KB (the large
 * ones spill from the inline area into an xattr node), trusted.* and
 * security.* ones, some removed again (the kernel then compacts the list);
 * owners 2000/2001 and, with PROJ=1, project ids 100..102 (needs the
 * project_quota feature). Prints one line; exits 1 on any failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define NFILES 24

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "fsck-xattrs: %s %s: %s\n", what, path, strerror(errno));
	return 1;
}

static int set(const char *path, const char *name, size_t len, int seed, int *count)
{
	char val[4096];

	for (size_t i = 0; i < len; i++)
		val[i] = (char)('a' + (seed + (int)i) % 26);
	if (setxattr(path, name, val, len, 0))
		return fail(name, path);
	(*count)++;
	return 0;
}

static int set_projid(const char *path, unsigned id)
{
	struct fsxattr fx;
	int fd = open(path, O_RDONLY);
	int ret = 0;

	if (fd < 0)
		return fail("open", path);
	if (ioctl(fd, FS_IOC_FSGETXATTR, &fx) == 0) {
		fx.fsx_projid = id;
		if (ioctl(fd, FS_IOC_FSSETXATTR, &fx))
			ret = fail("FS_IOC_FSSETXATTR", path);
	} else {
		ret = fail("FS_IOC_FSGETXATTR", path);
	}
	close(fd);
	return ret;
}

/* The attributes of file k (or of the directory, k = NFILES). */
static int one(const char *path, int k, int proj, int *count)
{
	char name[32];

	snprintf(name, sizeof(name), "user.k%d", k);
	if (set(path, name, (size_t)(k * 97 % 300 + 1), k, count) ||
	    set(path, "user.second", (size_t)(k % 5 + 1), k + 1, count))
		return 1;
	if (k % 4 == 0 && set(path, "user.big", (size_t)(2000 + k * 40), k, count))
		return 1;
	if (k % 5 == 0 && set(path, "trusted.t", 3, k, count))
		return 1;
	if (k % 7 == 0 && set(path, "security.s", 17, k, count))
		return 1;
	if (k % 3 == 0) {
		if (removexattr(path, "user.second"))
			return fail("removexattr", path);
		(*count)--;
	}
	if (lchown(path, (uid_t)(2000 + k % 2), (gid_t)(3000 + k % 3)))
		return fail("chown", path);
	if (proj && k < 9 && set_projid(path, (unsigned)(100 + k % 3)))
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	char path[4096];
	int proj = argc > 2 && atoi(argv[2]) == 1, count = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: fsck-xattrs DIR [PROJ]\n");
		return 2;
	}
	if (mkdir(argv[1], 0755) && errno != EEXIST)
		return fail("mkdir", argv[1]);
	for (int k = 0; k < NFILES; k++) {
		int fd;

		snprintf(path, sizeof(path), "%s/x%d", argv[1], k);
		fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (fd < 0 || write(fd, path, strlen(path)) < 0)
			return fail("create", path);
		close(fd);
		if (one(path, k, proj, &count))
			return 1;
	}
	snprintf(path, sizeof(path), "%s/xd", argv[1]);
	if (mkdir(path, 0755) || one(path, NFILES, proj, &count))
		return 1;
	printf("fsck-xattrs: %d xattrs on %d inodes\n", count, NFILES + 1);
	return 0;
}
