/*
 * Reading the superblock and the checkpoint from a device: the superblock
 * copy to trust, and the newest valid checkpoint pack.
 */
#ifndef F2FS_META_READ_H
#define F2FS_META_READ_H

#include <stdint.h>

#include <f2fs/io/dev.h>
#include <f2fs/util/error.h>
#include <f2fs/format/format.h>

/*
 * Read and validate copy 0; fall back to copy 1. *copy_used tells which
 * (0 or 1); when copy 0 was bad, primary_err says why.
 */
int f2fs_sb_read(struct f2fs_dev *dev, struct f2fs_super_block *sb,
		 int *copy_used, struct f2fs_error *primary_err,
		 struct f2fs_error *err);

/* Where a pack that failed its checks stands against the pack in use. */
enum f2fs_cp_age {
	F2FS_CP_OLDER = 0,      /* older (or as old): nothing after the pack in use is lost */
	F2FS_CP_NEWER,          /* committed after the pack in use: what it recorded is lost */
	F2FS_CP_UNORDERED,      /* of no version to trust, and no footer in its slot:
				 * nothing shows a checkpoint committed after the
				 * pack in use */
	F2FS_CP_UNFINISHED,     /* newer, but a crash cut it short before its footer
				 * committed it: nothing committed is lost */
};

struct f2fs_cp_choice {
	int pack;               /* 0 or 1: the pack in use */
	uint64_t version;
	int other_valid;        /* the other pack also passed */
	struct f2fs_error other_err;  /* why the other pack failed, if it did */
	/* When the other pack failed: its age, and its version unless unordered. */
	enum f2fs_cp_age other_age;
	uint64_t other_version;
};

/*
 * Read the header (with payload) of both packs, check CRCs and that each
 * footer matches its header, and pick the newest valid one. buf receives
 * 1 + cp_payload blocks of the chosen pack's header. When only one pack is
 * valid, the other's age says whether it was the newer one.
 */
int f2fs_cp_choose(struct f2fs_dev *dev, uint32_t cp_blkaddr, uint32_t cp_payload,
		   void *buf, struct f2fs_cp_choice *choice, struct f2fs_error *err);

#endif
