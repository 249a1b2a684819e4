#!/bin/bash
# Devices that do not end on a zone (issue 13 point 7): our mkfs sizes the
# reserve, the overprovision and the free and user counts from the main
# area (whole zones only), where f2fs-tools 1.15 also counts the unused
# segments after the last whole zone (see README, man/mkfs.f2fs.8 and
# tests/peer/layout-vs-f2fs-tools.sh). The real kernel must handle our
# layout under pressure: in one boot, on each image, it mounts, fills the
# file system with 3 MiB files until ENOSPC, deletes every other file,
# fills it again until ENOSPC (free sections come only from foreground GC
# then, which leans on the reserved sections), runs urgent GC for a few
# seconds and unmounts. Then our fsck -f and f2fs-tools' fsck (when
# installed) find each image clean, and the kernel logged no error.
# Geometries: 256 MiB with -s 3 and with -z 3, 306 MiB with -s 5 (each
# ends 1 to 4 segments into a zone; the 1 GiB and 777 MiB cases of the
# issue behave alike and are compared with f2fs-tools in the peer test).
# Exit: 0 pass, 1 fail, 77 when the harness is missing or with
# F2FS_KERNEL_TESTS=skip (F2FS_REQUIRE_KERNEL=1 makes a missing harness a
# failure).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
KVM_RUN=$HERE/kvm-run
top_builddir=${top_builddir:-$HERE/../../build}
MKFS=${MKFS:-$top_builddir/mkfs/mkfs.f2fs}
FSCK=${FSCK:-$top_builddir/fsck/fsck.f2fs}
PEER_FSCK=${PEER_FSCK:-/usr/sbin/fsck.f2fs}
. "$HERE/../lib/peer-fsck.sh"

if [[ ${F2FS_KERNEL_TESTS:-auto} == skip ]]; then
	echo "layout-partial-zone: skipped (F2FS_KERNEL_TESTS=skip)"
	exit 77
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/layout-pz.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
PASS=0 FAIL=0
ok() { PASS=$((PASS + 1)); echo "PASS: $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }
finish() {
	echo "layout-partial-zone: $PASS passed, $FAIL failed"
	((FAIL == 0))
	exit
}

GEOMS=("256M|-s 3" "256M|-z 3" "306M|-s 5")
disks=() labels=()
for g in "${GEOMS[@]}"; do
	size=${g%%|*} opts=${g#*|}
	img=$W/pz${#disks[@]}.img
	truncate -s "$size" "$img"
	# shellcheck disable=SC2086
	if ! out=$("$MKFS" -q -f $opts "$img" 2>&1); then
		bad "[$opts] $size: mkfs failed: $out"
		continue
	fi
	# the case meant: segments after segment0 that do not fill a zone
	sb=$("$top_builddir/dump/dump.f2fs" --json --sb "$img" 2>/dev/null)
	read -r seg0 segs z < <(python3 -c '
import json, sys
s = json.loads(sys.argv[1])["superblock"]
print(s["segment0_blkaddr"], s["segment_count"], s["segs_per_sec"] * s["secs_per_zone"])' "$sb")
	dev_segs=$((($(stat -c %s "$img") / 4096 - seg0) / 512))
	if ((dev_segs > segs)); then
		ok "[$opts] $size: ends $((dev_segs - segs)) segment(s) into a zone of $z"
	else
		bad "[$opts] $size: ends on a zone ($dev_segs segments, zones of $z)"
	fi
	disks+=("$img")
	labels+=("[$opts] $size")
done
((${#disks[@]})) || finish

job=$W/job.sh
{
	cat <<'JOB'
one() {
	d=$1
	mount -t f2fs /dev/$d /mnt || { echo "$d: mount failed"; return; }
	i=0
	while dd if=/dev/zero of=/mnt/f$i bs=1M count=3 2>/dev/null; do i=$((i + 1)); done
	j=0
	while [ $j -lt $i ]; do rm /mnt/f$j || return; j=$((j + 2)); done
	sync
	k=0
	while dd if=/dev/zero of=/mnt/g$k bs=1M count=3 2>/dev/null; do k=$((k + 1)); done
	sync
	echo 1 > /sys/fs/f2fs/$d/gc_urgent
	sleep 3
	echo 0 > /sys/fs/f2fs/$d/gc_urgent
	sync
	umount /mnt && echo "$d: ok fill=$i refill=$k"
}
JOB
	for k in "${!disks[@]}"; do
		echo "one vd$(printf "\\x$(printf %x $((97 + k)))")"
	done
	echo 'echo all-done'
} >"$job"
extra=()
for ((k = 1; k < ${#disks[@]}; k++)); do extra+=(--extra "${disks[$k]}"); done
"$KVM_RUN" --dmesg --timeout 900 "${extra[@]}" "${disks[0]}" "$job" >"$W/kout" 2>"$W/kerr"
krc=$?
if ((krc == 77)); then
	cat "$W/kerr"
	[[ ${F2FS_REQUIRE_KERNEL:-0} == 1 ]] && { bad "kernel harness unavailable"; finish; }
	exit 77
fi
if ((krc != 0)) || ! grep -qx all-done <(tr -d '\r' <"$W/kout"); then
	bad "kernel job exited $krc"
	sed 's/^/    | /' "$W/kout" "$W/kerr" | tail -20
	finish
fi
kerrs=$(grep '^kernel: ' "$W/kerr" | grep -Ev 'Found nat_bits in checkpoint|Mounted with checkpoint version')
if [[ -z $kerrs ]]; then
	ok "the kernel logged nothing but mounts"
else
	bad "kernel messages: $(head -3 <<<"$kerrs" | tr '\n' ' ')"
fi
for k in "${!disks[@]}"; do
	d=vd$(printf "\\x$(printf %x $((97 + k)))")
	line=$(tr -d '\r' <"$W/kout" | grep "^$d: ")
	if [[ $line =~ ok\ fill=([0-9]+)\ refill=([0-9]+) ]] && ((BASH_REMATCH[2] > 0)); then
		ok "${labels[$k]}: filled, half deleted, refilled through GC, unmounted ($line)"
	else
		bad "${labels[$k]}: kernel job: [$line]"
	fi
	out=$("$FSCK" -f -n "${disks[$k]}" 2>&1)
	rc=$?
	if ((rc == 0)); then
		ok "${labels[$k]}: our fsck -f finds the kernel's result clean"
	else
		bad "${labels[$k]}: our fsck -f exit $rc: $(grep -E '^(ERROR|WARN)' <<<"$out" | head -3 | tr '\n' ' ')"
	fi
	if [[ -x $PEER_FSCK ]]; then
		if why=$(peer_fsck_clean "${disks[$k]}" "$W/peer.img"); then
			ok "${labels[$k]}: f2fs-tools' fsck finds it clean"
		else
			bad "${labels[$k]}: f2fs-tools' fsck: $why"
		fi
	fi
done
finish
