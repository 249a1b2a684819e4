/* Scan a source directory tree into compact tables. */
#include <f2fs/build/tree.h>
#include <f2fs/util/sort.h>
#include <f2fs/util/vec.h>
#include "host_open.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

/* Hard links: source (dev, ino) to our inode index, open addressing. */
struct link_map {
	struct { dev_t dev; ino_t ino; uint32_t idx; bool used; } *slot;
	size_t cap, used;
};

static size_t link_hash(dev_t d, ino_t i, size_t cap)
{
	uint64_t h = (uint64_t)d * 0x9E3779B97F4A7C15ull ^ (uint64_t)i * 0xC2B2AE3D27D4EB4Full;

	return (size_t)(h >> 17) & (cap - 1);
}

static int link_find_or_add(struct link_map *m, dev_t d, ino_t i, uint32_t idx,
			    uint32_t *found)
{
	size_t h;

	if ((m->used + 1) * 2 > m->cap) {
		struct link_map n = { calloc(m->cap ? m->cap * 2 : 1024, sizeof(*m->slot)),
				      m->cap ? m->cap * 2 : 1024, 0 };

		if (!n.slot)
			return -ENOMEM;
		for (size_t k = 0; k < m->cap; k++)
			if (m->slot[k].used) {
				uint32_t dummy;

				link_find_or_add(&n, m->slot[k].dev, m->slot[k].ino,
						 m->slot[k].idx, &dummy);
			}
		free(m->slot);
		*m = n;
	}
	for (h = link_hash(d, i, m->cap); m->slot[h].used; h = (h + 1) & (m->cap - 1)) {
		if (m->slot[h].dev == d && m->slot[h].ino == i) {
			*found = m->slot[h].idx;
			return 1;
		}
	}
	m->slot[h].used = true;
	m->slot[h].dev = d;
	m->slot[h].ino = i;
	m->slot[h].idx = idx;
	m->used++;
	return 0;
}

static uint32_t xattr_bytes(const char *path)
{
	char list[65536];
	ssize_t n = llistxattr(path, list, sizeof(list));
	uint32_t total = 0;

	for (ssize_t off = 0; n > 0 && off < n; off += (ssize_t)strlen(list + off) + 1) {
		ssize_t v = lgetxattr(path, list + off, NULL, 0);

		total += (uint32_t)strlen(list + off) + (v > 0 ? (uint32_t)v : 0) + 8;
	}
	return total;
}

static void fill_inode(struct f2fs_tree_inode *n, const struct stat *st, const char *path)
{
	memset(n, 0, sizeof(*n));
	n->mode = st->st_mode;
	n->uid = st->st_uid;
	n->gid = st->st_gid;
	n->size = (uint64_t)st->st_size;
	n->alloc_bytes = (uint64_t)st->st_blocks * 512;
	n->atime = st->st_atim.tv_sec;
	n->atime_ns = (uint32_t)st->st_atim.tv_nsec;
	n->mtime = st->st_mtim.tv_sec;
	n->mtime_ns = (uint32_t)st->st_mtim.tv_nsec;
	n->ctime = st->st_ctim.tv_sec;
	n->ctime_ns = (uint32_t)st->st_ctim.tv_nsec;
	n->rdev = st->st_rdev;
	n->nlink = 1;
	n->xattr_bytes = xattr_bytes(path);
}

struct name_ref {
	char *name;
	size_t len;
};

static int name_less(const void *a, const void *b, void *ctx)
{
	const struct name_ref *x = a, *y = b;

	(void)ctx;
	return strcmp(x->name, y->name) < 0;
}

/*
 * The sorted names of a directory (without . and ..), and the directory
 * left open in *dirp: its entries are looked up relative to it, one path
 * component each instead of the whole path.
 */
static int read_names(const char *path, DIR **dirp, struct name_ref **out, size_t *n,
		      struct f2fs_error *err)
{
	int fd = host_openat(AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;
	F2FS_VEC(struct name_ref) v = { 0 };
	struct dirent *e;

	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return f2fs_fail(err, -e, "cannot read directory %s: %s", path, strerror(e));
	}
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (f2fs_vec_reserve(&v, v.n + 1) ||
		    !(v.v[v.n].name = strdup(e->d_name))) {
			closedir(d);
			for (size_t k = 0; k < v.n; k++)
				free(v.v[k].name);
			f2fs_vec_free(&v);
			return f2fs_fail(err, -ENOMEM, "out of memory reading %s", path);
		}
		v.v[v.n].len = strlen(e->d_name);
		v.n++;
	}
	f2fs_sort(v.v, v.n, sizeof(*v.v), name_less, NULL);
	*dirp = d;
	*out = v.v;
	*n = v.n;
	return 0;
}

int f2fs_tree_path(const struct f2fs_tree *t, uint32_t i, char *buf, size_t len)
{
	uint32_t chain[PATH_MAX / 2];
	size_t depth = 0, used;

	while (i != 0 && depth < sizeof(chain) / sizeof(chain[0])) {
		uint32_t d = t->inodes[i].first_dentry;

		chain[depth++] = d;
		i = t->dentries[d].parent;
	}
	used = (size_t)snprintf(buf, len, "%s", t->root_path);
	while (depth-- > 0) {
		const struct f2fs_tree_dentry *d = &t->dentries[chain[depth]];

		if (used + 1 + d->name_len + 1 > len)
			return -ENAMETOOLONG;
		buf[used++] = '/';
		memcpy(buf + used, f2fs_tree_name(t, d), d->name_len);
		used += d->name_len;
		buf[used] = '\0';
	}
	return 0;
}

static int add_name(struct f2fs_tree *t, const struct name_ref *r, uint32_t *off)
{
	if (f2fs_array_reserve(t->names, t->names_cap, t->names_len + r->len + 1))
		return -ENOMEM;
	*off = (uint32_t)t->names_len;
	memcpy(t->names + t->names_len, r->name, r->len + 1);
	t->names_len += r->len + 1;
	return 0;
}

/* A case-insensitive directory (ext4, f2fs, tmpfs: chattr +F)? */
static uint8_t is_casefolded(int fd)
{
	int flags = 0;

	/* file systems without inode flags answer ENOTTY: not casefolded */
	return ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_CASEFOLD_FL);
}

/* What the scan checks besides reading. */
struct scan_opts {
	bool check_read;                   /* that each file can be read */
	const struct f2fs_file_id *avoid;  /* files that must not be in the tree */
	size_t navoid;
};

static bool avoided(const struct scan_opts *so, const struct stat *st)
{
	for (size_t i = 0; i < so->navoid; i++)
		if (so->avoid[i].dev == (uint64_t)st->st_dev && so->avoid[i].ino == (uint64_t)st->st_ino)
			return true;
	return false;
}

/* Add the entries of directory dir (already in the table) and their inodes. */
static int scan_dir(struct f2fs_tree *t, uint32_t dir, struct link_map *links,
		    const struct scan_opts *so, struct f2fs_error *err)
{
	char path[PATH_MAX], child[PATH_MAX];
	struct name_ref *names = NULL;
	size_t n = 0;
	DIR *ds = NULL;
	int ret;

	if (f2fs_tree_path(t, dir, path, sizeof(path)))
		return f2fs_fail(err, -ENAMETOOLONG, "path too long (over %d bytes) under %s",
				 PATH_MAX, t->root_path);
	ret = read_names(path, &ds, &names, &n, err);
	if (ret)
		return ret;
	t->inodes[dir].casefold = is_casefolded(dirfd(ds));
	t->inodes[dir].child_start = (uint32_t)t->ndentries;
	t->inodes[dir].nchild = (uint32_t)n;
	for (size_t k = 0; k < n && !ret; k++) {
		struct f2fs_tree_dentry *d;
		struct stat st;
		uint32_t idx, seen;

		if (names[k].len > 255) {
			ret = f2fs_fail(err, -ENAMETOOLONG, "%s/%s: name longer than 255 bytes",
					path, names[k].name);
			break;
		}
		if ((size_t)snprintf(child, sizeof(child), "%s/%s", path, names[k].name) >=
		    sizeof(child)) {
			ret = f2fs_fail(err, -ENAMETOOLONG,
					"path too long (over %d bytes) under %s: %s/%s", PATH_MAX,
					t->root_path, path, names[k].name);
			break;
		}
		if (fstatat(dirfd(ds), names[k].name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			ret = f2fs_fail(err, -errno, "cannot stat %s: %s", child, strerror(errno));
			break;
		}
		if (S_ISREG(st.st_mode) && avoided(so, &st)) {
			ret = f2fs_fail(err, -F2FS_E_BAD_OPTION,
					"--rootdir %s holds %s, the image being made: it would copy itself; put the image outside the tree",
					t->root_path, child);
			break;
		}
		/* unreadable content must stop mkfs before it writes anything */
		if (so->check_read && S_ISREG(st.st_mode) && st.st_size > 0 &&
		    faccessat(dirfd(ds), names[k].name, R_OK, AT_EACCESS) != 0) {
			ret = f2fs_fail(err, -errno, "cannot read %s: %s", child, strerror(errno));
			break;
		}
		if (f2fs_array_reserve(t->dentries, t->dentries_cap, t->ndentries + 1) ||
		    f2fs_array_reserve(t->inodes, t->inodes_cap, t->ninodes + 1)) {
			ret = f2fs_fail(err, -ENOMEM, "out of memory scanning %s", path);
			break;
		}
		d = &t->dentries[t->ndentries];
		d->name_len = (uint16_t)names[k].len;
		d->parent = dir;
		if (add_name(t, &names[k], &d->name_off)) {
			ret = f2fs_fail(err, -ENOMEM, "out of memory scanning %s", path);
			break;
		}
		idx = (uint32_t)t->ninodes;
		if (!S_ISDIR(st.st_mode) && st.st_nlink > 1 &&
		    link_find_or_add(links, st.st_dev, st.st_ino, idx, &seen) == 1) {
			d->inode = seen;
			t->inodes[seen].nlink++;
		} else {
			fill_inode(&t->inodes[idx], &st, child);
			t->inodes[idx].first_dentry = (uint32_t)t->ndentries;
			d->inode = idx;
			t->ninodes++;
			if (S_ISDIR(st.st_mode))
				t->inodes[dir].nsubdirs++;
		}
		t->ndentries++;
	}
	closedir(ds);
	for (size_t k = 0; k < n; k++)
		free(names[k].name);
	free(names);
	return ret;
}

int f2fs_tree_scan(struct f2fs_tree *t, const char *path, const struct f2fs_file_id *avoid,
		   size_t navoid, struct f2fs_error *err)
{
	struct link_map links = { 0 };
	struct stat st;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	if (lstat(path, &st) != 0)
		return f2fs_fail(err, -errno, "--rootdir %s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return f2fs_fail(err, -ENOTDIR, "--rootdir %s: not a directory", path);
	t->root_path = strdup(path);
	t->inodes = calloc(1, sizeof(*t->inodes));
	if (!t->root_path || !t->inodes) {
		f2fs_tree_free(t);
		return f2fs_fail(err, -ENOMEM, "out of memory");
	}
	t->inodes_cap = 1;
	t->ninodes = 1;
	fill_inode(&t->inodes[0], &st, path);
	/*
	 * Root reads every file (CAP_DAC_OVERRIDE), so asking the kernel per
	 * file would be one more path lookup each for nothing. Where root still
	 * cannot read (a root-squashed NFS export), mkfs fails while writing,
	 * after the old superblocks were cleared: the target is left
	 * unformatted, never half-valid.
	 */
	struct scan_opts so = { geteuid() != 0, avoid, navoid };

	/* breadth first: each directory's entries stay contiguous */
	for (uint32_t i = 0; i < t->ninodes && !ret; i++)
		if (S_ISDIR(t->inodes[i].mode))
			ret = scan_dir(t, i, &links, &so, err);
	free(links.slot);
	if (ret)
		f2fs_tree_free(t);
	return ret;
}

void f2fs_tree_free(struct f2fs_tree *t)
{
	free(t->root_path);
	free(t->inodes);
	free(t->dentries);
	free(t->names);
	memset(t, 0, sizeof(*t));
}
