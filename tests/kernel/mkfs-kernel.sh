#!/bin/bash
# The real kernel mounts images from our mkfs over a matrix of sizes and
# options, finds nat_bits, takes a workload and unmounts; f2fs-tools' fsck
# then finds every image clean. A multi-device volume gets the same treatment.
# Exit: 0 pass, 1 fail, 77 when the kernel harness or f2fs-tools is missing
# (F2FS_REQUIRE_KERNEL=1 / F2FS_REQUIRE_PEER=1 turn those into failures).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
KVM_RUN=$HERE/kvm-run
MKFS=${MKFS:-$HERE/../../build/mkfs/mkfs.f2fs}
PEER_FSCK=${PEER_FSCK:-/usr/sbin/fsck.f2fs}
. "$HERE/../lib/peer-fsck.sh"

if [[ ${F2FS_KERNEL_TESTS:-auto} == skip ]]; then
	echo "mkfs-kernel: skipped (F2FS_KERNEL_TESTS=skip)"
	exit 77
fi
if [[ ! -x $PEER_FSCK ]]; then
	echo "mkfs-kernel: $PEER_FSCK missing (apt-get install f2fs-tools)"
	[[ ${F2FS_REQUIRE_PEER:-0} == 1 ]] && exit 1
	exit 77
fi

W=$(mktemp -d "${TMPDIR:-/tmp}/mkfs-kernel.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
PASS=0 FAIL=0
ok() { PASS=$((PASS + 1)); echo "PASS: $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }

# name|size|mkfs options
MATRIX=(
	"default|256M|"
	"min|52M|"
	"allfeat|512M|-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,quota,lost_found,inode_crtime,project_quota"
	"compress|512M|-O extra_attr,compression,encrypt,verity,lost_found -C utf8"
	"sections|1G|-s 4 -z 2"
	"ovp5heap|1G|-o 5 -a 1"
	"largenat|1G|-i"
	"owner|256M|-R 1000:1000 -O extra_attr,quota,lost_found"
	"android|512M|-g android"
	"64g|64G|-O extra_attr,inode_checksum,sb_checksum"
	"1t|1T|"
)

disks=() names=()
for row in "${MATRIX[@]}"; do
	IFS='|' read -r name size opts <<<"$row"
	img=$W/$name.img
	truncate -s "$size" "$img"
	# shellcheck disable=SC2086
	if ! out=$("$MKFS" -f $opts "$img" 2>&1); then
		bad "$name: mkfs $opts failed: $out"
		continue
	fi
	disks+=("$img")
	names+=("$name")
done

# One boot for the whole matrix: disk k is /dev/vd(a+k).
job=$W/job.sh
{
	echo 'letters=abcdefghijklmnopqrstuvwxyz; k=0'
	for name in "${names[@]}"; do
		printf '%s\n' \
'dev=/dev/vd$(echo $letters | cut -c$((k + 1))); k=$((k + 1))' \
'dmesg -c >/dev/null' \
'if mount -t f2fs $dev /mnt; then' \
"	dmesg | grep -q 'Found nat_bits in checkpoint' && echo '$name NATBITS'" \
'	if workload /mnt/w 120 >/dev/null && mkdir /mnt/many && (cd /mnt/many && i=0; while [ $i -lt 300 ]; do : > f$i; i=$((i+1)); done) && sync; then' \
"		echo '$name WORKLOAD'" \
'	fi' \
"	umount /mnt && echo '$name UMOUNT'" \
'else' \
"	echo '$name MOUNT-FAILED'; dmesg | tail -5" \
'fi'
	done
} >"$job"

extra=()
for d in "${disks[@]:1}"; do extra+=(--extra "$d"); done
"$KVM_RUN" --dmesg --timeout 900 --mem 1024 "${extra[@]}" "${disks[0]}" "$job" >"$W/out" 2>"$W/err"
rc=$?
if ((rc == 77)); then
	cat "$W/err"
	[[ ${F2FS_REQUIRE_KERNEL:-0} == 1 ]] && exit 1
	exit 77
fi
((rc == 0)) || { bad "kernel run exited $rc"; sed 's/^/    | /' "$W/out" "$W/err" | tail -40; }
# the kernel must not complain about any image
kernel_bad='WARNING|BUG|Oops|[Ee]rror|inconsistent|[Cc]orrupt|run fsck|Wrong|[Ii]nvalid|[Ff]ix'
if grep '^kernel:' "$W/err" | grep -Eq "$kernel_bad"; then
	bad "kernel messages about our images:"
	grep '^kernel:' "$W/err" | grep -E "$kernel_bad" | head -20 | sed 's/^/    | /'
else
	ok "kernel log: no warnings or errors over $(grep -c 'Found nat_bits' "$W/err") mounts"
fi

for i in "${!names[@]}"; do
	name=${names[$i]}
	for step in NATBITS WORKLOAD UMOUNT; do
		if ! grep -qx "$name $step" "$W/out"; then
			bad "$name: kernel step $step missing"
			grep "^$name" "$W/out" | sed 's/^/    | /'
			continue 2
		fi
	done
	if msg=$(peer_fsck_clean "${disks[$i]}" "$W/copy.img"); then
		ok "$name: kernel mounts (nat_bits found), workload, umount, fsck.f2fs clean"
	else
		bad "$name: fsck.f2fs after the kernel's writes: $msg"
	fi
done

# Multi-device: the superblock records the extra device's host path; the
# harness links that path to the guest's disk.
m1=$W/m1.img m2=$W/m2.img
truncate -s 256M "$m1" "$m2"
if "$MKFS" -q -f -c "$m2" "$m1"; then
	printf '%s\n' \
		'mount -t f2fs /dev/vda /mnt || exit 10' \
		"dmesg | grep -q 'Found nat_bits in checkpoint' || exit 11" \
		'dd if=/dev/zero of=/mnt/fill bs=1M count=300 2>/dev/null || exit 12' \
		'workload /mnt/w 60 >/dev/null || exit 13' \
		'df /mnt | tail -1' \
		'umount /mnt || exit 14' \
		'echo MULTI-DONE' >"$W/mjob.sh"
	"$KVM_RUN" --timeout 300 --extra "$m2" "$m1" "$W/mjob.sh" >"$W/out" 2>"$W/err"
	rc=$?
	if ((rc == 0)) && grep -qx MULTI-DONE "$W/out" && msg=$(peer_fsck_clean "$m1" -); then
		ok "multi-device: mounts, 300 MiB spills onto the second device, fsck.f2fs clean"
	else
		bad "multi-device (status $rc) ${msg:-}"
		sed 's/^/    | /' "$W/out" "$W/err" | tail -20
	fi
else
	bad "multi-device mkfs failed"
fi

echo "mkfs-kernel: $PASS passed, $FAIL failed"
((FAIL == 0))
