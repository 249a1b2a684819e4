/*
 * The repair of xattr areas (the layout: pass_xattr.c). The area of an
 * inode, its inline words followed by its xattr node's first 4072 bytes,
 * is put together, changed as the check noted (ck.fixes), and each part
 * that changed goes back into the edited copy of its node:
 *   - a wrong magic is written again (entries under it are kept);
 *   - a broken list (an entry past the end, a bad name) is cut before its
 *     first bad entry: what follows cannot be told from garbage;
 *   - the second of two entries with one name, which no lookup finds, is
 *     taken out and the entries after it move up.
 * Nothing is added: an area only ever shrinks to what was valid in it.
 */
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>

#include "repair_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define XNODE_BYTES (F2FS_BLKSIZE - sizeof(struct f2fs_node_footer))
#define XAREA_MAX (4 * F2FS_DEF_ADDRS_PER_INODE + XNODE_BYTES)

static bool xattr_op(uint8_t op)
{
	return op == FX_XATTR_MAGIC || op == FX_XATTR_CUT || op == FX_XATTR_DROP;
}

/* One inode's area and where its parts live. */
struct xarea {
	uint8_t a[XAREA_MAX];
	uint32_t ilen, len;       /* inline part, whole area */
	uint32_t xnid;
};

static int load(struct rp *p, uint32_t ino, uint32_t xnid, struct xarea *x)
{
	struct f2fs_node buf;
	const struct f2fs_node *nd = rp_node_peek(p, ino, &buf);
	uint32_t words;

	if (!nd)
		return p->ck->err->code ? p->ck->err->code : -EIO;
	words = f2fs_inode_inline_xattr_words(&nd->i, p->ck->features);
	x->ilen = (nd->i.i_inline & F2FS_INLINE_XATTR) ? 4 * words : 0;
	memcpy(x->a, &nd->i.i_addr[F2FS_DEF_ADDRS_PER_INODE - words], x->ilen);
	x->len = x->ilen;
	x->xnid = xnid;
	if (!xnid)
		return 0;
	if (le32_get(nd->i.i_xattr_nid) != xnid)
		return f2fs_fail(p->ck->err, -EINVAL, "inode %u: xattr nid changed under the repair",
				 ino);
	nd = rp_node_peek(p, xnid, &buf);
	if (!nd)
		return p->ck->err->code ? p->ck->err->code : -EIO;
	memcpy(x->a + x->ilen, nd, XNODE_BYTES);
	x->len += (uint32_t)XNODE_BYTES;
	return 0;
}

/* The parts that changed back into their nodes. */
static int store(struct rp *p, uint32_t ino, const struct xarea *x)
{
	struct f2fs_node buf, *nd;
	const struct f2fs_node *old = rp_node_peek(p, ino, &buf);
	uint32_t words;

	if (!old)
		return p->ck->err->code ? p->ck->err->code : -EIO;
	words = f2fs_inode_inline_xattr_words(&old->i, p->ck->features);
	if (x->ilen && memcmp(&old->i.i_addr[F2FS_DEF_ADDRS_PER_INODE - words], x->a, x->ilen)) {
		if (!(nd = rp_node(p, ino)))
			return p->ck->err->code ? p->ck->err->code : -EIO;
		memcpy(&nd->i.i_addr[F2FS_DEF_ADDRS_PER_INODE - words], x->a, x->ilen);
	}
	if (!x->xnid)
		return 0;
	old = rp_node_peek(p, x->xnid, &buf);
	if (!old)
		return p->ck->err->code ? p->ck->err->code : -EIO;
	if (memcmp(old, x->a + x->ilen, XNODE_BYTES)) {
		if (!(nd = rp_node(p, x->xnid)))
			return p->ck->err->code ? p->ck->err->code : -EIO;
		memcpy(nd, x->a + x->ilen, XNODE_BYTES);
	}
	return 0;
}

static int drop_later(const void *a, const void *b)
{
	const struct ck_fix *x = *(const struct ck_fix *const *)a, *y = *(const struct ck_fix *const *)b;

	return x->fofs < y->fofs ? 1 : x->fofs > y->fofs ? -1 : 0;
}

/* Fixes f[0..n) of one inode's area. */
static int fix_area(struct rp *p, const struct ck_fix *f, size_t n)
{
	struct xarea *x = malloc(sizeof(*x));
	const struct ck_fix **drops = calloc(n, sizeof(*drops));
	uint64_t cut = UINT64_MAX;
	size_t nd = 0;
	int ret;

	if (!x || !drops) {
		free(x);
		free(drops);
		return f2fs_fail(p->ck->err, -ENOMEM, "out of memory for an xattr area");
	}
	ret = load(p, f[0].ino, f[0].value, x);
	for (size_t k = 0; k < n && !ret; k++) {
		if (!p->fix[f[k].code])
			continue;
		if (f[k].op == FX_XATTR_MAGIC && x->len >= 4)
			le32_store(x->a, F2FS_XATTR_MAGIC);
		else if (f[k].op == FX_XATTR_CUT && f[k].fofs < cut)
			cut = f[k].fofs;
		else if (f[k].op == FX_XATTR_DROP)
			drops[nd++] = &f[k];
	}
	if (!ret && cut < x->len)
		memset(x->a + cut, 0, x->len - cut);
	/* from the last: the offsets before each stay where the check saw them */
	qsort(drops, nd, sizeof(*drops), drop_later);
	for (size_t k = 0; k < nd && !ret; k++) {
		uint32_t off = (uint32_t)drops[k]->fofs, size = drops[k]->slot;

		if (off >= cut || off + size > x->len)
			continue;
		memmove(x->a + off, x->a + off + size, x->len - off - size);
		memset(x->a + x->len - size, 0, size);
	}
	if (!ret)
		ret = store(p, f[0].ino, x);
	free(x);
	free(drops);
	return ret;
}

int rp_xattrs(struct rp *p)
{
	const struct ck *ck = p->ck;
	int ret = 0;

	/* the check notes one area's fixes together, in one run of records */
	for (size_t i = 0; i < ck->fixes.n && !ret;) {
		const struct ck_fix *f = &ck->fixes.v[i];
		size_t n = 1;

		if (!xattr_op(f->op)) {
			i++;
			continue;
		}
		while (i + n < ck->fixes.n && xattr_op(f[n].op) && f[n].ino == f->ino)
			n++;
		ret = fix_area(p, f, n);
		i += n;
	}
	return ret;
}
