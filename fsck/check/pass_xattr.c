/*
 * Checker, extended attributes. An inode's xattrs live in one logical area:
 * its inline xattr words (the tail of i_addr, when INLINE_XATTR is set)
 * followed by the first 4072 bytes of its xattr node (i_xattr_nid), the part
 * before the node footer. The area starts with a 24-byte header (magic,
 * refcount, reserved) and holds entries of 4 bytes (name index, name length,
 * value size) plus name and value, each padded to 4 bytes; 4 zero bytes end
 * the list, and the kernel refuses an entry that does not fit in the area.
 * A list may fill the area to its last byte: the kernel reads the area into
 * a zeroed buffer with padding, whose zeros end it (seen on kernel images). Names are the part after the index's prefix, so only the
 * POSIX ACL indexes (whose whole name is the prefix) have empty ones.
 *
 * Inline-only areas are checked in the walk; an inode with an xattr node
 * keeps a copy of its inline part until the node is read after the walk.
 */
#include <f2fs/format/acl.h>
#include <f2fs/format/endian.h>

#include <f2fs/util/sort.h>

#include "ck.h"
#include "passes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define XHDR sizeof(struct f2fs_xattr_header)
#define XENT sizeof(struct f2fs_xattr_entry)
#define XNODE_BYTES (F2FS_BLKSIZE - sizeof(struct f2fs_node_footer))
#define XAREA_MAX (4 * F2FS_DEF_ADDRS_PER_INODE + XNODE_BYTES)
/* most entries an area can hold (each takes at least 4 bytes) */
#define XENT_MAX ((XAREA_MAX - XHDR) / 4)

static int known_index(uint8_t idx)
{
	switch (idx) {
	case F2FS_XATTR_INDEX_USER: case F2FS_XATTR_INDEX_POSIX_ACL_ACCESS:
	case F2FS_XATTR_INDEX_POSIX_ACL_DEFAULT: case F2FS_XATTR_INDEX_TRUSTED:
	case F2FS_XATTR_INDEX_LUSTRE: case F2FS_XATTR_INDEX_SECURITY:
	case F2FS_XATTR_INDEX_ADVISE: case F2FS_XATTR_INDEX_ENCRYPTION:
	case F2FS_XATTR_INDEX_VERITY:
		return 1;
	}
	return 0;
}

/* Note the fix of the area of inode ino (xattr node xnid, or 0). */
static void xfix(struct ck *ck, enum f2fs_problem_code code, enum ck_fix_op op, uint32_t ino,
		 uint32_t xnid, uint32_t off, uint32_t size)
{
	if (ck_fix_add(ck, code, op, ino, off, size, xnid))
		ck->hook_nomem = 1;
}

/* An ACL entry (at off, size bytes) the kernel cannot use: under a name no
 * lookup asks for, or a value it refuses, which fails every permission
 * check that consults it. The repair drops it: the mode bits remain. */
static void check_acl(struct ck *ck, uint32_t ino, uint32_t xnid, const uint8_t *e, uint32_t n,
		      uint32_t off, uint32_t size)
{
	uint32_t nlen = e[1], vlen = (uint32_t)e[2] | (uint32_t)e[3] << 8;
	const char *why = nlen ? "it has a name, which no lookup of an ACL asks for" :
			  f2fs_acl_refusal(e + XENT + nlen, vlen);

	if (!why)
		return;
	ck_pb(ck, F2FS_PB_XATTR_BAD_ACL, AT(A_INO(ino), A_FOUND(e[0])),
	      "inode %u: ACL xattr %u at byte %u (index %u): %s", ino, n, off, e[0], why);
	xfix(ck, F2FS_PB_XATTR_BAD_ACL, FX_XATTR_DROP, ino, xnid, off, size);
}

/* Report an entry at off (size bytes) whose index and name an earlier one
 * has: a lookup would only ever find the first, so the repair drops it.
 * Lists are short, so pairs are compared. */
static void check_dup(struct ck *ck, uint32_t ino, uint32_t xnid, const uint8_t *a,
		      const uint32_t *seen, uint32_t n, uint32_t off, uint32_t size)
{
	for (uint32_t k = 0; k < n; k++) {
		const uint8_t *e = a + seen[k];

		if (e[0] == a[off] && e[1] == a[off + 1] && !memcmp(e + XENT, a + off + XENT, e[1])) {
			ck_pb(ck, F2FS_PB_XATTR_DUPLICATE, AT(A_INO(ino), A_EXP(seen[k]), A_FOUND(off)),
			      "inode %u: the xattr at byte %u (index %u, %u-byte name) repeats the one at byte %u",
			      ino, off, a[off], a[off + 1], seen[k]);
			xfix(ck, F2FS_PB_XATTR_DUPLICATE, FX_XATTR_DROP, ino, xnid, off, size);
			return;
		}
	}
}

/* Check one whole area (inline part + node part) of inode ino. */
static void check_area(struct ck *ck, uint32_t ino, uint32_t xnid, const uint8_t *a,
		       uint32_t len)
{
	const char *where = xnid ? "inline + node" : "inline";
	uint32_t magic, off = XHDR, n = 0;
	uint32_t seen[XENT_MAX];   /* offsets of the entries before */

	if (len < XHDR + 4) {
		/* too small for a header: only an unused (zero) area is fine */
		for (uint32_t k = 0; k < len; k++)
			if (a[k]) {
				ck_pb(ck, F2FS_PB_XATTR_HEADER, AT(A_INO(ino), A_FOUND(len)),
				      "inode %u: %u-byte %s xattr area holds data but no room for a header",
				      ino, len, where);
				xfix(ck, F2FS_PB_XATTR_HEADER, FX_XATTR_CUT, ino, xnid, 0, 0);
				return;
			}
		return;
	}
	magic = le32_load(a);
	/* The kernel writes the magic with the first entry but never reads
	 * it: an empty list under any header is no xattrs (sload.f2fs leaves
	 * a data pointer there), and entries under a wrong one still read. */
	if (le32_load(a + XHDR) == 0)
		return;
	if (magic != F2FS_XATTR_MAGIC)
		ck_pb(ck, F2FS_PB_XATTR_HEADER,
		      AT(A_INO(ino), A_EXP(F2FS_XATTR_MAGIC), A_FOUND(magic)),
		      "inode %u: %s xattr area has magic 0x%08x, not 0x%08x", ino, where, magic,
		      F2FS_XATTR_MAGIC);
	if (magic != F2FS_XATTR_MAGIC)
		xfix(ck, F2FS_PB_XATTR_HEADER, FX_XATTR_MAGIC, ino, xnid, 0, 0);
	for (;; n++) {
		uint32_t nlen, vlen, size;
		uint8_t idx;

		if (off + 4 > len || le32_load(a + off) == 0)
			return;   /* the end mark, or the area's end */
		idx = a[off];
		nlen = a[off + 1];
		vlen = (uint32_t)a[off + 2] | (uint32_t)a[off + 3] << 8;
		size = (XENT + nlen + vlen + F2FS_XATTR_ALIGN - 1) & ~(F2FS_XATTR_ALIGN - 1);
		if (off + size > len) {
			ck_pb(ck, F2FS_PB_XATTR_ENTRY_BOUNDS,
			      AT(A_INO(ino), A_EXP(len - off), A_FOUND(size)),
			      "inode %u: xattr %u at byte %u (name %u, value %u bytes) runs past the %u-byte %s area",
			      ino, n, off, nlen, vlen, len, where);
			/* what follows cannot be found: the area ends here */
			xfix(ck, F2FS_PB_XATTR_ENTRY_BOUNDS, FX_XATTR_CUT, ino, xnid, off, 0);
			return;
		}
		/* POSIX ACLs are stored under their index with no name */
		if (!known_index(idx) || (nlen == 0 && idx != F2FS_XATTR_INDEX_POSIX_ACL_ACCESS &&
					  idx != F2FS_XATTR_INDEX_POSIX_ACL_DEFAULT)) {
			ck_pb(ck, F2FS_PB_XATTR_BAD_NAME, AT(A_INO(ino), A_FOUND(nlen ? idx : 0)),
			      nlen ? "inode %u: xattr %u at byte %u has unknown name index %u" :
			      "inode %u: xattr %u at byte %u has an empty name (index %u)",
			      ino, n, off, idx);
			/* a broken list is kept up to its first bad entry */
			xfix(ck, F2FS_PB_XATTR_BAD_NAME, FX_XATTR_CUT, ino, xnid, off, 0);
		}
		else if (idx == F2FS_XATTR_INDEX_POSIX_ACL_ACCESS ||
			 idx == F2FS_XATTR_INDEX_POSIX_ACL_DEFAULT)
			check_acl(ck, ino, xnid, a + off, n, off, size);
		check_dup(ck, ino, xnid, a, seen, n, off, size);
		seen[n] = off;
		off += size;
	}
}

void ck_xattr_inode(struct ck *ck, uint32_t ino, const struct f2fs_node *nd, uint32_t xwords)
{
	const struct f2fs_inode *i = &nd->i;
	uint32_t xnid = le32_get(i->i_xattr_nid);
	uint32_t len = (i->i_inline & F2FS_INLINE_XATTR) ? 4 * xwords : 0;
	const uint8_t *area = (const uint8_t *)&i->i_addr[F2FS_DEF_ADDRS_PER_INODE - xwords];
	struct ck_xpend *p;

	if (!xnid) {
		if (len)
			check_area(ck, ino, 0, area, len);
		return;
	}
	if (f2fs_vec_reserve(&ck->xpend, ck->xpend.n + 1)) {
		ck->hook_nomem = 1;
		return;
	}
	p = &ck->xpend.v[ck->xpend.n];
	*p = (struct ck_xpend){ ino, xnid, len, NULL };
	if (len) {
		p->inline_copy = malloc(len);
		if (!p->inline_copy) {
			ck->hook_nomem = 1;
			return;
		}
		memcpy(p->inline_copy, area, len);
	}
	ck->xpend.n++;
}

/* ---- after the walk: areas that continue in an xattr node ---------------- */

static int xnode_cb(struct ck *ck, uint32_t item, uint32_t addr, const uint8_t *blk, void *arg)
{
	const struct ck_xpend *p = &ck->xpend.v[item];
	uint8_t *area = arg;

	(void)addr;
	/* the walk read this block already and found it to be p's xattr node */
	if (p->inline_len)
		memcpy(area, p->inline_copy, p->inline_len);
	memcpy(area + p->inline_len, blk, XNODE_BYTES);
	check_area(ck, p->ino, p->xnid, area, p->inline_len + (uint32_t)XNODE_BYTES);
	return 0;
}

/* An xattr node the walk read that cannot be read again: its area goes
 * unchecked. */
static int xnode_bad(struct ck *ck, uint32_t item, uint32_t addr, const struct f2fs_error *e,
		     void *arg)
{
	(void)arg;
	ck_node_unreadable(ck, ck->xpend.v[item].xnid, addr, e);
	return 0;
}

int ck_xattr_check(struct ck *ck)
{
	uint64_t *keys;
	uint8_t *area;
	size_t n = 0;
	int ret;

	if (!ck->xpend.n)
		return 0;
	keys = malloc(ck->xpend.n * sizeof(*keys));
	area = malloc(XAREA_MAX);
	if (!keys || !area) {
		free(keys);
		free(area);
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for xattr nodes");
	}
	for (size_t k = 0; k < ck->xpend.n; k++) {
		const struct ck_xpend *p = &ck->xpend.v[k];
		uint32_t addr = ck_rec_xattr_node(ck, p->xnid, p->ino);

		/* nodes that are not this inode's xattr node are reported by the
		 * walk (inode.xattr_nid); their content means nothing here */
		if (addr)
			keys[n++] = (uint64_t)addr << 32 | (uint32_t)k;
	}
	f2fs_sort_u64(keys, n);
	ret = ck_read_sorted(ck, keys, n, "xattrs", xnode_cb, xnode_bad, area);
	free(keys);
	free(area);
	return ret;
}

void ck_xattr_free(struct ck *ck)
{
	for (size_t i = 0; i < ck->xpend.n; i++)
		free(ck->xpend.v[i].inline_copy);
	f2fs_vec_free(&ck->xpend);
}
