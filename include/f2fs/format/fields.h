/*
 * The fields of every on-disk structure, as one constant table: each
 * field's name (inject.f2fs's member name where it has one, else the
 * structure's member name), the structure it belongs to, its byte offset in
 * that structure, the size of one element and, for arrays, how many
 * elements there are and how far apart they lie.
 *
 * The offsets are written out as numbers, not taken from <f2fs/format/
 * format.h>: tests/unit/test_fields.c compares every row with offsetof()
 * and sizeof() of the packed structures, so that a change to a structure
 * fails that test instead of moving the table along silently.
 *
 * A structure kind (struct f2fs_fkind) also says where its instances lie
 * in the block that usually holds them: a first byte, a stride and a count
 * (455 NAT entries in a NAT block, the node footer at byte 4072 of a node
 * block, the NAT journal at byte 3584 of a hot data summary block...). A
 * kind whose position varies (an xattr entry, a journal of a compacted
 * summary) says where it lies in its usual place; its users find it.
 */
#ifndef F2FS_FORMAT_FIELDS_H
#define F2FS_FORMAT_FIELDS_H

#include <stddef.h>
#include <stdint.h>

enum f2fs_fkind_id {
	F2FS_FK_SB = 0,          /* superblock, at byte 1024 of blocks 0 and 1 */
	F2FS_FK_CP,              /* checkpoint block: first and last of a pack */
	F2FS_FK_ORPHAN,          /* orphan block of a checkpoint pack */
	F2FS_FK_NAT,             /* NAT entry: 455 in a NAT block */
	F2FS_FK_SIT,             /* SIT entry: 55 in a SIT block */
	F2FS_FK_SSA,             /* summary entry: 512 in a summary block */
	F2FS_FK_SSA_FOOTER,      /* summary block footer */
	F2FS_FK_NAT_JOURNAL,     /* NAT journal (hot data summary) */
	F2FS_FK_NAT_JOURNAL_ENTRY,
	F2FS_FK_SIT_JOURNAL,     /* SIT journal (cold data summary) */
	F2FS_FK_SIT_JOURNAL_ENTRY,
	F2FS_FK_NODE_FOOTER,     /* footer of every node block */
	F2FS_FK_INODE,           /* inode block, extra attributes included */
	F2FS_FK_DNODE,           /* direct node */
	F2FS_FK_INDNODE,         /* indirect and double indirect node */
	F2FS_FK_DENTRY_BLOCK,    /* dentry block: bitmap and names */
	F2FS_FK_DENTRY,          /* directory entry: 214 in a dentry block */
	F2FS_FK_XATTR_HEADER,    /* xattr area: inline, or an xattr node's start */
	F2FS_FK_XATTR_ENTRY,     /* one xattr entry, name and value follow */
	F2FS_FK_NAT_BITS,        /* nat_bits area: the header of its first block */
	F2FS_FK_QUOTA_RECORD,    /* a quota file's id record: 14 in a 1 KiB data block */
	F2FS_FK_COUNT
};

/* Where a kind's instances live. */
enum f2fs_fblock {
	F2FS_FB_SB = 0, F2FS_FB_CP, F2FS_FB_ORPHAN, F2FS_FB_NAT, F2FS_FB_SIT,
	F2FS_FB_SUMMARY, F2FS_FB_NODE, F2FS_FB_DENTRY, F2FS_FB_XATTR,
	F2FS_FB_NAT_BITS, F2FS_FB_QUOTA,
};

struct f2fs_fkind {
	const char *name;        /* "sb", "cp", "nat", ... (inject.f2fs's option) */
	uint8_t block;           /* enum f2fs_fblock */
	uint16_t base;           /* byte of the first instance in its block */
	uint16_t size;           /* bytes of one instance */
	uint16_t count;          /* instances in the block */
	uint16_t stride;         /* bytes from one instance to the next */
};

/* f2fs_field.flags */
enum f2fs_field_flag {
	F2FS_FF_BYTES  = 0x01,   /* a byte string (uuid, names, paths), not a number */
	F2FS_FF_CRC    = 0x02,   /* a checksum over its structure */
	F2FS_FF_EXTRA  = 0x04,   /* an inode's extra attribute: only with F2FS_EXTRA_ATTR */
	F2FS_FF_OVERLAY = 0x08,  /* overlaid by the extra attributes (i_addr) */
};

struct f2fs_field {
	const char *name;        /* "magic", "i_ext.blk_addr", "devs.path", ... */
	uint8_t kind;            /* enum f2fs_fkind_id */
	uint8_t flags;           /* enum f2fs_field_flag */
	uint16_t offset;         /* byte of element 0 in an instance of the kind */
	uint16_t size;           /* bytes of one element: 1, 2, 4, 8, or a string's length */
	uint16_t count;          /* elements (1 for a scalar) */
	uint16_t stride;         /* bytes between elements (= size unless in a struct array) */
};

/* The table: every row, kinds in enum order, fields in offset order. */
const struct f2fs_field *f2fs_fields(size_t *n);
/* A kind, or NULL for an id out of range. */
const struct f2fs_fkind *f2fs_fkind(unsigned id);
/* A kind by name, or -1. */
int f2fs_fkind_find(const char *name);
/* The fields of one kind: the first row and their number (rows of a kind
 * are adjacent). */
const struct f2fs_field *f2fs_fields_of(unsigned kind, size_t *n);
/* A field of a kind by name, or NULL. */
const struct f2fs_field *f2fs_field_find(unsigned kind, const char *name);

/* Byte of element idx of a field from the start of its instance. */
static inline size_t f2fs_field_pos(const struct f2fs_field *f, unsigned idx)
{
	return (size_t)f->offset + (size_t)idx * f->stride;
}

/* Element idx of a numeric field (size 1, 2, 4 or 8) of the instance at
 * inst, read and written little-endian; a byte string reads as 0 and is
 * not written. */
uint64_t f2fs_field_get(const void *inst, const struct f2fs_field *f, unsigned idx);
void f2fs_field_set(void *inst, const struct f2fs_field *f, unsigned idx, uint64_t v);
/* All bits of one element of a numeric field (0xff..., by size). */
uint64_t f2fs_field_mask(const struct f2fs_field *f);

#endif
