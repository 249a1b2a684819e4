/* The superblock: build from a layout, validate, its device table, the label. */
#ifndef F2FS_SUPER_H
#define F2FS_SUPER_H

#include <stdint.h>

#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/format/layout.h>

struct f2fs_sb_options {
	uint8_t uuid[16];
	const char *label;            /* UTF-8, may be NULL */
	uint32_t features;
	uint16_t encoding, encoding_flags;
	const char *version;          /* kernel release of the formatting host */
	const char *cold_exts;        /* -e: comma list added to the defaults */
	const char *hot_exts;         /* -E */
	uint32_t qf_ino[F2FS_MAX_QUOTAS];
	const char *dev_paths[F2FS_MAX_DEVICES];  /* recorded when ndevs > 1 */
};

int f2fs_sb_build(struct f2fs_super_block *sb, const struct f2fs_layout *l,
		  const struct f2fs_sb_options *o, struct f2fs_error *err);

/*
 * Check a superblock as the kernel does before mounting: magic, units,
 * area arithmetic, counts and CRC. dev_blocks (0 = unknown) bounds block_count.
 */
int f2fs_sb_validate(const struct f2fs_super_block *sb, uint64_t dev_blocks,
		     struct f2fs_error *err);

/* Devices in the superblock's device table (0 or 1: a volume of one). */
unsigned f2fs_sb_ndevs(const struct f2fs_super_block *sb);

/* The volume label as UTF-8. */
void f2fs_sb_label(const struct f2fs_super_block *sb, char *buf, size_t len);

#endif
