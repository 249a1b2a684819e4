# fsck.f2fs and its checker library (included from Makefile.am).
lib_libf2fs_a_SOURCES += lib/check.c lib/check.h lib/check_meta.c lib/check_roll.c \
	lib/check_tree.c lib/check_ssa.c lib/check_more.h lib/check_more.c \
	lib/check_quota.c lib/check_xattr.c lib/check_names.c lib/check_orphan.c
noinst_HEADERS += include/f2fs/check.h

sbin_PROGRAMS += fsck/fsck.f2fs
fsck_fsck_f2fs_SOURCES = fsck/main.c
fsck_fsck_f2fs_LDADD = $(LIBF2FS)
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
