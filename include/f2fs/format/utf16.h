/* UTF-8 <-> UTF-16LE for the volume label. */
#ifndef F2FS_UTF16_H
#define F2FS_UTF16_H

#include <stddef.h>
#include <stdint.h>

/* Units are stored as little-endian byte pairs (no alignment needed).
 * Returns the number of units written, or -1 if s is not valid UTF-8 or
 * does not fit in max units. */
int f2fs_utf8_to_utf16le(const char *s, void *out, size_t max);

/* Decode up to n units (stops at a zero unit) into a NUL-terminated string. */
void f2fs_utf16le_to_utf8(const void *in, size_t n, char *out, size_t len);

#endif
