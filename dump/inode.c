/*
 * -i: one inode, found by number or by path: where its node is, its
 * attributes, extra attributes, data pointers, extended attributes and its
 * block map as extents. Each field is described once for text and JSON.
 */
#include "dump.h"

#include <f2fs/format/crc.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/fs/nat.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A time: text as a date, JSON as key (seconds) and key_nsec. */
static void time_field(struct out *o, const char *key, const char *lab, uint64_t sec,
		       uint32_t nsec)
{
	char nkey[32], text[96];

	if (!out_json(o)) {
		out_s(o, NULL, lab, time_string(sec, nsec, text, sizeof(text)));
		return;
	}
	snprintf(nkey, sizeof(nkey), "%s_nsec", key);
	out_u(o, key, NULL, sec);
	out_u(o, nkey, NULL, nsec);
}

static void inode_location(struct out *o, uint32_t ino, const struct f2fs_nat_info *ne,
			   int from_journal)
{
	char text[64];

	out_text(o, "Inode %u\n", ino);
	out_u(o, "ino", NULL, ino);
	out_u(o, "node_blkaddr", NULL, ne->blkaddr);
	out_s(o, "nat_source", NULL, from_journal ? "journal" : "block");
	out_u(o, "nat_version", NULL, ne->version);
	snprintf(text, sizeof(text), "%u (NAT %s, version %u)", ne->blkaddr,
		 from_journal ? "journal" : "block", ne->version);
	out_s(o, NULL, "node block:", text);
}

static void inode_attrs(struct out *o, const struct f2fs_inode *i)
{
	uint16_t m = le16_get(i->i_mode);
	int dir = (m & F2FS_S_IFMT) == F2FS_S_IFDIR;
	char mode[11], text[32];

	mode_string(m, mode);
	out_s(o, "type", "type:", type_name(m));
	snprintf(text, sizeof(text), "0%06o (%s)", m, mode);
	out_u(o, "mode", NULL, m);
	out_s(o, "mode_string", NULL, mode);
	out_s(o, NULL, "mode:", text);
	out_u(o, "uid", "uid:", le32_get(i->i_uid));
	out_u(o, "gid", "gid:", le32_get(i->i_gid));
	out_u(o, "links", "links:", le32_get(i->i_links));
	out_u(o, "size", "size:", le64_get(i->i_size));
	out_u(o, "blocks", "blocks (4 KiB, inode incl.):", le64_get(i->i_blocks));
	time_field(o, "atime", "atime:", le64_get(i->i_atime), le32_get(i->i_atime_nsec));
	time_field(o, "ctime", "ctime:", le64_get(i->i_ctime), le32_get(i->i_ctime_nsec));
	time_field(o, "mtime", "mtime:", le64_get(i->i_mtime), le32_get(i->i_mtime_nsec));
	if ((i->i_inline & F2FS_EXTRA_ATTR) &&
	    le16_get(i->extra.i_extra_isize) >= F2FS_EXTRA_ISIZE_CRTIME)
		time_field(o, "crtime", "crtime:", le64_get(i->extra.i_crtime),
			le32_get(i->extra.i_crtime_nsec));
	out_u(o, "generation", "generation:", le32_get(i->i_generation));
	/* the field is the hash depth of a directory, a GC failure count otherwise */
	if (dir)
		out_u(o, "current_depth", "current_depth:", le32_get(i->i_current_depth));
	else
		out_u(o, "gc_failures", "gc_failures:", (uint16_t)le32_get(i->i_current_depth));
	out_u(o, "xattr_nid", "xattr_nid:", le32_get(i->i_xattr_nid));
	out_flags(o, "flags", "flags:", le32_get(i->i_flags), inode_flag_names);
	out_flags(o, "inline", "inline:", i->i_inline, inline_flag_names);
	out_x(o, "advise", "advise:", i->i_advise);
	out_u(o, "pino", "parent (pino):", le32_get(i->i_pino));
	out_bytes(o, "name", "name:", i->i_name, le32_get(i->i_namelen) < F2FS_NAME_LEN ?
						 le32_get(i->i_namelen) : F2FS_NAME_LEN);
	out_u(o, "dir_level", "dir_level:", i->i_dir_level);
}

/* The largest-extent cache the kernel keeps in the inode (not the block map). */
static void inode_extent_cache(struct out *o, const struct f2fs_inode *i)
{
	out_u(o, "extent_fofs", "extent cache fofs:", le32_get(i->i_ext.fofs));
	out_u(o, "extent_blk", "extent cache blkaddr:", le32_get(i->i_ext.blk));
	out_u(o, "extent_len", "extent cache len:", le32_get(i->i_ext.len));
}

static void inode_checksum(struct out *o, struct f2fs_fs *fs, const struct f2fs_node *n)
{
	uint32_t stored = le32_get(n->i.extra.i_inode_checksum);
	uint32_t c = f2fs_inode_crc(n, f2fs_fs_inode_crc_seed(fs));
	int used = f2fs_inode_has_checksum(n, f2fs_fs_features(fs));
	char text[48];

	out_u(o, "inode_checksum", NULL, stored);
	if (used)
		out_s(o, "inode_checksum_state", NULL, c == stored ? "ok" : "bad");
	if (!used)
		snprintf(text, sizeof(text), "0x%08x (not used)", stored);
	else if (c == stored)
		snprintf(text, sizeof(text), "0x%08x (ok)", stored);
	else
		snprintf(text, sizeof(text), "0x%08x (bad: computed 0x%08x)", stored, c);
	out_s(o, NULL, "inode_checksum:", text);
}

static void inode_extra(struct out *o, struct f2fs_fs *fs, const struct f2fs_node *n)
{
	const struct f2fs_inode *i = &n->i;
	uint16_t isize = le16_get(i->extra.i_extra_isize);

	if (!(i->i_inline & F2FS_EXTRA_ATTR))
		return;
	out_u(o, "extra_isize", "extra_isize:", isize);
	out_u(o, "inline_xattr_size", "inline_xattr_size (words):",
	      le16_get(i->extra.i_inline_xattr_size));
	if (isize >= F2FS_EXTRA_ISIZE_PROJID)
		out_u(o, "projid", "projid:", le32_get(i->extra.i_projid));
	if (isize >= F2FS_EXTRA_ISIZE_CHKSUM)
		inode_checksum(o, fs, n);
}

static void inode_pointers(struct out *o, struct f2fs_fs *fs, const struct f2fs_inode *i)
{
	uint32_t features = f2fs_fs_features(fs);

	if (i->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)) {
		out_s(o, "data", "data:", "inline");
		out_u(o, "inline_bytes", "inline room (bytes):",
		      f2fs_inode_inline_bytes(i, features));
		return;
	}
	out_s(o, "data", "data:", "blocks");
	out_u(o, "data_pointers", "data pointers in the inode:", f2fs_inode_addrs(i, features));
	out_list_begin(o, "i_nid", "i_nid (dn, dn, in, in, din):");
	for (int k = 0; k < F2FS_DEF_NIDS_PER_INODE; k++)
		out_list_u(o, le32_get(i->i_nid[k]));
	out_list_end(o);
}

/* The content of a regular file kept in the inode (up to i_size). */
static void inode_inline_data(struct out *o, struct f2fs_fs *fs, const struct f2fs_node *n)
{
	const struct f2fs_inode *i = &n->i;
	uint64_t size = le64_get(i->i_size);
	uint32_t room = f2fs_inode_inline_bytes(i, f2fs_fs_features(fs));
	char *text;

	if (!(i->i_inline & F2FS_INLINE_DATA) ||
	    (le16_get(i->i_mode) & F2FS_S_IFMT) != F2FS_S_IFREG)
		return;
	text = bytes_text((const uint8_t *)n + f2fs_inode_inline_offset(i),
			  size < room ? (size_t)size : room);
	out_s(o, "inline_data", "inline data:", text ? text : "(out of memory)");
	free(text);
}

static void inode_link_target(struct out *o, struct f2fs_fs *fs, const struct f2fs_node *n)
{
	char target[F2FS_BLKSIZE + 1];
	const char *why;

	if ((le16_get(n->i.i_mode) & F2FS_S_IFMT) != F2FS_S_IFLNK)
		return;
	if (read_link(fs, n, target, sizeof(target), &why))
		out_s(o, "target_error", "target:", why);
	else
		out_s(o, "target", "target:", target);
}

static void inode_footer(struct out *o, const struct f2fs_node *n)
{
	out_u(o, "footer_nid", "footer nid:", le32_get(n->footer.nid));
	out_u(o, "footer_ino", "footer ino:", le32_get(n->footer.ino));
	out_x(o, "footer_flag", "footer flag:", le32_get(n->footer.flag));
	out_x(o, "footer_cp_ver", "footer cp_ver:", le64_get(n->footer.cp_ver));
	out_u(o, "footer_next_blkaddr", "footer next_blkaddr:", le32_get(n->footer.next_blkaddr));
}

int view_inode(struct dump *d, const char *what)
{
	struct out *o = &d->out;
	struct f2fs_fs *fs = d->fs;
	struct f2fs_node *n = malloc(sizeof(*n));
	struct f2fs_nat_info ne;
	struct f2fs_error err;
	int from_journal = 0, ret;
	uint32_t ino;

	if (!n)
		return error_line("out of memory");
	ret = resolve_target(d, what, &ino);
	if (ret) {
		free(n);
		return ret;
	}
	if (f2fs_nat_lookup(fs, ino, &ne, &from_journal, &err) ||
	    f2fs_read_inode(fs, ino, n, &err)) {
		free(n);
		return error_line("%s", err.msg);
	}
	out_obj_begin(o, "inode", NULL);
	inode_location(o, ino, &ne, from_journal);
	inode_attrs(o, &n->i);
	inode_extent_cache(o, &n->i);
	inode_extra(o, fs, n);
	inode_pointers(o, fs, &n->i);
	inode_inline_data(o, fs, n);
	inode_link_target(o, fs, n);
	inode_footer(o, n);
	ret = print_xattrs(d, &n->i);
	if (ret == EXIT_OK && !(n->i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)))
		ret = print_block_map(d, n);
	out_obj_end(o);
	free(n);
	return ret;
}
