/*
 * The repair (fsck -y, -p, -a): after a full check, what the check found
 * wrong is fixed in one crash-safe transaction. Called by the driver only.
 */
#ifndef F2FS_FSCK_REPAIR_H
#define F2FS_FSCK_REPAIR_H

#include <stdbool.h>

#include "../check/ck.h"

/* Does a repair with this answer fix problem code? */
bool ck_repair_fixes(enum f2fs_problem_code code, enum f2fs_fix_answer answer);

/* Repair what the run found (ck.r), as ck.opt->fix allows; the outcome goes
 * to ck.r->repair and the records' fixed flags. Returns a negative code
 * when the repair failed (the image is then the old one or the new one). */
int ck_repair(struct ck *ck);

/* After a check that fixes nothing (-n): what fsck -y would fix, into the
 * records' would_fix flags; nothing is written. */
int ck_repair_plan(struct ck *ck);
/* Checking only: what the roll-forward recovery would do (ck.r->roll). */
int ck_roll_preview(struct ck *ck);

#endif
