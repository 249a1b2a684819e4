/* libblkid probe for existing signatures. */
#include <f2fs/io/probe.h>

#include <blkid/blkid.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* "an ext4", "a vfat": the article by the sound of the first letter */
static const char *article(const char *word)
{
	return strchr("aefhilmnorsxAEFHILMNORSX", word[0]) && word[0] ? "an" : "a";
}

static int describe(blkid_probe pr, char *what, size_t len)
{
	const char *type = NULL, *label = NULL;

	if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0) {
		blkid_probe_lookup_value(pr, "LABEL", &label, NULL);
		if (label && *label)
			snprintf(what, len, "%s %s file system (label \"%s\")",
				 article(type), type, label);
		else
			snprintf(what, len, "%s %s file system", article(type), type);
		return 1;
	}
	if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0) {
		snprintf(what, len, "%s %s partition table", article(type), type);
		return 1;
	}
	snprintf(what, len, "an unidentified signature");
	return 1;
}

int f2fs_probe_existing(const char *path, char *what, size_t len,
			struct f2fs_error *err)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	int rc, found;

	if (!pr)
		return f2fs_fail(err, errno ? -errno : -EIO,
				 "cannot probe %s for existing data", path);
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
	rc = blkid_do_safeprobe(pr);
	if (rc == 1) {
		found = 0;
	} else if (rc == -2) {
		snprintf(what, len, "several conflicting signatures");
		found = 1;
	} else if (rc == 0) {
		found = describe(pr, what, len);
	} else {
		found = f2fs_fail(err, -EIO, "cannot probe %s for existing data", path);
	}
	blkid_free_probe(pr);
	return found;
}
