/* --ls: a directory (or one entry) listed like ls -l, in on-disk order. */
#include "dump.h"

#include <f2fs/dir.h>
#include <f2fs/endian.h>
#include <f2fs/nat.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ls_ctx {
	struct f2fs_fs *fs;
	struct f2fs_node node;
	int failures;
	struct table t;
};

static const struct col ls_cols[] = {
	{ "mode", "mode", -10, COL_S },
	{ "links", "links", 3, COL_U },
	{ "uid", "uid", 5, COL_U },
	{ "gid", "gid", 5, COL_U },
	{ "size", "size", 10, COL_U },
	{ "ino", "ino", 10, COL_U },
	{ "name", "name", -1, COL_S },
	{ "target", "target", -1, COL_S },
};

static void ls_json(struct ls_ctx *c, uint32_t ino, const uint8_t *name, size_t len, int ok)
{
	char nm[F2FS_NAME_LEN + 1], mode[11], target[F2FS_BLKSIZE + 1];
	const struct f2fs_inode *i = &c->node.i;
	int is_link = ok && (le16_get(i->i_mode) & F2FS_S_IFMT) == F2FS_S_IFLNK;
	const char *why;

	snprintf(nm, sizeof(nm), "%.*s", (int)len, (const char *)name);
	if (ok)
		mode_string(le16_get(i->i_mode), mode);
	if (is_link && read_link(c->fs, &c->node, target, sizeof(target), &why))
		snprintf(target, sizeof(target), "?");
	tab_row(&c->t, (struct cell[]){ CS(ok ? mode : NULL), CU(ok ? le32_get(i->i_links) : 0),
		CU(ok ? le32_get(i->i_uid) : 0), CU(ok ? le32_get(i->i_gid) : 0),
		CU(ok ? le64_get(i->i_size) : 0), CU(ino), CS(nm), CS(is_link ? target : NULL) });
}

static void ls_line(struct ls_ctx *c, uint32_t ino, const uint8_t *name, size_t len)
{
	struct f2fs_error err;
	char mode[11], target[F2FS_BLKSIZE + 1];
	const char *why;

	if (f2fs_read_inode(c->fs, ino, &c->node, &err)) {
		if (out_json())
			ls_json(c, ino, name, len, 0);
		else
			printf("?????????? %3s %5s %5s %10s ", "?", "?", "?", "?");
		if (!out_json()) {
			put_escaped(name, len);
			printf("\n");
		}
		fflush(stdout);
		fprintf(stderr, "%s: ", prog);
		fwrite(name, 1, len, stderr);
		fprintf(stderr, ": %s\n", err.msg);
		c->failures++;
		return;
	}
	if (out_json()) {
		ls_json(c, ino, name, len, 1);
		return;
	}
	mode_string(le16_get(c->node.i.i_mode), mode);
	printf("%s %3u %5u %5u %10" PRIu64 " ", mode, le32_get(c->node.i.i_links),
	       le32_get(c->node.i.i_uid), le32_get(c->node.i.i_gid),
	       le64_get(c->node.i.i_size));
	put_escaped(name, len);
	if ((le16_get(c->node.i.i_mode) & F2FS_S_IFMT) == F2FS_S_IFLNK) {
		printf(" -> ");
		if (read_link(c->fs, &c->node, target, sizeof(target), &why))
			printf("?");
		else
			put_escaped((const uint8_t *)target, strlen(target));
	}
	printf("\n");
}

static int ls_cb(const struct f2fs_dirent *de, void *arg)
{
	struct ls_ctx *c = arg;

	if ((de->name_len == 1 && de->name[0] == '.') ||
	    (de->name_len == 2 && de->name[0] == '.' && de->name[1] == '.'))
		return 0;
	ls_line(c, de->ino, de->name, de->name_len);
	return 0;
}

int view_ls(struct f2fs_fs *fs, const char *path)
{
	struct ls_ctx *c = calloc(1, sizeof(*c));
	struct f2fs_error err;
	uint32_t ino;
	int ret;

	if (!c)
		return error_line("out of memory");
	c->fs = fs;
	ret = f2fs_path_lookup(fs, path, &ino, &err);
	if (!ret)
		ret = f2fs_read_inode(fs, ino, &c->node, &err);
	if (ret) {
		free(c);
		return error_line("%s", err.msg);
	}
	if (out_json())
		tab_begin(&c->t, "ls", NULL, ls_cols, 8);
	if ((le16_get(c->node.i.i_mode) & F2FS_S_IFMT) != F2FS_S_IFDIR) {
		const char *base = strrchr(path, '/');

		base = base && base[1] ? base + 1 : path;
		ls_line(c, ino, (const uint8_t *)base, strlen(base));
		ret = 0;
	} else {
		ret = f2fs_dir_foreach(fs, ino, ls_cb, c, &err);
	}
	if (out_json())
		tab_end(&c->t);
	fflush(stdout);
	if (ret < 0) {
		free(c);
		return error_line("%s", err.msg);
	}
	ret = c->failures ? EXIT_ERROR : EXIT_OK;
	free(c);
	return ret;
}

