/* The F2FS name hash: a TEA-based hash over 16-byte chunks. */
#include <f2fs/format/hash.h>

#include <errno.h>
#include <string.h>

static void tea_transform(uint32_t buf[2], const uint32_t in[4])
{
	uint32_t sum = 0, b0 = buf[0], b1 = buf[1];

	for (int n = 0; n < 16; n++) {
		sum += 0x9E3779B9u;
		b0 += ((b1 << 4) + in[0]) ^ (b1 + sum) ^ ((b1 >> 5) + in[1]);
		b1 += ((b0 << 4) + in[2]) ^ (b0 + sum) ^ ((b0 >> 5) + in[3]);
	}
	buf[0] += b0;
	buf[1] += b1;
}

/*
 * Pack up to 16 bytes into four words. Every word starts from a pad made of
 * the count of bytes left in the name (not capped at 16), so short tails
 * still hash differently by length.
 */
static void pack_chunk(const uint8_t *p, size_t left, uint32_t in[4])
{
	uint32_t pad = (uint32_t)left;
	size_t n = left < 16 ? left : 16;
	uint32_t val;
	int w = 0;

	pad |= pad << 8;
	pad |= pad << 16;
	val = pad;
	for (size_t i = 0; i < n; i++) {
		if (i % 4 == 0)
			val = pad;
		val = p[i] + (val << 8);
		if (i % 4 == 3) {
			in[w++] = val;
			val = pad;
		}
	}
	if (w < 4)
		in[w++] = val;
	while (w < 4)
		in[w++] = pad;
}

uint32_t f2fs_dentry_hash(const uint8_t *name, size_t len)
{
	uint32_t buf[4] = { 0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u };
	uint32_t in[4];

	if ((len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return 0;
	for (;;) {
		pack_chunk(name, len, in);
		tea_transform(buf, in);
		if (len <= 16)
			break;
		name += 16;
		len -= 16;
	}
	return buf[0];
}

/* Most names are ASCII without NUL and shorter than the kernel's fold
 * buffer: their key is their bytes with A-Z lowered, made here without the
 * normaliser's calls, to keep hashing and comparing them as fast as before
 * the Unicode folding. */
static bool ascii_key(const uint8_t *name, size_t len, uint8_t *out)
{
	if (!len || len >= F2FS_UTF8_CAP)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (name[i] - 1u >= 0x7Fu)
			return false;
		out[i] = (uint8_t)(name[i] + ((unsigned)name[i] - 'A' < 26u ? 'a' - 'A' : 0));
	}
	return true;
}

int f2fs_casefold_name(const uint8_t *name, size_t len, uint8_t out[F2FS_UTF8_CAP])
{
	int n;

	if (ascii_key(name, len, out))
		return (int)len;
	n = f2fs_utf8_normalize(F2FS_UTF8_NFDICF, name, len, out);
	return n ? n : -EINVAL;
}

uint32_t f2fs_dentry_hash_casefold(const uint8_t *name, size_t len)
{
	uint8_t key[F2FS_UTF8_CAP];
	int n = f2fs_casefold_name(name, len, key);

	return n > 0 ? f2fs_dentry_hash(key, (size_t)n) : f2fs_dentry_hash(name, len);
}
