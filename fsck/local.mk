# fsck.f2fs and its checker, a library of fsck's own (linked by fsck.f2fs,
# its unit tests and the fuzz target; not part of lib/). Included from
# Makefile.am.
noinst_LIBRARIES += fsck/libfsck.a
fsck_libfsck_a_SOURCES = fsck/checker.h fsck/check.c fsck/ck.h fsck/check_meta.c \
	fsck/check_roll.c fsck/check_tree.c fsck/check_ssa.c fsck/check_more.h \
	fsck/check_more.c fsck/check_quota.c fsck/check_xattr.c fsck/check_names.c \
	fsck/check_orphan.c
LIBFSCK = fsck/libfsck.a $(LIBF2FS)

sbin_PROGRAMS += fsck/fsck.f2fs
fsck_fsck_f2fs_SOURCES = fsck/main.c
fsck_fsck_f2fs_LDADD = $(LIBFSCK)
fsck_fsck_f2fs_LDFLAGS = $(AM_LDFLAGS) $(TOOL_LDFLAGS)
dist_man_MANS += man/fsck.f2fs.8

SCRIPT_TESTS += tests/fsck/clean-images.sh tests/fsck/run-cases.sh \
	tests/fsck/fuzz-quick.sh tests/fsck/kernel-image.sh tests/fsck/kernel-powercut.sh \
	tests/fsck/kernel-xattrs.sh tests/fsck/large-dir.sh
EXTRA_DIST += tests/fsck/clean-images.sh tests/fsck/run-cases.sh tests/fsck/large-dir.sh \
	tests/fsck/fuzz-quick.sh tests/fsck/kernel-image.sh tests/fsck/kernel-powercut.sh \
	tests/fsck/kernel-xattrs.sh tests/fsck/guest-xattrs.c tests/fsck/damage.py \
	tests/fsck/make-cases.sh tests/fsck/common.sh tests/fsck/cases

# libFuzzer target over f2fs_check (clang; skips without libclang-rt-14-dev).
SCRIPT_TESTS += tests/fuzz/run-fuzz.sh
EXTRA_DIST += tests/fuzz/run-fuzz.sh tests/fuzz/fuzz_check.c
