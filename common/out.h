/*
 * Output of the tools (dump.f2fs for now): every view describes its fields
 * once (key, text label, type) and is printed either as text or as JSON
 * from that one description, row by row (nothing is buffered beyond stdio).
 */
#ifndef COMMON_OUT_H
#define COMMON_OUT_H

#include <stddef.h>
#include <stdint.h>

struct flag_name {
	uint32_t bit;
	const char *name;
};

/* Start/end the whole document (JSON: the top-level object). */
void out_init(int json);
int out_json(void);
void out_begin(void);
void out_end(void);

/* A group of key/value fields: text prints the title line (if not NULL). */
void out_obj_begin(const char *key, const char *title);
void out_obj_end(void);

/* Key/value fields. label is the text label ("valid blocks:"); key the JSON
 * name. A NULL label makes the field JSON-only, a NULL key text-only. */
void kv_u(const char *key, const char *label, uint64_t v);
void kv_i(const char *key, const char *label, int64_t v);
void kv_x(const char *key, const char *label, uint64_t v);   /* hex in text, number in JSON */
void kv_s(const char *key, const char *label, const char *s);
void kv_bytes(const char *key, const char *label, const uint8_t *s, size_t len);  /* escaped */
void kv_flags(const char *key, const char *label, uint32_t v, const struct flag_name *t);
/* A list value: text "label a b c", JSON "key": [a, b, c]. */
void kv_list_begin(const char *key, const char *label);
void kv_list_u(uint64_t v);
void kv_list_bytes(const uint8_t *s, size_t len);   /* a string item, escaped */
void kv_list_end(void);
/* Free-form text lines (text mode only; nothing in JSON). */
void out_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Tables. */
enum col_type { COL_U, COL_I, COL_X, COL_S, COL_F2 /* double, 2 decimals */ };

struct col {
	const char *key;    /* JSON name */
	const char *head;   /* text header */
	int width;          /* text width (negative: left-aligned) */
	enum col_type type;
};

struct cell {
	uint64_t u;
	int64_t i;
	double f;
	const char *s;
	int none;      /* no value: "-" in text, null in JSON */
};

#define CU(v) ((struct cell){ .u = (uint64_t)(v) })
#define CI(v) ((struct cell){ .i = (int64_t)(v) })
#define CS(v) ((struct cell){ .s = (v) })
#define CF(v) ((struct cell){ .f = (double)(v) })
#define CNONE ((struct cell){ .none = 1 })

struct table {
	const char *key;
	const struct col *cols;
	int ncols;
	uint64_t rows;
};

void tab_begin(struct table *t, const char *key, const char *title,
	       const struct col *cols, int ncols);
void tab_row(struct table *t, const struct cell *cells);
void tab_end(struct table *t);

/* Shared formatting */
void put_escaped(const uint8_t *s, size_t len);
void json_string(const uint8_t *s, size_t len);

#define FIELD_WIDTH 28

#endif
