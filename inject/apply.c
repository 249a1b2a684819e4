/* inject.f2fs: change the member in the block, print old and new, seal. */
#include "inject.h"

#include <f2fs/format/checkpoint.h>
#include <f2fs/format/crc.h>
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/fields.h>
#include <f2fs/format/format.h>
#include <f2fs/format/hash.h>
#include <f2fs/format/inode.h>
#include <f2fs/fs/nat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char prog[] = "inject.f2fs";

/* A command-line mistake: f2fs_fail's message, the usage exit status. */
#define usage_fail(err, ...) (f2fs_fail((err), -F2FS_E_BAD_OPTION, __VA_ARGS__), EXIT_USAGE)

static void say(const struct inj_opts *o, const struct inj_loc *l, const char *member,
		const char *old_new)
{
	printf("%s: %s: %s: %s: %s%s\n", prog, o->image, l->what, member, old_new,
	       o->dry_run ? " (dry run: not written)" : "");
}

/* The member in the kinds the target reaches: its row and its instance. */
static const struct f2fs_field *member(const struct inj_loc *l, const char *name, uint32_t *inst)
{
	for (unsigned k = 0; k < l->nkinds; k++) {
		const struct f2fs_field *f = f2fs_field_find(l->kinds[k], name);

		if (f) {
			*inst = l->kind_off[k];
			return f;
		}
	}
	return NULL;
}

/* The members a target takes, for the error that names an unknown one. */
static void list_members(const struct inj_loc *l, char *out, size_t cap)
{
	size_t len = 0;

	out[0] = 0;
	for (unsigned k = 0; k < l->nkinds; k++) {
		size_t n;
		const struct f2fs_field *f = f2fs_fields_of(l->kinds[k], &n);

		for (size_t i = 0; i < n && len + 40 < cap; i++)
			len += (size_t)snprintf(out + len, cap - len, "%s%s", len ? " " : "", f[i].name);
	}
}

/* --val as the field takes it: a negative value is two's complement in
 * the field's width (-1: all ones); a larger one does not fit. */
static int value_for(const struct inj_opts *o, const struct f2fs_field *f, uint64_t *v,
		     struct f2fs_error *err)
{
	uint64_t mask = f2fs_field_mask(f);

	if (!o->has_val)
		return usage_fail(err, "member %s needs --val", f->name);
	if ((int64_t)o->val < 0 && (int64_t)o->val >= -(int64_t)(mask >> 1) - 1)
		*v = o->val & mask;
	else if (o->val > mask)
		return usage_fail(err, "--val 0x%llx does not fit the %u-byte member %s",
				  (unsigned long long)o->val, f->size, f->name);
	else
		*v = o->val;
	return 0;
}

static int index_for(const struct inj_opts *o, const struct inj_loc *l,
		     const struct f2fs_field *f, uint32_t *idx, struct f2fs_error *err)
{
	*idx = 0;
	if (f->count == 1) {
		if (o->has_idx)
			return usage_fail(err, "member %s is not an array: no --idx", f->name);
		return 0;
	}
	if (!o->has_idx && l->default_idx >= 0 && l->default_idx < f->count) {
		*idx = (uint32_t)l->default_idx;
		return 0;
	}
	if (!o->has_idx)
		return usage_fail(err, "member %s is an array: --idx below %u is needed", f->name,
				  f->count);
	if (o->idx >= f->count)
		return usage_fail(err, "member %s: --idx below %u", f->name, f->count);
	*idx = o->idx;
	return 0;
}

/* A byte string (a path, a name): --str, the rest of the field zeroed. */
static int set_bytes(const struct inj_opts *o, const struct inj_loc *l, uint8_t *blk,
		     uint32_t inst, const struct f2fs_field *f, uint32_t idx, struct f2fs_error *err)
{
	uint8_t *p = blk + inst + f2fs_field_pos(f, idx);
	size_t len = o->str ? strlen(o->str) : 0;
	char msg[2 * 300];

	if (!o->str)
		return usage_fail(err, "member %s is a string: --str is needed", f->name);
	if (len > f->size)
		return usage_fail(err, "--str is longer than member %s (%u bytes)", f->name, f->size);
	snprintf(msg, sizeof(msg), "\"%.*s\" -> \"%.255s\"",
		 (int)strnlen((const char *)p, f->size > 255 ? 255 : f->size), (const char *)p, o->str);
	memset(p, 0, f->size);
	memcpy(p, o->str, len);
	say(o, l, f->name, msg);
	return 0;
}

/* A bit of a bitmap (--val 0 or 1). */
static int set_bit(const struct inj_opts *o, const struct inj_loc *l, uint8_t *blk,
		   struct f2fs_error *err)
{
	uint8_t m = (uint8_t)(l->msb ? 0x80u >> l->bit : 1u << l->bit);
	uint8_t *p = blk + l->bitmap_off;
	char msg[64], name[96];

	if (!o->has_val || o->val > 1)
		return usage_fail(err, "member %s is a bit: --val 0 or 1", o->mb);
	snprintf(msg, sizeof(msg), "%d -> %d", (*p & m) != 0, (int)o->val);
	snprintf(name, sizeof(name), "%s[%u]", o->mb, o->idx);
	*p = (uint8_t)(o->val ? *p | m : *p & ~m);
	say(o, l, name, msg);
	return 0;
}

/* dent: d_bitmap clears the entry's bit; filename rewrites its name, its
 * length and its hash. */
static int dent_special(const struct inj_opts *o, const struct inj_loc *l, uint8_t *blk,
			struct f2fs_fs *fs, bool *done, struct f2fs_error *err)
{
	struct f2fs_dir_entry *de = (void *)(blk + l->kind_off[0]);
	char msg[600];

	*done = true;
	if (!strcmp(o->mb, "d_bitmap")) {
		uint8_t *p = blk + l->bitmap_off + l->slot / 8, m = (uint8_t)(1u << (l->slot % 8));

		snprintf(msg, sizeof(msg), "%d -> 0", (*p & m) != 0);
		*p &= (uint8_t)~m;
		say(o, l, "d_bitmap", msg);
		return 0;
	}
	if (!strcmp(o->mb, "filename")) {
		uint8_t *name = blk + l->names_off + l->slot * F2FS_SLOT_LEN;
		size_t len = o->str ? strlen(o->str) : 0, old = le16_get(de->name_len);
		size_t room = f2fs_dentry_slots(old ? old : 1) * F2FS_SLOT_LEN;
		struct f2fs_node dir;
		uint32_t hash;

		if (!o->str || !len)
			return usage_fail(err, "member filename needs --str (a name)");
		if (len > room || len > F2FS_NAME_LEN)
			return usage_fail(err, "--str: the entry has room for %zu bytes", room);
		hash = f2fs_dentry_hash((const uint8_t *)o->str, len);
		if (!f2fs_read_inode(fs, l->dir, &dir, err) &&
		    (le32_get(dir.i.i_flags) & F2FS_CASEFOLD_FL))
			hash = f2fs_dentry_hash_casefold((const uint8_t *)o->str, len);
		snprintf(msg, sizeof(msg), "\"%.*s\" -> \"%s\" (name_len %zu, d_hash 0x%08x)", (int)old,
			 (const char *)name, o->str, len, hash);
		memcpy(name, o->str, len);
		de->name_len = le16_put((uint16_t)len);
		de->hash_code = le32_put(hash);
		say(o, l, "filename", msg);
		return 0;
	}
	*done = false;
	return 0;
}

/* Whole-block garbage: random (seeded by --val, else the clock), zeros or
 * ones. */
static int garbage(const struct inj_opts *o, const struct inj_loc *l, uint8_t *blk,
		   struct f2fs_error *err)
{
	char msg[96];

	if (!strcmp(o->garbage, "zero") || !strcmp(o->garbage, "ones")) {
		memset(blk, o->garbage[0] == 'z' ? 0 : 0xff, F2FS_BLKSIZE);
		snprintf(msg, sizeof(msg), "4096 bytes -> %s", o->garbage[0] == 'z' ? "zeros" : "ones");
	} else if (!strcmp(o->garbage, "random")) {
		uint64_t s = o->has_val ? o->val : (uint64_t)time(NULL);

		snprintf(msg, sizeof(msg), "4096 bytes -> random (seed %llu)", (unsigned long long)s);
		for (size_t i = 0; i < F2FS_BLKSIZE; i++) {
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			blk[i] = (uint8_t)(s >> 56);
		}
	} else {
		return usage_fail(err, "--garbage %s: random, zero or ones", o->garbage);
	}
	say(o, l, "whole block", msg);
	return 0;
}

static void seal(struct f2fs_fs *fs, const struct inj_opts *o, const struct inj_loc *l,
		 uint8_t *blk, const char *name)
{
	if (o->stale)
		return;
	switch (l->seal) {
	case SEAL_SB: {
		struct f2fs_super_block *sb = (void *)(blk + F2FS_SUPER_OFFSET);

		if (strcmp(name, "crc") && (le32_get(sb->feature) & F2FS_FEATURE_SB_CHKSUM))
			sb->crc = le32_put(f2fs_sb_crc(sb));
		break;
	}
	case SEAL_CP:
		if (strcmp(name, "crc"))
			f2fs_cp_seal(blk);
		break;
	case SEAL_INODE:
		if (strcmp(name, "i_inode_checksum"))
			f2fs_inode_seal((void *)blk, f2fs_fs_features(fs), f2fs_fs_inode_crc_seed(fs));
		break;
	case SEAL_NONE:
		break;
	}
}

int inj_apply(struct f2fs_fs *fs, const struct inj_opts *o, const struct inj_loc *l,
	      uint8_t *blk, struct f2fs_error *err)
{
	const struct f2fs_field *f;
	uint32_t inst = 0, idx;
	uint64_t v, old;
	char msg[96], name[96], list[1024];
	bool done = false;
	int ret;

	if (o->target == T_GARBAGE)
		return garbage(o, l, blk, err);
	if (l->bit >= 0)
		ret = set_bit(o, l, blk, err);
	else if (o->target == T_DENT && (ret = dent_special(o, l, blk, fs, &done, err)))
		return ret;
	if (l->bit >= 0 || done) {
		if (!ret)
			seal(fs, o, l, blk, o->mb);
		return ret;
	}
	f = member(l, o->mb, &inst);
	if (!f) {
		list_members(l, list, sizeof(list));
		f2fs_fail(err, -F2FS_E_BAD_OPTION, "%s has no member \"%s\" (it has: %s)", l->what,
			  o->mb, list);
		return EXIT_USAGE;
	}
	if ((ret = index_for(o, l, f, &idx, err)))
		return ret;
	if (f->count > 1)
		snprintf(name, sizeof(name), "%s[%u]", f->name, idx);
	else
		snprintf(name, sizeof(name), "%s", f->name);
	if (f->flags & F2FS_FF_BYTES)
		ret = set_bytes(o, l, blk, inst, f, idx, err);
	else if (!(ret = value_for(o, f, &v, err))) {
		old = f2fs_field_get(blk + inst, f, idx);
		f2fs_field_set(blk + inst, f, idx, v);
		snprintf(msg, sizeof(msg), "0x%llx -> 0x%llx", (unsigned long long)old,
			 (unsigned long long)v);
		say(o, l, name, msg);
	}
	if (!ret)
		seal(fs, o, l, blk, f->name);
	return ret;
}
