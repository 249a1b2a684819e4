/* Directory reading: dentry blocks, inline dentries, name and path lookup. */
#include <f2fs/fs/dir.h>
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/hash.h>
#include <f2fs/format/inode.h>
#include <f2fs/fs/nat.h>

#include "fs_priv.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define DENTRY_SLOT_SIZE (sizeof(struct f2fs_dir_entry) + F2FS_SLOT_LEN)   /* 19 */

/* Where the parts of a dentry area (block or inline) are. */
struct dentry_area {
	const uint8_t *bitmap;                  /* LSB-first */
	const struct f2fs_dir_entry *dentry;    /* packed: alignment 1 */
	const uint8_t (*names)[F2FS_SLOT_LEN];
	uint32_t nslots;
};

static int slot_used(const uint8_t *bitmap, uint32_t i)
{
	return (bitmap[i / 8] >> (i % 8)) & 1;
}

static int scan_area(const struct dentry_area *a, uint32_t dir, uint64_t block,
		     f2fs_dir_cb cb, void *arg, struct f2fs_error *err)
{
	uint32_t i = 0;

	while (i < a->nslots) {
		const struct f2fs_dir_entry *de = &a->dentry[i];
		struct f2fs_dirent e;
		uint32_t len, slots;
		int ret;

		if (!slot_used(a->bitmap, i)) {
			i++;
			continue;
		}
		len = le16_get(de->name_len);
		if (len == 0) {        /* the kernel skips such a slot too */
			i++;
			continue;
		}
		slots = f2fs_dentry_slots(len);
		if (len > F2FS_NAME_LEN || i + slots > a->nslots) {
			if (block == F2FS_DIRENT_INLINE)
				return f2fs_fail(err, -F2FS_E_CORRUPT,
						 "directory %u: inline slot %u: name length %u runs past the %u slots",
						 dir, i, len, a->nslots);
			return f2fs_fail(err, -F2FS_E_CORRUPT,
					 "directory %u: block %llu slot %u: name length %u runs past the %u slots",
					 dir, (unsigned long long)block, i, len, a->nslots);
		}
		e.name = a->names[i];
		e.name_len = len;
		e.ino = le32_get(de->ino);
		e.hash = le32_get(de->hash_code);
		e.file_type = de->file_type;
		e.block = block;
		e.slot = i;
		ret = cb(&e, arg);
		if (ret)
			return ret;
		i += slots;
	}
	return 0;
}

static int foreach_inline(struct f2fs_fs *fs, uint32_t dir, const struct f2fs_node *inode,
			  f2fs_dir_cb cb, void *arg, struct f2fs_error *err)
{
	const struct f2fs_inode *i = &inode->i;
	uint32_t extra = f2fs_inode_extra_words(i);
	uint32_t xattr = f2fs_inode_inline_xattr_words(i, le32_get(fs->sb.feature));
	uint32_t size, n;
	const uint8_t *base;
	struct dentry_area a;

	/* one reserved pointer before the area, and room for at least one slot */
	if ((uint64_t)extra + xattr + 1 >= F2FS_DEF_ADDRS_PER_INODE)
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "directory %u: extra size (%u words) and inline xattrs (%u words) leave no inline dentry area",
				 dir, extra, xattr);
	size = 4 * (F2FS_DEF_ADDRS_PER_INODE - extra - xattr - 1);
	n = size * 8 / (DENTRY_SLOT_SIZE * 8 + 1);
	if (n == 0)
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "directory %u: inline dentry area of %u bytes holds no slot",
				 dir, size);
	base = (const uint8_t *)&i->i_addr[extra + 1];
	a.bitmap = base;
	/* the reserved bytes sit between the bitmap and the entries */
	a.dentry = (const struct f2fs_dir_entry *)(base + size - n * DENTRY_SLOT_SIZE);
	a.names = (const uint8_t (*)[F2FS_SLOT_LEN])(base + size - n * F2FS_SLOT_LEN);
	a.nslots = n;
	return scan_area(&a, dir, F2FS_DIRENT_INLINE, cb, arg, err);
}

static int foreach_blocks(struct f2fs_fs *fs, uint32_t dir, const struct f2fs_node *inode,
			  f2fs_dir_cb cb, void *arg, struct f2fs_error *err)
{
	uint64_t size = le64_get(inode->i.i_size);
	uint64_t nblocks = size / F2FS_BLKSIZE + (size % F2FS_BLKSIZE != 0);
	uint64_t max = f2fs_file_max_blocks(fs, inode);
	uint64_t main_blocks = (uint64_t)le32_get(fs->sb.segment_count_main) *
			       F2FS_BLOCKS_PER_SEG;
	uint64_t visited = 0;
	struct f2fs_dentry_block *blk = malloc(sizeof(*blk));
	struct dentry_area a;
	int ret = 0;

	if (!blk)
		return f2fs_fail(err, -ENOMEM, "out of memory");
	if (nblocks > max)
		nblocks = max;
	a.bitmap = blk->dentry_bitmap;
	a.dentry = blk->dentry;
	a.names = (const uint8_t (*)[F2FS_SLOT_LEN])blk->filename;
	a.nslots = F2FS_NR_DENTRY_IN_BLOCK;
	for (uint64_t fofs = 0; fofs < nblocks; ) {
		uint32_t addr;
		uint64_t run;

		ret = f2fs_file_block(fs, inode, fofs, &addr, &run, err);
		if (ret)
			break;
		if (addr == F2FS_NULL_ADDR || addr == F2FS_NEW_ADDR ||
		    addr == F2FS_COMPRESS_ADDR) {
			fofs += run ? run : 1;
			continue;
		}
		if (!f2fs_fs_in_main(fs, addr)) {
			ret = f2fs_fail(err, -F2FS_E_CORRUPT,
					"directory %u: block %llu at address 0x%x is outside the main area",
					dir, (unsigned long long)fofs, addr);
			break;
		}
		if (++visited > main_blocks) {
			ret = f2fs_fail(err, -F2FS_E_CORRUPT,
					"directory %u: maps more blocks than the main area holds",
					dir);
			break;
		}
		ret = f2fs_dev_read(fs->dev, addr, blk, 1, err);
		if (!ret)
			ret = scan_area(&a, dir, fofs, cb, arg, err);
		if (ret)
			break;
		fofs++;
	}
	free(blk);
	return ret;
}

static int dir_foreach(struct f2fs_fs *fs, uint32_t ino, int any_mode, f2fs_dir_cb cb, void *arg,
		       struct f2fs_error *err)
{
	struct f2fs_node *inode = malloc(sizeof(*inode));
	int ret;

	if (!inode)
		return f2fs_fail(err, -ENOMEM, "out of memory");
	ret = f2fs_read_inode(fs, ino, inode, err);
	if (ret)
		goto out;
	if (!any_mode && (le16_get(inode->i.i_mode) & F2FS_S_IFMT) != F2FS_S_IFDIR) {
		ret = f2fs_fail(err, -ENOTDIR, "inode %u is not a directory", ino);
		goto out;
	}
	if (inode->i.i_inline & F2FS_INLINE_DENTRY)
		ret = foreach_inline(fs, ino, inode, cb, arg, err);
	else
		ret = foreach_blocks(fs, ino, inode, cb, arg, err);
out:
	free(inode);
	return ret;
}

int f2fs_dir_foreach(struct f2fs_fs *fs, uint32_t ino, f2fs_dir_cb cb, void *arg,
		     struct f2fs_error *err)
{
	return dir_foreach(fs, ino, 0, cb, arg, err);
}

int f2fs_dir_foreach_content(struct f2fs_fs *fs, uint32_t ino, f2fs_dir_cb cb, void *arg,
			     struct f2fs_error *err)
{
	return dir_foreach(fs, ino, 1, cb, arg, err);
}

struct lookup_ctx {
	const uint8_t *name;
	size_t len;
	uint32_t ino;
	uint8_t type;
	/* a casefolded directory: names match by their key, as the kernel's
	 * lookup matches them (a name without a key only byte for byte) */
	bool casefold;
	int klen;                 /* > 0: the key of name */
	uint8_t key[F2FS_UTF8_CAP];
};

static bool same_name(const struct lookup_ctx *c, const uint8_t *name, size_t len)
{
	uint8_t key[F2FS_UTF8_CAP];
	int k;

	if (len == c->len && !memcmp(name, c->name, len))
		return true;
	if (!c->casefold || c->klen <= 0)
		return false;
	k = f2fs_casefold_name(name, len, key);
	return k == c->klen && !memcmp(key, c->key, (size_t)k);
}

static int match_cb(const struct f2fs_dirent *de, void *arg)
{
	struct lookup_ctx *c = arg;

	if (!same_name(c, de->name, de->name_len))
		return 0;
	c->ino = de->ino;
	c->type = de->file_type;
	return 1;
}

/* Is dir a casefolded directory whose names the key compares (not also
 * encrypted: its stored names are ciphertext)? */
static int casefolded(struct f2fs_fs *fs, uint32_t dir, bool *out, struct f2fs_error *err)
{
	struct f2fs_node n;
	uint32_t flags;
	int ret;

	*out = false;
	if (!(le32_get(fs->sb.feature) & F2FS_FEATURE_CASEFOLD))
		return 0;
	ret = f2fs_read_inode(fs, dir, &n, err);
	if (ret)
		return ret;
	flags = le32_get(n.i.i_flags);
	*out = (flags & F2FS_CASEFOLD_FL) && !(n.i.i_advise & F2FS_ADVISE_ENCRYPT);
	return 0;
}

int f2fs_dir_lookup(struct f2fs_fs *fs, uint32_t dir, const uint8_t *name,
		    size_t len, uint32_t *ino, uint8_t *file_type,
		    struct f2fs_error *err)
{
	/* TODO: hashed lookup (levels/buckets) */
	struct lookup_ctx c = { .name = name, .len = len };
	int ret;

	if (len == 0 || len > F2FS_NAME_LEN)
		return f2fs_fail(err, -ENAMETOOLONG, "name of %zu bytes", len);
	ret = casefolded(fs, dir, &c.casefold, err);
	if (ret)
		return ret;
	if (c.casefold)
		c.klen = f2fs_casefold_name(name, len, c.key);
	ret = f2fs_dir_foreach(fs, dir, match_cb, &c, err);
	if (ret < 0)
		return ret;
	if (ret == 0)
		return f2fs_fail(err, -ENOENT, "directory %u has no entry \"%.*s\"",
				 dir, (int)len, (const char *)name);
	if (ino)
		*ino = c.ino;
	if (file_type)
		*file_type = c.type;
	return 0;
}

int f2fs_path_lookup(struct f2fs_fs *fs, const char *path, uint32_t *ino,
		     struct f2fs_error *err)
{
	uint32_t cur = le32_get(fs->sb.root_ino);
	const char *p = path;
	int ret;

	for (;;) {
		const char *end;
		size_t len;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = strchr(p, '/');
		len = end ? (size_t)(end - p) : strlen(p);
		if (len > F2FS_NAME_LEN)
			return f2fs_fail(err, -ENAMETOOLONG, "%s: name too long", path);
		ret = f2fs_dir_lookup(fs, cur, (const uint8_t *)p, len, &cur, NULL, err);
		if (ret == -ENOENT)
			return f2fs_fail(err, -ENOENT, "%.*s: no such file or directory",
					 (int)(p - path + len), path);
		if (ret == -ENOTDIR)
			return f2fs_fail(err, -ENOTDIR, "%.*s: not a directory",
					 (int)(p - path - 1 > 0 ? p - path - 1 : 0), path);
		if (ret)
			return ret;
		p += len;
	}
	/* "file/" names a directory, as the kernel's lookup takes it */
	if (p > path && p[-1] == '/' && cur != le32_get(fs->sb.root_ino)) {
		struct f2fs_node n;

		ret = f2fs_read_inode(fs, cur, &n, err);
		if (ret)
			return ret;
		if ((le16_get(n.i.i_mode) & F2FS_S_IFMT) != F2FS_S_IFDIR)
			return f2fs_fail(err, -ENOTDIR, "%s: not a directory", path);
	}
	*ino = cur;
	return 0;
}
