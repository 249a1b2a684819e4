/* fsck.f2fs's views besides the check: kernel flags, -l, -t, -M. */
#include "info.h"
#include "../common/names.h"
#include "../common/out.h"

#include <f2fs/format/endian.h>
#include <f2fs/format/feature.h>
#include <f2fs/format/format.h>
#include <f2fs/format/super.h>
#include <f2fs/fs/dir.h>
#include <f2fs/fs/fs.h>
#include <f2fs/util/error.h>
#include <f2fs/util/vec.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernel's reasons for stopping checkpoints (s_stop_reason index). */
static const char *const stop_reasons[] = {
	"shutdown", "fault_inject", "meta_page", "write_fail", "corrupted_summary",
	"update_inode", "flush_fail", "no_segment", "corrupted_free_bitmap",
};

static void add_reason(char *why, size_t len, const char *fmt, const char *arg)
{
	size_t at = strlen(why);

	if (at + 2 >= len)
		return;
	if (at) {
		why[at++] = ',';
		why[at++] = ' ';
		why[at] = '\0';
	}
	snprintf(why + at, len - at, fmt, arg);
}

int info_kernel_flagged(const struct f2fs_fs *fs, char *why, size_t len)
{
	static const struct { uint32_t bit; const char *name; } asks[] = {
		{ F2FS_CP_FSCK, "fsck" }, { F2FS_CP_ERROR, "error" },
		{ F2FS_CP_QUOTA_NEED_FSCK, "quota_need_fsck" }, { F2FS_CP_DISABLED, "disabled" },
	};
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	uint32_t flags = le32_get(f2fs_fs_cp(fs)->ckpt_flags);
	char num[16];

	why[0] = '\0';
	for (size_t k = 0; k < sizeof(asks) / sizeof(asks[0]); k++)
		if (flags & asks[k].bit)
			add_reason(why, len, "checkpoint flag %s", asks[k].name);
	/* a shutdown alone is no sign of damage (f2fs-tools leaves it out too) */
	for (size_t k = 1; k < sizeof(sb->s_stop_reason); k++) {
		if (!sb->s_stop_reason[k])
			continue;
		if (k < sizeof(stop_reasons) / sizeof(stop_reasons[0])) {
			add_reason(why, len, "stop reason %s", stop_reasons[k]);
		} else {
			snprintf(num, sizeof(num), "%zu", k);
			add_reason(why, len, "stop reason %s", num);
		}
	}
	for (size_t k = 0; k < sizeof(sb->s_errors); k++) {
		if (sb->s_errors[k]) {
			add_reason(why, len, "%s", "errors recorded in the superblock");
			break;
		}
	}
	return why[0] != '\0';
}

/* ---- -l --------------------------------------------------------------- */

void info_layout(struct out *o, const struct f2fs_fs *fs)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	const struct f2fs_error *why;
	char buf[F2FS_VOLUME_NAME_UNITS * 4 + 1], uuid[37];

	out_obj_begin(o, "superblock", "superblock");
	out_u(o, "copy", "copy in use", (uint64_t)f2fs_fs_sb_copy(fs, &why));
	snprintf(buf, sizeof(buf), "%u.%u", le16_get(sb->major_ver), le16_get(sb->minor_ver));
	out_s(o, "format_version", "format version", buf);
	out_s(o, "uuid", "uuid", uuid_string(sb->uuid, uuid));
	f2fs_sb_label(sb, buf, sizeof(buf));
	out_s(o, "label", "label", buf);
	out_u(o, "block_count", "block_count", le64_get(sb->block_count));
	out_u(o, "sector_size", "sector size", 1u << le32_get(sb->log_sectorsize));
	out_u(o, "segs_per_sec", "segs_per_sec", le32_get(sb->segs_per_sec));
	out_u(o, "secs_per_zone", "secs_per_zone", le32_get(sb->secs_per_zone));
	out_u(o, "segment_count", "segment_count", le32_get(sb->segment_count));
	out_u(o, "segment_count_ckpt", "segment_count_ckpt", le32_get(sb->segment_count_ckpt));
	out_u(o, "segment_count_sit", "segment_count_sit", le32_get(sb->segment_count_sit));
	out_u(o, "segment_count_nat", "segment_count_nat", le32_get(sb->segment_count_nat));
	out_u(o, "segment_count_ssa", "segment_count_ssa", le32_get(sb->segment_count_ssa));
	out_u(o, "segment_count_main", "segment_count_main", le32_get(sb->segment_count_main));
	out_u(o, "section_count", "section_count", le32_get(sb->section_count));
	out_x(o, "segment0_blkaddr", "segment0_blkaddr", le32_get(sb->segment0_blkaddr));
	out_x(o, "cp_blkaddr", "cp_blkaddr", le32_get(sb->cp_blkaddr));
	out_x(o, "sit_blkaddr", "sit_blkaddr", le32_get(sb->sit_blkaddr));
	out_x(o, "nat_blkaddr", "nat_blkaddr", le32_get(sb->nat_blkaddr));
	out_x(o, "ssa_blkaddr", "ssa_blkaddr", le32_get(sb->ssa_blkaddr));
	out_x(o, "main_blkaddr", "main_blkaddr", le32_get(sb->main_blkaddr));
	out_u(o, "cp_payload", "cp_payload", le32_get(sb->cp_payload));
	f2fs_feature_format(le32_get(sb->feature), buf, sizeof(buf));
	out_s(o, "features", "features", buf);
	out_bytes(o, "version", "version", sb->version, cstr_len(sb->version, F2FS_VERSION_LEN));
	out_bytes(o, "init_version", "init_version", sb->init_version,
		  cstr_len(sb->init_version, F2FS_VERSION_LEN));
	out_list_begin(o, "stop_reasons", "stop reasons");
	for (size_t k = 0; k < sizeof(sb->s_stop_reason); k++)
		if (sb->s_stop_reason[k])
			out_list_u(o, k);
	out_list_end(o);
	out_list_begin(o, "errors", "errors");
	for (size_t k = 0; k < sizeof(sb->s_errors) * 8; k++)
		if (sb->s_errors[k / 8] & (1u << (k % 8)))
			out_list_u(o, k);
	out_list_end(o);
	out_obj_end(o);

	out_obj_begin(o, "checkpoint", "checkpoint");
	out_u(o, "pack", "pack in use", (uint64_t)f2fs_fs_cp_choice(fs)->pack);
	out_u(o, "checkpoint_ver", "checkpoint_ver", le64_get(cp->checkpoint_ver));
	out_flags(o, "ckpt_flags", "ckpt_flags", le32_get(cp->ckpt_flags), cp_flag_names);
	out_u(o, "user_block_count", "user_block_count", le64_get(cp->user_block_count));
	out_u(o, "valid_block_count", "valid_block_count", le64_get(cp->valid_block_count));
	out_u(o, "rsvd_segment_count", "rsvd_segment_count", le32_get(cp->rsvd_segment_count));
	out_u(o, "overprov_segment_count", "overprov_segment_count",
	      le32_get(cp->overprov_segment_count));
	out_u(o, "free_segment_count", "free_segment_count", le32_get(cp->free_segment_count));
	out_u(o, "valid_node_count", "valid_node_count", le32_get(cp->valid_node_count));
	out_u(o, "valid_inode_count", "valid_inode_count", le32_get(cp->valid_inode_count));
	out_u(o, "next_free_nid", "next_free_nid", le32_get(cp->next_free_nid));
	out_list_begin(o, "cur_node_segno", "cur_node_segno");
	for (int k = 0; k < 3; k++)
		out_list_u(o, le32_get(cp->cur_node_segno[k]));
	out_list_end(o);
	out_list_begin(o, "cur_node_blkoff", "cur_node_blkoff");
	for (int k = 0; k < 3; k++)
		out_list_u(o, le16_get(cp->cur_node_blkoff[k]));
	out_list_end(o);
	out_list_begin(o, "cur_data_segno", "cur_data_segno");
	for (int k = 0; k < 3; k++)
		out_list_u(o, le32_get(cp->cur_data_segno[k]));
	out_list_end(o);
	out_list_begin(o, "cur_data_blkoff", "cur_data_blkoff");
	for (int k = 0; k < 3; k++)
		out_list_u(o, le16_get(cp->cur_data_blkoff[k]));
	out_list_end(o);
	out_u(o, "elapsed_time", "elapsed_time", le64_get(cp->elapsed_time));
	out_obj_end(o);
}

/* ---- -t, -M -------------------------------------------------------------- */

struct item {
	char *path;        /* from the root, "/" for the root */
	size_t len;        /* of path: an encrypted name may hold NUL or '/' */
	size_t name_at;    /* where the last name starts in path */
	uint32_t ino;
	uint8_t type;
	unsigned depth;
};

struct walk {
	F2FS_VEC(struct item) v;      /* to show, the next one last */
	F2FS_VEC(struct item) kids;   /* the entries of the directory being read */
	const struct item *parent;
	int nomem;
};

static int kid_cb(const struct f2fs_dirent *de, void *arg)
{
	struct walk *w = arg;
	size_t pl = w->parent->len;
	struct item it = { .ino = de->ino, .type = de->file_type, .depth = w->parent->depth + 1 };

	if ((de->name_len == 1 && de->name[0] == '.') ||
	    (de->name_len == 2 && de->name[0] == '.' && de->name[1] == '.'))
		return 0;
	it.path = malloc(pl + de->name_len + 2);
	if (it.path) {
		memcpy(it.path, w->parent->path, pl);
		if (w->parent->depth)
			it.path[pl++] = '/';
		memcpy(it.path + pl, de->name, de->name_len);
		it.path[pl + de->name_len] = '\0';
		it.name_at = pl;
		it.len = pl + de->name_len;
	}
	if (!it.path || f2fs_vec_push(&w->kids, it)) {
		free(it.path);
		w->nomem = 1;
		return 1;
	}
	return 0;
}

static const char type_char[] = "?-dcbpsl";

static void show(struct out *o, const struct item *it, int map, struct out_table *t)
{
	if (map) {
		char ty[2] = { it->type < 8 ? type_char[it->type] : '?', 0 };

		if (out_json(o)) {
			out_tab_row(o, t, (struct out_cell[]){ OUT_U(it->ino), OUT_S(ty),
				    OUT_SN(it->path, it->len) });
			return;
		}
		out_text(o, "%10" PRIu32 " %s ", it->ino, ty);
		out_escaped(o, (const uint8_t *)it->path, it->len);
		out_text(o, "\n");
		return;
	}
	for (unsigned d = 1; d < it->depth; d++)
		out_text(o, "|   ");
	if (it->depth)
		out_text(o, "|-- ");
	out_escaped(o, (const uint8_t *)it->path + it->name_at, it->len - it->name_at);
	if (it->type == F2FS_FT_DIR && it->depth)
		out_text(o, "/");
	out_text(o, " [ino %" PRIu32 "]\n", it->ino);
}

unsigned info_tree(struct out *o, struct f2fs_fs *fs, int map)
{
	static const struct out_col cols[] = {
		{ "ino", "ino", 10, OUT_COL_U },
		{ "type", "type", 1, OUT_COL_S },
		{ "path", "path", -1, OUT_COL_S },
	};
	struct walk w = { 0 };
	struct out_table t;
	uint32_t max = f2fs_fs_max_nid(fs);
	uint8_t *seen = calloc((size_t)max / 8 + 1, 1);
	unsigned failed = 0;
	struct item root = { .len = 1, .ino = F2FS_ROOT_INO, .type = F2FS_FT_DIR };

	root.path = malloc(2);
	if (!seen || !root.path || f2fs_vec_push(&w.v, root)) {
		free(seen);
		free(root.path);
		return 1;
	}
	strcpy(root.path, "/");
	if (map && out_json(o))
		out_tab_begin(o, &t, "files", NULL, cols, 3);
	while (w.v.n) {
		struct item it = w.v.v[--w.v.n];
		struct f2fs_error err;

		show(o, &it, map, &t);
		if (it.type != F2FS_FT_DIR || it.ino >= max || (seen[it.ino / 8] & (1u << (it.ino % 8)))) {
			free(it.path);
			continue;
		}
		seen[it.ino / 8] |= (uint8_t)(1u << (it.ino % 8));
		w.kids.n = 0;
		w.parent = &it;
		if (f2fs_dir_foreach(fs, it.ino, kid_cb, &w, &err) || w.nomem) {
			failed++;
			w.nomem = 0;
		}
		/* the entries in on-disk order: pushed last to first */
		while (w.kids.n) {
			if (f2fs_vec_push(&w.v, w.kids.v[--w.kids.n])) {
				free(w.kids.v[w.kids.n].path);
				failed++;
			}
		}
		free(it.path);
	}
	if (map && out_json(o))
		out_tab_end(o, &t);
	f2fs_vec_free(&w.v);
	f2fs_vec_free(&w.kids);
	free(seen);
	return failed;
}
