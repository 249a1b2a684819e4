/* The loader thread of mkfs --rootdir (see loader.h). */
#include "loader.h"
#include "source.h"

#include <f2fs/format/format.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RING_BYTES (16u << 20)   /* 16 times the largest file it takes */
#define RING_SLOTS 4096u
#define LOAD_BLOCK 4096u
/* Wake the other thread only when it has a batch of work: a wake-up per
 * file would cost two futex calls a file, as much as the reading itself. */
#define TAKE_BATCH 64u
#define FREE_BATCH 4u          /* a quarter of the ring and of the slots */

/* One file in the ring. Offsets count bytes ever produced, so they only grow. */
struct loaded {
	uint32_t ti;
	int err;              /* 0 or -errno */
	const char *what;     /* the call that failed */
	uint64_t start, end;  /* its bytes; end - start is whole blocks */
};

struct src_loader {
	const struct f2fs_tree *t;
	struct src_reader src;     /* used by the loader's thread only */
	uint8_t *ring;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t filled, freed;
	uint64_t head, tail;       /* ring bytes produced / released */
	uint64_t produced, taken, released;   /* files */
	bool stop, done;
	bool taker_waits, loader_waits;   /* signal only a thread that sleeps */
	uint64_t taker_wants;      /* wake the taker once this many are produced */
	struct loaded slot[RING_SLOTS];
};

bool src_loader_wants(const struct f2fs_tree *t, uint32_t ti)
{
	const struct f2fs_tree_inode *s = &t->inodes[ti];

	/* a larger or sparse file may have holes to keep: the caller seeks */
	return (s->mode & F2FS_S_IFMT) == F2FS_S_IFREG && s->size <= LOADER_MAX_FILE &&
	       (s->alloc_bytes >= s->size || s->size <= LOAD_BLOCK);
}

/* Room for len bytes in one piece of the ring; false once told to stop. */
static bool reserve(struct src_loader *l, uint64_t len, uint64_t *start)
{
	bool ok;

	pthread_mutex_lock(&l->lock);
	for (;;) {
		uint64_t at = l->head, pad = 0;

		if (at % RING_BYTES + len > RING_BYTES)
			pad = RING_BYTES - at % RING_BYTES;   /* never wrap a file */
		ok = !l->stop;
		if (!ok || (at + pad + len - l->tail <= RING_BYTES &&
			    l->produced - l->released < RING_SLOTS)) {
			*start = at + pad;
			break;
		}
		if (l->taker_waits)
			pthread_cond_signal(&l->filled);   /* full before its batch */
		l->loader_waits = true;
		pthread_cond_wait(&l->freed, &l->lock);
		l->loader_waits = false;
	}
	pthread_mutex_unlock(&l->lock);
	return ok;
}

static void publish(struct src_loader *l, const struct loaded *e)
{
	pthread_mutex_lock(&l->lock);
	l->slot[l->produced % RING_SLOTS] = *e;
	l->produced++;
	l->head = e->end;
	if (l->taker_waits && l->produced >= l->taker_wants)
		pthread_cond_signal(&l->filled);
	pthread_mutex_unlock(&l->lock);
}

static void load_one(struct src_loader *l, struct loaded *e, uint64_t size)
{
	uint8_t *buf = l->ring + e->start % RING_BYTES;
	char path[PATH_MAX];
	int fd;

	src_prefetch(&l->src, e->ti);
	e->what = "open";
	if (f2fs_tree_path(l->t, e->ti, path, sizeof(path))) {
		e->err = -ENAMETOOLONG;
		return;
	}
	fd = src_open(&l->src, e->ti, path);
	if (fd < 0) {
		e->err = -errno;
		return;
	}
	e->what = "read";
	e->err = src_read(&l->src, fd, buf, (size_t)size, 0);
	close(fd);
	memset(buf + size, 0, (size_t)(e->end - e->start - size));
}

static void *load_all(void *arg)
{
	struct src_loader *l = arg;

	for (uint32_t ti = 1; ti < l->t->ninodes; ti++) {
		uint64_t size = l->t->inodes[ti].size;
		uint64_t len = (size + LOAD_BLOCK - 1) / LOAD_BLOCK * LOAD_BLOCK;
		struct loaded e = { .ti = ti };

		if (!src_loader_wants(l->t, ti))
			continue;
		if (!reserve(l, len, &e.start))
			break;
		e.end = e.start + len;
		load_one(l, &e, size);
		publish(l, &e);
	}
	pthread_mutex_lock(&l->lock);
	l->done = true;
	pthread_cond_signal(&l->filled);
	pthread_mutex_unlock(&l->lock);
	return NULL;
}

struct src_loader *src_loader_start(const struct f2fs_tree *t)
{
	struct src_loader *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->t = t;
	l->ring = malloc(RING_BYTES);
	src_init(&l->src, t);
	if (!l->ring || pthread_mutex_init(&l->lock, NULL))
		goto fail_ring;
	if (pthread_cond_init(&l->filled, NULL))
		goto fail_lock;
	if (pthread_cond_init(&l->freed, NULL))
		goto fail_filled;
	if (!pthread_create(&l->thread, NULL, load_all, l))
		return l;
	pthread_cond_destroy(&l->freed);
fail_filled:
	pthread_cond_destroy(&l->filled);
fail_lock:
	pthread_mutex_destroy(&l->lock);
fail_ring:
	src_fini(&l->src);
	free(l->ring);
	free(l);
	return NULL;
}

int src_loader_take(struct src_loader *l, uint32_t ti, const uint8_t **data,
		    const char **what)
{
	const struct loaded *e = NULL;

	pthread_mutex_lock(&l->lock);
	while (l->taken == l->produced && !l->done) {
		l->taker_wants = l->taken + TAKE_BATCH;
		l->taker_waits = true;
		pthread_cond_wait(&l->filled, &l->lock);
		l->taker_waits = false;
	}
	if (l->taken < l->produced)
		e = &l->slot[l->taken++ % RING_SLOTS];
	pthread_mutex_unlock(&l->lock);
	/* the slot stays ours until released: the loader waits for free slots */
	*what = "load";
	if (!e || e->ti != ti)
		return -EPROTO;   /* the caller skipped a file it should have taken */
	*what = e->what;
	*data = l->ring + e->start % RING_BYTES;
	return e->err;
}

void src_loader_release(struct src_loader *l)
{
	pthread_mutex_lock(&l->lock);
	if (l->released < l->taken) {
		l->tail = l->slot[l->released % RING_SLOTS].end;
		l->released++;
	}
	if (l->loader_waits &&
	    RING_BYTES - (l->head - l->tail) >= RING_BYTES / FREE_BATCH &&
	    RING_SLOTS - (l->produced - l->released) >= RING_SLOTS / FREE_BATCH)
		pthread_cond_signal(&l->freed);
	pthread_mutex_unlock(&l->lock);
}

void src_loader_stop(struct src_loader *l)
{
	if (!l)
		return;
	pthread_mutex_lock(&l->lock);
	l->stop = true;
	pthread_cond_signal(&l->freed);
	pthread_mutex_unlock(&l->lock);
	pthread_join(l->thread, NULL);
	pthread_cond_destroy(&l->freed);
	pthread_cond_destroy(&l->filled);
	pthread_mutex_destroy(&l->lock);
	src_fini(&l->src);
	free(l->ring);
	free(l);
}
