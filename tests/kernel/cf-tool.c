/*
 * cf-tool: our side of tests/kernel/casefold-names.sh.
 *   cf-tool keys          for each hex name on stdin: "HEX HASH KEYHEX" (the
 *                         casefolded-directory hash and the key, "-" when the
 *                         name has none and hashes as raw bytes)
 *   cf-tool dir IMG PATH  every entry of directory PATH: "HEX STOREDHASH"
 */
#include <f2fs/format/hash.h>
#include <f2fs/fs/dir.h>
#include <f2fs/fs/fs.h>

#include <stdio.h>
#include <string.h>

static void hex(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%02x", p[i]);
}

static int keys(void)
{
	char line[1024];

	while (fgets(line, sizeof(line), stdin)) {
		uint8_t name[512], key[F2FS_UTF8_CAP];
		size_t n = 0;
		unsigned int b;
		int k;

		for (const char *h = line; h[0] && h[1] && sscanf(h, "%2x", &b) == 1; h += 2)
			name[n++] = (uint8_t)b;
		k = f2fs_casefold_name(name, n, key);
		hex(name, n);
		printf(" %08x ", f2fs_dentry_hash_casefold(name, n));
		if (k > 0)
			hex(key, (size_t)k);
		else
			printf("-");
		printf("\n");
	}
	return 0;
}

static int print_entry(const struct f2fs_dirent *de, void *arg)
{
	(void)arg;
	if ((de->name_len == 1 && de->name[0] == '.') ||
	    (de->name_len == 2 && !memcmp(de->name, "..", 2)))
		return 0;
	hex(de->name, de->name_len);
	printf(" %08x\n", de->hash);
	return 0;
}

int main(int argc, char **argv)
{
	struct f2fs_error err;
	struct f2fs_fs *fs;
	uint32_t ino;

	if (argc == 2 && !strcmp(argv[1], "keys"))
		return keys();
	if (argc != 4 || strcmp(argv[1], "dir")) {
		fprintf(stderr, "usage: cf-tool keys | cf-tool dir IMAGE PATH\n");
		return 2;
	}
	if (f2fs_fs_open(&fs, argv[2], &err) < 0 ||
	    f2fs_path_lookup(fs, argv[3], &ino, &err) < 0 ||
	    f2fs_dir_foreach(fs, ino, print_entry, NULL, &err) < 0) {
		fprintf(stderr, "cf-tool: %s\n", err.msg);
		return 1;
	}
	f2fs_fs_close(fs);
	return 0;
}
