/*
 * The block map of an inode as extents: runs of file blocks stored at
 * contiguous addresses, with holes (and the NEW_ADDR / COMPRESS_ADDR
 * markers) as runs of their own. Rows are printed as the walk finds them
 * and only the run being grown is kept, so a file of any size costs the
 * same memory.
 */
#include "dump.h"

#include <f2fs/format/endian.h>
#include <f2fs/fs/nat.h>

#include <stdio.h>

enum run_kind { RUN_DATA, RUN_HOLE, RUN_NEW, RUN_COMPRESSED, RUN_BAD };

static const char *const kind_names[] = {
	"data", "hole", "new", "compressed", "outside_main",
};

struct run {
	uint64_t fofs, len;
	uint32_t addr;          /* first address (RUN_DATA and RUN_BAD) */
	enum run_kind kind;
};

struct map_walk {
	struct out *o;
	struct out_table t;
	struct run cur;
	uint64_t mapped, holes;
};

static const struct out_col map_cols[] = {
	{ "file_block", "file_block", 12, OUT_COL_U },
	{ "blocks", "blocks", 10, OUT_COL_U },
	{ "blkaddr", "blkaddr", 10, OUT_COL_U },
	{ "last_blkaddr", "last", 10, OUT_COL_U },
	{ "kind", "kind", -1, OUT_COL_S },
};

static int has_addr(enum run_kind k)
{
	return k == RUN_DATA || k == RUN_BAD;
}

static enum run_kind classify(struct f2fs_fs *fs, uint32_t addr)
{
	if (addr == F2FS_NULL_ADDR)
		return RUN_HOLE;
	if (addr == F2FS_NEW_ADDR)
		return RUN_NEW;
	if (addr == F2FS_COMPRESS_ADDR)
		return RUN_COMPRESSED;
	return f2fs_fs_in_main(fs, addr) ? RUN_DATA : RUN_BAD;
}

static void emit(struct map_walk *w)
{
	const struct run *r = &w->cur;
	int a = has_addr(r->kind);

	if (!r->len)
		return;
	out_tab_row(w->o, &w->t, (struct out_cell[]){ OUT_U(r->fofs), OUT_U(r->len),
		a ? OUT_U(r->addr) : OUT_NONE, a ? OUT_U(r->addr + (r->len - 1)) : OUT_NONE,
		OUT_S(kind_names[r->kind]) });
}

/* Add len blocks of kind at fofs (addr for the first): grow the current
 * run when they continue it, else print it and start a new one. */
static void add(struct map_walk *w, uint64_t fofs, uint64_t len, enum run_kind kind,
		uint32_t addr)
{
	struct run *r = &w->cur;

	if (!(r->len && r->kind == kind &&
	      (!has_addr(kind) || (uint64_t)addr == (uint64_t)r->addr + r->len))) {
		emit(w);
		*r = (struct run){ .fofs = fofs, .len = 0, .addr = addr, .kind = kind };
	}
	r->len += len;
	if (kind == RUN_DATA)
		w->mapped += len;
	else if (kind == RUN_HOLE)
		w->holes += len;
}

int print_block_map(struct dump *d, const struct f2fs_node *n)
{
	struct out *o = &d->out;
	struct f2fs_fs *fs = d->fs;
	uint64_t size = le64_get(n->i.i_size);
	uint64_t nblocks = size / F2FS_BLKSIZE + (size % F2FS_BLKSIZE != 0);
	uint64_t max = f2fs_file_max_blocks(fs, n);
	struct map_walk w = { .o = o };
	struct f2fs_error err;
	int ret = 0;

	/* a size beyond what the node tree can map is damage; show what can be */
	if (nblocks > max)
		nblocks = max;
	out_tab_begin(o, &w.t, "block_map", "  block map (extents of file blocks):", map_cols, 5);
	for (uint64_t fofs = 0; fofs < nblocks;) {
		uint32_t addr;
		uint64_t run, len = 1;
		enum run_kind kind;

		ret = f2fs_file_block(fs, n, fofs, &addr, &run, &err);
		if (ret)
			break;
		kind = classify(fs, addr);
		/* a missing node is a hole of its whole span, skipped in one step */
		if (kind == RUN_HOLE && run > 1)
			len = run < nblocks - fofs ? run : nblocks - fofs;
		add(&w, fofs, len, kind, addr);
		fofs += len;
	}
	emit(&w);
	out_tab_end(o, &w.t);
	out_u(o, "extents", "extents:", w.t.rows);
	out_u(o, "mapped_blocks", "mapped blocks:", w.mapped);
	out_u(o, "hole_blocks", "blocks in holes:", w.holes);
	if (ret)
		return error_line("inode %u: block map: %s", le32_get(n->footer.ino), err.msg);
	return EXIT_OK;
}
