/*
 * The introsort of sort.c, written once and included once per element
 * representation: sort.c defines, before each inclusion,
 *   SORT_FN(x)        the name of function x of this instance
 *   SORT_BASE         the type of a pointer to the elements
 *   SORT_CTX, SORT_CTX_ARG   an extra first parameter and its argument
 *                     (empty, or "const struct sorter *s," and "s,")
 *   SORT_LT(v, i, j)  does element i go before element j
 *   SORT_SWAP(v, i, j), SORT_ADV(v, k)  swap two elements; element k
 * It undefines them at its end, ready for the next instance.
 * Quicksort with a median of three, heapsort past a depth limit of
 * 2 log2 n (so no input is quadratic), insertion sort for short runs.
 */

static void SORT_FN(sift)(SORT_CTX SORT_BASE v, size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			return;
		if (c + 1 < n && SORT_LT(v, c, c + 1))
			c++;
		if (!SORT_LT(v, i, c))
			return;
		SORT_SWAP(v, i, c);
		i = c;
	}
}

static void SORT_FN(heapsort)(SORT_CTX SORT_BASE v, size_t n)
{
	for (size_t k = n / 2; k-- > 0;)
		SORT_FN(sift)(SORT_CTX_ARG v, k, n);
	for (size_t k = n; k-- > 1;) {
		SORT_SWAP(v, 0, k);
		SORT_FN(sift)(SORT_CTX_ARG v, 0, k);
	}
}

static void SORT_FN(insertion)(SORT_CTX SORT_BASE v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && SORT_LT(v, k, k - 1); k--)
			SORT_SWAP(v, k, k - 1);
}

/* Median of v[0], v[n / 2], v[n - 1] to v[0]; returns where the pivot ends:
 * before it nothing greater, after it nothing smaller. */
static size_t SORT_FN(partition)(SORT_CTX SORT_BASE v, size_t n)
{
	size_t m = n / 2, i = 0, j = n;

	if (SORT_LT(v, m, 0))
		SORT_SWAP(v, m, 0);
	if (SORT_LT(v, n - 1, m))
		SORT_SWAP(v, n - 1, m);
	if (SORT_LT(v, m, 0))
		SORT_SWAP(v, m, 0);
	SORT_SWAP(v, 0, m);
	for (;;) {
		do
			i++;
		while (i < n && SORT_LT(v, i, 0));
		do
			j--;
		while (SORT_LT(v, 0, j));
		if (i >= j)
			break;
		SORT_SWAP(v, i, j);
	}
	SORT_SWAP(v, 0, j);
	return j;
}

static void SORT_FN(introsort)(SORT_CTX SORT_BASE v, size_t n, unsigned depth)
{
	while (n > SHORT_RUN) {
		size_t p;

		if (!depth--) {
			SORT_FN(heapsort)(SORT_CTX_ARG v, n);
			return;
		}
		p = SORT_FN(partition)(SORT_CTX_ARG v, n);
		/* recurse into the smaller side, loop on the larger */
		if (p < n - p - 1) {
			SORT_FN(introsort)(SORT_CTX_ARG v, p, depth);
			v = SORT_ADV(v, p + 1);
			n -= p + 1;
		} else {
			SORT_FN(introsort)(SORT_CTX_ARG SORT_ADV(v, p + 1), n - p - 1, depth);
			n = p;
		}
	}
	SORT_FN(insertion)(SORT_CTX_ARG v, n);
}

#undef SORT_FN
#undef SORT_BASE
#undef SORT_CTX
#undef SORT_CTX_ARG
#undef SORT_LT
#undef SORT_SWAP
#undef SORT_ADV
