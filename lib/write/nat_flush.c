/* The NAT's part of the flush of dirty entries (table_flush.c does the rest). */
#include <f2fs/write/nat_flush.h>
#include <f2fs/write/table_flush.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/nat_bits.h>

#include <stddef.h>

_Static_assert(offsetof(struct f2fs_nat_dirty, nid) == 0, "the flush keys on the first member");
_Static_assert(sizeof(struct f2fs_nat_journal_entry) - sizeof(f2fs_le32) ==
	       sizeof(struct f2fs_nat_entry), "a journal entry is the key and the block's entry");

static void encode(void *entry, const void *dirty)
{
	struct f2fs_nat_entry *ne = entry;
	const struct f2fs_nat_dirty *d = dirty;

	ne->version = d->version;
	ne->ino = le32_put(d->ino);
	ne->block_addr = le32_put(d->blkaddr);
}

static void decode(void *dirty, uint32_t nid, const void *entry)
{
	const struct f2fs_nat_entry *ne = entry;

	*(struct f2fs_nat_dirty *)dirty = (struct f2fs_nat_dirty){
		nid, le32_get(ne->ino), le32_get(ne->block_addr), ne->version
	};
}

static const struct f2fs_table_kind nat = {
	"NAT", "nid", F2FS_JOURNAL_NAT_INIT, sizeof(struct f2fs_nat_dirty), encode, decode,
	false,
};

int f2fs_nat_journal_put(struct f2fs_journal *j, const struct f2fs_nat_dirty *e, size_t n,
			 struct f2fs_error *err)
{
	return f2fs_table_journal_put(&nat, j, e, n, err);
}

/* nat_bits are made from the entries in use in each NAT block. */
static void count_used(const void *arg, uint32_t block, const void *content)
{
	const struct f2fs_nat_flush *f = arg;

	f->used[block] = (uint16_t)f2fs_nat_block_used(content, block);
}

int f2fs_nat_flush(const struct f2fs_nat_flush *f, const struct f2fs_nat_dirty *e, size_t n,
		   struct f2fs_error *err)
{
	struct f2fs_table_flush t = {
		&nat, &f->area, f->journal, (uint64_t)f->area.blocks * F2FS_NAT_ENTRY_PER_BLOCK,
		f->policy, f->used ? count_used : NULL, f,
	};

	return f2fs_table_flush(&t, e, n, err);
}
