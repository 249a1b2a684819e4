/* Superblock: encode from a layout, validate as the kernel does, read. */
#include <f2fs/format/super.h>
#include <f2fs/format/crc.h>
#include <f2fs/format/endian.h>
#include <f2fs/format/feature.h>
#include <f2fs/format/utf16.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const default_cold_exts[] = {
	"mp", "wm", "og", "jp", "avi", "m4v", "m4p", "mkv", "mov", "webm",
	"wav", "m4a", "3gp", "opus", "flac", "gif", "png", "svg", "webp",
	"jar", "deb", "iso", "gz", "xz", "zst", "pdf", "pyc", "ttc", "ttf",
	"exe", "apk", "cnt", "exo", "odex", "vdex", "so",
};

static const char *const default_hot_exts[] = { "db", "vmdk", "vdi", "qcow2" };

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

struct ext_table {
	uint8_t (*slot)[F2FS_EXTENSION_LEN];
	uint32_t used;
};

static int ext_add(struct ext_table *t, const char *ext, size_t len,
		   const char *opt, struct f2fs_error *err)
{
	if (len == 0)
		return 0;
	if (len >= F2FS_EXTENSION_LEN)
		return f2fs_fail(err, -F2FS_E_BAD_OPTION,
				 "%s: extension \"%.*s\" is longer than %d characters",
				 opt, (int)len, ext, F2FS_EXTENSION_LEN - 1);
	for (uint32_t i = 0; i < t->used; i++)
		if (strlen((char *)t->slot[i]) == len &&
		    memcmp(t->slot[i], ext, len) == 0)
			return 0;
	if (t->used == F2FS_MAX_EXTENSION)
		return f2fs_fail(err, -F2FS_E_BAD_OPTION,
				 "%s: more than %d extensions in all", opt,
				 F2FS_MAX_EXTENSION);
	memcpy(t->slot[t->used++], ext, len);
	return 0;
}

/* Add the defaults, then the user's comma list (skipping duplicates). */
static int ext_add_list(struct ext_table *t, const char *const *defs, size_t ndefs,
			const char *list, const char *opt, struct f2fs_error *err)
{
	int ret = 0;

	for (size_t i = 0; i < ndefs && !ret; i++)
		ret = ext_add(t, defs[i], strlen(defs[i]), opt, err);
	while (list && *list && !ret) {
		size_t len = strcspn(list, ",");

		ret = ext_add(t, list, len, opt, err);
		list += len;
		if (*list == ',')
			list++;
	}
	return ret;
}

static int set_extensions(struct f2fs_super_block *sb, const struct f2fs_sb_options *o,
			  struct f2fs_error *err)
{
	struct ext_table t = { sb->extension_list, 0 };
	uint32_t cold;
	int ret;

	ret = ext_add_list(&t, default_cold_exts, NELEMS(default_cold_exts),
			   o->cold_exts, "-e", err);
	if (ret)
		return ret;
	cold = t.used;
	ret = ext_add_list(&t, default_hot_exts, NELEMS(default_hot_exts),
			   o->hot_exts, "-E", err);
	if (ret)
		return ret;
	sb->extension_count = le32_put(cold);
	sb->hot_ext_count = (uint8_t)(t.used - cold);
	return 0;
}

static void set_geometry(struct f2fs_super_block *sb, const struct f2fs_layout *l)
{
	sb->magic = le32_put(F2FS_SUPER_MAGIC);
	sb->major_ver = le16_put(F2FS_MAJOR_VERSION);
	sb->minor_ver = le16_put(F2FS_MINOR_VERSION);
	sb->log_sectorsize = le32_put(l->log_sectorsize);
	sb->log_sectors_per_block = le32_put(l->log_sectors_per_block);
	sb->log_blocksize = le32_put(F2FS_BLKSIZE_BITS);
	sb->log_blocks_per_seg = le32_put(F2FS_LOG_BLOCKS_PER_SEG);
	sb->segs_per_sec = le32_put(l->segs_per_sec);
	sb->secs_per_zone = le32_put(l->secs_per_zone);
	sb->block_count = le64_put(l->block_count);
	sb->section_count = le32_put(l->section_count);
	sb->segment_count = le32_put(l->segment_count);
	sb->segment_count_ckpt = le32_put(l->segment_count_ckpt);
	sb->segment_count_sit = le32_put(l->segment_count_sit);
	sb->segment_count_nat = le32_put(l->segment_count_nat);
	sb->segment_count_ssa = le32_put(l->segment_count_ssa);
	sb->segment_count_main = le32_put(l->segment_count_main);
	sb->segment0_blkaddr = le32_put(l->segment0_blkaddr);
	sb->cp_blkaddr = le32_put(l->cp_blkaddr);
	sb->sit_blkaddr = le32_put(l->sit_blkaddr);
	sb->nat_blkaddr = le32_put(l->nat_blkaddr);
	sb->ssa_blkaddr = le32_put(l->ssa_blkaddr);
	sb->main_blkaddr = le32_put(l->main_blkaddr);
	sb->root_ino = le32_put(F2FS_ROOT_INO);
	sb->node_ino = le32_put(F2FS_NODE_INO);
	sb->meta_ino = le32_put(F2FS_META_INO);
	sb->cp_payload = le32_put(l->cp_payload);
}

static int set_devices(struct f2fs_super_block *sb, const struct f2fs_layout *l,
		       const struct f2fs_sb_options *o, struct f2fs_error *err)
{
	if (l->ndevs < 2)
		return 0;
	for (uint32_t i = 0; i < l->ndevs; i++) {
		const char *path = o->dev_paths[i];

		if (!path || strlen(path) >= F2FS_MAX_DEVICE_PATH)
			return f2fs_fail(err, -F2FS_E_BAD_OPTION,
					 "-c: device path \"%s\" must be shorter than %d bytes",
					 path ? path : "", F2FS_MAX_DEVICE_PATH);
		memcpy(sb->devs[i].path, path, strlen(path));
		sb->devs[i].total_segments = le32_put(l->devs[i].total_segments);
	}
	return 0;
}

int f2fs_sb_build(struct f2fs_super_block *sb, const struct f2fs_layout *l,
		  const struct f2fs_sb_options *o, struct f2fs_error *err)
{
	int ret;

	memset(sb, 0, sizeof(*sb));
	set_geometry(sb, l);
	memcpy(sb->uuid, o->uuid, sizeof(sb->uuid));
	if (o->label && f2fs_utf8_to_utf16le(o->label, sb->volume_name,
					     F2FS_VOLUME_NAME_UNITS) < 0)
		return f2fs_fail(err, -F2FS_E_BAD_OPTION,
				 "-l: label is not valid UTF-8 or longer than %d UTF-16 units",
				 F2FS_VOLUME_NAME_UNITS);
	ret = set_extensions(sb, o, err);
	if (ret)
		return ret;
	if (o->version) {
		snprintf((char *)sb->version, sizeof(sb->version), "%s", o->version);
		snprintf((char *)sb->init_version, sizeof(sb->init_version), "%s", o->version);
	}
	sb->feature = le32_put(o->features | (l->zoned ? F2FS_FEATURE_BLKZONED : 0));
	for (int i = 0; i < F2FS_MAX_QUOTAS; i++)
		sb->qf_ino[i] = le32_put(o->qf_ino[i]);
	if (o->features & F2FS_FEATURE_CASEFOLD) {
		sb->s_encoding = le16_put(o->encoding);
		sb->s_encoding_flags = le16_put(o->encoding_flags);
	}
	ret = set_devices(sb, l, o, err);
	if (ret)
		return ret;
	if (o->features & F2FS_FEATURE_SB_CHKSUM) {
		sb->checksum_offset = le32_put(F2FS_SB_CHECKSUM_OFFSET);
		sb->crc = le32_put(f2fs_sb_crc(sb));
	}
	return 0;
}

static int bad(struct f2fs_error *err, const char *what, unsigned long long v)
{
	return f2fs_fail(err, -F2FS_E_CORRUPT, "superblock: %s (%llu)", what, v);
}

static int validate_units(const struct f2fs_super_block *sb, struct f2fs_error *err)
{
	uint32_t lss = le32_get(sb->log_sectorsize);

	if (le32_get(sb->magic) != F2FS_SUPER_MAGIC)
		return f2fs_fail(err, -F2FS_E_NOT_F2FS,
				 "no F2FS superblock (magic 0x%08x, expected 0x%08x)",
				 le32_get(sb->magic), F2FS_SUPER_MAGIC);
	if (le32_get(sb->log_blocksize) != F2FS_BLKSIZE_BITS)
		return bad(err, "log_blocksize is not 12", le32_get(sb->log_blocksize));
	if (le32_get(sb->log_blocks_per_seg) != F2FS_LOG_BLOCKS_PER_SEG)
		return bad(err, "log_blocks_per_seg is not 9",
			   le32_get(sb->log_blocks_per_seg));
	if (lss < 9 || lss > 12)
		return bad(err, "log_sectorsize outside 9..12", lss);
	if (le32_get(sb->log_sectors_per_block) + lss != F2FS_BLKSIZE_BITS)
		return bad(err, "log_sectors_per_block + log_sectorsize is not 12",
			   le32_get(sb->log_sectors_per_block));
	if (le32_get(sb->root_ino) != F2FS_ROOT_INO ||
	    le32_get(sb->node_ino) != F2FS_NODE_INO ||
	    le32_get(sb->meta_ino) != F2FS_META_INO)
		return bad(err, "reserved inode numbers are not 3/1/2",
			   le32_get(sb->root_ino));
	return 0;
}

static int validate_counts(const struct f2fs_super_block *sb, uint64_t dev_blocks,
			   struct f2fs_error *err)
{
	uint32_t segs = le32_get(sb->segment_count);
	uint32_t main_segs = le32_get(sb->segment_count_main);
	uint32_t sections = le32_get(sb->section_count);
	uint32_t spsec = le32_get(sb->segs_per_sec);
	uint32_t spz = le32_get(sb->secs_per_zone);
	uint64_t blocks = le64_get(sb->block_count);

	if (segs == 0 || segs > F2FS_MAX_SEGMENTS)
		return bad(err, "segment_count out of range", segs);
	if (segs > blocks / F2FS_BLOCKS_PER_SEG ||
	    le32_get(sb->segment0_blkaddr) + (uint64_t)segs * F2FS_BLOCKS_PER_SEG > blocks)
		return bad(err, "the segments end beyond block_count", segs);
	if (dev_blocks && blocks > dev_blocks)
		return bad(err, "block_count is beyond the end of the device", blocks);
	if (spsec == 0 || spsec > segs)
		return bad(err, "segs_per_sec out of range", spsec);
	if (sections == 0 || sections > main_segs ||
	    (uint64_t)sections * spsec != main_segs)
		return bad(err, "section_count does not match segment_count_main", sections);
	if (spz == 0 || spz > sections)
		return bad(err, "secs_per_zone out of range", spz);
	if (le32_get(sb->segment_count_ckpt) != 2)
		return bad(err, "segment_count_ckpt is not 2", le32_get(sb->segment_count_ckpt));
	if (le32_get(sb->segment_count_sit) < 2 || le32_get(sb->segment_count_sit) % 2 ||
	    le32_get(sb->segment_count_nat) < 2 || le32_get(sb->segment_count_nat) % 2)
		return bad(err, "SIT/NAT segment counts must be even and non-zero",
			   le32_get(sb->segment_count_sit));
	if (le32_get(sb->extension_count) > F2FS_MAX_EXTENSION ||
	    le32_get(sb->extension_count) + sb->hot_ext_count > F2FS_MAX_EXTENSION)
		return bad(err, "too many extensions", le32_get(sb->extension_count));
	if (le32_get(sb->cp_payload) >= F2FS_BLOCKS_PER_SEG - 2 * F2FS_NR_CURSEG_TYPE)
		return bad(err, "cp_payload too large", le32_get(sb->cp_payload));
	return 0;
}

/* Each area must start where the previous one ends, in whole segments. */
static int validate_areas(const struct f2fs_super_block *sb, struct f2fs_error *err)
{
	static const char *const names[] = { "CP", "SIT", "NAT", "SSA", "main" };
	uint64_t start[5] = {
		le32_get(sb->cp_blkaddr), le32_get(sb->sit_blkaddr),
		le32_get(sb->nat_blkaddr), le32_get(sb->ssa_blkaddr),
		le32_get(sb->main_blkaddr),
	};
	uint64_t segs[5] = {
		le32_get(sb->segment_count_ckpt), le32_get(sb->segment_count_sit),
		le32_get(sb->segment_count_nat), le32_get(sb->segment_count_ssa),
		le32_get(sb->segment_count_main),
	};
	uint64_t seg0 = le32_get(sb->segment0_blkaddr);
	uint64_t end = seg0 + (uint64_t)le32_get(sb->segment_count) * F2FS_BLOCKS_PER_SEG;

	if (start[0] != seg0)
		return bad(err, "cp_blkaddr differs from segment0_blkaddr", start[0]);
	for (int i = 0; i < 4; i++)
		if (start[i] + segs[i] * F2FS_BLOCKS_PER_SEG != start[i + 1])
			return f2fs_fail(err, -F2FS_E_CORRUPT,
					 "superblock: the %s area (block %llu, %llu segments) does not end where the %s area starts (block %llu)",
					 names[i], (unsigned long long)start[i],
					 (unsigned long long)segs[i], names[i + 1],
					 (unsigned long long)start[i + 1]);
	if (start[4] + segs[4] * F2FS_BLOCKS_PER_SEG != end)
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "superblock: the main area ends at block %llu, the segments at %llu",
				 (unsigned long long)(start[4] + segs[4] * F2FS_BLOCKS_PER_SEG),
				 (unsigned long long)end);
	if (segs[3] * F2FS_BLOCKS_PER_SEG < segs[4])
		return bad(err, "SSA too small for the main area", segs[3]);
	return 0;
}

static int validate_devices(const struct f2fs_super_block *sb, struct f2fs_error *err)
{
	uint64_t sum = 0;

	if (!sb->devs[0].path[0])
		return 0;
	for (int i = 0; i < F2FS_MAX_DEVICES && sb->devs[i].path[0]; i++)
		sum += le32_get(sb->devs[i].total_segments);
	if (sum != le32_get(sb->segment_count))
		return f2fs_fail(err, -F2FS_E_CORRUPT,
				 "superblock: devices hold %llu segments, segment_count is %u",
				 (unsigned long long)sum, le32_get(sb->segment_count));
	return 0;
}

int f2fs_sb_validate(const struct f2fs_super_block *sb, uint64_t dev_blocks,
		     struct f2fs_error *err)
{
	int ret = validate_units(sb, err);

	if (ret)
		return ret;
	if (le32_get(sb->feature) & F2FS_FEATURE_SB_CHKSUM) {
		uint32_t want = f2fs_sb_crc(sb);

		if (le32_get(sb->checksum_offset) != F2FS_SB_CHECKSUM_OFFSET)
			return bad(err, "checksum_offset is not 3068",
				   le32_get(sb->checksum_offset));
		if (le32_get(sb->crc) != want)
			return f2fs_fail(err, -F2FS_E_BAD_CHECKSUM,
					 "superblock: CRC 0x%08x, computed 0x%08x",
					 le32_get(sb->crc), want);
	}
	ret = validate_counts(sb, dev_blocks, err);
	if (!ret)
		ret = validate_areas(sb, err);
	if (!ret)
		ret = validate_devices(sb, err);
	return ret;
}

unsigned f2fs_sb_ndevs(const struct f2fs_super_block *sb)
{
	unsigned n = 0;

	while (n < F2FS_MAX_DEVICES && sb->devs[n].path[0])
		n++;
	return n;
}

void f2fs_sb_label(const struct f2fs_super_block *sb, char *buf, size_t len)
{
	f2fs_utf16le_to_utf8(sb->volume_name, F2FS_VOLUME_NAME_UNITS, buf, len);
}
