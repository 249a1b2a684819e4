/*
 * PATH|INO arguments (-i, --extract): a number names an inode, anything
 * else is a path resolved from the root directory by the library.
 */
#include "dump.h"

#include <f2fs/fs/dir.h>

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

/* Decimal, or hexadecimal with 0x as f2fs-tools' -i takes it; no sign,
 * no octal (a leading zero stays decimal), nothing after the digits. */
int parse_ino_arg(const char *s, uint32_t *out)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	unsigned long long v;
	char *end;

	if (hex)
		s += 2;
	if (!(hex ? isxdigit((unsigned char)*s) : isdigit((unsigned char)*s)))
		return -1;
	errno = 0;
	v = strtoull(s, &end, hex ? 16 : 10);
	if (errno || *end || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* Names starting with a digit or a sign are numbers, so that a mistyped
 * or negative number is reported as such rather than as a missing file. */
int is_ino_arg(const char *s)
{
	return isdigit((unsigned char)s[0]) || s[0] == '-' || s[0] == '+';
}

int resolve_target(const struct dump *d, const char *what, uint32_t *ino)
{
	struct f2fs_error err;

	if (is_ino_arg(what)) {
		if (parse_ino_arg(what, ino))
			return error_line("%s: not an inode number", what);
		return 0;
	}
	if (f2fs_path_lookup(d->fs, what, ino, &err))
		return error_line("%s", err.msg);
	debug_line(d, 1, "%s is inode %u", what, *ino);
	return 0;
}
