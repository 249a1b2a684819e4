/* The Unicode tables of lib/format/utf8.c, generated into utf8_data.c by
 * scripts/gen-utf8-tables.py (its docstring describes the encoding). */
#ifndef F2FS_UTF8_DATA_H
#define F2FS_UTF8_DATA_H

#include <stdint.h>

/* A code point splits into top (bits 20..9), middle (8..3), leaf (2..0). */
#define F2FS_UTF8_MID_BITS 6
#define F2FS_UTF8_LO_BITS 3

/* A value: 0 is not a character (a surrogate: the decoder refuses those
 * already); below F2FS_UTF8_MAPPED it is 1 + the combining class of a character that
 * maps to itself; from F2FS_UTF8_MAPPED on, the offset (+ F2FS_UTF8_MAPPED)
 * of the character's mapping in f2fs_utf8_map. */
#define F2FS_UTF8_MAPPED 0x100

/* A mapping's header word: NFDICF length (bits 0..7), NFDI length (8..15),
 * flags, the character's own combining class (24..31). The NFDICF words
 * follow, then the NFDI words unless F2FS_UTF8_SAME says they are the same
 * (no F2FS_UTF8_HAS_NFDI: the character maps only when folding). A word is
 * a code point with its combining class in bits 24..31. */
#define F2FS_UTF8_HAS_NFDI (1u << 16)
#define F2FS_UTF8_SAME (1u << 17)

extern const uint8_t f2fs_utf8_top[];
extern const uint16_t f2fs_utf8_mid[];
extern const uint16_t f2fs_utf8_leaf[];
extern const uint32_t f2fs_utf8_map[];

#endif
