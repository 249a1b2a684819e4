/*
 * A node block that cannot be read (a bad sector) is reported as
 * node.unreadable and the check goes on. An image is made by f2fs_mkfs from
 * a small tree; f2fs_check() opens it itself, and its "opened" hook puts a
 * read fault (f2fs_dev_fail_read) on one node block: an inode, a direct
 * node of a larger file, a directory inode, or (armed when the node sweep
 * has ended) an xattr node read again after the sweep. Each run must end
 * with a report (no operational error) that names the nid, its inode and
 * the block, and whose other problems are only those the lost block
 * explains; every other node of the read batch must still be checked. The
 * same image checks clean without a fault.
 */
#include <check.h>

#include "checker.h"
#include <f2fs/io/dev.h>
#include <f2fs/fs/dir.h>
#include <f2fs/format/endian.h>
#include <f2fs/util/error.h>
#include <f2fs/format/feature.h>
#include <f2fs/format/format.h>
#include <f2fs/fs/fs.h>
#include <f2fs/build/mkfs.h>
#include <f2fs/fs/nat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "unit.h"

#define BLK F2FS_BLKSIZE

static char top[128], tree[160], img[160];
static int have_xattr;            /* the host file system took user xattrs */

/* What the tests aim at, found through the library's own readers. */
static struct target {
	uint32_t nid, ino, addr;
} t_small, t_dnode, t_sub, t_xnode;
static uint32_t dnode_ndata;      /* data blocks the direct node maps */
static uint32_t small_blocks = 2;
static struct f2fs_check_stats clean;

static void fpath(char *out, size_t len, const char *rel)
{
	snprintf(out, len, "%s/%s", tree, rel);
}

static void write_file(const char *rel, uint32_t nblocks)
{
	char p[256];
	uint8_t buf[BLK];
	int fd;

	fpath(p, sizeof(p), rel);
	fd = open(p, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	ck_assert_int_ge(fd, 0);
	for (uint32_t b = 0; b < nblocks; b++) {
		/* no block is all zero, so that every one is stored */
		memset(buf, 0x5a, sizeof(buf));
		memcpy(buf, &b, sizeof(b));
		ck_assert_int_eq(write(fd, buf, BLK), BLK);
	}
	close(fd);
}

static uint32_t lookup(struct f2fs_fs *fs, const char *p)
{
	struct f2fs_error err;
	uint32_t ino;

	ck_assert_msg(f2fs_path_lookup(fs, p, &ino, &err) == 0, "%s: %s", p, err.msg);
	return ino;
}

static struct target node_target(struct f2fs_fs *fs, uint32_t nid)
{
	struct f2fs_nat_info ne;
	struct f2fs_error err;

	ck_assert_msg(f2fs_nat_lookup(fs, nid, &ne, NULL, &err) == 0, "%s", err.msg);
	ck_assert_uint_ne(ne.blkaddr, 0);
	return (struct target){ nid, ne.ino, ne.blkaddr };
}

static void find_targets(void)
{
	struct f2fs_fs *fs;
	struct f2fs_error err;
	struct f2fs_node nd;
	uint32_t big;

	ck_assert_msg(f2fs_fs_open(&fs, img, &err) == 0, "%s", err.msg);
	t_small = node_target(fs, lookup(fs, "/small"));
	t_sub = node_target(fs, lookup(fs, "/sub"));
	big = lookup(fs, "/big");
	ck_assert_int_eq(f2fs_read_inode(fs, big, &nd, &err), 0);
	t_dnode = node_target(fs, le32_get(nd.i.i_nid[0]));
	ck_assert_uint_eq(t_dnode.ino, big);
	ck_assert_int_eq(f2fs_read_node(fs, t_dnode.nid, &nd, &err), 0);
	dnode_ndata = 0;
	for (uint32_t k = 0; k < F2FS_ADDRS_PER_BLOCK; k++)
		dnode_ndata += le32_get(nd.dn.addr[k]) != 0;
	ck_assert_uint_gt(dnode_ndata, 16);
	if (have_xattr) {
		uint32_t x = lookup(fs, "/sub/x");

		ck_assert_int_eq(f2fs_read_inode(fs, x, &nd, &err), 0);
		ck_assert_uint_ne(le32_get(nd.i.i_xattr_nid), 0);
		t_xnode = node_target(fs, le32_get(nd.i.i_xattr_nid));
		ck_assert_uint_eq(t_xnode.ino, x);
	}
	f2fs_fs_close(fs);
}

/* ---- running the check ---------------------------------------------------- */

struct inject {
	uint32_t blk;             /* 0: no fault */
	int after_sweep;          /* arm the fault when the node sweep ends */
	struct f2fs_dev *dev;
	int opens;
};

static void opened(struct f2fs_fs *fs, void *arg)
{
	struct inject *j = arg;

	j->dev = f2fs_fs_dev(fs);
	j->opens++;
	if (j->blk && !j->after_sweep)
		f2fs_dev_fail_read(j->dev, j->blk, 1);
}

static void progress(const char *phase, uint64_t done, uint64_t total, void *arg)
{
	struct inject *j = arg;

	if (j->blk && j->after_sweep && !strcmp(phase, "nodes") && done == total)
		f2fs_dev_fail_read(j->dev, j->blk, 1);
}

static struct f2fs_check_report *run(struct inject *j)
{
	struct f2fs_check_options o = { 0 };
	struct f2fs_check_report *r = NULL;
	struct f2fs_error err = { 0 };
	int ret;

	o.mode = F2FS_CHECK_FULL;
	o.opened = opened;
	o.opened_arg = j;
	o.progress = progress;
	o.progress_arg = j;
	ret = f2fs_check(img, &o, &r, &err);
	/* a read error must not end the check */
	ck_assert_msg(ret == 0, "the check failed: %s (%d)", err.msg, ret);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_ge(j->opens, 1);
	return r;
}

static uint64_t count_of(const struct f2fs_check_report *r, const char *name)
{
	int code = f2fs_problem_by_name(name);

	ck_assert_int_ge(code, 0);
	return r->count[code];
}

static const struct f2fs_problem *only_record(const struct f2fs_check_report *r,
					      const char *name)
{
	int code = f2fs_problem_by_name(name);
	const struct f2fs_problem *found = NULL;

	for (size_t i = 0; i < r->nproblems; i++)
		if ((int)r->problems[i].code == code) {
			ck_assert_msg(!found, "%s reported twice", name);
			found = &r->problems[i];
		}
	ck_assert_msg(found, "no %s", name);
	return found;
}

/* Every problem is one of allowed (NULL-terminated); prints what is not. */
static void assert_only(const struct f2fs_check_report *r, const char *const *allowed)
{
	ck_assert_uint_eq(r->suppressed, 0);
	for (size_t i = 0; i < r->nproblems; i++) {
		const struct f2fs_problem *p = &r->problems[i];
		const char *name = f2fs_problem_info(p->code)->name;
		int ok = 0;

		for (const char *const *a = allowed; *a && !ok; a++)
			ok = !strcmp(*a, name);
		ck_assert_msg(ok, "unexpected %s: %s", name, p->msg);
	}
}

/* The node.unreadable record names nid, its inode and its block. */
static void assert_unreadable(const struct f2fs_check_report *r, const struct target *t,
			      const char *path)
{
	const struct f2fs_problem *p = only_record(r, "node.unreadable");

	ck_assert_uint_eq(count_of(r, "node.unreadable"), 1);
	ck_assert_uint_eq(p->have & (F2FS_PF_NID | F2FS_PF_INO | F2FS_PF_BLKADDR),
			  F2FS_PF_NID | F2FS_PF_INO | F2FS_PF_BLKADDR);
	ck_assert_uint_eq(p->nid, t->nid);
	ck_assert_uint_eq(p->ino, t->ino);
	ck_assert_uint_eq(p->blkaddr, t->addr);
	ck_assert_msg(strstr(p->msg, "could not be read"), "%s", p->msg);
	ck_assert_msg(p->path && !strcmp(p->path, path), "path %s, want %s",
		      p->path ? p->path : "(none)", path);
}

/* Sum of the blocks sit.valid_unused counts: the blocks the lost node held. */
static uint64_t valid_unused_blocks(const struct f2fs_check_report *r)
{
	int code = f2fs_problem_by_name("sit.valid_unused");
	uint64_t n = 0;

	for (size_t i = 0; i < r->nproblems; i++)
		if ((int)r->problems[i].code == code)
			n += r->problems[i].found;
	return n;
}

/* ---- fixture -------------------------------------------------------------- */

static void setup(void)
{
	const char *tmp = getenv("TMPDIR");
	struct f2fs_mkfs_options o;
	struct f2fs_mkfs_report rep;
	struct f2fs_error err = { 0 };
	struct inject none = { 0 };
	struct f2fs_check_report *r;
	char p[256], v[1500];

	snprintf(top, sizeof(top), "%s/f2fs-unread-XXXXXX", tmp && strlen(tmp) < 80 ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(top));
	snprintf(tree, sizeof(tree), "%s/tree", top);
	snprintf(img, sizeof(img), "%s/image", top);
	ck_assert_int_eq(mkdir(tree, 0755), 0);
	fpath(p, sizeof(p), "sub");
	ck_assert_int_eq(mkdir(p, 0755), 0);
	write_file("small", small_blocks);
	/* the inode's pointers, a full first direct node and some of a second */
	write_file("big", 2100);
	write_file("sub/x", 1);
	write_file("sub/y", 1);
	for (int i = 0; i < 8; i++) {
		snprintf(p, sizeof(p), "f%d", i);
		write_file(p, 1);
	}
	/* a value too large for the inline area: an xattr node */
	memset(v, 'v', sizeof(v));
	fpath(p, sizeof(p), "sub/x");
	have_xattr = setxattr(p, "user.big", v, sizeof(v), 0) == 0;
	if (!have_xattr)
		fprintf(stderr, "test_check_unreadable: no user xattrs in %s (%s): the xattr case is not run\n",
			top, strerror(errno));

	unit_sparse_file(img, 128 << 20);
	unit_mkfs_opts(&o, img);
	o.rootdir = tree;
	o.fixed_version = true;
	o.timestamp = 1700000000;
	o.timestamp_set = true;
	o.discard = false;
	ck_assert_int_eq(f2fs_feature_parse("extra_attr,inode_checksum,flexible_inline_xattr,quota,lost_found",
					    &o.features, &err), 0);
	ck_assert_msg(f2fs_mkfs(&o, &rep, &err) == 0, "mkfs: %s", err.msg);
	find_targets();

	/* without a fault the image checks clean */
	r = run(&none);
	ck_assert_msg(r->errors == 0 && r->warnings == 0 && r->nproblems == 0,
		      "the image is not clean: %zu problem(s), the first %s", r->nproblems,
		      r->nproblems ? r->problems[0].msg : "");
	clean = r->stats;
	f2fs_check_report_free(r);
}

static void teardown(void)
{
	static const char *const rel[] = {
		"tree/small", "tree/big", "tree/sub/x", "tree/sub/y", "tree/f0", "tree/f1",
		"tree/f2", "tree/f3", "tree/f4", "tree/f5", "tree/f6", "tree/f7", "image",
	};
	char p[256];

	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", top, rel[i]);
		unlink(p);
	}
	snprintf(p, sizeof(p), "%s/tree/sub", top);
	rmdir(p);
	rmdir(tree);
	rmdir(top);
}

/* ---- the device-level fault ----------------------------------------------- */

START_TEST(fault_range)
{
	struct f2fs_fs *fs;
	struct f2fs_error err;
	struct f2fs_dev *dev;
	uint8_t *buf = malloc(8 * BLK);

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(f2fs_fs_open(&fs, img, &err), 0);
	dev = f2fs_fs_dev(fs);
	f2fs_dev_fail_read(dev, t_small.addr, 2);
	/* any read touching the range fails; reads around it do not */
	ck_assert_int_eq(f2fs_dev_read(dev, t_small.addr, buf, 1, &err), -EIO);
	ck_assert_int_eq(err.code, -EIO);
	ck_assert_int_eq(f2fs_dev_read(dev, t_small.addr + 1, buf, 1, &err), -EIO);
	ck_assert_int_eq(f2fs_dev_read(dev, t_small.addr - 4, buf, 8, &err), -EIO);
	ck_assert_int_eq(f2fs_dev_pread(dev, (uint64_t)t_small.addr * BLK + BLK - 1, buf, 2, &err),
			 -EIO);
	ck_assert_int_eq(f2fs_dev_read(dev, t_small.addr - 4, buf, 4, &err), 0);
	ck_assert_int_eq(f2fs_dev_read(dev, t_small.addr + 2, buf, 4, &err), 0);
	/* the node reader of the library sees it too */
	ck_assert_int_eq(f2fs_read_inode(fs, t_small.nid, (struct f2fs_node *)buf, &err), -EIO);
	f2fs_dev_fail_read(dev, 0, 0);
	ck_assert_int_eq(f2fs_dev_read(dev, t_small.addr, buf, 1, &err), 0);
	ck_assert_int_eq(f2fs_read_inode(fs, t_small.nid, (struct f2fs_node *)buf, &err), 0);
	f2fs_fs_close(fs);
	free(buf);
}
END_TEST

/* ---- the check ------------------------------------------------------------- */

START_TEST(clean_twice)
{
	struct inject none = { 0 };
	struct f2fs_check_report *r = run(&none);

	ck_assert_uint_eq(r->errors, 0);
	ck_assert_uint_eq(r->stats.nodes, clean.nodes);
	ck_assert_uint_gt(clean.nodes, 10);
	f2fs_check_report_free(r);
}
END_TEST

START_TEST(unreadable_inode)
{
	static const char *const allowed[] = {
		"node.unreadable", "sit.valid_unused", "sit.vblocks_mismatch",
		"quota.usage_mismatch", NULL,
	};
	struct inject j = { .blk = t_small.addr };
	struct f2fs_check_report *r = run(&j);

	ck_assert_uint_eq(t_small.nid, t_small.ino);
	assert_unreadable(r, &t_small, "/small");
	assert_only(r, allowed);
	/* every other node of its batch was read and checked */
	ck_assert_uint_eq(r->stats.nodes, clean.nodes - 1);
	ck_assert_uint_eq(r->stats.inodes, clean.inodes - 1);
	ck_assert_uint_eq(r->stats.node_blocks_read, clean.node_blocks_read - 1);
	/* its data blocks are found unused: no more, no less */
	ck_assert_uint_eq(valid_unused_blocks(r), small_blocks);
	/* the entry naming it is not called dangling */
	ck_assert_uint_eq(count_of(r, "dir.dangling"), 0);
	f2fs_check_report_free(r);
}
END_TEST

START_TEST(unreadable_direct_node)
{
	static const char *const allowed[] = {
		"node.unreadable", "sit.valid_unused", "sit.vblocks_mismatch", NULL,
	};
	struct inject j = { .blk = t_dnode.addr };
	struct f2fs_check_report *r = run(&j);

	ck_assert_uint_ne(t_dnode.nid, t_dnode.ino);
	assert_unreadable(r, &t_dnode, "/big");
	/* no i_blocks error for the blocks that could not be counted, no
	 * node.unreachable for the node itself */
	assert_only(r, allowed);
	ck_assert_uint_eq(r->stats.nodes, clean.nodes - 1);
	ck_assert_uint_eq(r->stats.inodes, clean.inodes);
	ck_assert_uint_eq(r->stats.data_blocks, clean.data_blocks - dnode_ndata);
	ck_assert_uint_eq(valid_unused_blocks(r), dnode_ndata);
	f2fs_check_report_free(r);
}
END_TEST

START_TEST(unreadable_directory)
{
	/* its entries are lost: its files have none; its parent's link count
	 * still counts it as a subdirectory */
	static const char *const allowed[] = {
		"node.unreadable", "inode.unreachable", "sit.valid_unused",
		"sit.vblocks_mismatch", "quota.usage_mismatch", NULL,
	};
	struct inject j = { .blk = t_sub.addr };
	struct f2fs_check_report *r = run(&j);

	assert_unreadable(r, &t_sub, "/sub");
	assert_only(r, allowed);
	ck_assert_uint_eq(count_of(r, "inode.unreachable"), 2);   /* x and y */
	ck_assert_uint_eq(r->stats.dirs, clean.dirs - 1);
	ck_assert_uint_eq(r->stats.inodes, clean.inodes - 1);
	f2fs_check_report_free(r);
}
END_TEST

START_TEST(unreadable_xattr_node_read_again)
{
	struct inject j = { .after_sweep = 1 };
	struct f2fs_check_report *r;

	if (!have_xattr)
		return;
	j.blk = t_xnode.addr;
	r = run(&j);
	/* the sweep read it; the xattr check, reading it again, cannot */
	assert_only(r, (const char *const[]){ "node.unreadable", NULL });
	assert_unreadable(r, &t_xnode, "/sub/x");
	ck_assert_uint_eq(r->nproblems, 1);
	ck_assert_uint_eq(r->errors, 1);
	ck_assert_uint_eq(r->stats.nodes, clean.nodes);
	f2fs_check_report_free(r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("check_unreadable");
	TCase *tc = tcase_create("core");

	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, fault_range);
	tcase_add_test(tc, clean_twice);
	tcase_add_test(tc, unreadable_inode);
	tcase_add_test(tc, unreadable_direct_node);
	tcase_add_test(tc, unreadable_directory);
	tcase_add_test(tc, unreadable_xattr_node_read_again);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(suite());
}
