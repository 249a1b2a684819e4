/* --ls: a directory (or one entry) listed like ls -li, in on-disk order. */
#include "dump.h"

#include <f2fs/fs/dir.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/fs/nat.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct ls_ctx {
	struct f2fs_fs *fs;
	struct out *o;
	struct f2fs_node node;
	int failures;
	struct out_table t;
	/* the entry being listed, read once for either output */
	int ok;                           /* its inode could be read */
	char mode[11];
	const char *target;               /* symlinks only: target, or "?" */
	char target_buf[F2FS_BLKSIZE + 1];
};

static const struct out_col ls_cols[] = {
	{ "mode", "mode", -10, OUT_COL_S },
	{ "links", "links", 3, OUT_COL_U },
	{ "uid", "uid", 5, OUT_COL_U },
	{ "gid", "gid", 5, OUT_COL_U },
	{ "size", "size", 10, OUT_COL_U },
	{ "major", "major", 5, OUT_COL_U },
	{ "minor", "minor", 5, OUT_COL_U },
	{ "mtime", "mtime", 12, OUT_COL_U },
	{ "ino", "ino", 10, OUT_COL_U },
	{ "name", "name", -1, OUT_COL_S },
	{ "target", "target", -1, OUT_COL_S },
};

static bool is_device(const struct f2fs_inode *i)
{
	uint16_t fmt = le16_get(i->i_mode) & F2FS_S_IFMT;

	return fmt == F2FS_S_IFCHR || fmt == F2FS_S_IFBLK;
}

/* JSON: a row of the "ls" table; fields of an unreadable inode, and the
 * device numbers of what is no device, are null. */
static void ls_json(struct ls_ctx *c, uint32_t ino, const uint8_t *name, size_t len)
{
	const struct f2fs_inode *i = &c->node.i;
	char nm[F2FS_NAME_LEN + 1];
	bool dev = c->ok && is_device(i);
	uint32_t major = 0, minor = 0;

	if (dev)
		f2fs_inode_get_rdev(i, &major, &minor);
	snprintf(nm, sizeof(nm), "%.*s", (int)len, (const char *)name);
	out_tab_row(c->o, &c->t, (struct out_cell[]){ OUT_S(c->ok ? c->mode : NULL),
		c->ok ? OUT_U(le32_get(i->i_links)) : OUT_NONE,
		c->ok ? OUT_U(le32_get(i->i_uid)) : OUT_NONE,
		c->ok ? OUT_U(le32_get(i->i_gid)) : OUT_NONE,
		c->ok ? OUT_U(le64_get(i->i_size)) : OUT_NONE,
		dev ? OUT_U(major) : OUT_NONE, dev ? OUT_U(minor) : OUT_NONE,
		c->ok ? OUT_U(le64_get(i->i_mtime)) : OUT_NONE,
		OUT_U(ino), OUT_S(nm), OUT_S(c->target) });
}

/* The size column: a device's "major, minor" as ls -l shows it. */
static void size_column(const struct f2fs_inode *i, char *buf, size_t cap)
{
	uint32_t major, minor;

	if (!is_device(i)) {
		snprintf(buf, cap, "%" PRIu64, le64_get(i->i_size));
		return;
	}
	f2fs_inode_get_rdev(i, &major, &minor);
	snprintf(buf, cap, "%u, %u", major, minor);
}

/* ls -l's long-iso time (local time, as ls shows it). */
static void mtime_column(const struct f2fs_inode *i, char *buf, size_t cap)
{
	time_t t = (time_t)le64_get(i->i_mtime);
	struct tm tm;

	if ((uint64_t)t != le64_get(i->i_mtime) || !localtime_r(&t, &tm) ||
	    !strftime(buf, cap, "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, cap, "%16" PRIu64, le64_get(i->i_mtime));
}

/* Text: the ls -li line (no header), "?" for what is unknown. */
static void ls_text(struct ls_ctx *c, uint32_t ino, const uint8_t *name, size_t len)
{
	const struct f2fs_inode *i = &c->node.i;
	struct out *o = c->o;
	char size[32], when[32];

	/* the entry's inode number, as ls -i and the JSON "ino" give it */
	out_text(o, "%7u ", ino);
	if (c->ok) {
		size_column(i, size, sizeof(size));
		mtime_column(i, when, sizeof(when));
		out_text(o, "%s %3u %5u %5u %10s %s ", c->mode, le32_get(i->i_links),
			 le32_get(i->i_uid), le32_get(i->i_gid), size, when);
	} else {
		out_text(o, "?????????? %3s %5s %5s %10s %16s ", "?", "?", "?", "?", "?");
	}
	out_escaped(o, name, len);
	if (c->target) {
		out_text(o, " -> ");
		out_escaped(o, (const uint8_t *)c->target, strlen(c->target));
	}
	out_text(o, "\n");
}

static void ls_line(struct ls_ctx *c, uint32_t ino, const uint8_t *name, size_t len)
{
	struct f2fs_error err;
	const char *why;

	c->ok = !f2fs_read_inode(c->fs, ino, &c->node, &err);
	c->target = NULL;
	if (c->ok) {
		mode_string(le16_get(c->node.i.i_mode), c->mode);
		if ((le16_get(c->node.i.i_mode) & F2FS_S_IFMT) == F2FS_S_IFLNK)
			c->target = read_link(c->fs, &c->node, c->target_buf, sizeof(c->target_buf),
					      &why) ? "?" : c->target_buf;
	}
	if (out_json(c->o))
		ls_json(c, ino, name, len);
	else
		ls_text(c, ino, name, len);
	if (c->ok)
		return;
	/* the listing goes on; the entry is named on stderr and the exit is 1 */
	out_flush(c->o);
	error_line("%.*s: %s", (int)len, (const char *)name, err.msg);
	c->failures++;
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

int view_ls(struct dump *d, const char *path)
{
	struct out *o = &d->out;
	struct f2fs_fs *fs = d->fs;
	struct ls_ctx *c = calloc(1, sizeof(*c));
	struct f2fs_error err;
	uint32_t ino;
	int ret;

	if (!c)
		return error_line("out of memory");
	c->fs = fs;
	c->o = o;
	ret = f2fs_path_lookup(fs, path, &ino, &err);
	if (!ret)
		ret = f2fs_read_inode(fs, ino, &c->node, &err);
	if (ret) {
		free(c);
		return error_line("%s", err.msg);
	}
	if (out_json(o))
		out_tab_begin(o, &c->t, "ls", NULL, ls_cols, 11);
	if ((le16_get(c->node.i.i_mode) & F2FS_S_IFMT) != F2FS_S_IFDIR) {
		const char *base = strrchr(path, '/');

		base = base && base[1] ? base + 1 : path;
		ls_line(c, ino, (const uint8_t *)base, strlen(base));
		ret = 0;
	} else {
		ret = f2fs_dir_foreach(fs, ino, ls_cb, c, &err);
	}
	if (out_json(o))
		out_tab_end(o, &c->t);
	out_flush(o);
	if (ret < 0) {
		free(c);
		return error_line("%s", err.msg);
	}
	ret = c->failures ? EXIT_ERROR : EXIT_OK;
	free(c);
	return ret;
}

