/* The problem table (problem.h) and its lookups. */
#include "problem.h"

#include <string.h>

#define PREEN true
#define ASK false
#define F2FS_CHECK_ROW_(id, nm, st, sev, fix, preen, order, desc) \
	[F2FS_PB_##id] = { nm, st, F2FS_SEV_##sev, F2FS_FIX_##fix, preen, F2FS_ORDER_##order, desc },
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

void f2fs_problems_in_order(enum f2fs_problem_code out[F2FS_PB_COUNT])
{
	int n = 0;

	/* a stage at a time: the table is small */
	for (int o = F2FS_ORDER_SB; o <= F2FS_ORDER_LAST; o++)
		for (int c = 0; c < F2FS_PB_COUNT; c++)
			if ((int)problem_table[c].order == o)
				out[n++] = (enum f2fs_problem_code)c;
}

bool f2fs_problem_needs(enum f2fs_problem_code a, enum f2fs_problem_code b)
{
	switch (a) {
	case F2FS_PB_INODE_LINKS:
	case F2FS_PB_INODE_UNREACHABLE:
		/* a directory whose mode stays invalid may hold entries never read */
		if (b == F2FS_PB_INODE_BAD_MODE)
			return true;
		/* fall through */
	case F2FS_PB_DIR_LOOP:
		/* the counts the check gave leave out the entries it found
		 * invalid, and a root that is none names nothing (and has no
		 * lost+found): they hold only once those entries go */
		return b == F2FS_PB_DIR_BAD_NAME || b == F2FS_PB_DIR_BAD_NAME_LEN ||
		       b == F2FS_PB_DIR_MULTIPLE_PARENTS || b == F2FS_PB_ROOT_BAD;
	case F2FS_PB_DIR_FILE_TYPE:
		/* an entry's type is its inode's mode, which must be right */
		return b == F2FS_PB_INODE_BAD_MODE;
	case F2FS_PB_CP_NEEDS_FSCK:
	case F2FS_PB_SB_ERRORS_RECORDED:
		/* a check is still wanted while an error is left */
		return b != a && (int)b >= 0 && b < F2FS_PB_COUNT &&
		       problem_table[b].severity == F2FS_SEV_ERROR;
	default:
		return false;
	}
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
