/*
 * Output of the tools: each field is described once (JSON key, text label,
 * type) and printed as text or as JSON from that one description, row by
 * row (nothing is buffered beyond stdio). A report whose text is sentences
 * rather than "label value" rows (fsck's) is a document of lines: its
 * fields are still described once, in JSON's order, and its text lines are
 * templates naming those fields by key, so that the sentences may order
 * them as they read best. Everything a document needs to know is in its
 * struct out, so there is no hidden state.
 */
#ifndef COMMON_OUT_H
#define COMMON_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum out_style {
	OUT_TEXT,
	OUT_JSON,           /* a field per line, indented (dump.f2fs) */
	OUT_JSON_COMPACT,   /* one line without spaces (fsck.f2fs) */
};

#define OUT_MAX_DEPTH 16

/* One document being written; only out.c looks inside. */
struct out {
	FILE *f;
	enum out_style style;
	int doc_pending, doc_open;
	int depth;
	int need_comma[OUT_MAX_DEPTH];
	int text_depth;      /* open objects in text: their tables are indented */
	int list_items;      /* items so far in the open out_list */
	int list_hidden;     /* the open out_list is not shown in this style */
	/* a document of lines (out_lines), in text: the fields so far, by path */
	int lines;
	struct out_kept *kept;
	size_t nkept, kept_cap;
	char scope[256];                   /* path of the open object: "a.b" */
	size_t scope_len[OUT_MAX_DEPTH];   /* its length before each open one */
	int nscope;
	FILE *keep_f;                      /* the document's stream, while a value is kept */
	char *keep_buf;
	size_t keep_len;
	const char *keep_key;
	int failed;                        /* out of memory for a kept field */
};

/* A field's text in a document of lines, by its path ("stats.inodes"). */
struct out_kept {
	char *path;
	char *text;
};

struct out_flag {
	uint32_t bit;
	const char *name;
};

void out_init(struct out *o, FILE *f, enum out_style style);
int out_json(const struct out *o);
/* Start/end the whole document (JSON: the top-level object, opened by its
 * first field so that an empty document prints nothing). */
void out_begin(struct out *o);
void out_end(struct out *o);
/* A failure in a JSON document: "error": {"kind", "code" (null when 0),
 * "message"} and "exit": the shape fsck.f2fs and dump.f2fs give to every
 * failure under --json. */
void out_error(struct out *o, const char *kind, int code, const char *msg, int exit_code);
/* The whole document of a failure on f: "image", then out_error()'s
 * members (fsck.f2fs and dump.f2fs under --json, each in its style). */
void out_error_doc(FILE *f, enum out_style style, const char *image, const char *kind, int code,
		   const char *msg, int exit_code);
/* Make the document one of lines: in text, fields, titles and lists print
 * nothing by themselves; each field's text (its label and a space, if it
 * has a label, then its value as a row shows it) is kept by its path until
 * out_end, and the lines are written by out_template. JSON is unchanged. */
void out_lines(struct out *o);
/* Text of a document of lines: tmpl with each {key} replaced by that
 * field's text, key a path below the open object ("nat.blocks_written")
 * or else from the document's top ("image"); {key:upper} in capitals. A
 * field not described yet stays "{key}", so that the mistake shows.
 * Nothing in JSON. */
void out_template(struct out *o, const char *tmpl);
/* 0, or -1 when writing failed (now or before). */
int out_flush(struct out *o);

/* A group of fields: text prints the title line (if not NULL). A NULL key
 * is an element of the enclosing out_array. */
void out_obj_begin(struct out *o, const char *key, const char *title);
void out_obj_end(struct out *o);
/* A JSON array of objects; nothing in text. */
void out_array_begin(struct out *o, const char *key);
void out_array_end(struct out *o);

/* Key/value fields. label is the text label ("valid blocks:"); key the JSON
 * name. A NULL label makes the field JSON-only, a NULL key text-only. */
void out_u(struct out *o, const char *key, const char *label, uint64_t v);
void out_i(struct out *o, const char *key, const char *label, int64_t v);
/* yes/no in text, true/false in JSON */
void out_b(struct out *o, const char *key, const char *label, int v);
/* hex in text, a number in JSON */
void out_x(struct out *o, const char *key, const char *label, uint64_t v);
/* escaped; s NULL is no value: "-" in text, null in JSON */
void out_s(struct out *o, const char *key, const char *label, const char *s);
/* The same for a string the tool wrote itself or was given on its command
 * line (a message, the image's path): text prints it as it is. */
void out_msg(struct out *o, const char *key, const char *label, const char *s);
void out_bytes(struct out *o, const char *key, const char *label, const uint8_t *s, size_t len);
/* names: ends with a NULL name */
void out_flags(struct out *o, const char *key, const char *label, uint32_t v,
	       const struct out_flag *names);
/* A list value: text "label a b c", JSON "key": [a, b, c]. */
void out_list_begin(struct out *o, const char *key, const char *label);
void out_list_u(struct out *o, uint64_t v);
void out_list_bytes(struct out *o, const uint8_t *s, size_t len);   /* a string, escaped */
void out_list_end(struct out *o);

/* Free-form text (text only; nothing in JSON): a formatted string, a
 * field's label lined up as the fields' are, bytes escaped as the fields' */
void out_text(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_label(struct out *o, const char *label);
void out_escaped(struct out *o, const uint8_t *s, size_t len);

/* Tables: a text header line and a line a row, or a JSON array of objects. */
enum out_col_type {
	OUT_COL_U,
	OUT_COL_I,
	OUT_COL_X,
	OUT_COL_S,
	OUT_COL_F2,     /* double, 2 decimals */
};

struct out_col {
	const char *key;    /* JSON name */
	const char *head;   /* text header */
	int width;          /* text width (negative: left-aligned) */
	enum out_col_type type;
};

struct out_cell {
	uint64_t u;
	int64_t i;
	double f;
	const char *s;
	size_t len;    /* of s when it may hold NUL; 0: up to its NUL */
	int none;      /* no value: "-" in text, null in JSON */
};

#define OUT_U(v) ((struct out_cell){ .u = (uint64_t)(v) })
#define OUT_I(v) ((struct out_cell){ .i = (int64_t)(v) })
#define OUT_S(v) ((struct out_cell){ .s = (v) })
#define OUT_SN(v, n) ((struct out_cell){ .s = (v), .len = (n) })
#define OUT_F(v) ((struct out_cell){ .f = (double)(v) })
#define OUT_NONE ((struct out_cell){ .none = 1 })

struct out_table {
	const char *key;
	const struct out_col *cols;
	int ncols;
	uint64_t rows;
};

void out_tab_begin(struct out *o, struct out_table *t, const char *key, const char *title,
		   const struct out_col *cols, int ncols);
void out_tab_row(struct out *o, struct out_table *t, const struct out_cell *cells);
void out_tab_end(struct out *o, struct out_table *t);

#endif
