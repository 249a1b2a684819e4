/*
 * mkfs --rootdir's check of case-insensitive source directories
 * (lib/build/populate.c): names are folded as the kernel folds them, two
 * names with one key are refused, and under the strict encoding flag so is
 * a name without a key. The host cannot make a case-insensitive directory,
 * so the scanned tree's directory is marked as one by hand; the kernel test
 * tests/kernel/casefold-names.sh copies a real one.
 */
#include <check.h>

#include <f2fs/build/tree.h>
#include <f2fs/format/feature.h>
#include <f2fs/format/format.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "populate.h"
#include "unit.h"

/* Scan a fresh directory holding the names, its root marked casefolded;
 * returns populate_check_tree()'s answer, the message in err. */
static int check_names(const char *const *names, size_t n, uint16_t enc_flags,
		       struct f2fs_error *err)
{
	char dir[] = "/tmp/f2fs-cf-XXXXXX", path[600];
	struct f2fs_tree t;
	int ret;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (size_t i = 0; i < n; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		f = fopen(path, "w");
		ck_assert_msg(f != NULL, "create %s", names[i]);
		fclose(f);
	}
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(f2fs_tree_scan(&t, dir, NULL, 0, err), 0);
	t.inodes[0].casefold = 1;
	ret = populate_check_tree(&t, F2FS_FEATURE_CASEFOLD, enc_flags, err);
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
	f2fs_tree_free(&t);
	return ret;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

START_TEST(any_names_accepted)
{
	static const char *const names[] = {
		"Readme.TXT", u8"Stra\u00DFe", u8"\u0395\u03BB\u03BB\u03B7\u03BD\u03B9\u03BA\u03AC",
		u8"\uD55C\uAD6D\uC5B4", u8"\U0001F600", u8"caf\u00E9", "bad\xFF" "name",
		u8"\u200B",
	};
	struct f2fs_error err;

	ck_assert_int_eq(check_names(names, N(names), 0, &err), 0);
}
END_TEST

START_TEST(same_key_refused)
{
	static const char *const sharp[] = { u8"Stra\u00DFe", "STRASSE", "other" };
	static const char *const nfd[] = { u8"caf\u00E9", u8"CAFE\u0301" };
	static const char *const sigma[] = { u8"\u03BF\u03B4\u03BF\u03C2", u8"\u039F\u0394\u039F\u03A3" };
	struct f2fs_error err;

	ck_assert_int_eq(check_names(sharp, N(sharp), 0, &err), -F2FS_E_BAD_OPTION);
	ck_assert_msg(strstr(err.msg, u8"is case-insensitive, where 'STRASSE' and 'Stra\u00DFe' are one name"),
		      "%s", err.msg);
	ck_assert_int_eq(check_names(nfd, N(nfd), 0, &err), -F2FS_E_BAD_OPTION);
	ck_assert_int_eq(check_names(sigma, N(sigma), 0, &err), -F2FS_E_BAD_OPTION);
}
END_TEST

START_TEST(strict_refuses_keyless)
{
	static const char *const bad[] = { "ok", "bad\xFF" "name" };
	static const char *const empty[] = { u8"\u200B\u00AD" };
	static const char *const fine[] = { u8"Stra\u00DFe", "x" };
	struct f2fs_error err;

	ck_assert_int_eq(check_names(bad, N(bad), F2FS_ENC_STRICT_MODE_FL, &err), -F2FS_E_BAD_OPTION);
	ck_assert_msg(strstr(err.msg, "-C utf8:strict refuses a name that is not valid UTF-8: 'bad"),
		      "%s", err.msg);
	ck_assert_int_eq(check_names(empty, N(empty), F2FS_ENC_STRICT_MODE_FL, &err), -F2FS_E_BAD_OPTION);
	ck_assert_msg(strstr(err.msg, "folds to nothing"), "%s", err.msg);
	ck_assert_int_eq(check_names(fine, N(fine), F2FS_ENC_STRICT_MODE_FL, &err), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rootdir_casefold");
	TCase *tc = tcase_create("names");

	tcase_add_test(tc, any_names_accepted);
	tcase_add_test(tc, same_key_refused);
	tcase_add_test(tc, strict_refuses_keyless);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
