/* F2FS CRC32 through zlib, and the per-structure checksums. */
#include <f2fs/format/crc.h>
#include <f2fs/format/endian.h>

#include <zlib.h>

uint32_t f2fs_crc32(uint32_t seed, const void *buf, size_t len)
{
	/* zlib inverts on the way in and out; F2FS does neither. */
	uLong c = seed ^ 0xFFFFFFFFu;
	const Bytef *p = buf;

	while (len > 0) {
		uInt chunk = len > (1u << 30) ? (1u << 30) : (uInt)len;

		c = crc32(c, p, chunk);
		p += chunk;
		len -= chunk;
	}
	return (uint32_t)c ^ 0xFFFFFFFFu;
}

uint32_t f2fs_sb_crc(const struct f2fs_super_block *sb)
{
	return f2fs_crc32(F2FS_SUPER_MAGIC, sb, F2FS_SB_CHECKSUM_OFFSET);
}

int f2fs_cp_crc(const void *cp_block, uint32_t *crc)
{
	const struct f2fs_checkpoint *cp = cp_block;
	const uint8_t *b = cp_block;
	uint32_t off = le32_get(cp->checksum_offset);
	uint32_t c;

	if (off < F2FS_CP_MIN_CHKSUM_OFFSET || off > F2FS_CP_CHKSUM_OFFSET)
		return 0;
	c = f2fs_crc32(F2FS_SUPER_MAGIC, b, off);
	if (off < F2FS_CP_CHKSUM_OFFSET)
		c = f2fs_crc32(c, b + off + 4, F2FS_BLKSIZE - off - 4);
	*crc = c;
	return 1;
}

uint32_t f2fs_inode_crc_seed(const uint8_t uuid[16])
{
	return f2fs_crc32(0xFFFFFFFFu, uuid, 16);
}

uint32_t f2fs_inode_crc(const struct f2fs_node *node, uint32_t seed)
{
	static const uint8_t zero[4];
	const uint8_t *b = (const uint8_t *)node;
	uint32_t c;

	/* footer.ino and i_generation are already little-endian bytes */
	c = f2fs_crc32(seed, &node->footer.ino, 4);
	c = f2fs_crc32(c, &node->i.i_generation, 4);
	c = f2fs_crc32(c, b, F2FS_INODE_CHKSUM_OFFSET);
	c = f2fs_crc32(c, zero, sizeof(zero));
	return f2fs_crc32(c, b + F2FS_INODE_CHKSUM_OFFSET + 4,
			  F2FS_BLKSIZE - F2FS_INODE_CHKSUM_OFFSET - 4);
}
