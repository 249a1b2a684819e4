/*
 * --metadump OUT / --restore OUT -o IMAGE: a metadata image for bug reports.
 *
 * What goes in: every block before the main area (superblocks, checkpoint
 * packs, SIT, NAT, SSA), every node block the SIT marks valid, and the
 * data blocks of directories and of the quota files. What is scrubbed out
 * of them: inline file data (zeros), inline symlink targets ('x' for each
 * byte, so the length reads the same), the values of user.* xattrs
 * (zeros), and, unless names are kept, every name: each replaced by one of
 * the same length, a function of the name alone, so that a dentry and the
 * inode's i_name get the same one. A dentry keeps its stored hash (a name's
 * f2fs hash cannot follow the replacement), so on a restored image a check
 * reports hash and bucket problems that are the scrambling's; names of
 * encrypted directories are cipher text and stay. Inode checksums are
 * computed again.
 *
 * The file: "F2FSMDMP", u32 version (1), u32 flags (1: names kept), u64
 * blocks of the volume, u64 blocks dumped; then runs of consecutive
 * blocks: u64 first, u32 count, u32 bytes, and that many bytes of zlib
 * (deflate) holding count * 4096 bytes. All little-endian.
 */
#include "dump.h"

#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/format.h>
#include <f2fs/format/hash.h>
#include <f2fs/format/checkpoint.h>
#include <f2fs/format/crc.h>
#include <f2fs/format/inode.h>
#include <f2fs/format/node_ofs.h>
#include <f2fs/format/ver_bitmap.h>
#include <f2fs/fs/nat.h>
#include <f2fs/fs/sit.h>
#include <f2fs/io/dev.h>
#include <f2fs/util/u32map.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define MD_MAGIC "F2FSMDMP"
#define MD_VERSION 1u
#define MD_NAMES_KEPT 1u
#define RUN_MAX 256u         /* blocks per compressed run */

/* What a dumped block is, for its scrubbing. */
enum { B_META = 1, B_NODE = 2, B_DIR = 3, B_QUOTA = 4 };

struct md {
	struct dump *d;
	uint8_t *kind;           /* per block of the volume: B_* or 0 */
	uint64_t nblocks, dumped;
	bool keep_names;
	uint32_t features, seed;
	uint8_t *dirflag;        /* per directory nid: D_* */
	struct f2fs_u32map owner;   /* directory block -> its directory */
	uint32_t max_nid;
};

enum { D_ENCRYPTED = 1, D_CASEFOLD = 2 };

/* ---- names ------------------------------------------------------------------ */

/* A replacement of the same length, lowercase letters, from the name
 * alone (in a casefolded directory from its key, so that names one key
 * apart stay so); "." and ".." and lost+found stay (the layout's own
 * names), and so do the bytes no name may hold ('/', NUL) and a name
 * without a key in a casefolded directory, which a check names. */
static void scramble(uint8_t *name, uint32_t len, bool fold)
{
	uint8_t key[F2FS_UTF8_CAP];
	int klen = fold ? f2fs_casefold_name(name, len, key) : -1;
	const uint8_t *seed = klen > 0 ? key : name;
	uint64_t h = 1469598103934665603ull;

	/* a name with no key in a casefolded directory is a finding of a
	 * strict check: it stays as it is */
	if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.') ||
	    (len == 10 && !memcmp(name, "lost+found", 10)) || (fold && klen < 0))
		return;
	for (uint32_t i = 0; i < (klen > 0 ? (uint32_t)klen : len); i++)
		h = (h ^ seed[i]) * 1099511628211ull;
	for (uint32_t i = 0; i < len; i++) {
		h = h * 6364136223846793005ull + 1442695040888963407ull;
		if (name[i] != '/' && name[i] != 0)
			name[i] = (uint8_t)('a' + (h >> 33) % 26);
	}
}

/* The names of a dentry area (block or inline). */
static void scramble_area(uint8_t *bitmap, struct f2fs_dir_entry *de, uint8_t (*names)[F2FS_SLOT_LEN],
			  uint32_t slots, bool fold)
{
	for (uint32_t s = 0; s < slots; s++) {
		uint32_t len;

		if (!(bitmap[s / 8] & (1u << (s % 8))))
			continue;
		len = le16_get(de[s].name_len);
		if (len == 0 || len > F2FS_NAME_LEN || s + (len + F2FS_SLOT_LEN - 1) / F2FS_SLOT_LEN > slots)
			continue;   /* a check's business; left as it is */
		scramble(names[s], len, fold);
		s += (len + F2FS_SLOT_LEN - 1) / F2FS_SLOT_LEN - 1;
	}
}

/* ---- what to dump ------------------------------------------------------------- */

/* Every block the inode's tree points at, within i_size or past it (a
 * block past the size is a check's finding). */
static int mark_file(struct md *m, const struct f2fs_node *in, uint8_t kind)
{
	uint64_t n = f2fs_file_max_blocks(m->d->fs, in);
	uint32_t ino = le32_get(in->footer.ino);
	struct f2fs_error err;

	if (in->i.i_inline & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))
		return 0;
	for (uint64_t f = 0; f < n; f++) {
		uint32_t a = 0;
		uint64_t run = 1;

		if (f2fs_file_block(m->d->fs, in, f, &a, &run, &err))
			return 0;   /* a tree the check would report: what was found stays */
		if (a && a != F2FS_NEW_ADDR && a != F2FS_COMPRESS_ADDR && f2fs_fs_in_main(m->d->fs, a)) {
			m->kind[a] = kind;
			if (kind == B_DIR && f2fs_u32map_put(&m->owner, a, ino))
				return error_line("out of memory");
		} else if (run > 1)
			f += run - 1;
	}
	return 0;
}

/* Node blocks the NAT names (valid in the SIT or not: the check wants to
 * see what they are), the journal's entries first. */
static int mark_nat(struct md *m)
{
	struct f2fs_fs *fs = m->d->fs;
	const struct f2fs_journal *j = f2fs_fs_nat_journal(fs);
	uint32_t nat = le32_get(f2fs_fs_sb(fs)->nat_blkaddr), bytes;
	const uint8_t *map = f2fs_fs_nat_bitmap(fs, &bytes);
	struct f2fs_nat_block blk;
	struct f2fs_error err;

	for (uint32_t k = 0; k < le16_get(j->n_entries); k++) {
		uint32_t a = le32_get(j->nat_j.entries[k].ne.block_addr);

		if (f2fs_fs_in_main(fs, a))
			m->kind[a] = B_NODE;
	}
	for (uint32_t b = 0; b < f2fs_fs_nat_blocks(fs); b++) {
		uint64_t at = f2fs_nat_copy_addr(nat, b, b / 8 < bytes && f2fs_ver_bit(map, b));

		if (f2fs_fs_read_block(fs, at, &blk, &err))
			return error_line("NAT block 0x%llx: %s", (unsigned long long)at, err.msg);
		for (uint32_t e = 0; e < F2FS_NAT_ENTRY_PER_BLOCK; e++) {
			uint32_t a = le32_get(blk.entries[e].block_addr);

			if (f2fs_fs_in_main(fs, a))
				m->kind[a] = B_NODE;
		}
	}
	return 0;
}

/* The blocks a roll-forward would read: from each node log's next block,
 * the footers' chain while they carry this checkpoint's version. */
static void mark_chains(struct md *m)
{
	struct f2fs_fs *fs = m->d->fs;
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	uint32_t main = le32_get(f2fs_fs_sb(fs)->main_blkaddr);
	uint32_t ver = (uint32_t)le64_get(cp->checkpoint_ver);
	struct f2fs_node nd;
	struct f2fs_error err;

	for (int t = F2FS_NR_CURSEG_DATA; t < F2FS_NR_CURSEG_TYPE; t++) {
		uint64_t a = main + (uint64_t)f2fs_cp_log_segno(cp, t) * F2FS_BLOCKS_PER_SEG +
			     f2fs_cp_log_blkoff(cp, t);

		for (uint32_t steps = 0; steps < 1u << 20 && f2fs_fs_in_main(fs, a); steps++) {
			if (f2fs_fs_read_block(fs, a, &nd, &err) ||
			    (uint32_t)le64_get(nd.footer.cp_ver) != ver)
				break;
			m->kind[a] = B_NODE;
			a = le32_get(nd.footer.next_blkaddr);
		}
	}
}

static int mark_inode(struct md *m, const struct f2fs_node *nd);

/* Every valid block of a node segment, and, reading them, the blocks of
 * directories and quota files. */
static int mark(struct md *m)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(m->d->fs);
	uint32_t main = le32_get(sb->main_blkaddr);
	struct f2fs_sit *sit;
	struct f2fs_error err;
	uint8_t *buf;
	int ret = load_sit(m->d->fs, F2FS_SIT_WANT_MAPS, &sit);

	if (ret)
		return ret;
	memset(m->kind, B_META, main);
	for (uint32_t s = 0; s < sit->nsegs; s++) {
		const uint8_t *map = sit->maps + (size_t)s * F2FS_SIT_VBLOCK_MAP_SIZE;

		if (sit->seg[s].type < F2FS_SEG_HOT_NODE || sit->seg[s].type > F2FS_SEG_COLD_NODE)
			continue;
		for (uint32_t b = 0; b < F2FS_BLOCKS_PER_SEG; b++)
			if (map[b / 8] & (0x80u >> (b % 8)))
				m->kind[main + (uint64_t)s * F2FS_BLOCKS_PER_SEG + b] = B_NODE;
	}
	f2fs_sit_free(sit);
	if ((ret = mark_nat(m)))
		return ret;
	mark_chains(m);
	buf = malloc((size_t)RUN_MAX * F2FS_BLKSIZE);
	if (!buf)
		return error_line("out of memory");
	/* the node blocks in runs read at once: directories and quota files
	 * found among them */
	for (uint64_t a = main; a < m->nblocks && !ret;) {
		uint32_t n = 0;

		if (m->kind[a] != B_NODE) {
			a++;
			continue;
		}
		while (n < RUN_MAX && a + n < m->nblocks && m->kind[a + n] == B_NODE)
			n++;
		if (f2fs_dev_read(f2fs_fs_dev(m->d->fs), a, buf, n, &err))
			ret = error_line("blocks 0x%llx..: %s", (unsigned long long)a, err.msg);
		for (uint32_t k = 0; k < n && !ret; k++)
			ret = mark_inode(m, (const struct f2fs_node *)(buf + (size_t)k * F2FS_BLKSIZE));
		a += n;
	}
	free(buf);
	return ret;
}

/* An inode among the node blocks: a directory's or a quota file's blocks
 * go too. */
static int mark_inode(struct md *m, const struct f2fs_node *nd)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(m->d->fs);
	uint32_t nid = le32_get(nd->footer.nid), mode;
	bool quota = false;

	if (nid != le32_get(nd->footer.ino) || (le32_get(nd->footer.flag) >> F2FS_NODE_OFS_SHIFT))
		return 0;
	mode = le16_get(nd->i.i_mode) & F2FS_S_IFMT;
	/* a mode without a type may be a directory's: its blocks go with it,
	 * read as dentries */
	if (mode != F2FS_S_IFREG && mode != F2FS_S_IFLNK && mode != F2FS_S_IFCHR &&
	    mode != F2FS_S_IFBLK && mode != F2FS_S_IFIFO && mode != F2FS_S_IFSOCK)
		mode = F2FS_S_IFDIR;
	for (int q = 0; q < F2FS_MAX_QUOTAS; q++)
		quota |= le32_get(sb->qf_ino[q]) == nid;
	if (mode == F2FS_S_IFDIR && nid < m->max_nid)
		m->dirflag[nid] = (uint8_t)(((nd->i.i_advise & F2FS_ADVISE_ENCRYPT) ? D_ENCRYPTED : 0) |
			((le32_get(nd->i.i_flags) & F2FS_CASEFOLD_FL) &&
			 (m->features & F2FS_FEATURE_CASEFOLD) ? D_CASEFOLD : 0));
	if (mode == F2FS_S_IFDIR || quota)
		return mark_file(m, nd, quota ? B_QUOTA : B_DIR);
	return 0;
	return 0;
}

/* ---- scrubbing --------------------------------------------------------------------- */

/* user.* values in an xattr area of len bytes: zeros. */
static void scrub_xattrs(uint8_t *area, uint32_t len)
{
	uint32_t at = (uint32_t)sizeof(struct f2fs_xattr_header);

	while (at + 4 <= len && le32_load(area + at)) {
		uint32_t nlen = area[at + 1], vlen = area[at + 2] | (uint32_t)area[at + 3] << 8;
		uint32_t next = (4 + nlen + vlen + 3) & ~3u;

		if (at + 4 + nlen + vlen > len)
			return;
		if (area[at] == F2FS_XATTR_INDEX_USER)
			memset(area + at + 4 + nlen, 0, vlen);
		at += next;
	}
}

/* Does the inode's checksum match (or has it none)? */
static bool inode_sealed(const struct md *m, const struct f2fs_node *nd)
{
	return !f2fs_inode_has_checksum(nd, m->features) ||
	       le32_get(nd->i.extra.i_inode_checksum) == f2fs_inode_crc(nd, m->seed);
}

static void scrub_inode(struct md *m, struct f2fs_node *nd)
{
	struct f2fs_inode *i = &nd->i;
	uint16_t type = le16_get(i->i_mode) & F2FS_S_IFMT;
	uint32_t xwords = f2fs_inode_inline_xattr_words(i, m->features);
	uint32_t extra = f2fs_inode_extra_words(i);
	uint8_t *inl = (uint8_t *)nd + f2fs_inode_inline_offset(i);
	uint32_t room = f2fs_inode_inline_bytes(i, m->features);
	uint32_t pino = le32_get(i->i_pino), nlen = le32_get(i->i_namelen);
	bool sealed = inode_sealed(m, nd);

	/* a layout out of range is a check's finding: the areas are left */
	if (extra + xwords + 1 >= F2FS_DEF_ADDRS_PER_INODE)
		room = xwords = 0;
	if ((i->i_inline & F2FS_INLINE_DATA) && room) {
		uint64_t size = le64_get(i->i_size);
		/* bytes past i_size are the check's to judge (zero, as the
		 * kernel leaves them) unless i_size passes the area */
		uint32_t n = size < room ? (uint32_t)size : room;

		/* only a file's or a link's: the flag on another type is a
		 * check's finding, its bytes kept for it. Each byte that is
		 * not zero becomes 'x': the content goes, what a check reads
		 * of it (a link's length, zeros where the kernel leaves them)
		 * stays */
		if (type == F2FS_S_IFLNK || type == F2FS_S_IFREG)
			for (uint32_t k = 0; k < n; k++)
				if (inl[k])
					inl[k] = 'x';
	}
	uint32_t nid = le32_get(nd->footer.nid);
	uint8_t own = nid < m->max_nid ? m->dirflag[nid] : 0;
	uint8_t parent = pino < m->max_nid ? m->dirflag[pino] : 0;

	if ((i->i_inline & F2FS_INLINE_DENTRY) && room && !m->keep_names && !(own & D_ENCRYPTED)) {
		struct f2fs_dentry_area a;

		f2fs_dentry_area_of_inline(inl, room, &a);
		scramble_area(a.bitmap, a.dentry, a.name, a.slots, own & D_CASEFOLD);
	}
	if ((i->i_inline & F2FS_INLINE_XATTR) && xwords)
		scrub_xattrs((uint8_t *)&i->i_addr[F2FS_DEF_ADDRS_PER_INODE - xwords], 4 * xwords);
	if (!m->keep_names && nlen <= F2FS_NAME_LEN && !(parent & D_ENCRYPTED))
		scramble(i->i_name, nlen, parent & D_CASEFOLD);
	/* a checksum that did not match stays as it was: a finding */
	if (sealed)
		f2fs_inode_seal(nd, m->features, m->seed);
}

static void scrub(struct md *m, uint64_t a, uint8_t *blk)
{
	struct f2fs_node *nd = (struct f2fs_node *)blk;

	if (m->kind[a] == B_NODE) {
		uint32_t nid = le32_get(nd->footer.nid);
		uint32_t ofs = le32_get(nd->footer.flag) >> F2FS_NODE_OFS_SHIFT;

		if (nid == le32_get(nd->footer.ino) && ofs == 0)
			scrub_inode(m, nd);
		else if (ofs == F2FS_XATTR_NODE_OFFSET)
			scrub_xattrs(blk, F2FS_BLKSIZE - (uint32_t)sizeof(struct f2fs_node_footer));
	} else if (m->kind[a] == B_DIR && !m->keep_names) {
		struct f2fs_dentry_block *db = (struct f2fs_dentry_block *)blk;
		uint32_t dir = f2fs_u32map_get(&m->owner, (uint32_t)a);
		uint8_t fl = dir < m->max_nid ? m->dirflag[dir] : 0;

		if (!(fl & D_ENCRYPTED))
			scramble_area(db->dentry_bitmap, db->dentry, db->filename,
				      F2FS_NR_DENTRY_IN_BLOCK, fl & D_CASEFOLD);
	}
}

/* ---- the file -------------------------------------------------------------------------- */

static void put64(uint8_t *p, uint64_t v)
{
	for (int k = 0; k < 8; k++)
		p[k] = (uint8_t)(v >> (8 * k));
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int k = 7; k >= 0; k--)
		v = v << 8 | p[k];
	return v;
}

static int write_run(struct md *m, FILE *f, uint64_t first, uint32_t n, uint8_t *buf)
{
	uLongf zlen = compressBound((uLong)n * F2FS_BLKSIZE);
	uint8_t *z = malloc(zlen), head[16];
	int ret = 0;

	if (!z)
		return error_line("out of memory");
	if (compress2(z, &zlen, buf, (uLong)n * F2FS_BLKSIZE, Z_BEST_SPEED) != Z_OK)
		ret = error_line("zlib: compression failed");
	put64(head, first);
	put64(head + 8, (uint64_t)n | (uint64_t)zlen << 32);
	if (!ret && (fwrite(head, 1, 16, f) != 16 || fwrite(z, 1, zlen, f) != zlen))
		ret = error_line("write: %s", strerror(errno));
	m->dumped += n;
	free(z);
	return ret;
}

static int write_dump(struct md *m, FILE *f)
{
	uint8_t *buf = malloc((size_t)RUN_MAX * F2FS_BLKSIZE), head[32];
	struct f2fs_error err;
	int ret = 0;

	if (!buf)
		return error_line("out of memory");
	memcpy(head, MD_MAGIC, 8);
	put64(head + 8, MD_VERSION | (uint64_t)(m->keep_names ? MD_NAMES_KEPT : 0) << 32);
	put64(head + 16, m->nblocks);
	put64(head + 24, 0);   /* blocks dumped: written at the end */
	if (fwrite(head, 1, 32, f) != 32)
		ret = error_line("write: %s", strerror(errno));
	/* runs of consecutive blocks, each read at once */
	for (uint64_t a = 0; a < m->nblocks && !ret;) {
		uint32_t n = 0;

		if (!m->kind[a]) {
			a++;
			continue;
		}
		while (n < RUN_MAX && a + n < m->nblocks && m->kind[a + n])
			n++;
		if (f2fs_dev_read(f2fs_fs_dev(m->d->fs), a, buf, n, &err)) {
			ret = error_line("blocks 0x%llx..: %s", (unsigned long long)a, err.msg);
			break;
		}
		for (uint32_t k = 0; k < n; k++)
			scrub(m, a + k, buf + (size_t)k * F2FS_BLKSIZE);
		ret = write_run(m, f, a, n, buf);
		a += n;
	}
	put64(head + 24, m->dumped);
	if (!ret && (fseek(f, 24, SEEK_SET) || fwrite(head + 24, 1, 8, f) != 8))
		ret = error_line("write: %s", strerror(errno));
	free(buf);
	return ret;
}

int view_metadump(struct dump *d, const char *path, bool keep_names)
{
	const struct f2fs_super_block *sb = f2fs_fs_sb(d->fs);
	struct md m = { .d = d, .keep_names = keep_names };
	struct stat st;
	FILE *f;
	int ret;

	if (le32_get(sb->devs[0].total_segments))
		return error_line("a volume over several devices cannot be dumped yet");
	m.nblocks = le64_get(sb->block_count);
	m.features = f2fs_fs_features(d->fs);
	m.seed = f2fs_fs_inode_crc_seed(d->fs);
	m.max_nid = f2fs_fs_max_nid(d->fs);
	m.kind = calloc(m.nblocks ? m.nblocks : 1, 1);
	m.dirflag = calloc(m.max_nid ? m.max_nid : 1, 1);
	if (!m.kind || !m.dirflag) {
		free(m.kind);
		free(m.dirflag);
		return error_line("out of memory for a map of %llu blocks", (unsigned long long)m.nblocks);
	}
	ret = mark(&m);
	f = ret ? NULL : fopen(path, "wb");
	if (!ret && !f)
		ret = error_line("%s: %s", path, strerror(errno));
	if (!ret)
		ret = write_dump(&m, f);
	if (f && fclose(f) && !ret)
		ret = error_line("%s: %s", path, strerror(errno));
	if (!ret && stat(path, &st))
		ret = error_line("%s: %s", path, strerror(errno));
	if (!ret) {
		struct out *o = &d->out;

		out_obj_begin(o, "metadump", "Metadata image:");
		out_s(o, "file", "written to:", path);
		out_u(o, "blocks", "blocks dumped:", m.dumped);
		out_u(o, "metadata_bytes", "their bytes:", m.dumped * F2FS_BLKSIZE);
		out_u(o, "file_bytes", "bytes written (compressed):", (uint64_t)st.st_size);
		out_u(o, "volume_blocks", "blocks of the volume:", m.nblocks);
		out_b(o, "names_kept", "names kept:", keep_names);
		out_obj_end(o);
	}
	free(m.kind);
	free(m.dirflag);
	f2fs_u32map_free(&m.owner);
	return ret;
}

/* ---- restoring ------------------------------------------------------------------------- */

int metadump_restore(const char *path, const char *image)
{
	uint8_t head[32], run[16], *z = NULL, *buf = malloc((size_t)RUN_MAX * F2FS_BLKSIZE);
	FILE *f = fopen(path, "rb");
	int fd = -1, ret = 0;
	uint64_t nblocks, done = 0;

	if (!f || !buf) {
		free(buf);
		if (f)
			fclose(f);
		return error_line("%s: %s", path, f ? "out of memory" : strerror(errno));
	}
	if (fread(head, 1, 32, f) != 32 || memcmp(head, MD_MAGIC, 8) || (uint32_t)get64(head + 8) != MD_VERSION)
		ret = error_line("%s: not a metadata image of version %u", path, MD_VERSION);
	nblocks = get64(head + 16);
	if (!ret && (fd = open(image, O_WRONLY | O_CREAT | O_EXCL, 0644)) < 0)
		ret = error_line("%s: %s (a restore makes a new file)", image, strerror(errno));
	if (!ret && ftruncate(fd, (off_t)(nblocks * F2FS_BLKSIZE)))
		ret = error_line("%s: %s", image, strerror(errno));
	while (!ret && fread(run, 1, 16, f) == 16) {
		uint64_t first = get64(run), w = get64(run + 8);
		uint32_t n = (uint32_t)w, zl = (uint32_t)(w >> 32);
		uLongf len = (uLongf)n * F2FS_BLKSIZE;

		if (n == 0 || n > RUN_MAX || first + n > nblocks || !(z = realloc(z, zl ? zl : 1)) ||
		    fread(z, 1, zl, f) != zl || uncompress(buf, &len, z, zl) != Z_OK ||
		    len != (uLongf)n * F2FS_BLKSIZE) {
			ret = error_line("%s: a damaged run at block %llu", path, (unsigned long long)first);
			break;
		}
		if (pwrite(fd, buf, len, (off_t)(first * F2FS_BLKSIZE)) != (ssize_t)len)
			ret = error_line("%s: %s", image, strerror(errno));
		done += n;
	}
	if (!ret && done != get64(head + 24))
		ret = error_line("%s: %llu blocks, the header says %llu", path, (unsigned long long)done,
				 (unsigned long long)get64(head + 24));
	if (fd >= 0 && close(fd) && !ret)
		ret = error_line("%s: %s", image, strerror(errno));
	if (!ret)
		printf("%s: %llu blocks restored into %s (%llu blocks, the rest holes)\n", prog,
		       (unsigned long long)done, image, (unsigned long long)nblocks);
	fclose(f);
	free(z);
	free(buf);
	return ret;
}
