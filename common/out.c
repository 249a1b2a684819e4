/* Text or JSON output from one field description (see out.h). */
#include "out.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_DEPTH 16

static int json;
static int doc_pending, doc_open;
static int depth;
static int need_comma[MAX_DEPTH];
static int text_depth;     /* open objects in text mode: their tables are indented */
static int list_items;     /* items so far in the open kv_list */
static int list_hidden;    /* the open kv_list is not shown in this mode */

void out_init(int j)
{
	json = j;
	depth = 0;
	text_depth = 0;
	memset(need_comma, 0, sizeof(need_comma));
}

int out_json(void)
{
	return json;
}

/*
 * Whole-image views print hundreds of thousands of rows: runs of bytes that
 * need no escaping go out in one fwrite, numbers are formatted by hand.
 */
static int text_plain(uint8_t c)
{
	return c >= 0x20 && c != 0x7f && c != '\\';
}

static int json_plain(uint8_t c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

void put_escaped(const uint8_t *s, size_t len)
{
	for (size_t k = 0; k < len;) {
		size_t run = k;

		while (run < len && text_plain(s[run]))
			run++;
		fwrite(s + k, 1, run - k, stdout);
		if (run < len)
			printf("\\%03o", s[run++]);
		k = run;
	}
}

/* JSON string; bytes that are not printable ASCII become \u00XX (one code
 * point per byte, so any byte string round-trips). */
void json_string(const uint8_t *s, size_t len)
{
	putchar('"');
	for (size_t k = 0; k < len;) {
		size_t run = k;

		while (run < len && json_plain(s[run]))
			run++;
		fwrite(s + k, 1, run - k, stdout);
		if (run < len) {
			uint8_t c = s[run++];

			if (c == '"' || c == '\\')
				printf("\\%c", c);
			else
				printf("\\u%04x", c);
		}
		k = run;
	}
	putchar('"');
}

/* Decimal digits of v at the end of buf[len]; returns where they start. */
static char *u64_digits(uint64_t v, char *buf, size_t len)
{
	char *p = buf + len;

	*--p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return p;
}

static void put_padded(const char *s, int width)
{
	size_t n = strlen(s), w = (size_t)(width < 0 ? -width : width);
	static const char spaces[] = "                                ";

	if (width < 0)
		fwrite(s, 1, n, stdout);
	for (size_t pad = n < w ? w - n : 0; pad;) {
		size_t k = pad < sizeof(spaces) - 1 ? pad : sizeof(spaces) - 1;

		fwrite(spaces, 1, k, stdout);
		pad -= k;
	}
	if (width >= 0)
		fwrite(s, 1, n, stdout);
}

static void push(void);

static void json_key(const char *key)
{
	if (doc_pending) {      /* the document opens with its first field */
		doc_pending = 0;
		doc_open = 1;
		putchar('{');
		push();
	}
	if (need_comma[depth])
		putchar(',');
	need_comma[depth] = 1;
	putchar('\n');
	for (int k = 0; k < depth; k++)
		fputs("  ", stdout);
	if (key) {
		json_string((const uint8_t *)key, strlen(key));
		fputs(": ", stdout);
	}
}

static void push(void)
{
	if (depth + 1 < MAX_DEPTH)
		depth++;
	need_comma[depth] = 0;
}

static void pop(char close)
{
	if (depth > 0)
		depth--;
	putchar('\n');
	for (int k = 0; k < depth; k++)
		fputs("  ", stdout);
	putchar(close);
}

void out_begin(void)
{
	if (json)
		doc_pending = 1;
}

void out_end(void)
{
	if (json && doc_open) {
		doc_open = 0;
		pop('}');
		putchar('\n');
	}
	doc_pending = 0;
}

void out_obj_begin(const char *key, const char *title)
{
	if (json) {
		json_key(key);
		putchar('{');
		push();
	} else {
		text_depth++;
		if (title)
			printf("%s\n", title);
	}
}

void out_obj_end(void)
{
	if (json)
		pop('}');
	else if (text_depth > 0)
		text_depth--;
}

/* Text tables inside an object line up with its fields. */
static void table_indent(void)
{
	if (!json && text_depth)
		fputs("  ", stdout);
}

static void label(const char *l)
{
	printf("  %-*s ", FIELD_WIDTH, l);
}

/* A field without a JSON key is text only, one without a label JSON only. */
static int shown(const char *key, const char *lab)
{
	return json ? key != NULL : lab != NULL;
}

/* One field whose value is already formatted, for each mode. */
static void kv_raw(const char *key, const char *lab, const char *json_val, const char *text_val)
{
	if (!shown(key, lab))
		return;
	if (json) {
		json_key(key);
		fputs(json_val, stdout);
	} else {
		label(lab);
		printf("%s\n", text_val);
	}
}

void kv_u(const char *key, const char *lab, uint64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%" PRIu64, v);
	kv_raw(key, lab, b, b);
}

void kv_i(const char *key, const char *lab, int64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%" PRId64, v);
	kv_raw(key, lab, b, b);
}

void kv_x(const char *key, const char *lab, uint64_t v)
{
	char j[24], t[24];

	snprintf(j, sizeof(j), "%" PRIu64, v);
	snprintf(t, sizeof(t), "0x%" PRIx64, v);
	kv_raw(key, lab, j, t);
}

void kv_s(const char *key, const char *lab, const char *s)
{
	kv_bytes(key, lab, (const uint8_t *)s, strlen(s));
}

void kv_bytes(const char *key, const char *lab, const uint8_t *s, size_t len)
{
	if (!shown(key, lab))
		return;
	if (json) {
		json_key(key);
		json_string(s, len);
	} else {
		label(lab);
		put_escaped(s, len);
		putchar('\n');
	}
}

/* The names of the bits set in v, joined by sep, each between quotes;
 * bits the table does not name come last as one hex number. */
static void flag_names(uint32_t v, const struct flag_name *t, const char *sep, const char *q)
{
	uint32_t rest = v;
	const char *s = "";

	for (; t->name; t++) {
		if (!(v & t->bit))
			continue;
		printf("%s%s%s%s", s, q, t->name, q);
		rest &= ~t->bit;
		s = sep;
	}
	if (rest)
		printf("%s%s0x%x%s", s, q, rest, q);
}

void kv_flags(const char *key, const char *lab, uint32_t v, const struct flag_name *t)
{
	if (!shown(key, lab))
		return;
	if (json) {
		json_key(key);
		printf("{\"value\": %u, \"names\": [", v);
		flag_names(v, t, ", ", "\"");
		printf("]}");
		return;
	}
	label(lab);
	printf("0x%x (", v);
	if (v)
		flag_names(v, t, ",", "");
	else
		printf("none");
	printf(")\n");
}

void kv_list_begin(const char *key, const char *lab)
{
	list_items = 0;
	list_hidden = !shown(key, lab);
	if (list_hidden)
		return;
	if (json) {
		json_key(key);
		putchar('[');
	} else {
		label(lab);
	}
}

static void list_sep(void)
{
	if (list_items++)
		fputs(json ? ", " : " ", stdout);
}

void kv_list_u(uint64_t v)
{
	if (list_hidden)
		return;
	list_sep();
	printf("%" PRIu64, v);
}

void kv_list_bytes(const uint8_t *s, size_t len)
{
	if (list_hidden)
		return;
	list_sep();
	if (json)
		json_string(s, len);
	else
		put_escaped(s, len);
}

void kv_list_end(void)
{
	if (!list_hidden)
		putchar(json ? ']' : '\n');
}

void out_text(const char *fmt, ...)
{
	va_list ap;

	if (json)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void tab_begin(struct table *t, const char *key, const char *title,
	       const struct col *cols, int ncols)
{
	t->key = key;
	t->cols = cols;
	t->ncols = ncols;
	t->rows = 0;
	if (json) {
		json_key(key);
		putchar('[');
		push();
		return;
	}
	if (title)
		printf("%s\n", title);
	table_indent();
	for (int k = 0; k < ncols; k++) {
		int w = cols[k].width;

		if (k == ncols - 1 && w < 0)
			printf("%s", cols[k].head);
		else
			printf("%*s", w, cols[k].head);
		if (k != ncols - 1)
			putchar(' ');
	}
	putchar('\n');
}

/* A number cell as text (hex for COL_X in text) or as a JSON value. */
static void fmt_number(const struct col *col, const struct cell *c, int as_json,
		       char *buf, size_t len)
{
	char digits[24];

	if (c->none)
		snprintf(buf, len, "%s", as_json ? "null" : "-");
	else if (col->type == COL_X && !as_json)
		snprintf(buf, len, "0x%" PRIx64, c->u);
	else if (col->type == COL_U || col->type == COL_X)
		snprintf(buf, len, "%s", u64_digits(c->u, digits, sizeof(digits)));
	else if (col->type == COL_I)
		snprintf(buf, len, "%" PRId64, c->i);
	else
		snprintf(buf, len, "%.2f", c->f);
}

static void json_cell(const struct col *col, const struct cell *c)
{
	char buf[64];

	if (col->type != COL_S) {
		fmt_number(col, c, 1, buf, sizeof(buf));
		fputs(buf, stdout);
	} else if (c->s && !c->none) {
		json_string((const uint8_t *)c->s, strlen(c->s));
	} else {
		fputs("null", stdout);
	}
}

/* Text cell padded to its width; the last left-aligned column is not
 * padded, and a string there is escaped rather than cut. */
static void text_cell(const struct col *col, const struct cell *c, int last)
{
	const char *s = c->s && !c->none ? c->s : "-";
	char buf[64];

	if (col->type == COL_S && last && col->width < 0) {
		put_escaped((const uint8_t *)s, strlen(s));
		return;
	}
	if (col->type != COL_S) {
		fmt_number(col, c, 0, buf, sizeof(buf));
		s = buf;
	}
	put_padded(s, last && col->width < 0 ? 0 : col->width);
}

void tab_row(struct table *t, const struct cell *c)
{
	t->rows++;
	if (json) {
		json_key(NULL);
		putchar('{');
	}
	table_indent();
	for (int k = 0; k < t->ncols; k++) {
		const struct col *col = &t->cols[k];

		if (json) {
			printf("%s", k ? ", " : "");
			json_string((const uint8_t *)col->key, strlen(col->key));
			fputs(": ", stdout);
			json_cell(col, &c[k]);
		} else {
			text_cell(col, &c[k], k == t->ncols - 1);
			if (k != t->ncols - 1)
				putchar(' ');
		}
	}
	putchar(json ? '}' : '\n');
}

void tab_end(struct table *t)
{
	if (json)
		pop(']');
	(void)t;
}
