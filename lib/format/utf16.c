/* UTF-8 and UTF-16LE conversion for volume labels. */
#include <f2fs/format/utf16.h>
#include <f2fs/format/utf8.h>

#include <string.h>

static void put_unit(uint8_t *o, size_t i, uint16_t u)
{
	o[2 * i] = (uint8_t)u;
	o[2 * i + 1] = (uint8_t)(u >> 8);
}

static uint32_t get_unit(const uint8_t *p, size_t i)
{
	return p[2 * i] | (uint32_t)p[2 * i + 1] << 8;
}

int f2fs_utf8_to_utf16le(const char *s, void *outp, size_t max)
{
	uint8_t *out = outp;
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	while (*p) {
		uint32_t cp;
		size_t len = f2fs_utf8_decode(p, strlen((const char *)p), &cp);

		if (len == 0)
			return -1;
		p += len;
		if (cp >= 0x10000) {
			if (n + 2 > max)
				return -1;
			cp -= 0x10000;
			put_unit(out, n++, (uint16_t)(0xD800 + (cp >> 10)));
			put_unit(out, n++, (uint16_t)(0xDC00 + (cp & 0x3FF)));
		} else {
			if (n + 1 > max)
				return -1;
			put_unit(out, n++, (uint16_t)cp);
		}
	}
	return (int)n;
}

static size_t utf8_encode(uint32_t c, char *o)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xC0 | (c >> 6));
		o[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xE0 | (c >> 12));
		o[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		o[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | (c >> 18));
	o[1] = (char)(0x80 | ((c >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((c >> 6) & 0x3F));
	o[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

void f2fs_utf16le_to_utf8(const void *inp, size_t n, char *out, size_t len)
{
	const uint8_t *in = inp;
	size_t used = 0;

	for (size_t i = 0; i < n && get_unit(in, i); i++) {
		uint32_t c = get_unit(in, i);
		char tmp[4];
		size_t k;

		if (c >= 0xD800 && c < 0xDC00 && i + 1 < n) {
			uint32_t lo = get_unit(in, i + 1);

			if (lo >= 0xDC00 && lo < 0xE000) {
				c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
				i++;
			}
		}
		if (c >= 0xD800 && c < 0xE000)
			c = 0xFFFD;   /* a lone surrogate */
		k = utf8_encode(c, tmp);
		if (used + k + 1 > len)
			break;
		for (size_t j = 0; j < k; j++)
			out[used++] = tmp[j];
	}
	if (len)
		out[used] = '\0';
}
