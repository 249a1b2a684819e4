/* dump.f2fs internals shared by its source files. */
#ifndef DUMP_DUMP_H
#define DUMP_DUMP_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include <f2fs/fs/fs.h>
#include <f2fs/fs/gc.h>

#include "../common/names.h"
#include "../common/out.h"

#define EXIT_OK     0
#define EXIT_ERROR  1
#define EXIT_USAGE  16

extern const char prog[];                   /* "dump.f2fs" (msg.c) */
extern const char *const log_names[];       /* "hot data", ... */
extern const char *const log_keys[];        /* "hot_data", ... */
extern const struct out_flag inline_flag_names[], inode_flag_names[];

/* What the views work with: the image, the document they print into, and
 * the debug level of -d (0 none, 1 what was opened and resolved, 2 also
 * the time each view took; everything it adds goes to stderr). */
struct dump {
	struct f2fs_fs *fs;
	struct out out;
	int debug;
};

/* Lines on stderr (msg.c): a debug line when -d is at least level, and
 * "dump.f2fs: msg" after what was printed so far (returns EXIT_ERROR). */
void debug_line(const struct dump *d, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int error_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The text of the last error line (empty when none). */
const char *error_last(void);

/* An inclusive range; end UINT64_MAX means "to the end". */
struct range {
	uint64_t start, end;
};

struct gc_cli {
	enum f2fs_gc_policy policy;
	int policy_set;
	int fg, fg_set;
	uint32_t max_search;
	int max_search_set;
	uint32_t top;
	int top_set;
	uint32_t free_k;
	uint32_t sim_target;   /* 0: default */
};

/* Shared formatting (fmt.c). */
const char *hex_string(const uint8_t *b, size_t len, char *buf, size_t cap);
/* Bytes as text when printable (trailing NULs dropped), else "0x" and hex;
 * malloc'd, NULL when out of memory. */
char *bytes_text(const uint8_t *v, size_t len);
/* A time as a local date with nanoseconds and the seconds, into buf. */
const char *time_string(uint64_t sec, uint32_t nsec, char *buf, size_t cap);
uint32_t count_bits(const uint8_t *map, uint32_t bytes);
void mode_string(uint16_t mode, char out[11]);
const char *type_name(uint16_t mode);
/* Target of a symbolic link into out (NUL-terminated); -1 and *why if unreadable. */
int read_link(struct f2fs_fs *fs, const struct f2fs_node *n, char *out, size_t cap,
	      const char **why);

/* PATH|INO arguments: what starts with a digit is an inode number (decimal
 * or 0x hex), anything else a path from the root. resolve_target returns 0,
 * or EXIT_ERROR after printing the error line. */
int is_ino_arg(const char *s);
int parse_ino_arg(const char *s, uint32_t *ino);     /* 0, or -1 if malformed */
int resolve_target(const struct dump *d, const char *what, uint32_t *ino);

/* --zones (zones.c) */
int view_zones(struct dump *d);

void view_sb_summary(struct dump *d);
void view_sb(struct dump *d);
void view_cp_summary(struct dump *d);
void view_cp(struct dump *d);
int view_inode(struct dump *d, const char *what);
/* The block map of inode n as a table of extents, streamed (blockmap.c). */
int print_block_map(struct dump *d, const struct f2fs_node *n);
/* The inode's extended attributes as a table (xattrs.c). */
int print_xattrs(struct dump *d, const struct f2fs_inode *i);
int view_ls(struct dump *d, const char *path);
int view_nat(struct dump *d, struct range r);
int view_sit(struct dump *d, struct range r);
int view_ssa(struct dump *d, struct range r);
int view_owner(struct dump *d, uint64_t blkaddr);
int view_map(struct dump *d);
int view_segments(struct dump *d, uint32_t bucket);
int view_gc(struct dump *d, const struct gc_cli *g);
/* --metadump FILE: the metadata, scrubbed of data and (unless keep_names)
 * of names; --restore FILE -o IMAGE writes one back (metadump.c). */
int view_metadump(struct dump *d, const char *path, bool keep_names);
int metadump_restore(const char *path, const char *image);
/* --map FILE: the main area drawn as SVG (svgmap.c). */
int view_svg_map(struct dump *d, const char *path, const struct gc_cli *g);
/* The SIT, and the GC state from it, loaded for a view (views.c); an
 * error line is printed on failure (the exit status returned). */
struct f2fs_sit;
struct f2fs_gc;
struct f2fs_gc_opts;
int load_sit(struct f2fs_fs *fs, unsigned flags, struct f2fs_sit **sit);
int load_gc(struct f2fs_fs *fs, struct f2fs_gc **gc);
/* --gc's policy and mode as options of the selection. */
void gc_opts(const struct gc_cli *g, struct f2fs_gc_opts *opts);
/* The candidates of one selection ranked as --gc ranks them (ATGC's
 * unevaluated ones dropped): how many remain. */
struct f2fs_gc_cand;
size_t gc_rank(struct f2fs_gc_cand *cand, size_t n, const struct f2fs_gc_opts *opts);
int view_gc_free(struct dump *d, const struct gc_cli *g);
int view_gc_sim(struct dump *d, const struct gc_cli *g);
int do_extract(struct dump *d, const char *what, const char *dest);

#endif
