/*
 * The superblock views: a short human summary (the default text view), and
 * every field (--sb, and the superblock of every JSON document) described
 * once for both text and JSON.
 */
#include "dump.h"

#include <f2fs/format/crc.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/feature.h>
#include <f2fs/format/format.h>
#include <f2fs/format/super.h>
#include <f2fs/util/units.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define LABEL_MAX (4 * F2FS_VOLUME_NAME_UNITS + 1)

static void print_sb_source(struct dump *d)
{
	const struct f2fs_error *why;
	int copy = f2fs_fs_sb_copy(d->fs, &why);

	if (copy == 0)
		out_text(&d->out, "Superblock: copy 0 (primary, block 0 byte 1024)\n");
	else
		out_text(&d->out, "Superblock: copy 1 (backup, block 1 byte 1024); copy 0 rejected: %s\n",
			 why && why->msg[0] ? why->msg : "unknown reason");
}

static void put_cstr(struct out *o, const uint8_t *s, size_t max)
{
	out_escaped(o, s, cstr_len(s, max));
}

void view_sb_summary(struct dump *d)
{
	struct out *o = &d->out;
	const struct f2fs_super_block *sb = f2fs_fs_sb(d->fs);
	uint64_t blocks = le64_get(sb->block_count);
	char label[LABEL_MAX], feat[512], h[32], uuid[37];

	f2fs_sb_label(sb, label, sizeof(label));
	f2fs_feature_format(le32_get(sb->feature), feat, sizeof(feat));
	print_sb_source(d);
	out_label(o, "label:");
	if (label[0])
		out_escaped(o, (const uint8_t *)label, strlen(label));
	else
		out_text(o, "(none)");
	out_text(o, "\n");
	out_label(o, "uuid:");
	out_text(o, "%s\n", uuid_string(sb->uuid, uuid));
	out_label(o, "format version:");
	out_text(o, "%u.%u\n", le16_get(sb->major_ver), le16_get(sb->minor_ver));
	out_label(o, "kernel (last / at mkfs):");
	put_cstr(o, sb->version, F2FS_VERSION_LEN);
	out_text(o, " / ");
	put_cstr(o, sb->init_version, F2FS_VERSION_LEN);
	out_text(o, "\n");
	out_label(o, "features:");
	out_text(o, "%s (0x%x)\n", feat, le32_get(sb->feature));
	out_label(o, "size:");
	out_text(o, "%" PRIu64 " blocks (%s)\n", blocks,
		 f2fs_human_size(blocks * F2FS_BLKSIZE, h, sizeof(h)));
	out_label(o, "segments:");
	out_text(o, "%u total, %u main, %u sections (%u segs/section, %u sections/zone)\n",
		 le32_get(sb->segment_count), le32_get(sb->segment_count_main),
		 le32_get(sb->section_count), le32_get(sb->segs_per_sec),
		 le32_get(sb->secs_per_zone));
	out_label(o, "areas (block):");
	out_text(o, "cp %u, sit %u, nat %u, ssa %u, main %u\n",
		 le32_get(sb->cp_blkaddr), le32_get(sb->sit_blkaddr),
		 le32_get(sb->nat_blkaddr), le32_get(sb->ssa_blkaddr),
		 le32_get(sb->main_blkaddr));
	out_label(o, "cp_payload:");
	out_text(o, "%u\n", le32_get(sb->cp_payload));
	if (le32_get(sb->feature) & F2FS_FEATURE_QUOTA_INO) {
		out_label(o, "quota inodes (usr/grp/prj):");
		out_text(o, "%u/%u/%u\n", le32_get(sb->qf_ino[0]), le32_get(sb->qf_ino[1]),
			 le32_get(sb->qf_ino[2]));
	}
	if (le32_get(sb->feature) & F2FS_FEATURE_CASEFOLD) {
		out_label(o, "encoding:");
		out_text(o, "%u%s\n", le16_get(sb->s_encoding),
			 le16_get(sb->s_encoding) == F2FS_ENC_UTF8_12_1 ? " (utf8-12.1)" : "");
	}
}

/* Which copy is in use; JSON only, text says it in the heading line. */
static void sb_source_fields(struct dump *d)
{
	struct out *o = &d->out;
	const struct f2fs_error *why;
	int copy = f2fs_fs_sb_copy(d->fs, &why);

	out_u(o, "copy", NULL, (uint64_t)copy);
	if (copy)
		out_s(o, "copy0_rejected", NULL, why && why->msg[0] ? why->msg : "unknown reason");
}

/* The extension list holds extension_count cold names, then hot_ext_count hot ones. */
static void sb_extensions(struct out *o, const struct f2fs_super_block *sb)
{
	uint32_t cold = le32_get(sb->extension_count);
	uint32_t hot_end;

	if (cold > F2FS_MAX_EXTENSION)
		cold = F2FS_MAX_EXTENSION;
	hot_end = cold + sb->hot_ext_count;
	if (hot_end > F2FS_MAX_EXTENSION)
		hot_end = F2FS_MAX_EXTENSION;
	out_list_begin(o, "extension_list", "extension_list (cold)");
	for (uint32_t k = 0; k < cold; k++)
		out_list_bytes(o, sb->extension_list[k],
			       cstr_len(sb->extension_list[k], F2FS_EXTENSION_LEN));
	out_list_end(o);
	out_list_begin(o, "hot_extension_list", "extension_list (hot)");
	for (uint32_t k = cold; k < hot_end; k++)
		out_list_bytes(o, sb->extension_list[k],
			       cstr_len(sb->extension_list[k], F2FS_EXTENSION_LEN));
	out_list_end(o);
}

static void sb_devices(struct out *o, const struct f2fs_super_block *sb)
{
	static const struct out_col cols[] = {
		{ "path", "path", -24, OUT_COL_S },
		{ "total_segments", "segments", 10, OUT_COL_U },
	};
	struct out_table t;
	char path[F2FS_MAX_DEVICE_PATH + 1];

	out_tab_begin(o, &t, "devs", "  devices:", cols, 2);
	for (int d = 0; d < F2FS_MAX_DEVICES && sb->devs[d].path[0]; d++) {
		size_t len = cstr_len(sb->devs[d].path, F2FS_MAX_DEVICE_PATH);

		memcpy(path, sb->devs[d].path, len);
		path[len] = '\0';
		out_tab_row(o, &t, (struct out_cell[]){ OUT_S(path),
			OUT_U(le32_get(sb->devs[d].total_segments)) });
	}
	out_tab_end(o, &t);
}

static void sb_layout(struct out *o, const struct f2fs_super_block *sb)
{
#define U32(f) out_u(o, #f, #f, le32_get(sb->f))
	U32(log_sectorsize);
	U32(log_sectors_per_block);
	U32(log_blocksize);
	U32(log_blocks_per_seg);
	U32(segs_per_sec);
	U32(secs_per_zone);
	U32(checksum_offset);
	out_u(o, "block_count", "block_count", le64_get(sb->block_count));
	U32(section_count);
	U32(segment_count);
	U32(segment_count_ckpt);
	U32(segment_count_sit);
	U32(segment_count_nat);
	U32(segment_count_ssa);
	U32(segment_count_main);
	U32(segment0_blkaddr);
	U32(cp_blkaddr);
	U32(sit_blkaddr);
	U32(nat_blkaddr);
	U32(ssa_blkaddr);
	U32(main_blkaddr);
	U32(root_ino);
	U32(node_ino);
	U32(meta_ino);
#undef U32
}

static void sb_identity(struct out *o, const struct f2fs_super_block *sb)
{
	char label[LABEL_MAX], uuid[37], feat[512];

	out_x(o, "magic", "magic", le32_get(sb->magic));
	out_u(o, "major_ver", "major_ver", le16_get(sb->major_ver));
	out_u(o, "minor_ver", "minor_ver", le16_get(sb->minor_ver));
	out_s(o, "uuid", "uuid", uuid_string(sb->uuid, uuid));
	f2fs_sb_label(sb, label, sizeof(label));
	out_s(o, "label", "volume_name", label);
	out_bytes(o, "version", "version", sb->version, cstr_len(sb->version, F2FS_VERSION_LEN));
	out_bytes(o, "init_version", "init_version", sb->init_version,
		  cstr_len(sb->init_version, F2FS_VERSION_LEN));
	f2fs_feature_format(le32_get(sb->feature), feat, sizeof(feat));
	out_x(o, "feature", "feature", le32_get(sb->feature));
	out_s(o, "features", "features", feat);
}

static void sb_tail(struct out *o, const struct f2fs_super_block *sb)
{
	static const char *const qkey[] = { "qf_ino_usr", "qf_ino_grp", "qf_ino_prj" };
	static const char *const qlab[] = { "qf_ino[usr]", "qf_ino[grp]", "qf_ino[prj]" };
	char hex[2 * 32 + 1];

	out_u(o, "encryption_level", "encryption_level", sb->encryption_level);
	out_s(o, "encrypt_pw_salt", "encrypt_pw_salt",
	      hex_string(sb->encrypt_pw_salt, sizeof(sb->encrypt_pw_salt), hex, sizeof(hex)));
	for (int q = 0; q < F2FS_MAX_QUOTAS; q++)
		out_u(o, qkey[q], qlab[q], le32_get(sb->qf_ino[q]));
	out_u(o, "s_encoding", "s_encoding", le16_get(sb->s_encoding));
	out_s(o, "encoding", "encoding", le16_get(sb->s_encoding) == F2FS_ENC_UTF8_12_1 &&
	      (le32_get(sb->feature) & F2FS_FEATURE_CASEFOLD) ? "utf8-12.1" : "none");
	out_x(o, "s_encoding_flags", "s_encoding_flags", le16_get(sb->s_encoding_flags));
	/* counts per stop reason and a bitmap of error kinds: raw bytes */
	out_s(o, "s_stop_reason", "s_stop_reason",
	      hex_string(sb->s_stop_reason, sizeof(sb->s_stop_reason), hex, sizeof(hex)));
	out_s(o, "s_errors", "s_errors",
	      hex_string(sb->s_errors, sizeof(sb->s_errors), hex, sizeof(hex)));
	out_x(o, "crc", "crc", le32_get(sb->crc));
	if (le32_get(sb->feature) & F2FS_FEATURE_SB_CHKSUM)
		out_x(o, "crc_computed", "crc (computed)", f2fs_sb_crc(sb));
}

void view_sb(struct dump *d)
{
	struct out *o = &d->out;
	const struct f2fs_super_block *sb = f2fs_fs_sb(d->fs);

	if (!out_json(o))
		print_sb_source(d);
	out_obj_begin(o, "superblock", NULL);
	sb_source_fields(d);
	sb_identity(o, sb);
	sb_layout(o, sb);
	out_u(o, "extension_count", "extension_count", le32_get(sb->extension_count));
	out_u(o, "hot_ext_count", "hot_ext_count", sb->hot_ext_count);
	sb_extensions(o, sb);
	out_u(o, "cp_payload", "cp_payload", le32_get(sb->cp_payload));
	sb_devices(o, sb);
	sb_tail(o, sb);
	out_obj_end(o);
}
