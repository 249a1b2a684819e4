/*
 * Quota files: the content of the hidden quota inodes (user, group, project)
 * that the quota_ino feature keeps. F2FS stores them in the Linux VFS quota
 * format v2, revision 1 ("vfsv1"): a header block, a four-level radix tree
 * over the 32-bit id, and data blocks of fixed-size records, all in 1 KiB
 * blocks of little-endian fields.
 */
#ifndef F2FS_QUOTA_H
#define F2FS_QUOTA_H

#include <stddef.h>
#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>

/* ---- on-disk layout --------------------------------------------------- */
#define F2FS_QUOTA_MAGIC_USR     0xD9C01F11u
#define F2FS_QUOTA_MAGIC_GRP     0xD9C01927u
#define F2FS_QUOTA_MAGIC_PRJ     0xD9C03F14u
#define F2FS_QUOTA_VERSION       1u          /* revision 1: 64-bit limits */
#define F2FS_QUOTA_BLKSIZE       1024u
#define F2FS_QUOTA_BLKSIZE_BITS  10
#define F2FS_QUOTA_TREE_ROOT     1u          /* block 0 is the header */
#define F2FS_QUOTA_TREE_DEPTH    4
#define F2FS_QUOTA_REFS_PER_BLK  (F2FS_QUOTA_BLKSIZE / sizeof(f2fs_le32))
#define F2FS_QUOTA_GRACE         604800u     /* one week, in seconds */

struct f2fs_quota_header {
	f2fs_le32 magic;
	f2fs_le32 version;
} F2FS_PACKED;
_Static_assert(sizeof(struct f2fs_quota_header) == 8, "quota header");

/* Follows the header in block 0. */
struct f2fs_quota_info {
	f2fs_le32 bgrace;        /* space grace period, seconds */
	f2fs_le32 igrace;        /* inode grace period, seconds */
	f2fs_le32 flags;
	f2fs_le32 blocks;        /* file length in 1 KiB blocks */
	f2fs_le32 free_blk;      /* first wholly unused block, 0 if none */
	f2fs_le32 free_entry;    /* first data block with a free slot, 0 if none */
} F2FS_PACKED;
_Static_assert(sizeof(struct f2fs_quota_info) == 24, "quota info");

/* Starts every data block; the free-entry list is doubly linked through it. */
struct f2fs_quota_data_header {
	f2fs_le32 next_free;
	f2fs_le32 prev_free;
	f2fs_le16 entries;       /* records in use in this block */
	f2fs_le16 pad1;
	f2fs_le32 pad2;
} F2FS_PACKED;
_Static_assert(sizeof(struct f2fs_quota_data_header) == 16, "quota data header");

/* One id's record. A record of all zero bytes marks an unused slot. */
struct f2fs_quota_record {
	f2fs_le32 id;
	f2fs_le32 pad;
	f2fs_le64 ihardlimit;
	f2fs_le64 isoftlimit;
	f2fs_le64 curinodes;
	f2fs_le64 bhardlimit;
	f2fs_le64 bsoftlimit;
	f2fs_le64 curspace;      /* bytes */
	f2fs_le64 btime;
	f2fs_le64 itime;
} F2FS_PACKED;
_Static_assert(sizeof(struct f2fs_quota_record) == 72, "quota record");

#define F2FS_QUOTA_RECS_PER_BLK \
	((F2FS_QUOTA_BLKSIZE - sizeof(struct f2fs_quota_data_header)) / \
	 sizeof(struct f2fs_quota_record))
_Static_assert(F2FS_QUOTA_RECS_PER_BLK == 14, "quota records per block");

/* ---- building and reading -------------------------------------------- */
enum f2fs_quota_type {
	F2FS_QUOTA_USR = 0,
	F2FS_QUOTA_GRP = 1,
	F2FS_QUOTA_PRJ = 2,
};

/* The limits an administrator set for one id, and its grace deadlines. */
struct f2fs_quota_limits {
	uint64_t ihardlimit, isoftlimit;
	uint64_t bhardlimit, bsoftlimit;   /* in 1 KiB units, as stored */
	uint64_t btime, itime;
};

/* What one id owns (and, when read from a file or kept by a rebuild, its
 * limits; zero for none). */
struct f2fs_quota_usage {
	uint32_t id;
	uint64_t inodes;
	uint64_t space_bytes;
	struct f2fs_quota_limits lim;
};

/* The file-wide part of the header block. */
struct f2fs_quota_grace {
	uint32_t bgrace, igrace;   /* seconds */
	uint32_t flags;
};

/*
 * Size in bytes (a multiple of 1024) of the file f2fs_quota_file_build()
 * makes for these n ids; 0 only if working memory could not be allocated.
 */
size_t f2fs_quota_file_size(const struct f2fs_quota_usage *ids, size_t n);

/*
 * Fill out with a quota file of the given type holding one record per id,
 * laid out as the kernel would after inserting the ids in ascending order
 * into an empty file. ids need not be sorted; a repeated id is an error.
 * grace gives the header's grace periods and flags (NULL: a week each, no
 * flags). out_len must be at least f2fs_quota_file_size(); all of out is
 * written.
 */
int f2fs_quota_file_build(enum f2fs_quota_type type,
			  const struct f2fs_quota_usage *ids, size_t n,
			  const struct f2fs_quota_grace *grace,
			  uint8_t *out, size_t out_len, struct f2fs_error *err);

/* The grace periods and flags of a quota file's header (checked as the
 * walk checks the header). */
int f2fs_quota_file_grace(const uint8_t *buf, size_t len, struct f2fs_quota_grace *out,
			  struct f2fs_error *err);

/*
 * Check a quota file and call fn for each record reachable through its tree,
 * in ascending id order. type_out (may be NULL) receives the type named by
 * the magic. fn may be NULL to only check the file. A nonzero return from
 * fn stops the walk and is returned as is.
 * Never reads outside buf; damage yields -F2FS_E_CORRUPT.
 */
int f2fs_quota_file_walk(const uint8_t *buf, size_t len,
			 enum f2fs_quota_type *type_out,
			 int (*fn)(const struct f2fs_quota_usage *u, void *arg),
			 void *arg, struct f2fs_error *err);

#endif
