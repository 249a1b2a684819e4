/* The SIT's part of the flush of dirty entries (table_flush.c does the rest). */
#include <f2fs/write/sit_flush.h>
#include <f2fs/write/table_flush.h>
#include <f2fs/format/endian.h>

#include <stddef.h>
#include <string.h>

_Static_assert(offsetof(struct f2fs_sit_dirty, segno) == 0, "the flush keys on the first member");
_Static_assert(sizeof(struct f2fs_sit_journal_entry) - sizeof(f2fs_le32) ==
	       sizeof(struct f2fs_sit_entry), "a journal entry is the key and the block's entry");

static void encode(void *entry, const void *dirty)
{
	struct f2fs_sit_entry *se = entry;
	const struct f2fs_sit_dirty *d = dirty;

	se->vblocks = le16_put((uint16_t)((d->type << F2FS_SIT_VBLOCKS_SHIFT) |
					  (d->valid & F2FS_SIT_VBLOCKS_MASK)));
	memcpy(se->valid_map, d->map, sizeof(se->valid_map));
	se->mtime = le64_put(d->mtime);
}

static void decode(void *dirty, uint32_t segno, const void *entry)
{
	const struct f2fs_sit_entry *se = entry;
	struct f2fs_sit_dirty *d = dirty;
	uint16_t vb = le16_get(se->vblocks);

	d->segno = segno;
	d->type = (uint8_t)(vb >> F2FS_SIT_VBLOCKS_SHIFT);
	d->valid = vb & F2FS_SIT_VBLOCKS_MASK;
	d->mtime = le64_get(se->mtime);
	memcpy(d->map, se->valid_map, sizeof(d->map));
}

static const struct f2fs_table_kind sit = {
	"SIT", "segment", F2FS_JOURNAL_SIT_INIT, sizeof(struct f2fs_sit_dirty), encode, decode,
	true,
};

int f2fs_sit_journal_put(struct f2fs_journal *j, const struct f2fs_sit_dirty *e, size_t n,
			 struct f2fs_error *err)
{
	return f2fs_table_journal_put(&sit, j, e, n, err);
}

int f2fs_sit_flush(const struct f2fs_sit_flush *f, const struct f2fs_sit_dirty *e, size_t n,
		   struct f2fs_error *err)
{
	struct f2fs_table_flush t = {
		&sit, &f->area, f->journal, f->main_segs, f->policy, NULL, NULL,
	};

	return f2fs_table_flush(&t, e, n, err);
}
