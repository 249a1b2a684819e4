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
 * Decode the well-formed UTF-8 sequence (Unicode's table 3-7: shortest
 * form, no surrogates, at most U+10FFFF; an ASCII byte is one) of at most
 * left bytes at p into *cp. Returns its length, 0 when it is not one.
 */
size_t f2fs_utf8_decode(const uint8_t *p, size_t left, uint32_t *cp);

/*
 * Normalise name (len bytes; like the kernel, a NUL byte ends it) into out.
 * Returns the length written (0 for a name of ignorables only), -EILSEQ when
 * the name is not UTF-8 as the kernel reads it (a malformed, truncated or
 * overlong sequence, a surrogate, beyond U+10FFFF, a first byte 0x80-0xBF),
 * or -ENAMETOOLONG when the result would need F2FS_UTF8_CAP bytes or more.
 * Quirks kept from the kernel: a code point Unicode 12.1.0 does not assign
 * (even one a later version assigns) passes through unchanged as a starter
 * unless it is a reserved default ignorable (removed); a byte 0x80-0xBF met
 * where a character should start is copied, once per ordering pass when it
 * sits among combining marks. Linear in len: marks are ordered in one pass
 * per combining class present in their run.
 */
int f2fs_utf8_normalize(enum f2fs_utf8_form form, const uint8_t *name, size_t len,
			uint8_t out[F2FS_UTF8_CAP]);

#endif
