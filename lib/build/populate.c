/* mkfs: root, lost+found, a source tree and the quota files, in that order. */
#include "loader.h"
#include "populate.h"
#include "source.h"

#include <f2fs/util/sort.h>
#include <f2fs/util/vec.h>
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/hash.h>
#include <f2fs/format/inode.h>
#include <f2fs/format/quota.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define LPF_NAME "lost+found"
#define READ_CHUNK_BLOCKS 256

struct usage_table {
	struct f2fs_quota_usage *u;
	size_t n, cap, last;
};

struct pop {
	struct bld *b;
	const struct f2fs_mkfs_options *o;
	const struct f2fs_super_block *sb;
	struct f2fs_tree *t;
	int64_t now;
	uint32_t lpf_tree;                 /* tree inode used as lost+found, or 0 */
	struct usage_table quota[F2FS_MAX_QUOTAS];
	uint8_t *buf;                      /* READ_CHUNK_BLOCKS blocks */
	struct src_reader src;             /* the --rootdir files */
	struct src_loader *loader;         /* or NULL: read them all here */
	struct f2fs_error *err;
};

void populate_quota_inos(uint32_t features, uint32_t qf_ino[F2FS_MAX_QUOTAS])
{
	memset(qf_ino, 0, F2FS_MAX_QUOTAS * sizeof(*qf_ino));
	if (!(features & F2FS_FEATURE_QUOTA_INO))
		return;
	qf_ino[F2FS_QUOTA_USR] = F2FS_ROOT_INO + 1;
	qf_ino[F2FS_QUOTA_GRP] = F2FS_ROOT_INO + 2;
	if (features & F2FS_FEATURE_PRJQUOTA)
		qf_ino[F2FS_QUOTA_PRJ] = F2FS_ROOT_INO + 3;
}

/* ---- quota usage ---------------------------------------------------------- */

static int charge(struct pop *p, int type, uint32_t id, uint64_t space)
{
	struct usage_table *t = &p->quota[type];
	size_t i = t->last;

	if (i >= t->n || t->u[i].id != id)
		for (i = 0; i < t->n && t->u[i].id != id; i++)
			;
	if (i == t->n) {
		if (f2fs_array_reserve(t->u, t->cap, t->n + 1))
			return f2fs_fail(p->err, -ENOMEM, "out of memory counting quota");
		t->u[t->n++] = (struct f2fs_quota_usage){ .id = id };
	}
	t->u[i].inodes++;
	t->u[i].space_bytes += space;
	t->last = i;
	return 0;
}

/* Quota charges every block but the inode's own. */
static int charge_inode(struct pop *p, const struct f2fs_node *n)
{
	uint64_t space = (le64_get(n->i.i_blocks) - 1) * F2FS_BLKSIZE;
	int ret;

	if (!(p->b->features & F2FS_FEATURE_QUOTA_INO))
		return 0;
	ret = charge(p, F2FS_QUOTA_USR, le32_get(n->i.i_uid), space);
	if (!ret)
		ret = charge(p, F2FS_QUOTA_GRP, le32_get(n->i.i_gid), space);
	if (!ret && (p->b->features & F2FS_FEATURE_PRJQUOTA))
		ret = charge(p, F2FS_QUOTA_PRJ, 0, space);
	return ret;
}

/* ---- inodes ------------------------------------------------------------- */

/* New inodes keep room for inline xattrs, as the kernel gives them. */
static void give_inline_xattr(const struct pop *p, struct f2fs_node *n)
{
	n->i.i_inline |= F2FS_INLINE_XATTR;
	if ((p->b->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR) &&
	    (n->i.i_inline & F2FS_EXTRA_ATTR))
		n->i.extra.i_inline_xattr_size = le16_put(F2FS_DEF_INLINE_XATTR_ADDRS);
}

static void init_from_tree(const struct pop *p, struct f2fs_node *n, uint32_t ti,
			   uint32_t pino, const char *name, uint32_t links)
{
	const struct f2fs_tree_inode *s = &p->t->inodes[ti];
	struct f2fs_inode_attrs a = {
		.mode = (uint16_t)s->mode, .uid = s->uid, .gid = s->gid, .links = links,
		.time = s->mtime, .pino = pino, .name = name, .features = p->b->features,
	};

	f2fs_inode_init(n, &a);
	if (s->casefold)
		n->i.i_flags = le32_put(le32_get(n->i.i_flags) | F2FS_CASEFOLD_FL);
	n->i.i_mtime_nsec = le32_put(s->mtime_ns);
	/* with a fixed time (-T), access and change times are that time, as no
	 * copy of a tree keeps them; otherwise they come from the source */
	if (p->o->timestamp_set) {
		n->i.i_atime = n->i.i_ctime = le64_put((uint64_t)p->now);
	} else {
		n->i.i_atime = le64_put((uint64_t)s->atime);
		n->i.i_ctime = le64_put((uint64_t)s->ctime);
		n->i.i_atime_nsec = le32_put(s->atime_ns);
		n->i.i_ctime_nsec = le32_put(s->ctime_ns);
	}
	if (n->i.i_inline & F2FS_EXTRA_ATTR && (p->b->features & F2FS_FEATURE_INODE_CRTIME))
		n->i.extra.i_crtime_nsec = le32_put(s->mtime_ns);
	give_inline_xattr(p, n);
}

/* xattrs of a host path into the inode; counts the xattr node in i_blocks. */
static int store_xattrs(struct pop *p, struct f2fs_node *n, uint32_t ino, bool dir,
			const char *path)
{
	uint8_t buf[BLD_XATTR_MAX];
	size_t len, cap;
	uint32_t nodes;
	int ret;

	cap = f2fs_inode_inline_xattr_words(&n->i, p->b->features) * 4 +
	      (F2FS_BLKSIZE - sizeof(struct f2fs_node_footer));
	ret = bld_xattr_read(path, buf, cap, &len, p->err);
	if (ret || len == 0)
		return ret;
	ret = bld_xattr_store(p->b, n, ino, dir, buf, len, &nodes);
	if (!ret)
		n->i.i_blocks = le64_put(le64_get(n->i.i_blocks) + nodes);
	return ret;
}

/* ---- directories ---------------------------------------------------------- */

static int tree_dir_entries(const struct pop *p, uint32_t ti, struct bld_dirent **out,
			    size_t extra)
{
	const struct f2fs_tree_inode *d = &p->t->inodes[ti];
	struct bld_dirent *e = calloc(d->nchild + extra + 1, sizeof(*e));

	if (!e)
		return f2fs_fail(p->err, -ENOMEM, "out of memory building a directory");
	for (uint32_t k = 0; k < d->nchild; k++) {
		const struct f2fs_tree_dentry *de = &p->t->dentries[d->child_start + k];
		const struct f2fs_tree_inode *c = &p->t->inodes[de->inode];

		e[k].name = (const uint8_t *)f2fs_tree_name(p->t, de);
		e[k].len = de->name_len;
		e[k].ino = c->ino;
		e[k].type = f2fs_file_type_of_mode((uint16_t)c->mode);
	}
	*out = e;
	return 0;
}

static int write_lost_found(struct pop *p)
{
	struct f2fs_node n;
	struct f2fs_inode_attrs a = {
		.mode = F2FS_S_IFDIR | 0700, .uid = p->o->root_uid, .gid = p->o->root_gid,
		.links = 2, .time = p->now, .pino = F2FS_ROOT_INO, .name = LPF_NAME,
		.features = p->b->features,
	};
	int ret;

	f2fs_inode_init(&n, &a);
	ret = bld_write_dir(p->b, &n, p->b->lpf_ino, F2FS_ROOT_INO, NULL, 0, false);
	return ret ? ret : charge_inode(p, &n);
}

static int write_root(struct pop *p)
{
	struct bld_dirent *e = NULL;
	size_t n = 0;
	struct f2fs_node node;
	bool own_lpf = p->b->lpf_ino && !p->lpf_tree;
	uint32_t subdirs = p->t ? p->t->inodes[0].nsubdirs : 0;
	int ret;

	if (p->t) {
		init_from_tree(p, &node, 0, 0, NULL, 2 + subdirs);
		node.i.i_inline &= (uint8_t)~F2FS_INLINE_XATTR;   /* root is made as mkfs.f2fs makes it */
		node.i.extra.i_inline_xattr_size = 0;
		if (p->o->root_owner_set) {
			node.i.i_uid = le32_put(p->o->root_uid);
			node.i.i_gid = le32_put(p->o->root_gid);
		}
		ret = tree_dir_entries(p, 0, &e, 1);
		if (ret)
			return ret;
		n = p->t->inodes[0].nchild;
		if (p->t->inodes[0].xattr_bytes) {
			give_inline_xattr(p, &node);
			ret = store_xattrs(p, &node, F2FS_ROOT_INO, true, p->t->root_path);
		}
	} else {
		struct f2fs_inode_attrs a = {
			.mode = F2FS_S_IFDIR | 0755, .uid = p->o->root_uid, .gid = p->o->root_gid,
			.links = 2, .time = p->now, .features = p->b->features,
		};

		f2fs_inode_init(&node, &a);
		e = calloc(1, sizeof(*e));
		ret = e ? 0 : f2fs_fail(p->err, -ENOMEM, "out of memory");
	}
	if (!ret && own_lpf) {
		e[n++] = (struct bld_dirent){ (const uint8_t *)LPF_NAME, sizeof(LPF_NAME) - 1,
					      p->b->lpf_ino, F2FS_FT_DIR };
		node.i.i_links = le32_put(le32_get(node.i.i_links) + 1);
	}
	if (!ret)
		ret = bld_write_dir(p->b, &node, F2FS_ROOT_INO, F2FS_ROOT_INO, e, n, false);
	free(e);
	return ret ? ret : charge_inode(p, &node);
}

/* ---- files ---------------------------------------------------------------- */

/*
 * As the kernel matches at create time: the extension may be followed by a
 * temporary suffix, so "movie.mp4" and "a.jpg.tmp" match "mp" and "jp".
 */
static bool name_has_extension(const char *name, const char *ext)
{
	size_t nlen = strlen(name), elen = strlen(ext);

	if (elen == 1 && ext[0] == '*')
		return true;
	if (nlen < elen + 2)
		return false;
	for (size_t i = 1; i < nlen - elen; i++)
		if (name[i] == '.' && !strncasecmp(name + i + 1, ext, elen))
			return true;
	return false;
}

static bool has_extension(const struct f2fs_super_block *sb, const char *name,
			  uint32_t first, uint32_t count)
{
	for (uint32_t i = first; i < first + count && i < F2FS_MAX_EXTENSION; i++) {
		char ext[F2FS_EXTENSION_LEN + 1] = { 0 };

		memcpy(ext, sb->extension_list[i], F2FS_EXTENSION_LEN);
		if (ext[0] && name_has_extension(name, ext))
			return true;
	}
	return false;
}

/* Cold and hot extensions pick the data log, as the kernel does at create. */
static enum f2fs_seg_type data_log_for(const struct pop *p, struct f2fs_node *n,
				       const char *name)
{
	uint32_t cold = le32_get(p->sb->extension_count);

	if (has_extension(p->sb, name, 0, cold)) {
		n->i.i_advise |= F2FS_ADVISE_COLD;
		return F2FS_SEG_COLD_DATA;
	}
	if (has_extension(p->sb, name, cold, p->sb->hot_ext_count)) {
		n->i.i_advise |= F2FS_ADVISE_HOT;
		return F2FS_SEG_HOT_DATA;
	}
	return F2FS_SEG_WARM_DATA;
}

/* Blocks blk.. of the file, n of them in buf, into the data log. */
static int place_blocks(struct pop *p, struct bld_file *f, uint64_t blk,
			const uint8_t *buf, uint64_t n, enum f2fs_seg_type log,
			uint64_t *data)
{
	for (uint64_t k = 0; k < n; k++, blk++) {
		uint32_t nid, addr;
		uint16_t ofs;
		int ret = bld_file_slot(f, blk, &nid, &ofs);

		if (!ret)
			ret = bld_alloc_block(p->b, log, nid, ofs, &addr);
		if (!ret)
			ret = bld_write(p->b, addr, buf + k * F2FS_BLKSIZE);
		if (ret)
			return ret;
		bld_file_set(f, blk, addr);
		(*data)++;
	}
	return 0;
}

/* Copy one data region [start, end) of the host file into log blocks. */
static int copy_region(struct pop *p, struct bld_file *f, int fd, uint64_t start,
		       uint64_t end, enum f2fs_seg_type log, uint64_t *data,
		       const char *path)
{
	for (uint64_t blk = start / F2FS_BLKSIZE; blk * F2FS_BLKSIZE < end;) {
		uint64_t n = (end - blk * F2FS_BLKSIZE + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
		int ret;

		uint64_t want;

		if (n > READ_CHUNK_BLOCKS)
			n = READ_CHUNK_BLOCKS;
		/* no read past the end: that would be one more call returning 0 */
		want = end - blk * F2FS_BLKSIZE;
		if (want > n * F2FS_BLKSIZE)
			want = n * F2FS_BLKSIZE;
		ret = src_read(&p->src, fd, p->buf, (size_t)want, (off_t)(blk * F2FS_BLKSIZE));
		memset(p->buf + want, 0, (size_t)(n * F2FS_BLKSIZE - want));
		if (ret)
			return f2fs_fail(p->err, ret, "cannot read %s: %s", path, strerror(-ret));
		ret = place_blocks(p, f, blk, p->buf, n, log, data);
		if (ret)
			return ret;
		blk += n;
	}
	return 0;
}

/*
 * Data regions only: holes of sparse files stay holes. A file with as many
 * bytes allocated as its size has no hole to look for (two lseek calls per
 * file saved); one that also has blocks preallocated past its end may, and
 * then its holes are copied as zeros: the content is the same. A file the
 * loader read (fully allocated, so without holes) comes as loaded bytes.
 */
static int copy_blocks(struct pop *p, struct f2fs_node *n, uint32_t ino, int fd,
		       const uint8_t *loaded, const struct f2fs_tree_inode *s,
		       enum f2fs_seg_type log, const char *path)
{
	uint64_t size = s->size, data = 0;
	struct bld_file f;
	off_t pos = 0;
	int ret = 0;

	bld_file_start(&f, p->b, n, ino, false);
	if (loaded) {
		ret = place_blocks(p, &f, 0, loaded, (size + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE,
				   log, &data);
		pos = (off_t)size;
	} else if (s->alloc_bytes >= size) {
		ret = copy_region(p, &f, fd, 0, size, log, &data, path);
		pos = (off_t)size;
	}
	while ((uint64_t)pos < size && !ret) {
		off_t d = lseek(fd, pos, SEEK_DATA), h;

		if (d < 0)
			break;   /* ENXIO: holes to the end */
		h = lseek(fd, d, SEEK_HOLE);
		if (h < 0 || (uint64_t)h > size)
			h = (off_t)size;
		ret = copy_region(p, &f, fd, (uint64_t)d, (uint64_t)h, log, &data, path);
		pos = h;
	}
	if (!ret)
		ret = bld_file_finish(&f);
	if (!ret)
		n->i.i_blocks = le64_put(le64_get(n->i.i_blocks) + data + f.node_blocks);
	return ret;
}

static void set_inline(struct pop *p, struct f2fs_node *n, const uint8_t *src, size_t len)
{
	memcpy((uint8_t *)n + f2fs_inode_inline_offset(&n->i), src, len);
	n->i.i_inline |= F2FS_INLINE_DATA | (len ? F2FS_DATA_EXIST : 0);
	(void)p;
}

/*
 * The loader's copy of file ti, used when it holds what we would read: all
 * of an inline file, all blocks of one without holes. Returns 1 when the
 * file is done, 0 when it is to be read here, or an error.
 */
static int write_loaded(struct pop *p, struct f2fs_node *n, uint32_t ino, uint32_t ti,
			const struct f2fs_tree_inode *s, bool inline_data,
			enum f2fs_seg_type log, const char *path)
{
	bool usable = inline_data || s->alloc_bytes >= s->size;
	const uint8_t *data;
	const char *what;
	int ret = src_loader_take(p->loader, ti, &data, &what);

	if (ret)
		ret = f2fs_fail(p->err, ret, "cannot %s %s: %s", what, path, strerror(-ret));
	else if (inline_data)
		set_inline(p, n, data, (size_t)s->size);
	else if (usable)
		ret = copy_blocks(p, n, ino, -1, data, s, log, path);
	src_loader_release(p->loader);
	return ret ? ret : usable;
}

static int write_regular(struct pop *p, struct f2fs_node *n, uint32_t ino, uint32_t ti,
			 const struct f2fs_tree_inode *s, const char *name, const char *path)
{
	enum f2fs_seg_type log = data_log_for(p, n, name);
	bool inline_data = s->size <= f2fs_inode_inline_bytes(&n->i, p->b->features);
	int fd, ret = 0;

	n->i.i_size = le64_put(s->size);
	if (p->loader && src_loader_wants(p->t, ti)) {
		ret = write_loaded(p, n, ino, ti, s, inline_data, log, path);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	fd = src_open(&p->src, ti, path);
	if (fd < 0)
		return f2fs_fail(p->err, -errno, "cannot open %s: %s", path, strerror(errno));
	if (inline_data) {
		int r = src_read(&p->src, fd, p->buf, (size_t)s->size, 0);

		if (r)
			ret = f2fs_fail(p->err, r, "cannot read %s: %s", path, strerror(-r));
		else
			set_inline(p, n, p->buf, (size_t)s->size);
	} else {
		ret = copy_blocks(p, n, ino, fd, NULL, s, log, path);
	}
	close(fd);
	return ret;
}

static int write_symlink(struct pop *p, struct f2fs_node *n, uint32_t ino, const char *path)
{
	char target[F2FS_BLKSIZE];
	ssize_t len = readlink(path, target, sizeof(target));
	struct bld_file f;
	uint32_t nid, addr;
	uint16_t ofs;
	int ret;

	if (len < 0)
		return f2fs_fail(p->err, -errno, "cannot read link %s: %s", path, strerror(errno));
	if (len >= (ssize_t)sizeof(target))
		return f2fs_fail(p->err, -ENAMETOOLONG, "%s: link target too long", path);
	n->i.i_size = le64_put((uint64_t)len);
	if ((size_t)len <= f2fs_inode_inline_bytes(&n->i, p->b->features)) {
		set_inline(p, n, (const uint8_t *)target, (size_t)len);
		return 0;
	}
	memset(p->buf, 0, F2FS_BLKSIZE);
	memcpy(p->buf, target, (size_t)len);
	bld_file_start(&f, p->b, n, ino, false);
	ret = bld_file_slot(&f, 0, &nid, &ofs);
	if (!ret)
		ret = bld_alloc_block(p->b, F2FS_SEG_WARM_DATA, nid, ofs, &addr);
	if (!ret)
		ret = bld_write(p->b, addr, p->buf);
	if (!ret) {
		bld_file_set(&f, 0, addr);
		n->i.i_blocks = le64_put(le64_get(n->i.i_blocks) + 1);
	}
	return ret;
}

/* Device numbers: glibc's dev_t split into major and minor. */
static void set_rdev(struct f2fs_node *n, uint64_t rdev)
{
	uint32_t maj = (uint32_t)(((rdev >> 32) & 0xFFFFF000u) | ((rdev >> 8) & 0xFFFu));
	uint32_t min = (uint32_t)(((rdev >> 12) & 0xFFFFFF00u) | (rdev & 0xFFu));

	f2fs_inode_set_rdev(&n->i, maj, min);
}

static int write_tree_inode(struct pop *p, uint32_t ti)
{
	const struct f2fs_tree_inode *s = &p->t->inodes[ti];
	const struct f2fs_tree_dentry *de = &p->t->dentries[s->first_dentry];
	const char *name = f2fs_tree_name(p->t, de);
	uint32_t pino = p->t->inodes[de->parent].ino;
	bool dir = (s->mode & F2FS_S_IFMT) == F2FS_S_IFDIR;
	char path[PATH_MAX];
	struct f2fs_node n;
	int ret;

	if (f2fs_tree_path(p->t, ti, path, sizeof(path)))
		return f2fs_fail(p->err, -ENAMETOOLONG, "path too long (over %d bytes) under %s", PATH_MAX, p->t->root_path);
	init_from_tree(p, &n, ti, pino, name, dir ? 2 + s->nsubdirs : s->nlink);
	ret = s->xattr_bytes ? store_xattrs(p, &n, s->ino, dir, path) : 0;
	if (ret)
		return ret;
	if (dir) {
		struct bld_dirent *e;

		ret = tree_dir_entries(p, ti, &e, 0);
		if (!ret)
			ret = bld_write_dir(p->b, &n, s->ino, pino, e, s->nchild, ti != p->lpf_tree);
		free(e);
		return ret ? ret : charge_inode(p, &n);
	}
	switch (s->mode & F2FS_S_IFMT) {
	case F2FS_S_IFREG:
		ret = write_regular(p, &n, s->ino, ti, s, name, path);
		break;
	case F2FS_S_IFLNK:
		ret = write_symlink(p, &n, s->ino, path);
		break;
	case F2FS_S_IFCHR:
	case F2FS_S_IFBLK:
		set_rdev(&n, s->rdev);
		break;
	default:
		break;   /* fifos and sockets have no data */
	}
	n.i.i_blocks = le64_put(le64_get(n.i.i_blocks) + 1);
	if (!ret)
		ret = bld_write_inode(p->b, &n, s->ino, false, F2FS_SEG_WARM_NODE);
	return ret ? ret : charge_inode(p, &n);
}

/* ---- quota files ---------------------------------------------------------- */

static int write_quota_file(struct pop *p, int type, uint32_t ino)
{
	struct usage_table *t = &p->quota[type];
	size_t size = f2fs_quota_file_size(t->u, t->n), nblk;
	uint8_t *buf;
	struct f2fs_node n;
	struct bld_file f;
	int ret;

	nblk = (size + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
	buf = calloc(nblk ? nblk : 1, F2FS_BLKSIZE);
	if (!buf || size == 0) {
		free(buf);
		return f2fs_fail(p->err, -ENOMEM, "out of memory building quota files");
	}
	ret = f2fs_quota_file_build((enum f2fs_quota_type)type, t->u, t->n, NULL, buf, size, p->err);
	if (!ret) {
		struct f2fs_inode_attrs a = {
			.mode = F2FS_S_IFREG | 0600, .links = 1, .size = size,
			.uid = p->o->root_uid, .gid = p->o->root_gid,
			.blocks = 1 + nblk, .time = p->now, .flags = F2FS_IMMUTABLE_FL,
			.features = p->b->features,
		};

		f2fs_inode_init(&n, &a);
		bld_file_start(&f, p->b, &n, ino, false);
	}
	/* system files go to the hot logs, as mkfs.f2fs places them */
	for (size_t i = 0; i < nblk && !ret; i++) {
		uint32_t nid, addr;
		uint16_t ofs;

		ret = bld_file_slot(&f, i, &nid, &ofs);
		if (!ret)
			ret = bld_alloc_block(p->b, F2FS_SEG_HOT_DATA, nid, ofs, &addr);
		if (!ret)
			ret = bld_write(p->b, addr, buf + i * F2FS_BLKSIZE);
		if (!ret)
			bld_file_set(&f, i, addr);
	}
	if (!ret)
		ret = bld_file_finish(&f);
	if (!ret)
		ret = bld_write_inode(p->b, &n, ino, false, F2FS_SEG_HOT_NODE);
	free(buf);
	return ret;
}

static int write_quota_files(struct pop *p)
{
	int ret = 0;

	for (int type = 0; type < F2FS_MAX_QUOTAS && !ret; type++)
		if (p->b->qf_ino[type])
			ret = write_quota_file(p, type, p->b->qf_ino[type]);
	return ret;
}

/* ---- order ---------------------------------------------------------------- */

/* nids: root, quota files, lost+found, then the tree breadth first. */
static int assign_nids(struct pop *p)
{
	struct bld *b = p->b;

	if (bld_alloc_nid(b) != F2FS_ROOT_INO)
		return f2fs_fail(p->err, -F2FS_E_CORRUPT, "root must be the first inode");
	populate_quota_inos(b->features, b->qf_ino);
	for (int i = 0; i < F2FS_MAX_QUOTAS; i++)
		if (b->qf_ino[i] && bld_alloc_nid(b) != b->qf_ino[i])
			return p->err->code;
	if (b->features & F2FS_FEATURE_LOST_FOUND) {
		b->lpf_ino = bld_alloc_nid(b);
		if (!b->lpf_ino)
			return p->err->code;
	}
	if (!p->t)
		return 0;
	p->t->inodes[0].ino = F2FS_ROOT_INO;
	for (size_t i = 1; i < p->t->ninodes; i++) {
		const struct f2fs_tree_dentry *de = &p->t->dentries[p->t->inodes[i].first_dentry];


		if (b->lpf_ino && de->parent == 0 && (p->t->inodes[i].mode & F2FS_S_IFMT) == F2FS_S_IFDIR &&
		    de->name_len == sizeof(LPF_NAME) - 1 &&
		    !memcmp(f2fs_tree_name(p->t, de), LPF_NAME, de->name_len)) {
			p->t->inodes[i].ino = b->lpf_ino;
			p->lpf_tree = (uint32_t)i;
			continue;
		}
		p->t->inodes[i].ino = bld_alloc_nid(b);
		if (!p->t->inodes[i].ino)
			return p->err->code;
	}
	return 0;
}

int populate(struct bld *b, const struct f2fs_mkfs_options *o,
	     const struct f2fs_super_block *sb, struct f2fs_tree *t, int64_t now)
{
	struct pop p = { .b = b, .o = o, .sb = sb, .t = t, .now = now, .err = b->err };
	int ret;

	if (t)
		src_init(&p.src, t);
	p.buf = malloc((size_t)READ_CHUNK_BLOCKS * F2FS_BLKSIZE);
	if (!p.buf)
		return f2fs_fail(b->err, -ENOMEM, "out of memory");
	ret = assign_nids(&p);
	/* after assign_nids: from here on the tree is only read */
	if (!ret && t)
		p.loader = src_loader_start(t);
	if (!ret)
		ret = write_root(&p);
	if (!ret && b->lpf_ino && !p.lpf_tree)
		ret = write_lost_found(&p);
	for (size_t i = 1; t && i < t->ninodes && !ret; i++) {
		if (!p.loader)
			src_prefetch(&p.src, (uint32_t)i);
		ret = write_tree_inode(&p, (uint32_t)i);
		if (o->progress && (i % 4096 == 0 || i + 1 == t->ninodes))
			o->progress(o->progress_arg, i, t->ninodes - 1);
	}
	if (!ret)
		ret = write_quota_files(&p);
	for (int i = 0; i < F2FS_MAX_QUOTAS; i++)
		free(p.quota[i].u);
	src_loader_stop(p.loader);
	if (t)
		src_fini(&p.src);
	free(p.buf);
	return ret;
}

/* Why the kernel would give a name no casefolding key (it then hashes the
 * raw bytes, or refuses the name under the strict flag). */
static const char *keyless_why(int ret)
{
	switch (ret) {
	case -ENAMETOOLONG:
		return "folds to 255 bytes or more";
	case -EINVAL:
		return "folds to nothing (default ignorable characters only)";
	default:
		return "is not valid UTF-8";
	}
}

/*
 * In a case-insensitive directory the kernel finds a name by its folded key
 * (f2fs_casefold_name): two names with one key would be one name to it, the
 * second unreachable, so the tree is refused before anything is written.
 * Names are compared through (hash << 32 | child) pairs sorted by hash:
 * keys are recomputed only for names whose hashes collide.
 */
static int check_casefold_dir(const struct f2fs_tree *t, const struct f2fs_tree_inode *d,
			      const char *path, bool strict, struct f2fs_error *err)
{
	uint8_t ka[F2FS_UTF8_CAP], kb[F2FS_UTF8_CAP];
	uint64_t *pairs;
	int ret = 0;

	if (!d->nchild)
		return 0;
	pairs = malloc(d->nchild * sizeof(*pairs));
	if (!pairs)
		return f2fs_fail(err, -ENOMEM, "--rootdir: out of memory checking %s", path);
	for (uint32_t k = 0; k < d->nchild; k++) {
		const struct f2fs_tree_dentry *de = &t->dentries[d->child_start + k];
		const uint8_t *name = (const uint8_t *)f2fs_tree_name(t, de);
		int n = f2fs_casefold_name(name, de->name_len, ka);

		if (n < 0 && strict) {
			/* the name last: a long one may not fit the message */
			ret = f2fs_fail(err, -F2FS_E_BAD_OPTION,
					"--rootdir: %s is case-insensitive and -C utf8:strict refuses a name that %s: '%s'",
					path, keyless_why(n), f2fs_tree_name(t, de));
			goto out;
		}
		pairs[k] = (uint64_t)f2fs_dentry_hash_casefold(name, de->name_len) << 32 | k;
	}
	f2fs_sort_u64(pairs, d->nchild);
	for (uint32_t i = 1; i < d->nchild; i++) {
		for (uint32_t j = i; j-- > 0 && pairs[j] >> 32 == pairs[i] >> 32;) {
			const struct f2fs_tree_dentry *a = &t->dentries[d->child_start + (uint32_t)pairs[j]];
			const struct f2fs_tree_dentry *b = &t->dentries[d->child_start + (uint32_t)pairs[i]];
			int na = f2fs_casefold_name((const uint8_t *)f2fs_tree_name(t, a), a->name_len, ka);
			int nb = f2fs_casefold_name((const uint8_t *)f2fs_tree_name(t, b), b->name_len, kb);

			/* keyless names are their bytes, which differ in a directory */
			if (na <= 0 || na != nb || memcmp(ka, kb, (size_t)na))
				continue;
			ret = f2fs_fail(err, -F2FS_E_BAD_OPTION,
					"--rootdir: %s is case-insensitive, where '%s' and '%s' are one name",
					path, f2fs_tree_name(t, a), f2fs_tree_name(t, b));
			goto out;
		}
	}
out:
	free(pairs);
	return ret;
}

/*
 * Case-insensitive source directories (chattr +F) need -O casefold, and
 * their names must stay distinct once folded as the kernel folds them.
 */
static int check_casefold(const struct f2fs_tree *t, uint32_t features,
			  uint16_t encoding_flags, struct f2fs_error *err)
{
	char path[PATH_MAX];

	for (uint32_t i = 0; i < t->ninodes; i++) {
		const struct f2fs_tree_inode *d = &t->inodes[i];
		int ret;

		if (!d->casefold)
			continue;
		if (f2fs_tree_path(t, i, path, sizeof(path)))
			snprintf(path, sizeof(path), "%s/...", t->root_path);
		if (!(features & F2FS_FEATURE_CASEFOLD))
			return f2fs_fail(err, -F2FS_E_BAD_OPTION,
					 "--rootdir: %s is case-insensitive (chattr +F); the image needs -O casefold",
					 path);
		ret = check_casefold_dir(t, d, path, encoding_flags & F2FS_ENC_STRICT_MODE_FL, err);
		if (ret)
			return ret;
	}
	return 0;
}

int populate_check_tree(const struct f2fs_tree *t, uint32_t features,
			uint16_t encoding_flags, struct f2fs_error *err)
{
	const struct f2fs_tree_inode *root = &t->inodes[0];
	int ret = check_casefold(t, features, encoding_flags, err);

	if (ret || !(features & F2FS_FEATURE_LOST_FOUND))
		return ret;
	for (uint32_t k = 0; k < root->nchild; k++) {
		const struct f2fs_tree_dentry *de = &t->dentries[root->child_start + k];

		if (de->name_len == sizeof(LPF_NAME) - 1 &&
		    !memcmp(f2fs_tree_name(t, de), LPF_NAME, de->name_len) &&
		    (t->inodes[de->inode].mode & F2FS_S_IFMT) != F2FS_S_IFDIR)
			return f2fs_fail(err, -F2FS_E_BAD_OPTION,
					 "--rootdir %s: lost+found is not a directory, but -O lost_found needs that name",
					 t->root_path);
	}
	return 0;
}

uint64_t populate_estimate(const struct f2fs_tree *t, uint32_t features)
{
	uint64_t total = 16;   /* root, lost+found, quota files */

	(void)features;
	for (size_t i = 0; t && i < t->ninodes; i++) {
		const struct f2fs_tree_inode *s = &t->inodes[i];
		uint64_t data = 0;

		if ((s->mode & F2FS_S_IFMT) == F2FS_S_IFREG && s->size > 3000) {
			data = (s->size + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
			if (s->alloc_bytes < s->size)   /* sparse: what is allocated */
				data = (s->alloc_bytes + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
		} else if ((s->mode & F2FS_S_IFMT) == F2FS_S_IFDIR) {
			data = 2 * ((s->nchild * 3 + F2FS_NR_DENTRY_IN_BLOCK - 1) /
				    F2FS_NR_DENTRY_IN_BLOCK);
		}
		total += 1 + data + data / F2FS_ADDRS_PER_BLOCK + (s->xattr_bytes > 150);
	}
	return total;
}
