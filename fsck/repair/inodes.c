/*
 * The repair of inode fields: each field the check found wrong and could
 * say what it must be (ck.fixes) is set in the inode's edited copy
 * (edit.c), which the flush writes out of place with its checksum
 * recomputed, so that an inode whose only fault is its checksum is fixed
 * by being taken for an edit at all. A field whose right value the check
 * could not know gets no record, and its problem is left (rp_inodes_noted).
 */
#include <f2fs/format/dir_levels.h>
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/format/node_ofs.h>

#include "../check/passes.h"
#include "repair_int.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

/* A mode is chosen only for an inode no directory takes for its parent:
 * one that is would be a directory whose entries were never read. */
static bool is_a_parent(const struct ck *ck, uint32_t ino)
{
	for (size_t k = 0; k < ck->dirs.n; k++)
		if (ck->dirs.v[k].dotdot == ino || ck->dirs.v[k].pino == ino)
			return true;
	return false;
}

static bool usable(const struct ck *ck, const struct ck_fix *f)
{
	/* a directory's mode comes from its content, which the check read */
	return f->op != FX_MODE || (f->value && ((f->value & F2FS_S_IFMT) == F2FS_S_IFDIR ||
						  !is_a_parent(ck, f->ino)));
}

/* The problems whose every record needs a fix of its own. */
static bool per_record(enum f2fs_problem_code code)
{
	switch (code) {
	case F2FS_PB_INODE_BAD_MODE: case F2FS_PB_INODE_BAD_CHECKSUM: case F2FS_PB_INODE_EXTRA_ISIZE:
	case F2FS_PB_INODE_INLINE_XATTR_SIZE: case F2FS_PB_INODE_INLINE_FLAGS:
	case F2FS_PB_INODE_INLINE_SIZE: case F2FS_PB_INODE_SIZE: case F2FS_PB_INODE_COMPR_BLOCKS:
	case F2FS_PB_INODE_DEPTH: case F2FS_PB_INODE_XATTR_NID: case F2FS_PB_XATTR_HEADER:
	case F2FS_PB_INODE_EXTENT: case F2FS_PB_INODE_INLINE_RESERVED:
	case F2FS_PB_XATTR_ENTRY_BOUNDS: case F2FS_PB_XATTR_BAD_NAME: case F2FS_PB_XATTR_DUPLICATE:
	case F2FS_PB_XATTR_BAD_ACL:
	case F2FS_PB_NODE_FOOTER_INO:
		return true;
	default:
		return false;
	}
}

/* An inode whose mode stays invalid may be a directory whose entries
 * were never read: its children are not relinked elsewhere (the links
 * counted miss its entries), nor are entries naming it typed "unknown". */
static bool waits_for_mode(const struct rp *p, enum f2fs_problem_code code)
{
	const struct ck *ck = p->ck;

	if (!ck->r->count[F2FS_PB_INODE_BAD_MODE] || p->fix[F2FS_PB_INODE_BAD_MODE])
		return false;
	if (code == F2FS_PB_INODE_UNREACHABLE || code == F2FS_PB_INODE_LINKS)
		return true;
	if (code != F2FS_PB_DIR_FILE_TYPE)
		return false;
	for (size_t i = 0; i < ck->fixes.n; i++)
		if (ck->fixes.v[i].op == FX_TYPE && ck->fixes.v[i].value == F2FS_FT_UNKNOWN)
			return true;
	return false;
}

/* A directory whose layout was broken was not read: once mended, its
 * entries are back, and the links counted without them are wrong. */
static bool dir_mended(const struct rp *p, enum f2fs_problem_code code)
{
	struct ck *ck = p->ck;

	if (code != F2FS_PB_INODE_UNREACHABLE && code != F2FS_PB_INODE_LINKS)
		return false;
	for (size_t i = 0; i < ck->fixes.n; i++) {
		const struct ck_fix *f = &ck->fixes.v[i];
		const struct ck_nid *in;

		if ((f->op != FX_INLINE_CLEAR && f->op != FX_INLINE_XATTR_SIZE) || !p->fix[f->code])
			continue;
		in = ck_inode(ck, f->ino);
		if (in && ck_is_dir(in))
			return true;
	}
	return false;
}

bool rp_inodes_noted(const struct rp *p, enum f2fs_problem_code code)
{
	const struct ck *ck = p->ck;
	uint64_t n = 0;

	if (waits_for_mode(p, code) || dir_mended(p, code))
		return false;
	if (!per_record(code))
		return true;
	/* a level out of range comes with its depth's record (FX_DIR_LEVEL,
	 * made by the directory step): one report */
	for (size_t i = 0; i < ck->fixes.n; i++)
		if (ck->fixes.v[i].code == code && ck->fixes.v[i].op != FX_DIR_LEVEL &&
		    usable(ck, &ck->fixes.v[i]))
			n++;
	return n == ck->r->count[code];
}

static int edit_failed(const struct rp *p)
{
	return p->ck->err->code ? p->ck->err->code : -EIO;
}

/* The entries of inode ino that the directory fixes typed after its bad
 * mode (unknown) take the type of the mode it now has. */
static int retype_entries(struct rp *p, uint32_t ino, uint16_t mode)
{
	const struct ck *ck = p->ck;

	if (!p->fix[F2FS_PB_DIR_FILE_TYPE])
		return 0;
	for (size_t i = 0; i < ck->fixes.n; i++) {
		const struct ck_fix *f = &ck->fixes.v[i];
		struct f2fs_dentry_area a;
		int ret;

		if (f->op != FX_TYPE || f->value != F2FS_FT_UNKNOWN)
			continue;
		ret = rp_dir_area(p, f->ino, f->fofs, &a);
		if (ret)
			return ret;
		if (f->slot < a.slots && le32_get(a.dentry[f->slot].ino) == ino)
			a.dentry[f->slot].file_type = f2fs_file_type_of_mode(mode);
	}
	return 0;
}

/* i_current_depth of a directory: the levels its i_size reaches (one at
 * least, as the kernel starts a directory). */
static uint32_t depth_of(const struct f2fs_inode *i)
{
	uint64_t blocks = (le64_get(i->i_size) + F2FS_BLKSIZE - 1) / F2FS_BLKSIZE;
	uint32_t d = 1;

	if (i->i_inline & F2FS_INLINE_DENTRY)
		return 1;
	while (d < F2FS_MAX_DIR_HASH_DEPTH && f2fs_dir_level_start(d, i->i_dir_level) < blocks)
		d++;
	return d;
}

/* i_xattr_nid names no xattr node of this inode: cleared. Its i_blocks,
 * which the check could not judge with the pointer there, is then set to
 * the blocks counted. */
/* One past the last file block the node nid maps (at node_ofs, depth
 * levels above the data), or 0; a node that cannot be read maps nothing
 * known. The pointers are searched from the last. */
static uint64_t mapped_end_under(struct rp *p, uint32_t nid, uint32_t ofs, uint32_t depth,
				 uint32_t addrs)
{
	struct f2fs_error keep = *p->ck->err;
	struct f2fs_node buf;
	const struct f2fs_node *nd = nid ? rp_node_peek(p, nid, &buf) : NULL;

	if (!nd) {
		*p->ck->err = keep;
		return 0;
	}
	for (uint32_t k = F2FS_ADDRS_PER_BLOCK; k-- > 0;) {
		uint64_t end;

		if (depth == 0) {
			if (le32_get(nd->dn.addr[k]) != F2FS_NULL_ADDR)
				return f2fs_node_start_bidx(ofs, addrs) + k + 1;
			continue;
		}
		end = mapped_end_under(p, le32_get(nd->in.nid[k]), f2fs_node_child_ofs(ofs, k),
				       depth - 1, addrs);
		if (end)
			return end;
	}
	return 0;
}

/* One past the last file block inode nd maps. */
static uint64_t mapped_end(struct rp *p, const struct f2fs_node *nd)
{
	uint32_t addrs = f2fs_inode_addrs(&nd->i, p->ck->features);

	for (int k = F2FS_DEF_NIDS_PER_INODE; k-- > 0;) {
		uint64_t end = mapped_end_under(p, le32_get(nd->i.i_nid[k]), f2fs_node_top_ofs((uint32_t)k),
						f2fs_node_top_depth((uint32_t)k), addrs);

		if (end)
			return end;
	}
	for (uint32_t k = addrs; k-- > 0;)
		if (f2fs_inode_get_addr(&nd->i, k) != F2FS_NULL_ADDR)
			return k + 1;
	return 0;
}

static int clear_xattr_nid(struct rp *p, const struct ck_fix *f, struct f2fs_node *nd)
{
	struct ck *ck = p->ck;
	struct ck_nid *in = ck_inode(ck, f->ino);

	if (le32_get(nd->i.i_xattr_nid) != f->value)
		return 0;
	/* the xattr node the check found lost (its i_blocks is checked) */
	if (f->fofs) {
		nd->i.i_xattr_nid = le32_put((uint32_t)f->fofs);
		return 0;
	}
	nd->i.i_xattr_nid = 0;
	if (!in || (in->state & (IR_NOCOUNT | IR_BIG_IBLOCKS)))
		return 0;
	if (!ck_cnt(ck, in, CK_BDIFF))
		return 0;
	/* the count in 32 bits, as the check computes it */
	nd->i.i_blocks = le64_put((uint32_t)((uint32_t)le64_get(nd->i.i_blocks) -
					     ck_cnt(ck, in, CK_BDIFF)));
	return 0;
}

static int apply(struct rp *p, const struct ck_fix *f)
{
	struct f2fs_node *nd = rp_node(p, f->ino);

	if (!nd)
		return edit_failed(p);
	switch (f->op) {
	case FX_RESEAL:
		break;   /* the flush reseals every inode it writes */
	case FX_FOOTER_INO:
		/* the staged node's owner too, which the quota step reads */
		nd->footer.ino = le32_put(f->value);
		rp_stage_find(p, f->ino)->ino = f->value;
		break;
	case FX_EXTRA_ISIZE:
		nd->i.extra.i_extra_isize = le16_put((uint16_t)f->value);
		/* the pointers start elsewhere: the largest extent is kept
		 * only by the check's judgement of it (inode.extent) */
		memset(&nd->i.i_ext, 0, sizeof(nd->i.i_ext));
		break;
	case FX_MODE:
		nd->i.i_mode = le16_put((uint16_t)f->value);
		return retype_entries(p, f->ino, (uint16_t)f->value);
	case FX_ISIZE: {
		uint64_t cur = le64_get(nd->i.i_size);

		if (f->slot == 2) {
			nd->i.i_size = le64_put(mapped_end(p, nd) * F2FS_BLKSIZE);
			break;
		}

		/* a directory's size to a block: never below the blocks that
		 * another fix (FX_DIR_SIZE) grew it to */
		if (f->slot && cur % F2FS_BLKSIZE == 0 && cur >= f->fofs)
			break;
		nd->i.i_size = le64_put(f->slot && !rp_data_exists(p, f->ino, f->fofs / F2FS_BLKSIZE - 1) ?
					f->fofs - F2FS_BLKSIZE : f->fofs);
		break;
	}
	case FX_COMPR_BLOCKS:
		nd->i.extra.i_compr_blocks = le64_put(f->fofs);
		break;
	case FX_DEPTH:
		nd->i.i_current_depth = le32_put(depth_of(&nd->i));
		break;
	case FX_XATTR_NID:
		return clear_xattr_nid(p, f, nd);
	case FX_INLINE_XATTR_SIZE:
		nd->i.extra.i_inline_xattr_size = le16_put((uint16_t)f->value);
		memset(&nd->i.i_ext, 0, sizeof(nd->i.i_ext));
		break;
	case FX_INLINE_CLEAR:
		/* i_addr is read anew: no extent the check could judge */
		memset(&nd->i.i_ext, 0, sizeof(nd->i.i_ext));
		nd->i.i_inline &= (uint8_t)~f->value;
		nd->i.i_inline |= (uint8_t)f->fofs;
		if (f->slot)
			for (int k = 0; k < F2FS_DEF_NIDS_PER_INODE; k++)
				nd->i.i_nid[k] = 0;
		break;
	case FX_EXTENT:
		memset(&nd->i.i_ext, 0, sizeof(nd->i.i_ext));
		break;
	case FX_INLINE_RESERVED:
		/* after the i_extra_isize fixes: the slot where they put it */
		f2fs_inode_set_addr(&nd->i, 0, F2FS_NULL_ADDR);
		break;
	default:
		break;
	}
	return 0;
}

static bool inode_op(uint8_t op)
{
	return op >= FX_RESEAL && op <= FX_INLINE_RESERVED;
}

int rp_extra_isizes(struct rp *p)
{
	const struct ck *ck = p->ck;
	int ret = 0;

	for (size_t i = 0; i < ck->fixes.n && !ret; i++)
		if (ck->fixes.v[i].op == FX_EXTRA_ISIZE && p->fix[ck->fixes.v[i].code])
			ret = apply(p, &ck->fixes.v[i]);
	return ret;
}

int rp_inodes(struct rp *p)
{
	const struct ck *ck = p->ck;
	int ret = 0;

	/* the depth last: it follows the size, which may be fixed too */
	for (int round = 0; round < 2 && !ret; round++)
		for (size_t i = 0; i < ck->fixes.n && !ret; i++) {
			const struct ck_fix *f = &ck->fixes.v[i];

			if (inode_op(f->op) && p->fix[f->code] && (f->op == FX_DEPTH) == (round == 1))
				ret = apply(p, f);
		}
	return ret;
}
