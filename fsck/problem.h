/*
 * The problems fsck names, with what each is and how it is fixed. Names are
 * stable: tools and tests match on them.
 */
#ifndef F2FS_FSCK_PROBLEM_H
#define F2FS_FSCK_PROBLEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum f2fs_check_severity {
	F2FS_SEV_WARNING = 1,   /* harmless or only a hint is stale */
	F2FS_SEV_ERROR = 2,     /* the file system is inconsistent */
};

/* How a problem is fixed. */
enum f2fs_fix_kind {
	F2FS_FIX_NONE = 0,      /* not decided: the table's unit test refuses it */
	F2FS_FIX_REBUILD,       /* derived state (SIT, SSA, checkpoint counters, current
				 * segments, nat_bits, journals, orphan list, quota) is
				 * rebuilt from what the scan found, not patched */
	F2FS_FIX_REWRITE,       /* rewritten whole from its valid copy, or made anew */
	F2FS_FIX_FIELD,         /* a field set to the value the scan found or computes */
	F2FS_FIX_CLEAR,         /* the bad pointer, entry or flag is cleared or removed */
	F2FS_FIX_MOVE,          /* moved to where it belongs */
	F2FS_FIX_CLONE,         /* a block owned twice is copied for its second owner */
	F2FS_FIX_RELINK,        /* connected to /lost+found */
	F2FS_FIX_TRUNCATE,      /* cut back to its valid prefix */
	F2FS_FIX_RENAME,        /* the second of two equal names is renamed */
	F2FS_FIX_RECOVER,       /* handled by the roll-forward recovery */
	F2FS_FIX_CANNOT,        /* fsck cannot fix it; reported only */
	F2FS_FIX_COUNT
};

/* The stages of cause, in the order the questions come (and the repair
 * decides): each stage's fixes may change what a later stage's problems
 * are, never an earlier one's. */
enum f2fs_problem_order {
	F2FS_ORDER_SB = 1,      /* the superblock */
	F2FS_ORDER_PACK,        /* the checkpoint pack and its space counts */
	F2FS_ORDER_ROLL,        /* the roll-forward chain, replayed before the fixes */
	F2FS_ORDER_TREE,        /* NAT entries, node trees, block pointers */
	F2FS_ORDER_INODE,       /* an inode's fields and xattrs, the root */
	F2FS_ORDER_ENTRY,       /* directory entries (they give the link counts) */
	F2FS_ORDER_SHAPE,       /* which inodes live and where: relinking, loops, orphans */
	F2FS_ORDER_COUNT,       /* an inode's counts: links, i_blocks */
	F2FS_ORDER_DERIVED,     /* what is rebuilt from the rest: SIT, SSA, counters, quota */
	F2FS_ORDER_LAST,        /* the records that a check is wanted, cleared last */
};

/* Stable name of a fix kind ("rebuild", "field", ...); NULL if out of range. */
const char *f2fs_fix_kind_name(enum f2fs_fix_kind fix);
/* Does the repair fix a problem of this kind? Every kind but CANNOT (and
 * NONE, which the table's unit test refuses): the fix column is the one
 * place that says what the repair fixes. */
bool f2fs_fix_kind_repairs(enum f2fs_fix_kind fix);

/*
 * The problem table:
 *   X(ID, "name", "structure", severity, fix kind, preen, order, "description")
 * The fix kind also decides whether the repair fixes the problem
 * (f2fs_fix_kind_repairs): a problem the repair learns to fix changes its
 * CANNOT here, and nothing else lists the problems fixed. preen is PREEN
 * when an automatic run (-p, -a) may make the fix without a person (the
 * fixes a crash calls for, which lose nothing intact), ASK when only -y or
 * a person may. order is the stage of cause (enum f2fs_problem_order) in
 * which a person is asked about it: a fix that changes what another
 * problem is (a name cleared changes its inode's link count) comes in an
 * earlier stage, so that its answer is known when the other is asked.
 * Names are stable: tools and tests match on them. Append new ones freely.
 */
#define F2FS_CHECK_PROBLEMS(X) \
X(SB_PRIMARY_INVALID, "sb.primary_invalid", "superblock", ERROR, REWRITE, PREEN, SB, \
  "superblock copy 0 is invalid; copy 1 was used") \
X(SB_COPIES_DIFFER, "sb.copies_differ", "superblock", WARNING, REWRITE, PREEN, SB, \
  "the two superblock copies are not identical") \
X(SB_UNKNOWN_FEATURE, "sb.unknown_feature", "superblock", ERROR, CANNOT, ASK, SB, \
  "feature bits this checker does not know are set") \
X(SB_FEATURE_DEPENDENCY, "sb.feature_dependency", "superblock", ERROR, CANNOT, ASK, SB, \
  "a feature that needs extra_attr is set without it") \
X(SB_CHECKSUM_OFFSET, "sb.checksum_offset", "superblock", ERROR, FIELD, PREEN, SB, \
  "checksum_offset is set but the sb_checksum feature is not") \
X(SB_QUOTA_INO, "sb.quota_ino", "superblock", ERROR, FIELD, ASK, SB, \
  "quota inode numbers do not match the quota features") \
X(CP_BACKUP_PACK_INVALID, "cp.backup_pack_invalid", "checkpoint", WARNING, REWRITE, PREEN, PACK, \
  "the checkpoint pack not in use is invalid (the kernel skips it) and nothing shows " \
  "a committed checkpoint lost: it is the older one, a newer one that a crash cut short " \
  "before it was committed, or one of no version to trust whose slot holds no newer " \
  "footer (as resize.f2fs leaves the pack it does not use)") \
X(CP_NEWEST_PACK_INVALID, "cp.newest_pack_invalid", "checkpoint", ERROR, REWRITE, PREEN, PACK, \
  "the pack not in use shows a checkpoint committed after the one in use (a footer, " \
  "or a verified header, of a later version) and is invalid: the kernel mounts the " \
  "older pack and what the newest recorded is lost") \
X(CP_OVERPROVISION, "cp.overprovision", "checkpoint", ERROR, FIELD, ASK, PACK, \
  "reserved/overprovision segment counts are out of range") \
X(CP_USER_BLOCK_COUNT, "cp.user_block_count", "checkpoint", ERROR, FIELD, PREEN, PACK, \
  "user_block_count is 0 or exceeds the main area less overprovision") \
X(CP_VALID_BLOCK_COUNT, "cp.valid_block_count", "checkpoint", ERROR, REBUILD, PREEN, DERIVED, \
  "valid_block_count differs from the blocks the SIT marks valid") \
X(CP_VALID_NODE_COUNT, "cp.valid_node_count", "checkpoint", ERROR, REBUILD, PREEN, DERIVED, \
  "valid_node_count differs from the node entries in the NAT") \
X(CP_VALID_INODE_COUNT, "cp.valid_inode_count", "checkpoint", ERROR, REBUILD, PREEN, DERIVED, \
  "valid_inode_count differs from the inode entries in the NAT") \
X(CP_FREE_SEGMENT_COUNT, "cp.free_segment_count", "checkpoint", ERROR, REBUILD, PREEN, DERIVED, \
  "free_segment_count differs from the free segments in the SIT") \
X(CP_NEXT_FREE_NID, "cp.next_free_nid", "checkpoint", ERROR, REBUILD, PREEN, DERIVED, \
  "next_free_nid is outside the NAT") \
X(CP_CURSEG_RANGE, "cp.curseg_range", "checkpoint", ERROR, REBUILD, PREEN, DERIVED, \
  "a current segment, its block offset or its allocation type is out of range") \
X(CP_CURSEG_DUPLICATE, "cp.curseg_duplicate", "checkpoint", ERROR, REBUILD, PREEN, DERIVED, \
  "two logs share a current segment") \
X(CP_CURSEG_TYPE, "cp.curseg_type", "checkpoint", ERROR, REBUILD, PREEN, DERIVED, \
  "the SIT type of a current segment is not its log's type") \
X(CP_CURSEG_BLKOFF, "cp.curseg_blkoff", "checkpoint", ERROR, REBUILD, PREEN, DERIVED, \
  "a block at or after a current segment's next free offset is valid") \
X(CP_SUMMARY, "cp.summary", "checkpoint", ERROR, REBUILD, PREEN, DERIVED, \
  "the current segments' summaries in the checkpoint cannot be read") \
X(CP_ORPHAN_BLOCK, "cp.orphan_block", "checkpoint", ERROR, REBUILD, PREEN, DERIVED, \
  "the orphan blocks of the checkpoint are inconsistent") \
X(CP_FLAGS, "cp.flags", "checkpoint", ERROR, FIELD, PREEN, PACK, \
  "the checkpoint flags hold bits no kernel sets, or a layout the pack does not have") \
X(CP_NEEDS_FSCK, "cp.needs_fsck", "checkpoint", WARNING, CLEAR, PREEN, LAST, \
  "the checkpoint asks for a file system check") \
X(NAT_ADDR_OUT_OF_RANGE, "nat.addr_out_of_range", "nat", ERROR, CLEAR, ASK, TREE, \
  "a NAT entry points outside the main area") \
X(NAT_RESERVED, "nat.reserved_nid", "nat", ERROR, FIELD, PREEN, TREE, \
  "the NAT entry of nid 0, 1 or 2 is wrong") \
X(NAT_INO_ZERO, "nat.ino_zero", "nat", ERROR, FIELD, ASK, TREE, \
  "a NAT entry in use has ino 0 or an ino beyond the NAT") \
X(NAT_DUPLICATE_BLOCK, "nat.duplicate_block", "nat", ERROR, CLEAR, ASK, TREE, \
  "two nids point at the same node block") \
X(NAT_SEGMENT_TYPE, "nat.segment_type", "nat", ERROR, REBUILD, PREEN, DERIVED, \
  "a node block lies in a segment the SIT types as data") \
X(NAT_NOT_VALID_IN_SIT, "nat.not_valid_in_sit", "nat", ERROR, REBUILD, PREEN, DERIVED, \
  "a node block in use is not marked valid in the SIT") \
X(NAT_INO_MISMATCH, "nat.ino_mismatch", "nat", ERROR, FIELD, ASK, TREE, \
  "the NAT ino differs from the node footer's ino") \
X(NAT_JOURNAL, "nat.journal", "nat", ERROR, REBUILD, PREEN, DERIVED, \
  "the NAT journal is inconsistent") \
X(NAT_BITS_HEADER, "nat_bits.header", "nat_bits", ERROR, REBUILD, PREEN, DERIVED, \
  "the nat_bits header does not match the checkpoint") \
X(NAT_BITS_FULL, "nat_bits.full_mismatch", "nat_bits", ERROR, REBUILD, PREEN, DERIVED, \
  "a nat_bits full bit does not match its NAT block") \
X(NAT_BITS_EMPTY, "nat_bits.empty_mismatch", "nat_bits", ERROR, REBUILD, PREEN, DERIVED, \
  "a nat_bits empty bit does not match its NAT block") \
X(SIT_VBLOCKS_MAP, "sit.vblocks_map_mismatch", "sit", ERROR, REBUILD, PREEN, DERIVED, \
  "a SIT entry's valid count differs from its valid map") \
X(SIT_BAD_TYPE, "sit.bad_type", "sit", ERROR, REBUILD, PREEN, DERIVED, \
  "a SIT entry has an unknown segment type") \
X(SIT_JOURNAL, "sit.journal", "sit", ERROR, REBUILD, PREEN, DERIVED, \
  "the SIT journal names a segment outside the main area, or one twice") \
X(SIT_VBLOCKS_MISMATCH, "sit.vblocks_mismatch", "sit", ERROR, REBUILD, PREEN, DERIVED, \
  "a segment's valid count differs from the blocks found in use") \
X(SIT_VALID_UNUSED, "sit.valid_unused", "sit", ERROR, REBUILD, PREEN, DERIVED, \
  "blocks marked valid in the SIT are used by nothing") \
X(SIT_USED_INVALID, "sit.used_not_valid", "sit", ERROR, REBUILD, PREEN, DERIVED, \
  "blocks in use are not marked valid in the SIT") \
X(SSA_MISMATCH, "ssa.mismatch", "ssa", ERROR, REBUILD, PREEN, DERIVED, \
  "a summary entry does not name the block's owner") \
X(SSA_TYPE, "ssa.bad_type", "ssa", ERROR, REBUILD, PREEN, DERIVED, \
  "a summary block's type differs from its segment's") \
X(NODE_UNREADABLE, "node.unreadable", "node", ERROR, CANNOT, ASK, TREE, \
  "a node block could not be read") \
X(ROLL_FORWARD_LOOP, "node.roll_forward_loop", "node", ERROR, RECOVER, ASK, ROLL, \
  "the roll-forward chain after the checkpoint loops (the kernel's mount then recovers " \
  "none of it): fsck recovers the chain up to the block it comes back to") \
X(ROLL_FORWARD_IN_USE, "node.roll_forward_in_use", "node", ERROR, CANNOT, ASK, ROLL, \
  "a node of the roll-forward chain lies on a block the checkpoint has in use") \
X(NODE_FOOTER_NID, "node.footer_nid", "node", ERROR, CLEAR, ASK, TREE, \
  "the node footer names another nid") \
X(NODE_BAD_OFFSET, "node.bad_offset", "node", ERROR, CLEAR, ASK, TREE, \
  "the node offset in the footer is impossible or wrong for its place") \
X(NODE_CHILD_MISSING, "node.child_missing", "node", ERROR, CLEAR, PREEN, TREE, \
  "a node pointer names a nid that is not in use") \
X(NODE_WRONG_OWNER, "node.wrong_owner", "node", ERROR, CLEAR, ASK, TREE, \
  "a node pointer names a node of another inode") \
X(NODE_MULTIPLE_PARENTS, "node.multiple_parents", "node", ERROR, CLEAR, ASK, TREE, \
  "a node is pointed to more than once") \
X(NODE_UNREACHABLE, "node.unreachable", "node", ERROR, CLEAR, PREEN, TREE, \
  "a node in use is not reached from its inode") \
X(DATA_ADDR_OUT_OF_RANGE, "data.addr_out_of_range", "data", ERROR, CLEAR, PREEN, TREE, \
  "a data pointer lies outside the main area") \
X(DATA_SEGMENT_TYPE, "data.segment_type", "data", ERROR, MOVE, ASK, TREE, \
  "a data block lies in a segment the SIT types as node") \
X(BLOCK_MULTIPLY_OWNED, "block.multiply_owned", "block", ERROR, CLONE, ASK, TREE, \
  "a main-area block is claimed more than once") \
X(INODE_BAD_MODE, "inode.bad_mode", "inode", ERROR, FIELD, ASK, INODE, \
  "the file type in i_mode is invalid") \
X(INODE_BAD_CHECKSUM, "inode.bad_checksum", "inode", ERROR, FIELD, PREEN, INODE, \
  "the inode checksum does not match") \
X(INODE_EXTRA_ISIZE, "inode.extra_isize", "inode", ERROR, FIELD, ASK, INODE, \
  "i_extra_isize is out of range, or extra_attr is used without the feature") \
X(INODE_INLINE_XATTR_SIZE, "inode.inline_xattr_size", "inode", ERROR, FIELD, ASK, INODE, \
  "i_inline_xattr_size is out of range") \
X(INODE_INLINE_FLAGS, "inode.inline_flags", "inode", ERROR, FIELD, ASK, INODE, \
  "the inline flags contradict the file type or each other") \
X(INODE_INLINE_SIZE, "inode.inline_size", "inode", ERROR, FIELD, ASK, INODE, \
  "i_size exceeds the inline area") \
X(INODE_SIZE, "inode.size", "inode", ERROR, FIELD, PREEN, INODE, \
  "i_size is impossible for the file") \
X(INODE_I_BLOCKS, "inode.i_blocks", "inode", ERROR, FIELD, PREEN, COUNT, \
  "i_blocks differs from the blocks counted") \
X(INODE_COMPR_BLOCKS, "inode.compr_blocks", "inode", ERROR, FIELD, PREEN, COUNT, \
  "i_compr_blocks differs from the blocks the compressed clusters save") \
X(INODE_LINKS, "inode.links", "inode", ERROR, FIELD, PREEN, COUNT, \
  "the link count differs from the references found") \
X(INODE_DEPTH, "inode.current_depth", "inode", ERROR, FIELD, PREEN, INODE, \
  "a directory's i_current_depth or i_dir_level is out of range") \
X(INODE_XATTR_NID, "inode.xattr_nid", "inode", ERROR, CLEAR, ASK, INODE, \
  "i_xattr_nid does not name an xattr node of this inode") \
X(INODE_UNREACHABLE, "inode.unreachable", "inode", ERROR, RELINK, PREEN, SHAPE, \
  "an inode in use has no directory entry and is no orphan: it goes back into its parent " \
  "under its name (i_pino, i_name, the lost-pino bit clear, the name free there), else " \
  "into /lost+found under its name (#INO without one); an automatic run may do it, as " \
  "nothing is lost") \
X(INODE_NOT_INODE, "inode.not_inode", "inode", ERROR, CLEAR, ASK, TREE, \
  "a node named as an inode is not one") \
X(DIR_BAD_NAME_LEN, "dir.bad_name_len", "dir", ERROR, CLEAR, ASK, ENTRY, \
  "a dentry's name length is 0, too long or runs past the slots") \
X(DIR_BITMAP, "dir.bitmap", "dir", ERROR, FIELD, PREEN, ENTRY, \
  "a dentry's continuation slots are not marked used") \
X(DIR_BAD_NAME, "dir.bad_name", "dir", ERROR, CLEAR, ASK, ENTRY, \
  "a name contains '/' or NUL, or is . or .. out of place") \
X(DIR_BAD_HASH, "dir.bad_hash", "dir", ERROR, FIELD, PREEN, ENTRY, \
  "a dentry's hash differs from the hash of its name") \
X(DIR_WRONG_BUCKET, "dir.wrong_bucket", "dir", ERROR, MOVE, PREEN, ENTRY, \
  "a dentry lies in a block outside its hash bucket") \
X(DIR_DANGLING, "dir.dangling", "dir", ERROR, CLEAR, PREEN, ENTRY, \
  "a dentry names an inode that does not exist") \
X(DIR_FILE_TYPE, "dir.file_type", "dir", ERROR, FIELD, PREEN, ENTRY, \
  "a dentry's file type differs from the inode's mode") \
X(DIR_DOT, "dir.dot", "dir", ERROR, FIELD, PREEN, ENTRY, \
  "\".\" is missing or does not name the directory itself") \
X(DIR_DOTDOT, "dir.dotdot", "dir", ERROR, FIELD, PREEN, ENTRY, \
  "\"..\" is missing or does not name the parent") \
X(DIR_MULTIPLE_PARENTS, "dir.multiple_parents", "dir", ERROR, CLEAR, ASK, ENTRY, \
  "a directory has entries in more than one place") \
X(DIR_LOOP, "dir.loop", "dir", ERROR, RELINK, ASK, SHAPE, \
  "directories form a loop not connected to the root") \
X(DIR_BAD_PINO, "dir.bad_pino", "dir", WARNING, FIELD, PREEN, ENTRY, \
  "a directory's i_pino differs from its parent") \
X(DIR_BLOCK_BEYOND_SIZE, "dir.block_beyond_size", "dir", ERROR, FIELD, PREEN, INODE, \
  "a directory maps blocks beyond its i_size") \
X(ROOT_BAD, "root.bad", "inode", ERROR, REWRITE, ASK, INODE, \
  "the root inode is missing or not a directory") \
X(QUOTA_BAD_FILE, "quota.bad_file", "quota", ERROR, REBUILD, PREEN, DERIVED, \
  "a quota file is missing, unreadable or not a valid quota tree") \
X(QUOTA_USAGE, "quota.usage_mismatch", "quota", ERROR, REBUILD, PREEN, DERIVED, \
  "a quota record's inode or space usage differs from what that id's inodes use") \
X(XATTR_HEADER, "xattr.bad_header", "xattr", WARNING, FIELD, PREEN, INODE, \
  "an xattr area with entries does not start with the xattr magic") \
X(XATTR_ENTRY_BOUNDS, "xattr.entry_bounds", "xattr", ERROR, TRUNCATE, ASK, INODE, \
  "an xattr entry's name or value runs past the end of the xattr area") \
X(XATTR_BAD_NAME, "xattr.bad_name", "xattr", ERROR, TRUNCATE, ASK, INODE, \
  "an xattr entry has an unknown name index, or an empty name outside the ACL indexes") \
X(XATTR_BAD_ACL, "xattr.bad_acl", "xattr", ERROR, CLEAR, ASK, INODE, \
  "a POSIX ACL xattr the kernel cannot read (a name, or a malformed value)") \
X(XATTR_DUPLICATE, "xattr.duplicate_name", "xattr", ERROR, CLEAR, ASK, INODE, \
  "an inode has two xattrs of the same index and name") \
X(DIR_DUPLICATE_NAME, "dir.duplicate_name", "dir", ERROR, RENAME, ASK, ENTRY, \
  "a name occurs more than once in one directory") \
X(ORPHAN_NOT_INODE, "orphan.not_inode", "orphan", ERROR, CLEAR, PREEN, SHAPE, \
  "the orphan list names a nid that is not an inode in use") \
X(ORPHAN_LINKED, "orphan.linked", "orphan", ERROR, CLEAR, PREEN, SHAPE, \
  "an orphan inode still has links or directory entries") \
X(ORPHAN_DUPLICATE, "orphan.duplicate", "orphan", ERROR, CLEAR, PREEN, SHAPE, \
  "an inode is listed more than once in the orphan list") \
X(ZONE_WRITE_POINTER, "zone.write_pointer", "zone", ERROR, CANNOT, ASK, DERIVED, \
  "a sequential zone's write pointer disagrees with the file system: behind valid " \
  "blocks or behind its log's position, or after a clean unmount past the start of a " \
  "zone holding none or past its log's position (Linux resets such a zone or moves " \
  "the log at mount)") \
X(SB_ERRORS_RECORDED, "sb.errors_recorded", "superblock", WARNING, CLEAR, PREEN, LAST, \
  "the superblock records errors or a reason the kernel stopped checkpoints (a " \
  "shutdown alone is none): cleared once nothing else is left") \
X(NAT_REBUILT, "nat.entry_rebuilt", "nat", ERROR, FIELD, PREEN, TREE, \
  "a NAT entry is garbage, lost or names the wrong block, and a node block whose footer, " \
  "summary entry and SIT bit all name the nid says what it must be: the entry is rebuilt " \
  "from that block (an entry naming a block that holds another nid's node is freed); " \
  "nothing is lost, so an automatic run may do it") \
X(NODE_FOOTER_INO, "node.footer_ino", "node", ERROR, FIELD, PREEN, TREE, \
  "a node footer's ino disagrees with a NAT entry that fits the node (an inode's own nid, " \
  "or another node's owner where the footer's cannot be): the footer is the broken side " \
  "and gets the NAT's ino") \
X(INODE_EXTENT, "inode.extent", "inode", ERROR, CLEAR, PREEN, INODE, \
  "the inode's largest extent (i_ext) does not match its block pointers, lies outside " \
  "the main area or is in an inline inode: the kernel would read other blocks for the " \
  "file, or refuse the inode; dropped, as the kernel drops it (it is only a cache)") \
X(INODE_INLINE_RESERVED, "inode.inline_reserved", "inode", ERROR, CLEAR, PREEN, INODE, \
  "the pointer slot before an inline inode's data or dentries is not zero: it becomes " \
  "block 0's pointer when the file or directory outgrows the inode, and the kernel then " \
  "refuses the move as corrupted")

#define F2FS_CHECK_ENUM_(id, name, st, sev, fix, preen, order, desc) F2FS_PB_##id,
enum f2fs_problem_code {
	F2FS_CHECK_PROBLEMS(F2FS_CHECK_ENUM_)
	F2FS_PB_COUNT
};
#undef F2FS_CHECK_ENUM_

struct f2fs_problem_info {
	const char *name;          /* stable name */
	const char *structure;     /* superblock, checkpoint, nat, sit, ... */
	enum f2fs_check_severity severity;
	enum f2fs_fix_kind fix;
	bool preen;                /* -p/-a may fix it without a person */
	enum f2fs_problem_order order;
	const char *description;
};

/* Table entry of a code; NULL when out of range. */
const struct f2fs_problem_info *f2fs_problem_info(enum f2fs_problem_code code);
/* Code of a stable name, or -1. */
int f2fs_problem_by_name(const char *name);
/* Every code in the order questions come: by stage (order), then by code. */
void f2fs_problems_in_order(enum f2fs_problem_code out[F2FS_PB_COUNT]);
/*
 * Does a fix of problem a stand on the fix of problem b, when b is found:
 * a is made only if b is too (else a is left as it is)? The link counts
 * and the relinking stand on the names they were counted without (the
 * entries found invalid, the root, a directory's mode); an entry's type
 * on its inode's mode; the records that a check is wanted (cp.needs_fsck,
 * sb.errors_recorded) on every error. b always comes in an earlier stage
 * than a (the table's unit test holds it).
 */
bool f2fs_problem_needs(enum f2fs_problem_code a, enum f2fs_problem_code b);

/* Which numbers of a record are meaningful. */
enum f2fs_problem_field {
	F2FS_PF_NID      = 1 << 0,
	F2FS_PF_INO      = 1 << 1,
	F2FS_PF_BLKADDR  = 1 << 2,
	F2FS_PF_SEGNO    = 1 << 3,
	F2FS_PF_EXPECTED = 1 << 4,
	F2FS_PF_FOUND    = 1 << 5,
};

struct f2fs_problem {
	enum f2fs_problem_code code;
	uint32_t have;             /* F2FS_PF_* */
	uint32_t nid, ino, segno;
	uint64_t blkaddr;
	uint64_t expected, found;
	char *path;                /* "/a/b" where known, else NULL */
	size_t path_len;           /* its bytes: an encrypted name may hold NUL */
	char *moved_to;            /* where the repair linked the inode, or NULL */
	size_t moved_to_len;
	bool fixed;                /* the repair fixed it */
	bool would_fix;            /* a check only (-n): fsck -y would fix it */
	char msg[192];             /* one line, no newline */
};

#endif
