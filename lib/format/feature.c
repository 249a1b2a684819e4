/* Feature names and the rules that tie features together. */
#include <f2fs/format/feature.h>
#include <f2fs/format/format.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

struct feature_name {
	uint32_t bit;
	const char *name;
};

static const struct feature_name feature_names[] = {
	{ F2FS_FEATURE_ENCRYPT, "encrypt" },
	{ F2FS_FEATURE_BLKZONED, "blkzoned" },
	{ F2FS_FEATURE_ATOMIC_WRITE, "atomic_write" },
	{ F2FS_FEATURE_EXTRA_ATTR, "extra_attr" },
	{ F2FS_FEATURE_PRJQUOTA, "project_quota" },
	{ F2FS_FEATURE_INODE_CHKSUM, "inode_checksum" },
	{ F2FS_FEATURE_FLEXIBLE_INLINE_XATTR, "flexible_inline_xattr" },
	{ F2FS_FEATURE_QUOTA_INO, "quota" },
	{ F2FS_FEATURE_INODE_CRTIME, "inode_crtime" },
	{ F2FS_FEATURE_LOST_FOUND, "lost_found" },
	{ F2FS_FEATURE_VERITY, "verity" },
	{ F2FS_FEATURE_SB_CHKSUM, "sb_checksum" },
	{ F2FS_FEATURE_CASEFOLD, "casefold" },
	{ F2FS_FEATURE_COMPRESSION, "compression" },
	{ F2FS_FEATURE_RO, "ro" },
};

#define NFEATURES (sizeof(feature_names) / sizeof(feature_names[0]))

const char *f2fs_feature_name(uint32_t bit)
{
	for (size_t i = 0; i < NFEATURES; i++)
		if (feature_names[i].bit == bit)
			return feature_names[i].name;
	return NULL;
}

static int lookup(const char *name, size_t len, uint32_t *bit)
{
	for (size_t i = 0; i < NFEATURES; i++) {
		if (strlen(feature_names[i].name) == len &&
		    strncasecmp(feature_names[i].name, name, len) == 0) {
			*bit = feature_names[i].bit;
			return 1;
		}
	}
	/* a common shorter spelling */
	if (len == 8 && strncasecmp(name, "compress", len) == 0) {
		*bit = F2FS_FEATURE_COMPRESSION;
		return 1;
	}
	return 0;
}

int f2fs_feature_parse(const char *list, uint32_t *features, struct f2fs_error *err)
{
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ", ");
		int clear = (*p == '^');
		uint32_t bit;

		if (clear) {
			p++;
			len--;
		}
		if (len > 0) {
			if (!lookup(p, len, &bit))
				return f2fs_fail(err, -F2FS_E_BAD_OPTION,
						 "-O: unknown feature \"%.*s\"", (int)len, p);
			if (!(bit & F2FS_FEATURES_SUPPORTED))
				return f2fs_fail(err, -F2FS_E_BAD_OPTION,
						 "-O: feature \"%.*s\" cannot be set at format time",
						 (int)len, p);
			if (clear)
				*features &= ~bit;
			else
				*features |= bit;
		}
		p += len;
		while (*p == ',' || *p == ' ')
			p++;
	}
	return 0;
}

int f2fs_feature_check(uint32_t features, struct f2fs_error *err)
{
	static const uint32_t need_extra = F2FS_FEATURE_PRJQUOTA |
		F2FS_FEATURE_INODE_CHKSUM | F2FS_FEATURE_FLEXIBLE_INLINE_XATTR |
		F2FS_FEATURE_INODE_CRTIME | F2FS_FEATURE_COMPRESSION;
	uint32_t missing = features & need_extra;

	if (missing && !(features & F2FS_FEATURE_EXTRA_ATTR)) {
		for (uint32_t b = 1; b; b <<= 1)
			if (missing & b)
				return f2fs_fail(err, -F2FS_E_BAD_OPTION,
						 "-O: %s needs extra_attr (add -O extra_attr)",
						 f2fs_feature_name(b));
	}
	return 0;
}

void f2fs_feature_format(uint32_t features, char *buf, size_t len)
{
	size_t used = 0;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < NFEATURES; i++) {
		if (!(features & feature_names[i].bit))
			continue;
		int n = snprintf(buf + used, len - used, "%s%s", used ? "," : "",
				 feature_names[i].name);
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
	}
	if (used == 0)
		snprintf(buf, len, "none");
}
