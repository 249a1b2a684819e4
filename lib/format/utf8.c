/* NFDI and NFDICF of a UTF-8 name, as Linux 6.1's utf8 normaliser makes them. */
#include <f2fs/format/utf8.h>

#include <errno.h>
#include <stdbool.h>

#include "utf8_data.h"

#define HANGUL_FIRST 0xAC00u
#define HANGUL_LAST 0xD7A3u
#define JAMO_L 0x1100u
#define JAMO_V 0x1161u
#define JAMO_T 0x11A7u
#define JAMO_V_COUNT 21u
#define JAMO_T_COUNT 28u

/* A run holds at most one item per byte of the result. */
#define RUN_MAX (F2FS_UTF8_CAP - 1)

/* The class byte of a run item that is a stray continuation byte. */
#define STRAY 0xFFu

struct nf_out {
	uint8_t *buf;
	size_t n;
	uint32_t run[RUN_MAX]; /* marks (and stray bytes) since the last starter */
	size_t nrun;
	bool full;
};

static uint16_t utf8_value(uint32_t cp)
{
	uint32_t row = f2fs_utf8_top[cp >> (F2FS_UTF8_MID_BITS + F2FS_UTF8_LO_BITS)];
	uint32_t mid = (cp >> F2FS_UTF8_LO_BITS) & ((1u << F2FS_UTF8_MID_BITS) - 1);
	uint32_t leaf = f2fs_utf8_mid[row << F2FS_UTF8_MID_BITS | mid];

	return f2fs_utf8_leaf[leaf << F2FS_UTF8_LO_BITS | (cp & ((1u << F2FS_UTF8_LO_BITS) - 1))];
}

/* Well-formed sequences are exactly those the kernel's trie has a path for. */
size_t f2fs_utf8_decode(const uint8_t *p, size_t left, uint32_t *cp)
{
	uint8_t b, lo = 0x80, hi = 0xBF;
	size_t n;
	uint32_t c;

	if (!left)
		return 0;
	b = p[0];
	if (b < 0x80) {
		*cp = b;
		return 1;
	}
	if (b >= 0xC2 && b <= 0xDF) {
		n = 2;
		c = b & 0x1Fu;
	} else if (b >= 0xE0 && b <= 0xEF) {
		n = 3;
		c = b & 0x0Fu;
		if (b == 0xE0)
			lo = 0xA0;
		else if (b == 0xED)
			hi = 0x9F;
	} else if (b >= 0xF0 && b <= 0xF4) {
		n = 4;
		c = b & 0x07u;
		if (b == 0xF0)
			lo = 0x90;
		else if (b == 0xF4)
			hi = 0x8F;
	} else {
		return 0;
	}
	if (left < n || p[1] < lo || p[1] > hi)
		return 0;
	c = c << 6 | (p[1] & 0x3Fu);
	for (size_t i = 2; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3Fu);
	}
	*cp = c;
	return n;
}

static void put_bytes(struct nf_out *o, const uint8_t *e, size_t k)
{
	if (o->n + k >= F2FS_UTF8_CAP) {
		o->full = true;
		return;
	}
	for (size_t i = 0; i < k; i++)
		o->buf[o->n++] = e[i];
}

static void put_cp(struct nf_out *o, uint32_t cp)
{
	uint8_t e[4];
	size_t k;

	if (cp < 0x80) {
		e[0] = (uint8_t)cp;
		k = 1;
	} else if (cp < 0x800) {
		e[0] = (uint8_t)(0xC0 | cp >> 6);
		e[1] = (uint8_t)(0x80 | (cp & 0x3F));
		k = 2;
	} else if (cp < 0x10000) {
		e[0] = (uint8_t)(0xE0 | cp >> 12);
		e[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
		e[2] = (uint8_t)(0x80 | (cp & 0x3F));
		k = 3;
	} else {
		e[0] = (uint8_t)(0xF0 | cp >> 18);
		e[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
		e[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
		e[3] = (uint8_t)(0x80 | (cp & 0x3F));
		k = 4;
	}
	put_bytes(o, e, k);
}

/*
 * A starter, the end of the name or an ignorable ends the run of marks: emit
 * it in canonical order, the way the kernel's utf8byte() does, by passes
 * over the run, one per class present, lowest first, each emitting the
 * marks of its class in their order. That is a stable sort by class, except
 * for stray continuation bytes (a byte 0x80-0xBF where a character should
 * start, which the kernel copies as it meets them): every pass, and the
 * first one that only looks for the lowest class, emits them again.
 */
static void flush_run(struct nf_out *o)
{
	uint32_t cls = 0;

	if (!o->nrun)
		return;
	for (;;) {
		uint32_t next = STRAY;

		for (size_t i = 0; i < o->nrun; i++) {
			uint32_t w = o->run[i], c = w >> 24;
			uint8_t b = (uint8_t)w;

			if (c == STRAY)
				put_bytes(o, &b, 1);
			else if (c == cls)
				put_cp(o, w & 0x1FFFFFu);
			else if (c > cls && c < next)
				next = c;
		}
		if (next == STRAY)
			break;
		cls = next;
	}
	o->nrun = 0;
}

static void run_add(struct nf_out *o, uint32_t w)
{
	if (o->nrun == RUN_MAX) {
		o->full = true;
		return;
	}
	o->run[o->nrun++] = w;
}

/* One result character, its class in bits 24..31: a starter ends the run of
 * marks before it, a mark joins the run. */
static void put_word(struct nf_out *o, uint32_t w)
{
	if (w >> 24) {
		run_add(o, w);
		return;
	}
	flush_run(o);
	put_cp(o, w);
}

static void put_hangul(struct nf_out *o, uint32_t cp)
{
	uint32_t s = cp - HANGUL_FIRST, t = s % JAMO_T_COUNT;

	put_word(o, JAMO_L + s / (JAMO_V_COUNT * JAMO_T_COUNT));
	put_word(o, JAMO_V + s % (JAMO_V_COUNT * JAMO_T_COUNT) / JAMO_T_COUNT);
	if (t)
		put_word(o, JAMO_T + t);
}

static void put_mapped(struct nf_out *o, enum f2fs_utf8_form form, uint32_t cp, uint16_t v)
{
	const uint32_t *m = &f2fs_utf8_map[v - F2FS_UTF8_MAPPED];
	uint32_t head = m[0], n;
	const uint32_t *w = m + 1;

	if (form == F2FS_UTF8_NFDICF) {
		n = head & 0xFF;
	} else if (!(head & F2FS_UTF8_HAS_NFDI)) {
		put_word(o, cp | (head & 0xFF000000u));
		return;
	} else {
		n = head >> 8 & 0xFF;
		if (!(head & F2FS_UTF8_SAME))
			w += head & 0xFF;
	}
	/* an ignorable vanishes, yet ends the run of marks as a starter would */
	if (!n)
		flush_run(o);
	for (uint32_t i = 0; i < n; i++)
		put_word(o, w[i]);
}

int f2fs_utf8_normalize(enum f2fs_utf8_form form, const uint8_t *name, size_t len,
			uint8_t out[F2FS_UTF8_CAP])
{
	struct nf_out o; /* not zeroed: run[] is a kilobyte, filled before use */
	size_t i = 0, stop = len < F2FS_UTF8_CAP - 1 ? len : F2FS_UTF8_CAP - 1;
	uint32_t fold = form == F2FS_UTF8_NFDICF ? 'a' - 'A' : 0;

	/* A leading ASCII run (most names are all ASCII): starters only, so no
	 * run of marks to end, and byte i of the result is byte i of the name. */
	for (; i < stop && name[i] - 1u < 0x7Fu; i++)
		out[i] = (uint8_t)(name[i] + ((unsigned)name[i] - 'A' < 26u ? fold : 0));
	o.buf = out;
	o.n = i;
	o.nrun = 0;
	o.full = false;
	while (i < len && !o.full) {
		uint8_t b = name[i];
		uint32_t cp;
		uint16_t v;
		size_t k;

		if (b < 0x80) {
			/* ASCII: starters, folded by range */
			if (!b)
				break;
			if (form == F2FS_UTF8_NFDICF && b >= 'A' && b <= 'Z')
				b += 'a' - 'A';
			if (o.nrun)
				flush_run(&o);
			if (o.n + 1 >= F2FS_UTF8_CAP) {
				o.full = true;
				break;
			}
			out[o.n++] = b;
			i++;
			continue;
		}
		if ((b & 0xC0) == 0x80) {
			/* The kernel refuses a name starting with a continuation
			 * byte, and copies one met later as it is. */
			if (!i)
				return -EILSEQ;
			if (o.nrun)
				run_add(&o, STRAY << 24 | b);
			else
				put_bytes(&o, &b, 1);
			i++;
			continue;
		}
		k = f2fs_utf8_decode(name + i, len - i, &cp);
		if (!k)
			return -EILSEQ;
		i += k;
		v = utf8_value(cp);
		if (!v)
			return -EILSEQ;
		if (cp >= HANGUL_FIRST && cp <= HANGUL_LAST)
			put_hangul(&o, cp);
		else if (v < F2FS_UTF8_MAPPED)
			put_word(&o, cp | (uint32_t)(v - 1) << 24);
		else
			put_mapped(&o, form, cp, v);
	}
	flush_run(&o);
	return o.full ? -ENAMETOOLONG : (int)o.n;
}
