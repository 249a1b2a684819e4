/*
 * The dentry name hash. Vectors match hashes stored by the Linux kernel in
 * dentries; a second implementation written here from the format notes
 * judges names the vectors do not cover (long names, bytes >= 0x80).
 */
#include <check.h>

#include <f2fs/format/hash.h>

#include <stdlib.h>
#include <string.h>

#include "unit.h"

static uint32_t H(const char *s)
{
	return f2fs_dentry_hash((const uint8_t *)s, strlen(s));
}

/* Independent model of the TEA-based hash (bytes taken as unsigned). */
static uint32_t ref_hash(const uint8_t *name, size_t len)
{
	uint32_t buf0 = 0x67452301u, buf1 = 0xEFCDAB89u;
	const uint8_t *p = name;
	size_t left = len;

	if ((len == 1 && name[0] == '.') || (len == 2 && !memcmp(name, "..", 2)))
		return 0;
	for (;;) {
		uint32_t pad = (uint32_t)left * 0x01010101u, in[4], sum = 0, b0, b1;
		size_t n = left < 16 ? left : 16;

		for (int w = 0; w < 4; w++) {
			uint32_t v = pad;

			for (int k = 0; k < 4; k++) {
				size_t i = (size_t)w * 4 + k;

				if (i < n)
					v = (v << 8) + p[i];
			}
			/* words with no byte at all are plain pad */
			in[w] = (size_t)w * 4 < n ? v : pad;
		}
		b0 = buf0;
		b1 = buf1;
		for (int r = 0; r < 16; r++) {
			sum += 0x9E3779B9u;
			b0 += ((b1 << 4) + in[0]) ^ (b1 + sum) ^ ((b1 >> 5) + in[1]);
			b1 += ((b0 << 4) + in[2]) ^ (b0 + sum) ^ ((b0 >> 5) + in[3]);
		}
		buf0 += b0;
		buf1 += b1;
		if (left <= 16)
			break;
		p += 16;
		left -= 16;
	}
	return buf0;
}

START_TEST(test_vectors)
{
	ck_assert_uint_eq(H("a"), 0x6D0EA4C1u);
	ck_assert_uint_eq(H("hello"), 0x6F5BB1A8u);
	ck_assert_uint_eq(H("lost+found"), 0x2DBF9E80u);
	ck_assert_uint_eq(H("abcdefghijklmnop"), 0xF4AC8CB5u);
	ck_assert_uint_eq(H("abcdefghijklmnopq"), 0x972A82E7u);
	ck_assert_uint_eq(H("0123456789abcdefghijklmnopqrstuvwxyz"), 0x35ADAECAu);
	ck_assert_uint_eq(H("file_number_0"), 0xFF3259F3u);
}
END_TEST

START_TEST(test_model_matches_vectors)
{
	static const struct { const char *n; uint32_t h; } v[] = {
		{ "a", 0x6D0EA4C1u }, { "hello", 0x6F5BB1A8u },
		{ "lost+found", 0x2DBF9E80u }, { "abcdefghijklmnop", 0xF4AC8CB5u },
		{ "abcdefghijklmnopq", 0x972A82E7u },
		{ "0123456789abcdefghijklmnopqrstuvwxyz", 0x35ADAECAu },
		{ "file_number_0", 0xFF3259F3u },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		ck_assert_uint_eq(ref_hash((const uint8_t *)v[i].n, strlen(v[i].n)), v[i].h);
}
END_TEST

START_TEST(test_dots)
{
	ck_assert_uint_eq(H("."), 0);
	ck_assert_uint_eq(H(".."), 0);
	/* only exactly "." and ".." */
	ck_assert_uint_ne(H("..."), 0);
	ck_assert_uint_ne(H(".a"), 0);
	ck_assert_uint_ne(H(".hidden"), 0);
	ck_assert_uint_eq(H("..."), ref_hash((const uint8_t *)"...", 3));
	/* a length that stops short of the bytes decides, not a NUL */
	ck_assert_uint_eq(f2fs_dentry_hash((const uint8_t *)"..x", 2), 0);
	ck_assert_uint_eq(f2fs_dentry_hash((const uint8_t *)".x", 1), 0);
}
END_TEST

START_TEST(test_length_sensitivity)
{
	/* a name and its prefix differ, as do lengths around 4/16/32 bytes */
	static const char s[] = "0123456789abcdefghijklmnopqrstuvwxyz0123456789";
	uint32_t prev = 0;

	for (size_t len = 1; len < sizeof(s); len++) {
		uint32_t h = f2fs_dentry_hash((const uint8_t *)s, len);

		ck_assert_uint_eq(h, ref_hash((const uint8_t *)s, len));
		ck_assert_uint_ne(h, prev);
		prev = h;
	}
}
END_TEST

START_TEST(test_long_name)
{
	uint8_t name[255];
	uint32_t h;

	for (size_t i = 0; i < sizeof(name); i++)
		name[i] = (uint8_t)('a' + i % 26);
	h = f2fs_dentry_hash(name, sizeof(name));
	ck_assert_uint_eq(h, ref_hash(name, sizeof(name)));
	ck_assert_uint_eq(f2fs_dentry_hash(name, sizeof(name)), h);   /* stable */
	name[254] ^= 1;   /* the last byte of the last (15-byte) chunk counts */
	ck_assert_uint_ne(f2fs_dentry_hash(name, sizeof(name)), h);
	name[254] ^= 1;
	name[0] ^= 1;     /* and so does the first */
	ck_assert_uint_ne(f2fs_dentry_hash(name, sizeof(name)), h);
}
END_TEST

START_TEST(test_high_bytes)
{
	/* UTF-8 names: bytes >= 0x80 are added as unsigned values */
	static const uint8_t utf8[] = "\xc3\xa9t\xc3\xa9-\xe2\x9c\x93-\xf0\x9f\x98\x80";
	uint8_t all[256];
	uint32_t h;

	h = f2fs_dentry_hash(utf8, sizeof(utf8) - 1);
	ck_assert_uint_eq(h, ref_hash(utf8, sizeof(utf8) - 1));
	ck_assert_uint_eq(f2fs_dentry_hash(utf8, sizeof(utf8) - 1), h);

	for (int i = 0; i < 256; i++)
		all[i] = (uint8_t)(255 - i);
	for (size_t len = 1; len <= 255; len += 7) {
		h = f2fs_dentry_hash(all, len);
		ck_assert_uint_eq(h, ref_hash(all, len));
	}
	/* a single 0xFF byte differs from what sign extension would give:
	 * with signed bytes 0xFF + (pad << 8) would borrow into the pad */
	{
		uint8_t ff = 0xFF, one = 0x01;

		ck_assert_uint_eq(f2fs_dentry_hash(&ff, 1), ref_hash(&ff, 1));
		ck_assert_uint_ne(f2fs_dentry_hash(&ff, 1), f2fs_dentry_hash(&one, 1));
	}
}
END_TEST

START_TEST(test_random_names)
{
	uint8_t name[255];
	uint32_t x = 12345;

	for (int round = 0; round < 2000; round++) {
		size_t len;

		x = x * 1664525u + 1013904223u;
		len = 1 + (x >> 8) % 255;
		for (size_t i = 0; i < len; i++) {
			x = x * 1664525u + 1013904223u;
			name[i] = (uint8_t)(x >> 24);
		}
		ck_assert_uint_eq(f2fs_dentry_hash(name, len), ref_hash(name, len));
	}
}
END_TEST

static Suite *hash_suite(void)
{
	Suite *s = suite_create("hash");
	TCase *tc = tcase_create("dentry_hash");

	tcase_add_test(tc, test_vectors);
	tcase_add_test(tc, test_model_matches_vectors);
	tcase_add_test(tc, test_dots);
	tcase_add_test(tc, test_length_sensitivity);
	tcase_add_test(tc, test_long_name);
	tcase_add_test(tc, test_high_bytes);
	tcase_add_test(tc, test_random_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(hash_suite());
}
