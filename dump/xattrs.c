/*
 * The extended attributes of an inode (for -i): full name, value size and
 * the value, as text when it is printable and as hex otherwise (ACLs,
 * security contexts with binary parts), the same in text and JSON.
 */
#include "dump.h"

#include <f2fs/fs/xattr.h>

#include <stdio.h>
#include <stdlib.h>

struct xattr_rows {
	struct out *o;
	struct out_table t;
	int oom;
};

static const struct out_col xattr_cols[] = {
	{ "index", "index", 5, OUT_COL_U },
	{ "size", "size", 6, OUT_COL_U },
	{ "name", "name", -24, OUT_COL_S },
	{ "value", "value", -1, OUT_COL_S },
};

static int xattr_row(const struct f2fs_xattr *x, void *arg)
{
	struct xattr_rows *r = arg;
	const char *pre = f2fs_xattr_prefix(x->index);
	char name[32 + 256];
	char *value = bytes_text(x->value, x->value_len);

	if (!value) {
		r->oom = 1;
		return 1;
	}
	/* indexes the VFS does not name keep their number as the prefix */
	if (pre)
		snprintf(name, sizeof(name), "%s%.*s", pre, (int)x->name_len, (const char *)x->name);
	else
		snprintf(name, sizeof(name), "[%u]%.*s", x->index, (int)x->name_len,
			 (const char *)x->name);
	out_tab_row(r->o, &r->t, (struct out_cell[]){ OUT_U(x->index), OUT_U(x->value_len),
		OUT_S(name), OUT_S(value) });
	free(value);
	return 0;
}

int print_xattrs(struct dump *d, const struct f2fs_inode *i)
{
	struct out *o = &d->out;
	struct xattr_rows r = { .o = o, .oom = 0 };
	struct f2fs_error err;
	int ret;

	out_tab_begin(o, &r.t, "xattrs", "  extended attributes:", xattr_cols, 4);
	ret = f2fs_xattr_foreach(d->fs, i, xattr_row, &r, &err);
	out_tab_end(o, &r.t);
	if (r.oom)
		return error_line("out of memory");
	if (ret < 0)
		return error_line("inode xattrs: %s", err.msg);
	return EXIT_OK;
}
