#!/bin/bash
# Power cut: images from our mkfs get a real-kernel workload with fsyncs and
# lose power in the middle of it (tests/kernel/kvm-run --crash-after-ms). Then
#  - the image as the cut left it (nothing recovered yet) is what the last
#    checkpoint describes, with an orphan inode (unlinked, still open) in its
#    orphan list; blocks fsynced later are outside the checkpoint and not
#    counted. Our fsck must find it clean, and at the least never exit 8 or
#    crash; its report is printed. Its roll-forward chain (the nodes fsynced
#    after the checkpoint) must hold an fsync-marked node per fsynced file;
#  - a second boot mounts it, which rolls the fsynced files forward, checks
#    that they are there and unmounts; our `fsck.f2fs -f -n` must then find
#    it clean with no chain left, and so must f2fs-tools' fsck.f2fs -f
#    --dry-run (when present).
# Exit 77 when the harness cannot run or F2FS_KERNEL_TESTS=skip
# (F2FS_REQUIRE_KERNEL=1 turns an unavailable harness into a failure).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
. "$HERE/../lib/peer-fsck.sh"
DUMP=${DUMP:-$TOP_BUILD/dump/dump.f2fs}
# Long enough for the first image's workload to end and its fsync loop to run
# for a while; the second image's longer workload is still going at the cut.
CRASH_MS=${F2FS_POWERCUT_MS:-9000}

kernel_tests_on kernel-powercut
W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-powercut.XXXXXX") || exit 1
# F2FS_POWERCUT_KEEP=1 keeps the images for a look afterwards.
if [[ ${F2FS_POWERCUT_KEEP:-0} == 1 ]]; then
	echo "kernel-powercut: images kept in $W"
else
	trap 'rm -rf "$W"' EXIT
fi

OPTS=(
	""
	"-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,quota,lost_found,inode_crtime,project_quota"
)
for k in "${!OPTS[@]}"; do
	truncate -s 256M "$W/p$k.img"
	# shellcheck disable=SC2086
	"$MKFS" -q -f ${OPTS[$k]} "$W/p$k.img" || { bad "mkfs ${OPTS[$k]}"; summary kernel-powercut; exit 1; }
done

# Boot 1: vda runs a short workload (which ends in a syncfs, so a checkpoint)
# and then creates and appends to files with an fsync after each, for ever;
# vdb runs a long workload in the background. Lines after "synced" name the
# files whose fsync returned: they must survive the cut.
cat >"$W/cut.sh" <<'EOF'
mount -t f2fs /dev/vda /mnt || exit 1
mkdir /mnt2 && mount -t f2fs /dev/vdb /mnt2 || exit 1
# files of other users and groups, so that the quota files hold several ids
mkdir /mnt2/own || exit 1
i=0
while [ $i -lt 12 ]; do printf "%-$((i * 700 + 1))s" $i >/mnt2/own/f$i; i=$((i + 1)); done
chown -R 1000:50 /mnt2/own && chown 1001:51 /mnt2/own/f1 /mnt2/own/f2 || exit 1
sync -f /mnt2 || exit 1
workload /mnt2/w 3000 >/dev/null 2>&1 &
workload /mnt/w 120 >/dev/null || exit 1
echo workload-done
mkdir /mnt/p
# an orphan: unlinked while open, and a checkpoint (syncfs) that lists it
exec 3>/mnt/p/held
printf 'held open\n' >&3
rm /mnt/p/held
sync -f /mnt/p || exit 1
echo orphan-listed
# no checkpoint by the timer from here on (cp_interval, 60 s): one in the
# loop would empty the chain that the check below counts
echo 100000 >/sys/fs/f2fs/vda/cp_interval || exit 1
i=0
while :; do
	printf 'fsynced file %d\n' $i >/mnt/p/f$i
	printf '%-4095s\n' "block $i" >>/mnt/p/grow
	sync /mnt/p/f$i /mnt/p/grow
	echo "synced $i"
	i=$((i + 1))
done
EOF
# the power cut: kvm-run kills QEMU (137)
kvm_boot kernel-powercut 137 --crash-after-ms "$CRASH_MS" "$W/p0.img" "$W/p1.img" "$W/cut.sh"
last=$(printf '%s\n' "$KVM_OUT" | sed -n 's/^synced \([0-9]*\)$/\1/p' | tail -n 1)
if [[ -z $last ]]; then
	bad "the cut came before any fsync of the loop (raise F2FS_POWERCUT_MS)"
	printf '%s\n' "$KVM_OUT" | tail -5
	summary kernel-powercut
	exit 1
fi
ok "power cut after $((last + 1)) fsynced files"

# Before recovery: a report, not a failure of the checker.
for k in "${!OPTS[@]}"; do
	cp --sparse=always "$W/p$k.img" "$W/cut$k.img"
	rc=0
	res=$("$FSCK" -f -n "$W/cut$k.img" 2>&1) || rc=$?
	echo "before recovery, '${OPTS[$k]:-default}': exit $rc"
	printf '%s\n' "$res" | head -8 | sed 's/^/  | /'
	if [[ $rc -eq 0 ]]; then
		ok "unrecovered image '${OPTS[$k]:-default}' checks clean"
	elif [[ $rc -eq 4 ]]; then
		bad "unrecovered image '${OPTS[$k]:-default}': errors reported"
	else
		bad "unrecovered image '${OPTS[$k]:-default}': exit $rc"
	fi
	# for comparison only: f2fs-tools' verdict on the same unrecovered image
	if [[ -x ${PEER_FSCK:-/usr/sbin/fsck.f2fs} ]]; then
		if why=$(peer_fsck_clean "$W/cut$k.img" "$W/peer.img"); then
			echo "  f2fs-tools fsck.f2fs on it: clean"
		else
			echo "  f2fs-tools fsck.f2fs on it: $why"
		fi
	fi
done
# The fsync loop ran on vda after a checkpoint: each fsync left at least one
# fsync-marked node on the roll-forward chain, which fsck follows as the
# kernel's next mount will.
rc=0
json=$("$FSCK" -f -n --json "$W/cut0.img" 2>&1) || rc=$?
fsyncs=$(sed -n 's/.*"roll_forward":{"nodes":[0-9]*,"fsync":\([0-9]*\)[,}].*/\1/p' <<<"$json")
if [[ -n $fsyncs ]] && ((fsyncs >= last + 1)); then
	ok "the roll-forward chain holds $fsyncs fsync-marked nodes for $((last + 1)) fsynced files"
else
	bad "roll-forward chain: ${fsyncs:-no} fsync-marked nodes for $((last + 1)) fsynced files (exit $rc)"
fi
if [[ $("$DUMP" "$W/cut0.img" 2>&1) == *orphan_present* ]]; then
	ok "the cut left an orphan list in the checkpoint"
else
	bad "no orphan list in the checkpoint after the cut"
fi

# Boot 2: mount (roll-forward recovery), see the fsynced files, unmount.
cat >"$W/recover.sh" <<EOF
set -e
mount -t f2fs /dev/vda /mnt
i=0
while [ \$i -le $last ]; do
	read -r line </mnt/p/f\$i
	[ "\$line" = "fsynced file \$i" ] || { echo "lost f\$i"; exit 1; }
	i=\$((i + 1))
done
n=\$(wc -c </mnt/p/grow)
[ \$n -ge $(((last + 1) * 4096)) ] || { echo "grow has \$n bytes"; exit 1; }
umount /mnt
mount -t f2fs /dev/vdb /mnt
umount /mnt
echo recovered
EOF
KVM_MARK=recovered kvm_boot kernel-powercut 0 "$W/p0.img" "$W/p1.img" "$W/recover.sh"
ok "recovery mount kept all $((last + 1)) fsynced files"

for k in "${!OPTS[@]}"; do
	expect_clean "recovered image '${OPTS[$k]:-default}'" "$W/p$k.img" -f -n
	if [[ $("$FSCK" -f -n --json "$W/p$k.img" 2>&1) == *'"roll_forward":{"nodes":0,'* ]]; then
		ok "recovered image '${OPTS[$k]:-default}': nothing left to roll forward"
	else
		bad "recovered image '${OPTS[$k]:-default}': a roll-forward chain is left"
	fi
	expect_peer_clean "recovered image '${OPTS[$k]:-default}'" "$W/p$k.img" "$W/peer.img"
done
summary kernel-powercut
