/* Dirty NAT and SIT entries of an opened image into their inactive copies. */
#include <f2fs/write/fs_flush.h>
#include <f2fs/format/endian.h>

#include <string.h>

static int read_image(void *arg, uint64_t blkaddr, void *block, struct f2fs_error *err)
{
	const struct f2fs_fs_flush *t = arg;

	return f2fs_fs_read_block(t->fs, blkaddr, block, err);
}

static int write_out(void *arg, uint64_t blkaddr, const void *block, struct f2fs_error *err)
{
	const struct f2fs_fs_flush *t = arg;

	return t->out.write(t->out.arg, blkaddr, block, err);
}

void f2fs_fs_flush_start(struct f2fs_fs_flush *t, struct f2fs_fs *fs, uint8_t *nat_next,
			 uint8_t *sit_next, const struct f2fs_block_io *out)
{
	uint32_t nat_bytes, sit_bytes;
	const uint8_t *nat_live = f2fs_fs_nat_bitmap(fs, &nat_bytes);
	const uint8_t *sit_live = f2fs_fs_sit_bitmap(fs, &sit_bytes);

	memset(t, 0, sizeof(*t));
	t->fs = fs;
	t->nat_next = nat_next;
	t->sit_next = sit_next;
	memmove(nat_next, nat_live, nat_bytes);
	memmove(sit_next, sit_live, sit_bytes);
	t->nat_j = *f2fs_fs_nat_journal(fs);
	t->sit_j = *f2fs_fs_sit_journal(fs);
	t->out = *out;
}

int f2fs_fs_flush_nat(struct f2fs_fs_flush *t, const struct f2fs_nat_dirty *e, size_t n,
		      struct f2fs_error *err)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(t->fs);
	struct f2fs_block_io io = { read_image, write_out, t, NULL };
	struct f2fs_nat_flush f;

	f2fs_meta_area_nat(&f.area, le32_get(sb->nat_blkaddr), f2fs_fs_nat_blocks(t->fs),
			   f2fs_fs_nat_bitmap(t->fs, NULL), t->nat_next, &io);
	f.journal = &t->nat_j;
	f.used = t->nat_used;
	f.policy = t->nat_policy;
	return f2fs_nat_flush(&f, e, n, err);
}

int f2fs_fs_flush_sit(struct f2fs_fs_flush *t, const struct f2fs_sit_dirty *e, size_t n,
		      struct f2fs_error *err)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(t->fs);
	uint32_t sit_bytes, main_segs = le32_get(sb->segment_count_main);
	const uint8_t *live = f2fs_fs_sit_bitmap(t->fs, &sit_bytes);
	struct f2fs_block_io io = { read_image, write_out, t, NULL };
	struct f2fs_sit_flush f;

	f2fs_meta_area_sit(&f.area, le32_get(sb->sit_blkaddr), le32_get(sb->segment_count_sit),
			   sit_bytes * 8, live, t->sit_next, &io);
	f.main_segs = main_segs;
	f.journal = &t->sit_j;
	f.policy = t->sit_policy;
	return f2fs_sit_flush(&f, e, n, err);
}
