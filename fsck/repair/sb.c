/*
 * The repair of superblock fields, written into both copies (the copy in
 * use last) by the transaction:
 *   - checksum_offset without the sb_checksum feature is cleared: the
 *     kernel and the checks read it only with the feature, and the stored
 *     CRC cannot say whether the feature bit or the offset is the damage
 *     (the CRC covers the feature bits), so the field the feature does not
 *     use goes;
 *   - a quota inode number for a quota type the features do not enable is
 *     cleared (the kernel would try to load that inode as a quota file),
 *     and the inode it named, when no directory names it, is a left-over
 *     quota file: it is freed. A quota type that is enabled but has no
 *     usable inode number needs a new quota file: not made here;
 *   - the errors and stop reasons the kernel recorded are cleared once no
 *     error is left (the checkpoint's FSCK flag goes at the same time).
 */
#include <f2fs/format/crc.h>
#include <f2fs/format/endian.h>

#include "../check/passes.h"
#include "repair_int.h"

#include <string.h>

bool rp_sb_code(enum f2fs_problem_code code)
{
	return code == F2FS_PB_SB_PRIMARY_INVALID || code == F2FS_PB_SB_COPIES_DIFFER ||
	       code == F2FS_PB_SB_CHECKSUM_OFFSET || code == F2FS_PB_SB_QUOTA_INO ||
	       code == F2FS_PB_SB_ERRORS_RECORDED;
}

static bool quota_wanted(const struct ck *ck, int q)
{
	return (ck->features & F2FS_FEATURE_QUOTA_INO) &&
	       (q < 2 || (ck->features & F2FS_FEATURE_PRJQUOTA));
}

static bool quota_ino_ok(const struct ck *ck, uint32_t qi)
{
	return qi > F2FS_ROOT_INO && qi < ck->max_nid;
}

/* The inodes the check followed (ck->qf_ino: the other copy's, when the
 * copy in use had two types share one) are what the superblock gets. */
bool rp_sb_quota_fixable(struct ck *ck)
{
	for (int q = 0; q < F2FS_MAX_QUOTAS; q++) {
		uint32_t qi = ck->qf_ino[q];

		if (quota_wanted(ck, q) && !quota_ino_ok(ck, qi))
			return false;
		for (int r = 0; r < q; r++)
			if (qi && ck->qf_ino[r] == qi)
				return false;
	}
	return true;
}

static int fix_quota_inos(struct rp *p)
{
	struct ck *ck = p->ck;
	int ret = 0;

	for (int q = 0; q < F2FS_MAX_QUOTAS; q++)
		p->sb_new.qf_ino[q] = le32_put(ck->qf_ino[q]);
	for (int q = 0; q < F2FS_MAX_QUOTAS && !ret; q++) {
		uint32_t qi = le32_get(p->sb_new.qf_ino[q]), links, refs;
		struct ck_nid *in;
		bool freed;

		if (!qi || quota_wanted(ck, q))
			continue;
		p->sb_new.qf_ino[q] = le32_put(0);
		in = quota_ino_ok(ck, qi) ? ck_inode(ck, qi) : NULL;
		if (!in || !ck_rec_inode(ck, qi, &links, &refs) || refs)
			continue;   /* no inode, or a file a directory names */
		/* a quota file of a type no longer enabled (one not freed stays
		 * special: a later run finds it unnamed) */
		if (rp_may_free(p))
			ret = rp_free_inode(p, qi, &freed);
	}
	return ret;
}

int rp_sb(struct rp *p)
{
	struct ck *ck = p->ck;
	bool quota = p->fix[F2FS_PB_SB_QUOTA_INO], offset = p->fix[F2FS_PB_SB_CHECKSUM_OFFSET];
	bool errors = p->fix[F2FS_PB_SB_ERRORS_RECORDED];
	int ret = 0;

	if (!quota && !offset && !errors)
		return 0;
	memcpy(&p->sb_new, ck->sb, sizeof(p->sb_new));
	if (offset)
		p->sb_new.checksum_offset = le32_put(0);
	/* decided only when no error is left; written after the checkpoint */
	if (errors) {
		memset(p->sb_new.s_errors, 0, sizeof(p->sb_new.s_errors));
		memset(p->sb_new.s_stop_reason, 0, sizeof(p->sb_new.s_stop_reason));
	}
	if (quota)
		ret = fix_quota_inos(p);
	if (ck->features & F2FS_FEATURE_SB_CHKSUM)
		p->sb_new.crc = le32_put(f2fs_sb_crc(&p->sb_new));
	p->t.sb_new = &p->sb_new;
	return ret;
}
