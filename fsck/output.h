/*
 * fsck.f2fs's report (the tool only, not libfsck): what a check found and
 * a repair did, described once through common/out.h and printed as text
 * lines or as one JSON object.
 */
#ifndef F2FS_FSCK_OUTPUT_H
#define F2FS_FSCK_OUTPUT_H

#include <stdint.h>

struct f2fs_check_report;
struct f2fs_fs;
struct out;

/* The devices of the opened volume, so that a problem's block address can
 * name its device when there are several. */
void output_note_devices(const struct f2fs_fs *fs);

/* The report of a check (and of its repair); flagged is why the kernel
 * asked for the check, or NULL. */
void output_report(struct out *o, const char *image, const struct f2fs_check_report *r,
		   const char *flagged, int exit_code);

/* -a, -p 0/2 on an image the kernel did not flag: nothing was checked. */
void output_not_flagged(struct out *o, const char *image, uint32_t ckpt_flags, int exit_code);

#endif
