/*
 * Roll-forward recovery in the repair. After a power cut, the newest state
 * of fsync'd files is in the chain of node blocks written after the
 * checkpoint (pass_roll.c follows it). A mount replays that chain before
 * anything else; a repair that wrote its checkpoint first would make the
 * kernel skip it. So the repair replays it itself, with the kernel's rules
 * (fs/f2fs/recovery.c), into its own transaction:
 *   1. the inodes to recover: those with an fsync-marked node on the chain;
 *      an inode block with a dentry mark whose inode the checkpoint does
 *      not have makes a new inode (the kernel's recover_inode_page);
 *   2. the chain again, in order, for those inodes up to their last
 *      fsync-marked node: an inode block gives the inode's fields (mode,
 *      owner, size, times, flags, inline xattrs and data), the last one with
 *      a dentry mark its name in its parent directory; every node gives its
 *      data pointers, applied onto the node the inode's tree has at that
 *      place: a pointer that differs replaces the old one (whose block is
 *      freed), NULL truncates, NEW_ADDR reserves; a block the recovery gave
 *      to another pointer before leaves that one; an xattr node replaces
 *      the inode's.
 * The edited nodes and directory blocks are written out of place at the
 * end; the chain's own blocks stay untouched (and out of the logs' reach)
 * until the new checkpoint commits, so that an interrupted repair leaves
 * the kernel its chain. What the kernel would refuse (its recovery then
 * fails the mount) and what is not done here yet (compressed or encrypted
 * files, a name taken by another inode) stop the recovery before anything
 * is staged: the repair then keeps the chain for the kernel.
 */
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/format/node_ofs.h>
#include <f2fs/fs/nat.h>

#include "../../check/passes.h"
#include "../repair.h"
#include "roll_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- blocks ------------------------------------------------------------ */

/* An inode's largest extent covering a changed block no longer says
 * where the file's blocks are: the kernel drops it too. */
static void drop_extent(struct rp_snode *inode, uint64_t fofs)
{
	struct f2fs_extent *e = &inode->blk->i.i_ext;

	if (fofs >= le32_get(e->fofs) && fofs < (uint64_t)le32_get(e->fofs) + le32_get(e->len))
		memset(e, 0, sizeof(*e));
}


/* The kernel's truncation of one pointer: its block is freed and the
 * inode counts one block less (NEW_ADDR included). */
static int truncate_ptr(struct rp_roll *r, struct rp_snode *n, uint32_t pos)
{
	uint32_t src = rr_ptr(n, pos);

	if (src == F2FS_NULL_ADDR)
		return 0;
	rr_set_ptr(n, pos, F2FS_NULL_ADDR);
	rr_drop_block(r, src);
	return rr_add_blocks(r, n->ino, -1);
}

static int reserve_ptr(struct rp_roll *r, struct rp_snode *n, uint32_t pos)
{
	rr_set_ptr(n, pos, F2FS_NEW_ADDR);
	r->p->new_addrs++;
	return rr_add_blocks(r, n->ino, 1);
}

/* The kernel's check_index_in_prev_nodes: dest, valid already, leaves the
 * pointer that had it (one the recovery set before). */
static int take_from_prev(struct rp_roll *r, uint32_t dest)
{
	uint32_t at;
	struct rr_own *o;
	struct rp_snode *n;
	int ret;

	if (!f2fs_msb_test(r->p->owned, dest - r->ck->main_blkaddr))
		return 0;
	at = f2fs_u32map_get(&r->own_at, dest);
	if (!at || !r->owns.v[at - 1].addr)
		return rr_stop(r, "chain block 0x%x is in use under the checkpoint", dest);
	o = &r->owns.v[at - 1];
	n = rr_node_get(r, o->nid, &ret);
	if (!n)
		return ret;
	if (rr_ptr(n, o->idx) == dest)
		return truncate_ptr(r, n, o->idx);
	return 0;
}

static int replace_ptr(struct rp_roll *r, struct rp_snode *n, uint32_t pos, uint32_t src,
		       uint32_t dest)
{
	struct ck *ck = r->ck;
	uint32_t s = ck_segno(ck, dest);
	int ret;

	rr_set_ptr(n, pos, dest);
	rr_drop_block(r, src);
	f2fs_msb_set(r->p->owned, dest - ck->main_blkaddr);
	ck_bit64_set(r->touched, s);
	ret = f2fs_vec_push(&r->owns, (struct rr_own){ dest, n->nid, (uint16_t)pos });
	if (!ret)
		ret = f2fs_u32map_put(&r->own_at, dest, (uint32_t)r->owns.n);
	if (ret)
		return rr_nomem(r);
	ck->r->roll.blocks++;
	return 0;
}

/* ---- the kernel's steps ------------------------------------------------ */

/* recover_inode: the fields the kernel takes from the chain's inode block. */
static void recover_inode(struct rp_roll *r, struct rp_snode *in, const struct f2fs_node *c)
{
	struct f2fs_inode *d = &in->blk->i;
	const struct f2fs_inode *s = &c->i;
	const uint8_t kept = F2FS_PIN_FILE | F2FS_DATA_EXIST;

	d->i_mode = s->i_mode;
	d->i_uid = s->i_uid;
	d->i_gid = s->i_gid;
	if ((s->i_inline & F2FS_EXTRA_ATTR) && (d->i_inline & F2FS_EXTRA_ATTR) &&
	    (r->features & F2FS_FEATURE_PRJQUOTA) &&
	    le16_get(s->extra.i_extra_isize) >= F2FS_EXTRA_ISIZE_PROJID &&
	    le16_get(d->extra.i_extra_isize) >= F2FS_EXTRA_ISIZE_PROJID)
		d->extra.i_projid = s->extra.i_projid;
	d->i_size = s->i_size;
	d->i_atime = s->i_atime;
	d->i_ctime = s->i_ctime;
	d->i_mtime = s->i_mtime;
	d->i_atime_nsec = s->i_atime_nsec;
	d->i_ctime_nsec = s->i_ctime_nsec;
	d->i_mtime_nsec = s->i_mtime_nsec;
	d->i_advise = s->i_advise;
	d->i_flags = s->i_flags;
	if ((le16_get(s->i_mode) & F2FS_S_IFMT) == F2FS_S_IFREG)   /* i_gc_failures */
		memcpy(&d->i_current_depth, &s->i_current_depth, 2);
	d->i_inline = (uint8_t)((d->i_inline & ~kept) | (s->i_inline & kept));
	in->dir = (le16_get(d->i_mode) & F2FS_S_IFMT) == F2FS_S_IFDIR;
}

/* recover_inode_page: a new inode from the chain's, with no blocks yet. */
static int create_inode(struct rp_roll *r, const struct f2fs_node *c, uint32_t ino)
{
	struct rp_snode *n;
	struct f2fs_inode *d;
	int ret;

	n = rr_new_node(r, ino, ino, 0, false, &ret);
	if (!n)
		return ret;
	if (n->nid != ino)
		return rr_stop(r, "inode %u cannot be made again", ino);
	d = &n->blk->i;
	memcpy(d, &c->i, __builtin_offsetof(struct f2fs_inode, i_ext));
	d->i_size = 0;
	d->i_blocks = le64_put(1);
	d->i_links = le32_put(1);
	d->i_xattr_nid = 0;
	d->i_inline = c->i.i_inline & (F2FS_INLINE_XATTR | F2FS_EXTRA_ATTR);
	if (d->i_inline & F2FS_EXTRA_ATTR) {
		uint16_t isize = le16_get(c->i.extra.i_extra_isize);

		d->extra.i_extra_isize = c->i.extra.i_extra_isize;
		if (r->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR)
			d->extra.i_inline_xattr_size = c->i.extra.i_inline_xattr_size;
		if ((r->features & F2FS_FEATURE_PRJQUOTA) && isize >= F2FS_EXTRA_ISIZE_PROJID)
			d->extra.i_projid = c->i.extra.i_projid;
		if ((r->features & F2FS_FEATURE_INODE_CRTIME) && isize >= F2FS_EXTRA_ISIZE_CRTIME) {
			d->extra.i_crtime = c->i.extra.i_crtime;
			d->extra.i_crtime_nsec = c->i.extra.i_crtime_nsec;
		}
	}
	n->dir = (le16_get(d->i_mode) & F2FS_S_IFMT) == F2FS_S_IFDIR;
	r->p->inodes_delta++;
	r->ck->r->roll.created++;
	return 0;
}

/* f2fs_recover_inline_xattr */
static void recover_inline_xattr(struct rp_roll *r, struct rp_snode *in, const struct f2fs_node *c)
{
	struct f2fs_inode *d = &in->blk->i;
	uint32_t words;

	if (!(c->i.i_inline & F2FS_INLINE_XATTR)) {
		d->i_inline &= (uint8_t)~F2FS_INLINE_XATTR;
		return;
	}
	d->i_inline |= F2FS_INLINE_XATTR;
	words = f2fs_inode_inline_xattr_words(d, r->features);
	if (words && words <= F2FS_DEF_ADDRS_PER_INODE)
		memcpy(&d->i_addr[F2FS_DEF_ADDRS_PER_INODE - words],
		       &c->i.i_addr[F2FS_DEF_ADDRS_PER_INODE - words], 4 * words);
}

/* f2fs_recover_xattr_data: the chain's xattr node replaces the inode's. */
static int recover_xattr(struct rp_roll *r, struct rp_snode *in, const struct f2fs_node *c)
{
	uint32_t prev = le32_get(in->blk->i.i_xattr_nid);
	struct rp_snode *x;
	int ret = 0;

	if (prev) {
		struct rp_snode *old = rr_node_get(r, prev, &ret);

		if (!old)
			return ret;
		rr_free_node(r, old);
		in->blk->i.i_xattr_nid = 0;
		ret = rr_add_blocks(r, in->nid, -1);
		if (ret)
			return ret;
	}
	x = rr_new_node(r, le32_get(c->footer.nid), in->nid, F2FS_XATTR_NODE_OFFSET, in->dir, &ret);
	if (!x)
		return ret;
	memcpy(x->blk, c, F2FS_BLKSIZE - sizeof(struct f2fs_node_footer));
	in->blk->i.i_xattr_nid = le32_put(x->nid);
	r->ck->r->roll.xattrs++;
	return 0;
}

/* f2fs_recover_inline_data: 1 when the node's content was inline data
 * (nothing more to do), 0 to go on with its pointers. */
static int recover_inline_data(struct rp_roll *r, struct rp_snode *in, const struct f2fs_node *c,
			       int *ret)
{
	struct f2fs_inode *d = &in->blk->i;
	bool c_inline = rr_is_inode_blk(c) && (c->i.i_inline & F2FS_INLINE_DATA);
	uint32_t off = f2fs_inode_inline_offset(d), bytes = f2fs_inode_inline_bytes(d, r->features);

	*ret = 0;
	if (!(d->i_inline & F2FS_INLINE_DATA) && c_inline) {
		/* the kernel truncates every block first: only a file without
		 * any is done here */
		for (uint32_t k = 0; k < rr_inode_addrs(r, in); k++)
			if (f2fs_inode_get_addr(d, k) != F2FS_NULL_ADDR) {
				rr_stop(r, "inode %u goes back to inline data over its blocks", in->nid);
				return 1;
			}
		for (int k = 0; k < F2FS_DEF_NIDS_PER_INODE; k++)
			if (d->i_nid[k]) {
				rr_stop(r, "inode %u goes back to inline data over its nodes", in->nid);
				return 1;
			}
		d->i_inline |= F2FS_INLINE_DATA;
	}
	if (d->i_inline & F2FS_INLINE_DATA) {
		if (c_inline) {
			memcpy((uint8_t *)d + off, (const uint8_t *)&c->i + off, bytes);
			d->i_inline |= F2FS_INLINE_DATA | F2FS_DATA_EXIST;
			return 1;
		}
		memset((uint8_t *)d + off, 0, bytes);
		d->i_inline &= (uint8_t)~(F2FS_INLINE_DATA | F2FS_DATA_EXIST);
	}
	return 0;
}

/* do_recover_data for chain node c of inode in. */
static int recover_data(struct rp_roll *r, struct rp_snode *in, const struct f2fs_node *c)
{
	uint32_t ofs = rr_footer_ofs(c), count;
	uint64_t start;
	struct rp_snode *dn;
	int ret = 0;

	if (rr_is_inode_blk(c))
		recover_inline_xattr(r, in, c);
	else if (ofs == F2FS_XATTR_NODE_OFFSET)
		return recover_xattr(r, in, c);
	if (recover_inline_data(r, in, c, &ret) || ret)
		return ret;
	dn = rr_locate(r, in, ofs, le32_get(c->footer.nid), true, &ret);
	if (!dn)
		return ret;
	start = f2fs_node_start_bidx(ofs, rr_inode_addrs(r, in));
	count = ofs == 0 ? rr_inode_addrs(r, in) : F2FS_ADDRS_PER_BLOCK;
	for (uint32_t k = 0; k < count && !ret && !r->why[0]; k++, start++) {
		uint32_t src = rr_ptr(dn, k);
		uint32_t dest = ofs == 0 ? f2fs_inode_get_addr(&c->i, k) : le32_get(c->dn.addr[k]);
		bool src_blk = src != F2FS_NULL_ADDR && src != F2FS_NEW_ADDR && src != F2FS_COMPRESS_ADDR;
		bool dest_blk = dest != F2FS_NULL_ADDR && dest != F2FS_NEW_ADDR && dest != F2FS_COMPRESS_ADDR;

		if ((src_blk && !ck_in_main(r->ck, src)) || (dest_blk && !ck_in_main(r->ck, dest)))
			return rr_stop(r, "inode %u block %llu: pointer 0x%x or 0x%x outside the main area: the kernel's recovery fails on it",
				       in->nid, (unsigned long long)start, src, dest);
		if (src == dest)
			continue;
		drop_extent(in, start);
		if (dest == F2FS_NULL_ADDR) {
			ret = truncate_ptr(r, dn, k);
			continue;
		}
		if (!(in->blk->i.i_advise & F2FS_ADVISE_KEEP_SIZE) &&
		    le64_get(in->blk->i.i_size) <= start * F2FS_BLKSIZE)
			in->blk->i.i_size = le64_put((start + 1) * F2FS_BLKSIZE);
		if (dest == F2FS_NEW_ADDR) {
			ret = truncate_ptr(r, dn, k);
			if (!ret)
				ret = reserve_ptr(r, dn, k);
			continue;
		}
		if (!dest_blk)
			continue;   /* COMPRESS_ADDR: not a block the kernel recovers */
		if (src == F2FS_NULL_ADDR) {
			ret = reserve_ptr(r, dn, k);
			src = F2FS_NEW_ADDR;
		}
		if (!ret)
			ret = take_from_prev(r, dest);
		/* taking dest from a pointer of this very node may have cleared src */
		if (!ret && !r->why[0])
			ret = replace_ptr(r, dn, k, rr_ptr(dn, k), dest);
	}
	return ret;
}

/* ---- the chain --------------------------------------------------------- */

static struct rr_ino *ino_entry(struct rp_roll *r, uint32_t ino)
{
	uint32_t at = f2fs_u32map_get(&r->ino_at, ino);

	return at ? &r->inos.v[at - 1] : NULL;
}

/* find_fsync_dnodes: the chain's blocks, the inodes to recover. */
static int find_inodes(struct rp_roll *r)
{
	struct ck *ck = r->ck;
	uint64_t mask, want = ck_chain_version(ck, &mask);
	uint64_t valid = le64_get(ck->cp->valid_block_count);
	uint64_t free_blocks = (uint64_t)ck->main_segs * F2FS_BLOCKS_PER_SEG - valid, steps = 0;
	uint32_t segno = le32_get(ck->cp->cur_node_segno[1]);
	uint16_t blkoff = le16_get(ck->cp->cur_node_blkoff[1]);
	uint64_t addr = ck->main_blkaddr + (uint64_t)segno * F2FS_BLOCKS_PER_SEG + blkoff;
	struct f2fs_node c;
	int ret = 0;

	while (ck_in_main(ck, addr) && !ret && !r->why[0]) {
		uint32_t ino, flag, next;
		struct rr_ino *e;

		rp_stage_trim(r->p);   /* no staged node is held between chain blocks */
		ret = f2fs_fs_read_block(ck->fs, addr, &c, ck->err);
		if (ret)
			break;
		if ((le64_get(c.footer.cp_ver) & mask) != want)
			break;
		/* a chain that comes back to a block (the kernel's mount
		 * recovers none of it) is recovered up to there
		 * (node.roll_forward_loop) */
		if (f2fs_u32map_find(&r->chain_at, (uint32_t)addr))
			break;
		if (f2fs_vec_push(&r->chain, (uint32_t)addr) ||
		    !f2fs_u32map_add(&r->chain_at, (uint32_t)addr))
			return rr_nomem(r);
		ino = le32_get(c.footer.ino);
		flag = le32_get(c.footer.flag);
		next = le32_get(c.footer.next_blkaddr);
		if (flag & F2FS_NODE_FSYNC) {
			e = ino_entry(r, ino);
			if (!e) {
				struct f2fs_nat_info ni;

				if (ino < F2FS_ROOT_INO || ino >= ck->max_nid)
					return rr_stop(r, "chain block 0x%llx names inode %u, out of range",
						       (unsigned long long)addr, ino);
				ret = f2fs_nat_lookup(ck->fs, ino, &ni, NULL, ck->err);
				if (ret)
					break;
				if (rr_is_inode_blk(&c) && (flag & F2FS_NODE_DENT)) {
					if (ni.blkaddr != F2FS_NULL_ADDR)
						return rr_stop(r, "chain block 0x%llx makes inode %u anew, which the checkpoint has: the kernel's recovery fails on it",
							       (unsigned long long)addr, ino);
					ret = create_inode(r, &c, ino);
				} else if (ni.blkaddr == F2FS_NULL_ADDR) {
					goto next;   /* the kernel cannot get the inode: skipped */
				}
				if (!ret && f2fs_vec_push(&r->inos, (struct rr_ino){ .ino = ino }))
					return rr_nomem(r);
				if (!ret && f2fs_u32map_put(&r->ino_at, ino, (uint32_t)r->inos.n))
					return rr_nomem(r);
				e = ret ? NULL : &r->inos.v[r->inos.n - 1];
			}
			if (e) {
				e->last = (uint32_t)addr;
				if (rr_is_inode_blk(&c) && (flag & F2FS_NODE_DENT))
					e->last_dentry = (uint32_t)addr;
			}
		}
next:
		if (++steps >= free_blocks)
			return rr_stop(r, "the roll-forward chain is longer than the free blocks");
		addr = next;
	}
	return ret;
}

static int apply_chain(struct rp_roll *r)
{
	struct ck *ck = r->ck;
	struct f2fs_node c;
	int ret = 0;

	for (size_t k = 0; k < r->chain.n && !ret && !r->why[0]; k++) {
		struct rr_ino *e;
		struct rp_snode *in;
		uint32_t ino;

		rp_stage_trim(r->p);   /* no staged node is held between chain blocks */
		ret = f2fs_fs_read_block(ck->fs, r->chain.v[k], &c, ck->err);
		if (ret)
			break;
		ino = le32_get(c.footer.ino);
		e = ino_entry(r, ino);
		if (!e || e->done)
			continue;
		in = rr_node_get(r, ino, &ret);
		if (!in)
			break;
		/* the kernel makes a checkpoint for every fsync of a compressed
		 * file (its recovery of one is not defined): never on its chain */
		if (le32_get(in->blk->i.i_flags) & F2FS_COMPR_FL)
			return rr_stop(r, "inode %u is compressed, which the kernel never leaves on the chain: its recovery is left to the kernel", ino);
		if (rr_is_inode_blk(&c))
			recover_inode(r, in, &c);
		if (e->last_dentry == r->chain.v[k])
			ret = rr_recover_dentry(r, &c, in);
		if (!ret && !r->why[0])
			ret = recover_data(r, in, &c);
		if (e->last == r->chain.v[k])
			e->done = true;
	}
	return ret;
}

/* Keep the chain's blocks from the logs until the new checkpoint commits:
 * an interrupted repair then leaves the kernel its chain. */
static int guard_chain(struct rp_roll *r)
{
	struct ck *ck = r->ck;

	for (size_t k = 0; k < r->chain.n; k++) {
		uint32_t b = r->chain.v[k] - ck->main_blkaddr;

		if (f2fs_msb_test(r->p->owned, b))
			continue;
		f2fs_msb_set(r->p->owned, b);
		if (f2fs_vec_push(&r->guarded, r->chain.v[k]))
			return rr_nomem(r);
	}
	return 0;
}

int rp_roll_prepare(struct rp *p)
{
	struct ck *ck = p->ck;
	struct rp_roll *r;
	int ret;

	if (!ck_roll_recoverable(ck))
		return 0;
	r = calloc(1, sizeof(*r));
	if (!r)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for the roll-forward recovery");
	p->roll = r;
	r->p = p;
	r->ck = ck;
	r->features = ck->features;
	r->nid_hint = le32_get(ck->cp->next_free_nid);
	if (r->nid_hint <= F2FS_ROOT_INO || r->nid_hint >= ck->max_nid)
		r->nid_hint = F2FS_ROOT_INO + 1;
	r->touched = calloc(ck->main_segs / 64 + 1, sizeof(uint64_t));
	if (!r->touched)
		return rr_nomem(r);
	ret = find_inodes(r);
	if (!ret && !r->why[0])
		ret = apply_chain(r);
	if (!ret && !r->why[0])
		ret = guard_chain(r);
	ck->r->roll.inodes = r->inos.n;
	if (r->why[0])
		snprintf(ck->r->roll.why, sizeof(ck->r->roll.why), "%s", r->why);
	return ret;
}

bool rp_roll_stopped(const struct rp *p)
{
	return p->roll && p->roll->why[0];
}

/* ---- the flush ----------------------------------------------------------- */

int rp_roll_owners(struct rp *p)
{
	struct rp_roll *r = p->roll;
	int ret = 0;

	if (!r || r->why[0])
		return 0;
	/* the owners of the blocks recovered, for their segments' summaries */
	for (size_t k = 0; k < r->owns.n && !ret; k++) {
		const struct rr_own *o = &r->owns.v[k];
		struct rp_snode *n = rp_stage_find(p, o->nid);

		if (!o->addr || !n || n->freed)
			continue;
		ret = rp_stage_load(p, n);
		if (ret)
			break;
		rp_stage_trim(p);   /* n stays: it was used last */
		if (rr_ptr(n, o->idx) != o->addr)
			continue;
		if (f2fs_vec_push(&p->placed, (struct rp_placed){ o->addr, o->nid, o->idx,
								  n->version, false }))
			ret = rr_nomem(r);
	}
	if (!ret)
		p->ck->r->roll.applied = 1;
	return ret;
}

void rp_roll_unguard(struct rp *p)
{
	struct rp_roll *r = p->roll;

	for (size_t k = 0; r && k < r->guarded.n; k++) {
		uint32_t b = r->guarded.v[k] - p->ck->main_blkaddr;

		f2fs_msb_clear(p->owned, b);
		f2fs_msb_clear(p->nodemap, b);
	}
}

bool rp_roll_touched(const struct rp *p, uint32_t segno)
{
	return p->roll && !p->roll->why[0] && ck_bit64(p->roll->touched, segno);
}

void rp_roll_free(struct rp *p)
{
	struct rp_roll *r = p->roll;

	if (!r)
		return;
	f2fs_vec_free(&r->chain);
	f2fs_vec_free(&r->guarded);
	f2fs_vec_free(&r->inos);
	f2fs_vec_free(&r->owns);
	f2fs_u32map_free(&r->ino_at);
	f2fs_u32map_free(&r->own_at);
	f2fs_u32map_free(&r->chain_at);
	free(r->touched);
	free(r);
	p->roll = NULL;
}

/* -n: what the recovery would do, on a scratch repair state. */
int ck_roll_preview(struct ck *ck)
{
	struct rp p = { .ck = ck };
	int ret;

	if (!ck_roll_recoverable(ck))
		return 0;
	p.new_addrs = ck->new_addrs;
	p.used = calloc(ck->nat_blocks + 1, sizeof(*p.used));
	if (!p.used)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for the roll-forward recovery");
	ret = rp_maps_begin(&p);
	if (!ret)
		ret = rp_roll_prepare(&p);
	if (!ret && !rp_roll_stopped(&p))
		ck->r->roll.applied = 2;
	rp_roll_free(&p);
	rp_edits_free(&p);   /* the names it would add went through the edits */
	f2fs_vec_free(&p.t.nat);
	free(p.used);
	rp_maps_free(&p);
	return ret;
}
