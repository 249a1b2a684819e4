/*
 * Flushing dirty NAT and SIT entries of an opened image (<f2fs/fs/fs.h>)
 * towards its next checkpoint: blocks go to the copies the checkpoint in
 * use does not see, their bits flip in the new checkpoint's bitmaps, and
 * the journals for it start as the image's. The new checkpoint itself is
 * written afterwards with <f2fs/write/cp_pack.h>, into the slot not in
 * use; until then the image is unchanged as far as any reader can tell.
 */
#ifndef F2FS_WRITE_FS_FLUSH_H
#define F2FS_WRITE_FS_FLUSH_H

#include <stddef.h>
#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/fs/fs.h>
#include <f2fs/write/block_io.h>
#include <f2fs/write/nat_flush.h>
#include <f2fs/write/sit_flush.h>

struct f2fs_fs_flush {
	struct f2fs_fs *fs;
	unsigned nat_policy;              /* F2FS_FLUSH_NO_JOURNAL for a nat_bits
					   * checkpoint; SIT: usually 0 */
	unsigned sit_policy;
	uint8_t *nat_next, *sit_next;     /* bitmaps of the new checkpoint */
	struct f2fs_journal nat_j, sit_j; /* its journals */
	/* May be NULL: entries in use per NAT block, for the new nat_bits. The
	 * flush sets it for each block it writes; the caller fills in the
	 * others (from the image's nat_bits, or f2fs_nat_block_used()). With
	 * F2FS_FLUSH_NO_JOURNAL every block whose entries changed is written,
	 * the journal's included, so the rest are as on disk. */
	uint16_t *nat_used;
	struct f2fs_block_io out;         /* the caller's writer (read unused) */
};

/*
 * Start a flush: the new bitmaps (nat_next and sit_next, of the sizes
 * f2fs_fs_nat_bitmap() and f2fs_fs_sit_bitmap() give, e.g. inside a copy
 * of the checkpoint being rewritten) and journals are set to the image's;
 * out->write takes every block written (out->read is not used: blocks are
 * read from the image).
 */
void f2fs_fs_flush_start(struct f2fs_fs_flush *t, struct f2fs_fs *fs, uint8_t *nat_next,
			 uint8_t *sit_next, const struct f2fs_block_io *out);

/* Flush n dirty NAT entries (sorted by nid, each once); one call a checkpoint. */
int f2fs_fs_flush_nat(struct f2fs_fs_flush *t, const struct f2fs_nat_dirty *e, size_t n,
		      struct f2fs_error *err);

/* Flush n dirty SIT entries (sorted by segno, each once); one call a checkpoint. */
int f2fs_fs_flush_sit(struct f2fs_fs_flush *t, const struct f2fs_sit_dirty *e, size_t n,
		      struct f2fs_error *err);

#endif
