/* Byte counts in binary units, for the tools' summaries. */
#include <f2fs/util/units.h>

#include <inttypes.h>
#include <stdio.h>

const char *f2fs_human_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	/* whole bytes print exactly; the double would round above 2^53 */
	if (u == 0)
		snprintf(buf, len, "%" PRIu64 " B", bytes);
	else
		snprintf(buf, len, "%.2f %s", v, unit[u]);
	return buf;
}
