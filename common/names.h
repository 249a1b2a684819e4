/*
 * Names and small renderings of on-disk values that both tools print
 * (dump.f2fs's views and fsck.f2fs's -l), kept once so that they agree.
 */
#ifndef F2FS_COMMON_NAMES_H
#define F2FS_COMMON_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "out.h"

/* The checkpoint's ckpt_flags bits. */
extern const struct out_flag cp_flag_names[];

/* Length of a NUL-padded field of max bytes. */
size_t cstr_len(const uint8_t *s, size_t max);

/* A UUID as 8-4-4-4-12 lower-case hex into buf; returns buf. */
const char *uuid_string(const uint8_t u[16], char buf[37]);

#endif
