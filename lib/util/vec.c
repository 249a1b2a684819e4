/* The growth step of the growable array (vec.h). */
#include <f2fs/util/vec.h>

#include <stdint.h>

void *f2fs_grow(void *v, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return v;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return v;
		c *= 2;
	}
	if (c > SIZE_MAX / elem)
		return v;
	p = realloc(v, c * elem);
	if (!p)
		return v;
	*cap = c;
	return p;
}
