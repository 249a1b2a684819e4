/*
 * guest-fsyncs: the workload of bench/rollforward-bench.sh, run in the
 * kvm-run guest (built static). In DIR: N new files of one block each, and
 * every tenth step an append of a block to one of sixteen files made
 * beforehand, each followed by fsync(). Prints "fsyncs: K" every 1000 and
 * "done N" at the end: the job then cuts the power, so that the image's
 * roll-forward chain holds about N fsync'd nodes.
 *
 *   guest-fsyncs DIR N
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int put(int fd, const char *tag, long i)
{
	char blk[4096];

	memset(blk, ' ', sizeof(blk));
	snprintf(blk, sizeof(blk), "%s %ld", tag, i);
	blk[sizeof(blk) - 1] = '\n';
	return write(fd, blk, sizeof(blk)) == (ssize_t)sizeof(blk) && fsync(fd) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	char path[4096];
	long n;
	int app[16];

	if (argc != 3 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: guest-fsyncs DIR N\n");
		return 2;
	}
	for (int k = 0; k < 16; k++) {
		snprintf(path, sizeof(path), "%s/app%d", argv[1], k);
		app[k] = open(path, O_WRONLY | O_APPEND);
		if (app[k] < 0) {
			perror(path);
			return 1;
		}
	}
	for (long i = 0; i < n; i++) {
		int fd, ret;

		if (i % 10 == 9) {
			ret = put(app[i % 16], "append", i);
		} else {
			snprintf(path, sizeof(path), "%s/new/file-with-a-longer-name-%ld", argv[1], i);
			fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			ret = fd < 0 ? -1 : put(fd, path, i);
			if (fd >= 0)
				close(fd);
		}
		if (ret) {
			perror("guest-fsyncs");
			return 1;
		}
		if ((i + 1) % 1000 == 0)
			printf("fsyncs: %ld\n", i + 1);
	}
	printf("done %ld\n", n);
	fflush(stdout);
	return 0;
}
