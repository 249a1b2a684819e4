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

void out_init(int j)
{
	json = j;
	depth = 0;
	memset(need_comma, 0, sizeof(need_comma));
}

int out_json(void)
{
	return json;
}

void put_escaped(const uint8_t *s, size_t len)
{
	for (size_t k = 0; k < len; k++) {
		if (s[k] < 0x20 || s[k] == 0x7f || s[k] == '\\')
			printf("\\%03o", s[k]);
		else
			putchar(s[k]);
	}
}

/* JSON string; bytes that are not printable ASCII become \u00XX (one code
 * point per byte, so any byte string round-trips). */
void json_string(const uint8_t *s, size_t len)
{
	putchar('"');
	for (size_t k = 0; k < len; k++) {
		uint8_t c = s[k];

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
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
	} else if (title) {
		printf("%s\n", title);
	}
}

void out_obj_end(void)
{
	if (json)
		pop('}');
}

static void label(const char *l)
{
	printf("  %-*s ", FIELD_WIDTH, l);
}

void kv_u(const char *key, const char *lab, uint64_t v)
{
	if (json) {
		json_key(key);
		printf("%" PRIu64, v);
	} else {
		label(lab);
		printf("%" PRIu64 "\n", v);
	}
}

void kv_i(const char *key, const char *lab, int64_t v)
{
	if (json) {
		json_key(key);
		printf("%" PRId64, v);
	} else {
		label(lab);
		printf("%" PRId64 "\n", v);
	}
}

void kv_x(const char *key, const char *lab, uint64_t v)
{
	if (json) {
		json_key(key);
		printf("%" PRIu64, v);
	} else {
		label(lab);
		printf("0x%" PRIx64 "\n", v);
	}
}

void kv_s(const char *key, const char *lab, const char *s)
{
	kv_bytes(key, lab, (const uint8_t *)s, strlen(s));
}

void kv_bytes(const char *key, const char *lab, const uint8_t *s, size_t len)
{
	if (json) {
		json_key(key);
		json_string(s, len);
	} else {
		label(lab);
		put_escaped(s, len);
		putchar('\n');
	}
}

void kv_flags(const char *key, const char *lab, uint32_t v, const struct flag_name *t)
{
	uint32_t rest = v;
	int first = 1;

	if (json) {
		json_key(key);
		printf("{\"value\": %u, \"names\": [", v);
		for (; t->name; t++) {
			if (!(v & t->bit))
				continue;
			printf("%s\"%s\"", first ? "" : ", ", t->name);
			rest &= ~t->bit;
			first = 0;
		}
		if (rest)
			printf("%s\"0x%x\"", first ? "" : ", ", rest);
		printf("]}");
		return;
	}
	label(lab);
	printf("0x%x", v);
	if (!v) {
		printf(" (none)\n");
		return;
	}
	printf(" (");
	for (; t->name; t++) {
		if (!(v & t->bit))
			continue;
		printf("%s%s", first ? "" : ",", t->name);
		rest &= ~t->bit;
		first = 0;
	}
	if (rest)
		printf("%s0x%x", first ? "" : ",", rest);
	printf(")\n");
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

void tab_row(struct table *t, const struct cell *c)
{
	t->rows++;
	if (json) {
		json_key(NULL);
		putchar('{');
		for (int k = 0; k < t->ncols; k++) {
			const struct col *col = &t->cols[k];

			printf("%s", k ? ", " : "");
			json_string((const uint8_t *)col->key, strlen(col->key));
			fputs(": ", stdout);
			switch (col->type) {
			case COL_U:
			case COL_X:
				printf("%" PRIu64, c[k].u);
				break;
			case COL_I:
				printf("%" PRId64, c[k].i);
				break;
			case COL_F2:
				printf("%.2f", c[k].f);
				break;
			case COL_S:
				if (c[k].s)
					json_string((const uint8_t *)c[k].s, strlen(c[k].s));
				else
					fputs("null", stdout);
				break;
			}
		}
		putchar('}');
		return;
	}
	for (int k = 0; k < t->ncols; k++) {
		const struct col *col = &t->cols[k];
		int w = col->width;
		int last = k == t->ncols - 1;
		char buf[64];

		switch (col->type) {
		case COL_U:
			snprintf(buf, sizeof(buf), "%" PRIu64, c[k].u);
			break;
		case COL_X:
			snprintf(buf, sizeof(buf), "0x%" PRIx64, c[k].u);
			break;
		case COL_I:
			snprintf(buf, sizeof(buf), "%" PRId64, c[k].i);
			break;
		case COL_F2:
			snprintf(buf, sizeof(buf), "%.2f", c[k].f);
			break;
		case COL_S:
			if (last && w < 0) {
				put_escaped((const uint8_t *)(c[k].s ? c[k].s : "-"),
					    strlen(c[k].s ? c[k].s : "-"));
				continue;
			}
			snprintf(buf, sizeof(buf), "%s", c[k].s ? c[k].s : "-");
			break;
		}
		if (last && w < 0)
			printf("%s", buf);
		else
			printf("%*s", w, buf);
		if (!last)
			putchar(' ');
	}
	putchar('\n');
}

void tab_end(struct table *t)
{
	if (json)
		pop(']');
	(void)t;
}
