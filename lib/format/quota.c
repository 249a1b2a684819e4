/*
 * Quota file content in the VFS v2r1 tree format.
 *
 * The builder replays what the kernel's tree code does when ids are inserted
 * one by one, in ascending order, into a file holding only the header and an
 * empty root: missing tree blocks are appended as the path to an id is
 * walked, and each record goes into the data block heading the free-entry
 * list, a new data block being appended when that list is empty. Following
 * the kernel's order means a file for id 0 matches the one mkfs.f2fs writes,
 * and that the kernel would find nothing to rewrite.
 */
#include <f2fs/format/quota.h>
#include <f2fs/util/sort.h>

#include <f2fs/format/endian.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define QBS F2FS_QUOTA_BLKSIZE
#define RECS F2FS_QUOTA_RECS_PER_BLK
#define DATA_HDR sizeof(struct f2fs_quota_data_header)
#define REC_SIZE sizeof(struct f2fs_quota_record)
#define INFO_OFF sizeof(struct f2fs_quota_header)

static const uint32_t quota_magic[] = {
	[F2FS_QUOTA_USR] = F2FS_QUOTA_MAGIC_USR,
	[F2FS_QUOTA_GRP] = F2FS_QUOTA_MAGIC_GRP,
	[F2FS_QUOTA_PRJ] = F2FS_QUOTA_MAGIC_PRJ,
};

/* The tree slot of id at depth d: the id's bytes, most significant first. */
static unsigned int tree_index(uint32_t id, int depth)
{
	return (id >> ((F2FS_QUOTA_TREE_DEPTH - 1 - depth) * 8)) & 0xff;
}

static int usage_less(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return ((const struct f2fs_quota_usage *)a)->id < ((const struct f2fs_quota_usage *)b)->id;
}

static struct f2fs_quota_usage *sorted_copy(const struct f2fs_quota_usage *ids,
					    size_t n)
{
	struct f2fs_quota_usage *s;

	if (n > SIZE_MAX / sizeof(*s))
		return NULL;
	s = malloc(n ? n * sizeof(*s) : 1);
	if (s && n) {
		memcpy(s, ids, n * sizeof(*s));
		f2fs_sort(s, n, sizeof(*s), usage_less, NULL);
	}
	return s;
}

/*
 * Blocks needed: header, root, one tree block per distinct id prefix of one,
 * two and three bytes, and the data blocks, filled completely in turn.
 */
static uint64_t count_blocks(const struct f2fs_quota_usage *s, size_t n)
{
	uint64_t blocks = F2FS_QUOTA_TREE_ROOT + 1 + (n + RECS - 1) / RECS;

	for (size_t i = 0; i < n; i++) {
		for (int shift = 24; shift >= 8; shift -= 8) {
			if (i == 0 || (s[i].id >> shift) != (s[i - 1].id >> shift))
				blocks++;
		}
	}
	return blocks;
}

size_t f2fs_quota_file_size(const struct f2fs_quota_usage *ids, size_t n)
{
	struct f2fs_quota_usage *s = n && !ids ? NULL : sorted_copy(ids, n);
	uint64_t blocks;

	if (!s)
		return 0;
	blocks = count_blocks(s, n);
	free(s);
	if (blocks > SIZE_MAX / QBS)
		return 0;
	return (size_t)blocks * QBS;
}

/* ---- building --------------------------------------------------------- */

static int record_is_zero(const struct f2fs_quota_record *r)
{
	static const struct f2fs_quota_record zero;

	return !memcmp(r, &zero, sizeof(zero));
}

struct qbuild {
	uint8_t *out;
	uint32_t next_blk;      /* first block past the end of the file */
	uint32_t free_entry;    /* data block with free slots, 0 if none */
};

static uint8_t *qblock(const struct qbuild *b, uint32_t blk)
{
	return b->out + (size_t)blk * QBS;
}

/* Follow the slot of id in tree block blk, appending a block if it is empty. */
static uint32_t tree_child(struct qbuild *b, uint32_t blk, uint32_t id, int depth)
{
	uint8_t *slot = qblock(b, blk) + tree_index(id, depth) * sizeof(f2fs_le32);
	uint32_t child = le32_load(slot);

	if (!child) {
		child = b->next_blk++;
		le32_store(slot, child);
	}
	return child;
}

static void put_record(uint8_t *p, const struct f2fs_quota_usage *u)
{
	struct f2fs_quota_record r;

	memset(&r, 0, sizeof(r));
	r.id = le32_put(u->id);
	r.curinodes = le64_put(u->inodes);
	r.curspace = le64_put(u->space_bytes);
	r.ihardlimit = le64_put(u->lim.ihardlimit);
	r.isoftlimit = le64_put(u->lim.isoftlimit);
	r.bhardlimit = le64_put(u->lim.bhardlimit);
	r.bsoftlimit = le64_put(u->lim.bsoftlimit);
	r.btime = le64_put(u->lim.btime);
	r.itime = le64_put(u->lim.itime);
	/* An all-zero record reads as a free slot; the kernel keeps it in use
	 * by setting itime to 1, and clears that again when reading it. */
	if (record_is_zero(&r))
		r.itime = le64_put(1);
	memcpy(p, &r, sizeof(r));
}

/* Store u in the data block on the free-entry list, starting one if none. */
static uint32_t add_record(struct qbuild *b, const struct f2fs_quota_usage *u)
{
	uint32_t blk = b->free_entry;
	struct f2fs_quota_data_header *dh;
	uint16_t entries;

	if (!blk)
		blk = b->free_entry = b->next_blk++;
	dh = (struct f2fs_quota_data_header *)qblock(b, blk);
	entries = le16_get(dh->entries);
	put_record(qblock(b, blk) + DATA_HDR + entries * REC_SIZE, u);
	dh->entries = le16_put(entries + 1);
	/* A full block leaves the list; it is the only member, so no links. */
	if (entries + 1 == RECS)
		b->free_entry = 0;
	return blk;
}

static void insert_id(struct qbuild *b, const struct f2fs_quota_usage *u)
{
	uint32_t blk = F2FS_QUOTA_TREE_ROOT;
	int depth;

	for (depth = 0; depth < F2FS_QUOTA_TREE_DEPTH - 1; depth++)
		blk = tree_child(b, blk, u->id, depth);
	le32_store(qblock(b, blk) + tree_index(u->id, depth) * sizeof(f2fs_le32),
		   add_record(b, u));
}

static void put_header(const struct qbuild *b, enum f2fs_quota_type type,
		       const struct f2fs_quota_grace *grace)
{
	struct f2fs_quota_header h = {
		.magic = le32_put(quota_magic[type]),
		.version = le32_put(F2FS_QUOTA_VERSION),
	};
	struct f2fs_quota_info info = {
		.bgrace = le32_put(grace ? grace->bgrace : F2FS_QUOTA_GRACE),
		.igrace = le32_put(grace ? grace->igrace : F2FS_QUOTA_GRACE),
		.flags = le32_put(grace ? grace->flags : 0),
		.blocks = le32_put(b->next_blk),
		.free_blk = 0,
		.free_entry = le32_put(b->free_entry),
	};

	memcpy(b->out, &h, sizeof(h));
	memcpy(b->out + INFO_OFF, &info, sizeof(info));
}

static int find_duplicate(const struct f2fs_quota_usage *s, size_t n,
			  struct f2fs_error *err)
{
	for (size_t i = 1; i < n; i++) {
		if (s[i].id == s[i - 1].id)
			return f2fs_fail(err, -F2FS_E_BAD_OPTION,
					 "quota id %u listed twice", s[i].id);
	}
	return 0;
}

static int check_room(uint64_t blocks, size_t out_len, struct f2fs_error *err)
{
	if (blocks > UINT32_MAX)
		return f2fs_fail(err, -F2FS_E_TOO_LARGE,
				 "quota file of %llu blocks exceeds the format",
				 (unsigned long long)blocks);
	if (out_len / QBS < blocks)
		return f2fs_fail(err, -F2FS_E_NO_SPACE,
				 "quota file needs %llu bytes, buffer has %zu",
				 (unsigned long long)blocks * QBS, out_len);
	return 0;
}

int f2fs_quota_file_build(enum f2fs_quota_type type,
			  const struct f2fs_quota_usage *ids, size_t n,
			  const struct f2fs_quota_grace *grace,
			  uint8_t *out, size_t out_len, struct f2fs_error *err)
{
	struct qbuild b = { .out = out, .next_blk = F2FS_QUOTA_TREE_ROOT + 1 };
	struct f2fs_quota_usage *s;
	int ret;

	if ((unsigned int)type > F2FS_QUOTA_PRJ)
		return f2fs_fail(err, -F2FS_E_BAD_OPTION,
				 "unknown quota type %d", (int)type);
	if (n && !ids)
		return f2fs_fail(err, -EINVAL, "no quota ids given");
	s = sorted_copy(ids, n);
	if (!s)
		return f2fs_fail(err, -ENOMEM, "no memory to sort %zu quota ids", n);
	ret = find_duplicate(s, n, err);
	if (!ret)
		ret = check_room(count_blocks(s, n), out_len, err);
	if (!ret) {
		memset(out, 0, out_len);
		for (size_t i = 0; i < n; i++)
			insert_id(&b, &s[i]);
		put_header(&b, type, grace);
	}
	free(s);
	return ret;
}

/* ---- walking ---------------------------------------------------------- */

enum blk_role { ROLE_NONE, ROLE_TREE, ROLE_DATA };

struct qwalk {
	const uint8_t *buf;
	uint32_t blocks;
	uint8_t *role;          /* enum blk_role per block */
	int (*fn)(const struct f2fs_quota_usage *u, void *arg);
	void *arg;
	struct f2fs_error *err;
};

static const uint8_t *wblock(const struct qwalk *w, uint32_t blk)
{
	return w->buf + (size_t)blk * QBS;
}

static int record_unused(const uint8_t *rec)
{
	for (size_t i = 0; i < REC_SIZE; i++) {
		if (rec[i])
			return 0;
	}
	return 1;
}

/* On first sight of a data block, its entry count must match its records. */
static int check_data_block(struct qwalk *w, uint32_t blk)
{
	const uint8_t *p = wblock(w, blk);
	unsigned int entries = le16_get(((const struct f2fs_quota_data_header *)p)->entries);
	unsigned int used = 0;

	if (w->role[blk] == ROLE_TREE)
		return f2fs_fail(w->err, -F2FS_E_CORRUPT,
				 "quota block %u is both tree and data", blk);
	if (w->role[blk] == ROLE_DATA)
		return 0;
	for (unsigned int i = 0; i < RECS; i++)
		used += !record_unused(p + DATA_HDR + i * REC_SIZE);
	if (used != entries)
		return f2fs_fail(w->err, -F2FS_E_CORRUPT,
				 "quota data block %u counts %u entries, holds %u",
				 blk, entries, used);
	w->role[blk] = ROLE_DATA;
	return 0;
}

static void read_record(const uint8_t *p, uint32_t id, struct f2fs_quota_usage *u)
{
	struct f2fs_quota_record r;

	memcpy(&r, p, sizeof(r));
	u->id = id;
	u->inodes = le64_get(r.curinodes);
	u->space_bytes = le64_get(r.curspace);
	u->lim.ihardlimit = le64_get(r.ihardlimit);
	u->lim.isoftlimit = le64_get(r.isoftlimit);
	u->lim.bhardlimit = le64_get(r.bhardlimit);
	u->lim.bsoftlimit = le64_get(r.bsoftlimit);
	u->lim.btime = le64_get(r.btime);
	u->lim.itime = le64_get(r.itime);
	/* the mark that keeps an all-zero record in use is not a deadline */
	r.itime = 0;
	if (record_is_zero(&r) && u->lim.itime == 1)
		u->lim.itime = 0;
}

static int visit_record(struct qwalk *w, uint32_t blk, uint32_t id)
{
	const uint8_t *p = wblock(w, blk) + DATA_HDR;
	int ret = check_data_block(w, blk);

	if (ret)
		return ret;
	for (unsigned int i = 0; i < RECS; i++, p += REC_SIZE) {
		struct f2fs_quota_usage u;

		if (record_unused(p) || le32_load(p) != id)
			continue;
		read_record(p, id, &u);
		return w->fn ? w->fn(&u, w->arg) : 0;
	}
	return f2fs_fail(w->err, -F2FS_E_CORRUPT,
			 "quota id %u missing from data block %u", id, blk);
}

/* Each tree block has one parent, which bounds the walk by the file size. */
static int walk_tree(struct qwalk *w, uint32_t blk, int depth, uint32_t prefix)
{
	const uint8_t *p = wblock(w, blk);

	if (w->role[blk] != ROLE_NONE)
		return f2fs_fail(w->err, -F2FS_E_CORRUPT,
				 "quota tree block %u referenced twice", blk);
	w->role[blk] = ROLE_TREE;
	for (uint32_t i = 0; i < F2FS_QUOTA_REFS_PER_BLK; i++) {
		uint32_t ref = le32_load(p + i * sizeof(f2fs_le32));
		uint32_t id = prefix << 8 | i;
		int ret;

		if (!ref)
			continue;
		if (ref < F2FS_QUOTA_TREE_ROOT || ref >= w->blocks)
			return f2fs_fail(w->err, -F2FS_E_CORRUPT,
					 "quota block %u points to block %u of %u",
					 blk, ref, w->blocks);
		if (depth == F2FS_QUOTA_TREE_DEPTH - 1)
			ret = visit_record(w, ref, id);
		else
			ret = walk_tree(w, ref, depth + 1, id);
		if (ret)
			return ret;
	}
	return 0;
}

static int parse_type(const uint8_t *buf, enum f2fs_quota_type *type,
		      struct f2fs_error *err)
{
	uint32_t magic = le32_load(buf);
	uint32_t version = le32_load(buf + 4);
	int t;

	for (t = F2FS_QUOTA_USR; t <= F2FS_QUOTA_PRJ; t++) {
		if (quota_magic[t] == magic)
			break;
	}
	if (t > F2FS_QUOTA_PRJ)
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "bad quota file magic 0x%08x", magic);
	if (version == 0)
		return f2fs_fail(err, -F2FS_E_UNSUPPORTED,
				 "quota format v2 revision 0 is not handled");
	if (version != F2FS_QUOTA_VERSION)
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "bad quota file version %u", version);
	*type = (enum f2fs_quota_type)t;
	return 0;
}

static int parse_info(const uint8_t *buf, size_t len, uint32_t *blocks,
		      uint32_t *free_entry, struct f2fs_error *err)
{
	struct f2fs_quota_info info;
	uint32_t free_blk;

	memcpy(&info, buf + INFO_OFF, sizeof(info));
	*blocks = le32_get(info.blocks);
	free_blk = le32_get(info.free_blk);
	*free_entry = le32_get(info.free_entry);
	if (*blocks <= F2FS_QUOTA_TREE_ROOT || *blocks > len / QBS)
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "quota file claims %u blocks, has %zu bytes",
				 *blocks, len);
	if (free_blk >= *blocks || *free_entry >= *blocks)
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "quota free list head beyond block %u", *blocks);
	return 0;
}

/* Block 0: magic, version and the file-wide info, checked. */
static int parse_header(const uint8_t *buf, size_t len, enum f2fs_quota_type *type,
			uint32_t *blocks, uint32_t *free_entry, struct f2fs_error *err)
{
	int ret;

	if (!buf || len < QBS)
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "quota file of %zu bytes is too short", len);
	ret = parse_type(buf, type, err);
	if (!ret)
		ret = parse_info(buf, len, blocks, free_entry, err);
	return ret;
}

/* The free-entry head must be a data block that still has room. */
static int check_free_entry(const struct qwalk *w, uint32_t blk)
{
	const struct f2fs_quota_data_header *dh;

	if (!blk)
		return 0;
	dh = (const struct f2fs_quota_data_header *)wblock(w, blk);
	if (w->role[blk] != ROLE_DATA || le16_get(dh->entries) >= RECS)
		return f2fs_fail(w->err, -F2FS_E_CORRUPT,
				 "quota free-entry list starts at unusable block %u",
				 blk);
	return 0;
}

int f2fs_quota_file_walk(const uint8_t *buf, size_t len,
			 enum f2fs_quota_type *type_out,
			 int (*fn)(const struct f2fs_quota_usage *u, void *arg),
			 void *arg, struct f2fs_error *err)
{
	struct qwalk w = { .buf = buf, .fn = fn, .arg = arg, .err = err };
	enum f2fs_quota_type type = F2FS_QUOTA_USR;
	uint32_t free_entry;
	int ret;

	ret = parse_header(buf, len, &type, &w.blocks, &free_entry, err);
	if (ret)
		return ret;
	if (type_out)
		*type_out = type;
	w.role = calloc(w.blocks, 1);
	if (!w.role)
		return f2fs_fail(err, -ENOMEM, "no memory to walk %u quota blocks",
				 w.blocks);
	ret = walk_tree(&w, F2FS_QUOTA_TREE_ROOT, 0, 0);
	if (!ret)
		ret = check_free_entry(&w, free_entry);
	free(w.role);
	return ret;
}

int f2fs_quota_file_grace(const uint8_t *buf, size_t len, struct f2fs_quota_grace *out,
			  struct f2fs_error *err)
{
	enum f2fs_quota_type type;
	struct f2fs_quota_info info;
	uint32_t blocks, free_entry;
	int ret;

	ret = parse_header(buf, len, &type, &blocks, &free_entry, err);
	if (ret)
		return ret;
	memcpy(&info, buf + INFO_OFF, sizeof(info));
	out->bgrace = le32_get(info.bgrace);
	out->igrace = le32_get(info.igrace);
	out->flags = le32_get(info.flags);
	return 0;
}
