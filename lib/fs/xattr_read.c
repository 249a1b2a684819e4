/* Extended attributes of an inode: the inline area and the xattr node read as one list. */
#include <f2fs/fs/xattr.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/fs/nat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Inline area (at most the whole pointer array) plus a node's payload. */
#define AREA_MAX (F2FS_DEF_ADDRS_PER_INODE * 4 + F2FS_BLKSIZE)
#define ENTRY_HEAD 4u   /* index, name length, value length (le16) */

const char *f2fs_xattr_prefix(uint8_t index)
{
	switch (index) {
	case F2FS_XATTR_INDEX_USER: return "user.";
	case F2FS_XATTR_INDEX_POSIX_ACL_ACCESS: return "system.posix_acl_access";
	case F2FS_XATTR_INDEX_POSIX_ACL_DEFAULT: return "system.posix_acl_default";
	case F2FS_XATTR_INDEX_TRUSTED: return "trusted.";
	case F2FS_XATTR_INDEX_SECURITY: return "security.";
	default: return NULL;
	}
}

/* The kernel keeps the two parts back to back in memory; so do we, so an
 * entry may straddle them. Returns the bytes gathered, or < 0. */
static long gather(struct f2fs_fs *fs, const struct f2fs_inode *i, uint8_t *buf,
		   struct f2fs_error *err)
{
	uint32_t words = f2fs_inode_inline_xattr_words(i, f2fs_fs_features(fs));
	uint32_t xnid = le32_get(i->i_xattr_nid);
	size_t len = (size_t)words * 4;
	struct f2fs_node *xn;
	int ret;

	if (words > F2FS_DEF_ADDRS_PER_INODE)
		return f2fs_fail(err, -F2FS_E_CORRUPT, "inline xattr area of %u words", words);
	memcpy(buf, (const uint8_t *)i->i_addr + 4 * (F2FS_DEF_ADDRS_PER_INODE - words), len);
	if (!xnid)
		return (long)len;
	xn = malloc(sizeof(*xn));
	if (!xn)
		return f2fs_fail(err, -ENOMEM, "out of memory");
	ret = f2fs_read_node(fs, xnid, xn, err);
	if (!ret) {
		memcpy(buf + len, xn, F2FS_BLKSIZE - sizeof(struct f2fs_node_footer));
		len += F2FS_BLKSIZE - sizeof(struct f2fs_node_footer);
	}
	free(xn);
	return ret ? ret : (long)len;
}

static int walk(const uint8_t *buf, size_t len, f2fs_xattr_cb cb, void *arg,
		struct f2fs_error *err)
{
	size_t off = sizeof(struct f2fs_xattr_header);

	/* a zero word where an entry would start ends the list */
	while (off + ENTRY_HEAD <= len && le32_load(buf + off)) {
		struct f2fs_xattr x = {
			.index = buf[off],
			.name_len = buf[off + 1],
			.value_len = (uint16_t)(buf[off + 2] | buf[off + 3] << 8),
		};
		size_t size = (ENTRY_HEAD + x.name_len + x.value_len + F2FS_XATTR_ALIGN - 1) &
			      ~(size_t)(F2FS_XATTR_ALIGN - 1);
		int ret;

		if (off + size > len)
			return f2fs_fail(err, -F2FS_E_CORRUPT,
					 "xattr entry at byte %zu runs past its area", off);
		x.name = buf + off + ENTRY_HEAD;
		x.value = x.name + x.name_len;
		ret = cb(&x, arg);
		if (ret)
			return ret;
		off += size;
	}
	return 0;
}

int f2fs_xattr_foreach(struct f2fs_fs *fs, const struct f2fs_inode *inode,
		       f2fs_xattr_cb cb, void *arg, struct f2fs_error *err)
{
	uint8_t *buf = calloc(1, AREA_MAX);
	long len;
	int ret = 0;

	if (!buf)
		return f2fs_fail(err, -ENOMEM, "out of memory");
	len = gather(fs, inode, buf, err);
	if (len < 0)
		ret = (int)len;
	else if ((size_t)len >= sizeof(struct f2fs_xattr_header) &&
		 le32_load(buf) == F2FS_XATTR_MAGIC)
		ret = walk(buf, (size_t)len, cb, arg, err);
	free(buf);
	return ret;
}
