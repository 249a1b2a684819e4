/* Helpers every unit-test program shares. */
#ifndef F2FS_TESTS_UNIT_H
#define F2FS_TESTS_UNIT_H

#include <check.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <f2fs/util/error.h>
#include <f2fs/format/layout.h>
#include <f2fs/build/mkfs.h>

/* Run one suite; the exit status make check reads. */
static inline int unit_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* The default layout (one device, 512-byte sectors) of a device of bytes. */
static inline void unit_layout(uint64_t bytes, struct f2fs_layout *l)
{
	struct f2fs_layout_params p;
	struct f2fs_error err;

	memset(&p, 0, sizeof(p));
	p.ndevs = 1;
	p.dev_bytes[0] = bytes;
	p.sector_size = 512;
	p.segs_per_sec = 1;
	p.secs_per_zone = 1;
	ck_assert_msg(f2fs_layout_compute(&p, l, &err) == 0, "%s", err.msg);
}

/* A new sparse file of bytes at path. */
static inline void unit_sparse_file(const char *path, uint64_t bytes)
{
	int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)bytes), 0);
	close(fd);
}

/* The mkfs options every test starts from: defaults, one device at path,
 * a fixed kernel version. */
static inline void unit_mkfs_opts(struct f2fs_mkfs_options *o, const char *path)
{
	f2fs_mkfs_defaults(o);
	o->devices[0] = path;
	o->ndevs = 1;
	o->kernel_version = "6.1.0-unit";
}

#endif
