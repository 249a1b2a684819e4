/* The problem table (problem.h) and its lookups. */
#include "problem.h"

#include <string.h>

#define F2FS_CHECK_ROW_(id, nm, st, sev, desc) \
	[F2FS_PB_##id] = { nm, st, F2FS_SEV_##sev, desc },
static const struct f2fs_problem_info problem_table[F2FS_PB_COUNT] = {
	F2FS_CHECK_PROBLEMS(F2FS_CHECK_ROW_)
};
#undef F2FS_CHECK_ROW_

const struct f2fs_problem_info *f2fs_problem_info(enum f2fs_problem_code code)
{
	if ((int)code < 0 || code >= F2FS_PB_COUNT)
		return NULL;
	return &problem_table[code];
}

int f2fs_problem_by_name(const char *name)
{
	for (int i = 0; i < F2FS_PB_COUNT; i++)
		if (!strcmp(problem_table[i].name, name))
			return i;
	return -1;
}

