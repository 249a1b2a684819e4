#!/bin/bash
# mkfs -m on host-managed zoned devices (issue 12): in one boot of Linux
# 6.1, on zoned null_blk devices of several geometries (GiB / zone MiB /
# conventional zones), our static mkfs formats, the kernel mounts without
# a write-pointer message, the volume is filled with 8 MiB files until
# ENOSPC, every other file is deleted and it is filled again (foreground
# GC must run: the status file's GC call count grows), it is unmounted and
# our static fsck -f finds it clean; a block written into an empty
# sequential zone of the main area is then reported as zone.write_pointer
# (ahead), and so is a zone of valid blocks whose pointer is reset (behind).
# After a crash (F2FS_IOC_SHUTDOWN without checkpoint, 48 MiB written into
# new zones) fsck reports nothing: the kernel resets those zones at mount.
# A geometry with too few zones for the six logs and the GC reserve is
# refused by mkfs with a "too small" line. A regular disk with a zoned
# device behind it (-c) formats, mounts, takes 160 MiB and checks clean;
# a block written into an empty zone of the zoned device is reported. mkfs --rootdir of 64
# MiB with background writeback early (16 MiB of dirty pages) writes every
# zone in order, checks clean and mounts. -m on a virtio disk (no zones)
# is refused with one line naming it, exit 1, the disk untouched.
# The usable space (df) of each geometry is printed.
# Exit: 0 pass, 1 fail, 77 when the harness is missing or with
# F2FS_KERNEL_TESTS=skip (F2FS_REQUIRE_KERNEL=1: missing harness fails).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
KVM_RUN=$HERE/kvm-run
top_builddir=${top_builddir:-$HERE/../../build}
MKFS=${MKFS:-$top_builddir/mkfs/mkfs.f2fs}
FSCK=${FSCK:-$top_builddir/fsck/fsck.f2fs}
DUMP=${DUMP:-$top_builddir/dump/dump.f2fs}

if [[ ${F2FS_KERNEL_TESTS:-auto} == skip ]]; then
	echo "zoned-nullb: skipped (F2FS_KERNEL_TESTS=skip)"
	exit 77
fi
for t in "$MKFS" "$FSCK" "$DUMP"; do
	if ! command -v readelf >/dev/null || readelf -l "$t" 2>/dev/null | grep -q INTERP; then
		echo "zoned-nullb: skipped ($t is not a static binary; the guest has no libc)"
		exit 77
	fi
done
W=$(mktemp -d "${TMPDIR:-/tmp}/zoned-nullb.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
for h in zone-reset f2fs-shutdown; do
	if ! "${CC:-gcc}" -static -O2 -o "$W/$h" "$HERE/guest/src/$h.c" 2>"$W/cc.err"; then
		head -n 5 "$W/cc.err"
		echo "zoned-nullb: skipped (cannot build a static helper with ${CC:-gcc}; libc6-dev?)"
		[[ ${F2FS_REQUIRE_KERNEL:-0} == 1 ]] && exit 1
		exit 77
	fi
done
PASS=0 FAIL=0
ok() { PASS=$((PASS + 1)); echo "PASS: $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }
finish() {
	echo "zoned-nullb: $PASS passed, $FAIL failed"
	((FAIL == 0))
	exit
}

# GiB ZONE_MiB CONVENTIONAL [refused]
GEOMS=("2 64 4" "1 16 8" "2 256 2 refused")
tar -cf "$W/tools.tar" -C "$(dirname "$MKFS")" mkfs.f2fs -C "$(dirname "$FSCK")" fsck.f2fs \
	-C "$(dirname "$DUMP")" dump.f2fs || { bad "cannot pack the tools"; finish; }
truncate -s 256M "$W/regular.img"
truncate -s 16M "$W/boot.img"

job=$W/job.sh
cat >"$job" <<'JOB'
mkdir -p /tmp/p && tar -xf /dev/vdb -C /tmp/p || { echo "no tools"; exit 1; }
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
P=/tmp/p
gc_calls() { awk -F'[: ]+' '/^GC calls/ { print $3; exit }' /sys/kernel/debug/f2fs/status 2>/dev/null; }
wp_msgs() { dmesg | grep -iE 'write pointer|unaligned|not aligned|valid block beyond|reset the' ; }
# fill DIR TAG: 8 MiB files until ENOSPC, every other one deleted, again
fill() {
	i=0
	while dd if=/dev/zero of=$1/f$i bs=1M count=8 2>/dev/null; do i=$((i + 1)); done
	j=0
	while [ $j -lt $i ]; do rm $1/f$j; j=$((j + 2)); done
	sync
	g0=$(gc_calls)
	k=0
	while dd if=/dev/zero of=$1/g$k bs=1M count=8 2>/dev/null; do k=$((k + 1)); done
	sync
	echo "$2 fill=$i refill=$k gc=$(( ${g0:-0} )):$(gc_calls)"
}
# rootdir DEV: --rootdir of 64 MiB with background writeback from 16 MiB of
# dirty pages on: it must not write a zone's pages out of order
rootdir() {
	mkdir -p /tmp/t/a
	i=0
	while [ $i -lt 8 ]; do dd if=/dev/zero of=/tmp/t/a/f$i bs=1M count=8 2>/dev/null; i=$((i + 1)); done
	old=$(cat /proc/sys/vm/dirty_background_bytes)
	echo 16777216 >/proc/sys/vm/dirty_background_bytes
	$P/mkfs.f2fs -f -m --rootdir /tmp/t "$1" >/tmp/mk 2>&1
	echo "R mkfs $? $(tail -n 1 /tmp/mk)"
	echo "$old" >/proc/sys/vm/dirty_background_bytes
	$P/fsck.f2fs -f -n "$1" >/tmp/fk 2>&1
	echo "R fsck $?"
	mount -t f2fs "$1" /mnt && cmp /mnt/a/f7 /tmp/t/a/f7 && echo "R same"
	umount /mnt
	echo "R kmsg [$(wp_msgs | tr '\n' ' ')]"
	rm -rf /tmp/t
}
geom() {
	tag="G$1/$2/$3"
	d=$(nullb-zoned "$1" "$2" "$3") || { echo "$tag nullb failed"; return; }
	dmesg -c >/dev/null
	[ "$tag" = G2/64/4 ] && rootdir "$d" && dmesg -c >/dev/null
	if ! $P/mkfs.f2fs -f -m "$d" >/tmp/mk 2>&1; then
		echo "$tag mkfs-refused: $(tail -n 1 /tmp/mk)"
		return
	fi
	mount -t f2fs "$d" /mnt || { echo "$tag mount failed"; return; }
	echo "$tag df $(df -k /mnt | awk 'NR == 2 { print $2, $4 }')"
	fill /mnt "$tag"
	umount /mnt || { echo "$tag umount failed"; return; }
	echo "$tag kmsg [$(wp_msgs | tr '\n' ' ')]"
	$P/fsck.f2fs -f -n "$d" >/tmp/fk 2>&1
	echo "$tag fsck $? $(grep -E '^(ERROR|WARNING)' /tmp/fk | head -n 2 | tr '\n' ' ')"
	if [ "$tag" = G1/16/8 ]; then
		# a crash: new zones written past the checkpoint, none counted
		mount -t f2fs "$d" /mnt && rm /mnt/g* && sync &&
			dd if=/dev/zero of=/mnt/new bs=1M count=48 oflag=direct 2>/dev/null &&
			dd if=/dev/zero of=/mnt/synced bs=1M count=4 conv=fsync 2>/dev/null &&
			f2fs-shutdown /mnt && umount /mnt &&
			$P/fsck.f2fs -f -n "$d" >/tmp/fk 2>&1
		echo "$tag crash $? $(grep -E '^(ERROR|WARNING)' /tmp/fk | head -n 2 | tr '\n' ' ')"
		# sequential zones written past the checkpoint, none of it counted
		echo "$tag uncounted $($P/dump.f2fs --zones "$d" | awk '$4 == "seq-required" &&
			$5 != "empty" && $10 == 0 { n++ } END { print n + 0 }')"
		dmesg -c >/dev/null
		mount -t f2fs "$d" /mnt && umount /mnt && $P/fsck.f2fs -f -n "$d" >/tmp/fk 2>&1
		echo "$tag remount $? [$(wp_msgs | head -n 1)]"
	fi
	# an empty sequential zone of the main area, not a log's
	z=$($P/dump.f2fs --zones "$d" | awk '$4 == "seq-required" && $5 == "empty" &&
		$7 == "main" && $9 == "-" { s = $2 } END { print s }')
	[ -n "$z" ] || { echo "$tag no empty zone"; return; }
	dd if=/dev/urandom of="$d" bs=4096 seek="$z" count=1 conv=fsync 2>/dev/null
	$P/fsck.f2fs -f -n "$d" >/tmp/fk 2>&1
	echo "$tag damaged $? $(grep -c 'zone.write_pointer' /tmp/fk) $(grep zone.write_pointer /tmp/fk | head -n 1)"
	# a zone holding valid blocks (no log's) rewound: its blocks are past the pointer
	z=$($P/dump.f2fs --zones "$d" | awk '$4 == "seq-required" && $7 == "main" &&
		$9 == "-" && $10 > 0 { s = $2 } END { print s }')
	[ -n "$z" ] || { echo "$tag no zone with valid blocks"; return; }
	zone-reset "$d" $((z * 8)) || { echo "$tag reset failed"; return; }
	$P/fsck.f2fs -f -n "$d" >/tmp/fk 2>&1
	echo "$tag rewound $? $(grep -c 'zone.write_pointer.*behind' /tmp/fk) $(grep 'zone.write_pointer.*behind' /tmp/fk | head -n 1)"
}
JOB
for g in "${GEOMS[@]}"; do
	read -r gb zmb conv _ <<<"$g"
	echo "geom $gb $zmb $conv" >>"$job"
done
cat >>"$job" <<'JOB'
# -m on a block device without zones: refused, untouched
hash8() { dd if="$1" bs=1M count=8 2>/dev/null | md5sum | cut -d' ' -f1; }
before=$(hash8 /dev/vdc)
$P/mkfs.f2fs -f -m /dev/vdc >/tmp/mk 2>&1
echo "N rc $? same=$([ "$(hash8 /dev/vdc)" = "$before" ] && echo yes) $(tail -n 1 /tmp/mk)"
# a regular disk for the metadata, the zoned device behind it
d=$(nullb-zoned 1 64 0) && dmesg -c >/dev/null &&
if $P/mkfs.f2fs -f -m -c "$d" /dev/vdc >/tmp/mk 2>&1; then
	if mount -t f2fs /dev/vdc /mnt; then
		echo "M df $(df -k /mnt | awk 'NR == 2 { print $2, $4 }')"
		# past the regular disk's sections into the zoned device's
		dd if=/dev/zero of=/mnt/big bs=1M count=160 2>/dev/null && sync && echo "M wrote"
		umount /mnt && echo "M kmsg [$(wp_msgs | tr '\n' ' ')]"
		$P/fsck.f2fs -f -n /dev/vdc >/tmp/fk 2>&1
		echo "M fsck $? $(grep -E '^(ERROR|WARNING)' /tmp/fk | head -n 2 | tr '\n' ' ')"
		# an empty sequential zone of the zoned (second) device
		z=$($P/dump.f2fs --zones /dev/vdc | awk '$12 == 1 && $4 == "seq-required" &&
			$5 == "empty" && $7 == "main" && $9 == "-" { s = $2 } END { print s }')
		[ -n "$z" ] && dd if=/dev/urandom of="$d" bs=4096 seek="$z" count=1 conv=fsync 2>/dev/null
		$P/fsck.f2fs -f -n /dev/vdc >/tmp/fk 2>&1
		echo "M damaged $? $(grep -c 'zone.write_pointer' /tmp/fk) $(grep zone.write_pointer /tmp/fk | head -n 1)"
	else
		echo "M mount failed"
	fi
else
	echo "M mkfs failed: $(tail -n 1 /tmp/mk)"
fi
echo all-done
JOB

"$KVM_RUN" --dmesg --mem 2560 --timeout 600 --file "$W/zone-reset" --file "$W/f2fs-shutdown" \
	--extra "$W/tools.tar" --extra "$W/regular.img" \
	"$W/boot.img" "$job" >"$W/kout" 2>"$W/kerr"
krc=$?
if ((krc == 77)); then
	cat "$W/kerr"
	[[ ${F2FS_REQUIRE_KERNEL:-0} == 1 ]] && { bad "kernel harness unavailable"; finish; }
	exit 77
fi
tr -d '\r' <"$W/kout" >"$W/out"
if ((krc != 0)) || ! grep -qx all-done "$W/out"; then
	bad "kernel job exited $krc"
	sed 's/^/    | /' "$W/out" "$W/kerr" | tail -20
	finish
fi
sed 's/^/    | /' "$W/out"
line() { grep "^$1 $2" "$W/out" | head -n 1; }
for g in "${GEOMS[@]}"; do
	read -r gb zmb conv refused <<<"$g"
	tag="G$gb/$zmb/$conv"
	label="$gb GiB, $zmb MiB zones, $conv conventional"
	if [[ -n $refused ]]; then
		if [[ $(line "$tag" mkfs-refused) == *"too small"* ]]; then
			ok "$label: mkfs refuses it ($(line "$tag" mkfs-refused | cut -d: -f2-))"
		else
			bad "$label: mkfs did not refuse it as too small: $(grep "^$tag" "$W/out" | head -n 2)"
		fi
		continue
	fi
	read -r _ _ total avail <<<"$(line "$tag" df)"
	if [[ -n ${avail:-} ]]; then
		ok "$label: mounted, df: $((avail / 1024)) MiB available of $((total / 1024)) MiB"
	else
		bad "$label: not mounted: $(grep "^$tag" "$W/out" | head -n 2)"
		continue
	fi
	l=$(line "$tag" fill=)
	if [[ $l =~ refill=([0-9]+)\ gc=([0-9]+):([0-9]+) ]] &&
		((BASH_REMATCH[1] > 0 && BASH_REMATCH[3] > BASH_REMATCH[2])); then
		ok "$label: filled, half deleted, refilled through GC ($l)"
	else
		bad "$label: fill: [$l]"
	fi
	l=$(line "$tag" kmsg)
	if [[ $l == "$tag kmsg []" ]]; then
		ok "$label: no write-pointer message from the kernel"
	else
		bad "$label: kernel: $l"
	fi
	l=$(line "$tag" fsck)
	if [[ $l == "$tag fsck 0 "* ]]; then
		ok "$label: our fsck -f finds the kernel's result clean"
	else
		bad "$label: our fsck: $l"
	fi
	if [[ $tag == G1/16/8 ]]; then
		l=$(line "$tag" crash)
		read -r _ _ n <<<"$(line "$tag" uncounted)"
		if [[ $l == "$tag crash 0 " ]] && ((${n:-0} >= 2)); then
			ok "$label: after a crash (shutdown without checkpoint; $n sequential zones written past it, none counted) our fsck -f finds nothing"
		else
			bad "$label: after a crash: [$l]"
		fi
		l=$(line "$tag" remount)
		if [[ $l == "$tag remount 0 "* ]]; then
			ok "$label: the kernel mounts it, unmounts, fsck clean again (${l#* * * })"
		else
			bad "$label: remount after the crash: [$l]"
		fi
	fi
	l=$(line "$tag" damaged)
	if [[ $l =~ damaged\ [1-9][0-9]*\ 1\  ]]; then
		ok "$label: a block written into an empty zone is reported: ${l#* * * * }"
	else
		bad "$label: moved write pointer: [$l]"
	fi
	l=$(line "$tag" rewound)
	if [[ $l =~ rewound\ [1-9][0-9]*\ 1\  ]]; then
		ok "$label: a zone of valid blocks reset is reported: ${l#* * * * }"
	else
		bad "$label: rewound write pointer: [$l]"
	fi
done
if [[ $(line R mkfs) == "R mkfs 0"* && $(line R fsck) == "R fsck 0" && -n $(line R same) &&
	$(line R kmsg) == "R kmsg []" ]]; then
	ok "--rootdir of 64 MiB onto 2 GiB/64 MiB zones with writeback from 16 MiB dirty: checks clean, mounts, same content, no write-pointer message"
else
	bad "--rootdir: $(grep '^R ' "$W/out" | tr '\n' ' ')"
fi
l=$(line N rc)
if [[ $l == "N rc 1 same=yes mkfs.f2fs: -m: /dev/vdc is not a zoned block device" ]]; then
	ok "-m on a block device without zones: one line naming it, exit 1, nothing written"
else
	bad "-m on a regular disk: [$l]"
fi
l=$(line M damaged)
if [[ $l =~ damaged\ [1-9][0-9]*\ 1\  ]]; then
	ok "regular + zoned: a block written into an empty zone of the zoned device is reported: ${l#* * * * }"
else
	bad "regular + zoned: moved write pointer: [$l]"
fi
read -r _ _ total avail <<<"$(line M df)"
if [[ -n ${avail:-} && -n $(line M wrote) && $(line M kmsg) == "M kmsg []" &&
	$(line M fsck) == "M fsck 0 " ]]; then
	ok "256 MiB regular disk + 1 GiB zoned (64 MiB zones) with -c: $((avail / 1024)) MiB available, 160 MiB written, no write-pointer message, our fsck -f clean"
else
	bad "regular + zoned: $(grep '^M ' "$W/out" | tr '\n' ' ')"
fi
kerrs=$(grep '^kernel: ' "$W/kerr" | grep -E 'BUG|WARNING|Oops|error' | head -n 3)
[[ -z $kerrs ]] && ok "no kernel error" || bad "kernel: $kerrs"
finish
