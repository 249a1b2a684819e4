/* How dump.f2fs shows on-disk values: flag names, modes, times, sizes, link targets. */
#include "dump.h"

#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/fs/nat.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const struct out_flag inline_flag_names[] = {
	{ F2FS_INLINE_XATTR, "inline_xattr" },
	{ F2FS_INLINE_DATA, "inline_data" },
	{ F2FS_INLINE_DENTRY, "inline_dentry" },
	{ F2FS_DATA_EXIST, "data_exist" },
	{ F2FS_INLINE_DOTS, "inline_dots" },
	{ F2FS_EXTRA_ATTR, "extra_attr" },
	{ F2FS_PIN_FILE, "pin_file" },
	{ F2FS_COMPRESS_RELEASED, "compress_released" },
	{ 0, NULL },
};

const struct out_flag inode_flag_names[] = {
	{ F2FS_COMPR_FL, "compr" },
	{ F2FS_SYNC_FL, "sync" },
	{ F2FS_IMMUTABLE_FL, "immutable" },
	{ F2FS_APPEND_FL, "append" },
	{ F2FS_NODUMP_FL, "nodump" },
	{ F2FS_NOATIME_FL, "noatime" },
	{ F2FS_NOCOMP_FL, "nocomp" },
	{ F2FS_INDEX_FL, "index" },
	{ F2FS_DIRSYNC_FL, "dirsync" },
	{ F2FS_PROJINHERIT_FL, "projinherit" },
	{ F2FS_CASEFOLD_FL, "casefold" },
	{ 0, NULL },
};

const char *const log_names[F2FS_NR_CURSEG_TYPE] = {
	"hot data", "warm data", "cold data", "hot node", "warm node", "cold node",
};

const char *const log_keys[F2FS_NR_CURSEG_TYPE] = {
	"hot_data", "warm_data", "cold_data", "hot_node", "warm_node", "cold_node",
};

const char *hex_string(const uint8_t *b, size_t len, char *buf, size_t cap)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < len && o + 3 <= cap; k++)
		o += (size_t)snprintf(buf + o, cap - o, "%02x", b[k]);
	return buf;
}

/* A value that ends in NULs (C strings as many tools store them) still
 * counts as text; any other byte outside printable ASCII makes it hex. */
static int printable(const uint8_t *v, size_t len)
{
	while (len && v[len - 1] == 0)
		len--;
	for (size_t k = 0; k < len; k++)
		if (v[k] < 0x20 || v[k] > 0x7e)
			return 0;
	return 1;
}

char *bytes_text(const uint8_t *v, size_t len)
{
	char *s = malloc(2 * len + 3);

	if (!s)
		return NULL;
	if (printable(v, len)) {
		size_t n = 0;

		while (n < len && v[n])
			n++;
		snprintf(s, 2 * len + 3, "%.*s", (int)n, (const char *)v);
	} else {
		s[0] = '0';
		s[1] = 'x';
		hex_string(v, len, s + 2, 2 * len + 1);
	}
	return s;
}

const char *time_string(uint64_t sec, uint32_t nsec, char *buf, size_t cap)
{
	time_t t = (time_t)sec;
	struct tm tm;
	char date[64];

	if ((uint64_t)t == sec && localtime_r(&t, &tm) &&
	    strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, cap, "%s.%09u (%" PRIu64 ")", date, nsec, sec);
	else
		snprintf(buf, cap, "%" PRIu64 ".%09u", sec, nsec);
	return buf;
}

uint32_t count_bits(const uint8_t *map, uint32_t bytes)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < bytes; k++)
		n += (uint32_t)__builtin_popcount(map[k]);
	return n;
}

void mode_string(uint16_t mode, char out[11])
{
	static const char rwx[] = "rwxrwxrwx";

	switch (mode & F2FS_S_IFMT) {
	case F2FS_S_IFDIR:  out[0] = 'd'; break;
	case F2FS_S_IFREG:  out[0] = '-'; break;
	case F2FS_S_IFLNK:  out[0] = 'l'; break;
	case F2FS_S_IFCHR:  out[0] = 'c'; break;
	case F2FS_S_IFBLK:  out[0] = 'b'; break;
	case F2FS_S_IFIFO:  out[0] = 'p'; break;
	case F2FS_S_IFSOCK: out[0] = 's'; break;
	default:            out[0] = '?'; break;
	}
	for (int k = 0; k < 9; k++)
		out[1 + k] = (mode & (0400 >> k)) ? rwx[k] : '-';
	if (mode & 04000)
		out[3] = (mode & 0100) ? 's' : 'S';
	if (mode & 02000)
		out[6] = (mode & 0010) ? 's' : 'S';
	if (mode & 01000)
		out[9] = (mode & 0001) ? 't' : 'T';
	out[10] = '\0';
}

const char *type_name(uint16_t mode)
{
	switch (mode & F2FS_S_IFMT) {
	case F2FS_S_IFDIR:  return "directory";
	case F2FS_S_IFREG:  return "regular file";
	case F2FS_S_IFLNK:  return "symbolic link";
	case F2FS_S_IFCHR:  return "character device";
	case F2FS_S_IFBLK:  return "block device";
	case F2FS_S_IFIFO:  return "fifo";
	case F2FS_S_IFSOCK: return "socket";
	default:            return "unknown type";
	}
}

/* Symlink targets live inline or in file block 0, and are read as the
 * kernel reads them: the page (inline bytes zero-padded), ended at i_size
 * or at its last byte, the string up to its first NUL. So a damaged size
 * or a NUL inside gives the target a mounted volume shows. */
int read_link(struct f2fs_fs *fs, const struct f2fs_node *n, char *out, size_t cap,
	      const char **why)
{
	const struct f2fs_inode *i = &n->i;
	uint64_t size = le64_get(i->i_size);
	size_t lim = (size_t)(size < F2FS_BLKSIZE - 1 ? size : F2FS_BLKSIZE - 1);
	struct f2fs_error err;
	uint8_t *blk;
	uint32_t addr;

	if (lim >= cap)
		lim = cap - 1;
	if (i->i_inline & F2FS_INLINE_DATA) {
		size_t room = f2fs_inode_inline_bytes(i, f2fs_fs_features(fs));
		size_t n_in = lim < room ? lim : room;

		memcpy(out, (const uint8_t *)n + f2fs_inode_inline_offset(i), n_in);
		memset(out + n_in, 0, lim - n_in);
		out[lim] = '\0';
		return 0;
	}
	if (f2fs_file_block(fs, n, 0, &addr, NULL, &err) || !f2fs_fs_in_main(fs, addr))
		return *why = "symbolic link target block is not in the main area", -1;
	blk = malloc(F2FS_BLKSIZE);
	if (!blk)
		return *why = "out of memory", -1;
	if (f2fs_fs_read_block(fs, addr, blk, &err)) {
		free(blk);
		return *why = "symbolic link target block unreadable", -1;
	}
	memcpy(out, blk, lim);
	out[lim] = '\0';
	free(blk);
	return 0;
}
