/*
 * --map-svg FILE: the main area as a picture. A grid of cells, one section
 * each (several on a large volume, so that the picture stays under 2 MiB
 * at 16 TiB): grey when free, blue for data and orange for nodes, darker
 * as more of it is valid; the current logs outlined in red; the sections
 * the kernel's GC would pick next (as --gc ranks them) numbered on it.
 * Cells of one colour are one path, so a cell costs about 16 bytes.
 */
#include "dump.h"

#include <f2fs/format/endian.h>
#include <f2fs/fs/gc.h>
#include <f2fs/fs/sit.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CELLS 65536u   /* 256 x 256: about 1 MiB of paths at most */
#define CELL 8             /* units per cell, 7 drawn and 1 of gap */
#define LEVELS 8           /* shades of valid ratio */
#define VICTIMS 10         /* GC picks numbered */

enum { KIND_FREE, KIND_DATA, KIND_NODE, KINDS };

struct cell {
	uint64_t valid, blocks;   /* over the sections it covers */
	uint8_t kind, cur;
};

struct grid {
	struct cell *c;
	uint32_t ncells, per, cols, rows;   /* per: sections a cell covers */
};

static uint8_t shade(const struct cell *c)
{
	uint64_t l = c->blocks ? (c->valid * LEVELS + c->blocks - 1) / c->blocks : 0;

	return (uint8_t)(l < 1 ? 1 : l > LEVELS ? LEVELS : l);
}

/* A colour of kind k at level l (1..LEVELS): white mixed with the kind's
 * base colour, more of it for a fuller cell. */
static void colour(int k, int l, char out[8])
{
	static const int base[KINDS][3] = { { 0xe4, 0xe4, 0xe4 }, { 0x1f, 0x4e, 0xb4 },
					     { 0xd9, 0x6a, 0x00 } };
	int rgb[3];

	for (int i = 0; i < 3; i++)
		rgb[i] = k == KIND_FREE ? base[k][i] :
			 255 - (255 - base[k][i]) * (l + 2) / (LEVELS + 2);
	snprintf(out, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

static int build_grid(const struct f2fs_sit *sit, struct grid *g)
{
	uint32_t nsec = sit->nsecs ? sit->nsecs : 1;

	g->per = (nsec + MAX_CELLS - 1) / MAX_CELLS;
	g->ncells = (nsec + g->per - 1) / g->per;
	g->cols = g->ncells <= 256 ? 16 : g->ncells <= 4096 ? 64 : 256;
	g->rows = (g->ncells + g->cols - 1) / g->cols;
	g->c = calloc(g->ncells, sizeof(*g->c));
	if (!g->c)
		return -ENOMEM;
	for (uint32_t s = 0; s < sit->nsegs; s++) {
		const struct f2fs_seg *seg = &sit->seg[s];
		struct cell *c = &g->c[s / sit->segs_per_sec / g->per];

		c->blocks += F2FS_BLOCKS_PER_SEG;
		c->valid += seg->valid;
		if (seg->flags & F2FS_SEG_CURRENT)
			c->cur = 1;
		if (seg->valid && c->kind == KIND_FREE)
			c->kind = seg->type >= F2FS_SEG_HOT_NODE && seg->type <= F2FS_SEG_COLD_NODE ?
				  KIND_NODE : KIND_DATA;
	}
	return 0;
}

/* "M x y h7v7h-7z" for every cell of one colour. */
static void paths(FILE *f, const struct grid *g)
{
	for (int k = 0; k < KINDS; k++)
		for (int l = 1; l <= LEVELS; l++) {
			char col[8];
			int open = 0;

			if (k == KIND_FREE && l > 1)
				break;
			for (uint32_t i = 0; i < g->ncells; i++) {
				const struct cell *c = &g->c[i];

				if (c->kind != k || (k != KIND_FREE && shade(c) != l))
					continue;
				if (!open) {
					colour(k, l, col);
					fprintf(f, "<path fill=\"%s\" d=\"", col);
					open = 1;
				}
				fprintf(f, "M%u %uh7v7h-7z", i % g->cols * CELL, i / g->cols * CELL);
			}
			if (open)
				fputs("\"/>\n", f);
		}
}

static void current_logs(FILE *f, const struct grid *g)
{
	fputs("<path fill=\"none\" stroke=\"#d00000\" stroke-width=\"1.5\" d=\"", f);
	for (uint32_t i = 0; i < g->ncells; i++)
		if (g->c[i].cur)
			fprintf(f, "M%u %uh7v7h-7z", i % g->cols * CELL, i / g->cols * CELL);
	fputs("\"/>\n", f);
}

/* The kernel's next victims by --gc's policy, ranked 1.. on their cells. */
static int victims(FILE *f, struct dump *d, const struct grid *g, const struct gc_cli *cli)
{
	struct f2fs_gc_opts opts;
	struct f2fs_gc *gc;
	struct f2fs_gc_cand *cand;
	size_t n;
	long v;
	int ret = load_gc(d->fs, &gc);

	if (ret)
		return ret;
	gc_opts(cli, &opts);
	cand = malloc((gc->nsecs ? gc->nsecs : 1) * sizeof(*cand));
	if (!cand) {
		f2fs_gc_free(gc);
		return error_line("out of memory");
	}
	f2fs_gc_select(gc, &opts, 0, cand, &n, &v, NULL, NULL);
	n = gc_rank(cand, n, &opts);
	for (size_t k = 0; k < n && k < VICTIMS; k++) {
		uint32_t i = cand[k].secno / g->per;

		fprintf(f, "<text x=\"%u\" y=\"%u\" font-size=\"7\" font-family=\"sans-serif\" "
			"fill=\"#ffffff\" stroke=\"#000000\" stroke-width=\"0.3\">%zu</text>\n",
			i % g->cols * CELL, i / g->cols * CELL + 7, k + 1);
	}
	fprintf(f, "<!-- GC: %s policy, %s mode; %zu candidates -->\n",
		f2fs_gc_policy_name(opts.policy), opts.fg ? "foreground" : "background", n);
	free(cand);
	f2fs_gc_free(gc);
	return 0;
}

static void legend(FILE *f, const struct grid *g, uint32_t y)
{
	static const char *const name[KINDS] = { "free", "data", "node" };

	for (int k = 0; k < KINDS; k++) {
		char col[8];

		colour(k, LEVELS, col);
		fprintf(f, "<rect x=\"%d\" y=\"%u\" width=\"7\" height=\"7\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%u\" font-size=\"8\" font-family=\"sans-serif\">%s</text>\n",
			k * 60, y, col, k * 60 + 10, y + 7, name[k]);
	}
	fprintf(f, "<rect x=\"180\" y=\"%u\" width=\"7\" height=\"7\" fill=\"none\" stroke=\"#d00000\"/>"
		"<text x=\"190\" y=\"%u\" font-size=\"8\" font-family=\"sans-serif\">current log; "
		"darker: fuller; 1..%d: GC victims; a cell is %u section(s)</text>\n",
		y, y + 7, VICTIMS, g->per);
}

int view_svg_map(struct dump *d, const char *path, const struct gc_cli *cli)
{
	struct f2fs_sit *sit;
	struct grid g = { 0 };
	uint32_t w;
	FILE *f;
	int ret = load_sit(d->fs, 0, &sit);

	if (ret)
		return ret;
	ret = build_grid(sit, &g);
	f2fs_sit_free(sit);
	if (ret)
		return error_line("out of memory");
	f = fopen(path, "w");
	if (!f) {
		free(g.c);
		return error_line("%s: %s", path, strerror(errno));
	}
	/* room below the grid for the legend's line */
	w = g.cols * CELL > 560 ? g.cols * CELL : 560;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" "
		"viewBox=\"0 0 %u %u\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
		w, g.rows * CELL + 16, w, g.rows * CELL + 16);
	paths(f, &g);
	current_logs(f, &g);
	ret = victims(f, d, &g, cli);
	legend(f, &g, g.rows * CELL + 4);
	fputs("</svg>\n", f);
	free(g.c);
	if (fclose(f) && !ret)
		ret = error_line("%s: %s", path, strerror(errno));
	if (!ret)
		out_s(&d->out, "map_svg", "map written to:", path);
	return ret;
}
