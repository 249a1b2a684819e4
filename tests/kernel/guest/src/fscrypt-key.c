/*
 * fscrypt-key: encrypted directories in the kvm-run guest, with one fixed
 * test key. Tests make images holding fscrypt-encrypted files with it (the
 * guest's busybox has no fscrypt tool), then list them with and without the
 * key after the kernel or our fsck recovered them. Built static.
 *
 *   fscrypt-key add MNT      add the key to the filesystem holding MNT
 *                            (FS_IOC_ADD_ENCRYPTION_KEY, a v2 key named by
 *                            its identifier)
 *   fscrypt-key policy DIR   give the empty directory DIR a v2 policy with
 *                            that key: contents AES-256-XTS, names
 *                            AES-256-CTS, names padded to 32 bytes
 *
 * The key is the 64 bytes 0, 1, ..., 63; it is a test key and nothing
 * else. The kernel derives its identifier; "policy" learns it by adding the
 * key once more (adding a key one already added changes nothing), so it
 * works on a filesystem where "add" was not run too. Prints nothing on
 * success; on failure one line on stderr and exit 1 (2: usage).
 *
 * The guest kernel needs the crypto modules xts (with ecb), cts and
 * sha512_generic: kvm-run loads them at boot.
 */
#define _POSIX_C_SOURCE 200809L   /* O_DIRECTORY under -std=c11 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#if defined(__has_include) && !defined(FSCRYPT_KEY_OWN_UAPI)
#if __has_include(<linux/fscrypt.h>)
#include <linux/fscrypt.h>
#endif
#endif

#ifndef FSCRYPT_POLICY_V2
/* The kernel's uapi (linux/fscrypt.h, Linux 5.4 and later), for build
 * machines without it: the parts used here. */
#define FSCRYPT_POLICY_FLAGS_PAD_32 0x03
#define FSCRYPT_MODE_AES_256_XTS 1
#define FSCRYPT_MODE_AES_256_CTS 4
#define FSCRYPT_POLICY_V2 2
#define FSCRYPT_KEY_IDENTIFIER_SIZE 16
#define FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER 2

struct fscrypt_policy_v1 {   /* only its size is used: the ioctl number */
	uint8_t version, contents_encryption_mode, filenames_encryption_mode, flags;
	uint8_t master_key_descriptor[8];
};

struct fscrypt_policy_v2 {
	uint8_t version;
	uint8_t contents_encryption_mode;
	uint8_t filenames_encryption_mode;
	uint8_t flags;
	uint8_t __reserved[4];
	uint8_t master_key_identifier[FSCRYPT_KEY_IDENTIFIER_SIZE];
};

struct fscrypt_key_specifier {
	uint32_t type;
	uint32_t __reserved;
	union {
		uint8_t __reserved[32];
		uint8_t identifier[FSCRYPT_KEY_IDENTIFIER_SIZE];
	} u;
};

struct fscrypt_add_key_arg {
	struct fscrypt_key_specifier key_spec;
	uint32_t raw_size;
	uint32_t key_id;
	uint32_t __reserved[8];
	uint8_t raw[];
};

#define FS_IOC_SET_ENCRYPTION_POLICY _IOR('f', 19, struct fscrypt_policy_v1)
#define FS_IOC_ADD_ENCRYPTION_KEY _IOWR('f', 23, struct fscrypt_add_key_arg)
#endif

_Static_assert(sizeof(struct fscrypt_add_key_arg) == 80, "fscrypt_add_key_arg layout");
_Static_assert(sizeof(struct fscrypt_policy_v2) == 24, "fscrypt_policy_v2 layout");

#define KEY_SIZE 64   /* FSCRYPT_MAX_KEY_SIZE; AES-256-XTS uses all of it */

static const char *cmd, *path;

static int fail(void)
{
	int e = errno;
	const char *hint = "";

	if (e == EOPNOTSUPP)
		hint = " (a filesystem without the encrypt feature? mkfs -O encrypt)";
	else if (e == ENOPKG)
		hint = " (the kernel lacks a crypto algorithm: xts, cts, sha512 loaded?)";
	else if (e == ENOKEY)
		hint = " (the key is not added: fscrypt-key add MNT)";
	fprintf(stderr, "fscrypt-key: %s %s: %s%s\n", cmd, path, strerror(e), hint);
	return 1;
}

/* Add the key to the filesystem of fd; its identifier goes to id. */
static int add_key(int fd, uint8_t id[FSCRYPT_KEY_IDENTIFIER_SIZE])
{
	union {   /* the argument with the key bytes after it, aligned */
		struct fscrypt_add_key_arg arg;
		uint8_t bytes[sizeof(struct fscrypt_add_key_arg) + KEY_SIZE];
	} u;
	int ret;

	memset(&u, 0, sizeof(u));
	u.arg.key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	u.arg.raw_size = KEY_SIZE;
	for (int i = 0; i < KEY_SIZE; i++)
		u.arg.raw[i] = (uint8_t)i;
	ret = ioctl(fd, FS_IOC_ADD_ENCRYPTION_KEY, &u.arg);
	if (ret == 0)
		memcpy(id, u.arg.key_spec.u.identifier, FSCRYPT_KEY_IDENTIFIER_SIZE);
	memset(&u, 0, sizeof(u));
	return ret;
}

int main(int argc, char **argv)
{
	uint8_t id[FSCRYPT_KEY_IDENTIFIER_SIZE];
	int fd;

	if (argc != 3 || (strcmp(argv[1], "add") && strcmp(argv[1], "policy"))) {
		fprintf(stderr, "usage: fscrypt-key add MNT | fscrypt-key policy DIR\n");
		return 2;
	}
	cmd = argv[1];
	path = argv[2];
	fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || add_key(fd, id) != 0)
		return fail();
	if (!strcmp(cmd, "policy")) {
		struct fscrypt_policy_v2 pol;

		memset(&pol, 0, sizeof(pol));
		pol.version = FSCRYPT_POLICY_V2;
		pol.contents_encryption_mode = FSCRYPT_MODE_AES_256_XTS;
		pol.filenames_encryption_mode = FSCRYPT_MODE_AES_256_CTS;
		pol.flags = FSCRYPT_POLICY_FLAGS_PAD_32;
		memcpy(pol.master_key_identifier, id, sizeof(id));
		if (ioctl(fd, FS_IOC_SET_ENCRYPTION_POLICY, &pol) != 0)
			return fail();
	}
	close(fd);
	return 0;
}
