/*
 * xattr-fsync FILE NAME SIZE [chown UID:GID]: set the extended attribute
 * NAME of FILE to SIZE bytes (a pattern; SIZE 0 removes it), optionally
 * change its owner, then fsync FILE. Run in the kvm-run guest (built
 * static: busybox has no setfattr) by the roll-forward workload, so that
 * the chain carries inline xattrs, xattr nodes and owners.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char value[4096];
	size_t size;
	int fd;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: xattr-fsync FILE NAME SIZE [UID:GID]\n");
		return 2;
	}
	size = strtoul(argv[3], NULL, 10);
	if (size > sizeof(value))
		size = sizeof(value);
	for (size_t i = 0; i < size; i++)
		value[i] = (char)('a' + (i * 7 + size) % 26);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		goto fail;
	if (size ? fsetxattr(fd, argv[2], value, size, 0) : fremovexattr(fd, argv[2]))
		if (size || errno != ENODATA)
			goto fail;
	if (argc == 5) {
		unsigned uid, gid;

		if (sscanf(argv[4], "%u:%u", &uid, &gid) != 2 || fchown(fd, uid, gid))
			goto fail;
	}
	if (fsync(fd))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "xattr-fsync: %s: %s\n", argv[1], strerror(errno));
	return 1;
}
