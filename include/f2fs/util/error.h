/*
 * Errors: every library call that can fail returns 0 on success or a negative
 * code, and fills a caller-owned struct f2fs_error with the code and a
 * one-line message naming what is wrong. Codes are negative errno values or
 * the library's own F2FS_E* codes below; f2fs_strerror() names both.
 */
#ifndef F2FS_ERROR_H
#define F2FS_ERROR_H

#include <stddef.h>

enum f2fs_errcode {
	F2FS_E_BASE = 4096,       /* above every errno value */
	F2FS_E_BAD_OPTION,        /* an option value or combination is invalid */
	F2FS_E_TOO_SMALL,         /* the device cannot hold a file system */
	F2FS_E_TOO_LARGE,         /* beyond what the format can address */
	F2FS_E_IN_USE,            /* mounted, or opened exclusively elsewhere */
	F2FS_E_HAS_DATA,          /* an existing file system or partition table */
	F2FS_E_NOT_F2FS,          /* no F2FS superblock */
	F2FS_E_CORRUPT,           /* on-disk data fails validation */
	F2FS_E_BAD_CHECKSUM,      /* a CRC does not match */
	F2FS_E_SHORT_IO,          /* a read or write moved fewer bytes than asked */
	F2FS_E_UNSUPPORTED,       /* valid but not handled by this library */
	F2FS_E_NO_SPACE,          /* the content does not fit */
	F2FS_E_LAST,
};

#define F2FS_ERROR_MSG_LEN 256

struct f2fs_error {
	int  code;                      /* 0, -errno or -F2FS_E_* */
	char msg[F2FS_ERROR_MSG_LEN];   /* one line, no trailing newline */
};

/* Record an error (printf-style message) and return code, which is negative. */
int f2fs_fail(struct f2fs_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Clear err to the "no error" state. */
void f2fs_error_clear(struct f2fs_error *err);

/* A short name for a code: "invalid option", "No such file or directory"... */
const char *f2fs_strerror(int code);

#endif
