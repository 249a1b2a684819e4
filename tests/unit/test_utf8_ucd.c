/*
 * The NFD part of the kernel's utf8 normalisation against Unicode's own test
 * vectors, NormalizationTest.txt of the installed database (Debian's
 * unicode-data; F2FS_UCD_DIR to use another): for every line without a
 * character assigned after Unicode 12.1.0 (DerivedAge.txt), NFD(c1) = NFD(c2) = NFD(c3) = c3 and
 * NFD(c4) = NFD(c5) = c5, with default ignorables removed from the expected
 * side as the kernel's NFDI removes them. Skipped (77) without the file.
 */
#include <check.h>

#include <f2fs/format/utf8.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

static char path[4096], age_path[4096];
static int compressed;
static uint8_t *newer; /* bit per code point: assigned after 12.1.0 */

/* Mark what DerivedAge.txt says later versions assigned: the kernel passes
 * those through unnormalised, unlike the file's expectations. */
static void read_ages(void)
{
	char line[512];
	FILE *f = fopen(age_path, "r");

	newer = calloc(0x110000 / 8, 1);
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(newer);
	while (fgets(line, sizeof(line), f)) {
		unsigned int a, b, maj, min;

		if (sscanf(line, "%x..%x ; %u.%u", &a, &b, &maj, &min) != 4) {
			if (sscanf(line, "%x ; %u.%u", &a, &maj, &min) != 3)
				continue;
			b = a;
		}
		if (maj < 12 || (maj == 12 && min <= 1) || b >= 0x110000)
			continue;
		for (unsigned int c = a; c <= b; c++)
			newer[c / 8] |= (uint8_t)(1u << (c % 8));
	}
	fclose(f);
}

/* A field of code points as UTF-8 into s (returns its length), or -1 when a
 * code point was assigned after 12.1.0. ign drops default ignorables. */
static int field_utf8(const char *f, char *s, int ign)
{
	int n = 0;

	while (*f && *f != ';') {
		char *end;
		unsigned long cp = strtoul(f, &end, 16);
		uint8_t one[4], out[F2FS_UTF8_CAP];
		int k, r;

		if (end == f)
			break;
		f = end;
		while (*f == ' ')
			f++;
		if (cp < 0x80) {
			one[0] = (uint8_t)cp;
			k = 1;
		} else if (cp < 0x800) {
			one[0] = (uint8_t)(0xC0 | cp >> 6);
			one[1] = (uint8_t)(0x80 | (cp & 0x3F));
			k = 2;
		} else if (cp < 0x10000) {
			one[0] = (uint8_t)(0xE0 | cp >> 12);
			one[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
			one[2] = (uint8_t)(0x80 | (cp & 0x3F));
			k = 3;
		} else {
			one[0] = (uint8_t)(0xF0 | cp >> 18);
			one[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
			one[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
			one[3] = (uint8_t)(0x80 | (cp & 0x3F));
			k = 4;
		}
		if (newer[cp / 8] & (1u << (cp % 8)))
			return -1;
		r = f2fs_utf8_normalize(F2FS_UTF8_NFDI, one, (size_t)k, out);
		ck_assert_int_ge(r, 0);
		if (ign && r == 0)
			continue;
		memcpy(s + n, one, (size_t)k);
		n += k;
	}
	return n;
}

START_TEST(normalization_test)
{
	char cmd[4200], line[1024];
	FILE *f;
	long lines = 0, passed = 0, skipped = 0, failed = 0;

	if (compressed) {
		snprintf(cmd, sizeof(cmd), "bzip2 -dc '%s'", path);
		f = popen(cmd, "r");
	} else {
		f = fopen(path, "r");
	}
	ck_assert_ptr_nonnull(f);
	read_ages();
	while (fgets(line, sizeof(line), f)) {
		const char *col[5];
		char in[5][256], want[2][256];
		int len[5], wlen[2], ok = 1;
		const char *p = line;

		if (line[0] == '#' || line[0] == '@' || line[0] == '\n')
			continue;
		lines++;
		for (int i = 0; i < 5; i++) {
			col[i] = p;
			p = strchr(p, ';');
			ck_assert_ptr_nonnull(p);
			p++;
		}
		for (int i = 0; i < 5 && ok; i++)
			ok = (len[i] = field_utf8(col[i], in[i], 0)) >= 0;
		if (!ok) {
			skipped++;
			continue;
		}
		wlen[0] = field_utf8(col[2], want[0], 1);
		wlen[1] = field_utf8(col[4], want[1], 1);
		for (int i = 0; i < 5; i++) {
			uint8_t out[F2FS_UTF8_CAP];
			int w = i < 3 ? 0 : 1;
			int n = f2fs_utf8_normalize(F2FS_UTF8_NFDI, (const uint8_t *)in[i],
						    (size_t)len[i], out);

			if (n != wlen[w] || memcmp(out, want[w], (size_t)n)) {
				if (failed < 10)
					fprintf(stderr, "NFD(c%d) wrong: %s", i + 1, line);
				ok = 0;
			}
		}
		if (ok)
			passed++;
		else
			failed++;
	}
	if (compressed)
		pclose(f);
	else
		fclose(f);
	printf("NormalizationTest: %ld lines, %ld passed, %ld failed, %ld skipped "
	       "(characters assigned after 12.1.0)\n", lines, passed, failed, skipped);
	free(newer);
	ck_assert_int_eq(failed, 0);
	/* 12.1.0's own file has about 18,600 lines: nearly all must have run */
	ck_assert_int_gt(passed, 17000);
}
END_TEST

int main(void)
{
	const char *dir = getenv("F2FS_UCD_DIR");
	Suite *s = suite_create("utf8_ucd");
	TCase *tc = tcase_create("nfd");

	if (!dir)
		dir = "/usr/share/unicode";
	snprintf(age_path, sizeof(age_path), "%s/DerivedAge.txt", dir);
	snprintf(path, sizeof(path), "%s/NormalizationTest.txt", dir);
	if (access(path, R_OK)) {
		snprintf(path, sizeof(path), "%s/NormalizationTest.txt.bz2", dir);
		compressed = 1;
	}
	if (access(path, R_OK) || access(age_path, R_OK) ||
	    (compressed && system("bzip2 --help >/dev/null 2>&1"))) {
		printf("SKIP: no NormalizationTest.txt and DerivedAge.txt in %s "
		       "(apt-get install unicode-data bzip2)\n", dir);
		return 77;
	}
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, normalization_test);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
