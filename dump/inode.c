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
static void kv_time(const char *key, const char *lab, uint64_t sec, uint32_t nsec)
{
	char nkey[32];

	if (!out_json()) {
		printf("  %-*s ", FIELD_WIDTH, lab);
		print_time(sec, nsec);
		return;
	}
	snprintf(nkey, sizeof(nkey), "%s_nsec", key);
	kv_u(key, NULL, sec);
	kv_u(nkey, NULL, nsec);
}

static void inode_location(uint32_t ino, const struct f2fs_nat_info *ne, int from_journal)
{
	char text[64];

	out_text("Inode %u\n", ino);
	kv_u("ino", NULL, ino);
	kv_u("node_blkaddr", NULL, ne->blkaddr);
	kv_s("nat_source", NULL, from_journal ? "journal" : "block");
	kv_u("nat_version", NULL, ne->version);
	snprintf(text, sizeof(text), "%u (NAT %s, version %u)", ne->blkaddr,
		 from_journal ? "journal" : "block", ne->version);
	kv_s(NULL, "node block:", text);
}

static void inode_attrs(const struct f2fs_inode *i)
{
	uint16_t m = le16_get(i->i_mode);
	int dir = (m & F2FS_S_IFMT) == F2FS_S_IFDIR;
	char mode[11], text[32];

	mode_string(m, mode);
	kv_s("type", "type:", type_name(m));
	snprintf(text, sizeof(text), "0%06o (%s)", m, mode);
	kv_u("mode", NULL, m);
	kv_s("mode_string", NULL, mode);
	kv_s(NULL, "mode:", text);
	kv_u("uid", "uid:", le32_get(i->i_uid));
	kv_u("gid", "gid:", le32_get(i->i_gid));
	kv_u("links", "links:", le32_get(i->i_links));
	kv_u("size", "size:", le64_get(i->i_size));
	kv_u("blocks", "blocks (4 KiB, inode incl.):", le64_get(i->i_blocks));
	kv_time("atime", "atime:", le64_get(i->i_atime), le32_get(i->i_atime_nsec));
	kv_time("ctime", "ctime:", le64_get(i->i_ctime), le32_get(i->i_ctime_nsec));
	kv_time("mtime", "mtime:", le64_get(i->i_mtime), le32_get(i->i_mtime_nsec));
	if ((i->i_inline & F2FS_EXTRA_ATTR) &&
	    le16_get(i->extra.i_extra_isize) >= F2FS_EXTRA_ISIZE_CRTIME)
		kv_time("crtime", "crtime:", le64_get(i->extra.i_crtime),
			le32_get(i->extra.i_crtime_nsec));
	kv_u("generation", "generation:", le32_get(i->i_generation));
	/* the field is the hash depth of a directory, a GC failure count otherwise */
	if (dir)
		kv_u("current_depth", "current_depth:", le32_get(i->i_current_depth));
	else
		kv_u("gc_failures", "gc_failures:", (uint16_t)le32_get(i->i_current_depth));
	kv_u("xattr_nid", "xattr_nid:", le32_get(i->i_xattr_nid));
	kv_flags("flags", "flags:", le32_get(i->i_flags), inode_flag_names);
	kv_flags("inline", "inline:", i->i_inline, inline_flag_names);
	kv_x("advise", "advise:", i->i_advise);
	kv_u("pino", "parent (pino):", le32_get(i->i_pino));
	kv_bytes("name", "name:", i->i_name, le32_get(i->i_namelen) < F2FS_NAME_LEN ?
					     le32_get(i->i_namelen) : F2FS_NAME_LEN);
	kv_u("dir_level", "dir_level:", i->i_dir_level);
}

/* The largest-extent cache the kernel keeps in the inode (not the block map). */
static void inode_extent_cache(const struct f2fs_inode *i)
{
	kv_u("extent_fofs", "extent cache fofs:", le32_get(i->i_ext.fofs));
	kv_u("extent_blk", "extent cache blkaddr:", le32_get(i->i_ext.blk));
	kv_u("extent_len", "extent cache len:", le32_get(i->i_ext.len));
}

static void inode_checksum(struct f2fs_fs *fs, const struct f2fs_node *n)
{
	uint32_t stored = le32_get(n->i.extra.i_inode_checksum);
	uint32_t c = f2fs_inode_crc(n, f2fs_fs_inode_crc_seed(fs));
	int used = f2fs_inode_has_checksum(n, f2fs_fs_features(fs));
	char text[48];

	kv_u("inode_checksum", NULL, stored);
	if (used)
		kv_s("inode_checksum_state", NULL, c == stored ? "ok" : "bad");
	if (!used)
		snprintf(text, sizeof(text), "0x%08x (not used)", stored);
	else if (c == stored)
		snprintf(text, sizeof(text), "0x%08x (ok)", stored);
	else
		snprintf(text, sizeof(text), "0x%08x (bad: computed 0x%08x)", stored, c);
	kv_s(NULL, "inode_checksum:", text);
}

static void inode_extra(struct f2fs_fs *fs, const struct f2fs_node *n)
{
	const struct f2fs_inode *i = &n->i;
	uint16_t isize = le16_get(i->extra.i_extra_isize);

	if (!(i->i_inline & F2FS_EXTRA_ATTR))
		return;
	kv_u("extra_isize", "extra_isize:", isize);
	kv_u("inline_xattr_size", "inline_xattr_size (words):",
	     le16_get(i->extra.i_inline_xattr_size));
	if (isize >= F2FS_EXTRA_ISIZE_PROJID)
		kv_u("projid", "projid:", le32_get(i->extra.i_projid));
	if (isize >= F2FS_EXTRA_ISIZE_CHKSUM)
		inode_checksum(fs, n);
}

static void inode_pointers(struct f2fs_fs *fs, const struct f2fs_inode *i)
{
	uint32_t features = f2fs_fs_features(fs);

	if (i->i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)) {
		kv_s("data", "data:", "inline");
		kv_u("inline_bytes", "inline room (bytes):", f2fs_inode_inline_bytes(i, features));
		return;
	}
	kv_s("data", "data:", "blocks");
	kv_u("data_pointers", "data pointers in the inode:", f2fs_inode_addrs(i, features));
	kv_list_begin("i_nid", "i_nid (dn, dn, in, in, din):");
	for (int k = 0; k < F2FS_DEF_NIDS_PER_INODE; k++)
		kv_list_u(le32_get(i->i_nid[k]));
	kv_list_end();
}

/* The content of a regular file kept in the inode (up to i_size). */
static void inode_inline_data(struct f2fs_fs *fs, const struct f2fs_node *n)
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
	kv_s("inline_data", "inline data:", text ? text : "(out of memory)");
	free(text);
}

static void inode_link_target(struct f2fs_fs *fs, const struct f2fs_node *n)
{
	char target[F2FS_BLKSIZE + 1];
	const char *why;

	if ((le16_get(n->i.i_mode) & F2FS_S_IFMT) != F2FS_S_IFLNK)
		return;
	if (read_link(fs, n, target, sizeof(target), &why))
		kv_s("target_error", "target:", why);
	else
		kv_s("target", "target:", target);
}

static void inode_footer(const struct f2fs_node *n)
{
	kv_u("footer_nid", "footer nid:", le32_get(n->footer.nid));
	kv_u("footer_ino", "footer ino:", le32_get(n->footer.ino));
	kv_x("footer_flag", "footer flag:", le32_get(n->footer.flag));
	kv_x("footer_cp_ver", "footer cp_ver:", le64_get(n->footer.cp_ver));
	kv_u("footer_next_blkaddr", "footer next_blkaddr:", le32_get(n->footer.next_blkaddr));
}

int view_inode(struct f2fs_fs *fs, const char *what)
{
	struct f2fs_node *n = malloc(sizeof(*n));
	struct f2fs_nat_info ne;
	struct f2fs_error err;
	int from_journal = 0, ret;
	uint32_t ino;

	if (!n)
		return error_line("out of memory");
	ret = resolve_target(fs, what, &ino);
	if (ret) {
		free(n);
		return ret;
	}
	if (f2fs_nat_lookup(fs, ino, &ne, &from_journal, &err) ||
	    f2fs_read_inode(fs, ino, n, &err)) {
		free(n);
		return error_line("%s", err.msg);
	}
	out_obj_begin("inode", NULL);
	inode_location(ino, &ne, from_journal);
	inode_attrs(&n->i);
	inode_extent_cache(&n->i);
	inode_extra(fs, n);
	inode_pointers(fs, &n->i);
	inode_inline_data(fs, n);
	inode_link_target(fs, n);
	inode_footer(n);
	ret = print_xattrs(fs, &n->i);
	if (ret == EXIT_OK && !(n->i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY)))
		ret = print_block_map(fs, n);
	out_obj_end();
	free(n);
	return ret;
}
