/*
 * An interrupted repair leaves the old image or the repaired one, and a
 * rerun converges to the same image as an uninterrupted repair. For damaged
 * images of each kind (tests/fsck/cases: NAT, SIT, checkpoint counters and
 * logs, nat_bits, journals, SSA, superblock, quota files rewritten out of
 * place, directories and inodes edited, lost+found, a roll-forward chain
 * recovered) the repair is first run whole,
 * counting the blocks it writes (W). Then for every k < W it is run again on
 * a fresh copy with the device's write fault injection stopping it after k
 * blocks, once cleanly and once torn (the first 512 bytes of block k+1 get
 * through). After each interruption a read-only check may only find
 * problems the damaged image had (nothing new, nothing half-done), and a
 * rerun of the repair must leave the image byte for byte as the whole run
 * did, and clean. Some cases run again with a write queue of two blocks,
 * so that the repair's blocks reach the disk before its commit, as a large
 * repair's do.
 */
#include <check.h>

#include "checker.h"
#include <f2fs/io/dev.h>
#include <f2fs/fs/fs.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#ifndef CASES_DIR
#error "CASES_DIR must name tests/fsck/cases"
#endif

static char top[128];

struct fault {
	int64_t after;            /* blocks let through; -1: none */
	uint32_t torn;            /* bytes of the next block that still land */
};

/* The repair's write queue (0: its default); a short one makes it write
 * blocks before its commit. */
static unsigned queue;

static void arm(struct f2fs_fs *fs, void *arg)
{
	const struct fault *f = arg;

	if (f->after >= 0)
		f2fs_dev_fail_torn(f2fs_fs_dev(fs), f->after, f->torn);
}

static void unpack(const char *name, const char *out)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "bzip2 -dc '%s/%s/image.bz2' | cp --sparse=always /dev/stdin '%s'", CASES_DIR, name, out);
	ck_assert_msg(system(cmd) == 0, "cannot unpack %s", name);
}

static void copy(const char *from, const char *to)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "cp --sparse=always '%s' '%s'", from, to);
	ck_assert_int_eq(system(cmd), 0);
}

static int same_file(const char *a, const char *b)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", a, b);
	return system(cmd) == 0;
}

/* Run a check (fix: the answer) with a fault; the report, or NULL when it
 * stopped on an error (the injected one). */
static struct f2fs_check_report *run(const char *img, enum f2fs_fix_answer fix,
				     struct fault *f)
{
	struct f2fs_check_options o = { 0 };
	struct f2fs_check_report *r = NULL;
	struct f2fs_error err;

	o.mode = F2FS_CHECK_FULL;
	o.fix = fix;
	o.opened = arm;
	o.opened_arg = f;
	o.write_queue = queue;
	if (f2fs_check(img, &o, &r, &err))
		return NULL;
	return r;
}

static void one_case(const char *name)
{
	char old[200], whole[200], t[200];
	struct fault none = { -1, 0 };
	struct f2fs_check_report *r0, *rw, *r;
	uint64_t blocks;
	int tried = 0;

	snprintf(old, sizeof(old), "%s/old.img", top);
	snprintf(whole, sizeof(whole), "%s/whole.img", top);
	snprintf(t, sizeof(t), "%s/t.img", top);
	unpack(name, old);
	r0 = run(old, F2FS_ANSWER_NO, &none);
	ck_assert_ptr_nonnull(r0);
	ck_assert_msg(r0->errors + r0->warnings + r0->roll_forward_fsync > 0, "%s: the case is clean",
		      name);
	copy(old, whole);
	rw = run(whole, F2FS_ANSWER_YES, &none);
	ck_assert_ptr_nonnull(rw);
	ck_assert_msg(rw->repair.committed && !rw->repair.unfixed, "%s: not repaired whole", name);
	blocks = rw->repair.written.bytes / 4096;
	ck_assert_uint_gt(blocks, 0);
	f2fs_check_report_free(rw);
	r = run(whole, F2FS_ANSWER_NO, &none);
	ck_assert_msg(r && r->errors == 0 && r->warnings == 0 && !r->roll_forward_fsync,
		      "%s: not clean after repair", name);
	f2fs_check_report_free(r);

	for (uint64_t k = 0; k < blocks; k++) {
		for (int torn = 0; torn < 2; torn++) {
			struct fault f = { (int64_t)k, torn ? 512u : 0u };

			copy(old, t);
			r = run(t, F2FS_ANSWER_YES, &f);
			ck_assert_msg(r == NULL || !r->repair.committed || k + 1 >= blocks,
				      "%s: k=%llu: the repair went through", name, (unsigned long long)k);
			f2fs_check_report_free(r);
			/* nothing new: only problems the damaged image had, and
			 * the older pack's slot, which the new pack overwrites
			 * (so does the kernel at every checkpoint), and a
			 * superblock changed in one copy of two (written one
			 * after the other; the next run makes them one) */
			r = run(t, F2FS_ANSWER_NO, &none);
			ck_assert_msg(r != NULL, "%s: k=%llu torn=%d: the image cannot be checked",
				      name, (unsigned long long)k, torn);
			for (int c = 0; c < F2FS_PB_COUNT; c++)
				ck_assert_msg(!r->count[c] || r0->count[c] ||
					      c == F2FS_PB_CP_BACKUP_PACK_INVALID ||
					      c == F2FS_PB_SB_COPIES_DIFFER,
					      "%s: k=%llu torn=%d: new problem %s", name,
					      (unsigned long long)k, torn, f2fs_problem_info(c)->name);
			f2fs_check_report_free(r);
			r = run(t, F2FS_ANSWER_YES, &none);
			ck_assert_ptr_nonnull(r);
			f2fs_check_report_free(r);
			ck_assert_msg(same_file(t, whole), "%s: k=%llu torn=%d: the rerun differs",
				      name, (unsigned long long)k, torn);
			tried++;
		}
	}
	fprintf(stderr, "test_repair_crash: %s: %llu blocks written, %d interruptions\n", name,
		(unsigned long long)blocks, tried);
	f2fs_check_report_free(r0);
}

static const char *const cases[] = {
	"nat-reserved", "nat-journal", "nat-bits-full", "sit-vblocks-map", "sit-journal",
	"cp-free-segment-count", "cp-curseg-range", "cp-summary", "ssa-mismatch",
	"sb-primary-invalid", "sb-copies-differ", "orphan-not-inode", "quota-usage-mismatch",
	"quota-bad-tree", "quota-log-full", "nat-ino-claims-inode", "nat-ino-zero",
	"dir-wrong-bucket", "dir-duplicate-name", "inode-unreachable", "dir-multiple-parents",
	"dir-bad-hash-casefold-utf8", "dir-bad-name-casefold-strict",
	"inode-unreachable-new-lost-found", "orphan-freed", "dir-loop", "sb-quota-ino-left",
	"sb-checksum-offset", "root-bad", "orphan-dir-freed", "block-multiply-owned",
	"sb-errors-and-damage", "xattr-node-entry-bounds",
	/* power cuts the kernel wrote: the chain is recovered by the repair */
	"roll-forward-kernel", "roll-forward-kernel-unlink",
};

START_TEST(interrupted_repair)
{
	queue = 0;
	one_case(cases[_i]);
}
END_TEST

/* Repairs that write most of their blocks before the commit (a queue of 2
 * blocks): the cuts fall among those early writes too. */
static const char *const early_cases[] = {
	"roll-forward-kernel", "quota-log-full", "inode-unreachable-new-lost-found",
};

START_TEST(interrupted_early_writes)
{
	queue = 2;
	one_case(early_cases[_i]);
}
END_TEST

static void setup(void)
{
	const char *tmp = getenv("TMPDIR");

	/* every repair ends with an fsync of a 64 MiB copy: in memory it is free */
	if (access("/dev/shm", W_OK) == 0)
		tmp = "/dev/shm";
	snprintf(top, sizeof(top), "%s/f2fs-crash-XXXXXX", tmp && strlen(tmp) < 80 ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(top));
}

static void teardown(void)
{
	char cmd[200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", top);
}

int main(void)
{
	Suite *s = suite_create("repair_crash");
	TCase *tc = tcase_create("interrupted");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, interrupted_repair, 0, (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_loop_test(tc, interrupted_early_writes, 0,
			    (int)(sizeof(early_cases) / sizeof(early_cases[0])));
	suite_add_tcase(s, tc);
	return unit_run(s);
}
