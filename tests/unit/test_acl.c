/*
 * f2fs_acl_refusal: which ACL xattr values the kernel reads. The accepted
 * ones are laid out as the kernel writes them (setfacl on Linux 6.1); the
 * refused ones are each one step away from them.
 */
#include <check.h>

#include <f2fs/format/acl.h>

#include <string.h>

#include "unit.h"

/* user::rw-, user:1000:r--, group::r--, mask::r--, other::r-- */
static const uint8_t named[] = {
	1, 0, 0, 0,
	0x01, 0, 6, 0,
	0x02, 0, 4, 0, 0xe8, 0x03, 0, 0,
	0x04, 0, 4, 0,
	0x10, 0, 4, 0,
	0x20, 0, 4, 0,
};

/* user::rw-, group::r--, other::r-- (a default ACL of a plain mode) */
static const uint8_t minimal[] = {
	1, 0, 0, 0,
	0x01, 0, 6, 0,
	0x04, 0, 4, 0,
	0x20, 0, 4, 0,
};

START_TEST(test_accepted)
{
	static const uint8_t header_only[] = { 1, 0, 0, 0 };

	ck_assert_ptr_null(f2fs_acl_refusal(named, sizeof(named)));
	ck_assert_ptr_null(f2fs_acl_refusal(minimal, sizeof(minimal)));
	/* no entries: the kernel reads "no ACL" */
	ck_assert_ptr_null(f2fs_acl_refusal(header_only, sizeof(header_only)));
}
END_TEST

START_TEST(test_refused)
{
	uint8_t v[sizeof(named)];

	ck_assert_ptr_nonnull(f2fs_acl_refusal(named, 3));
	memcpy(v, named, sizeof(v));
	v[0] = 2;   /* the VFS's version, not F2FS's */
	ck_assert_ptr_nonnull(f2fs_acl_refusal(v, sizeof(v)));
	memcpy(v, named, sizeof(v));
	v[24] = 0x40;   /* an unknown tag */
	ck_assert_ptr_nonnull(f2fs_acl_refusal(v, sizeof(v)));
	/* sizes that are no whole number of entries */
	ck_assert_ptr_nonnull(f2fs_acl_refusal(minimal, sizeof(minimal) - 2));
	ck_assert_ptr_nonnull(f2fs_acl_refusal(named, sizeof(named) - 4));
	/* a named entry among the first four short ones: the size implies
	 * three short entries, the walk needs more bytes than there are */
	memcpy(v, minimal, sizeof(minimal));
	v[8] = 0x08;
	ck_assert_ptr_nonnull(f2fs_acl_refusal(v, sizeof(minimal)));
}
END_TEST

static Suite *acl_suite(void)
{
	Suite *s = suite_create("acl");
	TCase *t = tcase_create("refusal");

	tcase_add_test(t, test_accepted);
	tcase_add_test(t, test_refused);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return unit_run(acl_suite());
}
