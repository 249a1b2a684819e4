/*
 * The repair's NAT changes: entries staged for the transaction, and nodes
 * freed with what only they hold (the data blocks of a direct node, the
 * nodes below an indirect one that belong to the same inode).
 */
#include <f2fs/format/endian.h>
#include <f2fs/format/node_ofs.h>
#include <f2fs/fs/nat.h>

#include "repair_int.h"

#include <errno.h>
#include <stdlib.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

bool rp_lost_claim(const struct ck *ck, uint32_t nid, uint32_t idx)
{
	uint64_t key = (uint64_t)nid << 32 | idx;

	return ck->lost.n && bsearch(&key, ck->lost.v, ck->lost.n, sizeof(key), cmp_u64);
}

int rp_stage_nat(struct rp *p, const struct f2fs_nat_dirty *d)
{
	uint32_t at = f2fs_u32map_get(&p->nat_at, d->nid);

	if (at) {
		p->t.nat.v[at - 1] = *d;
		return 0;
	}
	if (f2fs_vec_push(&p->t.nat, *d) || f2fs_u32map_put(&p->nat_at, d->nid, (uint32_t)p->t.nat.n))
		return f2fs_fail(p->ck->err, -ENOMEM, "out of memory for NAT changes");
	return 0;
}

int rp_nat_version(struct rp *p, uint32_t nid, uint8_t *version)
{
	struct f2fs_nat_info ni;
	uint32_t at = f2fs_u32map_get(&p->nat_at, nid);
	int ret;

	if (at) {
		*version = p->t.nat.v[at - 1].version;
		return 0;
	}
	ret = f2fs_nat_lookup(p->ck->fs, nid, &ni, NULL, p->ck->err);
	*version = ni.version;
	return ret;
}

int rp_stage_nat_free(struct rp *p, uint32_t nid, uint8_t version)
{
	struct f2fs_nat_dirty d = { nid, 0, F2FS_NULL_ADDR, (uint8_t)(version + 1) };

	p->used[nid / F2FS_NAT_ENTRY_PER_BLOCK]--;
	return rp_stage_nat(p, &d);
}

/* Free node nid (a stray one, or one of a file rewritten out of place) and
 * what only it holds: its data blocks, or (an indirect node) the nodes
 * below it that the walk took for its children. */
static int free_node(struct rp *p, uint32_t nid, int depth)
{
	struct ck *ck = p->ck;
	struct ck_nid *n = ck_nid_find(ck, nid);
	struct f2fs_nat_info ni;
	struct f2fs_node blk;
	uint32_t ofs;
	int ret;

	if (!n || !(n->flags & NR_READ) || (n->flags & NR_INODE) || depth > 3)
		return 0;
	ret = f2fs_nat_lookup(ck->fs, nid, &ni, NULL, ck->err);
	if (!ret)
		ret = f2fs_fs_read_block(ck->fs, n->blkaddr, &blk, ck->err);
	if (ret)
		return ret;
	ofs = ck_nid_ofs(ck, n, nid);
	n->flags &= (uint8_t)~NR_READ;   /* freed: not again through another path */
	if (f2fs_node_kind(ofs) == F2FS_NODE_DIRECT) {
		for (uint32_t i = 0; i < F2FS_ADDRS_PER_BLOCK; i++) {
			uint32_t a = le32_get(blk.dn.addr[i]);

			if (a == F2FS_NEW_ADDR && p->new_addrs)
				p->new_addrs--;
			else if (ck_in_main(ck, a) && !rp_lost_claim(ck, nid, i))   /* another's */
				f2fs_msb_clear(p->owned, a - ck->main_blkaddr);
		}
	} else if (f2fs_node_kind(ofs) == F2FS_NODE_INDIRECT ||
		   f2fs_node_kind(ofs) == F2FS_NODE_DOUBLE) {
		for (uint32_t i = 0; i < F2FS_NIDS_PER_BLOCK && !ret; i++) {
			uint32_t c = le32_get(blk.in.nid[i]);
			struct ck_nid *cn = c ? ck_nid_find(ck, c) : NULL;

			if (cn && !(cn->flags & NR_INODE) &&
			    ck_nid_ino(ck, cn, c) == ck_nid_ino(ck, n, nid))
				ret = free_node(p, c, depth + 1);
		}
	}
	if (ret)
		return ret;
	f2fs_msb_clear(p->owned, n->blkaddr - ck->main_blkaddr);
	f2fs_msb_clear(p->nodemap, n->blkaddr - ck->main_blkaddr);
	p->freed++;
	/* a NAT entry naming its own nid counted among the inodes, whatever
	 * its footer says */
	if (ni.ino == nid)
		p->inodes_delta--;
	return rp_stage_nat_free(p, nid, ni.version);
}

int rp_free_node(struct rp *p, uint32_t nid)
{
	return free_node(p, nid, 0);
}
