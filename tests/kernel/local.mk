# Real-kernel tests (QEMU + Debian's kernel); see tests/kernel/README.md.
# They skip (77) where the harness cannot run, unless F2FS_REQUIRE_KERNEL=1.
SCRIPT_TESTS += tests/kernel/mkfs-kernel.sh
EXTRA_DIST += tests/kernel/kvm-run tests/kernel/guest/init \
	tests/kernel/guest/workload tests/kernel/README.md \
	tests/kernel/selftest.sh tests/kernel/mkfs-kernel.sh \
	tests/lib/peer-fsck.sh
# our layout where the device does not end on a zone, under fill and GC
SCRIPT_TESTS += tests/kernel/layout-partial-zone.sh
EXTRA_DIST += tests/kernel/layout-partial-zone.sh
