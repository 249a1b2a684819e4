/* The error record and the one table that names every error code. */
#include <f2fs/util/error.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const f2fs_error_names[] = {
	[F2FS_E_BAD_OPTION - F2FS_E_BASE]   = "invalid option",
	[F2FS_E_TOO_SMALL - F2FS_E_BASE]    = "device too small",
	[F2FS_E_TOO_LARGE - F2FS_E_BASE]    = "device too large",
	[F2FS_E_IN_USE - F2FS_E_BASE]       = "device in use",
	[F2FS_E_HAS_DATA - F2FS_E_BASE]     = "device holds existing data",
	[F2FS_E_NOT_F2FS - F2FS_E_BASE]     = "not an F2FS file system",
	[F2FS_E_CORRUPT - F2FS_E_BASE]      = "corrupt metadata",
	[F2FS_E_BAD_CHECKSUM - F2FS_E_BASE] = "checksum mismatch",
	[F2FS_E_SHORT_IO - F2FS_E_BASE]     = "short read or write",
	[F2FS_E_UNSUPPORTED - F2FS_E_BASE]  = "unsupported",
	[F2FS_E_NO_SPACE - F2FS_E_BASE]     = "not enough space",
};

int f2fs_fail(struct f2fs_error *err, int code, const char *fmt, ...)
{
	if (err) {
		va_list ap;

		err->code = code;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}

void f2fs_error_clear(struct f2fs_error *err)
{
	if (err) {
		err->code = 0;
		err->msg[0] = '\0';
	}
}

const char *f2fs_strerror(int code)
{
	int c = code < 0 ? -code : code;

	if (c == 0)
		return "success";
	if (c > F2FS_E_BASE && c < F2FS_E_LAST)
		return f2fs_error_names[c - F2FS_E_BASE];
	return strerror(c);
}
