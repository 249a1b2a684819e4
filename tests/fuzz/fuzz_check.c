/*
 * libFuzzer target over f2fs_check() in FULL mode.
 *
 * The input is not an image but a "patch list" applied to a small valid seed
 * image, so that mutations land in real metadata and the checker gets deep:
 *
 *   repeat { u16 sel; u16 off; u8 len; u8 bytes[len & 63] }   (little endian)
 *
 * sel picks the block: sel % (n + 16) < n names the n-th non-zero block of
 * the seed (superblocks, checkpoint, NAT, SIT, SSA, nodes, dentries...), the
 * rest names an arbitrary block (sel * 2654435761 % image blocks). The bytes
 * are written at off % 4096 (clipped to the block). A trailing partial record
 * is ignored.
 *
 * The seed is built once at start-up with the library's f2fs_mkfs() from a
 * small tree (files, a multi-block directory, a symlink, a large file with
 * node blocks) in a /dev/shm temporary directory, with a fixed time and
 * UUID; F2FS_FUZZ_SEED_IMG names an
 * existing image to use instead. Only its non-zero blocks are kept. Each run
 * writes the patched blocks into a memfd holding the seed, checks
 * /proc/self/fd/N, then repairs it (fsck -y) and checks it again: a repair
 * that says it fixed everything must leave an image that checks clean
 * (else abort: a finding). Then the memfd is made the seed again (the
 * repair writes blocks the patch did not touch). F2FS_FUZZ_REPAIR=0 checks
 * only.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checker.h"
#include <f2fs/util/error.h>
#include <f2fs/format/feature.h>
#include <f2fs/build/mkfs.h>

#define BLK 4096u
#define MAX_TOUCHED 256

static int img_fd = -1;
static char img_path[64];
static uint64_t nblocks;
static uint32_t *nz;          /* block numbers of the non-zero seed blocks */
static uint8_t *nzdata;       /* their contents */
static size_t nnz;

static void die(const char *what)
{
	fprintf(stderr, "fuzz_check: %s: %s\n", what, strerror(errno));
	abort();
}

static void put_file(const char *dir, const char *name, size_t size, char fill)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	if (!f)
		die(p);
	for (size_t i = 0; i < size; i++)
		fputc(fill + (char)(i % 7), f);
	fclose(f);
}

/* A small varied tree under dir. */
static void make_tree(const char *dir)
{
	char p[512], q[512];

	put_file(dir, "small.txt", 6, 'a');
	put_file(dir, "empty", 0, 'a');
	put_file(dir, "four_k", 5000, 'b');
	put_file(dir, "big", 4200 * 1024, 'c');  /* needs direct + indirect nodes */
	snprintf(p, sizeof(p), "%s/sub", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/sub/deeper", dir);
	mkdir(p, 0755);
	put_file(p, "leaf", 100, 'd');
	snprintf(p, sizeof(p), "%s/many", dir);
	mkdir(p, 0755);
	for (int i = 0; i < 120; i++) {
		char n[64];
		snprintf(n, sizeof(n), "a_rather_long_entry_name_number_%d", i);
		put_file(p, n, (size_t)(i % 3), 'e');
	}
	snprintf(p, sizeof(p), "%s/link", dir);
	if (symlink("small.txt", p))
		die("symlink");
	snprintf(p, sizeof(p), "%s/small.txt", dir);
	snprintf(q, sizeof(q), "%s/sub/hard", dir);
	if (link(p, q))
		die("link");
}

static void rm_tree(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd)) { /* best effort */ }
}

static int build_seed(char *img, size_t len)
{
	char tmpl[] = "/dev/shm/f2fs-fuzz-seed.XXXXXX";
	char tree[600];
	struct f2fs_mkfs_options o;
	struct f2fs_mkfs_report rep;
	struct f2fs_error err = { 0 };

	if (!mkdtemp(tmpl)) {
		strcpy(tmpl, "/tmp/f2fs-fuzz-seed.XXXXXX");
		if (!mkdtemp(tmpl))
			die("mkdtemp");
	}
	snprintf(tree, sizeof(tree), "%s/tree", tmpl);
	mkdir(tree, 0755);
	make_tree(tree);
	snprintf(img, len, "%s/img", tmpl);
	int fd = open(img, O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, 64ull << 20))
		die(img);
	close(fd);
	f2fs_mkfs_defaults(&o);
	o.devices[0] = img;
	o.ndevs = 1;
	o.discard = false;
	o.force = true;
	o.rootdir = tree;
	if (f2fs_feature_parse("extra_attr,inode_checksum,sb_checksum,"
			       "flexible_inline_xattr,lost_found,quota",
			       &o.features, &err)) {
		fprintf(stderr, "fuzz_check: %s\n", err.msg);
		abort();
	}
	o.timestamp = 1700000000;
	o.timestamp_set = true;
	/* a fixed UUID: the checksums' seed, so that a run is repeatable */
	for (int k = 0; k < 16; k++)
		o.uuid[k] = (uint8_t)(0x10 + k);
	o.uuid_set = true;
	memset(&rep, 0, sizeof(rep));
	int ret = f2fs_mkfs(&o, &rep, &err);
	if (ret) {
		fprintf(stderr, "fuzz_check: f2fs_mkfs failed: %d\n", ret);
		abort();
	}
	rm_tree(tree);
	return 0;
}

static void load_seed(const char *img)
{
	int fd = open(img, O_RDONLY);
	struct stat st;
	uint8_t buf[BLK];
	static const uint8_t zero[BLK];
	size_t cap = 0;

	if (fd < 0 || fstat(fd, &st))
		die(img);
	nblocks = (uint64_t)st.st_size / BLK;
	for (uint64_t b = 0; b < nblocks; b++) {
		if (pread(fd, buf, BLK, (off_t)(b * BLK)) != (ssize_t)BLK)
			die("pread");
		if (!memcmp(buf, zero, BLK))
			continue;
		if (nnz == cap) {
			cap = cap ? cap * 2 : 256;
			nz = realloc(nz, cap * sizeof(*nz));
			nzdata = realloc(nzdata, cap * BLK);
			if (!nz || !nzdata)
				die("realloc");
		}
		nz[nnz] = (uint32_t)b;
		memcpy(nzdata + nnz * BLK, buf, BLK);
		nnz++;
	}
	close(fd);

	img_fd = memfd_create("f2fs-fuzz", 0);
	if (img_fd < 0)
		die("memfd_create");
	if (ftruncate(img_fd, (off_t)(nblocks * BLK)))
		die("ftruncate");
	for (size_t i = 0; i < nnz; i++)
		if (pwrite(img_fd, nzdata + i * BLK, BLK, (off_t)nz[i] * BLK) != (ssize_t)BLK)
			die("pwrite");
	snprintf(img_path, sizeof(img_path), "/proc/self/fd/%d", img_fd);
}

static void init(void)
{
	const char *seed = getenv("F2FS_FUZZ_SEED_IMG");
	char img[700];

	if (seed && *seed) {
		load_seed(seed);
		return;
	}
	build_seed(img, sizeof(img));
	load_seed(img);
	unlink(img);
	*strrchr(img, '/') = 0;
	rmdir(img);
	fprintf(stderr, "fuzz_check: seed image %llu blocks, %zu non-zero\n",
		(unsigned long long)nblocks, nnz);
}

static const uint8_t *seed_block(uint64_t b)
{
	static const uint8_t zero[BLK];
	size_t lo = 0, hi = nnz;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (nz[mid] < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nnz && nz[lo] == b ? nzdata + lo * BLK : zero;
}

static int repair_too(void)
{
	const char *v = getenv("F2FS_FUZZ_REPAIR");

	return !v || strcmp(v, "0") != 0;
}

/* The repair, and the check of what it left: everything it says it fixed
 * must be gone. */
static void repair_and_recheck(void)
{
	struct f2fs_check_options opt = { .mode = F2FS_CHECK_FULL, .fix = F2FS_ANSWER_YES };
	struct f2fs_check_report *rep = NULL, *again = NULL;
	struct f2fs_error err = { 0 };
	int whole;

	if (f2fs_check(img_path, &opt, &rep, &err) != 0)
		return;
	whole = rep->repair.committed && rep->repair.unfixed == 0;
	f2fs_check_report_free(rep);
	opt.fix = F2FS_ANSWER_NO;
	if (f2fs_check(img_path, &opt, &again, &err) != 0) {
		if (whole) {
			fprintf(stderr, "fuzz_check: the repaired image cannot be checked: %s\n", err.msg);
			abort();
		}
		return;
	}
	if (whole && (again->errors || again->warnings)) {
		fprintf(stderr, "fuzz_check: a repair that fixed everything left %llu error(s), %llu warning(s), the first %s\n",
			(unsigned long long)again->errors, (unsigned long long)again->warnings,
			again->nproblems ? f2fs_problem_info(again->problems[0].code)->name : "?");
		abort();
	}
	f2fs_check_report_free(again);
}

/* The memfd holds the seed again: zero, then its non-zero blocks. */
static void restore_seed(void)
{
	if (ftruncate(img_fd, 0) != 0 || ftruncate(img_fd, (off_t)(nblocks * BLK)) != 0)
		die("ftruncate");
	for (size_t i = 0; i < nnz; i++)
		if (pwrite(img_fd, nzdata + i * BLK, BLK, (off_t)((uint64_t)nz[i] * BLK)) != (ssize_t)BLK)
			die("pwrite");
}

/* F2FS_FUZZ_DUMP_IMG=PATH: the patched image is also written to PATH, so
 * that a finding can be replayed with the tools (run-fuzz.sh --replay). */
static void dump_image(void)
{
	const char *path = getenv("F2FS_FUZZ_DUMP_IMG");
	uint8_t buf[BLK];

	if (!path || !*path)
		return;
	int out = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (out < 0 || ftruncate(out, (off_t)(nblocks * BLK)))
		die(path);
	for (uint64_t b = 0; b < nblocks; b++) {
		if (pread(img_fd, buf, BLK, (off_t)(b * BLK)) != (ssize_t)BLK)
			die("pread");
		if (pwrite(out, buf, BLK, (off_t)(b * BLK)) != (ssize_t)BLK)
			die(path);
	}
	close(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int inited;
	uint64_t touched[MAX_TOUCHED];
	size_t ntouched = 0;
	uint8_t blk[BLK];

	if (!inited) {
		init();
		inited = 1;
	}
	while (size >= 5 && ntouched < MAX_TOUCHED) {
		uint16_t sel = (uint16_t)(data[0] | data[1] << 8);
		uint16_t off = (uint16_t)((data[2] | data[3] << 8) % BLK);
		size_t len = data[4] & 63;
		data += 5;
		size -= 5;
		if (len > size)
			len = size;
		if (len > BLK - off)
			len = BLK - off;
		uint64_t pick = sel % (nnz + 16);
		uint64_t b = pick < nnz ? nz[pick] : (sel * 2654435761ull) % nblocks;
		if (pread(img_fd, blk, BLK, (off_t)(b * BLK)) != (ssize_t)BLK)
			die("pread");
		memcpy(blk + off, data, len);
		if (pwrite(img_fd, blk, BLK, (off_t)(b * BLK)) != (ssize_t)BLK)
			die("pwrite");
		touched[ntouched++] = b;
		data += len;
		size -= len;
	}

	dump_image();

	struct f2fs_check_options opt = { .mode = F2FS_CHECK_FULL };
	struct f2fs_check_report *rep = NULL;
	struct f2fs_error err = { 0 };
	if (f2fs_check(img_path, &opt, &rep, &err) == 0)
		f2fs_check_report_free(rep);
	if (repair_too()) {
		repair_and_recheck();
		restore_seed();
		return 0;
	}

	for (size_t i = 0; i < ntouched; i++)
		if (pwrite(img_fd, seed_block(touched[i]), BLK,
			   (off_t)(touched[i] * BLK)) != (ssize_t)BLK)
			die("pwrite");
	return 0;
}
