/* fsck's problem table: complete (every problem has a fix kind), names
 * stable and unique, lookups round-trip, records start unfixed. */
#include "checker.h"
#include <f2fs/format/endian.h>
#include <f2fs/format/format.h>
#include <f2fs/fs/fs.h>
#include <f2fs/fs/nat.h>

#include <string.h>

#include "unit.h"

START_TEST(test_every_problem_has_a_fix_kind)
{
	for (int c = 0; c < F2FS_PB_COUNT; c++) {
		const struct f2fs_problem_info *in = f2fs_problem_info(c);

		ck_assert_ptr_nonnull(in);
		ck_assert_msg(in->fix > F2FS_FIX_NONE && in->fix < F2FS_FIX_COUNT,
			      "%s has no fix kind", in->name);
		ck_assert_ptr_nonnull(f2fs_fix_kind_name(in->fix));
		/* what fsck cannot fix, no automatic run fixes */
		ck_assert_msg(!(in->fix == F2FS_FIX_CANNOT && in->preen),
			      "%s: cannot be fixed yet marked for preen", in->name);
		ck_assert_msg(in->description && *in->description, "%s: no description",
			      in->name);
	}
}
END_TEST

START_TEST(test_names_unique_and_found)
{
	for (int c = 0; c < F2FS_PB_COUNT; c++) {
		const char *name = f2fs_problem_info(c)->name;
		const char *dot = strchr(name, '.');

		ck_assert_int_eq(f2fs_problem_by_name(name), c);
		/* "structure.what" */
		ck_assert_msg(dot && dot != name && dot[1], "%s is not structure.what", name);
		for (int d = c + 1; d < F2FS_PB_COUNT; d++)
			ck_assert_str_ne(name, f2fs_problem_info(d)->name);
	}
	ck_assert_int_eq(f2fs_problem_by_name("no.such_problem"), -1);
	ck_assert_ptr_null(f2fs_problem_info(F2FS_PB_COUNT));
	ck_assert_ptr_null(f2fs_problem_info((enum f2fs_problem_code)-1));
}
END_TEST

/* Spot checks of decisions repair depends on: derived state is rebuilt,
 * data is never thrown away by an automatic run. */
START_TEST(test_fix_decisions)
{
	static const struct {
		const char *name;
		enum f2fs_fix_kind fix;
		bool preen;
	} want[] = {
		{ "sit.vblocks_mismatch", F2FS_FIX_REBUILD, true },
		{ "ssa.mismatch", F2FS_FIX_REBUILD, true },
		{ "nat_bits.full_mismatch", F2FS_FIX_REBUILD, true },
		{ "cp.valid_block_count", F2FS_FIX_REBUILD, true },
		{ "cp.backup_pack_invalid", F2FS_FIX_REWRITE, true },
		{ "cp.newest_pack_invalid", F2FS_FIX_REWRITE, true },
		{ "quota.usage_mismatch", F2FS_FIX_REBUILD, true },
		{ "inode.bad_checksum", F2FS_FIX_FIELD, true },
		{ "dir.file_type", F2FS_FIX_FIELD, true },
		{ "inode.unreachable", F2FS_FIX_RELINK, true },
		{ "block.multiply_owned", F2FS_FIX_CLONE, false },
		{ "sb.unknown_feature", F2FS_FIX_CANNOT, false },
		{ "node.unreadable", F2FS_FIX_CANNOT, false },
	};

	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		int c = f2fs_problem_by_name(want[k].name);

		ck_assert_int_ge(c, 0);
		ck_assert_int_eq(f2fs_problem_info(c)->fix, want[k].fix);
		ck_assert_int_eq(f2fs_problem_info(c)->preen, want[k].preen);
	}
	/* a broken older (or never committed) pack loses nothing; a broken
	 * committed newest one loses checkpoints */
	ck_assert_int_eq(f2fs_problem_info(f2fs_problem_by_name("cp.backup_pack_invalid"))->severity,
			 F2FS_SEV_WARNING);
	ck_assert_int_eq(f2fs_problem_info(f2fs_problem_by_name("cp.newest_pack_invalid"))->severity,
			 F2FS_SEV_ERROR);
	ck_assert_str_eq(f2fs_fix_kind_name(F2FS_FIX_REBUILD), "rebuild");
	ck_assert_ptr_null(f2fs_fix_kind_name(F2FS_FIX_COUNT));
}
END_TEST

/* What the repair fixes is the table's fix column, under each answer: a
 * person's yes fixes every kind but CANNOT, preen only the PREEN ones,
 * a check only none. */
START_TEST(test_repair_follows_fix_column)
{
	int fixed = 0, cannot = 0;

	for (int c = 0; c < F2FS_PB_COUNT; c++) {
		const struct f2fs_problem_info *in = f2fs_problem_info(c);
		bool fixes = in->fix != F2FS_FIX_CANNOT;

		ck_assert_msg(f2fs_check_fixable(c, F2FS_ANSWER_YES) == fixes, "%s", in->name);
		ck_assert_msg(f2fs_check_fixable(c, F2FS_ANSWER_PREEN) == (fixes && in->preen),
			      "%s", in->name);
		ck_assert(!f2fs_check_fixable(c, F2FS_ANSWER_NO));
		fixed += fixes;
		cannot += !fixes;
	}
	ck_assert_int_gt(fixed, 0);
	ck_assert_int_gt(cannot, 0);
	ck_assert(!f2fs_fix_kind_repairs(F2FS_FIX_NONE));
	ck_assert(!f2fs_fix_kind_repairs(F2FS_FIX_COUNT));
	ck_assert(!f2fs_check_fixable(F2FS_PB_COUNT, F2FS_ANSWER_YES));
}
END_TEST

/* The order column: every row in a stage, the codes listed once each in
 * stage order, and a fix standing on another asked after it. */
START_TEST(test_order_of_cause)
{
	enum f2fs_problem_code order[F2FS_PB_COUNT];
	bool seen[F2FS_PB_COUNT] = { false };
	int at[F2FS_PB_COUNT];

	f2fs_problems_in_order(order);
	for (int k = 0; k < F2FS_PB_COUNT; k++) {
		const struct f2fs_problem_info *in = f2fs_problem_info(order[k]);

		ck_assert_msg(in->order >= F2FS_ORDER_SB && in->order <= F2FS_ORDER_LAST,
			      "%s has no order", in->name);
		ck_assert(!seen[order[k]]);
		seen[order[k]] = true;
		at[order[k]] = k;
		if (k)
			ck_assert(f2fs_problem_info(order[k - 1])->order <= in->order);
	}
	for (int a = 0; a < F2FS_PB_COUNT; a++)
		for (int b = 0; b < F2FS_PB_COUNT; b++)
			if (f2fs_problem_needs(a, b))
				ck_assert_msg(f2fs_problem_info(b)->order < f2fs_problem_info(a)->order,
					      "%s stands on %s, asked no earlier",
					      f2fs_problem_info(a)->name, f2fs_problem_info(b)->name);
	/* a name's length before the link count it changes */
	ck_assert_int_lt(at[F2FS_PB_DIR_BAD_NAME_LEN], at[F2FS_PB_INODE_LINKS]);
	ck_assert_int_lt(at[F2FS_PB_INODE_UNREACHABLE], at[F2FS_PB_INODE_LINKS]);
	ck_assert(f2fs_problem_needs(F2FS_PB_INODE_LINKS, F2FS_PB_DIR_BAD_NAME_LEN));
	/* the link counts do not stand on the relinking: they leave an inode
	 * kept unreachable as it is */
	ck_assert(!f2fs_problem_needs(F2FS_PB_INODE_LINKS, F2FS_PB_INODE_UNREACHABLE));
	ck_assert(f2fs_problem_needs(F2FS_PB_CP_NEEDS_FSCK, F2FS_PB_INODE_LINKS));
	ck_assert(!f2fs_problem_needs(F2FS_PB_CP_NEEDS_FSCK, F2FS_PB_SB_COPIES_DIFFER));
}
END_TEST

static int answer;   /* what confirm answers: 1, 0 or -1 */
static int asked;

static int confirm(enum f2fs_problem_code code, uint64_t count, void *arg)
{
	(void)code;
	(void)count;
	(void)arg;
	asked++;
	return answer;
}

/* Records of a damaged image: there are some, and none claims a fix yet. */
START_TEST(test_records_start_unfixed)
{
	struct f2fs_check_options opt = { .mode = F2FS_CHECK_FULL };
	struct f2fs_check_report *r = NULL;
	struct f2fs_mkfs_options o;
	struct f2fs_mkfs_report rep;
	struct f2fs_nat_info ne;
	struct f2fs_node nd;
	struct f2fs_error err;
	struct f2fs_fs *fs;
	char path[] = "/tmp/f2fs-problems-XXXXXX";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	unit_sparse_file(path, 64ull << 20);
	unit_mkfs_opts(&o, path);
	ck_assert_msg(f2fs_mkfs(&o, &rep, &err) == 0, "%s", err.msg);
	/* the root inode's link count off by 5 */
	ck_assert_int_eq(f2fs_fs_open(&fs, path, &err), 0);
	ck_assert_msg(f2fs_nat_lookup(fs, F2FS_ROOT_INO, &ne, NULL, &err) == 0, "%s", err.msg);
	f2fs_fs_close(fs);
	fd = open(path, O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, &nd, sizeof(nd), (off_t)ne.blkaddr * F2FS_BLKSIZE), sizeof(nd));
	nd.i.i_links = le32_put(le32_get(nd.i.i_links) + 5);
	ck_assert_int_eq(pwrite(fd, &nd, sizeof(nd), (off_t)ne.blkaddr * F2FS_BLKSIZE), sizeof(nd));
	close(fd);

	ck_assert_msg(f2fs_check(path, &opt, &r, &err) == 0, "%s", err.msg);
	ck_assert_uint_ge(r->nproblems, 1);
	ck_assert_uint_eq(r->count[F2FS_PB_INODE_LINKS], 1);
	for (size_t i = 0; i < r->nproblems; i++)
		ck_assert(!r->problems[i].fixed);
	f2fs_check_report_free(r);

	/* asked: a cancel writes nothing, a no leaves the kind, as asked */
	opt.fix = F2FS_ANSWER_YES;
	opt.confirm = confirm;
	for (answer = -1; answer <= 0; answer++) {
		struct f2fs_node again;

		asked = 0;
		ck_assert_msg(f2fs_check(path, &opt, &r, &err) == 0, "%s", err.msg);
		ck_assert_int_ge(asked, 1);
		ck_assert_int_eq(r->repair.cancelled, answer < 0);
		ck_assert_int_eq(r->repair.declined[F2FS_PB_INODE_LINKS], answer == 0);
		ck_assert(!r->repair.committed);
		ck_assert_uint_eq(r->repair.fixed, 0);
		ck_assert_uint_eq(r->repair.unfixed, r->errors + r->warnings);
		f2fs_check_report_free(r);
		fd = open(path, O_RDONLY);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(pread(fd, &again, sizeof(again), (off_t)ne.blkaddr * F2FS_BLKSIZE),
				 sizeof(again));
		close(fd);
		ck_assert(!memcmp(&again, &nd, sizeof(nd)));
	}
	unlink(path);
}
END_TEST

static Suite *problems_suite(void)
{
	Suite *s = suite_create("problems");
	TCase *t = tcase_create("table");

	tcase_add_test(t, test_every_problem_has_a_fix_kind);
	tcase_add_test(t, test_names_unique_and_found);
	tcase_add_test(t, test_fix_decisions);
	tcase_add_test(t, test_repair_follows_fix_column);
	tcase_add_test(t, test_order_of_cause);
	tcase_add_test(t, test_records_start_unfixed);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return unit_run(problems_suite());
}
