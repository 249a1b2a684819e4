/*
 * The kernel's utf8 normalisation (include/f2fs/format/utf8.h) and the
 * casefolded name hash. Expected results are written from the Unicode data
 * files by hand (CaseFolding.txt C + F, UnicodeData.txt decompositions and
 * classes, DerivedAge.txt for what 12.1.0 assigns, DerivedCoreProperties.txt
 * for the ignorables), not taken from our tables.
 */
#include <check.h>

#include <f2fs/format/hash.h>
#include <f2fs/format/utf8.h>

#include <errno.h>
#include <string.h>

#include "unit.h"

static int norm(enum f2fs_utf8_form form, const char *in, size_t len, uint8_t *out)
{
	return f2fs_utf8_normalize(form, (const uint8_t *)in, len, out);
}

/* in folds (NFDICF) to want, byte for byte. */
#define FOLDS(in, want) check_form(F2FS_UTF8_NFDICF, in, sizeof(in) - 1, want, __LINE__)
#define NFDI(in, want) check_form(F2FS_UTF8_NFDI, in, sizeof(in) - 1, want, __LINE__)

static void check_form(enum f2fs_utf8_form form, const char *in, size_t len,
		       const char *want, int line)
{
	uint8_t out[F2FS_UTF8_CAP];
	int n = norm(form, in, len, out);

	ck_assert_msg(n == (int)strlen(want) && !memcmp(out, want, strlen(want)),
		      "line %d: got %d bytes, want %zu", line, n, strlen(want));
}

static int fold_err(const char *in, size_t len)
{
	uint8_t out[F2FS_UTF8_CAP];

	return norm(F2FS_UTF8_NFDICF, in, len, out);
}

START_TEST(latin_and_ascii)
{
	FOLDS("Hello_World-42.txt", "hello_world-42.txt");
	FOLDS(u8"Stra\u00DFe", "strasse");             /* sharp s: F folding */
	FOLDS(u8"\u1E9E", "ss");                       /* capital sharp s */
	FOLDS(u8"\u00C9t\u00E9", u8"e\u0301te\u0301"); /* precomposed: NFD */
	FOLDS(u8"E\u0301te\u0301", u8"e\u0301te\u0301");
	FOLDS(u8"\uFB01le", "file");                   /* ligature fi */
	FOLDS(u8"\u01C5", u8"\u01C6");                 /* title case Dz caron: D z caron */
	FOLDS(u8"\u212A", "k");                        /* Kelvin: folded, not decomposed to K */
	FOLDS(u8"\u212B", u8"a\u030A");                /* Angstrom -> a-ring -> a + ring */
	FOLDS(u8"\u2126", u8"\u03C9");                 /* Ohm -> omega */
	FOLDS(u8"\uFF21\uFF22", u8"\uFF41\uFF42");     /* full-width stays full-width */
	/* Turkish: full folding, no Turkic special case */
	FOLDS(u8"\u0130", u8"i\u0307");
	FOLDS(u8"\u0131", u8"\u0131");
	FOLDS("I", "i");
}
END_TEST

START_TEST(other_scripts)
{
	/* Greek: final sigma folds to sigma; tonos decomposes */
	FOLDS(u8"\u039F\u0394\u039F\u03A3", u8"\u03BF\u03B4\u03BF\u03C3");
	FOLDS(u8"\u03BF\u03B4\u03BF\u03C2", u8"\u03BF\u03B4\u03BF\u03C3");
	FOLDS(u8"\u0386", u8"\u03B1\u0301");
	FOLDS(u8"\u0390", u8"\u03B9\u0308\u0301");
	/* Cyrillic */
	FOLDS(u8"\u041F\u0420\u0418\u0412\u0415\u0422", u8"\u043F\u0440\u0438\u0432\u0435\u0442");
	FOLDS(u8"\u0401", u8"\u0435\u0308");
	/* Armenian: capital, and the ech-yiwn ligature (F) */
	FOLDS(u8"\u0531", u8"\u0561");
	FOLDS(u8"\u0587", u8"\u0565\u0582");
	/* Georgian Mtavruli (Unicode 11) folds to Mkhedruli */
	FOLDS(u8"\u1C90", u8"\u10D0");
	/* Cherokee folds to the upper case (CaseFolding.txt maps the small letters) */
	FOLDS(u8"\uAB70", u8"\u13A0");
	FOLDS(u8"\u13F8", u8"\u13F0");
	FOLDS(u8"\u13A0", u8"\u13A0");
	/* Hangul syllables decompose to conjoining jamo */
	FOLDS(u8"\uAC00", u8"\u1100\u1161");
	FOLDS(u8"\uD7A3", u8"\u1112\u1175\u11C2");
	/* CJK, private use and a noncharacter: unchanged */
	FOLDS(u8"\u4E2D\u6587", u8"\u4E2D\u6587");
	FOLDS(u8"\uE000", u8"\uE000");
	FOLDS("\xEF\xBF\xBF", "\xEF\xBF\xBF");
	/* U+32FF (square era name Reiwa) is 12.1.0's own addition */
	FOLDS(u8"\u32FF", u8"\u32FF");
	/* unassigned in 12.1.0 (even if assigned later): unchanged starters */
	FOLDS(u8"A\u0378", u8"a\u0378");
	FOLDS(u8"A\U0001F972", u8"a\U0001F972");  /* 13.0 emoji */
	FOLDS(u8"\u0870\u0301B", u8"\u0870\u0301b");  /* 14.0 Arabic letter */
	FOLDS(u8"\u180F", u8"\u180F");  /* 14.0; ignorable only since then */
	FOLDS(u8"\U0001E900\U0001E922", u8"\U0001E922\U0001E922");  /* Adlam, 9.0 */
	/* reserved default ignorables are removed even unassigned */
	FOLDS(u8"a\U000E0080b\uFFF0c\u2065", "abc");
	/* emoji; the variation selector is a default ignorable: removed */
	FOLDS(u8"\U0001F600", u8"\U0001F600");
	FOLDS(u8"\u2764\uFE0F", u8"\u2764");
}
END_TEST

START_TEST(ordering_and_ignorables)
{
	/* acute (230) after a class-220 mark: canonical order */
	FOLDS(u8"a\u0301\u0316", u8"a\u0316\u0301");
	NFDI(u8"a\u0301\u0316", u8"a\u0316\u0301");
	/* ypogegrammeni (240) folds to iota, a starter: no reordering past it */
	FOLDS(u8"\u03B1\u0345\u0301", u8"\u03B1\u03B9\u0301");
	NFDI(u8"\u03B1\u0345\u0301", u8"\u03B1\u0301\u0345");
	NFDI(u8"\u0391", u8"\u0391"); /* NFDI keeps the case */
	/* zero width space: removed, yet it ends the run of marks */
	FOLDS(u8"a\u200Bb", "ab");
	FOLDS(u8"a\u0301\u200B\u0316", u8"a\u0301\u0316");
	/* soft hyphen */
	FOLDS(u8"co\u00ADop", "coop");
}
END_TEST

START_TEST(invalid_and_limits)
{
	uint8_t out[F2FS_UTF8_CAP];
	char big[300];

	ck_assert_int_eq(fold_err("\xFF", 1), -EILSEQ);
	ck_assert_int_eq(fold_err("\xC0\xAF", 2), -EILSEQ);         /* overlong / */
	ck_assert_int_eq(fold_err("\xE0\x80\xAF", 3), -EILSEQ);     /* overlong / */
	ck_assert_int_eq(fold_err("\xED\xA0\x80", 3), -EILSEQ);     /* surrogate */
	ck_assert_int_eq(fold_err("\xF4\x90\x80\x80", 4), -EILSEQ); /* > U+10FFFF */
	ck_assert_int_eq(fold_err("\xE2\x82", 2), -EILSEQ);         /* truncated */
	ck_assert_int_eq(fold_err("\x80" "abc", 4), -EILSEQ);       /* continuation */
	/* a continuation byte later on is copied (the kernel's utf8byte()),
	 * once per pass over a run of marks it sits in */
	FOLDS("A\x80" "BC", "a\x80" "bc");
	FOLDS(u8"a\u0301\u0316" "\x80" "B", u8"a\x80\u0316\x80\u0301\x80" "b");
	FOLDS(u8"A\x80\u0301", u8"a\x80\u0301");
	ck_assert_int_eq(fold_err("abc\xE2\x82" "d", 6), -EILSEQ);
	/* the kernel's cursor stops at a NUL byte */
	ck_assert_int_eq(norm(F2FS_UTF8_NFDICF, "AB\0CD", 5, out), 2);
	ck_assert_int_eq(memcmp(out, "ab", 2), 0);
	ck_assert_int_eq(norm(F2FS_UTF8_NFDICF, "", 0, out), 0);
	/* results of 255 bytes or more do not fit the kernel's buffer */
	memset(big, 'A', sizeof(big));
	ck_assert_int_eq(norm(F2FS_UTF8_NFDICF, big, 254, out), 254);
	ck_assert_int_eq(norm(F2FS_UTF8_NFDICF, big, 255, out), -ENAMETOOLONG);
	for (int i = 0; i < 127; i++)
		memcpy(big + 2 * i, u8"\u00DF", 2); /* 254 bytes folding to 254 */
	ck_assert_int_eq(norm(F2FS_UTF8_NFDICF, big, 254, out), 254);
	big[254] = 'x';
	ck_assert_int_eq(norm(F2FS_UTF8_NFDICF, big, 255, out), -ENAMETOOLONG);
	/* a long run of marks: too long rather than out of bounds */
	for (int i = 0; i < 140; i++)
		memcpy(big + 2 * i, u8"\u0301", 2);
	ck_assert_int_eq(norm(F2FS_UTF8_NFDICF, big, 280, out), -ENAMETOOLONG);
	ck_assert_int_eq(norm(F2FS_UTF8_NFDICF, big, 254, out), 254);
}
END_TEST

static uint32_t HC(const char *s)
{
	return f2fs_dentry_hash_casefold((const uint8_t *)s, strlen(s));
}

static uint32_t H(const char *s)
{
	return f2fs_dentry_hash((const uint8_t *)s, strlen(s));
}

START_TEST(casefold_hash)
{
	uint8_t key[F2FS_UTF8_CAP];

	ck_assert_uint_eq(HC(u8"Stra\u00DFe"), HC("STRASSE"));
	ck_assert_uint_eq(HC(u8"Stra\u00DFe"), H("strasse"));
	ck_assert_uint_eq(HC(u8"\u03A3\u038A\u03A3\u03A5\u03A6\u039F\u03A3"),
			  HC(u8"\u03C3\u03AF\u03C3\u03C5\u03C6\u03BF\u03C2"));
	ck_assert_uint_eq(HC(u8"Caf\u00E9"), HC(u8"CAFE\u0301"));
	ck_assert_uint_eq(HC(u8"\uAC00"), HC(u8"\u1100\u1161"));
	ck_assert_uint_ne(HC("abc"), HC("abd"));
	/* a 13.0 character is no reason not to fold the rest */
	ck_assert_uint_eq(HC(u8"A\U0001F972"), H(u8"a\U0001F972"));
	/* no key: the kernel hashes the name's own bytes */
	ck_assert_uint_eq(HC("\xFF" "ABC"), H("\xFF" "ABC"));
	ck_assert_uint_eq(HC(u8"\u200B"), H(u8"\u200B"));
	{
		/* 255 ASCII bytes fold to 255: no key, the raw bytes are hashed */
		char up[256], low[256];

		memset(up, 'A', 255);
		memset(low, 'a', 255);
		up[255] = low[255] = 0;
		ck_assert_uint_eq(HC(up), H(up));
		up[254] = low[254] = 0;
		ck_assert_uint_eq(HC(up), H(low));
		ck_assert_uint_eq(HC("AB\x00" "C"), H("ab"));
	}
	ck_assert_uint_eq(HC("."), 0);
	ck_assert_uint_eq(HC(".."), 0);
	ck_assert_int_eq(f2fs_casefold_name((const uint8_t *)u8"\u200B", 3, key), -EINVAL);
	ck_assert_int_eq(f2fs_casefold_name((const uint8_t *)"\xFF", 1, key), -EILSEQ);
	ck_assert_int_eq(f2fs_casefold_name((const uint8_t *)"A", 1, key), 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("utf8");
	TCase *tc = tcase_create("fold");

	tcase_add_test(tc, latin_and_ascii);
	tcase_add_test(tc, other_scripts);
	tcase_add_test(tc, ordering_and_ignorables);
	tcase_add_test(tc, invalid_and_limits);
	tcase_add_test(tc, casefold_hash);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
