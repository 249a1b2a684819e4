/*
 * f2fs-shutdown PATH: stop the F2FS holding PATH as a power cut would
 * (F2FS_IOC_SHUTDOWN, going down without sync or checkpoint): what was
 * written since the last checkpoint stays on the device, uncounted. A
 * guest helper of tests/kernel/zoned-nullb.sh (built static); the ioctl
 * number is the kernel's uapi one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define F2FS_IOC_SHUTDOWN _IOR('X', 125, uint32_t)   /* FS_IOC_GOINGDOWN */
#define GOING_DOWN_NOSYNC 2u

int main(int argc, char **argv)
{
	uint32_t how = GOING_DOWN_NOSYNC;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: f2fs-shutdown PATH\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || ioctl(fd, F2FS_IOC_SHUTDOWN, &how) != 0) {
		fprintf(stderr, "f2fs-shutdown: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}
