/* --extract: copy a file or a tree out of the image (content, mode, times). */
#include "dump.h"

#include <f2fs/util/u32map.h>
#include <f2fs/util/vec.h>
#include <f2fs/fs/dir.h>
#include <f2fs/format/acl.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/fs/nat.h>
#include <f2fs/fs/xattr.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#define RUN_BLOCKS 256u   /* blocks per read of contiguous data */

struct ext {
	struct f2fs_fs *fs;
	uint8_t *buf;             /* RUN_BLOCKS blocks */
	char **links;             /* where inodes with several links were written */
	size_t nlinks, cap;
	struct f2fs_u32map link_at;   /* their inos -> index in links */
	int as_root;
	uint64_t files, dirs, bytes, skipped, xattrs;
};

struct dent {
	uint32_t ino;
	char *name;
};

struct dlist {
	struct dent *v;
	size_t n, cap;
	int oom;
};

static int fail(const char *path, const char *what)
{
	return error_line("%s: %s", path, what);
}

static int fail_errno(const char *path, const char *op)
{
	return error_line("%s: %s: %s", path, op, strerror(errno));
}

static void set_times(const char *path, const struct f2fs_inode *i, int nofollow)
{
	struct timespec ts[2] = {
		{ .tv_sec = (time_t)le64_get(i->i_atime), .tv_nsec = le32_get(i->i_atime_nsec) % 1000000000 },
		{ .tv_sec = (time_t)le64_get(i->i_mtime), .tv_nsec = le32_get(i->i_mtime_nsec) % 1000000000 },
	};

	utimensat(AT_FDCWD, path, ts, nofollow ? AT_SYMLINK_NOFOLLOW : 0);
}

static void set_owner(struct ext *x, const char *path, const struct f2fs_inode *i)
{
	if (x->as_root && lchown(path, le32_get(i->i_uid), le32_get(i->i_gid)) != 0)
		fprintf(stderr, "%s: warning: %s: chown: %s\n", prog, path, strerror(errno));
}

/* Bytes of the file's content as stored (inline or blocks) into fd. */
static int write_content(struct ext *x, const struct f2fs_node *n, int fd, const char *path)
{
	const struct f2fs_inode *i = &n->i;
	uint64_t size = le64_get(i->i_size);
	uint64_t nblocks = (size + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
	struct f2fs_error err;

	if (i->i_inline & F2FS_INLINE_DATA) {
		uint32_t room = f2fs_inode_inline_bytes(i, f2fs_fs_features(x->fs));
		uint32_t off = f2fs_inode_inline_offset(i);

		if (size > room)
			return fail(path, "inline data larger than the inode can hold");
		if (size && pwrite(fd, (const uint8_t *)n + off, (size_t)size, 0) != (ssize_t)size)
			return fail_errno(path, "write");
		x->bytes += size;
		return 0;
	}
	if (f2fs_inode_compressed(i, f2fs_fs_features(x->fs)))
		return fail(path, "compressed files are not supported");
	if (nblocks > f2fs_file_max_blocks(x->fs, n))
		return fail(path, "size beyond what the inode can map");
	for (uint64_t b = 0; b < nblocks;) {
		uint32_t addr, first;
		uint64_t run, k;

		if (f2fs_file_block(x->fs, n, b, &addr, &run, &err))
			return fail(path, err.msg);
		if (addr == F2FS_NULL_ADDR || addr == F2FS_NEW_ADDR) {
			b += run ? run : 1;     /* hole: leave it sparse */
			continue;
		}
		if (addr == F2FS_COMPRESS_ADDR)
			return fail(path, "compressed cluster found");
		if (!f2fs_fs_in_main(x->fs, addr)) {
			char msg[96];

			snprintf(msg, sizeof(msg), "file block %" PRIu64 " at %u is outside the main area",
				 b, addr);
			return fail(path, msg);
		}
		/* extend over physically contiguous blocks */
		first = addr;
		for (k = 1; k < RUN_BLOCKS && b + k < nblocks; k++) {
			uint32_t a2;

			if (f2fs_file_block(x->fs, n, b + k, &a2, NULL, &err))
				return fail(path, err.msg);
			if (a2 != first + k || !f2fs_fs_in_main(x->fs, a2))
				break;
		}
		if (f2fs_dev_read(f2fs_fs_dev(x->fs), first, x->buf, (size_t)k, &err))
			return fail(path, err.msg);
		{
			uint64_t off = b * F2FS_BLKSIZE;
			uint64_t len = k * F2FS_BLKSIZE;

			if (off + len > size)
				len = size - off;
			if (pwrite(fd, x->buf, (size_t)len, (off_t)off) != (ssize_t)len)
				return fail_errno(path, "write");
			x->bytes += len;
		}
		b += k;
	}
	return 0;
}

/* ---- extended attributes ------------------------------------------------ */
#define ACL_XATTR_VERSION 2   /* the VFS's posix_acl_xattr form */

/* F2FS ACL (4-byte header; 4-byte entries for the owner, group, mask and
 * other tags, 8-byte ones for named users and groups) to the VFS form
 * (4-byte header, 8-byte entries, id 0xFFFFFFFF where there is none). */
static int acl_to_vfs(const uint8_t *in, size_t len, uint8_t *out, size_t cap, size_t *olen)
{
	size_t i = 4, o = 4;

	if (len < 4 || le32_load(in) != F2FS_ACL_VERSION)
		return -1;
	le32_store(out, ACL_XATTR_VERSION);
	while (i < len) {
		uint16_t tag;

		if (i + 4 > len || o + 8 > cap)
			return -1;
		tag = (uint16_t)(in[i] | in[i + 1] << 8);
		memcpy(out + o, in + i, 4);   /* tag and perm */
		i += 4;
		if (tag == F2FS_ACL_USER || tag == F2FS_ACL_GROUP) {
			if (i + 4 > len)
				return -1;
			memcpy(out + o + 4, in + i, 4);
			i += 4;
		} else {
			le32_store(out + o + 4, 0xFFFFFFFFu);
		}
		o += 8;
	}
	*olen = o;
	return 0;
}

struct xattr_ctx {
	struct ext *x;
	const char *path;
};

/* Set one xattr on the copy; ACLs are converted to the VFS form first. */
static int set_one_xattr(const struct f2fs_xattr *xa, void *arg)
{
	struct xattr_ctx *c = arg;
	const char *pre = f2fs_xattr_prefix(xa->index);
	const uint8_t *val = xa->value;
	size_t alen = xa->value_len;
	uint8_t acl[65536 + 8];
	char name[300];

	if (!pre)
		return 0;   /* lustre, advise, encryption, verity: not host xattrs */
	snprintf(name, sizeof(name), "%s%.*s", pre, (int)xa->name_len, (const char *)xa->name);
	if (xa->index == F2FS_XATTR_INDEX_POSIX_ACL_ACCESS ||
	    xa->index == F2FS_XATTR_INDEX_POSIX_ACL_DEFAULT) {
		const char *why = xa->name_len ? "it has a name" :
				  f2fs_acl_refusal(xa->value, xa->value_len);

		/* what a mounted volume never gives as an ACL is not copied */
		if (why || acl_to_vfs(xa->value, xa->value_len, acl, sizeof(acl), &alen)) {
			fprintf(stderr, "%s: warning: %s: ACL %s not set: %s\n", prog, c->path, name,
				why ? why : "too large");
			c->x->skipped++;
			return 0;
		}
		val = acl;
	}
	if (lsetxattr(c->path, name, val, alen, 0) != 0) {
		fprintf(stderr, "%s: warning: %s: xattr %s not set: %s\n", prog, c->path, name,
			strerror(errno));
		c->x->skipped++;
	} else {
		c->x->xattrs++;
	}
	return 0;
}

/* Copy the inode's xattrs onto path. Failures to set one (no permission, a
 * file system without xattrs) are warnings and count as skipped; a damaged
 * list is an error. */
static int set_xattrs(struct ext *x, const char *path, const struct f2fs_inode *i)
{
	struct xattr_ctx c = { x, path };
	struct f2fs_error err;

	if (f2fs_xattr_foreach(x->fs, i, set_one_xattr, &c, &err) < 0)
		return fail(path, err.msg);
	return 0;
}

static const char *seen_link(struct ext *x, uint32_t ino)
{
	const uint32_t *at = f2fs_u32map_find(&x->link_at, ino);

	return at ? x->links[*at] : NULL;
}

/* The first path of ino is the one its later names link to. */
static void remember_link(struct ext *x, uint32_t ino, const char *path)
{
	char *copy;

	if (f2fs_u32map_find(&x->link_at, ino) ||
	    f2fs_array_reserve(x->links, x->cap, x->nlinks + 1))
		return;
	copy = strdup(path);
	if (!copy)
		return;
	if (f2fs_u32map_put(&x->link_at, ino, (uint32_t)x->nlinks)) {
		free(copy);
		return;
	}
	x->links[x->nlinks++] = copy;
}

/* LINK_SKIPPED when the target is encrypted or reads as empty, which
 * symlink() refuses. */
enum { LINK_SKIPPED = -1 };

static int read_link_target(struct ext *x, const struct f2fs_node *n, char *out, size_t cap,
			    const char *path)
{
	const char *why;

	/* the target is cipher text (a length, then bytes of any value): a
	 * link made of it would point nowhere anyone meant */
	if (n->i.i_advise & F2FS_ADVISE_ENCRYPT) {
		fprintf(stderr, "%s: warning: %s: symlink skipped: its target is encrypted\n", prog,
			path);
		x->skipped++;
		return LINK_SKIPPED;
	}
	if (read_link(x->fs, n, out, cap, &why))
		return fail(path, why);
	if (strlen(out) != le64_get(n->i.i_size))
		fprintf(stderr, "%s: warning: %s: target of %zu bytes, i_size says %llu (read as the kernel reads it)\n",
			prog, path, strlen(out), (unsigned long long)le64_get(n->i.i_size));
	if (!*out) {
		fprintf(stderr, "%s: warning: %s: symlink skipped: its target reads as empty\n", prog,
			path);
		x->skipped++;
		return LINK_SKIPPED;
	}
	return 0;
}

static int collect_cb(const struct f2fs_dirent *de, void *arg)
{
	struct dlist *l = arg;

	if ((de->name_len == 1 && de->name[0] == '.') ||
	    (de->name_len == 2 && de->name[0] == '.' && de->name[1] == '.'))
		return 0;
	if (f2fs_array_reserve(l->v, l->cap, l->n + 1)) {
		l->oom = 1;
		return 1;
	}
	l->v[l->n].name = malloc(de->name_len + 1);
	if (!l->v[l->n].name) {
		l->oom = 1;
		return 1;
	}
	memcpy(l->v[l->n].name, de->name, de->name_len);
	l->v[l->n].name[de->name_len] = '\0';
	l->v[l->n].ino = de->ino;
	l->n++;
	return 0;
}

static void free_dlist(struct dlist *l)
{
	for (size_t k = 0; k < l->n; k++)
		free(l->v[k].name);
	free(l->v);
}

static int extract_ino(struct ext *x, uint32_t ino, const char *path, int top_dir_exists,
		       int depth);

static int extract_dir(struct ext *x, uint32_t ino, const struct f2fs_node *n,
		       const char *path, int exists, int depth)
{
	struct dlist l = { 0 };
	struct f2fs_error err;
	int ret = 0;
	struct f2fs_inode i = n->i;   /* n is reused by the children */

	if (depth > 4096)
		return fail(path, "directories nested too deep (a loop?)");
	if (!exists && mkdir(path, 0700) != 0)
		return fail_errno(path, "mkdir");
	x->dirs++;
	if (f2fs_dir_foreach(x->fs, ino, collect_cb, &l, &err) < 0) {
		free_dlist(&l);
		return fail(path, err.msg);
	}
	if (l.oom) {
		free_dlist(&l);
		return fail(path, "out of memory");
	}
	for (size_t k = 0; k < l.n && !ret; k++) {
		size_t len = strlen(path) + strlen(l.v[k].name) + 2;
		char *child = malloc(len);

		if (!child) {
			ret = fail(path, "out of memory");
			break;
		}
		if (strchr(l.v[k].name, '/')) {
			free(child);
			ret = fail(path, "an entry name holds '/'");
			break;
		}
		snprintf(child, len, "%s/%s", path, l.v[k].name);
		ret = extract_ino(x, l.v[k].ino, child, 0, depth + 1);
		free(child);
	}
	free_dlist(&l);
	if (ret)
		return ret;
	set_owner(x, path, &i);
	if (set_xattrs(x, path, &i))
		return 1;
	if (chmod(path, le16_get(i.i_mode) & 07777) != 0)
		return fail_errno(path, "chmod");
	set_times(path, &i, 0);
	return 0;
}

static int extract_ino(struct ext *x, uint32_t ino, const char *path, int top_dir_exists,
		       int depth)
{
	struct f2fs_node *n = malloc(sizeof(*n));
	struct f2fs_error err;
	const char *other;
	uint16_t mode;
	int ret = 0;

	if (!n)
		return fail(path, "out of memory");
	if (f2fs_read_inode(x->fs, ino, n, &err)) {
		free(n);
		return fail(path, err.msg);
	}
	mode = le16_get(n->i.i_mode);
	if ((mode & F2FS_S_IFMT) != F2FS_S_IFDIR && le32_get(n->i.i_links) > 1 &&
	    (other = seen_link(x, ino)) != NULL) {
		if (link(other, path) != 0)
			ret = fail_errno(path, "link");
		free(n);
		return ret;
	}
	switch (mode & F2FS_S_IFMT) {
	case F2FS_S_IFDIR:
		ret = extract_dir(x, ino, n, path, top_dir_exists, depth);
		free(n);
		return ret;
	case F2FS_S_IFREG: {
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

		if (fd < 0) {
			ret = fail_errno(path, "open");
			break;
		}
		ret = write_content(x, n, fd, path);
		if (!ret && ftruncate(fd, (off_t)le64_get(n->i.i_size)) != 0)
			ret = fail_errno(path, "truncate");
		if (close(fd) != 0 && !ret)
			ret = fail_errno(path, "close");
		if (ret)
			break;
		x->files++;
		set_owner(x, path, &n->i);
		if ((ret = set_xattrs(x, path, &n->i)) != 0)
			break;
		if (chmod(path, mode & 07777) != 0)
			ret = fail_errno(path, "chmod");
		set_times(path, &n->i, 0);
		break;
	}
	case F2FS_S_IFLNK: {
		char target[F2FS_BLKSIZE + 1];

		ret = read_link_target(x, n, target, sizeof(target), path);
		if (ret) {
			ret = ret == LINK_SKIPPED ? 0 : ret;
			break;
		}
		if (symlink(target, path) != 0) {
			ret = fail_errno(path, "symlink");
			break;
		}
		x->files++;
		set_owner(x, path, &n->i);
		ret = set_xattrs(x, path, &n->i);
		set_times(path, &n->i, 1);
		break;
	}
	case F2FS_S_IFIFO:
	case F2FS_S_IFCHR:
	case F2FS_S_IFBLK:
	case F2FS_S_IFSOCK: {
		/* device number: i_addr[extra words + 0] (old) or [+1] (new encoding) */
		uint32_t old = f2fs_inode_get_addr(&n->i, 0), nw = f2fs_inode_get_addr(&n->i, 1);
		dev_t dev = old ? makedev((old >> 8) & 0xff, old & 0xff)
				: makedev((nw & 0xfff00) >> 8, (nw & 0xff) | ((nw >> 12) & 0xfff00));
		int is_dev = (mode & F2FS_S_IFMT) == F2FS_S_IFCHR || (mode & F2FS_S_IFMT) == F2FS_S_IFBLK;

		if (is_dev && !x->as_root) {
			fprintf(stderr, "%s: warning: %s: device node skipped (needs root)\n", prog, path);
			x->skipped++;
			break;
		}
		if (mknod(path, (mode & F2FS_S_IFMT) | (mode & 07777), is_dev ? dev : 0) != 0) {
			ret = fail_errno(path, "mknod");
			break;
		}
		x->files++;
		set_owner(x, path, &n->i);
		ret = set_xattrs(x, path, &n->i);
		chmod(path, mode & 07777);
		set_times(path, &n->i, 0);
		break;
	}
	default:
		ret = fail(path, "unknown file type");
	}
	if (!ret && le32_get(n->i.i_links) > 1)
		remember_link(x, ino, path);
	free(n);
	return ret;
}

int do_extract(struct dump *d, const char *what, const char *dest)
{
	struct out *o = &d->out;
	struct f2fs_fs *fs = d->fs;
	struct ext x = { .fs = fs };
	struct f2fs_error err;
	struct f2fs_node *n;
	struct stat st;
	char *target = NULL;
	char name[F2FS_NAME_LEN + 16];
	uint32_t ino;
	int ret, dest_is_dir, is_dir;

	ret = resolve_target(d, what, &ino);
	if (ret)
		return ret;
	n = malloc(sizeof(*n));
	x.buf = malloc((size_t)RUN_BLOCKS * F2FS_BLKSIZE);
	if (!n || !x.buf) {
		free(n);
		free(x.buf);
		return error_line("out of memory");
	}
	if (f2fs_read_inode(fs, ino, n, &err)) {
		free(n);
		free(x.buf);
		return error_line("%s: %s", what, err.msg);
	}
	is_dir = (le16_get(n->i.i_mode) & F2FS_S_IFMT) == F2FS_S_IFDIR;
	/* the name the object gets inside an existing destination directory */
	if (is_ino_arg(what)) {
		uint32_t len = le32_get(n->i.i_namelen);

		if (len > 0 && len <= F2FS_NAME_LEN && !memchr(n->i.i_name, '/', len) &&
		    !memchr(n->i.i_name, 0, len) && ino != le32_get(f2fs_fs_sb(fs)->root_ino)) {
			memcpy(name, n->i.i_name, len);
			name[len] = '\0';
		} else {
			snprintf(name, sizeof(name), "ino_%u", ino);
		}
	} else {
		const char *end = what + strlen(what), *b;

		while (end > what && end[-1] == '/')
			end--;
		b = end;
		while (b > what && b[-1] != '/')
			b--;
		snprintf(name, sizeof(name), "%.*s", (int)(end - b), b);
	}
	free(n);
	dest_is_dir = stat(dest, &st) == 0 && S_ISDIR(st.st_mode);
	x.as_root = geteuid() == 0;
	if (dest_is_dir && is_dir && (name[0] == '\0' || ino == le32_get(f2fs_fs_sb(fs)->root_ino))) {
		/* the root: its content goes straight into DEST */
		ret = extract_ino(&x, ino, dest, 1, 0);
	} else if (dest_is_dir) {
		size_t len = strlen(dest) + strlen(name) + 2;

		target = malloc(len);
		if (!target) {
			free(x.buf);
			return error_line("out of memory");
		}
		snprintf(target, len, "%s/%s", dest, name);
		ret = extract_ino(&x, ino, target, 0, 0);
	} else {
		ret = extract_ino(&x, ino, dest, 0, 0);
	}
	if (!ret) {
		out_obj_begin(o, "extract", "Extracted:");
		out_s(o, "source", "source:", what);
		out_u(o, "ino", "inode:", ino);
		out_s(o, "destination", "destination:", target ? target : dest);
		out_u(o, "files", "files:", x.files);
		out_u(o, "directories", "directories:", x.dirs);
		out_u(o, "bytes", "bytes:", x.bytes);
		out_u(o, "skipped", "skipped:", x.skipped);
		out_u(o, "xattrs", "xattrs set:", x.xattrs);
		out_obj_end(o);
	}
	for (size_t k = 0; k < x.nlinks; k++)
		free(x.links[k]);
	free(x.links);
	f2fs_u32map_free(&x.link_at);
	free(x.buf);
	free(target);
	return ret;
}
