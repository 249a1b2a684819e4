/*
 * Read-only consistency checking of an F2FS image (the engine of fsck.f2fs).
 *
 * f2fs_check() opens an image read-only, runs the checks and returns every
 * problem it found as a record; it never prints and keeps no global state.
 * Problems have stable names ("inode.bad_checksum", "sit.vblocks_mismatch")
 * listed, with a description and how each is fixed, in problem.h.
 */
#ifndef F2FS_CHECK_H
#define F2FS_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/write/txn.h>

#include "problem.h"

struct f2fs_fs;

enum f2fs_check_mode {
	F2FS_CHECK_QUICK = 0,      /* superblock, checkpoint, NAT/SIT consistency */
	F2FS_CHECK_FULL = 1,       /* and the whole tree */
};

/* Progress of a long phase: done out of total units (blocks). */
typedef void (*f2fs_check_progress_fn)(const char *phase, uint64_t done,
				       uint64_t total, void *arg);

/* Which problems a run fixes: none (the image is opened read-only), those
 * the problem table lets preen fix without a person, or every one it can. */
enum f2fs_fix_answer {
	F2FS_ANSWER_NO = 0,
	F2FS_ANSWER_PREEN,
	F2FS_ANSWER_YES,
	F2FS_ANSWER_PLAN,          /* what YES would fix, asking nobody, writing nothing */
};

struct f2fs_check_options {
	enum f2fs_check_mode mode;
	enum f2fs_fix_answer fix;  /* not NO: open read-write, repair after a full check */
	/* Repair even though a roll-forward chain holds fsync'd data that the
	 * new checkpoint makes the kernel skip (the user's choice). */
	int discard_roll_forward;
	/* Leave the roll-forward chain to the kernel's next mount: a repair
	 * that would have to replay it writes nothing. */
	int keep_roll_forward;
	uint32_t max_per_problem;  /* records kept per code (0 = 100); the rest are counted */
	f2fs_check_progress_fn progress;   /* may be NULL */
	void *progress_arg;
	/* Called each time the check has opened the image, before it reads
	 * the NAT, SIT or any node (tests: f2fs_dev_fail_read() on
	 * f2fs_fs_dev(fs)). May be NULL. */
	void (*opened)(struct f2fs_fs *fs, void *arg);
	void *opened_arg;
	/* Asked by the repair, in the order of cause (problem.h's order
	 * column), for each kind of problem it would fix (count occurrences
	 * found) and whose fix does not stand on one left undone: 0 leaves
	 * that kind as it is, < 0 cancels the repair (nothing is written).
	 * May be NULL. */
	int (*confirm)(enum f2fs_problem_code code, uint64_t count, void *arg);
	void *confirm_arg;
	/* The later devices of a volume over several, in the device table's
	 * order (ndevices 0: the paths the superblock records). */
	const char *const *devices;
	unsigned ndevices;
	/* The time (seconds) a repair gives what it makes, such as a new
	 * lost+found: the caller's clock, so that a run can be repeated. */
	int64_t now;
	/* Blocks a repair queues before writing them (0: its default): a
	 * small queue makes a repair write before its commit, for tests. */
	unsigned write_queue;
	/* Nodes a repair keeps in memory before it spills the ones used
	 * longest ago (0: its default), for tests. */
	unsigned staged_nodes;
};

struct f2fs_check_stats {
	uint64_t inodes, dirs, files, symlinks, others;
	uint64_t nodes, data_blocks, dentries;
	uint64_t nat_blocks_read, sit_blocks_read, node_blocks_read;
	uint64_t dentry_blocks_read, ssa_blocks_read;
};

/* What a repair did (f2fs_check_report.repair). */
struct f2fs_repair_report {
	int wanted;                /* a fix was asked and problems were found */
	int committed;             /* the new checkpoint is on disk */
	char refused[512];         /* why nothing was written, or "" */
	uint64_t fixed, unfixed;   /* problem occurrences (errors and warnings) */
	uint64_t unfixed_errors;
	/* what the transaction wrote: NAT and SIT dirty entries, blocks and
	 * journal entries (a NAT block written per dirty entry is what a flush
	 * without sets would cost), SSA, checkpoint and superblock blocks */
	struct f2fs_txn_stats written;
	uint64_t stray_nodes_freed;
	uint32_t logs_moved;       /* current segments moved to fresh ones */
	int cancelled;             /* confirm cancelled the repair: nothing written */
	/* per code: 1 when confirm declined its fix; else, when its fix was
	 * not made because it stands on one not made (f2fs_problem_needs),
	 * that code + 1 */
	uint8_t declined[F2FS_PB_COUNT];
	uint8_t blocked_by[F2FS_PB_COUNT];
};

/* What a repair would do to files (-n, full check): inodes freed (their
 * NAT entries), inodes no directory reaches that it would link again, and
 * directory entries it would remove because they name no inode. */
struct f2fs_repair_plan {
	uint64_t inodes_freed, files_relinked, entries_removed;
};

/* The roll-forward recovery a repair did (or, checking only, would do). */
struct f2fs_roll_report {
	int applied;               /* 1: in the repair's checkpoint; 2: would be (-n) */
	uint64_t inodes;           /* inodes with fsync'd nodes recovered */
	uint64_t created;          /* of which made anew (files created after the checkpoint) */
	uint64_t dentries;         /* names given back to them */
	uint64_t blocks;           /* data blocks made valid */
	uint64_t invalidated;      /* blocks they replaced or truncated */
	uint64_t xattrs;           /* xattr nodes replaced */
	uint64_t unlinked;         /* names a recovered file took from other inodes (unlinked) */
	int discard_asked;         /* --discard-roll-forward: the chain is dropped as asked */
	char why[200];             /* why it is not done here, or "" */
};

struct f2fs_check_report {
	enum f2fs_check_mode mode;
	enum f2fs_fix_answer answer;     /* of the run */
	struct f2fs_problem *problems;
	size_t nproblems;
	uint64_t count[F2FS_PB_COUNT];   /* all occurrences, kept or not */
	uint64_t errors, warnings;       /* all occurrences by severity */
	uint64_t suppressed;             /* occurrences not kept as records */
	uint32_t ckpt_flags;             /* of the checkpoint in use */
	uint64_t cp_version;
	int cp_pack;
	/* node blocks written after the checkpoint that the next mount rolls
	 * forward, and how many of them carry an fsync mark */
	uint64_t roll_forward_nodes, roll_forward_fsync;
	struct f2fs_roll_report roll;
	struct f2fs_check_stats stats;
	struct f2fs_repair_report repair;
	struct f2fs_repair_plan plan;    /* -n of a full check */
};

/*
 * Check the image at path (opened read-only). Returns 0 when the check
 * ran (problems are in *out, which the caller frees), or a negative code
 * with err set when it could not run: not F2FS, no valid checkpoint,
 * I/O errors, out of memory.
 */
int f2fs_check(const char *path, const struct f2fs_check_options *opt,
	       struct f2fs_check_report **out, struct f2fs_error *err);

void f2fs_check_report_free(struct f2fs_check_report *r);

/* Can a repair with this answer fix problems of this kind (when nothing
 * else found blocks it)? */
int f2fs_check_fixable(enum f2fs_problem_code code, enum f2fs_fix_answer answer);

/* Does the checkpoint say the file system was cleanly unmounted and
 * needs no check (UMOUNT set; ERROR, FSCK and QUOTA_NEED_FSCK clear)? */
int f2fs_check_cp_clean(uint32_t ckpt_flags);

#endif
