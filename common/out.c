/* Text or JSON output from one field description (see out.h). */
#include "out.h"

#include <f2fs/format/utf8.h>

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define FIELD_WIDTH 28

void out_init(struct out *o, FILE *f, enum out_style style)
{
	memset(o, 0, sizeof(*o));
	o->f = f;
	o->style = style;
}

int out_json(const struct out *o)
{
	return o->style != OUT_TEXT;
}

static int pretty(const struct out *o)
{
	return o->style == OUT_JSON;
}

/* Between the items of a row, a list or a flag set, and after a key. */
static const char *item_sep(const struct out *o)
{
	return pretty(o) ? ", " : ",";
}

static const char *key_sep(const struct out *o)
{
	return pretty(o) ? ": " : ":";
}

int out_flush(struct out *o)
{
	return fflush(o->f) != 0 || ferror(o->f) || o->failed ? -1 : 0;
}

/*
 * Whole-image views print hundreds of thousands of rows: runs of bytes that
 * need no escaping go out in one fwrite, numbers are formatted by hand.
 */
static int text_plain(uint8_t c)
{
	return c >= 0x20 && c < 0x7f && c != '\\';
}

static int json_plain(uint8_t c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/* Bytes at s that go out as they are: one valid UTF-8 character past the C1
 * controls; 0 for a byte to escape (a raw 0x9b or an encoded U+009B is a
 * terminal's CSI, so a damaged or encrypted name could drive the terminal). */
static size_t text_char(const uint8_t *s, size_t left)
{
	uint32_t cp;
	size_t n;

	if (s[0] < 0x80)
		return text_plain(s[0]);
	n = f2fs_utf8_decode(s, left, &cp);
	return n && cp >= 0xa0 ? n : 0;
}

static void put_escaped(struct out *o, const uint8_t *s, size_t len)
{
	for (size_t k = 0; k < len;) {
		size_t run = k, n;

		while (run < len && (n = text_char(s + run, len - run)) != 0)
			run += n;
		fwrite(s + k, 1, run - k, o->f);
		if (run < len)
			fprintf(o->f, "\\%03o", s[run++]);
		k = run;
	}
}

/* JSON string: valid UTF-8 is written as it is (quote, backslash and
 * control characters escaped); a byte that is not part of valid UTF-8
 * becomes \udcXX, XX the byte (the "surrogateescape" convention: a lone
 * low surrogate never stands for a character, so any byte string
 * round-trips). */
static void json_string(struct out *o, const uint8_t *s, size_t len)
{
	putc('"', o->f);
	for (size_t k = 0; k < len;) {
		size_t run = k, n;
		uint32_t cp;

		while (run < len && json_plain(s[run]))
			run++;
		fwrite(s + k, 1, run - k, o->f);
		if (run < len) {
			uint8_t c = s[run];

			if (c == '"' || c == '\\') {
				fprintf(o->f, "\\%c", c);
				run++;
			} else if (c < 0x80) {
				fprintf(o->f, "\\u%04x", c);
				run++;
			} else if ((n = f2fs_utf8_decode(s + run, len - run, &cp)) != 0) {
				/* C1 controls too, as a terminal may act on them */
				if (cp < 0xa0)
					fprintf(o->f, "\\u%04" PRIx32, cp);
				else
					fwrite(s + run, 1, n, o->f);
				run += n;
			} else {
				fprintf(o->f, "\\udc%02x", c);
				run++;
			}
		}
		k = run;
	}
	putc('"', o->f);
}

static void json_cstring(struct out *o, const char *s)
{
	json_string(o, (const uint8_t *)s, strlen(s));
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

static void put_padded(struct out *o, const char *s, int width)
{
	size_t n = strlen(s), w = (size_t)(width < 0 ? -width : width);
	static const char spaces[] = "                                ";

	if (width < 0)
		fwrite(s, 1, n, o->f);
	for (size_t pad = n < w ? w - n : 0; pad;) {
		size_t k = pad < sizeof(spaces) - 1 ? pad : sizeof(spaces) - 1;

		fwrite(spaces, 1, k, o->f);
		pad -= k;
	}
	if (width >= 0)
		fwrite(s, 1, n, o->f);
}

static void push(struct out *o)
{
	if (o->depth + 1 < OUT_MAX_DEPTH)
		o->depth++;
	o->need_comma[o->depth] = 0;
}

static void newline_indent(struct out *o)
{
	putc('\n', o->f);
	for (int k = 0; k < o->depth; k++)
		fputs("  ", o->f);
}

/* The separator and the key of the next value (none in an array). */
static void json_key(struct out *o, const char *key)
{
	if (o->doc_pending) {      /* the document opens with its first field */
		o->doc_pending = 0;
		o->doc_open = 1;
		putc('{', o->f);
		push(o);
	}
	if (o->need_comma[o->depth])
		putc(',', o->f);
	o->need_comma[o->depth] = 1;
	if (pretty(o))
		newline_indent(o);
	if (key) {
		json_cstring(o, key);
		fputs(key_sep(o), o->f);
	}
}

static void pop(struct out *o, char close)
{
	if (o->depth > 0)
		o->depth--;
	if (pretty(o))
		newline_indent(o);
	putc(close, o->f);
}

void out_begin(struct out *o)
{
	if (out_json(o))
		o->doc_pending = 1;
}

/* ---- a document of lines: the fields kept for the templates -------------- */

void out_lines(struct out *o)
{
	o->lines = !out_json(o);
}

static struct out_kept *kept_find(struct out *o, const char *path, size_t len)
{
	for (size_t k = 0; k < o->nkept; k++)
		if (!strncmp(o->kept[k].path, path, len) && !o->kept[k].path[len])
			return &o->kept[k];
	return NULL;
}

/* An object opened again (the next element of an array) starts without
 * the fields of the last one, so that a template never shows a stale one. */
static void kept_forget(struct out *o, const char *under)
{
	size_t n = strlen(under), to = 0;

	for (size_t k = 0; k < o->nkept; k++) {
		struct out_kept *e = &o->kept[k];

		if (!strncmp(e->path, under, n) && e->path[n] == '.') {
			free(e->path);
			free(e->text);
		} else {
			o->kept[to++] = *e;
		}
	}
	o->nkept = to;
}

static void keep(struct out *o, const char *key, const char *text, size_t len)
{
	size_t at = strlen(o->scope), klen = strlen(key);
	char *path = malloc(at + 1 + klen + 1), *copy = malloc(len + 1);
	struct out_kept *e;

	if (!path || !copy)
		goto fail;
	memcpy(path, o->scope, at);
	if (at)
		path[at++] = '.';
	memcpy(path + at, key, klen + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	if ((e = kept_find(o, path, strlen(path))) != NULL) {
		free(path);
		free(e->text);
		e->text = copy;
		return;
	}
	if (o->nkept == o->kept_cap) {
		size_t cap = o->kept_cap ? 2 * o->kept_cap : 32;
		struct out_kept *k = realloc(o->kept, cap * sizeof(*k));

		if (!k)
			goto fail;
		o->kept = k;
		o->kept_cap = cap;
	}
	o->kept[o->nkept++] = (struct out_kept){ path, copy };
	return;
fail:
	free(path);
	free(copy);
	o->failed = 1;
}

static void scope_push(struct out *o, const char *key)
{
	size_t at = strlen(o->scope);

	if (!o->lines)
		return;
	if (o->nscope < OUT_MAX_DEPTH)
		o->scope_len[o->nscope] = at;
	o->nscope++;
	if (key)
		snprintf(o->scope + at, sizeof(o->scope) - at, "%s%s", at ? "." : "", key);
	kept_forget(o, o->scope);
}

static void scope_pop(struct out *o)
{
	if (!o->lines || o->nscope == 0)
		return;
	if (--o->nscope < OUT_MAX_DEPTH)
		o->scope[o->scope_len[o->nscope]] = '\0';
}

static void kept_free(struct out *o)
{
	for (size_t k = 0; k < o->nkept; k++) {
		free(o->kept[k].path);
		free(o->kept[k].text);
	}
	free(o->kept);
	o->kept = NULL;
	o->nkept = o->kept_cap = 0;
}

/* The field a template names: below the open object, else from the top. */
static const struct out_kept *kept_lookup(struct out *o, const char *name, size_t len)
{
	size_t at = strlen(o->scope);
	char path[sizeof(o->scope) + 64];
	const struct out_kept *e = NULL;

	if (at && at + 1 + len < sizeof(path)) {
		memcpy(path, o->scope, at);
		path[at] = '.';
		memcpy(path + at + 1, name, len);
		e = kept_find(o, path, at + 1 + len);
	}
	return e ? e : kept_find(o, name, len);
}

void out_template(struct out *o, const char *t)
{
	static const char upper[] = ":upper";

	if (out_json(o))
		return;
	for (;;) {
		const char *open = strchr(t, '{'), *close = open ? strchr(open, '}') : NULL;
		const struct out_kept *e;
		size_t len;
		int up;

		if (!close) {
			fputs(t, o->f);
			return;
		}
		fwrite(t, 1, (size_t)(open - t), o->f);
		len = (size_t)(close - open - 1);
		up = len > sizeof(upper) - 1 &&
		     !memcmp(close - (sizeof(upper) - 1), upper, sizeof(upper) - 1);
		e = kept_lookup(o, open + 1, up ? len - (sizeof(upper) - 1) : len);
		if (!e)
			fwrite(open, 1, (size_t)(close + 1 - open), o->f);
		else if (!up)
			fputs(e->text, o->f);
		else
			for (const char *c = e->text; *c; c++)
				putc(toupper((unsigned char)*c), o->f);
		t = close + 1;
	}
}

void out_end(struct out *o)
{
	if (out_json(o) && o->doc_open) {
		o->doc_open = 0;
		pop(o, '}');
		putc('\n', o->f);
	}
	o->doc_pending = 0;
	kept_free(o);
	o->scope[0] = '\0';
	o->nscope = 0;
}

void out_obj_begin(struct out *o, const char *key, const char *title)
{
	if (out_json(o)) {
		json_key(o, key);
		putc('{', o->f);
		push(o);
	} else {
		o->text_depth++;
		scope_push(o, key);
		if (title && !o->lines)
			fprintf(o->f, "%s\n", title);
	}
}

void out_obj_end(struct out *o)
{
	if (out_json(o))
		pop(o, '}');
	else if (o->text_depth > 0)
		o->text_depth--;
	scope_pop(o);
}

void out_array_begin(struct out *o, const char *key)
{
	if (!out_json(o)) {
		scope_push(o, key);
		return;
	}
	json_key(o, key);
	putc('[', o->f);
	push(o);
}

void out_array_end(struct out *o)
{
	if (out_json(o))
		pop(o, ']');
	scope_pop(o);
}

/* Text tables inside an object line up with its fields. */
static void table_indent(struct out *o)
{
	if (!out_json(o) && o->text_depth)
		fputs("  ", o->f);
}

void out_label(struct out *o, const char *label)
{
	if (!out_json(o))
		fprintf(o->f, "  %-*s ", FIELD_WIDTH, label);
}

/* A field without a JSON key is text only, one without a label JSON only. */
static int shown(const struct out *o, const char *key, const char *label)
{
	return out_json(o) ? key != NULL : label != NULL;
}

/*
 * Text: a field's label before its value and its newline after; in a
 * document of lines the value is written to memory instead and kept by its
 * path. Returns 0 when the field is not shown in text.
 */
static int text_begin(struct out *o, const char *key, const char *label)
{
	if (!o->lines) {
		if (!label)
			return 0;
		out_label(o, label);
		return 1;
	}
	if (!key)
		return 0;
	o->keep_buf = NULL;
	o->keep_len = 0;
	o->keep_f = o->f;
	o->f = open_memstream(&o->keep_buf, &o->keep_len);
	if (!o->f) {
		o->f = o->keep_f;
		o->failed = 1;
		return 0;
	}
	o->keep_key = key;
	if (label)
		fprintf(o->f, "%s ", label);
	return 1;
}

static void text_end(struct out *o)
{
	if (!o->lines) {
		putc('\n', o->f);
		return;
	}
	if (fclose(o->f) == 0 && o->keep_buf)
		keep(o, o->keep_key, o->keep_buf, o->keep_len);
	else
		o->failed = 1;
	free(o->keep_buf);
	o->keep_buf = NULL;
	o->f = o->keep_f;
}

/* One field whose value is already formatted, for each style. */
static void kv_raw(struct out *o, const char *key, const char *label, const char *json_val,
		   const char *text_val)
{
	if (out_json(o)) {
		if (!key)
			return;
		json_key(o, key);
		fputs(json_val, o->f);
	} else if (text_begin(o, key, label)) {
		fputs(text_val, o->f);
		text_end(o);
	}
}

void out_u(struct out *o, const char *key, const char *label, uint64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%" PRIu64, v);
	kv_raw(o, key, label, b, b);
}

void out_i(struct out *o, const char *key, const char *label, int64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%" PRId64, v);
	kv_raw(o, key, label, b, b);
}

void out_b(struct out *o, const char *key, const char *label, int v)
{
	kv_raw(o, key, label, v ? "true" : "false", v ? "yes" : "no");
}

void out_x(struct out *o, const char *key, const char *label, uint64_t v)
{
	char j[24], t[24];

	snprintf(j, sizeof(j), "%" PRIu64, v);
	snprintf(t, sizeof(t), "0x%" PRIx64, v);
	kv_raw(o, key, label, j, t);
}

void out_s(struct out *o, const char *key, const char *label, const char *s)
{
	if (s)
		out_bytes(o, key, label, (const uint8_t *)s, strlen(s));
	else
		kv_raw(o, key, label, "null", "-");
}

void out_msg(struct out *o, const char *key, const char *label, const char *s)
{
	if (!s || out_json(o))
		out_s(o, key, label, s);
	else if (text_begin(o, key, label)) {
		fputs(s, o->f);
		text_end(o);
	}
}

void out_bytes(struct out *o, const char *key, const char *label, const uint8_t *s, size_t len)
{
	if (out_json(o)) {
		if (!key)
			return;
		json_key(o, key);
		json_string(o, s, len);
	} else if (text_begin(o, key, label)) {
		put_escaped(o, s, len);
		text_end(o);
	}
}

/* The names of the bits set in v, joined by sep, each between quotes;
 * bits the table does not name come last as one hex number. */
static void flag_names(struct out *o, uint32_t v, const struct out_flag *t, const char *sep,
		       const char *q)
{
	uint32_t rest = v;
	const char *s = "";

	for (; t->name; t++) {
		if (!(v & t->bit))
			continue;
		fprintf(o->f, "%s%s%s%s", s, q, t->name, q);
		rest &= ~t->bit;
		s = sep;
	}
	if (rest)
		fprintf(o->f, "%s%s0x%x%s", s, q, rest, q);
}

void out_flags(struct out *o, const char *key, const char *label, uint32_t v,
	       const struct out_flag *names)
{
	if (out_json(o)) {
		if (!key)
			return;
		json_key(o, key);
		fprintf(o->f, "{\"value\"%s%u%s\"names\"%s[", key_sep(o), v, item_sep(o),
			key_sep(o));
		flag_names(o, v, names, item_sep(o), "\"");
		fputs("]}", o->f);
		return;
	}
	if (!text_begin(o, key, label))
		return;
	fprintf(o->f, "0x%x (", v);
	if (v)
		flag_names(o, v, names, ",", "");
	else
		fputs("none", o->f);
	putc(')', o->f);
	text_end(o);
}

void out_list_begin(struct out *o, const char *key, const char *label)
{
	o->list_items = 0;
	o->list_hidden = !shown(o, key, label) || o->lines;
	if (o->list_hidden)
		return;
	if (out_json(o)) {
		json_key(o, key);
		putc('[', o->f);
	} else {
		out_label(o, label);
	}
}

static void list_sep(struct out *o)
{
	if (o->list_items++)
		fputs(out_json(o) ? item_sep(o) : " ", o->f);
}

void out_list_u(struct out *o, uint64_t v)
{
	if (o->list_hidden)
		return;
	list_sep(o);
	fprintf(o->f, "%" PRIu64, v);
}

void out_list_bytes(struct out *o, const uint8_t *s, size_t len)
{
	if (o->list_hidden)
		return;
	list_sep(o);
	if (out_json(o))
		json_string(o, s, len);
	else
		put_escaped(o, s, len);
}

void out_list_end(struct out *o)
{
	if (!o->list_hidden)
		putc(out_json(o) ? ']' : '\n', o->f);
}

void out_text(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (out_json(o))
		return;
	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
	va_end(ap);
}

void out_escaped(struct out *o, const uint8_t *s, size_t len)
{
	if (!out_json(o))
		put_escaped(o, s, len);
}

void out_tab_begin(struct out *o, struct out_table *t, const char *key, const char *title,
		   const struct out_col *cols, int ncols)
{
	t->key = key;
	t->cols = cols;
	t->ncols = ncols;
	t->rows = 0;
	if (out_json(o)) {
		json_key(o, key);
		putc('[', o->f);
		push(o);
		return;
	}
	if (title)
		fprintf(o->f, "%s\n", title);
	table_indent(o);
	for (int k = 0; k < ncols; k++) {
		int w = cols[k].width;

		if (k == ncols - 1 && w < 0)
			fputs(cols[k].head, o->f);
		else
			fprintf(o->f, "%*s", w, cols[k].head);
		if (k != ncols - 1)
			putc(' ', o->f);
	}
	putc('\n', o->f);
}

/* A number cell as text (hex for OUT_COL_X in text) or as a JSON value. */
static void fmt_number(const struct out_col *col, const struct out_cell *c, int as_json,
		       char *buf, size_t len)
{
	char digits[24];

	if (c->none)
		snprintf(buf, len, "%s", as_json ? "null" : "-");
	else if (col->type == OUT_COL_X && !as_json)
		snprintf(buf, len, "0x%" PRIx64, c->u);
	else if (col->type == OUT_COL_U || col->type == OUT_COL_X)
		snprintf(buf, len, "%s", u64_digits(c->u, digits, sizeof(digits)));
	else if (col->type == OUT_COL_I)
		snprintf(buf, len, "%" PRId64, c->i);
	else
		snprintf(buf, len, "%.2f", c->f);
}

static void json_cell(struct out *o, const struct out_col *col, const struct out_cell *c)
{
	char buf[64];

	if (col->type != OUT_COL_S) {
		fmt_number(col, c, 1, buf, sizeof(buf));
		fputs(buf, o->f);
	} else if (c->s && !c->none) {
		json_string(o, (const uint8_t *)c->s, c->len ? c->len : strlen(c->s));
	} else {
		fputs("null", o->f);
	}
}

/* Text cell padded to its width; the last left-aligned column is not
 * padded, and a string there is escaped rather than cut. */
static void text_cell(struct out *o, const struct out_col *col, const struct out_cell *c,
		      int last)
{
	const char *s = c->s && !c->none ? c->s : "-";
	char buf[64];

	if (col->type == OUT_COL_S && last && col->width < 0) {
		put_escaped(o, (const uint8_t *)s, s == c->s && c->len ? c->len : strlen(s));
		return;
	}
	if (col->type != OUT_COL_S) {
		fmt_number(col, c, 0, buf, sizeof(buf));
		s = buf;
	}
	put_padded(o, s, last && col->width < 0 ? 0 : col->width);
}

void out_tab_row(struct out *o, struct out_table *t, const struct out_cell *c)
{
	int json = out_json(o);

	t->rows++;
	if (json) {
		json_key(o, NULL);
		putc('{', o->f);
	}
	table_indent(o);
	for (int k = 0; k < t->ncols; k++) {
		const struct out_col *col = &t->cols[k];

		if (json) {
			if (k)
				fputs(item_sep(o), o->f);
			json_cstring(o, col->key);
			fputs(key_sep(o), o->f);
			json_cell(o, col, &c[k]);
		} else {
			text_cell(o, col, &c[k], k == t->ncols - 1);
			if (k != t->ncols - 1)
				putc(' ', o->f);
		}
	}
	putc(json ? '}' : '\n', o->f);
}

void out_tab_end(struct out *o, struct out_table *t)
{
	if (out_json(o))
		pop(o, ']');
	(void)t;
}

void out_error(struct out *o, const char *kind, int code, const char *msg, int exit_code)
{
	out_obj_begin(o, "error", NULL);
	out_s(o, "kind", NULL, kind);
	if (code)
		out_i(o, "code", NULL, code);
	else
		out_s(o, "code", NULL, NULL);
	out_s(o, "message", NULL, msg);
	out_obj_end(o);
	out_i(o, "exit", NULL, exit_code);
}

void out_error_doc(FILE *f, enum out_style style, const char *image, const char *kind, int code,
		   const char *msg, int exit_code)
{
	struct out o;

	out_init(&o, f, style);
	out_begin(&o);
	out_s(&o, "image", NULL, image);
	out_error(&o, kind, code, msg, exit_code);
	out_end(&o);
	out_flush(&o);
}
