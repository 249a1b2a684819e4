/* lib/util: the one sort (f2fs_sort) and the growable array (F2FS_VEC). */
#include <f2fs/util/sort.h>
#include <f2fs/util/vec.h>

#include <stdint.h>

#include "unit.h"

/* A reproducible stream of numbers (xorshift). */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int is_sorted_u64(const uint64_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (v[i - 1] > v[i])
			return 0;
	return 1;
}

/* Sum and xor of the keys: a sort must keep the multiset. */
static void digest(const uint64_t *v, size_t n, uint64_t *sum, uint64_t *x)
{
	*sum = *x = 0;
	for (size_t i = 0; i < n; i++) {
		*sum += v[i] * 0x9E3779B97F4A7C15ull;
		*x ^= v[i];
	}
}

static void sort_and_check(uint64_t *v, size_t n)
{
	uint64_t s0, x0, s1, x1;

	digest(v, n, &s0, &x0);
	f2fs_sort_u64(v, n);
	digest(v, n, &s1, &x1);
	ck_assert_msg(is_sorted_u64(v, n), "not sorted at n=%zu", n);
	ck_assert_msg(s0 == s1 && x0 == x1, "keys lost or duplicated at n=%zu", n);
}

START_TEST(test_sort_shapes)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 15, 16, 17, 31, 100, 1000, 65537 };
	uint64_t seed = 88172645463325252ull;

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k];
		uint64_t *v = malloc((n + 1) * sizeof(*v));

		ck_assert_ptr_nonnull(v);
		for (int shape = 0; shape < 6; shape++) {
			for (size_t i = 0; i < n; i++) {
				switch (shape) {
				case 0: v[i] = next_rand(&seed); break;          /* random */
				case 1: v[i] = i; break;                          /* sorted */
				case 2: v[i] = n - i; break;                      /* reversed */
				case 3: v[i] = 7; break;                          /* all equal */
				case 4: v[i] = next_rand(&seed) % 3; break;       /* few values */
				default: v[i] = i % 2 ? i : n - i; break;         /* organ pipe */
				}
			}
			sort_and_check(v, n);
		}
		free(v);
	}
}
END_TEST

/* Quicksort's bad cases must still finish: heapsort takes over. */
START_TEST(test_sort_median_of_three_killer)
{
	size_t n = 1 << 16;
	uint64_t *v = malloc(n * sizeof(*v));

	ck_assert_ptr_nonnull(v);
	for (size_t i = 0; i < n; i++)
		v[i] = i % 2 ? n / 2 + i : i;   /* alternating halves */
	sort_and_check(v, n);
	free(v);
}
END_TEST

struct rec {
	uint32_t key;
	uint32_t seq;
	char pad[13];   /* an odd size: swapped byte-wise */
};

static int rec_less(const void *a, const void *b, void *ctx)
{
	const struct rec *x = a, *y = b;
	int desc = *(const int *)ctx;

	return desc ? x->key > y->key : x->key < y->key;
}

/* The order comes from the context, not from global state. */
START_TEST(test_sort_context_and_odd_size)
{
	struct rec v[500];
	uint64_t seed = 12345;

	for (int desc = 0; desc < 2; desc++) {
		for (uint32_t i = 0; i < 500; i++) {
			v[i].key = (uint32_t)(next_rand(&seed) % 97);
			v[i].seq = i;
			memset(v[i].pad, (int)i, sizeof(v[i].pad));
		}
		f2fs_sort(v, 500, sizeof(v[0]), rec_less, &desc);
		for (int i = 1; i < 500; i++)
			ck_assert(desc ? v[i - 1].key >= v[i].key : v[i - 1].key <= v[i].key);
		for (int i = 0; i < 500; i++)   /* each record moved whole */
			ck_assert_int_eq((uint8_t)v[i].pad[12], (uint8_t)v[i].seq);
	}
}
END_TEST

struct big {
	uint32_t key;
	uint32_t seq;
	uint8_t body[256];   /* sorted by pointer, then moved once */
};

static int big_less(const void *a, const void *b, void *ctx)
{
	const struct big *x = a, *y = b;

	(void)ctx;
	return x->key != y->key ? x->key < y->key : x->seq < y->seq;
}

START_TEST(test_sort_large_elements)
{
	static const size_t sizes[] = { 2, 17, 1000, 4099 };
	uint64_t seed = 777;

	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		size_t n = sizes[z];
		struct big *v = malloc(n * sizeof(*v));

		ck_assert_ptr_nonnull(v);
		for (size_t i = 0; i < n; i++) {
			v[i].key = (uint32_t)(next_rand(&seed) % 50);
			v[i].seq = (uint32_t)i;
			memset(v[i].body, (int)(i * 7), sizeof(v[i].body));
		}
		f2fs_sort(v, n, sizeof(*v), big_less, NULL);
		for (size_t i = 0; i < n; i++) {
			if (i)
				ck_assert(big_less(&v[i - 1], &v[i], NULL));
			/* the whole record moved with its key */
			ck_assert_uint_eq(v[i].body[0], (uint8_t)(v[i].seq * 7));
			ck_assert_uint_eq(v[i].body[255], (uint8_t)(v[i].seq * 7));
		}
		free(v);
	}
}
END_TEST

START_TEST(test_vec_push_and_grow)
{
	F2FS_VEC(uint32_t) a = { 0 };

	for (uint32_t i = 0; i < 100000; i++)
		ck_assert_int_eq(f2fs_vec_push(&a, i * 3), 0);
	ck_assert_uint_eq(a.n, 100000);
	ck_assert_uint_ge(a.cap, a.n);
	ck_assert_uint_lt(a.cap, 2 * a.n);   /* doubling, no more */
	for (uint32_t i = 0; i < 100000; i++)
		ck_assert_uint_eq(a.v[i], i * 3);
	f2fs_vec_free(&a);
	ck_assert_ptr_null(a.v);
	ck_assert_uint_eq(a.n + a.cap, 0);
}
END_TEST

struct pair {
	uint32_t a, b;
};

START_TEST(test_vec_compound_literal_and_reserve)
{
	F2FS_VEC(struct pair) p = { 0 };

	ck_assert_int_eq(f2fs_vec_reserve(&p, 1000), 0);
	ck_assert_uint_ge(p.cap, 1000);
	ck_assert_uint_eq(p.n, 0);
	ck_assert_int_eq(f2fs_vec_push(&p, (struct pair){ 1, 2 }), 0);
	ck_assert_uint_eq(p.v[0].a + p.v[0].b, 3);
	f2fs_vec_free(&p);
}
END_TEST

/* A size that cannot be allocated fails cleanly and keeps the array. */
START_TEST(test_vec_out_of_memory)
{
	F2FS_VEC(uint64_t) a = { 0 };
	size_t cap;

	ck_assert_int_eq(f2fs_vec_push(&a, 42), 0);
	cap = a.cap;
	ck_assert_int_eq(f2fs_vec_reserve(&a, SIZE_MAX / 4), -ENOMEM);
	ck_assert_int_eq(f2fs_vec_reserve(&a, SIZE_MAX), -ENOMEM);
	ck_assert_uint_eq(a.cap, cap);
	ck_assert_uint_eq(a.n, 1);
	ck_assert_uint_eq(a.v[0], 42);
	f2fs_vec_free(&a);
}
END_TEST

static Suite *util_suite(void)
{
	Suite *s = suite_create("sort_vec");
	TCase *t = tcase_create("sort");
	TCase *v = tcase_create("vec");

	tcase_add_test(t, test_sort_shapes);
	tcase_add_test(t, test_sort_median_of_three_killer);
	tcase_add_test(t, test_sort_context_and_odd_size);
	tcase_add_test(t, test_sort_large_elements);
	tcase_add_test(v, test_vec_push_and_grow);
	tcase_add_test(v, test_vec_compound_literal_and_reserve);
	tcase_add_test(v, test_vec_out_of_memory);
	suite_add_tcase(s, t);
	suite_add_tcase(s, v);
	return s;
}

int main(void)
{
	return unit_run(util_suite());
}
