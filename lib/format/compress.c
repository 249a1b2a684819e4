/* Compressed clusters: see include/f2fs/format/compress.h for the rule. */
#include <f2fs/format/compress.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/format.h>

static int is_block(uint32_t a)
{
	return a != F2FS_NULL_ADDR && a != F2FS_NEW_ADDR && a != F2FS_COMPRESS_ADDR;
}

void f2fs_compr_count(const void *ptrs, uint32_t n, uint32_t log_cs,
		      struct f2fs_compr_count *out)
{
	const uint8_t *p = ptrs;
	uint32_t cs = 1u << log_cs;

	out->caddrs = out->saved = 0;
	for (uint32_t start = 0; start < n; start += cs) {
		uint32_t end = n - start < cs ? n : start + cs, valid = 0;
		int led = le32_load(p + 4 * start) == F2FS_COMPRESS_ADDR;

		for (uint32_t k = start; k < end; k++) {
			uint32_t a = le32_load(p + 4 * k);

			if (a == F2FS_COMPRESS_ADDR)
				out->caddrs++;
			else if (led && is_block(a))
				valid++;
		}
		if (led)
			out->saved += cs - valid;
	}
}
