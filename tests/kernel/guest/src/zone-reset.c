/*
 * zone-reset DEV SECTOR: rewind the write pointer of the zone of DEV that
 * starts at SECTOR (512-byte units), as blkzone reset does; busybox has no
 * blkzone. A guest helper of tests/kernel/zoned-nullb.sh (built static).
 */
#include <fcntl.h>
#include <linux/blkzoned.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct blk_zone_report *rep;
	struct blk_zone_range range;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: zone-reset DEV SECTOR\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "zone-reset: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	rep = calloc(1, sizeof(*rep) + sizeof(struct blk_zone));
	if (!rep)
		return 1;
	rep->sector = strtoull(argv[2], NULL, 0);
	rep->nr_zones = 1;
	if (ioctl(fd, BLKREPORTZONE, rep) != 0 || rep->nr_zones != 1 ||
	    rep->zones[0].start != rep->sector) {
		fprintf(stderr, "zone-reset: no zone starts at sector %s\n", argv[2]);
		return 1;
	}
	range.sector = rep->zones[0].start;
	range.nr_sectors = rep->zones[0].len;
	if (ioctl(fd, BLKRESETZONE, &range) != 0) {
		fprintf(stderr, "zone-reset: BLKRESETZONE: %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}
