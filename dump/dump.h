/* dump.f2fs internals shared by its source files. */
#ifndef DUMP_DUMP_H
#define DUMP_DUMP_H

#include <stdint.h>

#include <f2fs/fs.h>
#include <f2fs/gc.h>

#include "out.h"

#define EXIT_OK     0
#define EXIT_ERROR  1
#define EXIT_USAGE  16

extern const char *prog;
extern const char *const log_names[];       /* "hot data", ... */
extern const char *const log_keys[];        /* "hot_data", ... */

/* "dump.f2fs: msg" on stderr; returns EXIT_ERROR. */
int error_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* An inclusive range; end UINT64_MAX means "to the end". */
struct range {
	uint64_t start, end;
};

struct gc_cli {
	enum f2fs_gc_policy policy;
	int policy_set;
	int fg;
	uint32_t max_search;
	int max_search_set;
	uint32_t top;
	uint32_t free_k;
	uint32_t sim_target;   /* 0: default */
};

int view_nat(struct f2fs_fs *fs, struct range r);
int view_sit(struct f2fs_fs *fs, struct range r);
int view_ssa(struct f2fs_fs *fs, struct range r);
int view_owner(struct f2fs_fs *fs, uint64_t blkaddr);
int view_map(struct f2fs_fs *fs);
int view_segments(struct f2fs_fs *fs, uint32_t bucket);
int view_gc(struct f2fs_fs *fs, const struct gc_cli *g);
int view_gc_free(struct f2fs_fs *fs, const struct gc_cli *g);
int view_gc_sim(struct f2fs_fs *fs, const struct gc_cli *g);
int do_extract(struct f2fs_fs *fs, const char *what, const char *dest);

#endif
