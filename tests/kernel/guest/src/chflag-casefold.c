/*
 * chflag-casefold: make an empty directory case-insensitive, or tell
 * whether one is. The guest's busybox has no chattr.
 *
 *   chflag-casefold DIR      set FS_CASEFOLD_FL (chattr +F)
 *   chflag-casefold -q DIR   print "casefold" or "plain"
 */
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int query = argc == 3 && !strcmp(argv[1], "-q");
	const char *dir = argv[argc - 1];
	int fd, flags = 0;

	if (argc != 2 && !query) {
		fprintf(stderr, "usage: chflag-casefold [-q] DIR\n");
		return 2;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) {
		perror(dir);
		return 1;
	}
	if (query) {
		puts(flags & FS_CASEFOLD_FL ? "casefold" : "plain");
		return 0;
	}
	flags |= FS_CASEFOLD_FL;
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags) != 0) {
		perror(dir);
		return 1;
	}
	close(fd);
	return 0;
}
