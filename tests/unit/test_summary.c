/*
 * Compacted data summaries: block counts at the boundaries (439 entries in
 * the first block after the two journals, 584 in the next), the byte layout
 * the kernel reads, an encode/decode round trip, and the entry counts of
 * LFS and SSR logs.
 */
#include <check.h>

#include <f2fs/format/endian.h>
#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/format/summary.h>

#include <stdlib.h>
#include <string.h>

#include "unit.h"

#define FIRST 439u
#define NEXT 584u

static uint32_t blocks3(uint16_t a, uint16_t b, uint16_t c)
{
	const uint16_t n[3] = { a, b, c };

	return f2fs_compact_sum_blocks(n);
}

START_TEST(test_block_counts)
{
	ck_assert_uint_eq(blocks3(0, 0, 0), 1);
	ck_assert_uint_eq(blocks3(1, 0, 0), 1);
	ck_assert_uint_eq(blocks3(439, 0, 0), 1);
	ck_assert_uint_eq(blocks3(200, 200, 39), 1);
	ck_assert_uint_eq(blocks3(0, 0, 439), 1);
	ck_assert_uint_eq(blocks3(440, 0, 0), 2);
	ck_assert_uint_eq(blocks3(200, 200, 40), 2);
	ck_assert_uint_eq(blocks3(439 + 584, 0, 0), 2);
	ck_assert_uint_eq(blocks3(512, 511, 0), 2);
	ck_assert_uint_eq(blocks3(341, 341, 341), 2);
	ck_assert_uint_eq(blocks3(439 + 585, 0, 0), 3);
	ck_assert_uint_eq(blocks3(512, 512, 0), 3);
	ck_assert_uint_eq(blocks3(512, 512, 512), 3);
}
END_TEST

/* Entries with distinct, recognisable contents. */
static struct f2fs_summary *make_entries(uint16_t n, uint32_t tag)
{
	struct f2fs_summary *e = calloc(n ? n : 1, sizeof(*e));

	ck_assert_ptr_nonnull(e);
	for (uint16_t i = 0; i < n; i++) {
		e[i].nid = le32_put(tag << 16 | i);
		e[i].version = (uint8_t)(tag + i);
		e[i].ofs_in_node = le16_put((uint16_t)(i * 3 + tag));
	}
	return e;
}

static void make_journals(struct f2fs_journal *nat, struct f2fs_journal *sit)
{
	memset(nat, 0, sizeof(*nat));
	memset(sit, 0, sizeof(*sit));
	nat->n_entries = le16_put(F2FS_NAT_JOURNAL_ENTRIES);
	for (unsigned i = 0; i < F2FS_NAT_JOURNAL_ENTRIES; i++) {
		nat->nat_j.entries[i].nid = le32_put(3 + i);
		nat->nat_j.entries[i].ne.ino = le32_put(3 + i);
		nat->nat_j.entries[i].ne.block_addr = le32_put(5120 + i);
	}
	sit->n_entries = le16_put(F2FS_SIT_JOURNAL_ENTRIES);
	for (unsigned i = 0; i < F2FS_SIT_JOURNAL_ENTRIES; i++) {
		sit->sit_j.entries[i].segno = le32_put(i * 7);
		sit->sit_j.entries[i].se.vblocks = le16_put((uint16_t)(i << 10 | (i + 1)));
		sit->sit_j.entries[i].se.valid_map[0] = 0x80;
		sit->sit_j.entries[i].se.valid_map[63] = (uint8_t)i;
		sit->sit_j.entries[i].se.mtime = le64_put(0x0102030405060708ull + i);
	}
}

/* Where the kernel reads entry k (counted over all logs) in the blocks. */
static size_t entry_pos(uint32_t k)
{
	if (k < FIRST)
		return 1014 + (size_t)k * 7;
	k -= FIRST;
	return 4096 * (1 + (size_t)(k / NEXT)) + (size_t)(k % NEXT) * 7;
}

static void round_trip(uint16_t a, uint16_t b, uint16_t c)
{
	const uint16_t cnt[3] = { a, b, c };
	struct f2fs_summary *in[3] = { make_entries(a, 1), make_entries(b, 2), make_entries(c, 3) };
	struct f2fs_summary *out[3] = { make_entries(a, 9), make_entries(b, 9), make_entries(c, 9) };
	const struct f2fs_summary *cin[3] = { in[0], in[1], in[2] };
	struct f2fs_journal nat, sit, nat2, sit2;
	struct f2fs_error err;
	uint32_t nb = f2fs_compact_sum_blocks(cnt), k = 0;
	uint8_t *buf = malloc(2 * 4096);

	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_le(nb, 2);
	make_journals(&nat, &sit);
	memset(buf, 0xEE, 2 * 4096);
	ck_assert_int_eq(f2fs_compact_sum_encode(buf, nb, &nat, &sit, cin, cnt, &err), 0);

	/* the journals lead, in that order */
	ck_assert_mem_eq(buf, &nat, 507);
	ck_assert_mem_eq(buf + 507, &sit, 507);
	/* the entries run on from byte 1014, hot then warm then cold */
	for (int t = 0; t < 3; t++)
		for (uint16_t i = 0; i < cnt[t]; i++, k++)
			ck_assert_msg(memcmp(buf + entry_pos(k), &in[t][i], 7) == 0,
				      "entry %u of log %d misplaced", i, t);
	/* nothing reaches a footer, and unused space is zero */
	for (uint32_t blk = 0; blk < nb; blk++)
		for (int i = 4091; i < 4096; i++)
			ck_assert_uint_eq(buf[blk * 4096 + i], 0);
	if (nb == 1)
		for (size_t i = 1014 + (size_t)k * 7; i < 4096; i++)
			ck_assert_uint_eq(buf[i], 0);

	ck_assert_int_eq(f2fs_compact_sum_decode(buf, nb, &nat2, &sit2, out, cnt, &err), 0);
	ck_assert_mem_eq(&nat2, &nat, sizeof(nat));
	ck_assert_mem_eq(&sit2, &sit, sizeof(sit));
	for (int t = 0; t < 3; t++)
		if (cnt[t])
			ck_assert_mem_eq(out[t], in[t], cnt[t] * sizeof(struct f2fs_summary));
	for (int t = 0; t < 3; t++) {
		free(in[t]);
		free(out[t]);
	}
	free(buf);
}

START_TEST(test_round_trip)
{
	round_trip(0, 0, 0);
	round_trip(1, 0, 0);      /* mkfs: the root's dentry block */
	round_trip(8, 0, 0);
	round_trip(439, 0, 0);    /* one block, full */
	round_trip(100, 300, 39);
	round_trip(440, 0, 0);    /* the first entry of block 2 */
	round_trip(0, 0, 440);
	round_trip(300, 100, 40);
	round_trip(512, 511, 0);  /* 439 + 584: two blocks, full */
	round_trip(341, 341, 341);
}
END_TEST

START_TEST(test_first_entry_of_second_block)
{
	/* entry 439 sits at byte 0 of block 2; entry 438 ends at 4087 */
	ck_assert_uint_eq(entry_pos(438), 1014 + 438 * 7);
	ck_assert_uint_le(entry_pos(438) + 7, 4091);
	ck_assert_uint_gt(entry_pos(438) + 14, 4091);
	ck_assert_uint_eq(entry_pos(439), 4096);
	ck_assert_uint_eq(entry_pos(439 + 583), 4096 + 583 * 7);
	ck_assert_uint_le(583 * 7 + 7, 4091);
	round_trip(439, 1, 0);
}
END_TEST

START_TEST(test_too_many)
{
	const uint16_t cnt[3] = { 512, 512, 0 };
	const uint16_t cnt2[3] = { 440, 0, 0 };
	struct f2fs_summary *e = make_entries(512, 1);
	const struct f2fs_summary *ce[3] = { e, e, e };
	struct f2fs_summary *oe[3] = { e, e, e };
	struct f2fs_journal nat, sit;
	struct f2fs_error err;
	uint8_t *buf = malloc(3 * 4096);

	ck_assert_ptr_nonnull(buf);
	make_journals(&nat, &sit);
	ck_assert_uint_eq(f2fs_compact_sum_blocks(cnt), 3);
	memset(buf, 0x77, 3 * 4096);
	/* more than two blocks' worth: the compacted form cannot hold them */
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(f2fs_compact_sum_encode(buf, 3, &nat, &sit, ce, cnt, &err),
			 -F2FS_E_NO_SPACE);
	ck_assert_int_eq(err.code, -F2FS_E_NO_SPACE);
	ck_assert_ptr_nonnull(strstr(err.msg, "3 blocks"));
	ck_assert_int_eq(f2fs_compact_sum_decode(buf, 3, &nat, &sit, oe, cnt, &err),
			 -F2FS_E_NO_SPACE);
	/* two blocks' worth in a one-block buffer */
	ck_assert_int_eq(f2fs_compact_sum_encode(buf, 1, &nat, &sit, ce, cnt2, &err),
			 -F2FS_E_NO_SPACE);
	ck_assert_int_eq(f2fs_compact_sum_decode(buf, 1, &nat, &sit, oe, cnt2, &err),
			 -F2FS_E_NO_SPACE);
	/* a failed encode writes nothing */
	for (int i = 0; i < 3 * 4096; i++)
		ck_assert_uint_eq(buf[i], 0x77);
	free(e);
	free(buf);
}
END_TEST

START_TEST(test_larger_buffer)
{
	/* a two-block buffer for one block of entries: the rest is zeroed */
	const uint16_t cnt[3] = { 1, 0, 0 };
	struct f2fs_summary *e = make_entries(1, 4);
	const struct f2fs_summary *ce[3] = { e, e, e };
	struct f2fs_journal nat, sit;
	struct f2fs_error err;
	uint8_t *buf = malloc(2 * 4096);

	ck_assert_ptr_nonnull(buf);
	make_journals(&nat, &sit);
	memset(buf, 0x33, 2 * 4096);
	ck_assert_int_eq(f2fs_compact_sum_encode(buf, 2, &nat, &sit, ce, cnt, &err), 0);
	ck_assert_mem_eq(buf + 1014, e, 7);
	for (int i = 1021; i < 2 * 4096; i++)
		ck_assert_uint_eq(buf[i], 0);
	free(e);
	free(buf);
}
END_TEST

/*
 * A data log that allocates by SSR has all 512 entries in the summaries,
 * whatever its next free offset: the kernel's checkpoints after GC (cold
 * data by SSR, hot and warm by LFS) hold 8 + 512 entries, so the cold log
 * runs on into the second block.
 */
START_TEST(test_ssr_log_counts)
{
	struct f2fs_checkpoint cp;
	uint16_t cnt[3];

	memset(&cp, 0, sizeof(cp));
	cp.cur_data_blkoff[0] = le16_put(3);
	cp.cur_data_blkoff[1] = le16_put(5);
	cp.cur_data_blkoff[2] = le16_put(70);
	f2fs_data_sum_counts(&cp, cnt);
	ck_assert_uint_eq(cnt[0], 3);
	ck_assert_uint_eq(cnt[1], 5);
	ck_assert_uint_eq(cnt[2], 70);
	ck_assert_uint_eq(f2fs_compact_sum_blocks(cnt), 1);

	cp.alloc_type[2] = F2FS_ALLOC_SSR;
	f2fs_data_sum_counts(&cp, cnt);
	ck_assert_uint_eq(cnt[0], 3);
	ck_assert_uint_eq(cnt[1], 5);
	ck_assert_uint_eq(cnt[2], 512);
	ck_assert_uint_eq(f2fs_compact_sum_blocks(cnt), 2);
	/* cold entry 431 is entry 439 overall: the first of block 2 */
	ck_assert_uint_eq(entry_pos(3 + 5 + 431), 4096);
	round_trip(3, 5, 512);

	/* SSR on hot data: warm and cold follow its 512 entries */
	cp.alloc_type[2] = F2FS_ALLOC_LFS;
	cp.alloc_type[0] = F2FS_ALLOC_SSR;
	f2fs_data_sum_counts(&cp, cnt);
	ck_assert_uint_eq(cnt[0], 512);
	ck_assert_uint_eq(cnt[2], 70);
	round_trip(512, 5, 70);

	/* two SSR logs cannot be compacted */
	cp.alloc_type[1] = F2FS_ALLOC_SSR;
	f2fs_data_sum_counts(&cp, cnt);
	ck_assert_uint_eq(f2fs_compact_sum_blocks(cnt), 3);
}
END_TEST

static Suite *summary_suite(void)
{
	Suite *s = suite_create("summary");
	TCase *tc = tcase_create("compacted");

	tcase_add_test(tc, test_block_counts);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_first_entry_of_second_block);
	tcase_add_test(tc, test_too_many);
	tcase_add_test(tc, test_larger_buffer);
	tcase_add_test(tc, test_ssr_log_counts);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(summary_suite());
}
