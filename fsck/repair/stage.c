/*
 * The repair's staging cache of nodes: every node a repair changes, whether
 * a fix, the roll-forward recovery, lost+found or the quota rebuild asks
 * for it, is read once into one entry, edited there by all of them, and
 * sealed (footer, inode checksum) and written out of place once, by
 * rp_stage_flush(). One entry per nid, found through a map, so that a node
 * two of them change carries both changes.
 *
 * A power cut after many fsyncs leaves a chain of as many nodes, which the
 * recovery stages; so can a repair of a large volume. Beyond a budget, the
 * content of the nodes used longest ago waits in a spill file, not in
 * memory. Not in the image's free space: the recovery runs before the
 * logs are chosen (which blocks it makes valid decides where they can go
 * on), and a preview (-n) must not write the image at all.
 */
#include <f2fs/format/endian.h>
#include <f2fs/format/inode.h>
#include <f2fs/format/node_ofs.h>
#include <f2fs/fs/nat.h>

#include "repair_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the spill file ------------------------------------------------------- */

static int no_memory(struct rp *p)
{
	return f2fs_fail(p->ck->err, -ENOMEM, "out of memory for the repair's nodes");
}

static void spill_open(struct rp *p)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	p->spill_tried = true;
	p->spill_fd = -1;
	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && (size_t)snprintf(path, sizeof(path), "%s/fsck.f2fs-XXXXXX", dir) < sizeof(path)) {
		/* a file system without O_TMPFILE: a named file, unlinked at once */
		fd = mkstemp(path);
		if (fd >= 0)
			unlink(path);
	}
	p->spill_fd = fd;
}

static int spill_out(struct rp *p, struct rp_snode *s)
{
	if (!s->slot)
		s->slot = ++p->spill_slots;
	if (pwrite(p->spill_fd, s->blk, F2FS_BLKSIZE, (off_t)(s->slot - 1) * F2FS_BLKSIZE) !=
	    F2FS_BLKSIZE)
		return -1;
	free(s->blk);
	s->blk = NULL;
	p->resident--;
	return 0;
}

int rp_stage_load(struct rp *p, struct rp_snode *s)
{
	s->used = ++p->clock;
	if (s->blk)
		return 0;
	if (s->flushed)
		return f2fs_fail(p->ck->err, -EINVAL, "node %u is wanted after it was written", s->nid);
	s->blk = malloc(sizeof(*s->blk));
	if (!s->blk)
		return no_memory(p);
	if (pread(p->spill_fd, s->blk, F2FS_BLKSIZE, (off_t)(s->slot - 1) * F2FS_BLKSIZE) !=
	    F2FS_BLKSIZE) {
		free(s->blk);
		s->blk = NULL;
		return f2fs_fail(p->ck->err, -EIO, "cannot read node %u back from the spill file",
				 s->nid);
	}
	p->resident++;
	return 0;
}

static int older(const void *a, const void *b)
{
	uint32_t x = (*(struct rp_snode *const *)a)->used, y = (*(struct rp_snode *const *)b)->used;

	return x < y ? -1 : x > y;
}

void rp_stage_trim(struct rp *p)
{
	uint32_t budget = p->ck->opt->staged_nodes ? p->ck->opt->staged_nodes : RP_STAGE_RESIDENT;
	struct rp_snode **in;
	size_t n = 0;

	if (p->resident <= budget)
		return;
	if (!p->spill_tried)
		spill_open(p);
	if (p->spill_fd < 0 || !(in = malloc(p->resident * sizeof(*in))))
		return;   /* kept in memory */
	for (size_t i = 0; i < p->snodes.n; i++)
		if (p->snodes.v[i]->blk && n < p->resident)
			in[n++] = p->snodes.v[i];
	qsort(in, n, sizeof(*in), older);
	/* down to half the budget: the next trim is as far away */
	for (size_t i = 0; i < n && p->resident > budget / 2; i++)
		if (spill_out(p, in[i]))
			break;   /* the rest stays in memory */
	free(in);
}

/* ---- entries --------------------------------------------------------------- */

struct rp_snode *rp_stage_find(const struct rp *p, uint32_t nid)
{
	uint32_t at = f2fs_u32map_get(&p->snode_at, nid);

	return at ? p->snodes.v[at - 1] : NULL;
}

/* Keep s (taken over: freed here when it cannot be kept). */
static struct rp_snode *keep(struct rp *p, struct rp_snode *s)
{
	if (f2fs_vec_push(&p->snodes, s)) {
		free(s->blk);
		free(s);
		no_memory(p);
		return NULL;
	}
	p->resident++;
	s->used = ++p->clock;
	if (f2fs_u32map_put(&p->snode_at, s->nid, (uint32_t)p->snodes.n)) {
		no_memory(p);   /* freed with the others */
		return NULL;
	}
	return s;
}

static struct rp_snode *entry_alloc(struct rp *p)
{
	struct rp_snode *s = calloc(1, sizeof(*s));

	if (s)
		s->blk = calloc(1, sizeof(*s->blk));
	if (!s || !s->blk) {
		free(s);
		no_memory(p);
		return NULL;
	}
	return s;
}

/* What the footer and, for an inode, its mode say of the node. */
static void describe(struct rp_snode *s)
{
	s->ofs = le32_get(s->blk->footer.flag) >> F2FS_NODE_OFS_SHIFT;
	s->dir = s->ofs == 0 && s->nid == s->ino &&
		 (le16_get(s->blk->i.i_mode) & F2FS_S_IFMT) == F2FS_S_IFDIR;
}

struct rp_snode *rp_stage_read(struct rp *p, uint32_t nid, uint32_t addr, uint32_t ino,
			       uint8_t version, bool roll)
{
	struct rp_snode *s = entry_alloc(p);

	if (!s)
		return NULL;
	if (f2fs_fs_read_block(p->ck->fs, addr, s->blk, p->ck->err)) {
		free(s->blk);
		free(s);
		return NULL;
	}
	s->nid = nid;
	s->ino = ino ? ino : le32_get(s->blk->footer.ino);
	s->old_addr = addr;
	s->version = version;
	s->roll = roll;
	describe(s);
	return keep(p, s);
}

struct rp_snode *rp_stage_new(struct rp *p, uint32_t nid, uint32_t ino, uint32_t ofs,
			      uint8_t version, bool roll)
{
	struct rp_snode *s = entry_alloc(p);

	if (!s)
		return NULL;
	s->nid = nid;
	s->ino = ino ? ino : nid;
	s->ofs = ofs;
	s->version = version;
	s->roll = roll;
	s->fresh = true;
	s->edited = true;
	f2fs_node_footer_set(s->blk, nid, s->ino, ofs, 0, 0, 0);
	p->used[nid / F2FS_NAT_ENTRY_PER_BLOCK]++;
	p->added++;
	return keep(p, s);
}

void rp_stage_drop(struct rp *p, struct rp_snode *s)
{
	if (s->fresh) {
		p->added--;
	} else {
		rp_release(p, s->old_addr);
		p->freed++;
	}
	p->used[s->nid / F2FS_NAT_ENTRY_PER_BLOCK]--;
	s->freed = true;
	s->ino = 0;
	if (s->blk)
		s->blk->footer.ino = 0;
}

static int revive(struct rp *p, struct rp_snode *s)
{
	struct ck *ck = p->ck;

	if (s->fresh || !s->freed)
		return f2fs_fail(ck->err, -ENOENT, "node %u is not in use", s->nid);
	if (rp_stage_load(p, s) || f2fs_fs_read_block(ck->fs, s->old_addr, s->blk, ck->err))
		return ck->err->code;
	f2fs_msb_set(p->owned, s->old_addr - ck->main_blkaddr);
	f2fs_msb_set(p->nodemap, s->old_addr - ck->main_blkaddr);
	p->freed--;
	p->used[s->nid / F2FS_NAT_ENTRY_PER_BLOCK]++;
	s->freed = false;
	s->ino = le32_get(s->blk->footer.ino);
	describe(s);
	return 0;
}

int rp_stage_ready(struct rp *p, struct rp_snode *s)
{
	return s->freed ? revive(p, s) : rp_stage_load(p, s);
}

/* *same: the node is only read, equal to its old block but for the footer.
 * False on a read failure (ck.err). */
static bool unchanged(struct rp *p, const struct rp_snode *s, bool *same)
{
	struct f2fs_node old;

	*same = false;
	if (s->edited || s->fresh || s->freed)
		return true;
	if (f2fs_fs_read_block(p->ck->fs, s->old_addr, &old, p->ck->err))
		return false;
	*same = !memcmp(&old, s->blk, sizeof(old) - sizeof(old.footer));
	return true;
}

/* ---- the flush ------------------------------------------------------------- */

/* The recovery writes a node the way the kernel's recovery leaves it: the
 * footer made from what the recovery knows (the NAT's ino; cold unless a
 * directory's); a fix keeps the footer it edited, but for the marks that
 * would make it part of a roll-forward chain. */
static void seal(struct rp *p, struct rp_snode *s, uint32_t addr)
{
	struct ck *ck = p->ck;
	struct f2fs_node *nd = s->blk;
	uint64_t ver = le64_get(ck->cp->checkpoint_ver) + 1;

	/* the next checkpoint's version: under the old checkpoint this block
	 * ends the roll-forward chain rather than joining it */
	if (s->roll) {
		f2fs_node_footer_set(nd, s->nid, s->ino, s->ofs, s->dir ? 0 : F2FS_NODE_COLD, ver,
				     addr + 1);
	} else {
		nd->footer.cp_ver = le64_put(ver);
		nd->footer.next_blkaddr = le32_put(addr + 1);
		nd->footer.flag = le32_put(le32_get(nd->footer.flag) &
					   ~(uint32_t)(F2FS_NODE_FSYNC | F2FS_NODE_DENT));
	}
	if (le32_get(nd->footer.ino) == s->nid && !(le32_get(nd->footer.flag) >> F2FS_NODE_OFS_SHIFT))
		f2fs_inode_seal(nd, ck->features, f2fs_fs_inode_crc_seed(ck->fs));
}

static int node_log(const struct rp_snode *s)
{
	enum f2fs_node_kind k;

	if (!s->roll)
		return F2FS_SEG_WARM_NODE;
	k = f2fs_node_kind(s->ofs);
	if (k == F2FS_NODE_INDIRECT || k == F2FS_NODE_DOUBLE)
		return F2FS_SEG_COLD_NODE;
	return s->dir ? F2FS_SEG_HOT_NODE : F2FS_SEG_WARM_NODE;
}

static int flush_one(struct rp *p, struct rp_snode *s)
{
	uint32_t addr, ino;
	uint8_t version = s->version;
	bool same;
	int ret;

	if (s->freed) {
		struct f2fs_nat_dirty d = { s->nid, 0, F2FS_NULL_ADDR, (uint8_t)(s->version + 1) };

		return s->fresh ? 0 : rp_stage_nat(p, &d);
	}
	if (!unchanged(p, s, &same))
		return p->ck->err->code;
	if (same)
		return 0;   /* only read: left where it is */
	if (!s->roll && (ret = rp_nat_version(p, s->nid, &version)))
		return ret;
	ret = rp_place(p, node_log(s), 1, &addr);
	if (ret)
		return ret;
	if (!s->fresh)
		rp_release(p, s->old_addr);
	seal(p, s, addr);
	ino = s->roll ? s->ino : le32_get(s->blk->footer.ino);
	ret = rp_write(p, &(struct rp_placed){ addr, s->nid, 0, 0, true }, s->blk);
	if (!ret)
		ret = rp_stage_nat(p, &(struct f2fs_nat_dirty){ s->nid, ino, addr, version });
	return ret;
}

int rp_stage_flush(struct rp *p)
{
	int ret = 0;

	for (size_t i = 0; i < p->snodes.n && !ret; i++) {
		struct rp_snode *s = p->snodes.v[i];

		if (s->flushed)
			continue;
		ret = rp_stage_load(p, s);
		if (ret)
			break;
		ret = flush_one(p, s);
		/* written (or, unchanged, not needed): no edit may follow */
		free(s->blk);
		s->blk = NULL;
		s->flushed = true;
		p->resident--;
	}
	return ret;
}

void rp_stage_free(struct rp *p)
{
	for (size_t i = 0; i < p->snodes.n; i++) {
		free(p->snodes.v[i]->blk);
		free(p->snodes.v[i]);
	}
	f2fs_vec_free(&p->snodes);
	f2fs_u32map_free(&p->snode_at);
	f2fs_u32map_free(&p->nat_at);
	if (p->spill_tried && p->spill_fd >= 0)
		close(p->spill_fd);
	p->spill_tried = false;
	p->resident = 0;
}
