# Real-kernel tests (QEMU + Debian's kernel); see tests/kernel/README.md.
# They skip (77) where the harness cannot run, unless F2FS_REQUIRE_KERNEL=1.
SCRIPT_TESTS += tests/kernel/mkfs-kernel.sh
EXTRA_DIST += tests/kernel/kvm-run tests/kernel/guest/init \
	tests/kernel/guest/workload tests/kernel/guest/rollwork tests/kernel/guest/rollwork-base \
	tests/kernel/README.md \
	tests/kernel/selftest.sh tests/kernel/mkfs-kernel.sh \
	tests/lib/peer-fsck.sh
# mkfs -m on zoned null_blk devices: mount, fill through GC, fsck, a moved
# write pointer
SCRIPT_TESTS += tests/kernel/zoned-nullb.sh
EXTRA_DIST += tests/kernel/zoned-nullb.sh tests/kernel/guest/nullb-zoned \
	tests/kernel/guest/src/zone-reset.c tests/kernel/guest/src/f2fs-shutdown.c
# our layout where the device does not end on a zone, under fill and GC
SCRIPT_TESTS += tests/kernel/layout-partial-zone.sh
EXTRA_DIST += tests/kernel/layout-partial-zone.sh

# Our utf8 casefolding against the kernel's (names from many scripts).
SCRIPT_TESTS += tests/kernel/casefold-names.sh
check_PROGRAMS += tests/kernel/cf-tool
tests_kernel_cf_tool_SOURCES = tests/kernel/cf-tool.c
tests_kernel_cf_tool_LDADD = $(LIBF2FS)
EXTRA_DIST += tests/kernel/casefold-names.sh tests/kernel/casefold-names.py \
	tests/kernel/guest/src/mknames.c tests/kernel/guest/src/xattr-fsync.c

# fscrypt in the guest (helper fscrypt-key): encrypted files written, listed
# without and with the key, and the image checked
SCRIPT_TESTS += tests/kernel/fscrypt-smoke.sh
EXTRA_DIST += tests/kernel/fscrypt-smoke.sh tests/kernel/guest/src/fscrypt-key.c
