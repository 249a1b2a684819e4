/*
 * The write layer on an opened image, the path fsck repair will take: an
 * image made by f2fs_mkfs (600 files, so the NAT has two blocks in use) is
 * opened, dirty NAT and SIT entries are flushed into the copies the
 * checkpoint in use does not see, and a new checkpoint pack goes into the
 * other slot with the next version. The entries are the image's own (a
 * consistent image stays consistent), so the checker must find the result
 * clean; the reopened image must use the new pack, its flipped bitmaps and
 * its journals. Once with nat_bits (every dirty NAT block written, the
 * journal emptied), once without (the entries go into the journal), and
 * once cut short before the pack's last block: then the old checkpoint is
 * still the one in use, and the image still checks clean.
 */
#include <check.h>

#include "checker.h"
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/format.h>
#include <f2fs/format/summary.h>
#include <f2fs/format/ver_bitmap.h>
#include <f2fs/fs/fs.h>
#include <f2fs/fs/nat.h>
#include <f2fs/fs/sit.h>
#include <f2fs/util/error.h>
#include <f2fs/write/cp_pack.h>
#include <f2fs/write/fs_flush.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

#define BLK F2FS_BLKSIZE
#define MAX_LOG 4096

static char top[128], tree[160], img[160];

/* A writer onto the image file that logs addresses and can stop early. */
struct disk {
	int fd;
	int budget;        /* writes left; -1 = no limit */
	int n;
	uint64_t addr[MAX_LOG];
};

static int disk_write(void *arg, uint64_t blkaddr, const void *block, struct f2fs_error *err)
{
	struct disk *d = arg;

	if (d->budget == 0)
		return f2fs_fail(err, -EIO, "power cut before block %llu",
				 (unsigned long long)blkaddr);
	if (d->budget > 0)
		d->budget--;
	ck_assert_int_eq(pwrite(d->fd, block, BLK, (off_t)(blkaddr * BLK)), BLK);
	ck_assert_int_lt(d->n, MAX_LOG);
	d->addr[d->n++] = blkaddr;
	return 0;
}

static int disk_has(const struct disk *d, uint64_t a)
{
	for (int i = 0; i < d->n; i++)
		if (d->addr[i] == a)
			return 1;
	return 0;
}

static void setup(void)
{
	const char *dir = getenv("TMPDIR");
	struct f2fs_mkfs_options o;
	struct f2fs_mkfs_report rep;
	struct f2fs_error err = { 0 };
	char p[256];

	snprintf(top, sizeof(top), "%s/f2fs-flush-%ld",
		 dir && strlen(dir) < 80 ? dir : "/tmp", (long)getpid());
	snprintf(tree, sizeof(tree), "%s/tree", top);
	snprintf(img, sizeof(img), "%s/img", top);
	ck_assert_int_eq(mkdir(top, 0700), 0);
	ck_assert_int_eq(mkdir(tree, 0700), 0);
	for (int i = 0; i < 600; i++) {
		int fd;

		snprintf(p, sizeof(p), "%s/f%03d", tree, i);
		fd = open(p, O_CREAT | O_WRONLY, 0644);
		ck_assert_int_ge(fd, 0);
		close(fd);
	}
	unit_sparse_file(img, 256 << 20);
	unit_mkfs_opts(&o, img);
	o.rootdir = tree;
	o.features = F2FS_FEATURE_EXTRA_ATTR | F2FS_FEATURE_INODE_CHKSUM |
		     F2FS_FEATURE_QUOTA_INO | F2FS_FEATURE_LOST_FOUND;
	ck_assert_msg(f2fs_mkfs(&o, &rep, &err) == 0, "mkfs: %s", err.msg);
}

static void teardown(void)
{
	char cmd[200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	ck_assert_int_eq(system(cmd), 0);
}

static struct f2fs_fs *open_img(void)
{
	struct f2fs_fs *fs;
	struct f2fs_error err = { 0 };

	ck_assert_msg(f2fs_fs_open(&fs, img, &err) == 0, "open: %s", err.msg);
	return fs;
}

/* No problem but the one named by allowed (may be NULL). */
static void check_clean(const char *allowed)
{
	struct f2fs_check_options o;
	struct f2fs_check_report *r = NULL;
	struct f2fs_error err = { 0 };
	int code = allowed ? f2fs_problem_by_name(allowed) : -1;

	memset(&o, 0, sizeof(o));
	o.mode = F2FS_CHECK_FULL;
	ck_assert_msg(f2fs_check(img, &o, &r, &err) == 0, "check: %s", err.msg);
	for (size_t i = 0; i < r->nproblems; i++)
		ck_assert_msg((int)r->problems[i].code == code, "problem: %s", r->problems[i].msg);
	ck_assert_uint_eq(r->suppressed, 0);
	f2fs_check_report_free(r);
}

/* The current logs' summaries as the pack in use stores them. */
struct sums {
	struct f2fs_summary e[F2FS_NR_CURSEG_TYPE][F2FS_ENTRIES_IN_SUM];
	uint16_t n[F2FS_NR_CURSEG_TYPE];
};

static void load_sums(struct f2fs_fs *fs, struct sums *s)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	uint64_t at = f2fs_fs_cp_start(fs) + le32_get(cp->cp_pack_start_sum);
	struct f2fs_summary *ents[3] = { s->e[0], s->e[1], s->e[2] };
	struct f2fs_journal nj, sj;
	struct f2fs_error err = { 0 };
	uint8_t buf[2 * BLK];
	uint32_t data;

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < 3; i++) {
		s->n[i] = le16_get(cp->cur_data_blkoff[i]);
		s->n[3 + i] = le16_get(cp->cur_node_blkoff[i]);
	}
	/* mkfs images of this size have compacted data summaries */
	ck_assert(le32_get(cp->ckpt_flags) & F2FS_CP_COMPACT_SUM);
	data = f2fs_compact_sum_blocks(s->n);
	ck_assert_int_eq(f2fs_fs_read_block(fs, at, buf, &err), 0);
	if (data > 1)
		ck_assert_int_eq(f2fs_fs_read_block(fs, at + 1, buf + BLK, &err), 0);
	ck_assert_int_eq(f2fs_compact_sum_decode(buf, data, &nj, &sj, ents, s->n, &err), 0);
	for (int i = 0; i < 3; i++) {
		const struct f2fs_summary_block *sb = (const void *)buf;

		ck_assert_int_eq(f2fs_fs_read_block(fs, at + data + i, buf, &err), 0);
		memcpy(s->e[3 + i], sb->entries, sizeof(s->e[0]));
	}
}

/* Every NAT entry in use, as the image has it. */
static size_t nat_in_use(struct f2fs_fs *fs, struct f2fs_nat_dirty *out, size_t cap)
{
	struct f2fs_error err = { 0 };
	struct f2fs_nat_info ne;
	size_t n = 0;

	for (uint32_t nid = 0; nid < f2fs_fs_max_nid(fs); nid++) {
		ck_assert_int_eq(f2fs_nat_lookup(fs, nid, &ne, NULL, &err), 0);
		if (!ne.blkaddr)
			continue;
		ck_assert_uint_lt(n, cap);
		out[n++] = (struct f2fs_nat_dirty){ nid, ne.ino, ne.blkaddr, ne.version };
	}
	return n;
}

/* The SIT entries of every segment in use or current, as the image has them. */
static size_t sit_in_use(struct f2fs_fs *fs, struct f2fs_sit_dirty *out, size_t cap)
{
	struct f2fs_sit *sit;
	struct f2fs_error err = { 0 };
	size_t n = 0;

	ck_assert_int_eq(f2fs_sit_load(fs, F2FS_SIT_WANT_MAPS, &sit, &err), 0);
	for (uint32_t s = 0; s < sit->nsegs; s++) {
		const struct f2fs_seg *g = &sit->seg[s];

		if (!g->valid && !(g->flags & F2FS_SEG_CURRENT))
			continue;
		ck_assert_uint_lt(n, cap);
		out[n] = (struct f2fs_sit_dirty){ s, g->type, g->valid, g->mtime, { 0 } };
		memcpy(out[n++].map, sit->maps + (size_t)s * F2FS_SIT_VBLOCK_MAP_SIZE,
		       F2FS_SIT_VBLOCK_MAP_SIZE);
	}
	f2fs_sit_free(sit);
	return n;
}

/*
 * Flush nat[] and sit[] into the inactive copies and write the next pack
 * into the other slot; flags_clear come off the checkpoint's flags.
 * Returns the pack writer's result (the flushes must succeed).
 */
static int commit(struct f2fs_fs *fs, struct disk *d, unsigned nat_policy,
		  const struct f2fs_nat_dirty *nat, size_t nnat,
		  const struct f2fs_sit_dirty *sit, size_t nsit, uint32_t flags_clear)
{
	uint32_t payload = le32_get(f2fs_fs_sb(fs)->cp_payload);
	uint32_t nat_blocks = f2fs_fs_nat_blocks(fs);
	uint8_t *head = malloc((1 + (size_t)payload) * BLK);
	uint16_t *used = calloc(nat_blocks, sizeof(*used));
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)head;
	struct f2fs_block_io out = { NULL, disk_write, d, NULL };
	struct f2fs_error err = { 0 };
	struct f2fs_fs_flush t;
	struct f2fs_cp_pack p;
	struct sums *s = malloc(sizeof(*s));
	int ret;

	ck_assert_ptr_nonnull(head);
	ck_assert_ptr_nonnull(used);
	ck_assert_ptr_nonnull(s);
	memcpy(head, f2fs_fs_cp(fs), (1 + (size_t)payload) * BLK);
	cp->ckpt_flags = le32_put(le32_get(cp->ckpt_flags) & ~flags_clear);
	f2fs_fs_flush_start(&t, fs, f2fs_cp_nat_bitmap(head, payload),
			    f2fs_cp_sit_bitmap(head, payload), &out);
	t.nat_policy = nat_policy;
	t.nat_used = used;
	ck_assert_msg(f2fs_fs_flush_nat(&t, nat, nnat, &err) == 0, "NAT: %s", err.msg);
	ck_assert_msg(f2fs_fs_flush_sit(&t, sit, nsit, &err) == 0, "SIT: %s", err.msg);
	load_sums(fs, s);
	memset(&p, 0, sizeof(p));
	p.head = head;
	p.cp_payload = payload;
	p.nat_j = &t.nat_j;
	p.sit_j = &t.sit_j;
	for (int i = 0; i < F2FS_NR_CURSEG_TYPE; i++) {
		p.sum[i] = s->e[i];
		p.nsum[i] = s->n[i];
	}
	p.nat_used = used;
	p.nat_blocks = nat_blocks;
	ret = f2fs_cp_pack_write(&p, le32_get(f2fs_fs_sb(fs)->cp_blkaddr),
				 1 - f2fs_fs_cp_choice(fs)->pack,
				 f2fs_fs_cp_choice(fs)->version + 1, &t.out, &err);
	free(head);
	free(used);
	free(s);
	return ret;
}

#define MAX_NAT 2048
#define MAX_SIT 512

static struct f2fs_nat_dirty nat_buf[MAX_NAT];
static struct f2fs_sit_dirty sit_buf[MAX_SIT];

START_TEST(test_flush_nat_bits)
{
	struct f2fs_fs *fs = open_img();
	uint32_t nat_addr = le32_get(f2fs_fs_sb(fs)->nat_blkaddr);
	int old_pack = f2fs_fs_cp_choice(fs)->pack;
	uint64_t old_ver = f2fs_fs_cp_choice(fs)->version;
	int old_bit1 = f2fs_ver_bit(f2fs_fs_nat_bitmap(fs, NULL), 1);
	size_t nn = nat_in_use(fs, nat_buf, MAX_NAT), ns = sit_in_use(fs, sit_buf, MAX_SIT);
	struct disk d = { .budget = -1 };
	struct f2fs_nat_info ne;
	struct f2fs_error err = { 0 };
	int from_j;

	ck_assert(le32_get(f2fs_fs_cp(fs)->ckpt_flags) & F2FS_CP_NAT_BITS);
	ck_assert_uint_gt(nn, F2FS_NAT_ENTRY_PER_BLOCK);   /* two NAT blocks */
	ck_assert_uint_gt(ns, F2FS_SIT_JOURNAL_ENTRIES);   /* more than the journal takes */
	d.fd = open(img, O_RDWR);
	ck_assert_int_ge(d.fd, 0);
	ck_assert_int_eq(commit(fs, &d, F2FS_FLUSH_NO_JOURNAL, nat_buf, nn, sit_buf, ns, 0), 0);
	close(d.fd);
	/* both NAT blocks went to the copies the old checkpoint does not use */
	ck_assert(disk_has(&d, f2fs_nat_copy_addr(nat_addr, 0, 1)));
	ck_assert(disk_has(&d, f2fs_nat_copy_addr(nat_addr, 1, !old_bit1)));
	ck_assert(!disk_has(&d, f2fs_nat_copy_addr(nat_addr, 1, old_bit1)));
	f2fs_fs_close(fs);

	fs = open_img();
	ck_assert_int_eq(f2fs_fs_cp_choice(fs)->pack, 1 - old_pack);
	ck_assert_uint_eq(f2fs_fs_cp_choice(fs)->version, old_ver + 1);
	ck_assert(f2fs_fs_cp_choice(fs)->other_valid);
	ck_assert_int_eq(f2fs_ver_bit(f2fs_fs_nat_bitmap(fs, NULL), 1), !old_bit1);
	ck_assert_uint_eq(le16_get(f2fs_fs_nat_journal(fs)->n_entries), 0);
	ck_assert_int_eq(f2fs_nat_lookup(fs, F2FS_ROOT_INO, &ne, &from_j, &err), 0);
	ck_assert_int_eq(from_j, 0);
	ck_assert_uint_eq(ne.nat_blkaddr, f2fs_nat_copy_addr(nat_addr, 0, 1));
	f2fs_fs_close(fs);
	check_clean(NULL);
}
END_TEST

START_TEST(test_flush_journal)
{
	struct f2fs_fs *fs = open_img();
	uint64_t old_ver = f2fs_fs_cp_choice(fs)->version;
	size_t ns = sit_in_use(fs, sit_buf, MAX_SIT);
	struct disk d = { .budget = -1 };
	struct f2fs_nat_info ne;
	struct f2fs_error err = { 0 };
	uint32_t nat_addr = le32_get(f2fs_fs_sb(fs)->nat_blkaddr);
	/* the root and three inodes of the second NAT block */
	static const uint32_t nids[] = { F2FS_ROOT_INO, F2FS_NAT_ENTRY_PER_BLOCK + 10,
					 F2FS_NAT_ENTRY_PER_BLOCK + 11, F2FS_NAT_ENTRY_PER_BLOCK + 12 };
	size_t nn = 0;
	int from_j;

	for (; nn < 4; nn++) {
		ck_assert_int_eq(f2fs_nat_lookup(fs, nids[nn], &ne, NULL, &err), 0);
		ck_assert_uint_ne(ne.blkaddr, 0);
		nat_buf[nn] = (struct f2fs_nat_dirty){ nids[nn], ne.ino, ne.blkaddr, ne.version };
	}
	d.fd = open(img, O_RDWR);
	ck_assert_int_ge(d.fd, 0);
	/* no nat_bits in the new checkpoint: its bitmaps would be stale */
	ck_assert_int_eq(commit(fs, &d, 0, nat_buf, nn, sit_buf, ns, F2FS_CP_NAT_BITS), 0);
	close(d.fd);
	for (uint32_t k = 0; k < f2fs_fs_nat_blocks(fs); k++) {
		ck_assert(!disk_has(&d, f2fs_nat_copy_addr(nat_addr, k, 0)));
		ck_assert(!disk_has(&d, f2fs_nat_copy_addr(nat_addr, k, 1)));
	}
	f2fs_fs_close(fs);

	fs = open_img();
	ck_assert_uint_eq(f2fs_fs_cp_choice(fs)->version, old_ver + 1);
	ck_assert_uint_eq(le16_get(f2fs_fs_nat_journal(fs)->n_entries), 4);
	ck_assert_int_eq(f2fs_nat_lookup(fs, nids[2], &ne, &from_j, &err), 0);
	ck_assert_int_eq(from_j, 1);
	ck_assert_uint_eq(ne.blkaddr, nat_buf[2].blkaddr);
	f2fs_fs_close(fs);
	check_clean(NULL);

	/* once more from the new checkpoint: its journal is kept and grows */
	fs = open_img();
	ck_assert_int_eq(f2fs_nat_lookup(fs, nids[3] + 1, &ne, NULL, &err), 0);
	nat_buf[0] = (struct f2fs_nat_dirty){ nids[3] + 1, ne.ino, ne.blkaddr, ne.version };
	ns = sit_in_use(fs, sit_buf, MAX_SIT);
	d = (struct disk){ .budget = -1 };
	d.fd = open(img, O_RDWR);
	ck_assert_int_ge(d.fd, 0);
	ck_assert_int_eq(commit(fs, &d, 0, nat_buf, 1, sit_buf, ns, 0), 0);
	close(d.fd);
	f2fs_fs_close(fs);
	fs = open_img();
	ck_assert_uint_eq(f2fs_fs_cp_choice(fs)->version, old_ver + 2);
	ck_assert_uint_eq(le16_get(f2fs_fs_nat_journal(fs)->n_entries), 5);
	f2fs_fs_close(fs);
	check_clean(NULL);
}
END_TEST

START_TEST(test_flush_cut_short)
{
	struct f2fs_fs *fs = open_img();
	int old_pack = f2fs_fs_cp_choice(fs)->pack;
	uint64_t old_ver = f2fs_fs_cp_choice(fs)->version;
	size_t nn = nat_in_use(fs, nat_buf, MAX_NAT), ns = sit_in_use(fs, sit_buf, MAX_SIT);
	struct disk d = { .budget = -1 };
	char copy[200], cmd[420];
	int total;

	/* count the writes of a whole commit, made on a copy of the image */
	snprintf(copy, sizeof(copy), "%s.copy", img);
	snprintf(cmd, sizeof(cmd), "cp --sparse=always '%s' '%s'", img, copy);
	ck_assert_int_eq(system(cmd), 0);
	d.fd = open(copy, O_RDWR);
	ck_assert_int_ge(d.fd, 0);
	ck_assert_int_eq(commit(fs, &d, F2FS_FLUSH_NO_JOURNAL, nat_buf, nn, sit_buf, ns, 0), 0);
	close(d.fd);
	unlink(copy);
	total = d.n;
	/* the same commit, cut before its last block: the pack must not count */
	d = (struct disk){ .budget = total - 1 };
	d.fd = open(img, O_RDWR);
	ck_assert_int_ge(d.fd, 0);
	ck_assert_int_eq(commit(fs, &d, F2FS_FLUSH_NO_JOURNAL, nat_buf, nn, sit_buf, ns, 0), -EIO);
	close(d.fd);
	ck_assert_int_eq(d.n, total - 1);
	f2fs_fs_close(fs);

	fs = open_img();
	ck_assert_int_eq(f2fs_fs_cp_choice(fs)->pack, old_pack);
	ck_assert_uint_eq(f2fs_fs_cp_choice(fs)->version, old_ver);
	ck_assert(!f2fs_fs_cp_choice(fs)->other_valid);
	f2fs_fs_close(fs);
	/* the torn pack is seen, and nothing else */
	check_clean("cp.backup_pack_invalid");
}
END_TEST

static Suite *fs_flush_suite(void)
{
	Suite *s = suite_create("fs_flush");
	TCase *tc = tcase_create("opened image");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_flush_nat_bits);
	tcase_add_test(tc, test_flush_journal);
	tcase_add_test(tc, test_flush_cut_short);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(fs_flush_suite());
}
