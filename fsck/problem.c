/* The problem table (problem.h) and its lookups. */
#include "problem.h"

#include <string.h>

#define PREEN true
#define ASK false
#define F2FS_CHECK_ROW_(id, nm, st, sev, fix, preen, desc) \
	[F2FS_PB_##id] = { nm, st, F2FS_SEV_##sev, F2FS_FIX_##fix, preen, desc },
static const struct f2fs_problem_info problem_table[F2FS_PB_COUNT] = {
	F2FS_CHECK_PROBLEMS(F2FS_CHECK_ROW_)
};
#undef F2FS_CHECK_ROW_
#undef PREEN
#undef ASK

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


static const char *const fix_names[F2FS_FIX_COUNT] = {
	[F2FS_FIX_NONE] = "none",
	[F2FS_FIX_REBUILD] = "rebuild",
	[F2FS_FIX_REWRITE] = "rewrite",
	[F2FS_FIX_FIELD] = "field",
	[F2FS_FIX_CLEAR] = "clear",
	[F2FS_FIX_MOVE] = "move",
	[F2FS_FIX_CLONE] = "clone",
	[F2FS_FIX_RELINK] = "relink",
	[F2FS_FIX_TRUNCATE] = "truncate",
	[F2FS_FIX_RENAME] = "rename",
	[F2FS_FIX_RECOVER] = "recover",
	[F2FS_FIX_CANNOT] = "cannot fix",
};

const char *f2fs_fix_kind_name(enum f2fs_fix_kind fix)
{
	if ((int)fix < 0 || fix >= F2FS_FIX_COUNT)
		return NULL;
	return fix_names[fix];
}

bool f2fs_fix_kind_repairs(enum f2fs_fix_kind fix)
{
	return fix != F2FS_FIX_NONE && fix != F2FS_FIX_CANNOT && f2fs_fix_kind_name(fix);
}
