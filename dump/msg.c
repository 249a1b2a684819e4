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

/* The last error line, for the "error" member --json ends with. */
static char last_error[1024];

int error_line(const char *fmt, ...)
{
	va_list ap;

	fflush(NULL);   /* whatever stream the document goes to */
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", prog, last_error);
	return EXIT_ERROR;
}

const char *error_last(void)
{
	return last_error;
}
