/*
 * node-scan: times the footer scan of fsck's NAT rebuild (the scan rescue
 * reuses), f2fs_node_find_by_footer over every node segment the SIT marks,
 * against reading the same byte ranges without looking at them.
 *
 *   node-scan IMAGE scan     the library's scan, nothing wanted
 *   node-scan IMAGE plain    pread of the same runs, 2 MiB at a time
 *   node-scan IMAGE span     the first and last block of those segments
 *                            (for dd)
 *
 * Prints seconds, bytes and MB/s. Built by bench/scan-bench.sh against
 * the build's libf2fs.a.
 */
#define _GNU_SOURCE
#include <f2fs/format/endian.h>
#include <f2fs/format/format.h>
#include <f2fs/fs/fs.h>
#include <f2fs/fs/node_find.h>
#include <f2fs/fs/sit.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct scan {
	struct f2fs_sit *sit;
	uint64_t segs;
};

static bool node_seg(const struct f2fs_sit *sit, uint32_t s)
{
	return sit->seg[s].valid && sit->seg[s].type >= F2FS_SEG_HOT_NODE &&
	       sit->seg[s].type <= F2FS_SEG_COLD_NODE;
}

static const uint8_t *seg_map(void *arg, uint32_t s)
{
	struct scan *c = arg;

	if (!node_seg(c->sit, s))
		return NULL;
	c->segs++;
	return c->sit->maps + (size_t)s * F2FS_SIT_VBLOCK_MAP_SIZE;
}

static bool want_none(void *arg, uint32_t nid)
{
	(void)arg;
	(void)nid;
	return false;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* First valid block of segment s: the scan reads from there to its end. */
static uint32_t first_valid(const struct f2fs_sit *sit, uint32_t s)
{
	const uint8_t *m = sit->maps + (size_t)s * F2FS_SIT_VBLOCK_MAP_SIZE;

	for (uint32_t b = 0; b < F2FS_BLOCKS_PER_SEG; b++)
		if (m[b / 8] & (0x80 >> (b % 8)))
			return b;
	return F2FS_BLOCKS_PER_SEG;
}

static int plain(const char *path, const struct f2fs_sit *sit, uint32_t main_blk,
		 uint64_t *bytes)
{
	int fd = open(path, O_RDONLY);
	char *buf = malloc(2u << 20);

	if (fd < 0 || !buf)
		return -1;
	for (uint32_t s = 0; s < sit->nsegs; s++) {
		uint32_t b = first_valid(sit, s);
		size_t len = (size_t)(F2FS_BLOCKS_PER_SEG - b) * F2FS_BLKSIZE;

		if (!node_seg(sit, s) || b == F2FS_BLOCKS_PER_SEG)
			continue;
		if (pread(fd, buf, len, ((off_t)main_blk + (off_t)s * F2FS_BLOCKS_PER_SEG + b) *
					  F2FS_BLKSIZE) != (ssize_t)len)
			return -1;
		*bytes += len;
	}
	free(buf);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct f2fs_error err = { 0 };
	struct f2fs_fs *fs;
	struct scan c = { 0 };
	struct f2fs_node_find q = { seg_map, want_none, NULL, NULL, &c };
	uint32_t main_blk;
	uint64_t bytes = 0;
	double t;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: node-scan IMAGE scan|plain|span\n");
		return 2;
	}
	if (f2fs_fs_open(&fs, argv[1], &err) || f2fs_sit_load(fs, F2FS_SIT_WANT_MAPS, &c.sit, &err)) {
		fprintf(stderr, "node-scan: %s\n", err.msg);
		return 1;
	}
	main_blk = le32_get(f2fs_fs_sb(fs)->main_blkaddr);
	if (!strcmp(argv[2], "span")) {
		uint32_t lo = UINT32_MAX, hi = 0;

		for (uint32_t s = 0; s < c.sit->nsegs; s++)
			if (node_seg(c.sit, s)) {
				lo = lo < s ? lo : s;
				hi = s;
			}
		printf("%u %u\n", main_blk + lo * F2FS_BLOCKS_PER_SEG,
		       main_blk + (hi + 1) * F2FS_BLOCKS_PER_SEG);
		return 0;
	}
	t = now();
	if (!strcmp(argv[2], "scan")) {
		ret = f2fs_node_find_by_footer(fs, &q, &err);
		for (uint32_t s = 0; s < c.sit->nsegs; s++)
			if (node_seg(c.sit, s) && first_valid(c.sit, s) < F2FS_BLOCKS_PER_SEG)
				bytes += (uint64_t)(F2FS_BLOCKS_PER_SEG - first_valid(c.sit, s)) *
					 F2FS_BLKSIZE;
	} else {
		ret = plain(argv[1], c.sit, main_blk, &bytes);
	}
	t = now() - t;
	if (ret) {
		fprintf(stderr, "node-scan: %s\n", ret < 0 && !err.msg[0] ? "read failed" : err.msg);
		return 1;
	}
	printf("%s: %.3f s, %llu bytes, %.1f MB/s, %llu node segments\n", argv[2], t,
	       (unsigned long long)bytes, bytes / t / 1e6, (unsigned long long)c.segs);
	f2fs_sit_free(c.sit);
	f2fs_fs_close(fs);
	return 0;
}
