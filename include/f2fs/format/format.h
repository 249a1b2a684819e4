/*
 * The F2FS on-disk format: packed structures of little-endian fields and the
 * constants that give them meaning. Nothing here is host-endian; convert with
 * the helpers in <f2fs/endian.h> when reading or writing a field.
 */
#ifndef F2FS_FORMAT_H
#define F2FS_FORMAT_H

#include <stdint.h>

/* Little-endian on-disk integers. Never read them without conversion. */
typedef uint16_t f2fs_le16;
typedef uint32_t f2fs_le32;
typedef uint64_t f2fs_le64;

#define F2FS_PACKED __attribute__((packed))

/* ---- units ------------------------------------------------------------ */
#define F2FS_SUPER_MAGIC        0xF2F52010u
#define F2FS_MAJOR_VERSION      1
#define F2FS_MINOR_VERSION      15
#define F2FS_BLKSIZE            4096u
#define F2FS_BLKSIZE_BITS       12
#define F2FS_LOG_BLOCKS_PER_SEG 9
#define F2FS_BLOCKS_PER_SEG     512u
#define F2FS_SEGMENT_BYTES      (F2FS_BLKSIZE * F2FS_BLOCKS_PER_SEG)
#define F2FS_SUPER_OFFSET       1024u   /* byte offset of the sb in blocks 0 and 1 */
#define F2FS_MAX_SEGMENTS       8388608u /* 16 TiB of 2 MiB segments */
#define F2FS_NULL_ADDR          0u
#define F2FS_NEW_ADDR           0xFFFFFFFFu
#define F2FS_COMPRESS_ADDR      0xFFFFFFFEu
#define F2FS_NULL_SEGNO         0xFFFFFFFFu

/* reserved inode numbers */
#define F2FS_NODE_INO  1u
#define F2FS_META_INO  2u
#define F2FS_ROOT_INO  3u

/* ---- superblock ------------------------------------------------------- */
#define F2FS_MAX_EXTENSION      64
#define F2FS_EXTENSION_LEN      8
#define F2FS_VERSION_LEN        256
#define F2FS_VOLUME_NAME_UNITS  512   /* UTF-16LE code units */
#define F2FS_MAX_DEVICES        8
#define F2FS_MAX_DEVICE_PATH    64
#define F2FS_MAX_QUOTAS         3
#define F2FS_SB_CHECKSUM_OFFSET 3068u

enum f2fs_feature {
	F2FS_FEATURE_ENCRYPT              = 0x0001,
	F2FS_FEATURE_BLKZONED             = 0x0002,
	F2FS_FEATURE_ATOMIC_WRITE         = 0x0004,
	F2FS_FEATURE_EXTRA_ATTR           = 0x0008,
	F2FS_FEATURE_PRJQUOTA             = 0x0010,
	F2FS_FEATURE_INODE_CHKSUM         = 0x0020,
	F2FS_FEATURE_FLEXIBLE_INLINE_XATTR = 0x0040,
	F2FS_FEATURE_QUOTA_INO            = 0x0080,
	F2FS_FEATURE_INODE_CRTIME         = 0x0100,
	F2FS_FEATURE_LOST_FOUND           = 0x0200,
	F2FS_FEATURE_VERITY               = 0x0400,
	F2FS_FEATURE_SB_CHKSUM            = 0x0800,
	F2FS_FEATURE_CASEFOLD             = 0x1000,
	F2FS_FEATURE_COMPRESSION          = 0x2000,
	F2FS_FEATURE_RO                   = 0x4000,
};

#define F2FS_ENC_UTF8_12_1       1
#define F2FS_ENC_STRICT_MODE_FL  0x0001

struct f2fs_device {
	uint8_t   path[F2FS_MAX_DEVICE_PATH];
	f2fs_le32 total_segments;
} F2FS_PACKED;

struct f2fs_super_block {
	f2fs_le32 magic;
	f2fs_le16 major_ver;
	f2fs_le16 minor_ver;
	f2fs_le32 log_sectorsize;
	f2fs_le32 log_sectors_per_block;
	f2fs_le32 log_blocksize;
	f2fs_le32 log_blocks_per_seg;
	f2fs_le32 segs_per_sec;
	f2fs_le32 secs_per_zone;
	f2fs_le32 checksum_offset;
	f2fs_le64 block_count;
	f2fs_le32 section_count;
	f2fs_le32 segment_count;
	f2fs_le32 segment_count_ckpt;
	f2fs_le32 segment_count_sit;
	f2fs_le32 segment_count_nat;
	f2fs_le32 segment_count_ssa;
	f2fs_le32 segment_count_main;
	f2fs_le32 segment0_blkaddr;
	f2fs_le32 cp_blkaddr;
	f2fs_le32 sit_blkaddr;
	f2fs_le32 nat_blkaddr;
	f2fs_le32 ssa_blkaddr;
	f2fs_le32 main_blkaddr;
	f2fs_le32 root_ino;
	f2fs_le32 node_ino;
	f2fs_le32 meta_ino;
	uint8_t   uuid[16];
	f2fs_le16 volume_name[F2FS_VOLUME_NAME_UNITS];
	f2fs_le32 extension_count;
	uint8_t   extension_list[F2FS_MAX_EXTENSION][F2FS_EXTENSION_LEN];
	f2fs_le32 cp_payload;
	uint8_t   version[F2FS_VERSION_LEN];
	uint8_t   init_version[F2FS_VERSION_LEN];
	f2fs_le32 feature;
	uint8_t   encryption_level;
	uint8_t   encrypt_pw_salt[16];
	struct f2fs_device devs[F2FS_MAX_DEVICES];
	f2fs_le32 qf_ino[F2FS_MAX_QUOTAS];
	uint8_t   hot_ext_count;
	f2fs_le16 s_encoding;
	f2fs_le16 s_encoding_flags;
	uint8_t   s_stop_reason[32];
	uint8_t   s_errors[16];
	uint8_t   reserved[258];
	f2fs_le32 crc;
} F2FS_PACKED;

/* ---- checkpoint ------------------------------------------------------- */
#define F2FS_CP_PACKS            2
#define F2FS_CP_CHKSUM_OFFSET    4092u
#define F2FS_CP_MIN_CHKSUM_OFFSET 192u  /* the large-NAT-bitmap form */
#define F2FS_MAX_ACTIVE_LOGS     16
#define F2FS_MAX_ACTIVE_NODE_LOGS 8
#define F2FS_MAX_ACTIVE_DATA_LOGS 8
#define F2FS_NR_CURSEG_TYPE      6
#define F2FS_NR_CURSEG_DATA      3
#define F2FS_NR_CURSEG_NODE      3

enum f2fs_cp_flag {
	F2FS_CP_UMOUNT           = 0x0001,
	F2FS_CP_ORPHAN_PRESENT   = 0x0002,
	F2FS_CP_COMPACT_SUM      = 0x0004,
	F2FS_CP_ERROR            = 0x0008,
	F2FS_CP_FSCK             = 0x0010,
	F2FS_CP_FASTBOOT         = 0x0020,
	F2FS_CP_CRC_RECOVERY     = 0x0040,
	F2FS_CP_NAT_BITS         = 0x0080,
	F2FS_CP_TRIMMED          = 0x0100,
	F2FS_CP_NOCRC_RECOVERY   = 0x0200,
	F2FS_CP_LARGE_NAT_BITMAP = 0x0400,
	F2FS_CP_QUOTA_NEED_FSCK  = 0x0800,
	F2FS_CP_DISABLED         = 0x1000,
	F2FS_CP_DISABLED_QUICK   = 0x2000,
	F2FS_CP_RESIZEFS         = 0x4000,
};
#define F2FS_CP_KNOWN_FLAGS 0x7fffu   /* every flag a kernel sets */

/* segment types: the current-segment logs */
enum f2fs_seg_type {
	F2FS_SEG_HOT_DATA  = 0,
	F2FS_SEG_WARM_DATA = 1,
	F2FS_SEG_COLD_DATA = 2,
	F2FS_SEG_HOT_NODE  = 3,
	F2FS_SEG_WARM_NODE = 4,
	F2FS_SEG_COLD_NODE = 5,
};

struct f2fs_checkpoint {
	f2fs_le64 checkpoint_ver;
	f2fs_le64 user_block_count;
	f2fs_le64 valid_block_count;
	f2fs_le32 rsvd_segment_count;
	f2fs_le32 overprov_segment_count;
	f2fs_le32 free_segment_count;
	f2fs_le32 cur_node_segno[F2FS_MAX_ACTIVE_NODE_LOGS];
	f2fs_le16 cur_node_blkoff[F2FS_MAX_ACTIVE_NODE_LOGS];
	f2fs_le32 cur_data_segno[F2FS_MAX_ACTIVE_DATA_LOGS];
	f2fs_le16 cur_data_blkoff[F2FS_MAX_ACTIVE_DATA_LOGS];
	f2fs_le32 ckpt_flags;
	f2fs_le32 cp_pack_total_block_count;
	f2fs_le32 cp_pack_start_sum;
	f2fs_le32 valid_node_count;
	f2fs_le32 valid_inode_count;
	f2fs_le32 next_free_nid;
	f2fs_le32 sit_ver_bitmap_bytesize;
	f2fs_le32 nat_ver_bitmap_bytesize;
	f2fs_le32 checksum_offset;
	f2fs_le64 elapsed_time;
	uint8_t   alloc_type[F2FS_MAX_ACTIVE_LOGS];   /* F2FS_ALLOC_LFS or _SSR */
	/* version bitmaps follow at byte 192 */
} F2FS_PACKED;

/* alloc_type of a current log */
enum f2fs_alloc_type {
	F2FS_ALLOC_LFS = 0,      /* appends to a free segment */
	F2FS_ALLOC_SSR = 1,      /* fills the free blocks of a used segment */
};

#define F2FS_CP_BITMAP_OFFSET 192u
/* bitmap room in a CP block whose CRC sits at 4092 */
#define F2FS_CP_BITMAP_ROOM   (F2FS_CP_CHKSUM_OFFSET - F2FS_CP_BITMAP_OFFSET)

/* ---- orphan block ----------------------------------------------------- */
#define F2FS_ORPHANS_PER_BLOCK 1020

struct f2fs_orphan_block {
	f2fs_le32 ino[F2FS_ORPHANS_PER_BLOCK];
	f2fs_le32 reserved;
	f2fs_le16 blk_addr;
	f2fs_le16 blk_count;
	f2fs_le32 entry_count;
	f2fs_le32 check_sum;
} F2FS_PACKED;

/* ---- NAT -------------------------------------------------------------- */
struct f2fs_nat_entry {
	uint8_t   version;
	f2fs_le32 ino;
	f2fs_le32 block_addr;
} F2FS_PACKED;

#define F2FS_NAT_ENTRY_PER_BLOCK (F2FS_BLKSIZE / sizeof(struct f2fs_nat_entry))

struct f2fs_nat_block {
	struct f2fs_nat_entry entries[F2FS_NAT_ENTRY_PER_BLOCK];
	uint8_t pad[F2FS_BLKSIZE - F2FS_NAT_ENTRY_PER_BLOCK * sizeof(struct f2fs_nat_entry)];
} F2FS_PACKED;

/* ---- SIT -------------------------------------------------------------- */
#define F2FS_SIT_VBLOCKS_SHIFT 10
#define F2FS_SIT_VBLOCKS_MASK  ((1u << F2FS_SIT_VBLOCKS_SHIFT) - 1)
#define F2FS_SIT_VBLOCK_MAP_SIZE 64

struct f2fs_sit_entry {
	f2fs_le16 vblocks;   /* valid count (bits 0-9) and segment type (10-15) */
	uint8_t   valid_map[F2FS_SIT_VBLOCK_MAP_SIZE];  /* MSB-first per byte */
	f2fs_le64 mtime;
} F2FS_PACKED;

#define F2FS_SIT_ENTRY_PER_BLOCK (F2FS_BLKSIZE / sizeof(struct f2fs_sit_entry))

struct f2fs_sit_block {
	struct f2fs_sit_entry entries[F2FS_SIT_ENTRY_PER_BLOCK];
	uint8_t pad[F2FS_BLKSIZE - F2FS_SIT_ENTRY_PER_BLOCK * sizeof(struct f2fs_sit_entry)];
} F2FS_PACKED;

/* ---- summaries and journals ------------------------------------------- */
#define F2FS_ENTRIES_IN_SUM    512
#define F2FS_SUMMARY_SIZE      7
#define F2FS_SUM_FOOTER_SIZE   5
#define F2FS_SUM_ENTRY_SIZE    (F2FS_SUMMARY_SIZE * F2FS_ENTRIES_IN_SUM)
#define F2FS_SUM_JOURNAL_SIZE  (F2FS_BLKSIZE - F2FS_SUM_FOOTER_SIZE - F2FS_SUM_ENTRY_SIZE)
#define F2FS_SUM_TYPE_DATA     0
#define F2FS_SUM_TYPE_NODE     1

struct f2fs_summary {
	f2fs_le32 nid;
	uint8_t   version;
	f2fs_le16 ofs_in_node;
} F2FS_PACKED;

struct f2fs_summary_footer {
	uint8_t   entry_type;
	f2fs_le32 check_sum;
} F2FS_PACKED;

struct f2fs_nat_journal_entry {
	f2fs_le32 nid;
	struct f2fs_nat_entry ne;
} F2FS_PACKED;

struct f2fs_sit_journal_entry {
	f2fs_le32 segno;
	struct f2fs_sit_entry se;
} F2FS_PACKED;

#define F2FS_NAT_JOURNAL_ENTRIES \
	((F2FS_SUM_JOURNAL_SIZE - 2) / sizeof(struct f2fs_nat_journal_entry))
#define F2FS_SIT_JOURNAL_ENTRIES \
	((F2FS_SUM_JOURNAL_SIZE - 2) / sizeof(struct f2fs_sit_journal_entry))
#define F2FS_NAT_JOURNAL_RESERVED \
	((F2FS_SUM_JOURNAL_SIZE - 2) % sizeof(struct f2fs_nat_journal_entry))
#define F2FS_SIT_JOURNAL_RESERVED \
	((F2FS_SUM_JOURNAL_SIZE - 2) % sizeof(struct f2fs_sit_journal_entry))
#define F2FS_EXTRA_INFO_RESERVED (F2FS_SUM_JOURNAL_SIZE - 2 - 8)

struct f2fs_nat_journal {
	struct f2fs_nat_journal_entry entries[F2FS_NAT_JOURNAL_ENTRIES];
	uint8_t reserved[F2FS_NAT_JOURNAL_RESERVED];
} F2FS_PACKED;

struct f2fs_sit_journal {
	struct f2fs_sit_journal_entry entries[F2FS_SIT_JOURNAL_ENTRIES];
	uint8_t reserved[F2FS_SIT_JOURNAL_RESERVED];
} F2FS_PACKED;

struct f2fs_extra_info {
	f2fs_le64 kbytes_written;
	uint8_t   reserved[F2FS_EXTRA_INFO_RESERVED];
} F2FS_PACKED;

/* A journal: a count (n_nats or n_sits) and one of three bodies. */
struct f2fs_journal {
	f2fs_le16 n_entries;
	union {
		struct f2fs_nat_journal nat_j;
		struct f2fs_sit_journal sit_j;
		struct f2fs_extra_info info;
	};
} F2FS_PACKED;

struct f2fs_summary_block {
	struct f2fs_summary entries[F2FS_ENTRIES_IN_SUM];
	struct f2fs_journal journal;
	struct f2fs_summary_footer footer;
} F2FS_PACKED;

/* ---- node blocks ------------------------------------------------------ */
#define F2FS_DEF_ADDRS_PER_INODE 923
#define F2FS_DEF_NIDS_PER_INODE  5
#define F2FS_ADDRS_PER_BLOCK     1018
#define F2FS_NIDS_PER_BLOCK      1018
#define F2FS_DEF_INLINE_XATTR_ADDRS 50
#define F2FS_NAME_LEN            255
#define F2FS_XATTR_NODE_OFFSET   0x1FFFFFFFu   /* all offset bits set */

enum f2fs_node_flag {
	F2FS_NODE_COLD  = 0x1,
	F2FS_NODE_FSYNC = 0x2,
	F2FS_NODE_DENT  = 0x4,
};
#define F2FS_NODE_OFS_SHIFT 3

struct f2fs_node_footer {
	f2fs_le32 nid;
	f2fs_le32 ino;
	f2fs_le32 flag;          /* flags (bits 0-2) and node offset (bits 3-31) */
	f2fs_le64 cp_ver;
	f2fs_le32 next_blkaddr;
} F2FS_PACKED;

/* i_inline flags */
enum f2fs_inline_flag {
	F2FS_INLINE_XATTR      = 0x01,
	F2FS_INLINE_DATA       = 0x02,
	F2FS_INLINE_DENTRY     = 0x04,
	F2FS_DATA_EXIST        = 0x08,
	F2FS_INLINE_DOTS       = 0x10,
	F2FS_EXTRA_ATTR        = 0x20,
	F2FS_PIN_FILE          = 0x40,
	F2FS_COMPRESS_RELEASED = 0x80,
};

/* i_flags */
enum f2fs_inode_flag {
	F2FS_COMPR_FL     = 0x00000004,
	F2FS_SYNC_FL      = 0x00000008,
	F2FS_IMMUTABLE_FL = 0x00000010,
	F2FS_APPEND_FL    = 0x00000020,
	F2FS_NODUMP_FL    = 0x00000040,
	F2FS_NOATIME_FL   = 0x00000080,
	F2FS_NOCOMP_FL    = 0x00000400,
	F2FS_INDEX_FL     = 0x00001000,
	F2FS_DIRSYNC_FL   = 0x00010000,
	F2FS_PROJINHERIT_FL = 0x20000000,
	F2FS_CASEFOLD_FL  = 0x40000000,
};

/* i_mode file-type bits, as Linux stores them */
#define F2FS_S_IFMT   0170000
#define F2FS_S_IFSOCK 0140000
#define F2FS_S_IFLNK  0120000
#define F2FS_S_IFREG  0100000
#define F2FS_S_IFBLK  0060000
#define F2FS_S_IFDIR  0040000
#define F2FS_S_IFCHR  0020000
#define F2FS_S_IFIFO  0010000

struct f2fs_extent {
	f2fs_le32 fofs;
	f2fs_le32 blk;
	f2fs_le32 len;
} F2FS_PACKED;

/* Extra attributes overlay the start of i_addr when F2FS_EXTRA_ATTR is set. */
struct f2fs_inode_extra {
	f2fs_le16 i_extra_isize;
	f2fs_le16 i_inline_xattr_size;   /* in 4-byte words */
	f2fs_le32 i_projid;
	f2fs_le32 i_inode_checksum;
	f2fs_le64 i_crtime;
	f2fs_le32 i_crtime_nsec;
	f2fs_le64 i_compr_blocks;
	uint8_t   i_compress_algorithm;
	uint8_t   i_log_cluster_size;
	f2fs_le16 i_compress_flag;
} F2FS_PACKED;

/* i_advise bits. Whether an inode is encrypted (fscrypt) is kept here,
 * not in i_flags: the kernel reports FS_ENCRYPT_FL from this bit. */
enum f2fs_advise_flag {
	F2FS_ADVISE_COLD      = 0x01,
	F2FS_ADVISE_LOST_PINO = 0x02,
	F2FS_ADVISE_ENCRYPT   = 0x04,   /* the content (a directory: its names) is cipher text */
	F2FS_ADVISE_ENC_NAME  = 0x08,   /* the inode's own i_name is cipher text */
	F2FS_ADVISE_KEEP_SIZE = 0x10,   /* i_size is kept (fallocate KEEP_SIZE) */
	F2FS_ADVISE_HOT       = 0x20,
	F2FS_ADVISE_VERITY    = 0x40,
	F2FS_ADVISE_TRUNC     = 0x80,
};

/* extra sizes up to and including each optional field */
#define F2FS_EXTRA_ISIZE_BASE     4u   /* i_extra_isize + i_inline_xattr_size */
#define F2FS_EXTRA_ISIZE_PROJID   8u
#define F2FS_EXTRA_ISIZE_CHKSUM   12u
#define F2FS_EXTRA_ISIZE_CRTIME   24u
#define F2FS_EXTRA_ISIZE_COMPRESS 36u

struct f2fs_inode {
	f2fs_le16 i_mode;
	uint8_t   i_advise;
	uint8_t   i_inline;
	f2fs_le32 i_uid;
	f2fs_le32 i_gid;
	f2fs_le32 i_links;
	f2fs_le64 i_size;
	f2fs_le64 i_blocks;
	f2fs_le64 i_atime;
	f2fs_le64 i_ctime;
	f2fs_le64 i_mtime;
	f2fs_le32 i_atime_nsec;
	f2fs_le32 i_ctime_nsec;
	f2fs_le32 i_mtime_nsec;
	f2fs_le32 i_generation;
	f2fs_le32 i_current_depth;   /* directories; i_gc_failures for files */
	f2fs_le32 i_xattr_nid;
	f2fs_le32 i_flags;
	f2fs_le32 i_pino;
	f2fs_le32 i_namelen;
	uint8_t   i_name[F2FS_NAME_LEN];
	uint8_t   i_dir_level;
	struct f2fs_extent i_ext;
	union {
		struct f2fs_inode_extra extra;
		f2fs_le32 i_addr[F2FS_DEF_ADDRS_PER_INODE];
	};
	f2fs_le32 i_nid[F2FS_DEF_NIDS_PER_INODE];
} F2FS_PACKED;

#define F2FS_INODE_CHKSUM_OFFSET 368u   /* byte offset of i_inode_checksum */

struct f2fs_direct_node {
	f2fs_le32 addr[F2FS_ADDRS_PER_BLOCK];
} F2FS_PACKED;

struct f2fs_indirect_node {
	f2fs_le32 nid[F2FS_NIDS_PER_BLOCK];
} F2FS_PACKED;

struct f2fs_node {
	union {
		struct f2fs_inode i;
		struct f2fs_direct_node dn;
		struct f2fs_indirect_node in;
	};
	struct f2fs_node_footer footer;
} F2FS_PACKED;

/* ---- directories ------------------------------------------------------ */
#define F2FS_SLOT_LEN            8
#define F2FS_NR_DENTRY_IN_BLOCK  214
#define F2FS_DENTRY_BITMAP_SIZE  ((F2FS_NR_DENTRY_IN_BLOCK + 7) / 8)
#define F2FS_DENTRY_RESERVED     (F2FS_BLKSIZE - \
	(F2FS_DENTRY_BITMAP_SIZE + F2FS_NR_DENTRY_IN_BLOCK * \
	 (sizeof(struct f2fs_dir_entry) + F2FS_SLOT_LEN)))
#define F2FS_MAX_DIR_HASH_DEPTH  63
#define F2FS_MAX_DIR_BUCKETS     (1u << 30)

enum f2fs_file_type {
	F2FS_FT_UNKNOWN = 0,
	F2FS_FT_REG_FILE,
	F2FS_FT_DIR,
	F2FS_FT_CHRDEV,
	F2FS_FT_BLKDEV,
	F2FS_FT_FIFO,
	F2FS_FT_SOCK,
	F2FS_FT_SYMLINK,
	F2FS_FT_MAX,
};

struct f2fs_dir_entry {
	f2fs_le32 hash_code;
	f2fs_le32 ino;
	f2fs_le16 name_len;
	uint8_t   file_type;
} F2FS_PACKED;

struct f2fs_dentry_block {
	uint8_t dentry_bitmap[F2FS_DENTRY_BITMAP_SIZE];   /* LSB-first */
	uint8_t reserved[3];
	struct f2fs_dir_entry dentry[F2FS_NR_DENTRY_IN_BLOCK];
	uint8_t filename[F2FS_NR_DENTRY_IN_BLOCK][F2FS_SLOT_LEN];
} F2FS_PACKED;

/*
 * Inline dentries have no fixed struct: their geometry depends on the
 * inode's extra size and inline xattr size (see <f2fs/inode.h>).
 */

/* ---- extended attributes ---------------------------------------------- */
#define F2FS_XATTR_MAGIC       0xF2F52011u
#define F2FS_XATTR_ALIGN       4u

enum f2fs_xattr_index {
	F2FS_XATTR_INDEX_USER              = 1,
	F2FS_XATTR_INDEX_POSIX_ACL_ACCESS  = 2,
	F2FS_XATTR_INDEX_POSIX_ACL_DEFAULT = 3,
	F2FS_XATTR_INDEX_TRUSTED           = 4,
	F2FS_XATTR_INDEX_LUSTRE            = 5,
	F2FS_XATTR_INDEX_SECURITY          = 6,
	F2FS_XATTR_INDEX_ADVISE            = 7,
	F2FS_XATTR_INDEX_ENCRYPTION        = 9,
	F2FS_XATTR_INDEX_VERITY            = 11,
};

struct f2fs_xattr_header {
	f2fs_le32 h_magic;
	f2fs_le32 h_refcount;
	f2fs_le32 h_reserved[4];
} F2FS_PACKED;

struct f2fs_xattr_entry {
	uint8_t   e_name_index;
	uint8_t   e_name_len;
	f2fs_le16 e_value_size;
	char      e_name[];
} F2FS_PACKED;

/* ---- nat_bits --------------------------------------------------------- */
/* header: checkpoint_ver | (cp crc << 32), then full and empty bitmaps */
#define F2FS_NAT_BITS_HEADER_SIZE 8u

/* ---- sizes pinned ----------------------------------------------------- */
_Static_assert(sizeof(struct f2fs_device) == 68, "device entry");
_Static_assert(sizeof(struct f2fs_super_block) == 3072, "superblock");
_Static_assert(__builtin_offsetof(struct f2fs_super_block, crc) == F2FS_SB_CHECKSUM_OFFSET, "sb crc");
_Static_assert(__builtin_offsetof(struct f2fs_super_block, qf_ino) == 0xAB9, "sb qf_ino");
_Static_assert(__builtin_offsetof(struct f2fs_super_block, s_encoding) == 0xAC6, "sb encoding");
_Static_assert(sizeof(struct f2fs_checkpoint) == F2FS_CP_BITMAP_OFFSET, "checkpoint");
_Static_assert(sizeof(struct f2fs_orphan_block) == F2FS_BLKSIZE, "orphan block");
_Static_assert(sizeof(struct f2fs_nat_entry) == 9, "nat entry");
_Static_assert(F2FS_NAT_ENTRY_PER_BLOCK == 455, "nat entries per block");
_Static_assert(sizeof(struct f2fs_nat_block) == F2FS_BLKSIZE, "nat block");
_Static_assert(sizeof(struct f2fs_sit_entry) == 74, "sit entry");
_Static_assert(F2FS_SIT_ENTRY_PER_BLOCK == 55, "sit entries per block");
_Static_assert(sizeof(struct f2fs_sit_block) == F2FS_BLKSIZE, "sit block");
_Static_assert(sizeof(struct f2fs_summary) == F2FS_SUMMARY_SIZE, "summary entry");
_Static_assert(sizeof(struct f2fs_summary_footer) == F2FS_SUM_FOOTER_SIZE, "summary footer");
_Static_assert(F2FS_SUM_JOURNAL_SIZE == 507, "journal size");
_Static_assert(F2FS_NAT_JOURNAL_ENTRIES == 38, "nat journal entries");
_Static_assert(F2FS_SIT_JOURNAL_ENTRIES == 6, "sit journal entries");
_Static_assert(sizeof(struct f2fs_journal) == F2FS_SUM_JOURNAL_SIZE, "journal");
_Static_assert(sizeof(struct f2fs_summary_block) == F2FS_BLKSIZE, "summary block");
_Static_assert(sizeof(struct f2fs_node_footer) == 24, "node footer");
_Static_assert(sizeof(struct f2fs_extent) == 12, "extent");
_Static_assert(sizeof(struct f2fs_inode_extra) == F2FS_EXTRA_ISIZE_COMPRESS, "inode extra");
_Static_assert(__builtin_offsetof(struct f2fs_inode, i_addr) == 360, "i_addr");
_Static_assert(__builtin_offsetof(struct f2fs_inode, extra.i_inode_checksum) == F2FS_INODE_CHKSUM_OFFSET, "inode checksum");
_Static_assert(sizeof(struct f2fs_inode) == 4072, "inode");
_Static_assert(sizeof(struct f2fs_direct_node) == 4072, "direct node");
_Static_assert(sizeof(struct f2fs_indirect_node) == 4072, "indirect node");
_Static_assert(sizeof(struct f2fs_node) == F2FS_BLKSIZE, "node block");
_Static_assert(sizeof(struct f2fs_dir_entry) == 11, "dir entry");
_Static_assert(F2FS_DENTRY_BITMAP_SIZE == 27, "dentry bitmap");
_Static_assert(sizeof(struct f2fs_dentry_block) == F2FS_BLKSIZE, "dentry block");
_Static_assert(sizeof(struct f2fs_xattr_header) == 24, "xattr header");
_Static_assert(sizeof(struct f2fs_xattr_entry) == 4, "xattr entry");

#endif
