/*
 * Unicode normalisation of names as Linux 6.1 does it for F2FS's "utf8"
 * encoding (fs/unicode, Unicode 12.1.0): NFDI is the canonical decomposition
 * (NFD: decomposed, Hangul syllables too, marks in canonical order) with the
 * Default_Ignorable_Code_Points removed; NFDICF first applies the full case
 * folding (CaseFolding.txt C + F, no Turkic special case), then the same.
 * Case-insensitive directories hash and compare names in NFDICF.
 */
#ifndef F2FS_UTF8_H
#define F2FS_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The kernel folds into a buffer of F2FS_NAME_LEN bytes and fails when the
 * result fills it: results are at most F2FS_UTF8_CAP - 1 bytes. */
#define F2FS_UTF8_CAP 255

enum f2fs_utf8_form {
	F2FS_UTF8_NFDI,
	F2FS_UTF8_NFDICF,
};

/*
 * Normalise name (len bytes; like the kernel, a NUL byte ends it) into out.
 * Returns the length written (0 for a name of ignorables only), -EILSEQ when
 * the name is not UTF-8 of characters Unicode 12.1.0 assigns (a malformed or
 * overlong sequence, a surrogate, a code point unassigned in 12.1.0, even if
 * a later version assigns it: the kernel's tables do not know it), or
 * -ENAMETOOLONG when the result would need F2FS_UTF8_CAP bytes or more.
 * Linear in len (marks are ordered as they come, within a run of at most
 * 127 of them).
 */
int f2fs_utf8_normalize(enum f2fs_utf8_form form, const uint8_t *name, size_t len,
			uint8_t out[F2FS_UTF8_CAP]);

#endif
