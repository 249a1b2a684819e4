/* Compacted data summaries: two journals, then the data logs' entries. */
#include <f2fs/format/summary.h>
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>

#include <errno.h>
#include <string.h>

#define FIRST_BLOCK_ENTRIES \
	((F2FS_BLKSIZE - 2 * F2FS_SUM_JOURNAL_SIZE - F2FS_SUM_FOOTER_SIZE) / F2FS_SUMMARY_SIZE)
#define NEXT_BLOCK_ENTRIES ((F2FS_BLKSIZE - F2FS_SUM_FOOTER_SIZE) / F2FS_SUMMARY_SIZE)

void f2fs_data_sum_counts(const struct f2fs_checkpoint *cp,
			  uint16_t count[F2FS_NR_CURSEG_DATA])
{
	for (int t = 0; t < F2FS_NR_CURSEG_DATA; t++)
		count[t] = f2fs_cp_log_ssr(cp, t) ? F2FS_ENTRIES_IN_SUM :
			   le16_get(cp->cur_data_blkoff[t]);
}

uint32_t f2fs_compact_sum_blocks(const uint16_t count[F2FS_NR_CURSEG_DATA])
{
	uint32_t n = (uint32_t)count[0] + count[1] + count[2];

	if (n <= FIRST_BLOCK_ENTRIES)
		return 1;
	if (n - FIRST_BLOCK_ENTRIES <= NEXT_BLOCK_ENTRIES)
		return 2;
	return 3;
}

/*
 * Walk the entry slots in the order the kernel reads them: after each
 * entry, move to the next block when another would reach the footer.
 */
struct sum_cursor {
	uint32_t block, offset;
};

static void cursor_advance(struct sum_cursor *c)
{
	c->offset += F2FS_SUMMARY_SIZE;
	if (c->offset + F2FS_SUMMARY_SIZE > F2FS_BLKSIZE - F2FS_SUM_FOOTER_SIZE) {
		c->block++;
		c->offset = 0;
	}
}

static int check_fits(uint32_t nblocks, const uint16_t count[F2FS_NR_CURSEG_DATA],
		      struct f2fs_error *err)
{
	uint32_t need = f2fs_compact_sum_blocks(count);

	if (need > 2 || need > nblocks)
		return f2fs_fail(err, -F2FS_E_NO_SPACE,
				 "compacted summary needs %u blocks, %u given", need, nblocks);
	return 0;
}

int f2fs_compact_sum_encode(uint8_t *out, uint32_t nblocks,
			    const struct f2fs_journal *nat_j,
			    const struct f2fs_journal *sit_j,
			    const struct f2fs_summary *const entries[F2FS_NR_CURSEG_DATA],
			    const uint16_t count[F2FS_NR_CURSEG_DATA],
			    struct f2fs_error *err)
{
	struct sum_cursor c = { 0, 2 * F2FS_SUM_JOURNAL_SIZE };
	int ret = check_fits(nblocks, count, err);

	if (ret)
		return ret;
	memset(out, 0, (size_t)nblocks * F2FS_BLKSIZE);
	memcpy(out, nat_j, F2FS_SUM_JOURNAL_SIZE);
	memcpy(out + F2FS_SUM_JOURNAL_SIZE, sit_j, F2FS_SUM_JOURNAL_SIZE);
	for (int t = 0; t < F2FS_NR_CURSEG_DATA; t++) {
		for (uint32_t j = 0; j < count[t]; j++) {
			memcpy(out + (size_t)c.block * F2FS_BLKSIZE + c.offset,
			       &entries[t][j], F2FS_SUMMARY_SIZE);
			cursor_advance(&c);
		}
	}
	return 0;
}

int f2fs_compact_sum_decode(const uint8_t *in, uint32_t nblocks,
			    struct f2fs_journal *nat_j, struct f2fs_journal *sit_j,
			    struct f2fs_summary *const entries[F2FS_NR_CURSEG_DATA],
			    const uint16_t count[F2FS_NR_CURSEG_DATA],
			    struct f2fs_error *err)
{
	struct sum_cursor c = { 0, 2 * F2FS_SUM_JOURNAL_SIZE };
	int ret = check_fits(nblocks, count, err);

	if (ret)
		return ret;
	memcpy(nat_j, in, F2FS_SUM_JOURNAL_SIZE);
	memcpy(sit_j, in + F2FS_SUM_JOURNAL_SIZE, F2FS_SUM_JOURNAL_SIZE);
	for (int t = 0; t < F2FS_NR_CURSEG_DATA; t++) {
		for (uint32_t j = 0; j < count[t]; j++) {
			memcpy(&entries[t][j], in + (size_t)c.block * F2FS_BLKSIZE + c.offset,
			       F2FS_SUMMARY_SIZE);
			cursor_advance(&c);
		}
	}
	return 0;
}
