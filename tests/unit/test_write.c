/*
 * The write layer on its own, against an in-memory volume: the NAT/SIT
 * journal-or-block planner, the copy addressing and version bitmap flips,
 * the NAT and SIT flushes and the one under them over a made-up table kind
 * (each block written once, to the copy not live, over the live copy's
 * content; journal kept, filled or emptied as the kernel's rule says), and
 * a checkpoint pack written through a recording writer: last block last,
 * both CRCs valid, summaries where the header says.
 */
#include <check.h>

#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/format.h>
#include <f2fs/format/nat_bits.h>
#include <f2fs/format/summary.h>
#include <f2fs/format/ver_bitmap.h>
#include <f2fs/util/error.h>
#include <f2fs/write/cp_pack.h>
#include <f2fs/write/flush_plan.h>
#include <f2fs/write/meta_area.h>
#include <f2fs/write/nat_flush.h>
#include <f2fs/write/sit_flush.h>
#include <f2fs/write/table_flush.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#define BLK F2FS_BLKSIZE
#define NPB F2FS_NAT_ENTRY_PER_BLOCK
#define EPB F2FS_SIT_ENTRY_PER_BLOCK

/* ---- an in-memory volume: reads make recognisable blocks, writes are kept */

#define MAX_WRITES 64

struct mem {
	int nwrites;
	uint64_t addr[MAX_WRITES];
	uint8_t data[MAX_WRITES][BLK];
	int nreads;
	uint64_t read_addr[MAX_WRITES];
};

/* A NAT (or SIT) block as stored at blkaddr: every NAT entry says where it
 * was read from, so a written block shows which copy it started from. */
static int mem_read(void *arg, uint64_t blkaddr, void *block, struct f2fs_error *err)
{
	struct mem *m = arg;
	struct f2fs_nat_block *nb = block;

	(void)err;
	memset(block, 0, BLK);
	for (uint32_t i = 0; i < NPB; i++) {
		nb->entries[i].ino = le32_put(100000 + i);
		nb->entries[i].block_addr = le32_put((uint32_t)blkaddr);
	}
	ck_assert_int_lt(m->nreads, MAX_WRITES);
	m->read_addr[m->nreads++] = blkaddr;
	return 0;
}

static int mem_write(void *arg, uint64_t blkaddr, const void *block, struct f2fs_error *err)
{
	struct mem *m = arg;

	(void)err;
	ck_assert_int_lt(m->nwrites, MAX_WRITES);
	m->addr[m->nwrites] = blkaddr;
	memcpy(m->data[m->nwrites++], block, BLK);
	return 0;
}

static int fail_write(void *arg, uint64_t blkaddr, const void *block, struct f2fs_error *err)
{
	(void)arg;
	(void)block;
	return f2fs_fail(err, -EIO, "write of block %llu failed", (unsigned long long)blkaddr);
}

static struct f2fs_block_io mem_io(struct mem *m)
{
	memset(m, 0, sizeof(*m));
	return (struct f2fs_block_io){ mem_read, mem_write, m, NULL };
}

/* The write of address a, or -1; each address must be written at most once. */
static int written_at(const struct mem *m, uint64_t a)
{
	int found = -1;

	for (int i = 0; i < m->nwrites; i++) {
		if (m->addr[i] != a)
			continue;
		ck_assert_msg(found < 0, "block %llu written twice", (unsigned long long)a);
		found = i;
	}
	return found;
}

/* ---- the planner ---------------------------------------------------------- */

static struct f2fs_flush_set set_of(uint32_t block, uint32_t count)
{
	return (struct f2fs_flush_set){ block, 0, count, false };
}

static const struct f2fs_flush_set *find_set(const struct f2fs_flush_set *s, size_t n,
					     uint32_t block)
{
	for (size_t i = 0; i < n; i++)
		if (s[i].block == block)
			return &s[i];
	ck_abort_msg("no set for block %u", block);
	return NULL;
}

START_TEST(test_plan_sparsest_first)
{
	struct f2fs_flush_set s[] = { set_of(5, 30), set_of(9, 4), set_of(2, 5), set_of(7, 40),
				      set_of(3, 4) };

	/* 4 + 4 + 5 = 13 fit in 20; 30 and 40 do not */
	ck_assert_uint_eq(f2fs_flush_plan(s, 5, 20, 0), 13);
	ck_assert_uint_eq(s[0].block, 3);   /* sparsest first, equal counts by block */
	ck_assert_uint_eq(s[1].block, 9);
	ck_assert_uint_eq(s[2].block, 2);
	ck_assert(find_set(s, 5, 3)->to_journal);
	ck_assert(find_set(s, 5, 9)->to_journal);
	ck_assert(find_set(s, 5, 2)->to_journal);
	ck_assert(!find_set(s, 5, 5)->to_journal);
	ck_assert(!find_set(s, 5, 7)->to_journal);
}
END_TEST

START_TEST(test_plan_room_exact)
{
	struct f2fs_flush_set s[] = { set_of(1, 30), set_of(2, 5), set_of(3, 3) };
	struct f2fs_flush_set t[] = { set_of(1, 30), set_of(2, 5), set_of(3, 4) };

	/* 3 + 5 + 30 = 38: the journal is exactly full */
	ck_assert_uint_eq(f2fs_flush_plan(s, 3, F2FS_NAT_JOURNAL_ENTRIES, 0), 38);
	for (int i = 0; i < 3; i++)
		ck_assert(s[i].to_journal);
	/* one more entry: the largest set goes to its block */
	ck_assert_uint_eq(f2fs_flush_plan(t, 3, F2FS_NAT_JOURNAL_ENTRIES, 0), 9);
	ck_assert(!find_set(t, 3, 1)->to_journal);
	ck_assert(find_set(t, 3, 2)->to_journal);
	ck_assert(find_set(t, 3, 3)->to_journal);
}
END_TEST

START_TEST(test_plan_block0)
{
	struct f2fs_flush_set s[] = { set_of(0, 3), set_of(4, 10) };
	struct f2fs_flush_set t[] = { set_of(0, 3), set_of(4, 10) };

	ck_assert_uint_eq(f2fs_flush_plan(s, 2, 38, F2FS_FLUSH_BLOCK0), 10);
	ck_assert(!find_set(s, 2, 0)->to_journal);
	ck_assert(find_set(s, 2, 4)->to_journal);
	/* without the rule block 0 is a set like any other */
	ck_assert_uint_eq(f2fs_flush_plan(t, 2, 38, 0), 13);
	ck_assert(find_set(t, 2, 0)->to_journal);
}
END_TEST

START_TEST(test_plan_no_journal)
{
	struct f2fs_flush_set s[] = { set_of(8, 50), set_of(1, 2), set_of(4, 1) };

	ck_assert_uint_eq(f2fs_flush_plan(s, 3, 38, F2FS_FLUSH_NO_JOURNAL), 0);
	for (int i = 0; i < 3; i++)
		ck_assert(!s[i].to_journal);
	ck_assert_uint_eq(s[0].block, 8);   /* block order kept */
	ck_assert_uint_eq(s[2].block, 4);
}
END_TEST

START_TEST(test_empties_journal)
{
	ck_assert(!f2fs_flush_empties_journal(0, 38, 38, 0));
	ck_assert(f2fs_flush_empties_journal(0, 39, 38, 0));
	ck_assert(!f2fs_flush_empties_journal(30, 8, 38, 0));
	ck_assert(f2fs_flush_empties_journal(30, 9, 38, 0));
	ck_assert(f2fs_flush_empties_journal(50, 0, 38, 0));   /* a bad count */
	ck_assert(f2fs_flush_empties_journal(0, 0, 38, F2FS_FLUSH_NO_JOURNAL));
	ck_assert(!f2fs_flush_empties_journal(6, 0, 6, 0));
}
END_TEST

/* Dirty entries of either kind come to a flush in key order. */
START_TEST(test_flush_sort)
{
	struct f2fs_nat_dirty n[] = { { 900, 1, 0, 0 }, { 3, 2, 0, 0 }, { 456, 3, 0, 0 } };
	struct f2fs_sit_dirty d[3];
	struct f2fs_error err = { 0 };

	memset(d, 0, sizeof(d));
	d[0].segno = 70, d[1].segno = 5, d[2].segno = 56;
	f2fs_flush_sort(n, 3, sizeof(n[0]));
	f2fs_flush_sort(d, 3, sizeof(d[0]));
	ck_assert_uint_eq(n[0].nid, 3);
	ck_assert_uint_eq(n[0].ino, 2);
	ck_assert_uint_eq(n[2].nid, 900);
	ck_assert_uint_eq(d[0].segno, 5);
	ck_assert_uint_eq(d[2].segno, 70);
	ck_assert_int_eq(f2fs_flush_check(n, 3, sizeof(n[0]), 1000, "nid", &err), 0);
	ck_assert_int_eq(f2fs_flush_check(d, 3, sizeof(d[0]), 100, "segment", &err), 0);
}
END_TEST

START_TEST(test_group_and_merge)
{
	struct f2fs_nat_dirty e[] = { { 3, 3, 30, 0 }, { 454, 4, 40, 0 }, { 455, 5, 50, 0 },
				      { 2000, 6, 60, 0 } };
	struct f2fs_nat_dirty j[] = { { 2000, 9, 99, 0 }, { 1, 1, 10, 0 }, { 456, 7, 70, 0 },
				      { 1, 8, 80, 0 } };
	struct f2fs_flush_set s[4];
	struct f2fs_error err = { 0 };
	struct f2fs_nat_dirty *m;
	void *out;
	size_t n;

	ck_assert_uint_eq(f2fs_flush_group(e, 4, sizeof(e[0]), NPB, NULL), 3);
	ck_assert_uint_eq(f2fs_flush_group(e, 4, sizeof(e[0]), NPB, s), 3);
	ck_assert_uint_eq(s[0].block, 0);
	ck_assert_uint_eq(s[0].count, 2);
	ck_assert_uint_eq(s[1].block, 1);
	ck_assert_uint_eq(s[1].first, 2);
	ck_assert_uint_eq(s[2].block, 4);
	ck_assert_uint_eq(s[2].first, 3);
	ck_assert_int_eq(f2fs_flush_merge(e, 4, j, 4, sizeof(e[0]), &out, &n, &err), 0);
	m = out;
	ck_assert_uint_eq(n, 6);   /* 1, 3, 454, 455, 456, 2000 */
	ck_assert_uint_eq(m[0].nid, 1);
	ck_assert_uint_eq(m[0].ino, 1);      /* the journal's first entry for nid 1 */
	ck_assert_uint_eq(m[4].nid, 456);
	ck_assert_uint_eq(m[5].nid, 2000);
	ck_assert_uint_eq(m[5].blkaddr, 60); /* the dirty entry wins */
	free(out);
	/* the first journal entry wins whatever its content (the merge sorted
	 * j in place: lay it out again) */
	j[0] = (struct f2fs_nat_dirty){ 2000, 9, 99, 0 };
	j[1] = (struct f2fs_nat_dirty){ 1, 8, 80, 0 };
	j[2] = (struct f2fs_nat_dirty){ 456, 7, 70, 0 };
	j[3] = (struct f2fs_nat_dirty){ 1, 1, 10, 0 };
	ck_assert_int_eq(f2fs_flush_merge(e, 4, j, 4, sizeof(e[0]), &out, &n, &err), 0);
	m = out;
	ck_assert_uint_eq(m[0].nid, 1);
	ck_assert_uint_eq(m[0].ino, 8);
	free(out);
	ck_assert_int_eq(f2fs_flush_check(e, 4, sizeof(e[0]), 2001, "nid", &err), 0);
	ck_assert_int_eq(f2fs_flush_check(e, 4, sizeof(e[0]), 2000, "nid", &err), -EINVAL);
	e[2].nid = 454;
	ck_assert_int_eq(f2fs_flush_check(e, 4, sizeof(e[0]), 2001, "nid", &err), -EINVAL);
}
END_TEST

/* ---- copies and version bitmaps ------------------------------------------ */

START_TEST(test_copy_addressing)
{
	uint8_t map[4] = { 0 };

	/* NAT copies alternate by segment */
	ck_assert_uint_eq(f2fs_nat_copy_addr(4096, 0, 0), 4096);
	ck_assert_uint_eq(f2fs_nat_copy_addr(4096, 0, 1), 4096 + 512);
	ck_assert_uint_eq(f2fs_nat_copy_addr(4096, 511, 1), 4096 + 1023);
	ck_assert_uint_eq(f2fs_nat_copy_addr(4096, 513, 0), 4096 + 1024 + 1);
	ck_assert_uint_eq(f2fs_nat_copy_addr(4096, 513, 1), 4096 + 1536 + 1);
	/* SIT copy 1 follows all of copy 0 (4 segments: 2 a copy) */
	ck_assert_uint_eq(f2fs_sit_copy_span(4), 1024);
	ck_assert_uint_eq(f2fs_sit_copy_addr(1536, 4, 700, 0), 1536 + 700);
	ck_assert_uint_eq(f2fs_sit_copy_addr(1536, 4, 700, 1), 1536 + 1024 + 700);
	/* bitmaps are MSB-first */
	f2fs_ver_bit_set(map, 0, 1);
	ck_assert_uint_eq(map[0], 0x80);
	f2fs_ver_bit_set(map, 9, 1);
	ck_assert_uint_eq(map[1], 0x40);
	ck_assert_int_eq(f2fs_ver_bit(map, 9), 1);
	ck_assert_int_eq(f2fs_ver_bit(map, 8), 0);
	f2fs_ver_bit_set(map, 9, 0);
	ck_assert_int_eq(f2fs_ver_bit(map, 9), 0);
	f2fs_ver_bit_set(map, 31, 1);
	ck_assert_uint_eq(map[3], 0x01);
	f2fs_ver_bit_set(map, 31, 0);
	f2fs_ver_bit_set(map, 0, 1);
	ck_assert_uint_eq(map[3], 0);
	ck_assert_uint_eq(map[0], 0x80);
}
END_TEST

START_TEST(test_meta_area_inactive_copy)
{
	uint8_t live[2] = { 0x20, 0 }, next[2] = { 0x20, 0 }, blk[BLK];
	struct f2fs_error err = { 0 };
	struct f2fs_meta_area a;
	struct mem m;
	struct f2fs_block_io io = mem_io(&m);

	f2fs_meta_area_nat(&a, 4096, 16, live, next, &io);
	/* block 2 is live in copy 1: read there, write copy 0, bit cleared */
	ck_assert_int_eq(f2fs_meta_area_target(&a, 2), 0);
	ck_assert_int_eq(f2fs_meta_area_read(&a, 2, blk, &err), 0);
	ck_assert_uint_eq(m.read_addr[0], 4096 + 512 + 2);
	ck_assert_int_eq(f2fs_meta_area_write(&a, 2, blk, &err), 0);
	ck_assert_uint_eq(m.addr[0], 4096 + 2);
	ck_assert_uint_eq(next[0], 0x00);
	/* block 3 is live in copy 0: written to copy 1, bit set */
	ck_assert_int_eq(f2fs_meta_area_write(&a, 3, blk, &err), 0);
	ck_assert_uint_eq(m.addr[1], 4096 + 512 + 3);
	ck_assert_uint_eq(next[0], 0x10);
	ck_assert_uint_eq(live[0], 0x20);   /* the checkpoint in use is untouched */
	ck_assert_int_eq(f2fs_meta_area_write(&a, 16, blk, &err), -EINVAL);
	/* a fresh area: zeroes, copy 0, no reads */
	f2fs_meta_area_nat(&a, 4096, 16, NULL, NULL, &io);
	memset(blk, 0xAA, sizeof(blk));
	ck_assert_int_eq(f2fs_meta_area_read(&a, 5, blk, &err), 0);
	ck_assert_uint_eq(blk[100], 0);
	ck_assert_int_eq(m.nreads, 1);
	ck_assert_int_eq(f2fs_meta_area_write(&a, 5, blk, &err), 0);
	ck_assert_uint_eq(m.addr[2], 4096 + 5);
}
END_TEST

/* ---- the NAT flush -------------------------------------------------------- */

#define NAT_ADDR 8192u
#define NAT_BLOCKS 64u

struct nat_fixture {
	struct mem m;
	uint8_t live[NAT_BLOCKS / 8], next[NAT_BLOCKS / 8];
	struct f2fs_journal j;
	uint16_t used[NAT_BLOCKS];
	struct f2fs_nat_flush f;
};

static void nat_setup(struct nat_fixture *x, unsigned policy)
{
	struct f2fs_block_io io = mem_io(&x->m);

	memset(x->live, 0, sizeof(x->live));
	x->live[0] = 0x40;   /* block 1 lives in copy 1 */
	memcpy(x->next, x->live, sizeof(x->next));
	memset(&x->j, 0, sizeof(x->j));
	memset(x->used, 0xFF, sizeof(x->used));
	f2fs_meta_area_nat(&x->f.area, NAT_ADDR, NAT_BLOCKS, x->live, x->next, &io);
	x->f.journal = &x->j;
	x->f.used = x->used;
	x->f.policy = policy;
}

static void journal_add(struct f2fs_journal *j, uint32_t nid, uint32_t ino, uint32_t addr)
{
	struct f2fs_nat_dirty d = { nid, ino, addr, 0 };
	struct f2fs_error err;

	ck_assert_int_eq(f2fs_nat_journal_put(j, &d, 1, &err), 0);
}

static int journal_has(const struct f2fs_journal *j, uint32_t nid, uint32_t addr)
{
	for (uint32_t i = 0; i < le16_get(j->n_entries); i++)
		if (le32_get(j->nat_j.entries[i].nid) == nid)
			return le32_get(j->nat_j.entries[i].ne.block_addr) == addr;
	return 0;
}

/* n entries of block k with blkaddr base + i */
static size_t dirty_run(struct f2fs_nat_dirty *e, uint32_t k, uint32_t n, uint32_t base)
{
	for (uint32_t i = 0; i < n; i++)
		e[i] = (struct f2fs_nat_dirty){ k * NPB + 10 + i, k * NPB + 10 + i, base + i, 1 };
	return n;
}

START_TEST(test_nat_into_journal)
{
	struct nat_fixture x;
	struct f2fs_nat_dirty e[4];
	struct f2fs_error err = { 0 };
	size_t n = 0;

	nat_setup(&x, 0);
	journal_add(&x.j, 5 * NPB + 1, 7, 777);
	journal_add(&x.j, 2 * NPB + 10, 1, 111);
	n += dirty_run(e, 2, 2, 5000);     /* nid 2*NPB+10 is updated in place */
	n += dirty_run(e + n, 3, 1, 6000);
	ck_assert_int_eq(f2fs_nat_flush(&x.f, e, n, &err), 0);
	ck_assert_int_eq(x.m.nwrites, 0);
	ck_assert_uint_eq(le16_get(x.j.n_entries), 4);
	ck_assert(journal_has(&x.j, 5 * NPB + 1, 777));
	ck_assert(journal_has(&x.j, 2 * NPB + 10, 5000));
	ck_assert(journal_has(&x.j, 2 * NPB + 11, 5001));
	ck_assert(journal_has(&x.j, 3 * NPB + 10, 6000));
	ck_assert_int_eq(memcmp(x.next, x.live, sizeof(x.next)), 0);
}
END_TEST

START_TEST(test_nat_journal_emptied)
{
	struct nat_fixture x;
	struct f2fs_nat_dirty e[64];
	struct f2fs_error err = { 0 };
	const struct f2fs_nat_block *nb;
	size_t n = 0;
	int w;

	nat_setup(&x, 0);
	for (uint32_t i = 0; i < 30; i++)
		journal_add(&x.j, 1 * NPB + 200 + i, 1, 9000 + i);   /* block 1: 30 entries */
	n += dirty_run(e, 1, 3, 5000);      /* block 1: 3 more dirty */
	n += dirty_run(e + n, 4, 20, 6000); /* block 4: 20 */
	n += dirty_run(e + n, 7, 2, 7000);  /* block 7: 2 */
	/* 30 + 25 > 38: the journal joins the sets; 2 + 20 go in, 33 do not */
	ck_assert_int_eq(f2fs_nat_flush(&x.f, e, n, &err), 0);
	ck_assert_uint_eq(le16_get(x.j.n_entries), 22);
	ck_assert(journal_has(&x.j, 7 * NPB + 11, 7001));
	ck_assert(journal_has(&x.j, 4 * NPB + 29, 6019));
	ck_assert(!journal_has(&x.j, 1 * NPB + 200, 9000));
	ck_assert_int_eq(x.m.nwrites, 1);
	/* block 1 lived in copy 1: read there, written to copy 0, bit cleared */
	w = written_at(&x.m, f2fs_nat_copy_addr(NAT_ADDR, 1, 0));
	ck_assert_int_ge(w, 0);
	ck_assert_uint_eq(x.m.read_addr[0], f2fs_nat_copy_addr(NAT_ADDR, 1, 1));
	ck_assert_int_eq(f2fs_ver_bit(x.next, 1), 0);
	nb = (const void *)x.m.data[w];
	ck_assert_uint_eq(le32_get(nb->entries[10].block_addr), 5000);
	ck_assert_uint_eq(le32_get(nb->entries[229].block_addr), 9029);   /* from the journal */
	ck_assert_uint_eq(le32_get(nb->entries[0].block_addr),             /* kept from the live copy */
			  f2fs_nat_copy_addr(NAT_ADDR, 1, 1));
	ck_assert_uint_eq(x.used[1], NPB);
	ck_assert_uint_eq(x.used[4], 0xFFFF);   /* journaled: not counted here */
}
END_TEST

START_TEST(test_nat_bits_policy)
{
	struct nat_fixture x;
	struct f2fs_nat_dirty e[8];
	struct f2fs_error err = { 0 };
	size_t n = 0;
	int w;

	nat_setup(&x, F2FS_FLUSH_NO_JOURNAL);
	journal_add(&x.j, 3 * NPB + 400, 3, 333);
	journal_add(&x.j, 1 * NPB + 10, 1, 111);   /* also dirty: the dirty one wins */
	n += dirty_run(e, 1, 1, 5000);
	n += dirty_run(e + n, 6, 2, 6000);
	ck_assert_int_eq(f2fs_nat_flush(&x.f, e, n, &err), 0);
	ck_assert_uint_eq(le16_get(x.j.n_entries), 0);
	/* every dirty block exactly once: 1, 3 (from the journal) and 6 */
	ck_assert_int_eq(x.m.nwrites, 3);
	w = written_at(&x.m, f2fs_nat_copy_addr(NAT_ADDR, 1, 0));
	ck_assert_int_ge(w, 0);
	ck_assert_uint_eq(le32_get(((const struct f2fs_nat_block *)x.m.data[w])->entries[10].block_addr),
			  5000);
	w = written_at(&x.m, f2fs_nat_copy_addr(NAT_ADDR, 3, 1));
	ck_assert_int_ge(w, 0);
	ck_assert_uint_eq(le32_get(((const struct f2fs_nat_block *)x.m.data[w])->entries[400].block_addr),
			  333);
	ck_assert_int_ge(written_at(&x.m, f2fs_nat_copy_addr(NAT_ADDR, 6, 1)), 0);
	ck_assert_int_eq(f2fs_ver_bit(x.next, 3), 1);
	ck_assert_int_eq(f2fs_ver_bit(x.next, 6), 1);
	ck_assert_uint_eq(x.used[6], NPB);
}
END_TEST

START_TEST(test_nat_mkfs_rules)
{
	struct nat_fixture x;
	struct f2fs_nat_dirty e[3] = { { 1, 1, 1, 0 }, { 2, 2, 1, 0 }, { 3, 3, 900, 0 } };
	struct f2fs_error err = { 0 };
	int w;

	nat_setup(&x, F2FS_FLUSH_BLOCK0);
	x.f.area.live = NULL;   /* a fresh NAT */
	x.f.area.next = NULL;
	x.f.used = NULL;
	ck_assert_int_eq(f2fs_nat_flush(&x.f, e, 3, &err), 0);
	ck_assert_int_eq(x.m.nreads, 0);
	ck_assert_int_eq(x.m.nwrites, 1);
	w = written_at(&x.m, NAT_ADDR);
	ck_assert_int_eq(w, 0);
	ck_assert_uint_eq(le32_get(((const struct f2fs_nat_block *)x.m.data[0])->entries[3].block_addr),
			  900);
	ck_assert_uint_eq(le32_get(((const struct f2fs_nat_block *)x.m.data[0])->entries[4].ino), 0);
	ck_assert_uint_eq(le16_get(x.j.n_entries), 0);
}
END_TEST

START_TEST(test_nat_fold_journal)
{
	struct nat_fixture x;
	struct f2fs_nat_dirty e[1];
	struct f2fs_error err = { 0 };
	const struct f2fs_nat_block *nb;

	/* block 0 must be written although its entries would fit the
	 * journal: the journal's entry of block 0 is newer than the block,
	 * so it goes into the block and out of the journal */
	nat_setup(&x, F2FS_FLUSH_BLOCK0);
	journal_add(&x.j, 9 * NPB + 1, 9, 999);
	journal_add(&x.j, 20, 20, 222);
	dirty_run(e, 0, 1, 5000);
	ck_assert_int_eq(f2fs_nat_flush(&x.f, e, 1, &err), 0);
	ck_assert_int_eq(x.m.nwrites, 1);
	nb = (const void *)x.m.data[0];
	ck_assert_uint_eq(x.m.addr[0], f2fs_nat_copy_addr(NAT_ADDR, 0, 1));
	ck_assert_uint_eq(le32_get(nb->entries[10].block_addr), 5000);
	ck_assert_uint_eq(le32_get(nb->entries[20].block_addr), 222);
	ck_assert_uint_eq(le16_get(x.j.n_entries), 1);
	ck_assert(journal_has(&x.j, 9 * NPB + 1, 999));
}
END_TEST

START_TEST(test_nat_refuses)
{
	struct nat_fixture x;
	struct f2fs_nat_dirty e[2] = { { 9, 1, 1, 0 }, { 8, 2, 1, 0 } };
	struct f2fs_nat_dirty far = { NAT_BLOCKS * NPB, 1, 1, 0 };
	struct f2fs_error err = { 0 };

	nat_setup(&x, 0);
	ck_assert_int_eq(f2fs_nat_flush(&x.f, e, 2, &err), -EINVAL);
	ck_assert_int_eq(f2fs_nat_flush(&x.f, &far, 1, &err), -EINVAL);
	ck_assert_int_eq(x.m.nwrites, 0);
	/* a write error comes back with the writer's message */
	nat_setup(&x, F2FS_FLUSH_NO_JOURNAL);
	x.f.area.io.write = fail_write;
	ck_assert_int_eq(f2fs_nat_flush(&x.f, e + 1, 1, &err), -EIO);
	ck_assert_str_eq(err.msg, "write of block 8704 failed");
}
END_TEST

/* ---- the SIT flush -------------------------------------------------------- */

/* A journal takes what fits and refuses the rest, whole. */
START_TEST(test_journals_full)
{
	struct f2fs_journal nj, sj;
	struct f2fs_error err = { 0 };

	memset(&nj, 0, sizeof(nj));
	memset(&sj, 0, sizeof(sj));
	for (uint32_t i = 0; i < F2FS_NAT_JOURNAL_ENTRIES; i++) {
		struct f2fs_nat_dirty d = { 100 + i, 100 + i, 5000 + i, 0 };

		ck_assert_int_eq(f2fs_nat_journal_put(&nj, &d, 1, &err), 0);
	}
	{
		struct f2fs_nat_dirty again = { 100, 100, 7777, 0 }, more = { 99, 99, 1, 0 };

		/* an entry already there is updated in place even when full */
		ck_assert_int_eq(f2fs_nat_journal_put(&nj, &again, 1, &err), 0);
		ck_assert_uint_eq(le32_get(nj.nat_j.entries[0].ne.block_addr), 7777);
		ck_assert_int_eq(f2fs_nat_journal_put(&nj, &more, 1, &err), -F2FS_E_NO_SPACE);
		ck_assert_uint_eq(le16_get(nj.n_entries), F2FS_NAT_JOURNAL_ENTRIES);
	}
	for (uint32_t i = 0; i < F2FS_SIT_JOURNAL_ENTRIES; i++) {
		struct f2fs_sit_dirty d = { .segno = 10 + i, .type = 1, .valid = 3 };

		ck_assert_int_eq(f2fs_sit_journal_put(&sj, &d, 1, &err), 0);
	}
	{
		struct f2fs_sit_dirty more = { .segno = 1, .type = 1, .valid = 1 };

		ck_assert_int_eq(f2fs_sit_journal_put(&sj, &more, 1, &err), -F2FS_E_NO_SPACE);
		ck_assert_uint_eq(le16_get(sj.n_entries), F2FS_SIT_JOURNAL_ENTRIES);
	}
}
END_TEST

START_TEST(test_sit_flush)
{
	uint8_t live[2] = { 0 }, next[2] = { 0 };
	struct f2fs_journal j;
	struct f2fs_sit_dirty e[10];
	struct f2fs_sit_flush f;
	struct f2fs_error err = { 0 };
	struct mem m;
	struct f2fs_block_io io = mem_io(&m);
	const struct f2fs_sit_block *sb;
	int w;

	memset(&j, 0, sizeof(j));
	memset(e, 0, sizeof(e));
	f2fs_meta_area_sit(&f.area, 1536, 4, 16, live, next, &io);
	f.main_segs = 16 * EPB;
	f.journal = &j;
	f.policy = 0;
	for (int i = 0; i < 4; i++)   /* segments 0..3: block 0 */
		e[i] = (struct f2fs_sit_dirty){ .segno = (uint32_t)i, .type = 3, .valid = 7 };
	e[4] = (struct f2fs_sit_dirty){ .segno = EPB * 2 + 1, .type = 1, .valid = 512, .mtime = 9 };
	memset(e[4].map, 0xFF, sizeof(e[4].map));
	/* five fit the six-entry journal */
	ck_assert_int_eq(f2fs_sit_flush(&f, e, 5, &err), 0);
	ck_assert_int_eq(m.nwrites, 0);
	ck_assert_uint_eq(le16_get(j.n_entries), 5);
	ck_assert_uint_eq(le32_get(j.sit_j.entries[0].segno), EPB * 2 + 1);   /* sparsest set first */
	ck_assert_uint_eq(le16_get(j.sit_j.entries[0].se.vblocks), (1 << 10) | 512);
	ck_assert_uint_eq(le64_get(j.sit_j.entries[0].se.mtime), 9);
	ck_assert_uint_eq(j.sit_j.entries[0].se.valid_map[63], 0xFF);
	ck_assert_uint_eq(le32_get(j.sit_j.entries[4].segno), 3);
	/* a segment already in the journal is updated in place */
	e[2].valid = 9;
	ck_assert_int_eq(f2fs_sit_flush(&f, e + 2, 1, &err), 0);
	ck_assert_uint_eq(le16_get(j.n_entries), 5);
	ck_assert_uint_eq(le16_get(j.sit_j.entries[3].se.vblocks), (3 << 10) | 9);
	e[2].valid = 7;
	/* two more segments of block 2: 5 + 2 > 6, the journal joins the sets;
	 * block 2 (3 entries) goes in, block 0 (4) to copy 1 */
	e[5] = e[4];
	e[4] = (struct f2fs_sit_dirty){ .segno = EPB * 2, .type = 2, .valid = 1 };
	e[6] = (struct f2fs_sit_dirty){ .segno = EPB * 2 + 2, .type = 2, .valid = 2 };
	ck_assert_int_eq(f2fs_sit_flush(&f, e + 4, 3, &err), 0);
	ck_assert_uint_eq(le16_get(j.n_entries), 3);
	ck_assert_int_eq(m.nwrites, 1);
	w = written_at(&m, 1536 + 1024);
	ck_assert_int_eq(w, 0);
	ck_assert_uint_eq(m.read_addr[0], 1536);
	ck_assert_int_eq(f2fs_ver_bit(next, 0), 1);
	sb = (const void *)m.data[0];
	ck_assert_uint_eq(le16_get(sb->entries[3].vblocks), (3 << 10) | 7);
	/* a segment beyond the main area is refused */
	e[0].segno = 16 * EPB;
	ck_assert_int_eq(f2fs_sit_flush(&f, e, 1, &err), -EINVAL);
}
END_TEST

/* ---- the flush over any table kind ---------------------------------------- */

/* A made-up table: 4-byte values, 1024 a block, a journal of four. */
struct toy_dirty {
	uint32_t key;
	uint32_t value;
};

static void toy_encode(void *entry, const void *dirty)
{
	le32_store(entry, ((const struct toy_dirty *)dirty)->value);
}

static void toy_decode(void *dirty, uint32_t key, const void *entry)
{
	*(struct toy_dirty *)dirty = (struct toy_dirty){ key, le32_load(entry) };
}

static const struct f2fs_table_kind toy = {
	"TOY", "key", { 8, 4, BLK / 4 }, sizeof(struct toy_dirty), toy_encode, toy_decode,
};

struct toy_seen {
	int calls;
	uint32_t block;
	uint32_t value_2050;
};

static void toy_written(const void *arg, uint32_t block, const void *content)
{
	struct toy_seen *seen = (struct toy_seen *)arg;

	seen->calls++;
	seen->block = block;
	seen->value_2050 = le32_load((const uint8_t *)content + 4 * (2050 % (BLK / 4)));
}

/* The journal joins the sets when the dirty entries do not fit beside it;
 * the sparsest sets go back in, the rest to their blocks, each block once,
 * the kind's encoding in both places and the caller told of each block. */
START_TEST(test_table_flush_kind)
{
	uint8_t live[2] = { 0 }, next[2] = { 0 };
	struct f2fs_journal j;
	struct toy_dirty e[8];
	struct f2fs_meta_area area;
	struct toy_seen seen = { 0 };
	struct f2fs_table_flush f = { &toy, &area, &j, 4 * (BLK / 4), 0, toy_written, &seen };
	struct f2fs_error err = { 0 };
	struct mem m;
	struct f2fs_block_io io = mem_io(&m);
	const uint8_t *blk;

	memset(&j, 0, sizeof(j));
	f2fs_meta_area_nat(&area, 4096, 4, live, next, &io);
	/* in the journal: key 3 (block 0) and 1500 (block 1) */
	ck_assert_int_eq(f2fs_table_journal_put(&toy, &j, &(struct toy_dirty){ 3, 333 }, 1, &err), 0);
	ck_assert_int_eq(f2fs_table_journal_put(&toy, &j, &(struct toy_dirty){ 1500, 6 }, 1, &err), 0);
	ck_assert_uint_eq(le16_get(j.n_entries), 2);
	/* dirty: keys 1, 2 (block 0), 2050..2055 (block 2) */
	e[0] = (struct toy_dirty){ 1, 11 };
	e[1] = (struct toy_dirty){ 2, 22 };
	for (uint32_t i = 0; i < 6; i++)
		e[2 + i] = (struct toy_dirty){ 2050 + i, 1000 + i };
	ck_assert_int_eq(f2fs_table_flush(&f, e, 8, &err), 0);
	/* block 1 (1 entry) and block 0 (3) fill the journal; block 2 is written */
	ck_assert_uint_eq(le16_get(j.n_entries), 4);
	ck_assert_uint_eq(f2fs_journal_key(&j, toy.journal, 0), 1500);
	ck_assert_uint_eq(f2fs_journal_key(&j, toy.journal, 1), 1);
	ck_assert_uint_eq(f2fs_journal_key(&j, toy.journal, 3), 3);
	ck_assert_uint_eq(le32_load(f2fs_journal_value(&j, toy.journal, 3)), 333);
	ck_assert_int_eq(m.nwrites, 1);
	ck_assert_int_eq(written_at(&m, f2fs_nat_copy_addr(4096, 2, 1)), 0);
	blk = m.data[0];
	ck_assert_uint_eq(le32_load(blk + 4 * (2055 % (BLK / 4))), 1005);
	ck_assert_int_eq(seen.calls, 1);
	ck_assert_uint_eq(seen.block, 2);
	ck_assert_uint_eq(seen.value_2050, 1000);
	/* a key beyond the table is refused, named as the kind says */
	e[0].key = 4 * (BLK / 4);
	ck_assert_int_eq(f2fs_table_flush(&f, e, 1, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "dirty key 4096"));
	/* a full journal is named too */
	ck_assert_int_eq(f2fs_table_journal_put(&toy, &j, &(struct toy_dirty){ 9, 9 }, 1, &err),
			 -F2FS_E_NO_SPACE);
	ck_assert_ptr_nonnull(strstr(err.msg, "TOY journal full (4 entries): no room for key 9"));
}
END_TEST

/* ---- the checkpoint pack -------------------------------------------------- */

#define CP_ADDR 512u

struct pack_fixture {
	uint8_t head[2 * BLK];     /* checkpoint block + one payload block */
	struct f2fs_summary sum[F2FS_NR_CURSEG_TYPE][F2FS_ENTRIES_IN_SUM];
	struct f2fs_journal nat_j, sit_j;
	uint16_t used[1024];
	struct f2fs_cp_pack p;
	struct mem m;
};

static void pack_setup(struct pack_fixture *x, uint32_t flags, const uint16_t nsum[6])
{
	struct f2fs_checkpoint *cp = (struct f2fs_checkpoint *)x->head;

	memset(x, 0, sizeof(*x));
	cp->ckpt_flags = le32_put(flags | F2FS_CP_COMPACT_SUM);   /* the writer decides that */
	cp->checksum_offset = le32_put(F2FS_CP_CHKSUM_OFFSET);
	cp->valid_block_count = le64_put(1234);
	x->head[BLK + 7] = 0x5A;   /* payload content travels as given */
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++)
		for (int i = 0; i < F2FS_ENTRIES_IN_SUM; i++)
			x->sum[t][i].nid = le32_put((uint32_t)(t * 1000 + i + 1));
	x->nat_j.n_entries = le16_put(1);
	x->nat_j.nat_j.entries[0].nid = le32_put(77);
	x->sit_j.n_entries = le16_put(2);
	x->sit_j.sit_j.entries[1].segno = le32_put(88);
	x->used[0] = NPB;
	x->p.head = x->head;
	x->p.cp_payload = 1;
	x->p.nat_j = &x->nat_j;
	x->p.sit_j = &x->sit_j;
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++) {
		x->p.sum[t] = x->sum[t];
		x->p.nsum[t] = nsum[t];
	}
	x->p.nat_used = x->used;
	x->p.nat_blocks = 1024;
}

/* The block the pack wrote at offset i of slot's segment. */
static const uint8_t *pack_block(const struct pack_fixture *x, int slot, uint32_t i)
{
	int w = written_at(&x->m, CP_ADDR + (uint64_t)slot * 512 + i);

	ck_assert_msg(w >= 0, "pack block %u not written", i);
	return x->m.data[w];
}

START_TEST(test_pack_compact)
{
	static const uint16_t nsum[6] = { 3, 5, 2, 10, 1, 0 };
	struct pack_fixture *x = malloc(sizeof(*x));
	struct f2fs_block_io io;
	struct f2fs_error err = { 0 };
	const struct f2fs_checkpoint *cp;
	struct f2fs_journal nj, sj;
	struct f2fs_summary got[3][8];
	struct f2fs_summary *ents[3] = { got[0], got[1], got[2] };
	const struct f2fs_summary_block *node;
	uint32_t total;

	pack_setup(x, F2FS_CP_UMOUNT | F2FS_CP_NAT_BITS, nsum);
	io = mem_io(&x->m);
	/* header, payload, 1 compact data block, 3 node blocks, footer */
	ck_assert_uint_eq(f2fs_cp_pack_blocks(&x->p), 7);
	ck_assert_int_eq(f2fs_cp_pack_write(&x->p, CP_ADDR, 1, 42, &io, &err), 0);
	total = 7;
	ck_assert_int_eq(x->m.nwrites, (int)total + 1);   /* and one nat_bits block */
	/* the footer is the last write, the nat_bits area before it */
	ck_assert_uint_eq(x->m.addr[x->m.nwrites - 1], CP_ADDR + 512 + total - 1);
	ck_assert_uint_eq(x->m.addr[x->m.nwrites - 2], CP_ADDR + 512 + 511);
	cp = (const void *)pack_block(x, 1, 0);
	ck_assert_int_eq(f2fs_cp_verify(cp, CP_ADDR + 512, &err), 0);
	ck_assert_int_eq(f2fs_cp_verify(pack_block(x, 1, total - 1), CP_ADDR + 512 + total - 1,
					&err), 0);
	ck_assert_int_eq(memcmp(cp, pack_block(x, 1, total - 1), BLK), 0);
	ck_assert_uint_eq(le64_get(cp->checkpoint_ver), 42);
	ck_assert_uint_eq(le32_get(cp->cp_pack_total_block_count), total);
	ck_assert_uint_eq(le32_get(cp->cp_pack_start_sum), 2);
	ck_assert_uint_eq(le32_get(cp->ckpt_flags),
			  F2FS_CP_UMOUNT | F2FS_CP_NAT_BITS | F2FS_CP_COMPACT_SUM);
	ck_assert_uint_eq(le64_get(cp->valid_block_count), 1234);
	ck_assert_uint_eq(pack_block(x, 1, 1)[7], 0x5A);
	ck_assert_int_eq(f2fs_compact_sum_decode(pack_block(x, 1, 2), 1, &nj, &sj, ents, nsum,
						 &err), 0);
	ck_assert_int_eq(memcmp(&nj, &x->nat_j, sizeof(nj)), 0);
	ck_assert_int_eq(memcmp(&sj, &x->sit_j, sizeof(sj)), 0);
	ck_assert_uint_eq(le32_get(got[1][4].nid), 1005);
	node = (const void *)pack_block(x, 1, 3);
	ck_assert_uint_eq(node->footer.entry_type, F2FS_SUM_TYPE_NODE);
	ck_assert_uint_eq(le32_get(node->entries[9].nid), 3010);
	ck_assert_uint_eq(le32_get(node->entries[10].nid), 0);
	ck_assert_uint_eq(le64_load(pack_block(x, 1, 511)),
			  f2fs_nat_bits_header(42, f2fs_cp_stored_crc(cp)));
	free(x);
}
END_TEST

START_TEST(test_pack_normal_orphans)
{
	static const uint16_t nsum[6] = { 400, 400, 300, 1, 1, 1 };
	static uint8_t orphans[2 * BLK];
	struct pack_fixture *x = malloc(sizeof(*x));
	struct f2fs_block_io io;
	struct f2fs_error err = { 0 };
	const struct f2fs_checkpoint *cp;
	const struct f2fs_summary_block *sb;

	/* a checkpoint that is not an umount one: no node summaries, no nat_bits */
	pack_setup(x, F2FS_CP_TRIMMED, nsum);
	io = mem_io(&x->m);
	orphans[5] = 0x77;
	x->p.orphans = orphans;
	x->p.orphan_blocks = 2;
	/* header, payload, 2 orphan blocks, 3 data summaries, footer */
	ck_assert_uint_eq(f2fs_cp_pack_blocks(&x->p), 8);
	ck_assert_int_eq(f2fs_cp_pack_write(&x->p, CP_ADDR, 0, 9, &io, &err), 0);
	ck_assert_int_eq(x->m.nwrites, 8);
	ck_assert_uint_eq(x->m.addr[7], CP_ADDR + 7);
	cp = (const void *)pack_block(x, 0, 0);
	ck_assert_int_eq(f2fs_cp_verify(cp, CP_ADDR, &err), 0);
	ck_assert_int_eq(f2fs_cp_verify(pack_block(x, 0, 7), CP_ADDR + 7, &err), 0);
	ck_assert_uint_eq(le32_get(cp->ckpt_flags), F2FS_CP_TRIMMED | F2FS_CP_ORPHAN_PRESENT);
	ck_assert_uint_eq(le32_get(cp->cp_pack_start_sum), 4);
	ck_assert_uint_eq(pack_block(x, 0, 2)[5], 0x77);
	sb = (const void *)pack_block(x, 0, 4);   /* hot data, with the NAT journal */
	ck_assert_uint_eq(le32_get(sb->entries[399].nid), 400);
	ck_assert_uint_eq(le32_get(sb->entries[400].nid), 0);
	ck_assert_uint_eq(le32_get(sb->journal.nat_j.entries[0].nid), 77);
	sb = (const void *)pack_block(x, 0, 6);   /* cold data, with the SIT journal */
	ck_assert_uint_eq(le32_get(sb->journal.sit_j.entries[1].segno), 88);
	ck_assert_uint_eq(sb->footer.entry_type, F2FS_SUM_TYPE_DATA);
	free(x);
}
END_TEST

START_TEST(test_pack_refuses)
{
	static const uint16_t nsum[6] = { 1, 1, 1, 1, 1, 513 };
	struct pack_fixture *x = malloc(sizeof(*x));
	struct f2fs_block_io io;
	struct f2fs_error err = { 0 };

	pack_setup(x, F2FS_CP_UMOUNT, nsum);
	io = mem_io(&x->m);
	ck_assert_int_eq(f2fs_cp_pack_write(&x->p, CP_ADDR, 0, 1, &io, &err), -EINVAL);
	x->p.nsum[5] = 1;
	ck_assert_int_eq(f2fs_cp_pack_write(&x->p, CP_ADDR, 2, 1, &io, &err), -EINVAL);
	/* an SSR data log carries a whole segment of entries */
	((struct f2fs_checkpoint *)x->head)->alloc_type[2] = F2FS_ALLOC_SSR;
	ck_assert_int_eq(f2fs_cp_pack_write(&x->p, CP_ADDR, 0, 1, &io, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "SSR"));
	((struct f2fs_checkpoint *)x->head)->alloc_type[2] = F2FS_ALLOC_LFS;
	x->p.nat_used = NULL;
	((struct f2fs_checkpoint *)x->head)->ckpt_flags = le32_put(F2FS_CP_NAT_BITS);
	ck_assert_int_eq(f2fs_cp_pack_write(&x->p, CP_ADDR, 0, 1, &io, &err), -EINVAL);
	ck_assert_int_eq(x->m.nwrites, 0);
	free(x);
}
END_TEST

/* Cold data by SSR after GC, hot and warm by LFS: 3 + 5 + 512 entries fit
 * two compacted blocks, and the reader's counts (from the pack's own
 * checkpoint) find every cold entry where the writer put it. */
START_TEST(test_pack_ssr_log)
{
	static const uint16_t nsum[6] = { 3, 5, 512, 1, 1, 1 };
	struct pack_fixture *x = malloc(sizeof(*x));
	struct f2fs_checkpoint *head = (struct f2fs_checkpoint *)x->head;
	struct f2fs_block_io io;
	struct f2fs_error err = { 0 };
	const struct f2fs_checkpoint *cp;
	struct f2fs_journal nj, sj;
	static struct f2fs_summary got[3][F2FS_ENTRIES_IN_SUM];
	struct f2fs_summary *ents[3] = { got[0], got[1], got[2] };
	uint8_t two[2 * BLK];
	uint16_t cnt[3];

	pack_setup(x, F2FS_CP_UMOUNT, nsum);
	head->cur_data_blkoff[0] = le16_put(3);
	head->cur_data_blkoff[1] = le16_put(5);
	head->cur_data_blkoff[2] = le16_put(70);   /* the next free slot, not the count */
	head->alloc_type[2] = F2FS_ALLOC_SSR;
	io = mem_io(&x->m);
	ck_assert_int_eq(f2fs_cp_pack_write(&x->p, CP_ADDR, 0, 9, &io, &err), 0);
	cp = (const void *)pack_block(x, 0, 0);
	ck_assert(le32_get(cp->ckpt_flags) & F2FS_CP_COMPACT_SUM);
	f2fs_data_sum_counts(cp, cnt);
	ck_assert_uint_eq(cnt[2], 512);
	ck_assert_uint_eq(f2fs_compact_sum_blocks(cnt), 2);
	memcpy(two, pack_block(x, 0, 2), BLK);
	memcpy(two + BLK, pack_block(x, 0, 3), BLK);
	ck_assert_int_eq(f2fs_compact_sum_decode(two, 2, &nj, &sj, ents, cnt, &err), 0);
	for (int t = 0; t < 3; t++)
		ck_assert_mem_eq(got[t], x->sum[t], cnt[t] * sizeof(struct f2fs_summary));
	free(x);
}
END_TEST

static Suite *write_suite(void)
{
	Suite *s = suite_create("write");
	TCase *plan = tcase_create("plan"), *area = tcase_create("area");
	TCase *flush = tcase_create("flush"), *pack = tcase_create("pack");

	tcase_add_test(plan, test_plan_sparsest_first);
	tcase_add_test(plan, test_plan_room_exact);
	tcase_add_test(plan, test_plan_block0);
	tcase_add_test(plan, test_plan_no_journal);
	tcase_add_test(plan, test_empties_journal);
	tcase_add_test(plan, test_flush_sort);
	tcase_add_test(plan, test_group_and_merge);
	tcase_add_test(area, test_copy_addressing);
	tcase_add_test(area, test_meta_area_inactive_copy);
	tcase_add_test(flush, test_nat_into_journal);
	tcase_add_test(flush, test_nat_journal_emptied);
	tcase_add_test(flush, test_nat_bits_policy);
	tcase_add_test(flush, test_nat_mkfs_rules);
	tcase_add_test(flush, test_nat_fold_journal);
	tcase_add_test(flush, test_nat_refuses);
	tcase_add_test(flush, test_journals_full);
	tcase_add_test(flush, test_sit_flush);
	tcase_add_test(flush, test_table_flush_kind);
	tcase_add_test(pack, test_pack_compact);
	tcase_add_test(pack, test_pack_normal_orphans);
	tcase_add_test(pack, test_pack_refuses);
	tcase_add_test(pack, test_pack_ssr_log);
	suite_add_tcase(s, plan);
	suite_add_tcase(s, area);
	suite_add_tcase(s, flush);
	suite_add_tcase(s, pack);
	return s;
}

int main(void)
{
	return unit_run(write_suite());
}
