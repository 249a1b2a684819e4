/*
 * The checkpoint views: a short human summary (the default text view), and
 * every field with the version bitmaps, nat_bits and both journals (--cp,
 * and the checkpoint of every JSON document), described once for both.
 */
#include "dump.h"

#include <f2fs/format/checkpoint.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/format.h>
#include <f2fs/format/nat_bits.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define FIELD(name) printf("  %-*s ", FIELD_WIDTH, name)

static void print_cp_source(struct f2fs_fs *fs)
{
	const struct f2fs_cp_choice *c = f2fs_fs_cp_choice(fs);

	printf("Checkpoint: pack %d at block %u", c->pack + 1, f2fs_fs_cp_start(fs));
	if (c->other_valid)
		printf(" (pack %d also valid, older)\n", 2 - c->pack);
	else
		printf(" (pack %d invalid: %s)\n", 2 - c->pack,
		       c->other_err.msg[0] ? c->other_err.msg : "unknown reason");
}

/* Current segment and block offset of log t (data logs first, as log_names). */
static uint32_t cur_segno(const struct f2fs_checkpoint *cp, int t)
{
	return t < F2FS_NR_CURSEG_DATA ? le32_get(cp->cur_data_segno[t])
				       : le32_get(cp->cur_node_segno[t - F2FS_NR_CURSEG_DATA]);
}

static uint16_t cur_blkoff(const struct f2fs_checkpoint *cp, int t)
{
	return t < F2FS_NR_CURSEG_DATA ? le16_get(cp->cur_data_blkoff[t])
				       : le16_get(cp->cur_node_blkoff[t - F2FS_NR_CURSEG_DATA]);
}

/* alloc_type[] is indexed like log_names: data logs, then node logs. */
static const char *alloc_name(uint8_t a)
{
	return a == 0 ? "lfs" : a == 1 ? "ssr" : "unknown";
}

void view_cp_summary(struct f2fs_fs *fs)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);

	print_cp_source(fs);
	FIELD("version:");
	printf("0x%" PRIx64 " (%" PRIu64 ")\n", le64_get(cp->checkpoint_ver),
	       le64_get(cp->checkpoint_ver));
	kv_flags("flags", "flags:", le32_get(cp->ckpt_flags), cp_flag_names);
	FIELD("user blocks:");
	printf("%" PRIu64 "\n", le64_get(cp->user_block_count));
	FIELD("valid blocks:");
	printf("%" PRIu64 "\n", le64_get(cp->valid_block_count));
	FIELD("valid nodes / inodes:");
	printf("%u / %u\n", le32_get(cp->valid_node_count), le32_get(cp->valid_inode_count));
	FIELD("next free nid:");
	printf("%u\n", le32_get(cp->next_free_nid));
	FIELD("free segments:");
	printf("%u\n", le32_get(cp->free_segment_count));
	FIELD("reserved / overprov segs:");
	printf("%u / %u\n", le32_get(cp->rsvd_segment_count),
	       le32_get(cp->overprov_segment_count));
	FIELD("current segments:");
	for (int t = 0; t < F2FS_NR_CURSEG_TYPE; t++)
		printf("%s%s %u+%u", t ? ", " : "", log_names[t], cur_segno(cp, t),
		       cur_blkoff(cp, t));
	printf("\n");
	FIELD("elapsed time:");
	printf("%" PRIu64 " s\n", le64_get(cp->elapsed_time));
	FIELD("journals:");
	printf("%u NAT, %u SIT entries\n", le16_get(f2fs_fs_nat_journal(fs)->n_entries),
	       le16_get(f2fs_fs_sit_journal(fs)->n_entries));
}

static void cp_source_fields(struct f2fs_fs *fs)
{
	const struct f2fs_cp_choice *c = f2fs_fs_cp_choice(fs);

	/* JSON only: text says it in the heading line */
	kv_u("pack", NULL, (uint64_t)c->pack + 1);
	kv_u("blkaddr", NULL, f2fs_fs_cp_start(fs));
	kv_u("other_pack_valid", NULL, (uint64_t)c->other_valid);
	if (!c->other_valid)
		kv_s("other_pack_error", NULL, c->other_err.msg[0] ? c->other_err.msg : "unknown reason");
}

static void cp_counters(const struct f2fs_checkpoint *cp)
{
#define U32(f) kv_u(#f, #f, le32_get(cp->f))
#define U64(f) kv_u(#f, #f, le64_get(cp->f))
	U64(checkpoint_ver);
	U64(user_block_count);
	U64(valid_block_count);
	U32(rsvd_segment_count);
	U32(overprov_segment_count);
	U32(free_segment_count);
	kv_flags("ckpt_flags", "ckpt_flags", le32_get(cp->ckpt_flags), cp_flag_names);
	U32(cp_pack_total_block_count);
	U32(cp_pack_start_sum);
	U32(valid_node_count);
	U32(valid_inode_count);
	U32(next_free_nid);
	U32(sit_ver_bitmap_bytesize);
	U32(nat_ver_bitmap_bytesize);
	U32(checksum_offset);
	U64(elapsed_time);
	kv_x("crc", "crc", f2fs_cp_stored_crc(cp));
#undef U32
#undef U64
}

/* The raw arrays (all slots, used or not), then the six logs by name. */
static void cp_logs(const struct f2fs_checkpoint *cp)
{
	static const struct col cols[] = {
		{ "log", "log", -9, COL_S },
		{ "segno", "segno", 10, COL_U },
		{ "blkoff", "blkoff", 6, COL_U },
		{ "alloc", "alloc", -5, COL_S },
	};
	struct table t;

#define ARRAY(f, get, n) do {                   \
		kv_list_begin(#f, #f);                  \
		for (int k = 0; k < (n); k++) {         \
			kv_list_u(get(cp->f[k]));       \
		}                                       \
		kv_list_end();                          \
	} while (0)
	ARRAY(cur_node_segno, le32_get, F2FS_MAX_ACTIVE_NODE_LOGS);
	ARRAY(cur_node_blkoff, le16_get, F2FS_MAX_ACTIVE_NODE_LOGS);
	ARRAY(cur_data_segno, le32_get, F2FS_MAX_ACTIVE_DATA_LOGS);
	ARRAY(cur_data_blkoff, le16_get, F2FS_MAX_ACTIVE_DATA_LOGS);
	ARRAY(alloc_type, (uint8_t), F2FS_MAX_ACTIVE_LOGS);
#undef ARRAY
	tab_begin(&t, "current_segments", "  current segments:", cols, 4);
	for (int k = 0; k < F2FS_NR_CURSEG_TYPE; k++)
		tab_row(&t, (struct cell[]){ CS(log_keys[k]), CU(cur_segno(cp, k)),
			CU(cur_blkoff(cp, k)), CS(alloc_name(cp->alloc_type[k])) });
	tab_end(&t);
}

static void cp_bitmaps(struct f2fs_fs *fs)
{
	const uint8_t *map;
	uint32_t bytes;

	map = f2fs_fs_sit_bitmap(fs, &bytes);
	kv_u("sit_bitmap_blocks", "SIT bitmap blocks", (uint64_t)bytes * 8);
	kv_u("sit_bitmap_copy2", "SIT blocks in copy 2", count_bits(map, bytes));
	map = f2fs_fs_nat_bitmap(fs, &bytes);
	kv_u("nat_bitmap_blocks", "NAT bitmap blocks", (uint64_t)bytes * 8);
	kv_u("nat_bitmap_copy2", "NAT blocks in copy 2", count_bits(map, bytes));
}

/* nat_bits: present, where, and whether its header matches this pack. */
static void cp_nat_bits(struct f2fs_fs *fs)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);
	uint32_t n = f2fs_nat_bits_blocks(f2fs_fs_nat_blocks(fs));
	uint32_t at = f2fs_fs_cp_start(fs) + F2FS_BLOCKS_PER_SEG - n;
	uint64_t want = f2fs_nat_bits_header(le64_get(cp->checkpoint_ver),
					     f2fs_cp_stored_crc(cp));
	struct f2fs_error err;
	uint8_t *blk;

	if (!(le32_get(cp->ckpt_flags) & F2FS_CP_NAT_BITS)) {
		kv_s("nat_bits", "nat_bits", "absent");
		return;
	}
	blk = malloc(F2FS_BLKSIZE);
	if (!blk || n == 0 || n >= F2FS_BLOCKS_PER_SEG || f2fs_fs_read_block(fs, at, blk, &err)) {
		kv_s("nat_bits", "nat_bits", "unreadable");
	} else {
		uint64_t hdr = le64_load(blk);

		kv_s("nat_bits", "nat_bits", hdr == want ? "matches the checkpoint"
							 : "stale: does not match");
		kv_u("nat_bits_blocks", "nat_bits blocks", n);
		kv_u("nat_bits_blkaddr", "nat_bits at block", at);
		kv_x("nat_bits_header", "nat_bits header", hdr);
	}
	free(blk);
}

static void cp_journals(struct f2fs_fs *fs)
{
	static const struct col ncols[] = {
		{ "nid", "nid", 10, COL_U }, { "ino", "ino", 10, COL_U },
		{ "blkaddr", "blkaddr", 10, COL_U }, { "version", "version", 7, COL_U },
	};
	static const struct col scols[] = {
		{ "segno", "segno", 10, COL_U }, { "valid", "valid", 5, COL_U },
		{ "type", "type", 4, COL_U }, { "type_name", "log", -9, COL_S },
	};
	const struct f2fs_journal *nj = f2fs_fs_nat_journal(fs);
	const struct f2fs_journal *sj = f2fs_fs_sit_journal(fs);
	struct table t;

	kv_u("nat_journal_entries", "NAT journal entries", le16_get(nj->n_entries));
	tab_begin(&t, "nat_journal", NULL, ncols, 4);
	for (uint32_t k = 0; k < le16_get(nj->n_entries); k++) {
		const struct f2fs_nat_journal_entry *e = &nj->nat_j.entries[k];

		tab_row(&t, (struct cell[]){ CU(le32_get(e->nid)), CU(le32_get(e->ne.ino)),
			CU(le32_get(e->ne.block_addr)), CU(e->ne.version) });
	}
	tab_end(&t);
	kv_u("sit_journal_entries", "SIT journal entries", le16_get(sj->n_entries));
	tab_begin(&t, "sit_journal", NULL, scols, 4);
	for (uint32_t k = 0; k < le16_get(sj->n_entries); k++) {
		const struct f2fs_sit_journal_entry *e = &sj->sit_j.entries[k];
		uint16_t vb = le16_get(e->se.vblocks);
		uint32_t type = vb >> F2FS_SIT_VBLOCKS_SHIFT;

		tab_row(&t, (struct cell[]){ CU(le32_get(e->segno)), CU(vb & F2FS_SIT_VBLOCKS_MASK),
			CU(type), CS(type < F2FS_NR_CURSEG_TYPE ? log_keys[type] : "invalid") });
	}
	tab_end(&t);
}

void view_cp(struct f2fs_fs *fs)
{
	const struct f2fs_checkpoint *cp = f2fs_fs_cp(fs);

	if (!out_json())
		print_cp_source(fs);
	out_obj_begin("checkpoint", NULL);
	cp_source_fields(fs);
	cp_counters(cp);
	cp_logs(cp);
	cp_bitmaps(fs);
	cp_nat_bits(fs);
	cp_journals(fs);
	out_obj_end();
}
