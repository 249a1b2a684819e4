/* POSIX ACLs as F2FS stores them in the posix_acl_access/default xattrs. */
#ifndef F2FS_FORMAT_ACL_H
#define F2FS_FORMAT_ACL_H

#include <stddef.h>
#include <stdint.h>

#define F2FS_ACL_VERSION 1   /* the 4-byte header */

enum f2fs_acl_tag {
	F2FS_ACL_USER_OBJ  = 0x01,
	F2FS_ACL_USER      = 0x02,   /* named: an 8-byte entry with its id */
	F2FS_ACL_GROUP_OBJ = 0x04,
	F2FS_ACL_GROUP     = 0x08,   /* named: an 8-byte entry with its id */
	F2FS_ACL_MASK      = 0x10,
	F2FS_ACL_OTHER     = 0x20,
};

/* Why the kernel would refuse value (len bytes) as an ACL, or NULL when it
 * reads one: the header's version, the entry count its size implies (up to
 * four short entries, then long ones), each entry's tag and length. A
 * refused ACL makes every permission check that consults it fail. */
const char *f2fs_acl_refusal(const uint8_t *value, size_t len);

#endif
