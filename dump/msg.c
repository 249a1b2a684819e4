/*
 * The lines dump.f2fs writes to stderr besides the document: errors and
 * -d's debug lines, each led by the tool's name. Apart from main.c so that
 * the views, which report their own errors, need not call back into it.
 */
#include "dump.h"

#include <stdarg.h>
#include <stdio.h>

const char prog[] = "dump.f2fs";

void debug_line(const struct dump *d, int level, const char *fmt, ...)
{
	va_list ap;

	if (d->debug < level)
		return;
	fprintf(stderr, "%s: debug: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int error_line(const char *fmt, ...)
{
	va_list ap;

	fflush(NULL);   /* whatever stream the document goes to */
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_ERROR;
}
