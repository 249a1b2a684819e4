/* Inode layout rules and node footers. */
#include <f2fs/format/inode.h>
#include <f2fs/format/crc.h>
#include <f2fs/format/endian.h>

#include <string.h>

uint16_t f2fs_extra_isize_for(uint32_t features)
{
	if (features & F2FS_FEATURE_COMPRESSION)
		return F2FS_EXTRA_ISIZE_COMPRESS;
	if (features & F2FS_FEATURE_INODE_CRTIME)
		return F2FS_EXTRA_ISIZE_CRTIME;
	if (features & F2FS_FEATURE_INODE_CHKSUM)
		return F2FS_EXTRA_ISIZE_CHKSUM;
	if (features & F2FS_FEATURE_PRJQUOTA)
		return F2FS_EXTRA_ISIZE_PROJID;
	return F2FS_EXTRA_ISIZE_BASE;
}

uint32_t f2fs_inode_extra_words(const struct f2fs_inode *i)
{
	uint32_t words;

	if (!(i->i_inline & F2FS_EXTRA_ATTR))
		return 0;
	/* a damaged size stays inside i_addr, so that nothing indexes past
	 * it (checks judge the size itself) */
	words = le16_get(i->extra.i_extra_isize) / 4u;
	return words < F2FS_DEF_ADDRS_PER_INODE - 1 ? words : F2FS_DEF_ADDRS_PER_INODE - 1;
}

uint32_t f2fs_inode_inline_xattr_words(const struct f2fs_inode *i, uint32_t features)
{
	if ((i->i_inline & F2FS_EXTRA_ATTR) &&
	    (features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR))
		return le16_get(i->extra.i_inline_xattr_size);
	if (i->i_inline & (F2FS_INLINE_XATTR | F2FS_INLINE_DENTRY))
		return F2FS_DEF_INLINE_XATTR_ADDRS;
	return 0;
}

uint32_t f2fs_inode_addrs(const struct f2fs_inode *i, uint32_t features)
{
	uint32_t used = f2fs_inode_extra_words(i) +
			f2fs_inode_inline_xattr_words(i, features);

	return used < F2FS_DEF_ADDRS_PER_INODE ? F2FS_DEF_ADDRS_PER_INODE - used : 0;
}

uint32_t f2fs_inode_inline_offset(const struct f2fs_inode *i)
{
	return (uint32_t)__builtin_offsetof(struct f2fs_inode, i_addr) +
	       4 * (f2fs_inode_extra_words(i) + 1);
}

int f2fs_inode_compressed(const struct f2fs_inode *i, uint32_t features)
{
	return (le32_get(i->i_flags) & F2FS_COMPR_FL) && (features & F2FS_FEATURE_COMPRESSION) &&
	       (i->i_inline & F2FS_EXTRA_ATTR) && (le16_get(i->i_mode) & F2FS_S_IFMT) == F2FS_S_IFREG;
}

uint32_t f2fs_inode_inline_bytes(const struct f2fs_inode *i, uint32_t features)
{
	uint32_t addrs = f2fs_inode_addrs(i, features);

	return addrs > 1 ? 4 * (addrs - 1) : 0;
}

uint32_t f2fs_inode_get_addr(const struct f2fs_inode *i, uint32_t idx)
{
	return le32_get(i->i_addr[f2fs_inode_extra_words(i) + idx]);
}

void f2fs_inode_set_addr(struct f2fs_inode *i, uint32_t idx, uint32_t blkaddr)
{
	i->i_addr[f2fs_inode_extra_words(i) + idx] = le32_put(blkaddr);
}

void f2fs_inode_set_rdev(struct f2fs_inode *i, uint32_t major, uint32_t minor)
{
	if (major < 256 && minor < 256) {
		f2fs_inode_set_addr(i, 0, (major << 8) | minor);
		f2fs_inode_set_addr(i, 1, 0);
	} else {
		f2fs_inode_set_addr(i, 0, 0);
		f2fs_inode_set_addr(i, 1, (minor & 0xFFu) | (major << 8) | ((minor & ~0xFFu) << 12));
	}
}

void f2fs_inode_get_rdev(const struct f2fs_inode *i, uint32_t *major, uint32_t *minor)
{
	uint32_t old = f2fs_inode_get_addr(i, 0), wide = f2fs_inode_get_addr(i, 1);

	if (old) {
		*major = (old >> 8) & 0xFFu;
		*minor = old & 0xFFu;
	} else {
		*major = (wide >> 8) & 0xFFFu;
		*minor = (wide & 0xFFu) | ((wide >> 12) & 0xFFF00u);
	}
}

static void init_extra(struct f2fs_inode *i, const struct f2fs_inode_attrs *a)
{
	if (!(a->features & F2FS_FEATURE_EXTRA_ATTR))
		return;
	i->i_inline |= F2FS_EXTRA_ATTR;
	i->extra.i_extra_isize = le16_put(f2fs_extra_isize_for(a->features));
	if (a->features & F2FS_FEATURE_INODE_CRTIME) {
		i->extra.i_crtime = le64_put((uint64_t)a->time);
		i->extra.i_crtime_nsec = 0;
	}
}

void f2fs_inode_init(struct f2fs_node *n, const struct f2fs_inode_attrs *a)
{
	struct f2fs_inode *i = &n->i;

	memset(n, 0, sizeof(*n));
	i->i_mode = le16_put(a->mode);
	i->i_uid = le32_put(a->uid);
	i->i_gid = le32_put(a->gid);
	i->i_links = le32_put(a->links);
	i->i_size = le64_put(a->size);
	i->i_blocks = le64_put(a->blocks);
	i->i_atime = i->i_ctime = i->i_mtime = le64_put((uint64_t)a->time);
	i->i_current_depth = le32_put(a->depth);
	i->i_flags = le32_put(a->flags);
	i->i_pino = le32_put(a->pino);
	if (a->name) {
		size_t len = strlen(a->name);

		if (len > F2FS_NAME_LEN)
			len = F2FS_NAME_LEN;
		memcpy(i->i_name, a->name, len);
		i->i_namelen = le32_put((uint32_t)len);
	}
	init_extra(i, a);
}

void f2fs_node_footer_set(struct f2fs_node *n, uint32_t nid, uint32_t ino,
			  uint32_t ofs, uint32_t flags, uint64_t cp_ver,
			  uint32_t next_blkaddr)
{
	n->footer.nid = le32_put(nid);
	n->footer.ino = le32_put(ino);
	n->footer.flag = le32_put((ofs << F2FS_NODE_OFS_SHIFT) | flags);
	n->footer.cp_ver = le64_put(cp_ver);
	n->footer.next_blkaddr = le32_put(next_blkaddr);
}

int f2fs_inode_has_checksum(const struct f2fs_node *n, uint32_t features)
{
	return (features & F2FS_FEATURE_INODE_CHKSUM) &&
	       (n->i.i_inline & F2FS_EXTRA_ATTR) &&
	       le16_get(n->i.extra.i_extra_isize) >= F2FS_EXTRA_ISIZE_CHKSUM;
}

void f2fs_inode_seal(struct f2fs_node *n, uint32_t features, uint32_t crc_seed)
{
	if (f2fs_inode_has_checksum(n, features))
		n->i.extra.i_inode_checksum = le32_put(f2fs_inode_crc(n, crc_seed));
}
