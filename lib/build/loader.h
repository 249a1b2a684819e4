/*
 * The loader of mkfs --rootdir: a second thread that opens, reads and closes
 * the source tree's small regular files, in the order mkfs writes them, into
 * a ring of memory, while the first thread builds and writes the image. On a
 * machine where a syscall costs microseconds, the three calls per file are
 * most of the work; two threads do them side by side with everything else.
 *
 * The loader's thread touches nothing but the tree (read only), its own
 * src_reader and the ring; every image write stays on the caller's thread.
 */
#ifndef F2FS_LIB_LOADER_H
#define F2FS_LIB_LOADER_H

#include <f2fs/build/tree.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LOADER_MAX_FILE (1u << 20)   /* larger files are read by the caller */

struct src_loader;

/* Whether the loader reads tree inode ti (the caller must then take it). */
bool src_loader_wants(const struct f2fs_tree *t, uint32_t ti);

/* Start the thread; NULL when it cannot start (the caller reads alone). */
struct src_loader *src_loader_start(const struct f2fs_tree *t);

/*
 * Wait for tree inode ti, the next one src_loader_wants: its bytes, zero
 * padded to whole 4 KiB blocks, valid until src_loader_release. Returns 0,
 * or -errno with *what set to "open" or "read".
 */
int src_loader_take(struct src_loader *l, uint32_t ti, const uint8_t **data,
		    const char **what);

/* The caller is done with the bytes of the last taken file. */
void src_loader_release(struct src_loader *l);

/* Stop the thread (also midway, after an error) and free everything. */
void src_loader_stop(struct src_loader *l);

#endif
