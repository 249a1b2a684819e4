/*
 * The image builder: allocation of nids and blocks in the six logs as the
 * kernel would place them, the NAT and SIT that follow, and the checkpoint
 * that seals them. mkfs uses it for the initial inodes and for --rootdir.
 * Internal to lib/.
 */
#ifndef F2FS_BUILD_H
#define F2FS_BUILD_H

#include <stdbool.h>
#include <stdint.h>

#include <f2fs/io/dev.h>
#include <f2fs/util/error.h>
#include <f2fs/format/format.h>
#include <f2fs/format/layout.h>
#include <f2fs/write/block_io.h>

struct bld_log {
	uint32_t segno;
	uint16_t blkoff;
	uint8_t valid_map[F2FS_SIT_VBLOCK_MAP_SIZE];
	struct f2fs_summary sum[F2FS_ENTRIES_IN_SUM];
};

/* Per main-area segment: valid blocks (closed segments are always full). */
struct bld_seg {
	uint16_t valid;
	uint8_t type;       /* enum f2fs_seg_type */
	uint8_t taken;      /* belongs to a log, now or before */
};

struct bld_nat {
	uint32_t ino, blkaddr;
};

struct bld {
	const struct f2fs_layout *l;
	struct f2fs_dev *vol;              /* the layout's devices as one volume */
	uint32_t features;
	uint64_t cp_ver;
	uint32_t crc_seed;
	struct bld_log log[F2FS_NR_CURSEG_TYPE];
	struct bld_seg *seg;               /* segment_count_main entries */
	uint32_t next_sec;                 /* where new sections are looked for */
	uint32_t taken_segs;               /* segments a log has used */
	uint32_t *closed;                  /* full segments, in closing order */
	size_t nclosed, closed_cap;
	struct bld_nat *nat;               /* indexed by nid */
	uint32_t nat_cap, max_nid, next_nid;
	uint64_t valid_blocks;
	uint32_t valid_nodes, valid_inodes;
	bool trimmed;
	/* main-area sections in a zone that is written at its write pointer
	 * only (NULL: none): nothing is written past a log's end there */
	const uint8_t *seq_sections;
	uint32_t unsynced;                 /* blocks written since the last sync */
	struct f2fs_journal nat_journal, sit_journal;   /* made by bld_finish */
	uint32_t qf_ino[F2FS_MAX_QUOTAS];
	uint32_t lpf_ino;
	struct f2fs_error *err;
};

int bld_init(struct bld *b, const struct f2fs_layout *l, struct f2fs_dev *vol,
	     uint32_t features, uint64_t cp_ver, uint32_t crc_seed, struct f2fs_error *err);
void bld_free(struct bld *b);

/* The next free nid, or 0 with an error when the NAT is full. */
uint32_t bld_alloc_nid(struct bld *b);

/*
 * Take the next block of log t for (nid, ofs_in_node); closes full segments
 * (their summaries go to the SSA) and opens new ones. 0 or -errcode.
 */
int bld_alloc_block(struct bld *b, enum f2fs_seg_type t, uint32_t nid,
		    uint16_t ofs_in_node, uint32_t *blkaddr);

/*
 * Zero the block where the warm and cold node logs go on, unless the log has
 * not moved since mkfs cleared it: roll-forward recovery at mount reads the
 * warm node log from there, and must not take what an earlier use of the
 * device left for a node of this checkpoint.
 */
int bld_end_node_logs(struct bld *b);

/* Queue a 4 KiB block for writing at an absolute block address. */
int bld_write(struct bld *b, uint64_t blkaddr, const void *data);

/* bld_write as the write layer's block writer (no reader: all is fresh). */
void bld_block_io(struct bld *b, struct f2fs_block_io *io);

int bld_set_nat(struct bld *b, uint32_t nid, uint32_t ino, uint32_t blkaddr);

/* Blocks still free for users (valid_block_count may not pass user_block_count). */
uint64_t bld_blocks_left(const struct bld *b);

/*
 * Write what the logs and the NAT imply through the write layer: SIT
 * entries of closed segments, NAT blocks (sparse NAT-block sets go into the
 * checkpoint's NAT journal instead, so each written NAT block is written
 * once), and fill the journals.
 */
int bld_finish(struct bld *b);

/* Write both checkpoint packs (pack 2 one version older) and their nat_bits. */
int bld_write_checkpoints(struct bld *b);

/* ---- nodes: an inode and the direct/indirect nodes that map its blocks --- */

struct bld_open_node {
	struct f2fs_node blk;
	uint32_t nid, ofs;       /* nid and node offset (footer) */
	bool open;
};

struct bld_file {
	struct bld *b;
	struct f2fs_node *inode;   /* caller-owned inode block */
	uint32_t ino;
	uint32_t addrs;            /* data pointers in the inode */
	bool dir;                  /* directories' nodes go to the hot log */
	uint64_t node_blocks;      /* direct/indirect/xattr nodes written */
	struct bld_open_node dn;   /* the direct node being filled */
	struct bld_open_node in;   /* its indirect parent, if any */
	struct bld_open_node din;  /* the double-indirect node, if in use */
};

void bld_file_start(struct bld_file *f, struct bld *b, struct f2fs_node *inode,
		    uint32_t ino, bool dir);

/*
 * Where file block idx is recorded: the owning node's nid and the index in
 * its pointer array (blocks must come in increasing idx order; holes are
 * simply skipped). Opens nodes as needed.
 */
int bld_file_slot(struct bld_file *f, uint64_t idx, uint32_t *nid, uint16_t *ofs);

/* Record the address of file block idx (after bld_file_slot for idx). */
void bld_file_set(struct bld_file *f, uint64_t idx, uint32_t blkaddr);

/* Write the nodes still open. */
int bld_file_finish(struct bld_file *f);

/*
 * Write a node block (not an inode): allocate it in the node log, fill the
 * footer, record the NAT entry.
 */
int bld_write_node(struct bld *b, struct f2fs_node *n, uint32_t nid, uint32_t ino,
		   uint32_t ofs, bool dir, enum f2fs_seg_type log);

/* Write an inode block (footer, checksum, NAT, counters) into log. */
int bld_write_inode(struct bld *b, struct f2fs_node *n, uint32_t ino, bool dir,
		    enum f2fs_seg_type log);

/* ---- directories ---------------------------------------------------------- */

struct bld_dirent {
	const uint8_t *name;
	uint16_t len;
	uint32_t ino;
	uint8_t type;
};

/*
 * Write a directory's entries ("." and ".." are added) as inline dentries
 * when allowed and they fit, else as dentry blocks placed by hash level the
 * way the kernel looks them up; then write its inode (prepared by the
 * caller; size, depth, pointers and i_blocks are set here).
 */
int bld_write_dir(struct bld *b, struct f2fs_node *inode, uint32_t ino, uint32_t parent,
		  const struct bld_dirent *ents, size_t n, bool allow_inline);

/* ---- extended attributes ----------------------------------------------- */

/* Room for the xattr buffer: inline area plus one xattr node. */
#define BLD_XATTR_MAX (F2FS_DEF_INLINE_XATTR_ADDRS * 4 + \
		       (F2FS_BLKSIZE - sizeof(struct f2fs_node_footer)))

/*
 * Encode the xattrs of a host file (user., trusted., security. and POSIX
 * ACLs, converted to F2FS's ACL form) into buf: header, entries, zero end.
 * *len = 0 when it has none.
 */
int bld_xattr_read(const char *path, uint8_t *buf, size_t cap, size_t *len,
		   struct f2fs_error *err);

/*
 * Place an encoded buffer: the first inline_bytes into the inode's inline
 * xattr area, the rest into a new xattr node. Returns the node blocks used
 * (0 or 1) in *nodes.
 */
int bld_xattr_store(struct bld *b, struct f2fs_node *inode, uint32_t ino, bool dir,
		    const uint8_t *buf, size_t len, uint32_t *nodes);

#endif
