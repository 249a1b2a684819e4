/* Image builder: extended attributes from the host, in F2FS's layout. */
#include "build.h"

#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#define ACL_XATTR_VERSION 2   /* the VFS's posix_acl_xattr form */
#define F2FS_ACL_VERSION  1
#define ACL_USER  0x02
#define ACL_GROUP 0x08

struct prefix {
	const char *name;
	uint8_t index;
	bool whole;   /* the name is all prefix (ACLs) */
};

static const struct prefix prefixes[] = {
	{ "user.", F2FS_XATTR_INDEX_USER, false },
	{ "trusted.", F2FS_XATTR_INDEX_TRUSTED, false },
	{ "security.", F2FS_XATTR_INDEX_SECURITY, false },
	{ "system.posix_acl_access", F2FS_XATTR_INDEX_POSIX_ACL_ACCESS, true },
	{ "system.posix_acl_default", F2FS_XATTR_INDEX_POSIX_ACL_DEFAULT, true },
};

static const struct prefix *find_prefix(const char *name)
{
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i].name);

		if (prefixes[i].whole ? !strcmp(name, prefixes[i].name)
				      : !strncmp(name, prefixes[i].name, n))
			return &prefixes[i];
	}
	return NULL;
}

/* VFS ACL (4-byte header, 8-byte entries) to F2FS ACL (short entries
 * for the owner/group/mask/other tags). */
static int convert_acl(const uint8_t *in, size_t len, uint8_t *out, size_t *olen)
{
	size_t o = 4;

	if (len < 4 || (len - 4) % 8 || le32_load(in) != ACL_XATTR_VERSION)
		return -EINVAL;
	le32_store(out, F2FS_ACL_VERSION);
	for (size_t i = 4; i < len; i += 8) {
		uint16_t tag = (uint16_t)(in[i] | in[i + 1] << 8);

		memcpy(out + o, in + i, 4);    /* tag and perm */
		o += 4;
		if (tag == ACL_USER || tag == ACL_GROUP) {
			memcpy(out + o, in + i + 4, 4);
			o += 4;
		}
	}
	*olen = o;
	return 0;
}

static int add_entry(uint8_t *buf, size_t cap, size_t *used, uint8_t index,
		     const char *name, const uint8_t *val, size_t vlen,
		     const char *path, struct f2fs_error *err)
{
	size_t nlen = strlen(name), size = (4 + nlen + vlen + 3) & ~(size_t)3;
	uint8_t *e = buf + *used;

	if (nlen > 255 || vlen > 0xFFFF || *used + size + 4 > cap)
		return f2fs_fail(err, -F2FS_E_NO_SPACE,
				 "%s: extended attributes exceed the %zu bytes an inode holds",
				 path, cap);
	memset(e, 0, size);
	e[0] = index;
	e[1] = (uint8_t)nlen;
	e[2] = (uint8_t)vlen;
	e[3] = (uint8_t)(vlen >> 8);
	memcpy(e + 4, name, nlen);
	memcpy(e + 4 + nlen, val, vlen);
	*used += size;
	return 0;
}

static int add_host_xattr(const char *path, const char *name, uint8_t *buf, size_t cap,
			  size_t *used, struct f2fs_error *err)
{
	const struct prefix *p = find_prefix(name);
	uint8_t val[65536], acl[65536];
	ssize_t vlen;
	size_t alen;

	if (!p)
		return 0;   /* other namespaces have no F2FS index */
	vlen = lgetxattr(path, name, val, sizeof(val));
	if (vlen < 0)
		return f2fs_fail(err, -errno, "%s: cannot read xattr %s: %s", path, name,
				 strerror(errno));
	if (p->whole) {
		if (convert_acl(val, (size_t)vlen, acl, &alen))
			return f2fs_fail(err, -EINVAL, "%s: malformed ACL in %s", path, name);
		return add_entry(buf, cap, used, p->index, "", acl, alen, path, err);
	}
	return add_entry(buf, cap, used, p->index, name + strlen(p->name), val,
			 (size_t)vlen, path, err);
}

int bld_xattr_read(const char *path, uint8_t *buf, size_t cap, size_t *len,
		   struct f2fs_error *err)
{
	char list[65536];
	ssize_t n = llistxattr(path, list, sizeof(list));
	struct f2fs_xattr_header *h = (struct f2fs_xattr_header *)buf;
	size_t used = sizeof(*h);
	int ret = 0;

	*len = 0;
	if (n <= 0)
		return 0;
	memset(buf, 0, cap);
	for (ssize_t off = 0; off < n && !ret; off += (ssize_t)strlen(list + off) + 1)
		ret = add_host_xattr(path, list + off, buf, cap, &used, err);
	if (ret || used == sizeof(*h))
		return ret;
	h->h_magic = le32_put(F2FS_XATTR_MAGIC);
	h->h_refcount = le32_put(1);
	*len = used + 4;   /* the zero word that ends the list */
	return 0;
}

int bld_xattr_store(struct bld *b, struct f2fs_node *inode, uint32_t ino, bool dir,
		    const uint8_t *buf, size_t len, uint32_t *nodes)
{
	uint32_t words = f2fs_inode_inline_xattr_words(&inode->i, b->features);
	size_t inline_bytes = (size_t)words * 4;
	uint8_t *area = (uint8_t *)inode->i.i_addr + 4 * (F2FS_DEF_ADDRS_PER_INODE - words);
	struct f2fs_node xn;
	uint32_t nid;

	*nodes = 0;
	memcpy(area, buf, len < inline_bytes ? len : inline_bytes);
	if (len <= inline_bytes)
		return 0;
	memset(&xn, 0, sizeof(xn));
	memcpy(&xn, buf + inline_bytes, len - inline_bytes);
	nid = bld_alloc_nid(b);
	if (!nid)
		return b->err->code;
	inode->i.i_xattr_nid = le32_put(nid);
	*nodes = 1;
	/* the kernel counts xattr nodes as direct nodes when placing them */
	return bld_write_node(b, &xn, nid, ino, F2FS_XATTR_NODE_OFFSET, dir,
			      dir ? F2FS_SEG_HOT_NODE : F2FS_SEG_WARM_NODE);
}
