/*
 * dump-gc-kernel's guest helper: one F2FS_IOC_GARBAGE_COLLECT on the file
 * system holding PATH. "bg" passes sync = 0, which Linux 6.1's f2fs_ioc_gc()
 * turns into one f2fs_gc() pass of type BG_GC (one victim, the search window
 * capped by max_victim_search); "fg" passes sync = 1 (FG_GC, every dirty
 * section searched). The kernel's choice is then read from the
 * f2fs_get_victim trace event, so no sleeping GC thread is involved.
 *
 *   dump-gc-ioctl bg|fg PATH      exit 0, or 1 with the errno on stderr
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define F2FS_IOCTL_MAGIC 0xf5
#define F2FS_IOC_GARBAGE_COLLECT _IOW(F2FS_IOCTL_MAGIC, 6, uint32_t)

int main(int argc, char **argv)
{
	uint32_t sync;
	int fd, rc;

	if (argc != 3 || (strcmp(argv[1], "bg") && strcmp(argv[1], "fg"))) {
		fprintf(stderr, "usage: dump-gc-ioctl bg|fg PATH\n");
		return 2;
	}
	sync = strcmp(argv[1], "fg") == 0;
	fd = open(argv[2], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "dump-gc-ioctl: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	rc = ioctl(fd, F2FS_IOC_GARBAGE_COLLECT, &sync);
	if (rc < 0) {
		fprintf(stderr, "dump-gc-ioctl: GARBAGE_COLLECT: %s\n", strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}
