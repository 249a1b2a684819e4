/*
 * mknames: create and look up names given in hex, for the casefolding tests
 * (names may hold any byte but '/' and NUL; busybox's sh cannot make every
 * such name). Reads lines from stdin, in the current directory:
 *   C HEX   create the file (O_CREAT | O_EXCL); prints "C N 0" or "C N errno"
 *   L HEX   stat the name; prints "L N 0" or "L N errno"
 * N counts the lines from 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int unhex(const char *h, char *out)
{
	int n = 0;
	unsigned int b;

	while (h[0] && h[1] && sscanf(h, "%2x", &b) == 1) {
		out[n++] = (char)b;
		h += 2;
	}
	out[n] = 0;
	return n;
}

int main(void)
{
	char line[1024], name[512];
	long n = 0;

	while (fgets(line, sizeof(line), stdin)) {
		struct stat st;
		int r = 0, fd;

		line[strcspn(line, "\n")] = 0;
		n++;
		if (strlen(line) < 3)
			continue;
		unhex(line + 2, name);
		if (line[0] == 'C') {
			fd = open(name, O_CREAT | O_EXCL | O_WRONLY, 0644);
			if (fd < 0)
				r = errno;
			else
				close(fd);
		} else if (stat(name, &st)) {
			r = errno;
		}
		printf("%c %ld %d\n", line[0], n, r);
	}
	return 0;
}
