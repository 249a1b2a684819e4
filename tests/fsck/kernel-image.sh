#!/bin/bash
# Images written by the real kernel (tests/kernel/kvm-run: QEMU + Debian's
# kernel) must check clean: our mkfs, then the kernel mounts, runs
# `workload /mnt/w 200` and unmounts; fsck.f2fs must exit 0 with and without
# -f. Exit 77 when the harness cannot run or F2FS_KERNEL_TESTS=skip
# (F2FS_REQUIRE_KERNEL=1 turns an unavailable harness into a failure).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
KVM_RUN=${KVM_RUN:-$HERE/../kernel/kvm-run}

if [[ ${F2FS_KERNEL_TESTS:-auto} == skip ]]; then
	echo "kernel-image: skipped (F2FS_KERNEL_TESTS=skip)"
	exit 77
fi
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
		dev=/dev/vd$(printf "\\x$(printf %x $((97 + k)))")
		echo "mount -t f2fs $dev /mnt"
		echo "workload /mnt/w 200 >/dev/null"
		echo "umount /mnt"
		echo "echo done $k"
	done
} >"$job"
extra=()
for d in "${disks[@]:1}"; do extra+=(--extra "$d"); done
rc=0
out=$("$KVM_RUN" "${extra[@]}" "${disks[0]}" "$job" 2>&1) || rc=$?
if [[ $rc -eq 77 ]]; then
	echo "kernel-image: kernel harness unavailable"
	printf '%s\n' "$out" | tail -3
	exit 77
fi
if [[ $rc -ne 0 ]]; then
	bad "kvm-run exit $rc"
	printf '%s\n' "$out" | tail -20
	summary kernel-image
	exit 1
fi
for k in "${!disks[@]}"; do
	for mode in "" -f; do
		rc=0
		res=$("$FSCK" $mode "${disks[$k]}" 2>&1) || rc=$?
		if [[ $rc -eq 0 && $res == *": clean" ]]; then
			ok "kernel image '${OPTS[$k]:-default}' ${mode:-quick}"
		else
			bad "kernel image '${OPTS[$k]:-default}' ${mode:-quick} (exit $rc)"
			printf '%s\n' "$res" | head -20
		fi
	done
done
summary kernel-image
