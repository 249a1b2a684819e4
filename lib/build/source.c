/* Source files of mkfs --rootdir: open, read, read ahead (see source.h). */
#include "source.h"
#include "host_open.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define SRC_OPEN_FLAGS (O_RDONLY | O_CLOEXEC | O_NOFOLLOW)

void src_init(struct src_reader *r, const struct f2fs_tree *t)
{
	memset(r, 0, sizeof(*r));
	r->t = t;
	r->cur = (struct src_dir){ UINT32_MAX, -1 };
	r->ahead_dir = (struct src_dir){ UINT32_MAX, -1 };
	r->nowait_ok = true;
	for (int k = 0; k < SRC_AHEAD; k++) {
		r->ring_fd[k] = -1;
		r->ring_ti[k] = UINT32_MAX;
	}
}

static void dir_close(struct src_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	*d = (struct src_dir){ UINT32_MAX, -1 };
}

void src_fini(struct src_reader *r)
{
	dir_close(&r->cur);
	dir_close(&r->ahead_dir);
	for (int k = 0; k < SRC_AHEAD; k++)
		if (r->ring_fd[k] >= 0)
			close(r->ring_fd[k]);
}

/* Open file ti relative to its directory, kept open for its siblings
 * (inodes come breadth first): one path component to look up, not all. */
static int open_in(const struct f2fs_tree *t, struct src_dir *d, uint32_t ti,
		   const char *path)
{
	const struct f2fs_tree_dentry *de = &t->dentries[t->inodes[ti].first_dentry];

	if (de->parent != d->ti) {
		char dir[PATH_MAX];

		dir_close(d);
		d->ti = de->parent;
		if (!f2fs_tree_path(t, de->parent, dir, sizeof(dir)))
			d->fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	if (d->fd < 0)
		return host_openat(AT_FDCWD, path, SRC_OPEN_FLAGS);
	return host_openat(d->fd, f2fs_tree_name(t, de), SRC_OPEN_FLAGS);
}

void src_prefetch(struct src_reader *r, uint32_t ti)
{
	if (!r->cold)
		return;
	if (r->ahead <= ti)
		r->ahead = ti + 1;
	for (; r->ahead < r->t->ninodes && r->ahead <= ti + SRC_AHEAD - 1; r->ahead++) {
		const struct f2fs_tree_inode *n = &r->t->inodes[r->ahead];
		int slot = (int)(r->ahead % SRC_AHEAD), fd;
		char path[PATH_MAX];

		if (!S_ISREG(n->mode) || n->size == 0 ||
		    f2fs_tree_path(r->t, r->ahead, path, sizeof(path)))
			continue;
		fd = open_in(r->t, &r->ahead_dir, r->ahead, path);
		if (fd < 0)
			continue;   /* src_open will fail on it and say why */
		(void)posix_fadvise(fd, 0, (off_t)n->size, POSIX_FADV_WILLNEED);
		if (r->ring_fd[slot] >= 0)
			close(r->ring_fd[slot]);
		r->ring_fd[slot] = fd;
		r->ring_ti[slot] = r->ahead;
	}
}

int src_open(struct src_reader *r, uint32_t ti, const char *path)
{
	int slot = (int)(ti % SRC_AHEAD);

	if (r->ring_ti[slot] == ti && r->ring_fd[slot] >= 0) {
		int fd = r->ring_fd[slot];

		r->ring_fd[slot] = -1;
		r->ring_ti[slot] = UINT32_MAX;
		return fd;
	}
	return open_in(r->t, &r->cur, ti, path);
}

/* First try without waiting: a read that would wait says the cache is
 * cold, which turns on prefetching for the files that follow. */
static ssize_t read_some(struct src_reader *r, int fd, uint8_t *buf, size_t len, off_t off)
{
	if (!r->cold && r->nowait_ok) {
		struct iovec iov = { buf, len };
		ssize_t n = preadv2(fd, &iov, 1, off, RWF_NOWAIT);

		if (n >= 0)
			return n;
		if (errno == EAGAIN)
			r->cold = true;
		else if (errno == EOPNOTSUPP || errno == EINVAL || errno == ENOSYS)
			r->nowait_ok = false;
		else if (errno != EINTR)
			return -1;
	}
	return pread(fd, buf, len, off);
}

int src_read(struct src_reader *r, int fd, uint8_t *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read_some(r, fd, buf + done, len - done, off + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;   /* the file shrank: the rest reads as zero */
		done += (size_t)n;
	}
	memset(buf + done, 0, len - done);
	return 0;
}
