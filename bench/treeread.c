/*
 * treeread: the read bound of `mkfs.f2fs --rootdir`.
 *
 *   treeread [-j THREADS] DIR
 *
 * Asks the kernel exactly what any tool that copies DIR into an image must
 * ask, and nothing else: list every directory, stat every entry, list the
 * xattrs of every entry, open, read and close every regular file. Nothing is
 * built or written. With -j, THREADS workers share the directories, so the
 * figure is the bound on a machine with that many cores.
 *
 * Prints one line: "files=N dirs=N bytes=N threads=N seconds=S".
 * Exit status 0, or 1 with a message when the tree cannot be read.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

struct queue {
	pthread_mutex_t lock;
	pthread_cond_t more;
	char **dirs;
	size_t len, cap;
	size_t busy;		/* workers inside a directory: more may come */
	int failed;
};

struct counts {
	uint64_t files, dirs, bytes;
};

struct worker {
	pthread_t thread;
	struct queue *q;
	struct counts n;
	char *buf;
	size_t buf_size;
};

static int push(struct queue *q, char *path)
{
	if (q->len == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 256;
		char **d = realloc(q->dirs, cap * sizeof(*d));

		if (!d)
			return -1;
		q->dirs = d;
		q->cap = cap;
	}
	q->dirs[q->len++] = path;
	return 0;
}

/* Next directory to read, or NULL when every worker is idle and none is left. */
static char *pop(struct queue *q)
{
	char *path = NULL;

	pthread_mutex_lock(&q->lock);
	while (!q->len && q->busy && !q->failed)
		pthread_cond_wait(&q->more, &q->lock);
	if (q->len && !q->failed) {
		path = q->dirs[--q->len];
		q->busy++;
	}
	pthread_mutex_unlock(&q->lock);
	return path;
}

static void done_with(struct queue *q, int failed)
{
	pthread_mutex_lock(&q->lock);
	q->busy--;
	q->failed |= failed;
	pthread_cond_broadcast(&q->more);
	pthread_mutex_unlock(&q->lock);
}

static int read_file(struct worker *w, int dfd, const char *name, off_t size)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOATIME | O_CLOEXEC);

	if (fd < 0 && errno == EPERM)
		fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if ((size_t)size > w->buf_size) {
		char *b = realloc(w->buf, size);

		if (!b) {
			close(fd);
			return -1;
		}
		w->buf = b;
		w->buf_size = size;
	}
	ssize_t got = size ? pread(fd, w->buf, size, 0) : 0;

	close(fd);
	if (got < 0)
		return -1;
	w->n.bytes += got;
	return 0;
}

static int read_dir(struct worker *w, const char *path)
{
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd < 0 ? NULL : fdopendir(dfd);
	struct dirent *e;
	char sub[4096], list[65536];
	int rc = 0;

	if (!d) {
		fprintf(stderr, "treeread: %s: %s\n", path, strerror(errno));
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	w->n.dirs++;
	while (!rc && (e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) >= (int)sizeof(sub) ||
		    fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    llistxattr(sub, list, sizeof(list)) < 0) {
			fprintf(stderr, "treeread: %s: %s\n", sub, strerror(errno));
			rc = -1;
		} else if (S_ISDIR(st.st_mode)) {
			char *copy = strdup(sub);

			pthread_mutex_lock(&w->q->lock);
			rc = copy ? push(w->q, copy) : -1;
			pthread_cond_signal(&w->q->more);
			pthread_mutex_unlock(&w->q->lock);
		} else if (S_ISREG(st.st_mode)) {
			w->n.files++;
			if (read_file(w, dfd, e->d_name, st.st_size)) {
				fprintf(stderr, "treeread: %s: %s\n", sub, strerror(errno));
				rc = -1;
			}
		}
	}
	closedir(d);
	return rc;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	char *path;

	while ((path = pop(w->q))) {
		int rc = read_dir(w, path);

		free(path);
		done_with(w->q, rc != 0);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = 1, opt;

	while ((opt = getopt(argc, argv, "j:")) != -1) {
		if (opt != 'j' || (threads = atoi(optarg)) < 1 || threads > 256) {
			fprintf(stderr, "usage: treeread [-j THREADS] DIR\n");
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: treeread [-j THREADS] DIR\n");
		return 2;
	}

	struct queue q = { .lock = PTHREAD_MUTEX_INITIALIZER, .more = PTHREAD_COND_INITIALIZER };
	struct worker *w = calloc(threads, sizeof(*w));
	char *root = strdup(argv[optind]);
	struct timespec t0, t1;

	if (!w || !root || push(&q, root)) {
		fprintf(stderr, "treeread: out of memory\n");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < threads; i++) {
		w[i].q = &q;
		if (pthread_create(&w[i].thread, NULL, work, &w[i])) {
			fprintf(stderr, "treeread: cannot start a thread\n");
			return 1;
		}
	}
	struct counts sum = { 0 };

	for (int i = 0; i < threads; i++) {
		pthread_join(w[i].thread, NULL);
		sum.files += w[i].n.files;
		sum.dirs += w[i].n.dirs;
		sum.bytes += w[i].n.bytes;
		free(w[i].buf);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (q.failed)
		return 1;
	printf("files=%llu dirs=%llu bytes=%llu threads=%d seconds=%.3f\n",
	       (unsigned long long)sum.files, (unsigned long long)sum.dirs,
	       (unsigned long long)sum.bytes, threads,
	       (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	free(q.dirs);
	free(w);
	return 0;
}
