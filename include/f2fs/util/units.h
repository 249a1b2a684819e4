/* Sizes for people: the one rule the tools share for printing byte counts. */
#ifndef F2FS_UNITS_H
#define F2FS_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* "512 B", "1.50 GiB": binary units, two decimals above bytes. Returns buf. */
const char *f2fs_human_size(uint64_t bytes, char *buf, size_t len);

#endif
