/*
 * What the repair is to set in an inode whose own fields the node pass
 * found wrong, where what the inode holds says it (ck.fixes); nothing is
 * noted where it does not, and that problem is then left.
 */
#include <f2fs/format/dentry.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/format.h>
#include <f2fs/format/inode.h>

#include "ck.h"
#include "passes.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Do the first two slots of a dentry area hold "." naming ino and ".."
 * naming an inode? */
static bool dots_of(const struct f2fs_dentry_area *a, uint32_t ino)
{
	if (a->slots < 2 || !f2fs_dentry_area_used(a, 0) || !f2fs_dentry_area_used(a, 1))
		return false;
	return le16_get(a->dentry[0].name_len) == 1 && a->name[0][0] == '.' &&
	       le32_get(a->dentry[0].ino) == ino && le16_get(a->dentry[1].name_len) == 2 &&
	       !memcmp(a->name[1], "..", 2) && le32_get(a->dentry[1].ino) >= F2FS_ROOT_INO;
}

/* Does the content of an inode whose mode lost its type read as a
 * directory's: "." and ".." first in its inline dentries, or in its
 * first block? */
bool ck_content_is_dir(struct ck *ck, uint32_t ino, const struct f2fs_node *nd)
{
	static_assert(sizeof(struct f2fs_node) == F2FS_BLKSIZE, "a node is a block");
	struct f2fs_dentry_area a;
	struct f2fs_error e = { 0 };
	uint8_t *buf = malloc(F2FS_BLKSIZE);
	bool dir = false;

	if (!buf)
		return false;
	if (nd->i.i_inline & F2FS_INLINE_DENTRY) {
		memcpy(buf, nd, F2FS_BLKSIZE);
		f2fs_dentry_area_of_inline(buf + f2fs_inode_inline_offset(&nd->i),
					   f2fs_inode_inline_bytes(&nd->i, ck->features), &a);
		dir = dots_of(&a, ino);
	} else if (!(nd->i.i_inline & F2FS_INLINE_DATA)) {
		uint32_t first = le32_get(nd->i.i_addr[f2fs_inode_extra_words(&nd->i)]);

		if (ck_in_main(ck, first) && !f2fs_fs_read_block(ck->fs, first, buf, &e)) {
			f2fs_dentry_area_of_block((struct f2fs_dentry_block *)(void *)buf, &a);
			dir = dots_of(&a, ino);
		}
	}
	free(buf);
	return dir;
}

/* A mode with no valid type. Content that reads as a directory's makes it
 * one (the check then reads it as one: the caller takes *want); else a
 * regular file keeps its content readable and its permission bits, unless
 * the inode shows a directory's marks (its entries were not read, so
 * nothing here knows them): then none (*want 0). */
int ck_fix_mode(struct ck *ck, uint32_t ino, const struct f2fs_node *nd, uint16_t mode,
		uint16_t *want)
{
	const struct f2fs_inode *i = &nd->i;

	*want = 0;
	if (ck_content_is_dir(ck, ino, nd))
		*want = (uint16_t)(F2FS_S_IFDIR | (mode & 07777u));
	else if (i->i_inline & (F2FS_INLINE_DENTRY | F2FS_INLINE_DOTS))
		return 0;
	else
		*want = (uint16_t)(F2FS_S_IFREG | (mode & 07777u));
	return ck_fix_add(ck, F2FS_PB_INODE_BAD_MODE, FX_MODE, ino, 0, 0, *want);
}

/* An entry names the inode with a bad mode as ftype: a directory's entries
 * were never read, so its mode is not guessed (the fix is voided: value
 * 0); a symlink's target is its content, so it stays one. Returns the
 * entry type the fixed mode gives (unknown when none). */
uint8_t ck_fix_mode_seen_as(struct ck *ck, uint32_t ino, uint8_t ftype)
{
	uint8_t now = F2FS_FT_UNKNOWN;

	for (size_t k = 0; k < ck->fixes.n; k++) {
		struct ck_fix *f = &ck->fixes.v[k];

		if (f->op != FX_MODE || f->ino != ino || !f->value)
			continue;
		/* only a guess (a regular file) gives way */
		if ((f->value & F2FS_S_IFMT) == F2FS_S_IFREG && ftype == F2FS_FT_DIR)
			f->value = 0;
		else if ((f->value & F2FS_S_IFMT) == F2FS_S_IFREG && ftype == F2FS_FT_SYMLINK)
			f->value = F2FS_S_IFLNK | (f->value & 07777u);
		if (f->value)
			now = f2fs_file_type_of_mode((uint16_t)f->value);
	}
	return now;
}

/* Could the inode's block pointers start after an extra area of e bytes?
 * Every one a hole, a reservation or a block of the main area. */
static bool pointers_after(const struct ck *ck, const struct f2fs_inode *i, uint32_t e,
			   uint32_t xwords)
{
	for (uint32_t k = e / 4; k < F2FS_DEF_ADDRS_PER_INODE - xwords; k++) {
		uint32_t a = le32_get(i->i_addr[k]);

		if (a != F2FS_NULL_ADDR && a != F2FS_NEW_ADDR && a != F2FS_COMPRESS_ADDR &&
		    !ck_in_main(ck, a))
			return false;
	}
	return true;
}

/* Could inline data start after an extra area of e bytes? Its reserved
 * first word is zero, i_size fits, and what lies past i_size is zero (the
 * kernel clears it). */
static bool inline_data_after(const struct f2fs_inode *i, uint32_t e, uint32_t xwords)
{
	const uint8_t *area = (const uint8_t *)&i->i_addr[e / 4 + 1];
	uint32_t cap = 4 * (F2FS_DEF_ADDRS_PER_INODE - xwords - e / 4 - 1);
	uint64_t size = le64_get(i->i_size);

	if (i->i_addr[e / 4] || size > cap)
		return false;
	for (uint32_t b = (uint32_t)size; b < cap; b++)
		if (area[b])
			return false;
	return true;
}

/* Could inline dentries start after an extra area of e bytes? Its
 * reserved first word is zero, and "." and ".." of inode ino come first. */
static bool dentries_after(const struct f2fs_inode *i, uint32_t e, uint32_t xwords, uint32_t ino)
{
	_Alignas(uint64_t) uint8_t area[4 * F2FS_DEF_ADDRS_PER_INODE];
	uint32_t cap = 4 * (F2FS_DEF_ADDRS_PER_INODE - xwords - e / 4 - 1);
	struct f2fs_dentry_area a;

	if (i->i_addr[e / 4])
		return false;
	memcpy(area, &i->i_addr[e / 4 + 1], cap);
	f2fs_dentry_area_of_inline(area, cap, &a);
	return dots_of(&a, ino);
}

static bool fits_after(const struct ck *ck, const struct f2fs_inode *i, uint32_t e,
		       uint32_t xwords, uint32_t ino)
{
	if (e / 4 + xwords + 1 >= F2FS_DEF_ADDRS_PER_INODE)
		return false;
	if (i->i_inline & F2FS_INLINE_DENTRY)
		return dentries_after(i, e, xwords, ino);
	return (i->i_inline & F2FS_INLINE_DATA) ? inline_data_after(i, e, xwords) :
	       pointers_after(ck, i, e, xwords);
}

/*
 * An i_inline of zero over an i_addr that does not read as block pointers
 * (a zeroed flags byte): the flags are found again from what i_addr holds.
 * The extra attributes when the feature is on and the first word holds a
 * size that fits them; inline xattrs when the flexible size is in range,
 * or without flexible_inline_xattr when their magic lies 50 words from the
 * end; then inline data (a file
 * whose bytes past i_size are zero), dentries (a directory whose area
 * starts with its dots), or pointers before the areas found. *now: the flags
 * the fix sets, 0 when none reads well.
 */
int ck_fix_lost_flags(struct ck *ck, uint32_t ino, const struct f2fs_inode *i, uint16_t type,
		      uint8_t *now)
{
	bool flex = ck->features & F2FS_FEATURE_FLEXIBLE_INLINE_XATTR;
	uint32_t e = 0, isize = le16_get(i->extra.i_extra_isize), tries[2], n = 0;
	uint8_t fl = 0;

	*now = 0;
	if (i->i_inline || pointers_after(ck, i, 0, 0))
		return 0;
	if ((ck->features & F2FS_FEATURE_EXTRA_ATTR) && isize >= F2FS_EXTRA_ISIZE_BASE &&
	    isize <= F2FS_EXTRA_ISIZE_COMPRESS && isize % 4 == 0) {
		fl |= F2FS_EXTRA_ATTR;
		e = isize;
	}
	/* the inline xattr words to try: a flexible size is 0 without the
	 * flag (the kernel's new inodes), so one in range had it; a fixed
	 * area of 50 words had it when its magic is there, and may have had
	 * it without (no xattr yet): then with it first, as the kernel's
	 * default mount sets it */
	if (flex) {
		uint32_t w = (fl & F2FS_EXTRA_ATTR) ? le16_get(i->extra.i_inline_xattr_size) : 0;

		tries[n++] = w <= CK_MAX_INLINE_XATTR_WORDS &&
			     e / 4 + w + 1 < F2FS_DEF_ADDRS_PER_INODE ? w : 0;
	} else {
		tries[n++] = F2FS_DEF_INLINE_XATTR_ADDRS;
		if (le32_get(i->i_addr[F2FS_DEF_ADDRS_PER_INODE - F2FS_DEF_INLINE_XATTR_ADDRS]) !=
		    F2FS_XATTR_MAGIC)
			tries[n++] = 0;
	}
	for (uint32_t k = 0; k < n; k++) {
		uint32_t xw = tries[k];
		uint8_t with = (uint8_t)(fl | (xw ? F2FS_INLINE_XATTR : 0));

		if ((type == F2FS_S_IFREG || type == F2FS_S_IFLNK) && inline_data_after(i, e, xw))
			*now = with | F2FS_INLINE_DATA | (le64_get(i->i_size) ? F2FS_DATA_EXIST : 0);
		else if (type == F2FS_S_IFDIR && dentries_after(i, e, xw, ino))
			*now = with | F2FS_INLINE_DENTRY;
		else if (with && pointers_after(ck, i, e, xw))
			*now = with;
		if (*now)
			return ck_fix_add(ck, F2FS_PB_INODE_INLINE_FLAGS, FX_INLINE_CLEAR, ino, *now, 0, 0);
	}
	return 0;
}

/* Extra attributes flagged on a volume without the feature (the kernel
 * refuses such an inode): the flag goes when what i_addr holds reads well
 * without them. */
int ck_fix_extra_attr_flag(struct ck *ck, uint32_t ino, const struct f2fs_inode *i, bool *fits)
{
	/* the inline flags as their own fix may leave them (garbage i_inline
	 * sets the extra flag with others): as they are, then without the
	 * dentry flag, then without either */
	static const uint8_t drop[] = { 0, F2FS_INLINE_DENTRY, F2FS_INLINE_DENTRY | F2FS_INLINE_DATA };
	struct f2fs_inode *c = malloc(sizeof(*c));

	*fits = false;
	if (!c)
		return f2fs_fail(ck->err, -ENOMEM, "out of memory for an inode");
	for (size_t k = 0; k < sizeof(drop) && !*fits; k++) {
		memcpy(c, i, sizeof(*c));
		c->i_inline &= (uint8_t)~(F2FS_EXTRA_ATTR | drop[k]);
		*fits = fits_after(ck, c, 0, f2fs_inode_inline_xattr_words(c, ck->features), ino);
	}
	free(c);
	if (!*fits)
		return 0;
	return ck_fix_add(ck, F2FS_PB_INODE_EXTRA_ISIZE, FX_INLINE_CLEAR, ino, 0, 0, F2FS_EXTRA_ATTR);
}

/*
 * i_extra_isize out of range: where the block pointers start is not
 * known. The candidates, most likely first: the size the other inodes of
 * this image have (the first one read), the one mkfs gives these
 * features, the kernel's (all fields); then each other size. The first
 * after which every pointer is plausible (or the inline data fits) is
 * taken, recorded as the fix and set in *isize, so that the check reads
 * the inode as fixed; *isize 0 when none fits, or the inode holds inline
 * dentries.
 */
int ck_fix_extra_isize(struct ck *ck, uint32_t ino, const struct f2fs_inode *i, uint32_t *isize)
{
	uint32_t xwords = f2fs_inode_inline_xattr_words(i, ck->features);
	uint32_t cand[3 + F2FS_EXTRA_ISIZE_COMPRESS / 4] = {
		ck->extra_isize_seen, f2fs_extra_isize_for(ck->features), F2FS_EXTRA_ISIZE_COMPRESS,
	};
	uint32_t n = 3;

	*isize = 0;
	if (xwords > CK_MAX_INLINE_XATTR_WORDS)
		return 0;
	for (uint32_t e = F2FS_EXTRA_ISIZE_BASE; e <= F2FS_EXTRA_ISIZE_COMPRESS; e += 4)
		cand[n++] = e;
	for (uint32_t k = 0; k < n; k++) {
		uint32_t e = cand[k];

		if (!e || !fits_after(ck, i, e, xwords, ino))
			continue;
		*isize = e;
		return ck_fix_add(ck, F2FS_PB_INODE_EXTRA_ISIZE, FX_EXTRA_ISIZE, ino, 0, 0, e);
	}
	return 0;
}

/*
 * i_inline_xattr_size out of range. The inline xattr area ends i_addr, so
 * its size is where its header is: the one size whose area starts with the
 * xattr magic; with no magic anywhere, the kernel's default when that many
 * words are zero (an area that never held an xattr). Else unknown:
 * *words 0.
 */
int ck_fix_xattr_size(struct ck *ck, uint32_t ino, const struct f2fs_inode *i, uint32_t extra,
		      uint32_t *words)
{
	uint32_t found = 0, hits = 0, zero = 1;

	*words = 0;

	for (uint32_t w = 1; w <= CK_MAX_INLINE_XATTR_WORDS && extra + w + 1 < F2FS_DEF_ADDRS_PER_INODE; w++)
		if (le32_get(i->i_addr[F2FS_DEF_ADDRS_PER_INODE - w]) == F2FS_XATTR_MAGIC) {
			found = w;
			hits++;
		}
	for (uint32_t w = 1; w <= F2FS_DEF_INLINE_XATTR_ADDRS; w++)
		if (i->i_addr[F2FS_DEF_ADDRS_PER_INODE - w])
			zero = 0;
	if (hits != 1 && !(hits == 0 && zero))
		return 0;
	*words = hits ? found : F2FS_DEF_INLINE_XATTR_ADDRS;
	return ck_fix_add(ck, F2FS_PB_INODE_INLINE_XATTR_SIZE, FX_INLINE_XATTR_SIZE, ino, 0, 0,
			  *words);
}

/* Could i_addr and i_nid be pointers (the inline flag being the wrong
 * part)? Every pointer in the main area (or a reservation), every nid in
 * the NAT. A device's pointers hold its number. */
static int could_be_pointers(const struct ck *ck, const struct f2fs_inode *i, uint16_t type,
			     uint32_t extra, uint32_t addrs)
{
	if (type == F2FS_S_IFCHR || type == F2FS_S_IFBLK)
		return 1;
	for (uint32_t k = 0; k < addrs; k++) {
		uint32_t a = le32_get(i->i_addr[extra + k]);

		if (a != F2FS_NULL_ADDR && a != F2FS_NEW_ADDR && a != F2FS_COMPRESS_ADDR &&
		    !ck_in_main(ck, a))
			return 0;
	}
	for (int k = 0; k < F2FS_DEF_NIDS_PER_INODE; k++)
		if (le32_get(i->i_nid[k]) >= ck->max_nid)
			return 0;
	return 1;
}

/* A file's inline-data flag over an area of block pointers: bytes past
 * i_size that are not zero (the kernel zeroes them; f2fs-tools' fsck calls
 * them junk), or a size past the area, where every word is a pointer into
 * the main area or a hole. */
bool ck_inline_is_pointers(const struct ck *ck, const struct f2fs_inode *i, uint16_t type,
			   uint32_t extra, uint32_t addrs)
{
	const uint8_t *area = (const uint8_t *)&i->i_addr[extra + 1];
	uint32_t cap = addrs ? 4 * (addrs - 1) : 0;
	uint64_t size = le64_get(i->i_size);
	bool junk = size > cap;

	for (uint64_t b = size; !junk && b < cap; b++)
		junk = area[b] != 0;
	return junk && could_be_pointers(ck, i, type, extra, addrs);
}

/*
 * Inline flags that contradict the file: the flag the type cannot have
 * goes when what it covers can be read otherwise (as pointers); node
 * pointers of an inline inode go when they name no node in use. Anything
 * else is left: which part is wrong is not known.
 */
int ck_fix_inline_flags(struct ck *ck, uint32_t ino, const struct f2fs_inode *i,
			    uint16_t type, uint32_t extra, uint32_t addrs, uint8_t *now)
{
	uint8_t fl = i->i_inline, clear = 0, set = 0;

	*now = 0;
	int nids = 0, pointers = could_be_pointers(ck, i, type, extra, addrs);
	int data_ok = type == F2FS_S_IFREG || type == F2FS_S_IFLNK;

	if ((fl & F2FS_INLINE_DATA) && (fl & F2FS_INLINE_DENTRY)) {
		if (type == F2FS_S_IFDIR)
			clear |= F2FS_INLINE_DATA;
		else if (data_ok)
			clear |= F2FS_INLINE_DENTRY;
		else
			return 0;
		/* both flags at once are garbage: a file whose area reads as
		 * pointers and not as inline data had neither */
		if (data_ok && pointers &&
		    !inline_data_after(i, 4 * extra, f2fs_inode_inline_xattr_words(i, ck->features)))
			clear |= F2FS_INLINE_DATA;
	}
	fl &= (uint8_t)~clear;
	/* a file's area that is no pointers but reads as inline data: the
	 * dentry flag stands for the data one */
	if ((fl & F2FS_INLINE_DENTRY) && type != F2FS_S_IFDIR) {
		if (!pointers && !(data_ok && !(fl & F2FS_INLINE_DATA) &&
				   inline_data_after(i, 4 * extra,
						     f2fs_inode_inline_xattr_words(i, ck->features))))
			return 0;
		clear |= F2FS_INLINE_DENTRY;
		if (!pointers)
			set |= F2FS_INLINE_DATA;
	}
	if ((fl & F2FS_INLINE_DATA) && data_ok && !(fl & F2FS_INLINE_DENTRY) &&
	    ck_inline_is_pointers(ck, i, type, extra, addrs))
		clear |= F2FS_INLINE_DATA;
	/* a directory's data flag stands for the dentry one when its area
	 * starts with its dots, else for none when it reads as pointers */
	if ((fl & F2FS_INLINE_DATA) && !data_ok) {
		bool dots = type == F2FS_S_IFDIR && !(fl & F2FS_INLINE_DENTRY) &&
			    dentries_after(i, 4 * extra, f2fs_inode_inline_xattr_words(i, ck->features),
					   ino);

		if (!pointers && !dots)
			return 0;
		clear |= F2FS_INLINE_DATA;
		if (dots)
			set |= F2FS_INLINE_DENTRY;
	}
	fl &= (uint8_t)~clear;
	for (int k = 0; k < F2FS_DEF_NIDS_PER_INODE; k++) {
		uint32_t c = le32_get(i->i_nid[k]);

		if (c && (fl & (F2FS_INLINE_DATA | F2FS_INLINE_DENTRY))) {
			struct ck_nid *n = ck_nid_find(ck, c);

			/* a node of this inode: the inline flag may be the
			 * wrong part; another inode's node is not its */
			if (n && ck_nid_ino(ck, n, c) == ino)
				return 0;
			nids = 1;
		}
	}
	*now = (uint8_t)((i->i_inline & ~clear) | set);
	return ck_fix_add(ck, F2FS_PB_INODE_INLINE_FLAGS, FX_INLINE_CLEAR, ino, set, (uint32_t)nids,
			  clear);
}
