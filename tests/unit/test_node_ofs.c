/*
 * Node offsets and paths in an inode's tree: the offsets i_nid points to,
 * the path to every node offset and to file blocks across each level's
 * edges, checked against f2fs_node_kind(), f2fs_node_child_ofs() and
 * f2fs_node_start_bidx(), which number the same tree.
 */
#include <check.h>
#include <stdbool.h>

#include <f2fs/format/format.h>
#include <f2fs/format/node_ofs.h>

#include "unit.h"

#define NPB ((uint64_t)F2FS_NIDS_PER_BLOCK)
#define APB ((uint64_t)F2FS_ADDRS_PER_BLOCK)
#define ADDRS F2FS_DEF_ADDRS_PER_INODE
/* the last offset of the tree: the double indirect node's last direct node */
#define LAST_OFS ((uint32_t)(5 + 2 * NPB + NPB * (NPB + 1)))

/* A path's links are those of the tree: i_nid[slot[0]] is the top node,
 * each child is where child_ofs says, and the nodes above the last are
 * indirect ones. A plain test, not ck_assert: it runs a million times. */
static bool linked(const struct f2fs_node_path *p)
{
	if (p->levels > 3 || p->ofs[0] != 0)
		return false;
	if (p->levels == 0)
		return true;
	if (p->slot[0] >= F2FS_DEF_NIDS_PER_INODE || p->ofs[1] != f2fs_node_top_ofs(p->slot[0]) ||
	    p->levels > 1 + f2fs_node_top_depth(p->slot[0]))
		return false;
	for (uint32_t l = 1; l < p->levels; l++) {
		enum f2fs_node_kind k = f2fs_node_kind(p->ofs[l]);

		if (p->slot[l] >= NPB || p->ofs[l + 1] != f2fs_node_child_ofs(p->ofs[l], p->slot[l]) ||
		    (k != F2FS_NODE_INDIRECT && k != F2FS_NODE_DOUBLE))
			return false;
	}
	return true;
}

START_TEST(test_top)
{
	static const uint32_t ofs[] = { 1, 2, 3, 4 + NPB, 5 + 2 * NPB };
	static const uint32_t depth[] = { 0, 0, 1, 1, 2 };
	static const enum f2fs_node_kind kind[] = {
		F2FS_NODE_DIRECT, F2FS_NODE_DIRECT, F2FS_NODE_INDIRECT, F2FS_NODE_INDIRECT,
		F2FS_NODE_DOUBLE,
	};

	for (uint32_t k = 0; k < F2FS_DEF_NIDS_PER_INODE; k++) {
		ck_assert_uint_eq(f2fs_node_top_ofs(k), ofs[k]);
		ck_assert_uint_eq(f2fs_node_top_depth(k), depth[k]);
		ck_assert_int_eq(f2fs_node_kind(ofs[k]), kind[k]);
	}
}
END_TEST

START_TEST(test_span)
{
	ck_assert_uint_eq(f2fs_node_span(0), APB);
	ck_assert_uint_eq(f2fs_node_span(1), APB * NPB);
	ck_assert_uint_eq(f2fs_node_span(2), APB * NPB * NPB);
	ck_assert_uint_eq(f2fs_node_tree_blocks(ADDRS),
			  ADDRS + 2 * APB + 2 * APB * NPB + APB * NPB * NPB);
	ck_assert_uint_eq(f2fs_node_tree_blocks(0), 2 * APB + 2 * APB * NPB + APB * NPB * NPB);
}
END_TEST

/* Every offset of the tree has a path ending at it, the others none; a
 * direct node sits as deep as its top node's depth allows. */
START_TEST(test_path_of_every_offset)
{
	struct f2fs_node_path p;
	uint32_t bad = 0, first_bad = 0;

	ck_assert(f2fs_node_path_of(0, &p));
	ck_assert_uint_eq(p.levels, 0);
	for (uint32_t ofs = 1; ofs <= LAST_OFS; ofs++) {
		enum f2fs_node_kind kind = f2fs_node_kind(ofs);

		if (!f2fs_node_path_of(ofs, &p) || !linked(&p) || p.ofs[p.levels] != ofs ||
		    kind == F2FS_NODE_BAD ||
		    (kind == F2FS_NODE_DIRECT && p.levels != 1 + f2fs_node_top_depth(p.slot[0])))
			first_bad = bad++ ? first_bad : ofs;
	}
	ck_assert_msg(bad == 0, "%u offsets wrong, the first %u", bad, first_bad);
	ck_assert_int_eq(f2fs_node_kind(LAST_OFS + 1), F2FS_NODE_BAD);
	ck_assert(!f2fs_node_path_of(LAST_OFS + 1, &p));
	ck_assert(!f2fs_node_path_of(F2FS_XATTR_NODE_OFFSET, &p));
	ck_assert(!f2fs_node_path_of(UINT32_MAX, &p));
}
END_TEST

static void assert_block(uint64_t fofs, uint32_t addrs)
{
	struct f2fs_node_path p, q;

	ck_assert_msg(f2fs_block_path(fofs, addrs, &p), "block %llu", (unsigned long long)fofs);
	ck_assert(linked(&p));
	if (p.levels == 0) {
		ck_assert_uint_lt(fofs, addrs);
		ck_assert_uint_eq(p.slot[0], fofs);
		return;
	}
	ck_assert_int_eq(f2fs_node_kind(p.ofs[p.levels]), F2FS_NODE_DIRECT);
	ck_assert_uint_lt(p.slot[p.levels], APB);
	ck_assert_uint_eq(f2fs_node_start_bidx(p.ofs[p.levels], addrs) + p.slot[p.levels], fofs);
	/* the node's own path is the block's, but for the pointer */
	ck_assert(f2fs_node_path_of(p.ofs[p.levels], &q));
	ck_assert_uint_eq(q.levels, p.levels);
	for (uint32_t l = 0; l < p.levels; l++) {
		ck_assert_uint_eq(q.ofs[l + 1], p.ofs[l + 1]);
		ck_assert_uint_eq(q.slot[l], p.slot[l]);
	}
	/* what a missing node leaves: to the end of the node, at each level */
	ck_assert_uint_eq(f2fs_block_path_rest(&p, p.levels), APB - p.slot[p.levels]);
	for (uint32_t l = 1; l <= p.levels; l++) {
		uint64_t rest = f2fs_block_path_rest(&p, l);
		struct f2fs_node_path end;

		ck_assert_uint_ge(rest, 1);
		ck_assert_uint_le(rest, f2fs_node_span(p.levels - l));
		/* the last block of that node is still under it, the next not */
		ck_assert(f2fs_block_path(fofs + rest - 1, addrs, &end));
		ck_assert_uint_eq(end.ofs[l], p.ofs[l]);
		if (f2fs_block_path(fofs + rest, addrs, &end))
			ck_assert_uint_ne(end.ofs[l], p.ofs[l]);
	}
}

/* Blocks on each side of every edge: the inode's pointers, each subtree of
 * i_nid, each node's first and last block in a sample of nodes. */
START_TEST(test_block_path)
{
	static const uint32_t addrs_cases[] = { ADDRS, ADDRS - 50, 0 };

	for (size_t a = 0; a < sizeof(addrs_cases) / sizeof(addrs_cases[0]); a++) {
		uint32_t addrs = addrs_cases[a];
		uint64_t start = addrs, last = f2fs_node_tree_blocks(addrs) - 1;
		struct f2fs_node_path p;

		if (addrs)
			assert_block(0, addrs);
		for (uint32_t k = 0; k < F2FS_DEF_NIDS_PER_INODE; k++) {
			uint64_t span = f2fs_node_span(f2fs_node_top_depth(k));

			for (uint64_t d = 0; d < span; d += d < 3 * APB ? APB - 1 : span / 7 + 1)
				assert_block(start + d, addrs);
			assert_block(start + span - 1, addrs);
			ck_assert(f2fs_block_path(start, addrs, &p));
			ck_assert_uint_eq(p.slot[0], k);
			ck_assert_uint_eq(f2fs_block_path_rest(&p, 1), span);
			start += span;
		}
		ck_assert_uint_eq(start, last + 1);
		assert_block(last, addrs);
		ck_assert(!f2fs_block_path(last + 1, addrs, &p));
		ck_assert(!f2fs_block_path(UINT64_MAX, addrs, &p));
	}
}
END_TEST

/* Every direct node's first block maps back to it (all 1018^2 + 2038 of
 * them, through start_bidx). */
START_TEST(test_every_direct_node)
{
	struct f2fs_node_path p;
	uint64_t direct = 0;
	uint32_t bad = 0, first_bad = 0;

	for (uint32_t ofs = 1; ofs <= LAST_OFS; ofs++) {
		if (f2fs_node_kind(ofs) != F2FS_NODE_DIRECT)
			continue;
		direct++;
		if (!f2fs_block_path(f2fs_node_start_bidx(ofs, ADDRS), ADDRS, &p) ||
		    p.ofs[p.levels] != ofs || p.slot[p.levels] != 0)
			first_bad = bad++ ? first_bad : ofs;
	}
	ck_assert_msg(bad == 0, "%u direct nodes wrong, the first %u", bad, first_bad);
	ck_assert_uint_eq(direct, 2 + 2 * NPB + NPB * NPB);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("node_ofs");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_top);
	tcase_add_test(tc, test_span);
	tcase_add_test(tc, test_path_of_every_offset);
	tcase_add_test(tc, test_block_path);
	tcase_add_test(tc, test_every_direct_node);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
