/* inject.f2fs: where the instance a target names lies. */
#include "inject.h"

#include <f2fs/format/checkpoint.h>
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/fields.h>
#include <f2fs/format/format.h>
#include <f2fs/format/inode.h>
#include <f2fs/format/nat_bits.h>
#include <f2fs/format/quota.h>
#include <f2fs/format/ver_bitmap.h>
#include <f2fs/fs/dir.h>
#include <f2fs/fs/nat.h>
#include <f2fs/fs/sit.h>
#include <f2fs/io/dev.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int no_target(struct f2fs_error *err, const char *fmt, unsigned long long v)
{
	f2fs_fail(err, -F2FS_E_CORRUPT, fmt, v);
	return EXIT_NOTARGET;
}

static int read_block(struct f2fs_fs *fs, uint64_t blk, void *buf, struct f2fs_error *err)
{
	return f2fs_dev_read(f2fs_fs_dev(fs), blk, buf, 1, err) ? EXIT_IO : 0;
}

static void add_kind(struct inj_loc *l, unsigned kind, uint32_t off)
{
	l->kinds[l->nkinds] = kind;
	l->kind_off[l->nkinds++] = off;
}

/* The first block of checkpoint pack N (0: the one in use). */
static uint64_t pack_start(struct f2fs_fs *fs, int n)
{
	uint32_t cp = le32_get(f2fs_fs_sb(fs)->cp_blkaddr);

	return n == 0 ? f2fs_fs_cp_start(fs) : cp + (n == 2 ? F2FS_BLOCKS_PER_SEG : 0);
}

static const char *pack_name(struct f2fs_fs *fs, int n)
{
	return pack_start(fs, n) == le32_get(f2fs_fs_sb(fs)->cp_blkaddr) ? "1" : "2";
}

static int locate_sb(const struct inj_opts *o, struct inj_loc *l)
{
	l->blk = o->copy == 2 ? 1 : 0;
	add_kind(l, F2FS_FK_SB, F2FS_SUPER_OFFSET);
	l->seal = SEAL_SB;
	snprintf(l->what, sizeof(l->what), "sb %d", o->copy == 2 ? 2 : 1);
	return 0;
}

/* A pack's first block, its last (the same content) and, for a version
 * bitmap member, the block and byte of the bitmap. */
static int locate_cp(struct f2fs_fs *fs, const struct inj_opts *o, struct inj_loc *l,
		     struct f2fs_error *err)
{
	uint32_t payload = le32_get(f2fs_fs_sb(fs)->cp_payload);
	uint8_t pack[F2FS_BLKSIZE];
	const struct f2fs_checkpoint *cp = (const void *)pack;
	uint32_t total;
	int ret;

	l->blk = pack_start(fs, o->copy);
	if ((ret = read_block(fs, l->blk, pack, err)))
		return ret;
	total = le32_get(cp->cp_pack_total_block_count);
	if (total < 2 || total > F2FS_BLOCKS_PER_SEG)
		return no_target(err, "checkpoint pack: total block count %llu", total);
	snprintf(l->what, sizeof(l->what), "cp %s", pack_name(fs, o->copy));
	if (o->mb && (!strcmp(o->mb, "nat_ver_bitmap") || !strcmp(o->mb, "sit_ver_bitmap"))) {
		/* a bit of a version bitmap (MSB first): the SIT's lies in the
		 * payload blocks when there are any */
		bool nat = o->mb[0] == 'n';
		uint32_t bytes = le32_get(nat ? cp->nat_ver_bitmap_bytesize : cp->sit_ver_bitmap_bytesize);
		uint64_t byte;

		if (!o->has_idx || o->idx / 8 >= bytes) {
			f2fs_fail(err, -F2FS_E_BAD_OPTION, "--idx: a bit below %u is needed", bytes * 8);
			return EXIT_USAGE;
		}
		byte = (uint64_t)((nat ? f2fs_cp_nat_bitmap(pack, payload) :
				   f2fs_cp_sit_bitmap(pack, payload)) - pack) + o->idx / 8;
		l->bit = (int)(o->idx % 8);
		l->msb = true;
		l->bitmap_off = (uint32_t)(byte % F2FS_BLKSIZE);
		if (byte >= F2FS_BLKSIZE) {
			l->blk += byte / F2FS_BLKSIZE;
			return 0;   /* a payload block: no CRC covers it */
		}
	}
	l->mirror = l->blk + total - 1;
	add_kind(l, F2FS_FK_CP, 0);
	l->seal = SEAL_CP;
	return 0;
}

/* The pack's summary block holding a journal: the NAT's in the hot data
 * summary, the SIT's in the cold one (the first block when compacted). */
static void journal_at(struct f2fs_fs *fs, bool sit, uint64_t *blk, uint32_t *off)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	uint64_t first = f2fs_fs_cp_start(fs) + le32_get(cp->cp_pack_start_sum);

	if (f2fs_fs_ckpt_flags(fs) & F2FS_CP_COMPACT_SUM) {
		*blk = first;
		*off = sit ? F2FS_SUM_JOURNAL_SIZE : 0;
	} else {
		*blk = first + (sit ? 2 : 0);
		*off = F2FS_SUM_ENTRY_SIZE;
	}
}

static int locate_nat(struct f2fs_fs *fs, const struct inj_opts *o, struct inj_loc *l,
		      struct f2fs_error *err)
{
	const struct f2fs_journal *j = f2fs_fs_nat_journal(fs);
	uint32_t bytes, k = o->nid / F2FS_NAT_ENTRY_PER_BLOCK;
	const uint8_t *map = f2fs_fs_nat_bitmap(fs, &bytes);
	int copy;

	if (o->nid >= f2fs_fs_max_nid(fs))
		return no_target(err, "nid %llu is past the NAT", o->nid);
	for (uint32_t i = 0; o->copy == 0 && i < le16_get(j->n_entries); i++) {
		if (le32_get(j->nat_j.entries[i].nid) != o->nid)
			continue;
		journal_at(fs, false, &l->blk, &l->off);
		add_kind(l, F2FS_FK_NAT_JOURNAL_ENTRY,
			 l->off + 2 + i * (uint32_t)sizeof(struct f2fs_nat_journal_entry));
		snprintf(l->what, sizeof(l->what), "nid %u in the NAT journal (entry %u)", o->nid, i);
		return 0;
	}
	copy = o->copy ? o->copy - 1 : f2fs_ver_bit(map, k);
	l->blk = f2fs_nat_copy_addr(le32_get(f2fs_fs_sb(fs)->nat_blkaddr), k, copy);
	add_kind(l, F2FS_FK_NAT, (o->nid % F2FS_NAT_ENTRY_PER_BLOCK) *
				 (uint32_t)sizeof(struct f2fs_nat_entry));
	snprintf(l->what, sizeof(l->what), "nid %u in NAT copy %d", o->nid, copy + 1);
	return 0;
}

static int segment_of(struct f2fs_fs *fs, uint64_t blk, uint32_t *segno, struct f2fs_error *err)
{
	if (!f2fs_fs_in_main(fs, blk)) {
		f2fs_fail(err, -F2FS_E_BAD_OPTION, "block 0x%llx is not in the main area",
			  (unsigned long long)blk);
		return EXIT_USAGE;
	}
	*segno = (uint32_t)((blk - le32_get(f2fs_fs_sb(fs)->main_blkaddr)) / F2FS_BLOCKS_PER_SEG);
	return 0;
}

static int locate_sit(struct f2fs_fs *fs, const struct inj_opts *o, struct inj_loc *l,
		      struct f2fs_error *err)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(fs);
	const struct f2fs_journal *j = f2fs_fs_sit_journal(fs);
	uint32_t segno, k;
	int ret = segment_of(fs, o->blk, &segno, err);

	if (ret)
		return ret;
	k = segno / F2FS_SIT_ENTRY_PER_BLOCK;
	/* valid_map without --idx: the byte holding B's bit */
	l->default_idx = (int64_t)((o->blk - le32_get(sb->main_blkaddr)) % F2FS_BLOCKS_PER_SEG / 8);
	for (uint32_t i = 0; o->copy == 0 && i < le16_get(j->n_entries); i++) {
		if (le32_get(j->sit_j.entries[i].segno) != segno)
			continue;
		journal_at(fs, true, &l->blk, &l->off);
		add_kind(l, F2FS_FK_SIT_JOURNAL_ENTRY,
			 l->off + 2 + i * (uint32_t)sizeof(struct f2fs_sit_journal_entry));
		snprintf(l->what, sizeof(l->what), "segment %u in the SIT journal (entry %u)", segno, i);
		return 0;
	}
	if (o->copy)
		l->blk = f2fs_sit_copy_addr(le32_get(sb->sit_blkaddr), le32_get(sb->segment_count_sit),
					    k, o->copy - 1);
	else
		l->blk = f2fs_sit_entry_blkaddr(fs, segno);
	add_kind(l, F2FS_FK_SIT, (segno % F2FS_SIT_ENTRY_PER_BLOCK) *
				 (uint32_t)sizeof(struct f2fs_sit_entry));
	snprintf(l->what, sizeof(l->what), "segment %u in SIT block 0x%llx", segno,
		 (unsigned long long)l->blk);
	return 0;
}

/* The SSA block of the block's segment: its entry (--idx, else the
 * block's) and its footer. */
static int locate_ssa(struct f2fs_fs *fs, const struct inj_opts *o, struct inj_loc *l,
		      struct f2fs_error *err)
{
	uint32_t segno;
	int ret = segment_of(fs, o->blk, &segno, err);

	if (ret)
		return ret;
	l->slot = o->has_idx ? o->idx :
		  (uint32_t)((o->blk - le32_get(f2fs_fs_sb(fs)->main_blkaddr)) % F2FS_BLOCKS_PER_SEG);
	if (l->slot >= F2FS_ENTRIES_IN_SUM) {
		f2fs_fail(err, -F2FS_E_BAD_OPTION, "--idx %u: a summary block has %u entries", l->slot,
			  F2FS_ENTRIES_IN_SUM);
		return EXIT_USAGE;
	}
	l->blk = le32_get(f2fs_fs_sb(fs)->ssa_blkaddr) + (uint64_t)segno;
	add_kind(l, F2FS_FK_SSA, l->slot * (uint32_t)sizeof(struct f2fs_summary));
	add_kind(l, F2FS_FK_SSA_FOOTER, f2fs_fkind(F2FS_FK_SSA_FOOTER)->base);
	snprintf(l->what, sizeof(l->what), "summary of segment %u, entry %u%s", segno, l->slot,
		 f2fs_cp_log_of(f2fs_fs_cp(fs), segno) >= 0 ?
		 " (a current segment: the checkpoint holds its live summary)" : "");
	return 0;
}

/* A nid's node block through the NAT. */
static int node_block(struct f2fs_fs *fs, uint32_t nid, struct f2fs_nat_info *ni,
		      struct f2fs_error *err)
{
	if (nid >= f2fs_fs_max_nid(fs))
		return no_target(err, "nid %llu is past the NAT", nid);
	if (f2fs_nat_lookup(fs, nid, ni, NULL, err))
		return EXIT_IO;
	if (!f2fs_fs_in_main(fs, ni->blkaddr))
		return no_target(err, "nid %llu is not in use (no node block in the main area)", nid);
	return 0;
}

static int locate_node(struct f2fs_fs *fs, const struct inj_opts *o, struct inj_loc *l,
		       struct f2fs_error *err)
{
	struct f2fs_nat_info ni;
	struct f2fs_node nd;
	uint32_t ofs;
	int ret = node_block(fs, o->nid, &ni, err);

	if (!ret)
		ret = read_block(fs, ni.blkaddr, &nd, err);
	if (ret)
		return ret;
	l->blk = ni.blkaddr;
	add_kind(l, F2FS_FK_NODE_FOOTER, f2fs_fkind(F2FS_FK_NODE_FOOTER)->base);
	ofs = le32_get(nd.footer.flag) >> F2FS_NODE_OFS_SHIFT;
	/* an inode by the NAT, as f2fs-tools' inject.f2fs decides */
	if (ni.ino == o->nid) {
		add_kind(l, F2FS_FK_INODE, 0);
		l->seal = SEAL_INODE;
	} else if (ofs == F2FS_XATTR_NODE_OFFSET) {
		add_kind(l, F2FS_FK_XATTR_HEADER, 0);
	} else {
		add_kind(l, F2FS_FK_DNODE, 0);
	}
	snprintf(l->what, sizeof(l->what), "nid %u at block 0x%x", o->nid, ni.blkaddr);
	return 0;
}

/* ---- a directory entry ------------------------------------------------------- */

struct find_entry {
	uint32_t ino;
	int dots;                /* 0: any name but the dots; 1 "."; 2 ".." */
	bool found;
	uint64_t block;
	uint32_t slot;
};

static int find_cb(const struct f2fs_dirent *de, void *arg)
{
	struct find_entry *f = arg;
	int dots = de->name[0] == '.' && de->name_len <= 2 &&
		   (de->name_len == 1 || de->name[1] == '.') ? (int)de->name_len : 0;

	if (de->ino != f->ino || dots != f->dots)
		return 0;
	f->found = true;
	f->block = de->block;
	f->slot = de->slot;
	return 1;
}

/* The entry naming --nid in its parent (i_pino), or with --dots the
 * directory's own "." or "..". */
static int locate_dent(struct f2fs_fs *fs, const struct inj_opts *o, struct inj_loc *l,
		       struct f2fs_error *err)
{
	struct f2fs_node nd, dir;
	struct f2fs_nat_info ni;
	struct find_entry f = { .dots = o->dots };
	uint32_t d;
	int ret;

	if (f2fs_read_inode(fs, o->nid, &nd, err))
		return no_target(err, "inode %llu cannot be read", o->nid);
	if (o->dots && (le16_get(nd.i.i_mode) & F2FS_S_IFMT) != F2FS_S_IFDIR)
		return no_target(err, "inode %llu is not a directory (--dots)", o->nid);
	d = o->dots ? o->nid : le32_get(nd.i.i_pino);
	if (!o->dots && o->nid == le32_get(f2fs_fs_sb(fs)->root_ino))
		return no_target(err, "no entry names the root (inode %llu): --dots 1 or 2 names its own",
				 o->nid);
	f.ino = o->dots == 2 ? le32_get(nd.i.i_pino) : o->nid;
	if (f2fs_read_inode(fs, d, &dir, err))
		return no_target(err, "directory %llu cannot be read", d);
	if (f2fs_dir_foreach(fs, d, find_cb, &f, err) < 0 && !f.found)
		return no_target(err, "directory %llu cannot be read whole", d);
	if (!f.found)
		return no_target(err, "no entry names inode %llu", f.ino);
	l->dir = d;
	l->slot = f.slot;
	if (f.block == F2FS_DIRENT_INLINE) {
		struct f2fs_inline_dentry_geo g;
		uint32_t base = f2fs_inode_inline_offset(&dir.i);

		if ((ret = node_block(fs, d, &ni, err)))
			return ret;
		f2fs_inline_dentry_geometry(f2fs_inode_inline_bytes(&dir.i, f2fs_fs_features(fs)), &g);
		l->blk = ni.blkaddr;
		l->bitmap_off = base + g.bitmap_off;
		l->names_off = base + g.name_off;
		add_kind(l, F2FS_FK_DENTRY, base + g.dentry_off + f.slot * (uint32_t)sizeof(struct f2fs_dir_entry));
		l->seal = SEAL_INODE;
	} else {
		uint32_t addr = 0;

		if (f2fs_file_block(fs, &dir, f.block, &addr, NULL, err) || !f2fs_fs_in_main(fs, addr))
			return no_target(err, "dentry block %llu cannot be found", f.block);
		l->blk = addr;
		l->bitmap_off = (uint32_t)offsetof(struct f2fs_dentry_block, dentry_bitmap);
		l->names_off = (uint32_t)offsetof(struct f2fs_dentry_block, filename);
		add_kind(l, F2FS_FK_DENTRY, (uint32_t)offsetof(struct f2fs_dentry_block, dentry) +
					  f.slot * (uint32_t)sizeof(struct f2fs_dir_entry));
	}
	snprintf(l->what, sizeof(l->what), "entry of inode %u in directory %u (block 0x%llx, slot %u)",
		 f.ino, d, (unsigned long long)l->blk, f.slot);
	return 0;
}

/* ---- what f2fs-tools' inject.f2fs does not reach ------------------------------ */

/* Orphan block --blk K (default 0) of pack N. */
static int locate_orphan(struct f2fs_fs *fs, const struct inj_opts *o, struct inj_loc *l,
			 struct f2fs_error *err)
{
	uint8_t buf[F2FS_BLKSIZE];
	const struct f2fs_checkpoint *cp = (const void *)buf;
	uint64_t start = pack_start(fs, o->copy);
	uint32_t first = 1 + le32_get(f2fs_fs_sb(fs)->cp_payload), k = o->has_blk ? (uint32_t)o->blk : 0;
	int ret = read_block(fs, start, buf, err);

	if (ret)
		return ret;
	if (!(le32_get(cp->ckpt_flags) & F2FS_CP_ORPHAN_PRESENT) ||
	    first + k >= le32_get(cp->cp_pack_start_sum))
		return no_target(err, "checkpoint pack has no orphan block %llu", k);
	l->blk = start + first + k;
	add_kind(l, F2FS_FK_ORPHAN, 0);
	snprintf(l->what, sizeof(l->what), "orphan block %u of cp %s", k, pack_name(fs, o->copy));
	return 0;
}

/* The nat_bits area at the end of pack N's segment: its header, or a bit
 * of its full (--mb full) or empty (--mb empty) bitmap, --idx the NAT
 * block. */
static int locate_nat_bits(struct f2fs_fs *fs, const struct inj_opts *o, struct inj_loc *l,
			   struct f2fs_error *err)
{
	uint32_t nblocks = f2fs_fs_nat_blocks(fs), area = f2fs_nat_bits_blocks(nblocks);
	uint64_t start = pack_start(fs, o->copy) + F2FS_BLOCKS_PER_SEG - area;

	snprintf(l->what, sizeof(l->what), "nat_bits of cp %s", pack_name(fs, o->copy));
	if (o->mb && (!strcmp(o->mb, "full") || !strcmp(o->mb, "empty"))) {
		uint64_t byte;

		if (!o->has_idx || o->idx >= nblocks) {
			f2fs_fail(err, -F2FS_E_BAD_OPTION, "--idx: a NAT block below %u is needed",
				  nblocks);
			return EXIT_USAGE;
		}
		byte = F2FS_NAT_BITS_HEADER_SIZE + (o->mb[0] == 'e' ? f2fs_nat_bits_bytes(nblocks) : 0) +
		       o->idx / 8;
		l->blk = start + byte / F2FS_BLKSIZE;
		l->bitmap_off = (uint32_t)(byte % F2FS_BLKSIZE);
		l->bit = (int)(o->idx % 8);   /* LSB first */
		return 0;
	}
	l->blk = start;
	add_kind(l, F2FS_FK_NAT_BITS, 0);
	return 0;
}

/* The inline xattr area of inode --nid, else its xattr node: the header,
 * and entry --idx (default 0). */
static int locate_xattr(struct f2fs_fs *fs, const struct inj_opts *o, struct inj_loc *l,
			struct f2fs_error *err)
{
	struct f2fs_node nd;
	struct f2fs_nat_info ni;
	uint32_t words, area, end, at, want = o->has_idx ? o->idx : 0;
	const uint8_t *b = (const uint8_t *)&nd;
	int ret = node_block(fs, o->nid, &ni, err);

	if (!ret)
		ret = read_block(fs, ni.blkaddr, &nd, err);
	if (ret)
		return ret;
	if (ni.ino != o->nid)
		return no_target(err, "nid %llu is not an inode", o->nid);
	words = f2fs_inode_inline_xattr_words(&nd.i, f2fs_fs_features(fs));
	if ((nd.i.i_inline & F2FS_INLINE_XATTR) && words) {
		area = (uint32_t)offsetof(struct f2fs_inode, i_addr) +
		       4 * (F2FS_DEF_ADDRS_PER_INODE - words);
		end = area + 4 * words;
		l->blk = ni.blkaddr;
		l->seal = SEAL_INODE;
		snprintf(l->what, sizeof(l->what), "inline xattrs of inode %u", o->nid);
	} else if (le32_get(nd.i.i_xattr_nid)) {
		uint32_t x = le32_get(nd.i.i_xattr_nid);

		if ((ret = node_block(fs, x, &ni, err)) || (ret = read_block(fs, ni.blkaddr, &nd, err)))
			return ret;
		area = 0;
		end = F2FS_BLKSIZE - (uint32_t)sizeof(struct f2fs_node_footer);
		l->blk = ni.blkaddr;
		snprintf(l->what, sizeof(l->what), "xattr node %u of inode %u", x, o->nid);
	} else {
		return no_target(err, "inode %llu has no xattrs", o->nid);
	}
	add_kind(l, F2FS_FK_XATTR_HEADER, area);
	/* entries follow the header, each padded to 4 bytes; a zero word ends them */
	at = area + (uint32_t)sizeof(struct f2fs_xattr_header);
	for (uint32_t k = 0; k < want && at + 4 <= end && le32_load(b + at); k++)
		at += (4u + b[at + 1] + (b[at + 2] | (uint32_t)b[at + 3] << 8) + 3u) & ~3u;
	if (at + 4 <= end && le32_load(b + at))
		add_kind(l, F2FS_FK_XATTR_ENTRY, at);
	return 0;
}

/* 1 KiB block qb of a quota file: the 4 KiB block holding it (its address
 * in *addr) read into buf, and its byte there. */
static int quota_block(struct f2fs_fs *fs, const struct f2fs_node *qi, uint32_t qb,
		       uint8_t *buf, uint32_t *addr, uint32_t *at, struct f2fs_error *err)
{
	uint64_t byte = (uint64_t)qb * F2FS_QUOTA_BLKSIZE;

	if (byte >= le64_get(qi->i.i_size) ||
	    f2fs_file_block(fs, qi, byte / F2FS_BLKSIZE, addr, NULL, err) ||
	    !f2fs_fs_in_main(fs, *addr))
		return no_target(err, "quota block %llu cannot be read", qb);
	*at = (uint32_t)(byte % F2FS_BLKSIZE);
	return read_block(fs, *addr, buf, err);
}

/* The record of --id in quota file --quota N (0 user, 1 group, 2 project),
 * found through the file's four-level tree over the id as the kernel
 * finds it. */
static int locate_quota(struct f2fs_fs *fs, const struct inj_opts *o, struct inj_loc *l,
			struct f2fs_error *err)
{
	static const char *const type[] = { "user", "group", "project" };
	uint32_t qino = le32_get(f2fs_fs_sb(fs)->qf_ino[o->copy]), qb = F2FS_QUOTA_TREE_ROOT;
	uint32_t addr = 0, at = 0;
	uint8_t buf[F2FS_BLKSIZE];
	struct f2fs_node qi;
	int ret;

	if (!qino || f2fs_read_inode(fs, qino, &qi, err)) {
		f2fs_fail(err, -F2FS_E_CORRUPT, "the image has no %s quota file", type[o->copy]);
		return EXIT_NOTARGET;
	}
	for (int depth = 0; depth < F2FS_QUOTA_TREE_DEPTH; depth++) {
		if ((ret = quota_block(fs, &qi, qb, buf, &addr, &at, err)))
			return ret;
		qb = le32_load(buf + at + 4 * ((o->id >> (8 * (F2FS_QUOTA_TREE_DEPTH - 1 - depth))) & 255));
		if (!qb)
			return no_target(err, "the quota file has no record of id %llu", o->id);
	}
	if ((ret = quota_block(fs, &qi, qb, buf, &addr, &at, err)))
		return ret;
	for (uint32_t k = 0; k < F2FS_QUOTA_RECS_PER_BLK; k++) {
		uint32_t rec = at + (uint32_t)sizeof(struct f2fs_quota_data_header) +
			       k * (uint32_t)sizeof(struct f2fs_quota_record);
		bool zero = true;

		for (uint32_t b = 0; b < sizeof(struct f2fs_quota_record); b++)
			zero &= buf[rec + b] == 0;
		if (zero || le32_load(buf + rec) != o->id)
			continue;
		l->blk = addr;
		add_kind(l, F2FS_FK_QUOTA_RECORD, rec);
		snprintf(l->what, sizeof(l->what), "%s quota record of id %u (quota block %u, slot %u)",
			 type[o->copy], o->id, qb, k);
		return 0;
	}
	return no_target(err, "the quota file has no record of id %llu", o->id);
}

int inj_locate(struct f2fs_fs *fs, const struct inj_opts *o, struct inj_loc *l,
	       struct f2fs_error *err)
{
	memset(l, 0, sizeof(*l));
	l->bit = -1;
	l->default_idx = -1;
	switch (o->target) {
	case T_SB: return locate_sb(o, l);
	case T_CP: return locate_cp(fs, o, l, err);
	case T_NAT: return locate_nat(fs, o, l, err);
	case T_SIT: return locate_sit(fs, o, l, err);
	case T_SSA: return locate_ssa(fs, o, l, err);
	case T_NODE: return locate_node(fs, o, l, err);
	case T_DENT: return locate_dent(fs, o, l, err);
	case T_ORPHAN: return locate_orphan(fs, o, l, err);
	case T_NAT_BITS: return locate_nat_bits(fs, o, l, err);
	case T_XATTR: return locate_xattr(fs, o, l, err);
	case T_QUOTA: return locate_quota(fs, o, l, err);
	case T_GARBAGE:
		if (o->blk >= le64_get(f2fs_fs_sb(fs)->block_count))
			return no_target(err, "block %llu is past the volume", o->blk);
		l->blk = o->blk;
		snprintf(l->what, sizeof(l->what), "block 0x%llx", (unsigned long long)o->blk);
		return 0;
	case T_NONE: break;
	}
	f2fs_fail(err, -F2FS_E_BAD_OPTION, "no target");
	return EXIT_USAGE;
}
