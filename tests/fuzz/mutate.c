/*
 * f2fs-mutate: structure-aware mutation of an F2FS image, for the fuzz
 * campaign (campaign.sh).
 *
 *   f2fs-mutate IMAGE SEED      mutate IMAGE in place; print one line
 *   f2fs-mutate --files IMAGE   list each regular file: path, then the
 *                               blocks it depends on
 *
 * A mutation, chosen from the seed alone (the same image and seed give the
 * same mutant), is one of:
 *   field   one field of a live structure, taken from the field table
 *           (<f2fs/format/fields.h>), set to an interesting value: 0, all
 *           ones, +1, -1, a neighbour's value (the next array element or
 *           instance, or the same field of another node), random, or one
 *           bit flipped; byte strings are zeroed, filled, randomised or
 *           have one byte flipped
 *   multi   two to four such fields
 *   garbage one live block overwritten: random bytes, zeros, ones, or a
 *           random range of it randomised
 * Live structures: both superblocks; the first and last block of the
 * checkpoint pack in use (a field set in one of them or in both), its
 * orphan blocks and data summaries' NAT and SIT journals; the live NAT
 * entries (journal entries where the journal holds them) and their NAT
 * blocks; the SIT entries of segments in use; the SSA entries of full
 * segments that are not current; node blocks of live nids (inode fields,
 * i_ext, extra attributes, direct and indirect pointers, footers), inline
 * xattr areas and xattr nodes; dentry blocks of directories; nat_bits.
 * After a field changes, the checksum of its structure is recomputed
 * (superblock with sb_checksum, checkpoint, inode with inode_checksum)
 * unless the field is the checksum itself or the seed chose to leave it
 * stale (one in eight): the line says "sealed" or "stale".
 *
 * The line: "seed=N <what>; <what>... | blocks B1,B2,..." (the blocks
 * written). --files prints "path<TAB>ino<TAB>B1,B2,...": the inode block,
 * the node blocks, the data blocks, and the block holding each of its
 * nids' live NAT entries (a NAT block, or the checkpoint's summary block
 * with the NAT journal). Exit 0, or 2 with a message when the image does
 * not open (nothing written).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <f2fs/util/error.h>
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/crc.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/fields.h>
#include <f2fs/format/format.h>
#include <f2fs/format/inode.h>
#include <f2fs/format/ver_bitmap.h>
#include <f2fs/fs/dir.h>
#include <f2fs/fs/fs.h>
#include <f2fs/fs/nat.h>
#include <f2fs/fs/nat_bits_read.h>
#include <f2fs/fs/sit.h>

#define BLK F2FS_BLKSIZE

/* ---- the random source: splitmix64 ------------------------------------ */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint32_t rnd(uint64_t *s, uint32_t n)
{
	return n ? (uint32_t)(rng_next(s) % n) : 0;
}

/* ---- what the image holds ---------------------------------------------- */
struct live_nat {
	uint32_t nid, ino, blkaddr;
	uint64_t at;        /* block holding the live entry */
	uint32_t off;       /* byte of the entry there */
	int journal;
};

struct ctx {
	struct f2fs_fs *fs;
	int fd;
	uint64_t rng;
	uint32_t features, seed_crc;
	uint64_t cp_start;
	uint32_t cp_total, cp_payload, start_sum, ckpt_flags;
	struct live_nat *nats;
	size_t nnats;
	struct f2fs_sit *sit;
	uint64_t touched[64];
	unsigned ntouched;
	char line[4096];
	size_t len;
};

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("f2fs-mutate: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static void say(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->len >= sizeof(c->line) - 1)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(c->line + c->len, sizeof(c->line) - c->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		c->len += (size_t)n;
	if (c->len >= sizeof(c->line))
		c->len = sizeof(c->line) - 1;
}

static void rd(struct ctx *c, uint64_t blk, void *buf)
{
	if (pread(c->fd, buf, BLK, (off_t)(blk * BLK)) != (ssize_t)BLK)
		die("read of block %" PRIu64 ": %s", blk, strerror(errno));
}

static void wr(struct ctx *c, uint64_t blk, const void *buf)
{
	if (pwrite(c->fd, buf, BLK, (off_t)(blk * BLK)) != (ssize_t)BLK)
		die("write of block %" PRIu64 ": %s", blk, strerror(errno));
	for (unsigned i = 0; i < c->ntouched; i++)
		if (c->touched[i] == blk)
			return;
	if (c->ntouched < 64)
		c->touched[c->ntouched++] = blk;
}

/* The block of the pack holding the NAT journal, and the journal's byte. */
static void nat_journal_at(const struct ctx *c, uint64_t *blk, uint32_t *off)
{
	*blk = c->cp_start + c->start_sum;
	*off = (c->ckpt_flags & F2FS_CP_COMPACT_SUM) ? 0 : F2FS_SUM_ENTRY_SIZE;
}

static void sit_journal_at(const struct ctx *c, uint64_t *blk, uint32_t *off)
{
	if (c->ckpt_flags & F2FS_CP_COMPACT_SUM) {
		*blk = c->cp_start + c->start_sum;
		*off = F2FS_SUM_JOURNAL_SIZE;
	} else {
		*blk = c->cp_start + c->start_sum + 2;
		*off = F2FS_SUM_ENTRY_SIZE;
	}
}

/* Every live NAT entry: the journal's, then the NAT blocks' (live copy). */
static void load_nats(struct ctx *c)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(c->fs);
	const struct f2fs_journal *j = f2fs_fs_nat_journal(c->fs);
	uint32_t nblocks = f2fs_fs_nat_blocks(c->fs), bytes;
	const uint8_t *map = f2fs_fs_nat_bitmap(c->fs, &bytes);
	uint32_t n_j = le16_get(j->n_entries);
	uint64_t jblk;
	uint32_t joff;
	size_t cap = 1024;
	uint8_t buf[BLK];

	nat_journal_at(c, &jblk, &joff);
	c->nats = malloc(cap * sizeof(*c->nats));
	if (!c->nats)
		die("out of memory");
	for (uint32_t i = 0; i < n_j; i++) {
		const struct f2fs_nat_journal_entry *e = &j->nat_j.entries[i];
		if (c->nnats == cap && !(c->nats = realloc(c->nats, (cap *= 2) * sizeof(*c->nats))))
			die("out of memory");
		c->nats[c->nnats++] = (struct live_nat){
			le32_get(e->nid), le32_get(e->ne.ino), le32_get(e->ne.block_addr),
			jblk, joff + 2 + i * (uint32_t)sizeof(*e), 1 };
	}
	size_t njournal = c->nnats;
	for (uint32_t b = 0; b < nblocks; b++) {
		uint64_t at = f2fs_nat_copy_addr(le32_get(sb->nat_blkaddr), b,
						 b / 8 < bytes && f2fs_ver_bit(map, b));
		rd(c, at, buf);
		for (uint32_t k = 0; k < F2FS_NAT_ENTRY_PER_BLOCK; k++) {
			const struct f2fs_nat_entry *e = (const void *)(buf + k * sizeof(*e));
			uint32_t nid = b * F2FS_NAT_ENTRY_PER_BLOCK + k, addr = le32_get(e->block_addr);
			int in_j = 0;

			if (!addr)
				continue;
			for (size_t q = 0; q < njournal; q++)
				if (c->nats[q].nid == nid)
					in_j = 1;
			if (in_j)
				continue;
			if (c->nnats == cap && !(c->nats = realloc(c->nats, (cap *= 2) * sizeof(*c->nats))))
				die("out of memory");
			c->nats[c->nnats++] = (struct live_nat){ nid, le32_get(e->ino), addr,
				at, k * (uint32_t)sizeof(*e), 0 };
		}
	}
}

static const struct live_nat *find_nat(const struct ctx *c, uint32_t nid)
{
	for (size_t i = 0; i < c->nnats; i++)
		if (c->nats[i].nid == nid)
			return &c->nats[i];
	return NULL;
}

/* A random live nid whose block is a node in the main area, or NULL. */
static const struct live_nat *pick_node(struct ctx *c)
{
	for (int t = 0; t < 64 && c->nnats; t++) {
		const struct live_nat *n = &c->nats[rnd(&c->rng, (uint32_t)c->nnats)];
		if (n->nid >= 3 && f2fs_fs_in_main(c->fs, n->blkaddr))
			return n;
	}
	return NULL;
}

/* ---- values --------------------------------------------------------------- */
/* A new value for element idx of a numeric field at inst; nb is a
 * neighbour's value when have_nb. */
static uint64_t new_value(struct ctx *c, const struct f2fs_field *f, uint64_t old,
			  int have_nb, uint64_t nb, const char **how)
{
	uint64_t m = f2fs_field_mask(f), v = old;

	for (int t = 0; t < 8 && v == old; t++) {
		switch (rnd(&c->rng, 7)) {
		case 0: v = 0; *how = "zero"; break;
		case 1: v = m; *how = "ones"; break;
		case 2: v = (old + 1) & m; *how = "plus1"; break;
		case 3: v = (old - 1) & m; *how = "minus1"; break;
		case 4:
			if (!have_nb)
				continue;
			v = nb; *how = "neighbour";
			break;
		case 5: v = rng_next(&c->rng) & m; *how = "random"; break;
		default: v = old ^ (1ull << rnd(&c->rng, f->size * 8u)); *how = "bitflip"; break;
		}
	}
	if (v == old) {
		v = old ^ 1;
		*how = "bitflip";
	}
	return v;
}

/*
 * Mutate field f (element idx, chosen here when idx < 0) of the instance
 * at byte inst of buf; nbinst (or -1) is a neighbouring instance of the
 * same kind in buf, other a buffer holding another instance (or NULL).
 */
static void mutate_field(struct ctx *c, uint8_t *buf, size_t inst, const struct f2fs_field *f,
			 long idx, long nbinst, const uint8_t *other)
{
	uint8_t *p = buf + inst;

	if (idx < 0)
		idx = (long)rnd(&c->rng, f->count);
	if (f->count > 1)
		say(c, "%s[%ld] ", f->name, idx);
	else
		say(c, "%s ", f->name);
	if ((f->flags & F2FS_FF_BYTES) || !f2fs_field_mask(f)) {
		uint8_t *q = p + f2fs_field_pos(f, (unsigned)idx);
		switch (rnd(&c->rng, 4)) {
		case 0: memset(q, 0, f->size); say(c, "(zero)"); break;
		case 1: memset(q, 0xff, f->size); say(c, "(ones)"); break;
		case 2:
			for (unsigned i = 0; i < f->size; i++)
				q[i] = (uint8_t)rng_next(&c->rng);
			say(c, "(random)");
			break;
		default: {
			unsigned at = rnd(&c->rng, f->size);
			q[at] ^= (uint8_t)(1 + rnd(&c->rng, 255));
			say(c, "(byte %u flipped)", at);
		}
		}
		return;
	}
	uint64_t old = f2fs_field_get(p, f, (unsigned)idx), nb = 0;
	int have_nb = 0;
	const char *how = "";

	if (f->count > 1) {
		long k = idx + 1 < f->count ? idx + 1 : idx - 1;
		if (k >= 0) {
			nb = f2fs_field_get(p, f, (unsigned)k);
			have_nb = 1;
		}
	} else if (nbinst >= 0) {
		nb = f2fs_field_get(buf + nbinst, f, 0);
		have_nb = 1;
	} else if (other) {
		nb = f2fs_field_get(other + inst, f, 0);
		have_nb = 1;
	}
	uint64_t v = new_value(c, f, old, have_nb, nb, &how);
	f2fs_field_set(p, f, (unsigned)idx, v);
	say(c, "0x%" PRIx64 "->0x%" PRIx64 " (%s)", old, v, how);
}

/* A random field of kind k, skipping extra attributes when the inode has
 * none and the overlaid i_addr when it has them. */
static const struct f2fs_field *pick_field(struct ctx *c, unsigned k, int extra)
{
	size_t n;
	const struct f2fs_field *f = f2fs_fields_of(k, &n);

	for (int t = 0; t < 32; t++) {
		const struct f2fs_field *x = &f[rnd(&c->rng, (uint32_t)n)];
		if ((x->flags & F2FS_FF_EXTRA) && !extra)
			continue;
		return x;
	}
	return &f[0];
}

/* Decide whether to recompute a checksum after changing f. */
static int want_seal(struct ctx *c, const struct f2fs_field *f)
{
	if (f && (f->flags & F2FS_FF_CRC))
		return 0;
	return rnd(&c->rng, 8) != 0;
}

/* ---- the mutations, one per structure ------------------------------------ */
static int m_sb(struct ctx *c)
{
	uint8_t buf[BLK];
	unsigned copy = rnd(&c->rng, 2);
	const struct f2fs_field *f = pick_field(c, F2FS_FK_SB, 0);
	uint8_t other[BLK];

	rd(c, copy, buf);
	rd(c, !copy, other);
	say(c, "sb copy %u blk %u ", copy, copy);
	mutate_field(c, buf, F2FS_SUPER_OFFSET, f, -1, -1, other);
	if (want_seal(c, f)) {
		struct f2fs_super_block *sb = (void *)(buf + F2FS_SUPER_OFFSET);
		if (c->features & F2FS_FEATURE_SB_CHKSUM)
			sb->crc = le32_put(f2fs_sb_crc(sb));
		say(c, " sealed");
	} else {
		say(c, " stale");
	}
	wr(c, copy, buf);
	return 0;
}

static int m_cp(struct ctx *c)
{
	uint8_t a[BLK], b[BLK];
	uint64_t first = c->cp_start, last = c->cp_start + c->cp_total - 1;
	unsigned which = rnd(&c->rng, 3);   /* 0 first, 1 last, 2 both */
	const struct f2fs_field *f = pick_field(c, F2FS_FK_CP, 0);
	long idx = (long)rnd(&c->rng, f->count);
	uint64_t save = c->rng;

	rd(c, first, a);
	rd(c, last, b);
	say(c, "cp %s blk %" PRIu64 " ", which == 0 ? "first" : which == 1 ? "last" : "both",
	    which == 1 ? last : first);
	mutate_field(c, which == 1 ? b : a, 0, f, idx, -1, NULL);
	if (which == 2) {
		/* the same value in the last block: replay the choice */
		size_t keep = c->len;
		c->rng = save;
		mutate_field(c, b, 0, f, idx, -1, NULL);
		c->len = keep;
		c->line[keep] = 0;
	}
	if (want_seal(c, f)) {
		f2fs_cp_seal(a);
		f2fs_cp_seal(b);
		say(c, " sealed");
	} else {
		say(c, " stale");
	}
	if (which != 1)
		wr(c, first, a);
	if (which != 0)
		wr(c, last, b);
	return 0;
}

static int m_orphan(struct ctx *c)
{
	uint8_t buf[BLK];
	uint32_t first = 1 + c->cp_payload;

	if (!(c->ckpt_flags & F2FS_CP_ORPHAN_PRESENT) || c->start_sum <= first)
		return -1;
	uint64_t blk = c->cp_start + first + rnd(&c->rng, c->start_sum - first);
	rd(c, blk, buf);
	say(c, "orphan blk %" PRIu64 " ", blk);
	mutate_field(c, buf, 0, pick_field(c, F2FS_FK_ORPHAN, 0), -1, -1, NULL);
	wr(c, blk, buf);
	return 0;
}

static int m_nat(struct ctx *c)
{
	uint8_t buf[BLK];

	if (!c->nnats)
		return -1;
	const struct live_nat *n = &c->nats[rnd(&c->rng, (uint32_t)c->nnats)];
	unsigned k = n->journal ? F2FS_FK_NAT_JOURNAL_ENTRY : F2FS_FK_NAT;
	const struct f2fs_fkind *kd = f2fs_fkind(k);
	const struct f2fs_field *f = pick_field(c, k, 0);
	long nb = -1;

	rd(c, n->at, buf);
	if (!n->journal)
		nb = n->off + kd->stride < BLK - kd->size ? (long)(n->off + kd->stride) :
			(long)n->off - kd->stride;
	say(c, "%s nid %u blk %" PRIu64 " ", n->journal ? "nat_journal" : "nat", n->nid, n->at);
	mutate_field(c, buf, n->off, f, -1, nb, NULL);
	wr(c, n->at, buf);
	return 0;
}

static int m_nat_journal_count(struct ctx *c, int sit)
{
	uint8_t buf[BLK];
	uint64_t blk;
	uint32_t off;

	if (sit)
		sit_journal_at(c, &blk, &off);
	else
		nat_journal_at(c, &blk, &off);
	rd(c, blk, buf);
	say(c, "%s blk %" PRIu64 " ", sit ? "sit_journal" : "nat_journal", blk);
	mutate_field(c, buf, off, pick_field(c, sit ? F2FS_FK_SIT_JOURNAL : F2FS_FK_NAT_JOURNAL, 0),
		     -1, -1, NULL);
	wr(c, blk, buf);
	return 0;
}

/* A segment in use (valid blocks), or -1. */
static long pick_used_seg(struct ctx *c, int not_current)
{
	for (int t = 0; t < 256; t++) {
		uint32_t s = rnd(&c->rng, c->sit->nsegs);
		if (!c->sit->seg[s].valid)
			continue;
		if (not_current && (c->sit->seg[s].flags & F2FS_SEG_CURRENT))
			continue;
		return s;
	}
	return -1;
}

static int m_sit(struct ctx *c)
{
	uint8_t buf[BLK];
	long s = pick_used_seg(c, 0);

	if (s < 0)
		return -1;
	if (c->sit->seg[s].src == F2FS_SIT_SRC_JOURNAL) {
		const struct f2fs_journal *j = f2fs_fs_sit_journal(c->fs);
		uint64_t blk;
		uint32_t off, n = le16_get(j->n_entries);
		for (uint32_t i = 0; i < n; i++) {
			if (le32_get(j->sit_j.entries[i].segno) != (uint32_t)s)
				continue;
			sit_journal_at(c, &blk, &off);
			rd(c, blk, buf);
			say(c, "sit_journal seg %ld blk %" PRIu64 " ", s, blk);
			mutate_field(c, buf, off + 2 + i * sizeof(struct f2fs_sit_journal_entry),
				     pick_field(c, F2FS_FK_SIT_JOURNAL_ENTRY, 0), -1, -1, NULL);
			wr(c, blk, buf);
			return 0;
		}
		return -1;
	}
	uint64_t blk = f2fs_sit_entry_blkaddr(c->fs, (uint32_t)s);
	uint32_t k = (uint32_t)s % F2FS_SIT_ENTRY_PER_BLOCK;
	long nb = k + 1 < F2FS_SIT_ENTRY_PER_BLOCK ? (long)(k + 1) : (long)k - 1;

	rd(c, blk, buf);
	say(c, "sit seg %ld blk %" PRIu64 " ", s, blk);
	mutate_field(c, buf, k * sizeof(struct f2fs_sit_entry), pick_field(c, F2FS_FK_SIT, 0), -1,
		     nb * (long)sizeof(struct f2fs_sit_entry), NULL);
	wr(c, blk, buf);
	return 0;
}

static int m_ssa(struct ctx *c)
{
	uint8_t buf[BLK];
	long s = pick_used_seg(c, 1);

	if (s < 0)
		return -1;
	uint64_t blk = le32_get(f2fs_fs_sb(c->fs)->ssa_blkaddr) + (uint64_t)s;
	rd(c, blk, buf);
	say(c, "ssa seg %ld blk %" PRIu64 " ", s, blk);
	if (rnd(&c->rng, 6) == 0) {
		mutate_field(c, buf, F2FS_SUM_ENTRY_SIZE + F2FS_SUM_JOURNAL_SIZE,
			     pick_field(c, F2FS_FK_SSA_FOOTER, 0), -1, -1, NULL);
	} else {
		/* the entry of a valid block */
		uint32_t k = rnd(&c->rng, F2FS_ENTRIES_IN_SUM);
		if (c->sit->maps) {
			const uint8_t *m = c->sit->maps + (size_t)s * F2FS_SIT_VBLOCK_MAP_SIZE;
			for (int t = 0; t < 64; t++) {
				uint32_t q = rnd(&c->rng, F2FS_ENTRIES_IN_SUM);
				if (m[q / 8] & (0x80 >> (q % 8))) {
					k = q;
					break;
				}
			}
		}
		say(c, "entry %u ", k);
		long nb = k + 1 < F2FS_ENTRIES_IN_SUM ? (long)k + 1 : (long)k - 1;
		mutate_field(c, buf, k * F2FS_SUMMARY_SIZE, pick_field(c, F2FS_FK_SSA, 0), -1,
			     nb * F2FS_SUMMARY_SIZE, NULL);
	}
	wr(c, blk, buf);
	return 0;
}

static int is_inode_block(const struct f2fs_node *n, uint32_t nid)
{
	return le32_get(n->footer.ino) == nid && le32_get(n->footer.nid) == nid &&
	       (le32_get(n->footer.flag) >> F2FS_NODE_OFS_SHIFT) == 0;
}

static void seal_inode(struct ctx *c, uint8_t *buf, const struct f2fs_field *f)
{
	if (want_seal(c, f)) {
		f2fs_inode_seal((void *)buf, c->features, c->seed_crc);
		say(c, " sealed");
	} else {
		say(c, " stale");
	}
}

static int m_node(struct ctx *c)
{
	uint8_t buf[BLK], other[BLK];
	const struct live_nat *n = pick_node(c), *o = pick_node(c);

	if (!n)
		return -1;
	rd(c, n->blkaddr, buf);
	memset(other, 0, sizeof(other));
	if (o && o != n)
		rd(c, o->blkaddr, other);
	struct f2fs_node *node = (void *)buf;
	int inode = is_inode_block(node, n->nid);
	uint32_t ofs = le32_get(node->footer.flag) >> F2FS_NODE_OFS_SHIFT;
	const struct f2fs_field *f;

	if (rnd(&c->rng, 5) == 0) {
		f = pick_field(c, F2FS_FK_NODE_FOOTER, 0);
		say(c, "node_footer nid %u blk %u ", n->nid, n->blkaddr);
		mutate_field(c, buf, 4072, f, -1, -1, other);
	} else if (inode) {
		int extra = node->i.i_inline & F2FS_EXTRA_ATTR;
		f = pick_field(c, F2FS_FK_INODE, extra);
		long idx = -1;
		if (!strcmp(f->name, "i_addr")) {
			/* a pointer past the extra attributes, mostly among the used ones */
			uint32_t first = extra ? f2fs_inode_extra_words(&node->i) : 0;
			uint32_t nad = f2fs_inode_addrs(&node->i, c->features);
			idx = first + rnd(&c->rng, nad ? (rnd(&c->rng, 2) ? (nad < 8 ? nad : 8) : nad) : 1);
		}
		say(c, "inode nid %u blk %u ", n->nid, n->blkaddr);
		mutate_field(c, buf, 0, f, idx, -1, other);
	} else if (ofs == F2FS_XATTR_NODE_OFFSET) {
		f = pick_field(c, rnd(&c->rng, 2) ? F2FS_FK_XATTR_HEADER : F2FS_FK_XATTR_ENTRY, 0);
		say(c, "xattr_node nid %u blk %u ", n->nid, n->blkaddr);
		mutate_field(c, buf, f->kind == F2FS_FK_XATTR_ENTRY ? sizeof(struct f2fs_xattr_header) : 0,
			     f, -1, -1, NULL);
	} else {
		/* direct or indirect: which the offset says (1, 2 direct; 3, 4
		 * indirect; 5 double; past that by the tree) - either way the
		 * field is "addr" */
		unsigned k = (ofs == 3 || ofs == 4 || ofs == 5) ? F2FS_FK_INDNODE : F2FS_FK_DNODE;
		f = pick_field(c, k, 0);
		/* mostly a used slot */
		long idx = -1;
		for (int t = 0; t < 32; t++) {
			uint32_t q = rnd(&c->rng, f->count);
			if (node->dn.addr[q]) {
				idx = q;
				break;
			}
		}
		say(c, "%s nid %u blk %u ", f2fs_fkind(k)->name, n->nid, n->blkaddr);
		mutate_field(c, buf, 0, f, idx, -1, NULL);
	}
	if (inode)
		seal_inode(c, buf, f);
	wr(c, n->blkaddr, buf);
	return 0;
}

/* An inode with an inline xattr area or an xattr node: mutate its header
 * or first entry. */
static int m_xattr(struct ctx *c)
{
	uint8_t buf[BLK];

	for (int t = 0; t < 64; t++) {
		const struct live_nat *n = pick_node(c);
		if (!n)
			return -1;
		rd(c, n->blkaddr, buf);
		struct f2fs_node *node = (void *)buf;
		if (!is_inode_block(node, n->nid) || !(node->i.i_inline & F2FS_INLINE_XATTR))
			continue;
		uint32_t words = f2fs_inode_inline_xattr_words(&node->i, c->features);
		if (!words)
			continue;
		size_t at = 360 + (size_t)(F2FS_DEF_ADDRS_PER_INODE - words) * 4;
		if (le32_load(buf + at) != F2FS_XATTR_MAGIC)
			continue;
		const struct f2fs_field *f = pick_field(c, rnd(&c->rng, 2) ? F2FS_FK_XATTR_HEADER :
							F2FS_FK_XATTR_ENTRY, 0);
		say(c, "inline_xattr nid %u blk %u ", n->nid, n->blkaddr);
		mutate_field(c, buf, at + (f->kind == F2FS_FK_XATTR_ENTRY ?
					   sizeof(struct f2fs_xattr_header) : 0), f, -1, -1, NULL);
		seal_inode(c, buf, f);
		wr(c, n->blkaddr, buf);
		return 0;
	}
	return -1;
}

/* A data block of a directory (not inline), or 0. */
static uint32_t pick_dentry_block(struct ctx *c, uint32_t *dir)
{
	uint8_t buf[BLK];
	struct f2fs_error err = { 0 };

	for (int t = 0; t < 256; t++) {
		const struct live_nat *n = pick_node(c);
		if (!n)
			return 0;
		if (n->ino != n->nid)
			continue;
		rd(c, n->blkaddr, buf);
		struct f2fs_node *node = (void *)buf;
		if (!is_inode_block(node, n->nid) ||
		    (le16_get(node->i.i_mode) & F2FS_S_IFMT) != F2FS_S_IFDIR ||
		    (node->i.i_inline & F2FS_INLINE_DENTRY))
			continue;
		uint64_t nblk = (le64_get(node->i.i_size) + BLK - 1) / BLK;
		for (int q = 0; q < 16 && nblk; q++) {
			uint32_t addr = 0;
			if (f2fs_file_block(c->fs, node, rnd(&c->rng, (uint32_t)(nblk < UINT32_MAX ? nblk : UINT32_MAX)),
					    &addr, NULL, &err))
				break;
			if (addr && addr != F2FS_NEW_ADDR && f2fs_fs_in_main(c->fs, addr)) {
				*dir = n->nid;
				return addr;
			}
		}
	}
	return 0;
}

static int m_dentry(struct ctx *c)
{
	uint8_t buf[BLK];
	uint32_t dir = 0, blk = pick_dentry_block(c, &dir);

	if (!blk)
		return -1;
	rd(c, blk, buf);
	say(c, "dentry dir %u blk %u ", dir, blk);
	if (rnd(&c->rng, 4) == 0) {
		const struct f2fs_field *f = pick_field(c, F2FS_FK_DENTRY_BLOCK, 0);
		long idx = -1;
		if (!strcmp(f->name, "filename") || !strcmp(f->name, "d_bitmap")) {
			/* a used slot (or its bitmap byte) */
			for (int t = 0; t < 64; t++) {
				uint32_t q = rnd(&c->rng, F2FS_NR_DENTRY_IN_BLOCK);
				if (buf[q / 8] & (1u << (q % 8))) {
					idx = *f->name == 'f' ? (long)q : (long)(q / 8);
					break;
				}
			}
		}
		mutate_field(c, buf, 0, f, idx, -1, NULL);
	} else {
		uint32_t q = rnd(&c->rng, F2FS_NR_DENTRY_IN_BLOCK);
		for (int t = 0; t < 64; t++) {
			uint32_t r = rnd(&c->rng, F2FS_NR_DENTRY_IN_BLOCK);
			if (buf[r / 8] & (1u << (r % 8))) {
				q = r;
				break;
			}
		}
		say(c, "slot %u ", q);
		long nb = q + 1 < F2FS_NR_DENTRY_IN_BLOCK ? (long)q + 1 : (long)q - 1;
		mutate_field(c, buf, 30 + q * 11, pick_field(c, F2FS_FK_DENTRY, 0), -1, 30 + nb * 11, NULL);
	}
	wr(c, blk, buf);
	return 0;
}

static int m_nat_bits(struct ctx *c)
{
	uint8_t buf[BLK];
	uint32_t blocks;
	uint64_t at;

	if (!(c->ckpt_flags & F2FS_CP_NAT_BITS) || !f2fs_fs_nat_bits_where(c->fs, &blocks, &at))
		return -1;
	rd(c, at, buf);
	say(c, "nat_bits blk %" PRIu64 " ", at);
	if (rnd(&c->rng, 2)) {
		mutate_field(c, buf, 0, pick_field(c, F2FS_FK_NAT_BITS, 0), -1, -1, NULL);
	} else {
		uint32_t k = 8 + rnd(&c->rng, BLK - 8);
		buf[k] ^= (uint8_t)(1u << rnd(&c->rng, 8));
		say(c, "bitmap byte %u flipped", k);
	}
	wr(c, at, buf);
	return 0;
}

/* One field mutation of a structure chosen by weight. */
static int one_field(struct ctx *c)
{
	for (int t = 0; t < 32; t++) {
		unsigned w = rnd(&c->rng, 100);
		int r;
		if (w < 6) r = m_sb(c);
		else if (w < 16) r = m_cp(c);
		else if (w < 18) r = m_orphan(c);
		else if (w < 30) r = m_nat(c);
		else if (w < 33) r = m_nat_journal_count(c, rnd(&c->rng, 2));
		else if (w < 43) r = m_sit(c);
		else if (w < 52) r = m_ssa(c);
		else if (w < 80) r = m_node(c);
		else if (w < 86) r = m_xattr(c);
		else if (w < 97) r = m_dentry(c);
		else r = m_nat_bits(c);
		if (!r)
			return 0;
	}
	return -1;
}

/* A whole live block, garbage. */
static int garbage(struct ctx *c)
{
	uint8_t buf[BLK];
	uint64_t blk = 0;
	const char *what = NULL;
	uint32_t dir;

	for (int t = 0; t < 32 && !what; t++) {
		switch (rnd(&c->rng, 10)) {
		case 0: blk = rnd(&c->rng, 2); what = "sb"; break;
		case 1: blk = c->cp_start + (rnd(&c->rng, 2) ? c->cp_total - 1 : 0); what = "cp"; break;
		case 2: blk = c->cp_start + c->start_sum + rnd(&c->rng, c->cp_total - 1 - c->start_sum);
			what = "cp_summary"; break;
		case 3:
			if (c->nnats) {
				const struct live_nat *n = &c->nats[rnd(&c->rng, (uint32_t)c->nnats)];
				if (!n->journal) {
					blk = n->at;
					what = "nat";
				}
			}
			break;
		case 4: {
			long s = pick_used_seg(c, 0);
			if (s >= 0) {
				blk = f2fs_sit_entry_blkaddr(c->fs, (uint32_t)s);
				what = "sit";
			}
			break;
		}
		case 5: {
			long s = pick_used_seg(c, 1);
			if (s >= 0) {
				blk = le32_get(f2fs_fs_sb(c->fs)->ssa_blkaddr) + (uint64_t)s;
				what = "ssa";
			}
			break;
		}
		case 6: case 7: {
			const struct live_nat *n = pick_node(c);
			if (n) {
				blk = n->blkaddr;
				what = "node";
			}
			break;
		}
		case 8:
			if ((blk = pick_dentry_block(c, &dir)))
				what = "dentry";
			break;
		default: {
			/* a data block in use of any segment */
			long s = pick_used_seg(c, 0);
			if (s >= 0 && c->sit->seg[s].type <= F2FS_SEG_COLD_DATA && c->sit->maps) {
				const uint8_t *m = c->sit->maps + (size_t)s * F2FS_SIT_VBLOCK_MAP_SIZE;
				for (int q = 0; q < 64 && !what; q++) {
					uint32_t o = rnd(&c->rng, F2FS_BLOCKS_PER_SEG);
					if (m[o / 8] & (0x80 >> (o % 8))) {
						blk = le32_get(f2fs_fs_sb(c->fs)->main_blkaddr) +
						      (uint64_t)s * F2FS_BLOCKS_PER_SEG + o;
						what = "data";
					}
				}
			}
		}
		}
	}
	if (!what)
		return -1;
	rd(c, blk, buf);
	say(c, "garbage %s blk %" PRIu64 " ", what, blk);
	switch (rnd(&c->rng, 4)) {
	case 0:
		for (unsigned i = 0; i < BLK; i++)
			buf[i] = (uint8_t)rng_next(&c->rng);
		say(c, "(random)");
		break;
	case 1: memset(buf, 0, BLK); say(c, "(zero)"); break;
	case 2: memset(buf, 0xff, BLK); say(c, "(ones)"); break;
	default: {
		uint32_t a = rnd(&c->rng, BLK), b = a + 1 + rnd(&c->rng, BLK - a);
		for (uint32_t i = a; i < b; i++)
			buf[i] = (uint8_t)rng_next(&c->rng);
		say(c, "(random %u..%u)", a, b);
	}
	}
	wr(c, blk, buf);
	return 0;
}

static void open_ctx(struct ctx *c, const char *path, int rw)
{
	struct f2fs_error err = { 0 };

	if (f2fs_fs_open(&c->fs, path, &err))
		die("%s: %s", path, err.msg);
	c->fd = open(path, rw ? O_RDWR : O_RDONLY);
	if (c->fd < 0)
		die("%s: %s", path, strerror(errno));
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(c->fs);
	c->features = f2fs_fs_features(c->fs);
	c->seed_crc = f2fs_fs_inode_crc_seed(c->fs);
	c->cp_start = f2fs_fs_cp_start(c->fs);
	c->cp_total = le32_get(cp->cp_pack_total_block_count);
	c->cp_payload = le32_get(f2fs_fs_sb(c->fs)->cp_payload);
	c->start_sum = le32_get(cp->cp_pack_start_sum);
	c->ckpt_flags = le32_get(cp->ckpt_flags);
	load_nats(c);
}

/* ---- --files ------------------------------------------------------------- */
struct walk {
	struct ctx *c;
	char path[4096];
	uint32_t depth;
};

static void dep_nid(struct ctx *c, uint32_t nid, int *first)
{
	const struct live_nat *n = find_nat(c, nid);

	if (!n)
		return;
	printf("%s%u,%" PRIu64, *first ? "" : ",", n->blkaddr, n->at);
	*first = 0;
}

/* the nids of the node tree under nid at height h (0: direct node) */
static void dep_tree(struct ctx *c, uint32_t nid, int h, int *first)
{
	struct f2fs_node n;
	struct f2fs_error err = { 0 };

	if (!nid)
		return;
	dep_nid(c, nid, first);
	if (h == 0 || f2fs_read_node(c->fs, nid, &n, &err))
		return;
	for (unsigned i = 0; i < F2FS_NIDS_PER_BLOCK; i++)
		dep_tree(c, le32_get(n.in.nid[i]), h - 1, first);
}

static void print_file(struct ctx *c, const char *path, uint32_t ino)
{
	struct f2fs_node n;
	struct f2fs_error err = { 0 };
	int first = 1;

	if (f2fs_read_inode(c->fs, ino, &n, &err))
		return;
	printf("%s\t%u\t", path, ino);
	dep_nid(c, ino, &first);
	if (!(n.i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))) {
		dep_tree(c, le32_get(n.i.i_nid[0]), 0, &first);
		dep_tree(c, le32_get(n.i.i_nid[1]), 0, &first);
		dep_tree(c, le32_get(n.i.i_nid[2]), 1, &first);
		dep_tree(c, le32_get(n.i.i_nid[3]), 1, &first);
		dep_tree(c, le32_get(n.i.i_nid[4]), 2, &first);
		uint64_t nblk = (le64_get(n.i.i_size) + BLK - 1) / BLK;
		for (uint64_t b = 0; b < nblk;) {
			uint32_t addr = 0;
			uint64_t run = 1;
			if (f2fs_file_block(c->fs, &n, b, &addr, &run, &err))
				break;
			if (addr && addr != F2FS_NEW_ADDR && addr != F2FS_COMPRESS_ADDR)
				printf(",%u", addr);
			b += run ? run : 1;
		}
	}
	putchar('\n');
}

static int walk_cb(const struct f2fs_dirent *de, void *arg)
{
	struct walk *w = arg;
	size_t len = strlen(w->path);

	if ((de->name_len == 1 && de->name[0] == '.') ||
	    (de->name_len == 2 && de->name[0] == '.' && de->name[1] == '.'))
		return 0;
	if (len + 1 + de->name_len >= sizeof(w->path) || w->depth > 64)
		return 0;
	w->path[len] = '/';
	memcpy(w->path + len + 1, de->name, de->name_len);
	w->path[len + 1 + de->name_len] = 0;
	if (de->file_type == F2FS_FT_DIR) {
		struct f2fs_error err = { 0 };
		w->depth++;
		f2fs_dir_foreach(w->c->fs, de->ino, walk_cb, w, &err);
		w->depth--;
	} else if (de->file_type == F2FS_FT_REG_FILE) {
		print_file(w->c, w->path, de->ino);
	}
	w->path[len] = 0;
	return 0;
}

int main(int argc, char **argv)
{
	struct ctx c;

	memset(&c, 0, sizeof(c));
	if (argc == 3 && !strcmp(argv[1], "--files")) {
		struct walk w = { &c, "", 0 };
		struct f2fs_error err = { 0 };
		open_ctx(&c, argv[2], 0);
		if (f2fs_dir_foreach(c.fs, le32_get(f2fs_fs_sb(c.fs)->root_ino), walk_cb, &w, &err))
			die("%s: %s", argv[2], err.msg);
		free(c.nats);
		close(c.fd);
		f2fs_fs_close(c.fs);
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: f2fs-mutate IMAGE SEED | f2fs-mutate --files IMAGE\n");
		return 2;
	}
	uint64_t seed = strtoull(argv[2], NULL, 0);
	struct f2fs_error err = { 0 };

	open_ctx(&c, argv[1], 1);
	if (f2fs_sit_load(c.fs, F2FS_SIT_WANT_MAPS, &c.sit, &err))
		die("%s: %s", argv[1], err.msg);
	c.rng = seed * 0x2545F4914F6CDD1Dull + 1;
	say(&c, "seed=%" PRIu64 " ", seed);
	unsigned kind = rnd(&c.rng, 10);
	int r;
	if (kind < 6) {
		say(&c, "field ");
		r = one_field(&c);
	} else if (kind < 8) {
		unsigned n = 2 + rnd(&c.rng, 3);
		say(&c, "multi%u ", n);
		r = 0;
		for (unsigned i = 0; i < n && !r; i++) {
			if (i)
				say(&c, "; ");
			r = one_field(&c);
		}
	} else {
		r = garbage(&c);
	}
	if (r)
		die("%s: no live structure to mutate", argv[1]);
	if (fsync(c.fd))
		die("fsync: %s", strerror(errno));
	say(&c, " | blocks ");
	for (unsigned i = 0; i < c.ntouched; i++)
		say(&c, "%s%" PRIu64, i ? "," : "", c.touched[i]);
	puts(c.line);
	f2fs_sit_free(c.sit);
	free(c.nats);
	close(c.fd);
	f2fs_fs_close(c.fs);
	return 0;
}
