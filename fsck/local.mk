# fsck.f2fs and its checker, a library of fsck's own (linked by fsck.f2fs,
# its unit tests and the fuzz target; not part of lib/). Included from
# Makefile.am.
noinst_LIBRARIES += fsck/libfsck.a
fsck_libfsck_a_SOURCES = \
	fsck/checker.h fsck/problem.h fsck/problem.c fsck/ck.h fsck/passes.h \
	fsck/check.c fsck/report.c fsck/records.c fsck/counts.c fsck/read.c \
	fsck/pass_meta.c fsck/pass_roll.c fsck/pass_nodes.c fsck/pass_orphan.c \
	fsck/pass_dirs.c fsck/pass_links.c fsck/pass_xattr.c fsck/pass_names.c \
	fsck/pass_inode_fix.c \
	fsck/pass_quota.c fsck/pass_ssa.c fsck/repair.h fsck/repair_int.h fsck/repair.c \
	fsck/repair_nodes.c fsck/repair_logs.c fsck/repair_quota.c \
	fsck/repair_map.c fsck/repair_stage.c fsck/repair_edit.c fsck/repair_dirs.c \
	fsck/repair_lost.c fsck/repair_orphans.c fsck/repair_free.c fsck/repair_sb.c \
	fsck/repair_root.c fsck/repair_cp_counts.c \
	fsck/repair_roll.h fsck/repair_roll.c fsck/repair_roll_dir.c fsck/repair_roll_nodes.c \
	fsck/repair_blocks.c \
	fsck/repair_inodes.c fsck/repair_xattrs.c
LIBFSCK = fsck/libfsck.a $(LIBF2FS)
# on a zoned device, the write pointers against the SIT and the logs
fsck_libfsck_a_SOURCES += fsck/pass_zones.c

sbin_PROGRAMS += fsck/fsck.f2fs
fsck_fsck_f2fs_SOURCES = fsck/main.c fsck/info.c fsck/info.h
fsck_fsck_f2fs_LDADD = $(LIBCOMMON) $(LIBFSCK)
fsck_fsck_f2fs_LDFLAGS = $(AM_LDFLAGS) $(TOOL_LDFLAGS)
dist_man_MANS += man/fsck.f2fs.8

SCRIPT_TESTS += tests/fsck/clean-images.sh tests/fsck/run-cases.sh \
	tests/fsck/fuzz-quick.sh tests/fsck/kernel-image.sh tests/fsck/kernel-powercut.sh \
	tests/fsck/kernel-rollforward.sh \
	tests/fsck/kernel-xattrs.sh tests/fsck/kernel-compress.sh tests/fsck/large-dir.sh \
	tests/fsck/repair-outcome.sh tests/fsck/options.sh tests/fsck/kernel-relink.sh
# volumes over several devices (multidev-kernel.sh: written by the kernel)
SCRIPT_TESTS += tests/fsck/multidev.sh tests/fsck/multidev-kernel.sh
EXTRA_DIST += tests/fsck/multidev.sh tests/fsck/multidev-kernel.sh tests/fsck/multidev-compare.py
EXTRA_DIST += tests/fsck/clean-images.sh tests/fsck/options.sh tests/fsck/run-cases.sh tests/fsck/large-dir.sh \
	tests/fsck/repair-outcome.sh \
	tests/fsck/fuzz-quick.sh tests/fsck/kernel-image.sh tests/fsck/kernel-powercut.sh \
	tests/fsck/kernel-rollforward.sh \
	tests/fsck/kernel-xattrs.sh tests/fsck/guest-xattrs.c tests/fsck/damage.py \
	tests/fsck/kernel-relink.sh tests/fsck/guest-tree.c \
	tests/fsck/kernel-compress.sh tests/fsck/guest-fsops.c \
	tests/fsck/make-kernel-cases.sh tests/fsck/make-cases.sh tests/fsck/common.sh tests/fsck/cases

# libFuzzer target over f2fs_check (clang; skips without libclang-rt-14-dev).
SCRIPT_TESTS += tests/fuzz/run-fuzz.sh
EXTRA_DIST += tests/fuzz/run-fuzz.sh tests/fuzz/fuzz_check.c tests/fuzz/regress
