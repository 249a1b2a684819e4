/*
 * fsmanifest: describe a directory tree, one line per entry, sorted by path,
 * in the format of tests/rootdir/manifest.py (read its docstring for the
 * fields).  Runs in the kvm-run guest, which has busybox but no getfattr, so
 * it is built at test time with `gcc -static -O2` and shipped with
 * `kvm-run --file`.  Self-contained: its own MD5, no libraries but libc.
 *
 *   fsmanifest [--exclude-lpf] [--root-owner UID:GID] [--times m|ma|mc|mac]
 *              [--zmd5-min BYTES] [--no-hl] DIR
 *
 * Paths may be longer than PATH_MAX: everything goes through directory fds
 * (openat, fstatat, readlinkat) and /proc/self/fd/N/NAME for the xattr calls.
 * Mount the file system with noatime: lstat() comes before any read, but a
 * hard link's later lstat() would see an atime moved by an earlier read.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <unistd.h>

#define BLK 4096

/* ---- MD5 (RFC 1321) ------------------------------------------------------ */
struct md5 {
	uint32_t h[4];
	uint64_t len;
	uint8_t buf[64];
};

static const uint32_t md5_k[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
	0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
	0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
	0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
	0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};
static const uint8_t md5_r[64] = {
	7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
	5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
	4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
	6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
};

static void md5_init(struct md5 *m)
{
	m->h[0] = 0x67452301;
	m->h[1] = 0xefcdab89;
	m->h[2] = 0x98badcfe;
	m->h[3] = 0x10325476;
	m->len = 0;
}

static void md5_block(struct md5 *m, const uint8_t *p)
{
	uint32_t w[16], a = m->h[0], b = m->h[1], c = m->h[2], d = m->h[3];
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
		       (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
	for (i = 0; i < 64; i++) {
		uint32_t f, t;
		int g;

		if (i < 16) {
			f = (b & c) | (~b & d);
			g = i;
		} else if (i < 32) {
			f = (d & b) | (~d & c);
			g = (5 * i + 1) % 16;
		} else if (i < 48) {
			f = b ^ c ^ d;
			g = (3 * i + 5) % 16;
		} else {
			f = c ^ (b | ~d);
			g = (7 * i) % 16;
		}
		t = d;
		d = c;
		c = b;
		f += a + md5_k[i] + w[g];
		b += (f << md5_r[i]) | (f >> (32 - md5_r[i]));
		a = t;
	}
	m->h[0] += a;
	m->h[1] += b;
	m->h[2] += c;
	m->h[3] += d;
}

static void md5_update(struct md5 *m, const void *data, size_t n)
{
	const uint8_t *p = data;
	size_t fill = m->len % 64;

	m->len += n;
	if (fill) {
		size_t k = 64 - fill < n ? 64 - fill : n;

		memcpy(m->buf + fill, p, k);
		p += k;
		n -= k;
		if (fill + k < 64)
			return;
		md5_block(m, m->buf);
	}
	for (; n >= 64; p += 64, n -= 64)
		md5_block(m, p);
	memcpy(m->buf, p, n);
}

static void md5_hex(struct md5 *m, char out[33])
{
	uint64_t bits = m->len * 8;
	uint8_t pad[72] = { 0x80 };
	size_t padn = (m->len % 64 < 56 ? 56 : 120) - m->len % 64;
	uint8_t lenb[8];
	int i;

	for (i = 0; i < 8; i++)
		lenb[i] = (uint8_t)(bits >> (8 * i));
	md5_update(m, pad, padn);
	md5_update(m, lenb, 8);
	for (i = 0; i < 16; i++)
		sprintf(out + 2 * i, "%02x", (m->h[i / 4] >> (8 * (i % 4))) & 0xff);
}

/* ---- output lines ---------------------------------------------------------- */
struct buf {
	char *p;
	size_t n, cap;
};

static void die(const char *what, const char *path)
{
	fprintf(stderr, "fsmanifest: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

static void put(struct buf *b, const void *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			errno = ENOMEM;
			die("out of memory", "");
		}
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

static void puts_(struct buf *b, const char *s) { put(b, s, strlen(s)); }

static void putf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void putf(struct buf *b, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	put(b, tmp, (size_t)n);
}

/* bytes <= 0x20, >= 0x7f, '%' and '=' as %XX */
static void put_esc(struct buf *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= 0x20 || c >= 0x7f || c == '%' || c == '=')
			putf(b, "%%%02X", c);
		else
			put(b, &s[i], 1);
	}
}

static void put_ts(struct buf *b, const char *key, struct timespec t)
{
	/* st_*tim is normalized: 0 <= tv_nsec < 1e9, tv_sec may be negative */
	putf(b, " %s=%lld.%09ld", key, (long long)t.tv_sec, t.tv_nsec);
}

struct ent {
	char *raw;	/* the path as it is: the sort key */
	char *path;	/* escaped path */
	char *rest;	/* fields after the path, before hl= */
	char *xattrs;	/* " x=..." fields */
	dev_t dev;
	ino_t ino;
	int multi;	/* a non-directory with nlink > 1 */
};

static struct ent *ents;
static size_t nents, capents;

static struct {
	int exclude_lpf, no_hl, root_owner, atime, ctime;
	unsigned long long root_uid, root_gid;
	unsigned long long zmin;
} opt = { .zmin = 256ULL << 20 };

static int lpf_dir;

/* ---- contents ----------------------------------------------------------- */
static char iobuf[1 << 20];

static void digest(int fd, off_t size, const char *path, struct buf *b)
{
	struct md5 m;
	char hex[33];
	ssize_t r;

	md5_init(&m);
	if ((unsigned long long)size < opt.zmin) {
		while ((r = read(fd, iobuf, sizeof(iobuf))) > 0)
			md5_update(&m, iobuf, (size_t)r);
		if (r < 0)
			die("cannot read", path);
		md5_hex(&m, hex);
		putf(b, " md5=%s", hex);
		return;
	}
	static const char zero[BLK];
	off_t off = 0;

	while (off < size) {
		off_t data = lseek(fd, off, SEEK_DATA), hole, pos, end;

		if (data < 0) {
			if (errno == ENXIO)
				break;
			die("cannot seek", path);
		}
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0)
			die("cannot seek", path);
		pos = data / BLK * BLK;
		end = (hole + BLK - 1) / BLK * BLK;
		if (end > size)
			end = size;
		if (lseek(fd, pos, SEEK_SET) < 0)
			die("cannot seek", path);
		while (pos < end) {
			size_t want = end - pos < (off_t)sizeof(iobuf) ? (size_t)(end - pos) : sizeof(iobuf);
			size_t i;

			r = read(fd, iobuf, want);
			if (r < 0)
				die("cannot read", path);
			if (r == 0)
				break;
			for (i = 0; i < (size_t)r; i += BLK) {
				size_t len = (size_t)r - i < BLK ? (size_t)r - i : BLK;

				if (memcmp(iobuf + i, zero, len)) {
					uint64_t bn = (uint64_t)(pos + (off_t)i) / BLK;
					uint8_t le[8];
					int k;

					for (k = 0; k < 8; k++)
						le[k] = (uint8_t)(bn >> (8 * k));
					md5_update(&m, le, 8);
					md5_update(&m, iobuf + i, len);
				}
			}
			pos += r;
		}
		off = end;
	}
	md5_hex(&m, hex);
	putf(b, " zmd5=%s", hex);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void xattrs(const char *procpath, const char *path, struct buf *b)
{
	ssize_t n = llistxattr(procpath, NULL, 0);
	char *list, **names;
	size_t cnt = 0, i;

	if (n < 0) {
		if (errno == ENOTSUP || errno == EPERM)
			return;
		die("cannot list xattrs of", path);
	}
	if (n == 0)
		return;
	list = malloc((size_t)n + 1);
	n = llistxattr(procpath, list, (size_t)n);
	if (n < 0)
		die("cannot list xattrs of", path);
	for (i = 0; i < (size_t)n; i += strlen(list + i) + 1)
		cnt++;
	names = calloc(cnt, sizeof(*names));
	cnt = 0;
	for (i = 0; i < (size_t)n; i += strlen(list + i) + 1)
		names[cnt++] = list + i;
	qsort(names, cnt, sizeof(*names), cmp_str);
	for (i = 0; i < cnt; i++) {
		ssize_t vn = lgetxattr(procpath, names[i], NULL, 0), k;
		unsigned char *v;

		if (vn < 0)
			die("cannot get an xattr of", path);
		v = malloc((size_t)vn + 1);
		vn = lgetxattr(procpath, names[i], v, (size_t)vn);
		if (vn < 0)
			die("cannot get an xattr of", path);
		puts_(b, " x=");
		put_esc(b, names[i], strlen(names[i]));
		puts_(b, "=");
		for (k = 0; k < vn; k++)
			putf(b, "%02x", v[k]);
		free(v);
	}
	free(names);
	free(list);
}

/* One entry: NAME in the directory DFD ("." with DFD the root itself). */
static void entry(int dfd, const char *name, const char *rel, size_t rlen,
		  const struct stat *st, int is_root)
{
	struct buf b = { 0 }, x = { 0 }, p = { 0 };
	char procpath[64 + 256];
	unsigned long long uid = st->st_uid, gid = st->st_gid, nlink = st->st_nlink;
	char t;

	switch (st->st_mode & S_IFMT) {
	case S_IFREG: t = 'f'; break;
	case S_IFDIR: t = 'd'; break;
	case S_IFLNK: t = 'l'; break;
	case S_IFCHR: t = 'c'; break;
	case S_IFBLK: t = 'b'; break;
	case S_IFIFO: t = 'p'; break;
	case S_IFSOCK: t = 's'; break;
	default: t = '?';
	}
	if (is_root) {
		if (opt.root_owner) {
			uid = opt.root_uid;
			gid = opt.root_gid;
		}
		if (lpf_dir)
			nlink--;
	}
	put_esc(&p, rel, rlen);
	putf(&b, " %c m=%04o u=%llu g=%llu n=%llu", t, (unsigned)(st->st_mode & 07777), uid, gid,
	     nlink);
	if (t == 'f' || t == 'l')
		putf(&b, " s=%lld", (long long)st->st_size);
	if (t == 'f') {
		if (st->st_size == 0) {
			putf(&b, " %s=d41d8cd98f00b204e9800998ecf8427e", opt.zmin > 0 ? "md5" : "zmd5");
		} else {
			int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NOATIME | O_CLOEXEC);

			if (fd < 0 && errno == EPERM)
				fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				die("cannot open", p.p);
			digest(fd, st->st_size, p.p, &b);
			close(fd);
		}
	}
	if (t == 'l') {
		char *tgt = malloc((size_t)st->st_size + 2);
		ssize_t n = readlinkat(dfd, name, tgt, (size_t)st->st_size + 1);

		if (n < 0)
			die("cannot readlink", p.p);
		puts_(&b, " l=");
		put_esc(&b, tgt, (size_t)n);
		free(tgt);
	}
	if (t == 'c' || t == 'b')
		putf(&b, " r=%u:%u", major(st->st_rdev), minor(st->st_rdev));
	put_ts(&b, "mt", st->st_mtim);
	if (opt.atime)
		put_ts(&b, "at", st->st_atim);
	if (opt.ctime)
		put_ts(&b, "ct", st->st_ctim);
	if (is_root)
		snprintf(procpath, sizeof(procpath), "/proc/self/fd/%d", dfd);
	else
		snprintf(procpath, sizeof(procpath), "/proc/self/fd/%d/%s", dfd, name);
	xattrs(procpath, p.p, &x);

	if (nents == capents) {
		capents = capents ? capents * 2 : 1024;
		ents = realloc(ents, capents * sizeof(*ents));
		if (!ents) {
			errno = ENOMEM;
			die("out of memory", "");
		}
	}
	ents[nents].raw = strdup(rel);
	ents[nents].path = p.p;
	ents[nents].rest = b.p;
	ents[nents].xattrs = x.p;
	ents[nents].dev = st->st_dev;
	ents[nents].ino = st->st_ino;
	ents[nents].multi = t != 'd' && nlink > 1;
	nents++;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(int dfd, const char *rel, size_t rlen)
{
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int dup_fd = dup(dfd);

	if (dup_fd < 0 || !(d = fdopendir(dup_fd)))
		die("cannot read directory", rel);
	while ((errno = 0, e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!rlen && opt.exclude_lpf && !strcmp(e->d_name, "lost+found"))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			names = realloc(names, cap * sizeof(*names));
		}
		names[n++] = strdup(e->d_name);
	}
	if (errno)
		die("cannot read directory", rel);
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_name);
	for (i = 0; i < n; i++) {
		size_t nl = strlen(names[i]), cl = rlen ? rlen + 1 + nl : nl;
		char *crel = malloc(cl + 1);
		struct stat st;

		if (rlen) {
			memcpy(crel, rel, rlen);
			crel[rlen] = '/';
			memcpy(crel + rlen + 1, names[i], nl + 1);
		} else {
			memcpy(crel, names[i], nl + 1);
		}
		if (fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW))
			die("cannot stat", crel);
		entry(dfd, names[i], crel, cl, &st, 0);
		if (S_ISDIR(st.st_mode)) {
			int cfd = openat(dfd, names[i],
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOATIME | O_CLOEXEC);

			if (cfd < 0 && errno == EPERM)
				cfd = openat(dfd, names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (cfd < 0)
				die("cannot open directory", crel);
			walk(cfd, crel, cl);
			close(cfd);
		}
		free(crel);
		free(names[i]);
	}
	free(names);
}

static int cmp_ent(const void *a, const void *b)
{
	return strcmp(((const struct ent *)a)->raw, ((const struct ent *)b)->raw);
}

static void usage(void)
{
	fprintf(stderr, "usage: fsmanifest [--exclude-lpf] [--root-owner UID:GID] "
			"[--times m|ma|mc|mac] [--zmd5-min BYTES] [--no-hl] DIR\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	struct stat st;
	int i, fd;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--exclude-lpf")) {
			opt.exclude_lpf = 1;
		} else if (!strcmp(argv[i], "--no-hl")) {
			opt.no_hl = 1;
		} else if (!strcmp(argv[i], "--root-owner") && i + 1 < argc) {
			if (sscanf(argv[++i], "%llu:%llu", &opt.root_uid, &opt.root_gid) != 2)
				usage();
			opt.root_owner = 1;
		} else if (!strcmp(argv[i], "--times") && i + 1 < argc) {
			const char *t = argv[++i];

			if (strcmp(t, "m") && strcmp(t, "ma") && strcmp(t, "mc") && strcmp(t, "mac"))
				usage();
			opt.atime = strchr(t, 'a') != NULL;
			opt.ctime = strchr(t, 'c') != NULL;
		} else if (!strcmp(argv[i], "--zmd5-min") && i + 1 < argc) {
			opt.zmin = strtoull(argv[++i], NULL, 10);
		} else if (argv[i][0] == '-' || dir) {
			usage();
		} else {
			dir = argv[i];
		}
	}
	if (!dir)
		usage();
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		die("cannot open", dir);
	if (fstat(fd, &st))
		die("cannot stat", dir);
	if (opt.exclude_lpf) {
		struct stat l;

		lpf_dir = !fstatat(fd, "lost+found", &l, AT_SYMLINK_NOFOLLOW) && S_ISDIR(l.st_mode);
	}
	entry(fd, ".", ".", 1, &st, 1);
	walk(fd, "", 0);
	qsort(ents, nents, sizeof(*ents), cmp_ent);
	{
		/* hl=: the first path of each inode with more than one link */
		size_t k, j;
		struct { dev_t dev; ino_t ino; const char *first; } *seen = NULL;
		size_t nseen = 0, capseen = 0;

		for (k = 0; k < nents; k++) {
			struct ent *e = &ents[k];

			fputs(e->path, stdout);
			fputs(e->rest, stdout);
			if (e->multi && !opt.no_hl) {
				const char *first = NULL;

				for (j = 0; j < nseen; j++)
					if (seen[j].dev == e->dev && seen[j].ino == e->ino) {
						first = seen[j].first;
						break;
					}
				if (!first) {
					if (nseen == capseen) {
						capseen = capseen ? capseen * 2 : 64;
						seen = realloc(seen, capseen * sizeof(*seen));
					}
					seen[nseen].dev = e->dev;
					seen[nseen].ino = e->ino;
					seen[nseen].first = first = e->path;
					nseen++;
				}
				fputs(" hl=", stdout);
				fputs(first, stdout);
			}
			if (e->xattrs)
				fputs(e->xattrs, stdout);
			fputc('\n', stdout);
		}
		free(seen);
	}
	if (fflush(stdout) || ferror(stdout)) {
		perror("fsmanifest: write");
		return 1;
	}
	return 0;
}
