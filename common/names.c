/* Names and renderings shared by the tools (common/names.h). */
#include "names.h"

#include <f2fs/format/checkpoint.h>
#include <f2fs/format/format.h>

#include <stdio.h>

const struct out_flag cp_flag_names[] = {
	{ F2FS_CP_UMOUNT, "umount" },
	{ F2FS_CP_ORPHAN_PRESENT, "orphan_present" },
	{ F2FS_CP_COMPACT_SUM, "compacted_summary" },
	{ F2FS_CP_ERROR, "error" },
	{ F2FS_CP_FSCK, "fsck" },
	{ F2FS_CP_FASTBOOT, "fastboot" },
	{ F2FS_CP_CRC_RECOVERY, "crc_recovery" },
	{ F2FS_CP_NAT_BITS, "nat_bits" },
	{ F2FS_CP_TRIMMED, "trimmed" },
	{ F2FS_CP_NOCRC_RECOVERY, "nocrc_recovery" },
	{ F2FS_CP_LARGE_NAT_BITMAP, "large_nat_bitmap" },
	{ F2FS_CP_QUOTA_NEED_FSCK, "quota_need_fsck" },
	{ F2FS_CP_DISABLED, "disabled" },
	{ F2FS_CP_DISABLED_QUICK, "disabled_quick" },
	{ F2FS_CP_RESIZEFS, "resizefs" },
	{ 0, NULL },
};

size_t cstr_len(const uint8_t *s, size_t max)
{
	size_t len = 0;

	while (len < max && s[len])
		len++;
	return len;
}

const char *uuid_string(const uint8_t u[16], char buf[37])
{
	int o = 0;

	for (int k = 0; k < 16; k++)
		o += snprintf(buf + o, (size_t)(37 - o), "%02x%s", u[k],
			      k == 3 || k == 5 || k == 7 || k == 9 ? "-" : "");
	return buf;
}
