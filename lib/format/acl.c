/* Whether an ACL xattr value reads as the kernel's f2fs_acl_from_disk reads it. */
#include <f2fs/format/acl.h>
#include <f2fs/format/endian.h>

enum { HEADER = 4, SHORT = 4, LONG = 8 };

/* The kernel sizes the array before it reads a tag: the first four
 * entries are taken as short ones, the rest as long ones. */
static int implied_count(size_t len)
{
	size_t body = len - HEADER;

	if (body <= 4 * SHORT)
		return body % SHORT ? -1 : (int)(body / SHORT);
	body -= 4 * SHORT;
	return body % LONG ? -1 : (int)(body / LONG) + 4;
}

const char *f2fs_acl_refusal(const uint8_t *value, size_t len)
{
	size_t at = HEADER;
	int count;

	if (len < HEADER)
		return "shorter than the ACL header";
	if (le32_load(value) != F2FS_ACL_VERSION)
		return "the ACL header's version is not 1";
	count = implied_count(len);
	if (count < 0)
		return "its size is no whole number of ACL entries";
	for (int k = 0; k < count; k++) {
		uint16_t tag;

		if (at + SHORT > len)
			return "an ACL entry runs past the value";
		tag = (uint16_t)(value[at] | value[at + 1] << 8);
		switch (tag) {
		case F2FS_ACL_USER_OBJ: case F2FS_ACL_GROUP_OBJ:
		case F2FS_ACL_MASK: case F2FS_ACL_OTHER:
			at += SHORT;
			break;
		case F2FS_ACL_USER: case F2FS_ACL_GROUP:
			at += LONG;
			break;
		default:
			return "an ACL entry has an unknown tag";
		}
	}
	return at == len ? NULL : "its entries do not fill the value";
}
