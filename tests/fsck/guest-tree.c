/*
 * fsck-tree CMD ARGS...: what the kernel tests of repaired trees need and a
 * busybox shell lacks. Built static on the host, shipped with kvm-run
 * --file.
 *
 *   setx PATH NAME VALUE   set xattr NAME of PATH (not following a symlink)
 *   list DIR               one line per object under DIR, by path: type,
 *                          permissions, owner, and for a file its link count,
 *                          size and a hash of its content (FNV-1a 64), for a
 *                          symlink its target, then every xattr (name=value,
 *                          the value's hash when long), names sorted. The
 *                          inode number comes first, for the caller to map
 *                          objects that moved. Directories show no size or
 *                          link count: a repair that relinks changes both.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "fsck-tree: %s %s: %s\n", what, path, strerror(errno));
	return 1;
}

static int content_hash(const char *path, uint64_t *h)
{
	unsigned char buf[65536];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return fail("open", path);
	*h = 0xcbf29ce484222325ull;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		*h = fnv(*h, buf, (size_t)n);
	close(fd);
	return n < 0 ? fail("read", path) : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int print_xattrs(const char *path)
{
	static char names[65536];
	static unsigned char val[65536];
	char *v[256];
	ssize_t len = llistxattr(path, names, sizeof(names));
	int n = 0;

	if (len < 0)
		return errno == ENOTSUP ? 0 : fail("llistxattr", path);
	for (char *p = names; p < names + len && n < 256; p += strlen(p) + 1)
		v[n++] = p;
	qsort(v, (size_t)n, sizeof(v[0]), cmp_str);
	for (int i = 0; i < n; i++) {
		ssize_t vl = lgetxattr(path, v[i], val, sizeof(val));

		if (vl < 0)
			return fail("lgetxattr", path);
		if (vl <= 32 && memchr(val, 0, (size_t)vl) == NULL)
			printf(" %s=%.*s", v[i], (int)vl, (const char *)val);
		else
			printf(" %s=#%016llx/%zd", v[i],
			       (unsigned long long)fnv(0xcbf29ce484222325ull, val, (size_t)vl), vl);
	}
	return 0;
}

static int list(const char *path, const char *rel)
{
	struct stat st;
	int ret;

	if (lstat(path, &st))
		return fail("lstat", path);
	printf("%llu %s %c %04o %u:%u", (unsigned long long)st.st_ino, rel,
	       S_ISDIR(st.st_mode) ? 'd' : S_ISLNK(st.st_mode) ? 'l' : S_ISREG(st.st_mode) ? 'f' : 'o',
	       (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid, (unsigned)st.st_gid);
	if (S_ISREG(st.st_mode)) {
		uint64_t h;

		if (content_hash(path, &h))
			return 1;
		printf(" n%lu s%lld #%016llx", (unsigned long)st.st_nlink, (long long)st.st_size,
		       (unsigned long long)h);
	} else if (S_ISLNK(st.st_mode)) {
		char t[4096];
		ssize_t n = readlink(path, t, sizeof(t) - 1);

		if (n < 0)
			return fail("readlink", path);
		printf(" -> %.*s", (int)n, t);
	}
	ret = print_xattrs(path);
	printf("\n");
	if (ret || !S_ISDIR(st.st_mode))
		return ret;

	DIR *d = opendir(path);
	struct dirent *e;

	if (!d)
		return fail("opendir", path);
	while ((e = readdir(d)) != NULL) {
		char sub[4096], srel[4096];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		snprintf(srel, sizeof(srel), "%s/%s", rel, e->d_name);
		if (list(sub, srel)) {
			closedir(d);
			return 1;
		}
	}
	closedir(d);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "setx")) {
		if (lsetxattr(argv[2], argv[3], argv[4], strlen(argv[4]), 0))
			return fail("lsetxattr", argv[2]);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "list"))
		return list(argv[2], ".");
	fprintf(stderr, "usage: fsck-tree setx PATH NAME VALUE | list DIR\n");
	return 2;
}
