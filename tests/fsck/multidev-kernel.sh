#!/bin/bash
# Volumes over several devices written by the real kernel: 2, 3 and 8
# image files formatted by our mkfs -c and by f2fs-tools' mkfs.f2fs -c are
# attached to one guest (kvm-run links each host path the superblock records
# to its /dev/vdX, the first device's too); the kernel mounts each volume,
# writes small files (workload) and enough large ones to reach every device,
# and unmounts. Then our fsck and f2fs-tools' fsck.f2fs find each clean, the
# SIT has valid blocks on every device, and dump's -b, SIT and inode views
# agree with f2fs-tools' dump.f2fs at addresses on every device
# (multidev-compare.py); fsck -y finds nothing to write.
# Exit 77 when the harness is unavailable or F2FS_KERNEL_TESTS=skip
# (F2FS_REQUIRE_KERNEL=1 turns an unavailable harness into a failure).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
. "$HERE/../lib/peer-fsck.sh"
kernel_tests_on multidev-kernel
DUMP=${DUMP:-$TOP_BUILD/dump/dump.f2fs}
PEER_MKFS=${PEER_MKFS:-/usr/sbin/mkfs.f2fs}
PEER_DUMP=${PEER_DUMP:-/usr/sbin/dump.f2fs}
W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-mdk.XXXXXX") || exit 1
W=$(cd "$W" && pwd -P)
[[ -n ${MULTIDEV_KEEP-} ]] && echo "keeping $W" || trap 'rm -rf "$W"' EXIT
makers=(ours)
[[ -x $PEER_MKFS && -x $PEER_DUMP ]] && makers+=(peer)

# The devices' sizes in MiB. The kernel fills data from the start of the
# main area and keeps the overprovision and reserved segments (56 of 120 on
# 8 x 32 MiB) free at the end: the last of 8 devices is larger so that data
# reaches it.
vols=() disks=() firsts=() ndevs=()
for maker in "${makers[@]}"; do
	for spec in "64 64" "64 64 64" "32 32 32 32 32 32 32 192"; do
		read -ra mib <<<"$spec"
		n=${#mib[@]} d=$W/$maker$n extra=()
		mkdir -p "$d"
		for ((i = 0; i < n; i++)); do truncate -s "${mib[$i]}M" "$d/d$i.img"; done
		for ((i = 1; i < n; i++)); do extra+=(-c "$d/d$i.img"); done
		if [[ $maker == ours ]]; then
			"$MKFS" -q -f "${extra[@]}" "$d/d0.img" || { bad "mkfs $maker $n"; continue; }
		else
			"$PEER_MKFS" -q -f "${extra[@]}" "$d/d0.img" >/dev/null || { bad "mkfs.f2fs $n"; continue; }
		fi
		vols+=("$maker $n devices") firsts+=(${#disks[@]}) ndevs+=("$n")
		for ((i = 0; i < n; i++)); do disks+=("$d/d$i.img"); done
	done
done

# The guest writes small files (workload), then 4 MiB files until the volume
# is full (a sync every 16 files).
job=$W/job.sh
{
	echo 'set -e'
	for k in "${!vols[@]}"; do
		echo "mount -t f2fs $(guest_dev "${firsts[$k]}") /mnt"
		echo "workload /mnt/w 60 >/dev/null"
		echo "i=0; while dd if=/dev/zero of=/mnt/f\$i bs=1M count=4 2>/dev/null; do"
		echo "  i=\$((i + 1)); [ \$((i % 16)) -ne 0 ] || sync"
		echo "done; rm -f /mnt/f\$i"
		echo "df -k /mnt | tail -1"
		echo "umount /mnt"
		echo "echo done $k"
	done
	echo 'echo all-done'
} >"$job"
KVM_MARK=all-done kvm_boot multidev-kernel 0 --timeout 300 "${disks[@]}" "$job"
printf '%s\n' "$KVM_OUT" | grep -E '^/dev|^done' | sed 's/^/  guest: /'

for k in "${!vols[@]}"; do
	first=${disks[${firsts[$k]}]} label="kernel-written ${vols[$k]}"
	imgs=("${disks[@]:${firsts[$k]}:${ndevs[$k]}}")
	expect_clean "$label" "$first" -n
	expect_peer_clean "$label" "$first" -
	rc=0
	out=$(python3 "$HERE/multidev-compare.py" --every-device "$DUMP" "$PEER_DUMP" "$first" 2>&1) || rc=$?
	if [[ $rc -eq 0 ]]; then
		ok "$label: dump agrees with dump.f2fs ($(grep -c '^same' <<<"$out") comparisons; $(grep '^valid blocks' <<<"$out"))"
	else
		bad "$label: dump vs dump.f2fs"
		grep -v '^same' <<<"$out" | head -10
	fi
	before=$(sha256sum "${imgs[@]}")
	rc=0
	out=$("$FSCK" -y "$first" 2>&1) || rc=$?
	[[ $rc -eq 0 && $before == "$(sha256sum "${imgs[@]}")" ]] &&
		ok "$label: fsck -y: clean, nothing written" || bad "$label: fsck -y exit $rc: $(tail -2 <<<"$out")"
done
summary multidev-kernel
