/*
 * lib/util: the hash map of uint32_t keys (f2fs_u32map): any key, 0 and
 * UINT32_MAX included, through growth; values kept and updated; the walk
 * gives each key once; a set; and the slot order, which fsck's quota
 * reports follow, is that of the keys' Fibonacci hashes with linear
 * probing in a table that doubles from 64 slots past 3/4 full.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>

#include <f2fs/util/u32map.h>

#include "unit.h"

/* A reproducible stream of numbers (xorshift). */
static uint32_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 16);
}

START_TEST(test_empty)
{
	struct f2fs_u32map m = { 0 };
	uint32_t pos = 0, key, val;

	ck_assert_ptr_null(f2fs_u32map_find(&m, 0));
	ck_assert_uint_eq(f2fs_u32map_get(&m, 7), 0);
	ck_assert(!f2fs_u32map_next(&m, &pos, &key, &val));
	f2fs_u32map_free(&m);
	ck_assert_uint_eq(m.cap, 0);
}
END_TEST

START_TEST(test_edge_keys)
{
	struct f2fs_u32map m = { 0 };
	uint32_t *v;

	ck_assert_int_eq(f2fs_u32map_put(&m, 0, 10), 0);
	ck_assert_int_eq(f2fs_u32map_put(&m, UINT32_MAX, 20), 0);
	ck_assert_ptr_nonnull(v = f2fs_u32map_find(&m, 0));
	ck_assert_uint_eq(*v, 10);
	ck_assert_uint_eq(f2fs_u32map_get(&m, UINT32_MAX), 20);
	ck_assert_ptr_null(f2fs_u32map_find(&m, 1));
	/* add gives the value there, or a new 0 */
	ck_assert_uint_eq(*f2fs_u32map_add(&m, 0), 10);
	v = f2fs_u32map_add(&m, 5);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(*v, 0);
	*v = 55;
	ck_assert_uint_eq(f2fs_u32map_get(&m, 5), 55);
	ck_assert_uint_eq(m.n, 3);
	/* put over a key updates it */
	ck_assert_int_eq(f2fs_u32map_put(&m, 0, 11), 0);
	ck_assert_uint_eq(f2fs_u32map_get(&m, 0), 11);
	ck_assert_uint_eq(m.n, 3);
	f2fs_u32map_free(&m);
	ck_assert_ptr_null(f2fs_u32map_find(&m, 0));
}
END_TEST

/* Random keys (some repeated) against a sorted reference, through many
 * doublings; the walk gives every key once with its last value. */
START_TEST(test_many)
{
	enum { N = 100000 };
	struct f2fs_u32map m = { 0 };
	static uint32_t keys[N];
	uint64_t seed = 0x1234567u;
	uint32_t pos = 0, key, val, walked = 0, distinct = 0;

	for (uint32_t i = 0; i < N; i++) {
		keys[i] = i % 5 == 4 ? keys[i / 2] : next_rand(&seed);
		ck_assert_int_eq(f2fs_u32map_put(&m, keys[i], i), 0);
	}
	/* each key's value is the index of its last put */
	for (uint32_t i = 0; i < N; i++) {
		const uint32_t *v = f2fs_u32map_find(&m, keys[i]);

		ck_assert_ptr_nonnull(v);
		ck_assert_uint_eq(keys[*v], keys[i]);
		ck_assert_uint_ge(*v, i);
		if (*v == i)
			distinct++;
	}
	ck_assert_uint_eq(m.n, distinct);
	ck_assert_uint_le((uint64_t)m.n * 4, (uint64_t)m.cap * 3);
	ck_assert_uint_eq(m.cap & (m.cap - 1), 0);
	while (f2fs_u32map_next(&m, &pos, &key, &val)) {
		ck_assert_uint_eq(keys[val], key);
		ck_assert_uint_eq(f2fs_u32map_get(&m, key), val);
		walked++;
	}
	ck_assert_uint_eq(walked, distinct);
	for (uint32_t i = 0; i < 1000; i++) {
		uint32_t k = next_rand(&seed);
		bool in = false;

		for (uint32_t j = 0; j < N && !in; j++)
			in = keys[j] == k;
		ck_assert(in == (f2fs_u32map_find(&m, k) != NULL));
	}
	f2fs_u32map_free(&m);
}
END_TEST

START_TEST(test_set)
{
	struct f2fs_u32map s = { 0 };

	for (uint32_t k = 0; k < 1000; k += 3)
		ck_assert_ptr_nonnull(f2fs_u32map_add(&s, k));
	for (uint32_t k = 0; k < 1000; k++)
		ck_assert((f2fs_u32map_find(&s, k) != NULL) == (k % 3 == 0));
	ck_assert_uint_eq(s.n, 334);
	f2fs_u32map_free(&s);
}
END_TEST

/* The slot order: keys whose hashes collide sit one after the other in
 * the order they came, a growth places them again in the old slot order,
 * and the walk follows the slots. */
START_TEST(test_order)
{
	struct f2fs_u32map m = { 0 };
	/* with 64 slots, key * 0x9E3779B1 & 63: 0 and 64 both hash to slot 0,
	 * 1 to slot 49 */
	static const uint32_t first[] = { 64, 0, 1 };
	uint32_t pos = 0, key, order[3], k = 0;

	for (uint32_t i = 0; i < 3; i++)
		ck_assert_int_eq(f2fs_u32map_put(&m, first[i], i), 0);
	ck_assert_uint_eq(m.cap, 64);
	while (f2fs_u32map_next(&m, &pos, &key, NULL))
		order[k++] = key;
	ck_assert_uint_eq(k, 3);
	ck_assert_uint_eq(order[0], 64);
	ck_assert_uint_eq(order[1], 0);
	ck_assert_uint_eq(order[2], 1);
	/* 48 keys fill 3/4 of 64 slots; the 49th doubles the table */
	for (uint32_t i = 2; m.n < 48; i++)
		ck_assert_int_eq(f2fs_u32map_put(&m, 1000 + i, i), 0);
	ck_assert_uint_eq(m.cap, 64);
	ck_assert_int_eq(f2fs_u32map_put(&m, 5000, 0), 0);
	ck_assert_uint_eq(m.cap, 128);
	/* with 128 slots 0 and 64 hash to 0 and 64: 0 first now */
	pos = 0;
	ck_assert(f2fs_u32map_next(&m, &pos, &key, NULL));
	ck_assert_uint_eq(key, 0);
	f2fs_u32map_free(&m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("u32map");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_edge_keys);
	tcase_add_test(tc, test_many);
	tcase_add_test(tc, test_set);
	tcase_add_test(tc, test_order);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
