/* NAT and SIT blocks: read the live copy, write the other one. */
#include <f2fs/write/meta_area.h>
#include <f2fs/format/format.h>
#include <f2fs/format/ver_bitmap.h>

#include <errno.h>
#include <string.h>

void f2fs_meta_area_nat(struct f2fs_meta_area *a, uint32_t nat_blkaddr, uint32_t nat_blocks,
			const uint8_t *live, uint8_t *next, const struct f2fs_block_io *io)
{
	a->blkaddr = nat_blkaddr;
	a->span = f2fs_nat_copy_span();
	a->blocks = nat_blocks;
	a->live = live;
	a->next = next;
	a->io = *io;
}

void f2fs_meta_area_sit(struct f2fs_meta_area *a, uint32_t sit_blkaddr,
			uint32_t segment_count_sit, uint32_t sit_blocks,
			const uint8_t *live, uint8_t *next, const struct f2fs_block_io *io)
{
	a->blkaddr = sit_blkaddr;
	a->span = f2fs_sit_copy_span(segment_count_sit);
	a->blocks = sit_blocks;
	a->live = live;
	a->next = next;
	a->io = *io;
}

int f2fs_meta_area_target(const struct f2fs_meta_area *a, uint32_t k)
{
	return a->live ? !f2fs_ver_bit(a->live, k) : 0;
}

static int check_index(const struct f2fs_meta_area *a, uint32_t k, struct f2fs_error *err)
{
	if (k >= a->blocks)
		return f2fs_fail(err, -EINVAL, "block %u beyond the %u blocks of one copy",
				 k, a->blocks);
	return 0;
}

int f2fs_meta_area_read(const struct f2fs_meta_area *a, uint32_t k, void *block,
			struct f2fs_error *err)
{
	int ret = check_index(a, k, err);

	if (ret)
		return ret;
	if (!a->live) {
		memset(block, 0, F2FS_BLKSIZE);
		return 0;
	}
	if (!a->io.read)
		return f2fs_fail(err, -EINVAL, "no reader for the live copy of block %u", k);
	return a->io.read(a->io.arg, f2fs_copy_addr(a->blkaddr, a->span, k, f2fs_ver_bit(a->live, k)),
			  block, err);
}

int f2fs_meta_area_write(const struct f2fs_meta_area *a, uint32_t k, const void *block,
			 struct f2fs_error *err)
{
	int copy, ret = check_index(a, k, err);

	if (ret)
		return ret;
	copy = f2fs_meta_area_target(a, k);
	ret = a->io.write(a->io.arg, f2fs_copy_addr(a->blkaddr, a->span, k, copy), block, err);
	if (!ret && a->next)
		f2fs_ver_bit_set(a->next, k, copy);
	return ret;
}
