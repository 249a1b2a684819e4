#!/bin/bash
# dump.f2fs --gc's search window against the real kernel on a -s 2 image
# (issue 13 point 10). With two segments per section Linux 6.1 walks
# dirty_secmap, in which current sections are absent; the window counts
# its bits (gc.c select_policy, get_victim_by_default).
#
# Boot 1 ages a 512 MiB -s 2 image made by our mkfs: four phases of 80 files
# (16 KiB to 1.5 MiB, about 250 MiB), a sync after each, then about half of them deleted.
# On the host, our greedy background ranking is computed for every window
# W; W1 is the smallest window that reaches the cheapest section. Boot 2
# mounts fresh copies of the aged image (background_gc=off, gc_idle=2 so
# that background GC is greedy, max_victim_search=W) and runs one
# background GC pass through F2FS_IOC_GARBAGE_COLLECT (sync=0) on each;
# the kernel's victim is read from the f2fs_get_victim trace event:
#   - windows W1 - 1, W1 and 20: the kernel's victim is our rank 1. Our
#     victim changes at W1, so a window one section off (e.g. counting a
#     current section) gives another victim at W1 or W1 - 1;
#   - one foreground pass (sync=1, every section searched): the kernel's
#     victim is our FG greedy rank 1.
# The test also checks that some current section below the one at W1 is
# partly valid, i.e. that a window counting current sections would differ.
# Exit 77 without the harness or a static C compiler, or with
# F2FS_KERNEL_TESTS=skip (F2FS_REQUIRE_KERNEL=1 makes a missing harness a
# failure).
NAME=dump-gc-kernel
. "$(dirname "$0")/common.sh"
KVM_RUN=$top_srcdir/tests/kernel/kvm-run
CC=${CC:-cc}

if [[ ${F2FS_KERNEL_TESTS:-auto} == skip ]]; then
	echo "$NAME: skipped (F2FS_KERNEL_TESTS=skip)"
	exit 77
fi
need_tools
unavailable() {
	echo "$NAME: $*"
	if [[ ${F2FS_REQUIRE_KERNEL:-0} == 1 ]]; then bad "$* (F2FS_REQUIRE_KERNEL=1)"; finish; exit 1; fi
	exit 77
}
"$CC" -static -O2 -Wall -Wextra -o "$W/dump-gc-ioctl" "$HERE/guest-gc.c" 2>"$W/cc.err" ||
	unavailable "cannot build a static helper with $CC: $(head -n 1 "$W/cc.err")"

kvm() { # kvm LOG ARGS... ; sets krc
	"$KVM_RUN" --dmesg "${@:2}" >"$W/$1.out" 2>"$W/$1.err"
	krc=$?
	((krc == 77)) && { cat "$W/$1.err"; unavailable "kernel harness unavailable"; }
}

img=$W/a.img
truncate -s 512M "$img"
"$MKFS" -q -f -s 2 "$img" >"$W/mkfs.log" 2>&1 || { bad "mkfs -s 2: $(tail -1 "$W/mkfs.log")"; finish; exit 1; }

cat >"$W/age.sh" <<'JOB'
mount -t f2fs /dev/vda /mnt || exit 10
p=0
while [ $p -lt 4 ]; do
	mkdir /mnt/p$p || exit 11
	i=0
	while [ $i -lt 80 ]; do
		dd if=/dev/zero of=/mnt/p$p/f$i bs=16k count=$(((i * 37 + p * 11) % 96 + 1)) 2>/dev/null || exit 12
		i=$((i + 1))
	done
	sync
	p=$((p + 1))
done
p=0
while [ $p -lt 4 ]; do
	i=$((p % 2))
	while [ $i -lt 80 ]; do rm /mnt/p$p/f$i || exit 13; i=$((i + 2)); done
	p=$((p + 1))
done
sync
umount /mnt || exit 14
echo aged
JOB
kvm age --timeout 600 "$img" "$W/age.sh"
if ((krc != 0)) || ! grep -qx aged "$W/age.out"; then
	bad "boot 1 (aging) exited $krc"
	sed 's/^/    | /' "$W/age.out" "$W/age.err" | tail -20
	finish
	exit 1
fi
ok "boot 1: -s 2 image aged by the kernel (4 phases, half deleted)"

# our greedy background victim for window W ("none" when there is none)
victim() {
	run --json --gc --policy greedy --bg --max-search "$1" "$img"
	jget gc.victim_secno
}
run --json --gc --policy greedy --fg "$img"
ndirty=$(jget gc.dirty_sections)
fgv=$(jget gc.victim_secno)
check "aged image has dirty sections ($ndirty) and a FG victim ($fgv)" test "$ndirty" -gt 20 -a "$fgv" != none
w1=1
while ((w1 < ndirty)) && [[ $(victim $w1) != "$fgv" ]]; do w1=$((w1 + 1)); done
# a window of 1 that already reaches it discriminates nothing
if ((w1 < 2)); then
	bad "the cheapest section is the first in the map: the windows would prove nothing"
	finish
	exit 1
fi
# the sections in map order, and the current ones
run --json --gc --policy greedy --fg --top 100000 "$img"
order=$(python3 -c 'import json,sys; print(" ".join(str(s) for s in sorted(r["secno"] for r in json.load(open(sys.argv[1]))["victims"])))' "$W/out")
run --json -s 0~-1 "$img"
curpart=$(python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["sit"]
cur = {r["segno"] // 2 for r in rows if r["state"] == "current"}
valid = {}
for r in rows:
    valid[r["segno"] // 2] = valid.get(r["segno"] // 2, 0) + r["valid"]
print(" ".join(str(s) for s in sorted(cur) if 0 < valid[s] < 1024))' "$W/out")
atw1=$(echo $order | cut -d' ' -f"$w1")
below=0
for s in $curpart; do ((s < atw1)) && below=$((below + 1)); done
check "partly valid current sections ($curpart) lie below section $atw1 (the W1-th): $below" test "$below" -gt 0

wins=($((w1 - 1)) "$w1" 20)
modes=(bg bg bg fg)
want=()
for k in 0 1 2; do want+=("$(victim "${wins[$k]}")"); done
want+=("$fgv")
disks=()
for k in 0 1 2 3; do
	cp --sparse=always "$img" "$W/c$k.img"
	disks+=("$W/c$k.img")
done
{
	echo 'T=/sys/kernel/tracing'
	echo '[ -e $T/trace ] || mount -t tracefs nodev $T || exit 20'
	echo 'echo 1 > $T/events/f2fs/f2fs_get_victim/enable || exit 21'
	for k in 0 1 2 3; do
		d=vd$(printf "\\x$(printf %x $((97 + k)))")
		echo ": > \$T/trace"
		echo "mount -t f2fs -o background_gc=off /dev/$d /mnt || exit 22"
		echo "echo 2 > /sys/fs/f2fs/$d/gc_idle || exit 23"
		echo "echo ${wins[$k]:-0} > /sys/fs/f2fs/$d/max_victim_search || exit 24"
		echo "dump-gc-ioctl ${modes[$k]} /mnt || exit 25"
		echo "echo \"pass $k: \$(grep -m1 f2fs_get_victim \$T/trace)\""
		echo "umount /mnt || exit 26"
	done
	echo 'echo gc-done'
} >"$W/gc.sh"
kvm gc --timeout 600 --file "$W/dump-gc-ioctl" --extra "${disks[1]}" --extra "${disks[2]}" \
	--extra "${disks[3]}" "${disks[0]}" "$W/gc.sh"
if ((krc != 0)) || ! grep -qx gc-done "$W/gc.out"; then
	bad "boot 2 (GC passes) exited $krc"
	sed 's/^/    | /' "$W/gc.out" "$W/gc.err" | tail -20
	finish
	exit 1
fi
for k in 0 1 2 3; do
	line=$(grep "^pass $k: " "$W/gc.out" | tr -d '\r')
	seg=$(sed -n 's/.*victim = \([0-9]*\),.*/\1/p' <<<"$line")
	if [[ ${modes[$k]} == bg ]]; then
		what="BG greedy window ${wins[$k]}"
		kind=Background
	else
		what="FG greedy"
		kind=Foreground
	fi
	if [[ -z $seg || $line != *"$kind GC"* ]]; then
		bad "$what: no $kind victim traced: [$line]"
		continue
	fi
	check "$what: the kernel's victim (section $((seg / 2))) is our rank 1 (${want[$k]})" \
		test "$((seg / 2))" = "${want[$k]}"
done
check "our victim changes at W1 ($((w1 - 1)): ${want[0]}, $w1: ${want[1]})" test "${want[0]}" != "${want[1]}"
finish
