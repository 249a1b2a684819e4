# fsck.f2fs and its checker, a library of fsck's own (linked by fsck.f2fs,
# its unit tests and the fuzz target; not part of lib/). Included from
# Makefile.am.
noinst_LIBRARIES += fsck/libfsck.a
# The checker's passes and records (check/), the repair (repair/) with the
# roll-forward recovery below it (repair/roll/), and the driver of both
# (checker.c) behind the public header checker.h.
fsck_libfsck_a_SOURCES = \
	fsck/checker.h fsck/checker.c fsck/problem.h fsck/problem.c
fsck_libfsck_a_SOURCES += \
	fsck/check/ck.h fsck/check/passes.h fsck/check/run.c \
	fsck/check/report.c fsck/check/records.c fsck/check/counts.c fsck/check/read.c \
	fsck/check/nat_answers.c fsck/check/nat_answers.h \
	fsck/check/pass_meta.c fsck/check/pass_zones.c fsck/check/pass_roll.c \
	fsck/check/pass_nodes.c fsck/check/pass_inode_fix.c fsck/check/pass_orphan.c \
	fsck/check/pass_dirs.c fsck/check/pass_links.c fsck/check/pass_xattr.c \
	fsck/check/pass_extent.c \
	fsck/check/pass_names.c fsck/check/pass_quota.c fsck/check/pass_ssa.c
fsck_libfsck_a_SOURCES += \
	fsck/repair/repair.h fsck/repair/repair_int.h fsck/repair/repair.c \
	fsck/repair/stage.c fsck/repair/edit.c fsck/repair/logs.c \
	fsck/repair/nodes.c fsck/repair/blocks.c fsck/repair/dirs.c fsck/repair/inodes.c \
	fsck/repair/xattrs.c fsck/repair/lost.c fsck/repair/orphans.c fsck/repair/free.c \
	fsck/repair/root.c fsck/repair/sb.c fsck/repair/cp_counts.c fsck/repair/quota.c
fsck_libfsck_a_SOURCES += \
	fsck/repair/roll/roll_int.h fsck/repair/roll/roll.c fsck/repair/roll/roll_dir.c \
	fsck/repair/roll/roll_nodes.c
LIBFSCK = fsck/libfsck.a $(LIBF2FS)

sbin_PROGRAMS += fsck/fsck.f2fs
fsck_fsck_f2fs_SOURCES = fsck/main.c fsck/info.c fsck/info.h fsck/output.c fsck/output.h
fsck_fsck_f2fs_LDADD = $(LIBCOMMON) $(LIBFSCK)
fsck_fsck_f2fs_LDFLAGS = $(AM_LDFLAGS) $(TOOL_LDFLAGS)
dist_man_MANS += man/fsck.f2fs.8

SCRIPT_TESTS += tests/fsck/clean-images.sh \
	tests/fsck/fuzz-quick.sh tests/fsck/kernel-image.sh tests/fsck/kernel-powercut.sh \
	tests/fsck/kernel-rollforward.sh \
	tests/fsck/kernel-xattrs.sh tests/fsck/kernel-compress.sh tests/fsck/large-dir.sh \
	tests/fsck/repair-outcome.sh tests/fsck/options.sh tests/fsck/kernel-relink.sh
# Each image case tests/fsck/cases/NAME/ is a test of its own, named
# tests/fsck/case/NAME.case, so that make -j runs them side by side, a log
# each. No such file exists: the name only says which case run-cases.sh
# runs, and the empty rule lets make take it as made.
include tests/fsck/cases.mk
CASE_TESTS += $(FSCK_CASES)
CASE_LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/fsck/run-cases.sh
$(FSCK_CASES):
	@:
# volumes over several devices (multidev-kernel.sh: written by the kernel)
SCRIPT_TESTS += tests/fsck/multidev.sh tests/fsck/multidev-kernel.sh
# the repair on images f2fs-tools and the kernel made: bases x damage kinds
# (F2FS_MATRIX=full for every kind; see the script)
SCRIPT_TESTS += tests/fsck/repair-matrix.sh
EXTRA_DIST += tests/fsck/repair-matrix.sh tests/fsck/repair-matrix.py \
	tests/fsck/repair-matrix.xfail tests/fsck/make-matrix-bases.sh tests/fsck/matrix-bases
EXTRA_DIST += tests/fsck/multidev.sh tests/fsck/multidev-kernel.sh tests/fsck/multidev-compare.py
EXTRA_DIST += tests/fsck/clean-images.sh tests/fsck/options.sh tests/fsck/run-cases.sh tests/fsck/large-dir.sh \
	tests/fsck/repair-outcome.sh \
	tests/fsck/fuzz-quick.sh tests/fsck/kernel-image.sh tests/fsck/kernel-powercut.sh \
	tests/fsck/kernel-rollforward.sh \
	tests/fsck/kernel-xattrs.sh tests/fsck/guest-xattrs.c tests/fsck/damage.py \
	tests/fsck/kernel-relink.sh tests/fsck/guest-tree.c \
	tests/fsck/kernel-compress.sh tests/fsck/guest-fsops.c \
	tests/fsck/make-kernel-cases.sh tests/fsck/make-cases.sh tests/fsck/common.sh tests/fsck/cases

# the structure-aware mutator of the fuzz campaign (tests/fuzz/campaign.py)
check_PROGRAMS += tests/fuzz/f2fs-mutate
tests_fuzz_f2fs_mutate_SOURCES = tests/fuzz/mutate.c
tests_fuzz_f2fs_mutate_LDADD = $(LIBF2FS)

SCRIPT_TESTS += tests/fuzz/campaign-ci.sh
EXTRA_DIST += tests/fuzz/campaign-ci.sh tests/fuzz/campaign.py tests/fuzz/campaign.xfail \
	tests/fuzz/campaign.regress

# libFuzzer target over f2fs_check (clang; skips without libclang-rt-14-dev).
SCRIPT_TESTS += tests/fuzz/run-fuzz.sh
EXTRA_DIST += tests/fuzz/run-fuzz.sh tests/fuzz/fuzz_check.c tests/fuzz/regress
