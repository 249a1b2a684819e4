#!/bin/bash
# Images written by the real kernel (tests/kernel/kvm-run: QEMU + Debian's
# kernel) must check clean: our mkfs, then the kernel mounts, runs
# `workload /mnt/w 200`, makes device nodes (small and large numbers) and a
# fifo, and unmounts; fsck.f2fs must exit 0, quick (--quick) and full. Exit 77 when the harness cannot run or F2FS_KERNEL_TESTS=skip
# (F2FS_REQUIRE_KERNEL=1 turns an unavailable harness into a failure).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
kernel_tests_on kernel-image
W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-kernel.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT

OPTS=(
	""
	"-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,quota,lost_found,inode_crtime,project_quota"
	"-C utf8 -s 2"
)
disks=()
for k in "${!OPTS[@]}"; do
	img=$W/k$k.img
	truncate -s 256M "$img"
	# shellcheck disable=SC2086
	"$MKFS" -q -f ${OPTS[$k]} "$img" || { bad "mkfs ${OPTS[$k]}"; continue; }
	disks+=("$img")
done
job=$W/job.sh
{
	echo 'set -e'
	for k in "${!disks[@]}"; do
		echo "mount -t f2fs $(guest_dev "$k") /mnt"
		echo "workload /mnt/w 200 >/dev/null"
		# device numbers live in i_addr: old (16-bit) and new encodings
		echo "mknod /mnt/cdev c 1 3; mknod /mnt/bdev b 8 1; mknod /mnt/bigdev c 300 70000; mkfifo /mnt/fifo"
		echo "umount /mnt"
		echo "echo done $k"
	done
} >"$job"
kvm_boot kernel-image 0 "${disks[@]}" "$job"
for k in "${!disks[@]}"; do
	expect_clean "kernel image '${OPTS[$k]:-default}' quick" "${disks[$k]}" --quick
	expect_clean "kernel image '${OPTS[$k]:-default}' full" "${disks[$k]}" -n
done
summary kernel-image
