/* Checker, metadata: superblock, checkpoint, SIT, NAT, nat_bits. */
#include "../checker.h"
#include <f2fs/format/crc.h>
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/nat_bits.h>
#include <f2fs/fs/nat_bits_read.h>
#include <f2fs/format/super.h>
#include <f2fs/format/ver_bitmap.h>
#include <f2fs/util/sort.h>

#include "ck.h"
#include "nat_answers.h"
#include "passes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define KNOWN_FEATURES 0x7FFFu
#define NEEDS_EXTRA_ATTR (F2FS_FEATURE_PRJQUOTA | F2FS_FEATURE_INODE_CHKSUM | \
			  F2FS_FEATURE_FLEXIBLE_INLINE_XATTR | \
			  F2FS_FEATURE_INODE_CRTIME | F2FS_FEATURE_COMPRESSION)

/* What the kernel recorded on its way down: errors it met (s_errors, a bit
 * per kind) and why it stopped checkpoints (s_stop_reason, a count per
 * reason), a shutdown aside, which is no sign of damage. */
static void check_sb_errors(struct ck *ck)
{
	const struct f2fs_super_block *sb = ck->sb;
	uint32_t reasons = 0, errors = 0;

	for (size_t k = 1; k < sizeof(sb->s_stop_reason); k++)
		reasons += sb->s_stop_reason[k] != 0;
	for (size_t k = 0; k < sizeof(sb->s_errors); k++)
		errors += (uint32_t)__builtin_popcount(sb->s_errors[k]);
	if (reasons || errors)
		ck_pb(ck, F2FS_PB_SB_ERRORS_RECORDED, AT(A_FOUND(errors)),
		      "the kernel recorded %u kind(s) of error and %u stop reason(s)", errors,
		      reasons);
}

static bool quota_wanted(uint32_t feat, int q)
{
	return (feat & F2FS_FEATURE_QUOTA_INO) && (q < 2 || (feat & F2FS_FEATURE_PRJQUOTA));
}

/* Quota inode numbers as a superblock has them: each type's present when
 * its feature is on, in range, no two types sharing one. */
static bool quota_inos_sane(const struct ck *ck, const struct f2fs_super_block *sb)
{
	for (int q = 0; q < F2FS_MAX_QUOTAS; q++) {
		uint32_t qi = le32_get(sb->qf_ino[q]);

		if (quota_wanted(ck->features, q) != (qi != 0) ||
		    (qi && (qi <= F2FS_ROOT_INO || qi >= ck->max_nid)))
			return false;
		for (int r = 0; r < q; r++)
			if (qi && le32_get(sb->qf_ino[r]) == qi)
				return false;
	}
	return true;
}

/* The quota inodes the check follows (ck->qf_ino): the superblock's, or,
 * when they are not sane (a type without its inode, one out of range, two
 * types sharing one: a one-field corruption no mkfs or kernel makes), the
 * other copy's if they are and it validates: the repair writes them into
 * both. */
static void choose_quota_inos(struct ck *ck, const struct f2fs_super_block *copies)
{
	const struct f2fs_super_block *use = ck->sb;
	int in_use = f2fs_fs_sb_copy(ck->fs, NULL);
	struct f2fs_error e;

	if (copies && (in_use == 0 || in_use == 1) && !quota_inos_sane(ck, ck->sb) &&
	    le32_get(copies[1 - in_use].feature) == ck->features &&
	    quota_inos_sane(ck, &copies[1 - in_use]) &&
	    !f2fs_sb_validate(&copies[1 - in_use], 0, &e))
		use = &copies[1 - in_use];
	for (int q = 0; q < F2FS_MAX_QUOTAS; q++)
		ck->qf_ino[q] = le32_get(use->qf_ino[q]);
}

static void check_sb(struct ck *ck)
{
	const struct f2fs_super_block *sb = ck->sb;
	const struct f2fs_error *why;
	struct f2fs_super_block *other;
	struct f2fs_error e;
	uint32_t feat = ck->features;

	if (f2fs_fs_sb_copy(ck->fs, &why) == 1)
		ck_pb(ck, F2FS_PB_SB_PRIMARY_INVALID, AT(A_BLK(0)),
		      "superblock copy 0 rejected: %s", why ? why->msg : "?");
	other = malloc(2 * sizeof(*other));
	if (other && (f2fs_dev_pread(f2fs_fs_dev(ck->fs), F2FS_SUPER_OFFSET, &other[0],
				     sizeof(*other), &e) ||
		      f2fs_dev_pread(f2fs_fs_dev(ck->fs), F2FS_BLKSIZE + F2FS_SUPER_OFFSET,
				     &other[1], sizeof(*other), &e))) {
		free(other);
		other = NULL;
	}
	if (other && memcmp(&other[0], &other[1], sizeof(*other)) &&
	    f2fs_fs_sb_copy(ck->fs, NULL) == 0)
		ck_pb(ck, F2FS_PB_SB_COPIES_DIFFER, AT(A_BLK(1)),
		      "superblock copy 1 differs from copy 0");
	choose_quota_inos(ck, other);
	free(other);
	if (feat & ~KNOWN_FEATURES)
		ck_pb(ck, F2FS_PB_SB_UNKNOWN_FEATURE, AT(A_FOUND(feat & ~KNOWN_FEATURES)),
		      "unknown feature bits 0x%x", feat & ~KNOWN_FEATURES);
	if ((feat & NEEDS_EXTRA_ATTR) && !(feat & F2FS_FEATURE_EXTRA_ATTR))
		ck_pb(ck, F2FS_PB_SB_FEATURE_DEPENDENCY, AT(A_FOUND(feat)),
		      "features 0x%x need extra_attr", feat & NEEDS_EXTRA_ATTR);
	if (!(feat & F2FS_FEATURE_SB_CHKSUM) && le32_get(sb->checksum_offset))
		ck_pb(ck, F2FS_PB_SB_CHECKSUM_OFFSET,
		      AT(A_EXP(0), A_FOUND(le32_get(sb->checksum_offset))),
		      "checksum_offset %u without the sb_checksum feature",
		      le32_get(sb->checksum_offset));
	check_sb_errors(ck);
	for (int q = 0; q < F2FS_MAX_QUOTAS; q++) {
		uint32_t qi = le32_get(sb->qf_ino[q]);
		bool want = quota_wanted(feat, q);

		if ((want && !qi) || (!want && qi) ||
		    (qi && (qi <= F2FS_ROOT_INO || qi >= ck->max_nid)))
			ck_pb(ck, F2FS_PB_SB_QUOTA_INO, AT(A_FOUND(qi)),
			      "quota inode %d is %u with quota features 0x%x%s", q, qi,
			      feat & (F2FS_FEATURE_QUOTA_INO | F2FS_FEATURE_PRJQUOTA),
			      ck->qf_ino[q] != qi ? "; the other superblock copy's are taken" : "");
		for (int r = 0; r < q; r++)
			if (qi && le32_get(sb->qf_ino[r]) == qi)
				ck_pb(ck, F2FS_PB_SB_QUOTA_INO, AT(A_FOUND(qi)),
				      "quota inodes %d and %d are both %u%s", r, q, qi,
				      ck->qf_ino[q] != qi || ck->qf_ino[r] != qi ?
				      "; the other superblock copy's are taken" : "");
	}
}

/*
 * The pack not in use failed its checks: the kernel skips it and mounts the
 * one in use. Older, it only loses a backup; newer but never committed (a
 * crash cut that checkpoint short), the older pack is the state the kernel
 * had promised; of no age to tell and no footer in its slot, nothing shows
 * that anything committed is lost. All three are warnings (f2fs-tools'
 * resize.f2fs leaves the pack it does not use so, its first block zeroed).
 * Only a pack that shows a checkpoint committed after the one in use (a
 * footer of a later version, or a verified header of one) is an error:
 * the kernel mounts the older pack and what that checkpoint recorded is
 * gone. Packs are named 1 and 2 as on disk; the reason comes last, so that
 * a long one is what the message cuts.
 */
static void check_other_pack(struct ck *ck, const struct f2fs_cp_choice *ch)
{
	uint32_t blk = le32_get(ck->sb->cp_blkaddr) + (uint32_t)(!ch->pack) * F2FS_BLOCKS_PER_SEG;
	unsigned long long in_use = (unsigned long long)ch->version;
	int other = 2 - ch->pack, used = 1 + ch->pack;

	if (ch->other_age == F2FS_CP_OLDER)
		ck_pb(ck, F2FS_PB_CP_BACKUP_PACK_INVALID, AT(A_BLK(blk)),
		      "checkpoint pack %d unusable: %s", other, ch->other_err.msg);
	else if (ch->other_age == F2FS_CP_UNFINISHED)
		ck_pb(ck, F2FS_PB_CP_BACKUP_PACK_INVALID, AT(A_BLK(blk)),
		      "checkpoint pack %d (version %llu) was cut short by a crash; "
		      "using pack %d (version %llu): %s", other,
		      (unsigned long long)ch->other_version, used, in_use, ch->other_err.msg);
	else if (ch->other_age == F2FS_CP_NEWER)
		ck_pb(ck, F2FS_PB_CP_NEWEST_PACK_INVALID, AT(A_BLK(blk)),
		      "checkpoint pack %d (version %llu) is broken; using pack %d (version %llu), "
		      "later changes are lost: %s", other,
		      (unsigned long long)ch->other_version, used, in_use, ch->other_err.msg);
	else
		ck_pb(ck, F2FS_PB_CP_BACKUP_PACK_INVALID, AT(A_BLK(blk)),
		      "checkpoint pack %d (version unknown, no footer in its slot) is "
		      "unusable; using pack %d (version %llu): %s",
		      other, used, in_use, ch->other_err.msg);
}

static void check_cp_fields(struct ck *ck)
{
	const struct f2fs_checkpoint *cp = ck->cp;
	const struct f2fs_cp_choice *ch = f2fs_fs_cp_choice(ck->fs);
	uint32_t rsvd = le32_get(cp->rsvd_segment_count);
	uint32_t ovp = le32_get(cp->overprov_segment_count);
	uint64_t user = le64_get(cp->user_block_count);
	uint32_t nfn = le32_get(cp->next_free_nid);

	if (!ch->other_valid)
		check_other_pack(ck, ch);
	if (ck->ckpt_flags & (F2FS_CP_ERROR | F2FS_CP_FSCK | F2FS_CP_QUOTA_NEED_FSCK))
		ck_pb(ck, F2FS_PB_CP_NEEDS_FSCK, AT(A_FOUND(ck->ckpt_flags)),
		      "checkpoint flags 0x%x ask for a check", ck->ckpt_flags);
	if (rsvd == 0 || ovp < rsvd || ovp >= ck->main_segs)
		ck_pb(ck, F2FS_PB_CP_OVERPROVISION, AT(A_FOUND(ovp)),
		      "reserved %u and overprovision %u segments of %u in main",
		      rsvd, ovp, ck->main_segs);
	else if (!user || user > (uint64_t)(ck->main_segs - ovp) * F2FS_BLOCKS_PER_SEG)
		ck_pb(ck, F2FS_PB_CP_USER_BLOCK_COUNT,
		      AT(A_EXP((uint64_t)(ck->main_segs - ovp) * F2FS_BLOCKS_PER_SEG),
			 A_FOUND(user)),
		      "user_block_count %llu exceeds %llu", (unsigned long long)user,
		      (unsigned long long)(ck->main_segs - ovp) * F2FS_BLOCKS_PER_SEG);
	if (nfn > ck->max_nid || nfn <= F2FS_ROOT_INO)
		ck_pb(ck, F2FS_PB_CP_NEXT_FREE_NID, AT(A_EXP(ck->max_nid), A_FOUND(nfn)),
		      "next_free_nid %u outside (%u, %u]", nfn, F2FS_ROOT_INO, ck->max_nid);
}

/* ---- SIT -------------------------------------------------------------- */

static void apply_sit_entry(struct ck *ck, uint32_t segno, const struct f2fs_sit_entry *se)
{
	struct ck_seg *s = &ck->segs[segno];
	uint16_t v = le16_get(se->vblocks);

	s->vblocks = v & F2FS_SIT_VBLOCKS_MASK;
	s->type = (uint8_t)(v >> F2FS_SIT_VBLOCKS_SHIFT);
	s->mtime = le64_get(se->mtime);
	memcpy(s->map, se->valid_map, sizeof(s->map));
}

static int load_sit(struct ck *ck)
{
	uint32_t bm_bytes;
	const uint8_t *bm = f2fs_fs_sit_bitmap(ck->fs, &bm_bytes);
	uint32_t sit_blocks = (ck->main_segs + F2FS_SIT_ENTRY_PER_BLOCK - 1) / F2FS_SIT_ENTRY_PER_BLOCK;
	uint32_t sit_segs = le32_get(ck->sb->segment_count_sit);
	uint32_t half = f2fs_sit_copy_span(sit_segs);
	uint32_t sit_blkaddr = le32_get(ck->sb->sit_blkaddr);
	const struct f2fs_journal *j = f2fs_fs_sit_journal(ck->fs);
	struct f2fs_dev *dev = f2fs_fs_dev(ck->fs);
	int ret;

	if (sit_blocks > half || sit_blocks > bm_bytes * 8)
		return f2fs_fail(ck->err, -F2FS_E_CORRUPT,
				 "the SIT (%u blocks) cannot describe %u main segments",
				 half, ck->main_segs);
	ck->segs = calloc(ck->main_segs, sizeof(*ck->segs));
	if (!ck->segs)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for %u SIT entries",
				 ck->main_segs);
	for (uint32_t b = 0; b < sit_blocks; ) {
		int copy = f2fs_ver_bit(bm, b);
		uint32_t n = 1;

		while (b + n < sit_blocks && n < CK_IO_BLOCKS && f2fs_ver_bit(bm, b + n) == copy)
			n++;
		ret = f2fs_dev_read(dev, f2fs_sit_copy_addr(sit_blkaddr, sit_segs, b, copy),
				    ck->io, n, ck->err);
		if (ret)
			return ret;
		for (uint32_t k = 0; k < n; k++) {
			const struct f2fs_sit_block *sb = (const void *)(ck->io + (size_t)k * F2FS_BLKSIZE);

			for (uint32_t e = 0; e < F2FS_SIT_ENTRY_PER_BLOCK; e++) {
				uint64_t segno = (uint64_t)(b + k) * F2FS_SIT_ENTRY_PER_BLOCK + e;

				if (segno >= ck->main_segs)
					break;
				apply_sit_entry(ck, (uint32_t)segno, &sb->entries[e]);
			}
		}
		b += n;
		ck->r->stats.sit_blocks_read += n;
		ck_progress(ck, "SIT", b, sit_blocks);
	}
	for (uint32_t k = 0; k < le16_get(j->n_entries); k++) {
		uint32_t segno = le32_get(j->sit_j.entries[k].segno), bits;

		if (segno >= ck->main_segs) {
			ck_pb(ck, F2FS_PB_SIT_JOURNAL, AT(A_SEG(segno), A_EXP(ck->main_segs)),
			      "SIT journal entry %u names segment %u, beyond the %u main segments",
			      k, segno, ck->main_segs);
			continue;
		}
		for (uint32_t e = 0; e < k; e++)
			if (le32_get(j->sit_j.entries[e].segno) == segno) {
				/* the kernel and our loader take the later entry;
				 * a journal rewritten in place could keep the other */
				ck_pb(ck, F2FS_PB_SIT_JOURNAL, AT(A_SEG(segno)),
				      "SIT journal entries %u and %u both name segment %u; the later is used",
				      e, k, segno);
				break;
			}
		/* the kernel checks every entry of the SIT blocks before it
		 * applies the journal, and refuses to mount on a bad one */
		bits = f2fs_sit_map_weight(ck->segs[segno].map);
		if (bits != ck->segs[segno].vblocks)
			ck_pb(ck, F2FS_PB_SIT_VBLOCKS_MAP,
			      AT(A_SEG(segno), A_EXP(bits), A_FOUND(ck->segs[segno].vblocks)),
			      "segment %u: the SIT block's entry under the journal has valid count %u, its map %u blocks",
			      segno, ck->segs[segno].vblocks, bits);
		/* f2fs-tools' fsck checks the type of those entries too (the
		 * kernel does not); a bad type the journal's entry repeats is
		 * reported once, as the entry in use */
		if (ck->segs[segno].type > F2FS_SEG_COLD_NODE &&
		    le16_get(j->sit_j.entries[k].se.vblocks) >> F2FS_SIT_VBLOCKS_SHIFT <= F2FS_SEG_COLD_NODE)
			ck_pb(ck, F2FS_PB_SIT_BAD_TYPE, AT(A_SEG(segno), A_FOUND(ck->segs[segno].type)),
			      "segment %u: the SIT block's entry under the journal has type %u",
			      segno, ck->segs[segno].type);
		apply_sit_entry(ck, segno, &j->sit_j.entries[k].se);
	}
	return 0;
}

static void check_sit_entries(struct ck *ck)
{
	for (uint32_t s = 0; s < ck->main_segs; s++) {
		struct ck_seg *g = &ck->segs[s];
		uint32_t bits = f2fs_sit_map_weight(g->map);

		if (bits != g->vblocks)
			ck_pb(ck, F2FS_PB_SIT_VBLOCKS_MAP,
			      AT(A_SEG(s), A_EXP(bits), A_FOUND(g->vblocks)),
			      "segment %u: valid count %u, valid map has %u blocks",
			      s, g->vblocks, bits);
		if (g->type > F2FS_SEG_COLD_NODE)
			ck_pb(ck, F2FS_PB_SIT_BAD_TYPE, AT(A_SEG(s), A_FOUND(g->type)),
			      "segment %u: type %u", s, g->type);
		ck->sit_valid_total += bits;
	}
}

/* Current segments: range, sharing, SIT type, blocks past the offset. */
static void check_cursegs(struct ck *ck)
{
	const struct f2fs_checkpoint *cp = ck->cp;
	uint32_t segno[F2FS_NR_CURSEG_TYPE];
	uint32_t free_segs = 0;

	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++) {
		int node = t >= F2FS_NR_CURSEG_DATA;
		int k = node ? t - F2FS_NR_CURSEG_DATA : t;
		uint32_t sn = f2fs_cp_log_segno(cp, t), off = f2fs_cp_log_blkoff(cp, t);
		struct ck_seg *g;

		segno[t] = sn;
		/* the kernel appends for any value but SSR's; the repair writes
		 * LFS's */
		if (cp->alloc_type[t] > F2FS_ALLOC_SSR)
			ck_pb(ck, F2FS_PB_CP_CURSEG_RANGE, AT(A_SEG(sn), A_FOUND(cp->alloc_type[t])),
			      "%s log %d: allocation type %u is neither LFS (0) nor SSR (1)",
			      node ? "node" : "data", k, cp->alloc_type[t]);
		if (sn >= ck->main_segs || off >= F2FS_BLOCKS_PER_SEG) {
			ck_pb(ck, F2FS_PB_CP_CURSEG_RANGE, AT(A_SEG(sn), A_FOUND(off)),
			      "%s log %d: segment %u (of %u), next block %u",
			      node ? "node" : "data", k, sn, ck->main_segs, off);
			segno[t] = UINT32_MAX;
			continue;
		}
		for (int u = 0; u < t; u++)
			if (segno[u] == sn)
				ck_pb(ck, F2FS_PB_CP_CURSEG_DUPLICATE, AT(A_SEG(sn)),
				      "logs %d and %d both use segment %u", u, t, sn);
		g = &ck->segs[sn];
		if (!g->cur)
			g->cur = (uint8_t)(t + 1);
		if (g->vblocks && g->type != t)
			ck_pb(ck, F2FS_PB_CP_CURSEG_TYPE, AT(A_SEG(sn), A_EXP(t), A_FOUND(g->type)),
			      "segment %u is current for log type %d but the SIT says type %u",
			      sn, t, g->type);
		/* the kernel writes the next block without looking (and refuses
		 * to mount when it is valid); an LFS log appends, so nothing
		 * past it may be valid either, where an SSR log fills holes */
		for (uint32_t b = off; b < (f2fs_cp_log_ssr(cp, t) ? off + 1 : F2FS_BLOCKS_PER_SEG); b++) {
			uint64_t at = ck->main_blkaddr + (uint64_t)sn * F2FS_BLOCKS_PER_SEG + b;

			if (!f2fs_msb_test(g->map, b))
				continue;
			if (b == off)
				ck_pb(ck, F2FS_PB_CP_CURSEG_BLKOFF,
				      AT(A_SEG(sn), A_BLK(at), A_EXP(off), A_FOUND(b)),
				      "segment %u (log type %d, %s): block %u, the next it writes, is valid",
				      sn, t, f2fs_cp_log_ssr(cp, t) ? "SSR" : "LFS", b);
			else
				ck_pb(ck, F2FS_PB_CP_CURSEG_BLKOFF,
				      AT(A_SEG(sn), A_BLK(at), A_EXP(off), A_FOUND(b)),
				      "segment %u (log type %d): block %u is valid past the next free block %u",
				      sn, t, b, off);
			break;
		}
	}
	for (uint32_t s = 0; s < ck->main_segs; s++)
		if (ck->segs[s].vblocks == 0 && !ck->segs[s].cur)
			free_segs++;
	if (free_segs != le32_get(cp->free_segment_count))
		ck_pb(ck, F2FS_PB_CP_FREE_SEGMENT_COUNT,
		      AT(A_EXP(free_segs), A_FOUND(le32_get(cp->free_segment_count))),
		      "free_segment_count %u, the SIT has %u free segments",
		      le32_get(cp->free_segment_count), free_segs);
	/* valid_block_count also counts blocks reserved as NEW_ADDR (fallocate,
	 * data not yet written at a checkpoint), which the SIT does not mark:
	 * without the tree walk only a count below the SIT's is sure to be
	 * wrong; the full check compares exactly (ck_meta_after_tree). */
	if (ck->sit_valid_total > le64_get(cp->valid_block_count))
		ck_pb(ck, F2FS_PB_CP_VALID_BLOCK_COUNT,
		      AT(A_EXP(ck->sit_valid_total), A_FOUND(le64_get(cp->valid_block_count))),
		      "valid_block_count %llu, the SIT marks %llu blocks valid",
		      (unsigned long long)le64_get(cp->valid_block_count),
		      (unsigned long long)ck->sit_valid_total);
}

/* ---- NAT -------------------------------------------------------------- */

struct jent {
	uint32_t nid;
	uint32_t idx;             /* place in the journal */
	struct f2fs_nat_entry ne;
};

/* By nid; a nid journaled twice keeps its journal order, so that the first
 * copy is the one applied. */
static int jent_less(const void *a, const void *b, void *ctx)
{
	const struct jent *x = a, *y = b;

	(void)ctx;
	return x->nid != y->nid ? x->nid < y->nid : x->idx < y->idx;
}

static int add_nid(struct ck *ck, uint32_t nid, uint32_t ino, uint32_t blkaddr)
{
	struct ck_nid *n;

	if (!ck->nids.cap) {
		/* first guess: the checkpoint's valid_node_count (bounded by
		 * the NAT), so that a consistent image needs no doubling slack */
		uint32_t vn = le32_get(ck->cp->valid_node_count);

		if (vn > 1024 && vn < ck->max_nid && f2fs_vec_reserve(&ck->nids, (size_t)vn + 16))
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for the nid table");
	}
	if (f2fs_vec_reserve(&ck->nids, ck->nids.n + 1))
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for the nid table");
	n = &ck->nids.v[ck->nids.n++];
	memset(n, 0, sizeof(*n));
	n->blkaddr = blkaddr;
	if (ino == nid)
		n->flags = NR_SELF;
	else if (f2fs_vec_push(&ck->nodes, (struct ck_node){ nid, ino, 0, 0 }))
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for the node table");
	ck_bit64_set(ck->nid_used, nid);
	f2fs_msb_set(ck->nodemap, blkaddr - ck->main_blkaddr);
	return 0;
}

/*
 * An entry a node block answers for (nat_answers.c) takes the block's nid
 * and inode: 1 when it does. An entry naming the block of another nid's
 * answer is freed: -1 (counted as in use, as the NAT has it, until the
 * repair frees it).
 */
static int take_answer(struct ck *ck, uint32_t nid, uint32_t *ino, uint32_t *addr)
{
	const struct ck_answer *x = ck_answer_of(ck, nid);
	int ret;

	if (!x) {
		x = *addr != F2FS_NULL_ADDR ? ck_answer_at(ck, *addr) : NULL;
		if (!x || x->nid == nid)
			return 0;
		ck_pb(ck, F2FS_PB_NAT_REBUILT, AT(A_NID(nid), A_INO(*ino), A_BLK(*addr)),
		      "nid %u: NAT entry names block 0x%x, which holds nid %u: freed",
		      nid, *addr, x->nid);
		ret = ck_fix_add(ck, F2FS_PB_NAT_REBUILT, FX_NAT_FREE, *ino, *addr, 0, nid);
		return ret ? ret : -1;
	}
	/* the entry names the block already: which ino is right, its own or
	 * the footer's, is the walk's to judge (with the parent pointer) */
	if (x->blkaddr == *addr && *ino > F2FS_META_INO && *ino < ck->max_nid)
		return 0;
	ck_pb(ck, F2FS_PB_NAT_REBUILT,
	      AT(A_NID(nid), A_INO(x->ino), A_BLK(x->blkaddr), A_EXP(x->blkaddr), A_FOUND(*addr)),
	      "nid %u: NAT entry (ino %u, block 0x%x) rebuilt from node block 0x%x of inode %u%s",
	      nid, *ino, *addr, x->blkaddr, x->ino,
	      x->ties ? " (the newest of blocks of one version: the first found)" : "");
	ret = ck_fix_add(ck, F2FS_PB_NAT_REBUILT, FX_NAT_SET, x->ino, x->blkaddr, x->version, nid);
	*ino = x->ino;
	*addr = x->blkaddr;
	return ret ? ret : 1;
}

/* One effective NAT entry (journal applied). */
static int nat_entry(struct ck *ck, uint32_t nid, const struct f2fs_nat_entry *ne)
{
	uint32_t ino = le32_get(ne->ino), addr = le32_get(ne->block_addr);
	int took = ck->answers ? take_answer(ck, nid, &ino, &addr) : 0;

	if (took < -1 || took > 1)
		return took;
	if (addr != F2FS_NULL_ADDR || nid == 0)
		ck->nat_used[nid / F2FS_NAT_ENTRY_PER_BLOCK]++;
	if (took < 0)
		return 0;
	if (nid == 0) {
		if (addr != F2FS_NULL_ADDR)
			ck_pb(ck, F2FS_PB_NAT_RESERVED, AT(A_NID(0), A_FOUND(addr)),
			      "nid 0 has block address 0x%x", addr);
		return 0;
	}
	/* mkfs gives both {ino: itself, block 1}; f2fs-tools' fsck takes any
	 * other entry for damage, a free one (a zeroed NAT block) included */
	if (nid == F2FS_NODE_INO || nid == F2FS_META_INO) {
		if (addr != 1 || ino != nid)
			ck_pb(ck, F2FS_PB_NAT_RESERVED, AT(A_NID(nid), A_BLK(addr)),
			      "nid %u (reserved) has ino %u, block address 0x%x", nid, ino, addr);
		return 0;
	}
	if (addr == F2FS_NULL_ADDR)
		return 0;
	if (!ck_in_main(ck, addr)) {
		ck_pb(ck, F2FS_PB_NAT_ADDR_OUT_OF_RANGE, AT(A_NID(nid), A_INO(ino), A_BLK(addr)),
		      "nid %u: block address 0x%x outside the main area [0x%x, 0x%llx)",
		      nid, addr, ck->main_blkaddr, (unsigned long long)ck->main_end);
		return ck_fix_add(ck, F2FS_PB_NAT_ADDR_OUT_OF_RANGE, FX_NAT_FREE, ino, addr, 0, nid);
	}
	if (ino == 0 || ino >= ck->max_nid) {
		ck_pb(ck, F2FS_PB_NAT_INO_ZERO, AT(A_NID(nid), A_BLK(addr), A_FOUND(ino)),
		      "nid %u: NAT ino %u is no valid inode number", nid, ino);
		/* the entry is in use all the same: its node's footer will say
		 * whose it is (0 stands for "not known" until then) */
		ino = 0;
	}
	if (ck_claim(ck, addr)) {
		ck_pb(ck, F2FS_PB_NAT_DUPLICATE_BLOCK, AT(A_NID(nid), A_INO(ino), A_BLK(addr)),
		      "nid %u: block 0x%x is already used by another nid", nid, addr);
		return ck_fix_add(ck, F2FS_PB_NAT_DUPLICATE_BLOCK, FX_NAT_FREE, ino, addr, 0, nid);
	}
	{
		const struct ck_seg *g = &ck->segs[ck_segno(ck, addr)];

		if (!ck_sit_valid(ck, addr))
			ck_pb(ck, F2FS_PB_NAT_NOT_VALID_IN_SIT,
			      AT(A_NID(nid), A_INO(ino), A_BLK(addr), A_SEG(ck_segno(ck, addr))),
			      "nid %u: node block 0x%x is not valid in the SIT", nid, addr);
		/* a block the SIT forgot is judged too where its segment
		 * stays a data segment (other blocks in use, or a log) */
		if (!ck_seg_is_node(g->type) &&
		    (ck_sit_valid(ck, addr) || g->vblocks || g->cur))
			ck_pb(ck, F2FS_PB_NAT_SEGMENT_TYPE,
			      AT(A_NID(nid), A_INO(ino), A_BLK(addr), A_SEG(ck_segno(ck, addr)),
				 A_FOUND(g->type)),
			      "nid %u: node block 0x%x is in a segment of type %u",
			      nid, addr, g->type);
	}
	ck->nat_nodes++;
	if (nid == ino)
		ck->nat_inodes++;
	{
		const struct ck_answer *x = took ? ck_answer_of(ck, nid) : NULL;
		uint8_t version = x ? x->version : ne->version;

		if (version && f2fs_u32map_put(&ck->nat_ver, nid, version))
			return f2fs_fail(ck->err, -ENOMEM, "out of memory for NAT versions");
	}
	return add_nid(ck, nid, ino, addr);
}

/* Does NAT block b hold an entry no image can have (a block of garbage,
 * or one hit by a bad write)? The reserved nids are judged on their own. */
static bool nat_block_impossible(const struct ck *ck, uint32_t b, const struct f2fs_nat_block *nb)
{
	for (uint32_t e = 0; e < F2FS_NAT_ENTRY_PER_BLOCK; e++) {
		uint64_t nid = (uint64_t)b * F2FS_NAT_ENTRY_PER_BLOCK + e;
		uint32_t ino = le32_get(nb->entries[e].ino), addr = le32_get(nb->entries[e].block_addr);

		if (nid >= ck->max_nid)
			break;
		if (nid <= F2FS_META_INO || addr == F2FS_NULL_ADDR)
			continue;
		if (!ck_in_main(ck, addr) || ino == 0 || ino >= ck->max_nid)
			return true;
	}
	return false;
}

/* Before the entries of NAT blocks [b, b + n) (in ck->io) are taken: the
 * node blocks that answer for the nids of those holding impossible
 * entries. */
static int answer_impossible(struct ck *ck, uint32_t b, uint32_t n)
{
	uint32_t asked = 0;

	for (uint32_t k = 0; k < n; k++) {
		int ret;

		if (!nat_block_impossible(ck, b + k, (const void *)(ck->io + (size_t)k * F2FS_BLKSIZE)))
			continue;
		ret = ck_nat_ask_block(ck, b + k);
		if (ret)
			return ret;
		asked++;
	}
	return asked ? ck_nat_answer_asked(ck) : 0;
}

static int scan_nat(struct ck *ck)
{
	const struct f2fs_journal *j = f2fs_fs_nat_journal(ck->fs);
	uint32_t nj = le16_get(j->n_entries), ji = 0;
	struct jent js[F2FS_NAT_JOURNAL_ENTRIES];
	uint32_t bm_bytes;
	const uint8_t *bm = f2fs_fs_nat_bitmap(ck->fs, &bm_bytes);
	uint32_t nat_blkaddr = le32_get(ck->sb->nat_blkaddr);
	struct f2fs_dev *dev = f2fs_fs_dev(ck->fs);
	size_t words = ((size_t)ck->max_nid + 63) / 64;
	uint64_t main_blocks = ck->main_end - ck->main_blkaddr;
	int ret;

	ck->nid_used = calloc(words + 1, sizeof(uint64_t));
	ck->nid_base = calloc(words / CK_RANK_SPAN + 1, sizeof(uint32_t));
	ck->nid_rank = calloc(words + 1, sizeof(uint16_t));
	ck->nat_used = calloc(ck->nat_blocks + 1, sizeof(uint16_t));
	ck->owned = calloc((size_t)(main_blocks / 8) + 1, 1);
	ck->nodemap = calloc((size_t)(main_blocks / 8) + 1, 1);
	if (!ck->nid_used || !ck->nid_base || !ck->nid_rank || !ck->nat_used || !ck->owned ||
	    !ck->nodemap)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for the NAT tables");
	for (uint32_t k = 0; k < nj; k++) {
		js[k].nid = le32_get(j->nat_j.entries[k].nid);
		js[k].idx = k;
		js[k].ne = j->nat_j.entries[k].ne;
	}
	f2fs_sort(js, nj, sizeof(js[0]), jent_less, NULL);
	for (uint32_t k = 0; k < nj; k++) {
		if (js[k].nid >= ck->max_nid)
			ck_pb(ck, F2FS_PB_NAT_JOURNAL, AT(A_NID(js[k].nid), A_EXP(ck->max_nid)),
			      "NAT journal names nid %u, beyond the %u nids of the NAT",
			      js[k].nid, ck->max_nid);
		else if (k && js[k].nid == js[k - 1].nid)
			ck_pb(ck, F2FS_PB_NAT_JOURNAL, AT(A_NID(js[k].nid)),
			      "NAT journal holds nid %u twice", js[k].nid);
	}
	for (uint32_t b = 0; b < ck->nat_blocks; ) {
		int copy = f2fs_ver_bit(bm, b);
		uint32_t n = 1;
		uint64_t addr = f2fs_nat_copy_addr(nat_blkaddr, b, copy);

		while (b + n < ck->nat_blocks && n < CK_IO_BLOCKS &&
		       (b + n) % F2FS_BLOCKS_PER_SEG != 0 && f2fs_ver_bit(bm, b + n) == copy)
			n++;
		ret = f2fs_dev_read(dev, addr, ck->io, n, ck->err);
		/* a second run has its answers from the first */
		if (!ret && !ck->given_answers)
			ret = answer_impossible(ck, b, n);
		if (ret)
			return ret;
		for (uint32_t k = 0; k < n; k++) {
			const struct f2fs_nat_block *nb = (const void *)(ck->io + (size_t)k * F2FS_BLKSIZE);

			for (uint32_t e = 0; e < F2FS_NAT_ENTRY_PER_BLOCK; e++) {
				uint64_t nid64 = (uint64_t)(b + k) * F2FS_NAT_ENTRY_PER_BLOCK + e;
				uint32_t nid = (uint32_t)nid64;
				const struct f2fs_nat_entry *ne = &nb->entries[e];

				if (nid64 >= ck->max_nid)
					break;
				while (ji < nj && js[ji].nid < nid)
					ji++;
				if (ji < nj && js[ji].nid == nid)
					ne = &js[ji].ne;
				ret = nat_entry(ck, nid, ne);
				if (ret)
					return ret;
			}
		}
		b += n;
		ck->r->stats.nat_blocks_read += n;
		ck_progress(ck, "NAT", b, ck->nat_blocks);
	}
	{
		uint32_t acc = 0;

		for (size_t w = 0; w <= words; w++) {
			if (w % CK_RANK_SPAN == 0)
				ck->nid_base[w / CK_RANK_SPAN] = acc;
			ck->nid_rank[w] = (uint16_t)(acc - ck->nid_base[w / CK_RANK_SPAN]);
			acc += (uint32_t)__builtin_popcountll(ck->nid_used[w]);
		}
	}
	if (ck->nat_nodes != le32_get(ck->cp->valid_node_count))
		ck_pb(ck, F2FS_PB_CP_VALID_NODE_COUNT,
		      AT(A_EXP(ck->nat_nodes), A_FOUND(le32_get(ck->cp->valid_node_count))),
		      "valid_node_count %u, the NAT has %u nodes in use",
		      le32_get(ck->cp->valid_node_count), ck->nat_nodes);
	if (ck->nat_inodes != le32_get(ck->cp->valid_inode_count))
		ck_pb(ck, F2FS_PB_CP_VALID_INODE_COUNT,
		      AT(A_EXP(ck->nat_inodes), A_FOUND(le32_get(ck->cp->valid_inode_count))),
		      "valid_inode_count %u, the NAT has %u inodes",
		      le32_get(ck->cp->valid_inode_count), ck->nat_inodes);
	return 0;
}

/* ---- nat_bits --------------------------------------------------------- */

static int check_nat_bits(struct ck *ck)
{
	uint32_t bytes = f2fs_nat_bits_bytes(ck->nat_blocks);
	uint32_t total = le32_get(ck->cp->cp_pack_total_block_count);
	uint32_t nblk;
	uint64_t start;
	bool fits = f2fs_fs_nat_bits_where(ck->fs, &nblk, &start);
	uint64_t want = f2fs_fs_nat_bits_want(ck->fs);
	uint8_t *area;
	uint64_t hdr;
	int ret;

	/* The kernel writes nat_bits only at unmount and keeps the flag in later
	 * checkpoints; it checks the header at mount and drops stale bits. So
	 * after a power cut they are stale by design, not damaged. */
	if (!(ck->ckpt_flags & F2FS_CP_NAT_BITS) || !(ck->ckpt_flags & F2FS_CP_UMOUNT))
		return 0;
	if (!fits || total > F2FS_BLOCKS_PER_SEG - nblk) {
		ck_pb(ck, F2FS_PB_NAT_BITS_HEADER, AT(A_FOUND(nblk)),
		      "nat_bits (%u blocks) do not fit after the %u-block pack", nblk, total);
		return 0;
	}
	area = malloc((size_t)nblk * F2FS_BLKSIZE);
	if (!area)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for nat_bits");
	ret = f2fs_fs_nat_bits_read(ck->fs, area, ck->err);
	if (ret)
		goto out;
	hdr = le64_load(area);
	if (hdr != want) {
		ck_pb(ck, F2FS_PB_NAT_BITS_HEADER, AT(A_BLK(start), A_EXP(want), A_FOUND(hdr)),
		      "nat_bits header 0x%016llx, the checkpoint gives 0x%016llx",
		      (unsigned long long)hdr, (unsigned long long)want);
		goto out;
	}
	for (uint32_t b = 0; b < ck->nat_blocks && b / 8 < bytes; b++) {
		uint32_t used = ck->nat_used[b];
		unsigned wrong = f2fs_nat_bits_mismatch(area, ck->nat_blocks, b, used);
		int want_full = used == F2FS_NAT_ENTRY_PER_BLOCK, want_empty = used == 0;

		if (wrong & F2FS_NAT_BITS_FULL_WRONG)
			ck_pb(ck, F2FS_PB_NAT_BITS_FULL, AT(A_EXP(want_full),
							    A_FOUND(!want_full), A_NID(b * F2FS_NAT_ENTRY_PER_BLOCK)),
			      "NAT block %u: full bit %d, %u entries in use",
			      b, !want_full, used);
		if (wrong & F2FS_NAT_BITS_EMPTY_WRONG)
			ck_pb(ck, F2FS_PB_NAT_BITS_EMPTY, AT(A_EXP(want_empty),
							     A_FOUND(!want_empty), A_NID(b * F2FS_NAT_ENTRY_PER_BLOCK)),
			      "NAT block %u: empty bit %d, %u entries in use",
			      b, !want_empty, used);
	}
out:
	free(area);
	return ret;
}

int ck_meta(struct ck *ck)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(ck->fs);
	int ret;

	ck->sb = sb;
	ck->cp = f2fs_fs_cp(ck->fs);
	ck->features = le32_get(sb->feature);
	ck->ckpt_flags = le32_get(ck->cp->ckpt_flags);
	ck->r->ckpt_flags = ck->ckpt_flags;
	ck->r->cp_version = le64_get(ck->cp->checkpoint_ver);
	ck->r->cp_pack = f2fs_fs_cp_choice(ck->fs)->pack;
	ck->main_blkaddr = le32_get(sb->main_blkaddr);
	ck->main_segs = le32_get(sb->segment_count_main);
	ck->main_end = ck->main_blkaddr + (uint64_t)ck->main_segs * F2FS_BLOCKS_PER_SEG;
	ck->ssa_blkaddr = le32_get(sb->ssa_blkaddr);
	ck->max_nid = f2fs_fs_max_nid(ck->fs);
	ck->nat_blocks = f2fs_fs_nat_blocks(ck->fs);
	for (int i = 0; i < f2fs_fs_nnotes(ck->fs); i++) {
		const char *n = f2fs_fs_note(ck->fs, i);

		ck_pb(ck, !strncmp(n, "checkpoint flags", 16) ? F2FS_PB_CP_FLAGS :
			  strstr(n, "SIT") ? F2FS_PB_SIT_JOURNAL : F2FS_PB_NAT_JOURNAL,
		      AT(A_FOUND(ck->ckpt_flags)), "%s", n);
	}
	check_sb(ck);
	check_cp_fields(ck);
	ret = load_sit(ck);
	if (ret)
		return ret;
	check_sit_entries(ck);
	check_cursegs(ck);
	ret = scan_nat(ck);
	if (ret)
		return ret;
	return check_nat_bits(ck);
}

/* After the tree walk: valid_block_count against the SIT plus the blocks
 * the files hold reserved: NEW_ADDR pointers, and the COMPRESS_ADDR of
 * compressed clusters not released (<f2fs/format/compress.h>). */
void ck_meta_after_walk(struct ck *ck)
{
	uint64_t rsv = ck->new_addrs + ck->compr_addrs;
	uint64_t want = ck->sit_valid_total + rsv;
	uint64_t have = le64_get(ck->cp->valid_block_count);

	if (ck->sit_valid_total > have || want == have)
		return;   /* the first is reported already */
	if (!rsv)
		ck_pb(ck, F2FS_PB_CP_VALID_BLOCK_COUNT, AT(A_EXP(want), A_FOUND(have)),
		      "valid_block_count %llu, the SIT marks %llu blocks valid",
		      (unsigned long long)have, (unsigned long long)want);
	else if (!ck->compr_addrs)
		ck_pb(ck, F2FS_PB_CP_VALID_BLOCK_COUNT, AT(A_EXP(want), A_FOUND(have)),
		      "valid_block_count %llu, the SIT marks %llu blocks valid and %llu are reserved (NEW_ADDR)",
		      (unsigned long long)have, (unsigned long long)ck->sit_valid_total,
		      (unsigned long long)ck->new_addrs);
	else
		ck_pb(ck, F2FS_PB_CP_VALID_BLOCK_COUNT, AT(A_EXP(want), A_FOUND(have)),
		      "valid_block_count %llu, the SIT marks %llu blocks valid, %llu are reserved (NEW_ADDR) and %llu head compressed clusters (COMPRESS_ADDR)",
		      (unsigned long long)have, (unsigned long long)ck->sit_valid_total,
		      (unsigned long long)ck->new_addrs, (unsigned long long)ck->compr_addrs);
}
