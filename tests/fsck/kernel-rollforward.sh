#!/bin/bash
# Roll-forward recovery, with the kernel as the oracle. Images from our mkfs
# (one per seed, the features varying) get the guest workload rollwork
# (tests/kernel/guest: fsync'd creates, appends, overwrites, rewrites,
# truncates, holes, far blocks, files replaced by new ones of the same name,
# xattrs inline and in xattr nodes, owners) in
# parallel, and lose power in the middle
# of it (kvm-run --crash-after-ms). Then, for each image:
#  (a) a copy is left to the kernel: its mount recovers the chain;
#  (b) our fsck -f -y recovers another copy itself (then checks clean);
#  the kernel mounts both and lists them (fsmanifest: paths, types, modes,
#  owners, sizes, content hashes, xattrs, file mtimes): the listings must be
#  equal, every file whose fsync returned must be there with the content it
#  had then, and afterwards our fsck and f2fs-tools' find both clean.
#  (c) power cut during our repair: the first image's repair is stopped
#  after k block writes (F2FS_FSCK_FAULT) for a spread of k: the kernel's
#  mount must still recover every fsync'd file (the same listing as (a)),
#  and a rerun of our fsck -y on another copy must leave it clean.
# F2FS_ROLL_SEEDS="1 2 3 ..." runs more seeds (default 6: one per feature
# set; up to 9 a run: the listing boot takes two disks a seed and the six
# cut repairs, and the harness attaches 25 at most); F2FS_ROLL_FSYNCS (default 40) is how many fsyncs each
# workload has had return before the cut; F2FS_ROLL_MS is a last resort cut
# (default 120000 ms after the job starts).
# Exit 77 when the harness or a static C compiler is missing, or with
# F2FS_KERNEL_TESTS=skip (F2FS_REQUIRE_KERNEL=1 turns those into failures).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
. "$HERE/../lib/peer-fsck.sh"
CC=${CC:-cc}
FSYNCS=${F2FS_ROLL_FSYNCS:-40}
CRASH_MS=${F2FS_ROLL_MS:-120000}
read -r -a SEEDS <<<"${F2FS_ROLL_SEEDS:-1 2 3 4 5 6}"

unavailable() {
	echo "kernel-rollforward: $*"
	[[ ${F2FS_REQUIRE_KERNEL:-0} == 1 ]] && exit 1
	exit 77
}
kernel_tests_on kernel-rollforward
W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-roll.XXXXXX") || exit 1
if [[ ${F2FS_ROLL_KEEP:-0} == 1 ]]; then
	echo "kernel-rollforward: images kept in $W"
else
	trap 'rm -rf "$W"' EXIT
fi
GSRC=$HERE/../kernel/guest/src
for h in fsmanifest chflag-casefold xattr-fsync fscrypt-key; do
	"$CC" -static -O2 -o "$W/$h" "$GSRC/$h.c" 2>"$W/cc.err" ||
		unavailable "cannot build a static $h with $CC: $(head -n 1 "$W/cc.err")"
done

# feature sets, taken in turn by the seeds | the new files' directory:
# 1 casefolded, 2 encrypted (fscrypt v2, the test key of guest helper
# fscrypt-key), 3 both | mount options (compression: base/data.z, which the
# workload leaves alone, is compressed; the kernel makes a checkpoint for
# every fsync of a compressed file, so none is on the chain)
OPTS=(
	"|0|"
	"-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,inode_crtime,project_quota,quota,lost_found|0|"
	"-O extra_attr,inode_checksum,casefold -C utf8|1|"
	"-O extra_attr,compression|0|-o compress_extension=z"
	"-O encrypt|2|"
	"-O extra_attr,inode_checksum,encrypt,casefold -C utf8|3|"
)
N=${#SEEDS[@]}
# the image whose repair is cut: one without quota, whose repair is one
# transaction (F2FS_FSCK_FAULT counts the writes of each transaction anew)
C=0
((N <= 9)) || { echo "kernel-rollforward: at most 9 seeds a run"; exit 1; }
job=$W/cut.sh
: >"$job"
for k in "${!SEEDS[@]}"; do
	IFS='|' read -r o cf mo <<<"${OPTS[$((k % ${#OPTS[@]}))]}"
	truncate -s 128M "$W/p$k.img"
	# shellcheck disable=SC2086
	"$MKFS" -q -f $o "$W/p$k.img" || { bad "mkfs $o"; summary kernel-rollforward; exit 1; }
	label[k]="seed ${SEEDS[$k]} '${o:-default}'"
	dev=$(guest_dev "$k")
	{
		echo "mkdir -p /mnt$k && mount -t f2fs $mo $dev /mnt$k || exit 1"
		((cf > 0)) && echo "mkdir /mnt$k/new || exit 1"
		((cf & 1)) && echo "chflag-casefold /mnt$k/new || exit 1"
		((cf & 2)) && echo "fscrypt-key policy /mnt$k/new || exit 1"
		echo "rollwork-base /mnt$k || exit 1"
		# no timer checkpoint: it would empty the chain
		echo "echo 100000 >/sys/fs/f2fs/${dev#/dev/}/cp_interval || exit 1"
	} >>"$job"
done
for k in "${!SEEDS[@]}"; do echo "rollwork /mnt$k ${SEEDS[$k]} | tee /tmp/s$k &"; done >>"$job"
# The job cuts the power itself (as kvm-run's init does for
# --crash-after-ms) once every workload has had FSYNCS fsyncs return, a
# seed-dependent moment later: a slow host then only makes the run longer.
cat >>"$job" <<EOF
for k in ${!SEEDS[*]}; do
	while [ \$(cat /tmp/s\$k 2>/dev/null | wc -l) -lt $FSYNCS ]; do usleep 100000; done
done
usleep $(( (SEEDS[0] * 7919) % 400 * 1000 ))
echo 'S cut' >/dev/ttyS2
stty -F /dev/ttyS1 raw; stty -F /dev/ttyS2 raw
echo b >/proc/sysrq-trigger
sleep 60
EOF
disks=()
for k in "${!SEEDS[@]}"; do disks+=("$W/p$k.img"); done
kvm_boot kernel-rollforward 137 --crash-after-ms "$CRASH_MS" --file "$W/chflag-casefold" \
	--file "$W/fscrypt-key" \
	--file "$W/xattr-fsync" \
	"${disks[@]}" "$job"
printf '%s\n' "$KVM_OUT" | grep -E '^(synced /mnt[0-9]+/[^ ]+ [0-9a-f]{32}|begin /mnt[0-9]+/[^ ]+)$' >"$W/steps"
grep '^synced ' "$W/steps" >"$W/synced"
for k in "${!SEEDS[@]}"; do
	n=$(grep -c "^synced /mnt$k/" "$W/synced")
	if ((n > 0)); then
		ok "${label[k]}: $n fsyncs returned before the cut"
	else
		bad "${label[k]}: no fsync returned before the cut"
	fi
done

# (a), (b): copies; (c): the first image's repair cut after k writes.
list2=() names=()
for k in "${!SEEDS[@]}"; do
	cp --sparse=always "$W/p$k.img" "$W/a$k.img"
	cp --sparse=always "$W/p$k.img" "$W/b$k.img"
	list2+=("$W/a$k.img" "$W/b$k.img")
	names+=("a$k" "b$k")
	rc=0
	# every other seed with 4 nodes in memory: the rest go through the spill file
	spill=$((k % 2 ? 4 : 0)) note=
	((spill)) && note="; $spill nodes in memory, the rest spilled"
	out=$(F2FS_FSCK_STAGED_NODES=$spill "$FSCK" -f -y --json "$W/b$k.img" 2>&1) || rc=$?
	if [[ $rc -le 1 && $out == *'"recovery":"done"'* ]]; then
		u=$(sed -n 's/.*"unlinked":\([0-9]*\).*/\1/p' <<<"$out")
		ok "${label[k]}: our fsck -y recovered the chain (exit $rc; ${u:-0} name(s) taken from other inodes unlinked$note)"
	else
		bad "${label[k]}: our fsck -y (exit $rc)"
		printf '%s\n' "$out" | grep -o '"roll_forward":{[^}]*}\|"refused":"[^"]*"' | head -3
	fi
	if [[ $k -eq $C ]]; then
		b=$(sed -n 's/.*"bytes_written":\([0-9]*\).*/\1/p' <<<"$out")
		writes=$((${b:-0} / 4096))
	fi
	expect_clean "${label[k]} after our recovery" "$W/b$k.img" -f -n
	expect_peer_clean "${label[k]} after our recovery" "$W/b$k.img" "$W/peer.img"
done
cuts=()
for c in 1 2 $((writes / 4)) $((writes / 2)) $((writes - 2)) $((writes - 1)); do
	((c >= 1 && c < writes)) && [[ " ${cuts[*]} " != *" $c "* ]] && cuts+=("$c")
done
for c in "${cuts[@]}"; do
	cp --sparse=always "$W/p$C.img" "$W/c$c.img"
	rc=0
	F2FS_FSCK_FAULT=$c "$FSCK" -f -y "$W/c$c.img" >/dev/null 2>&1 || rc=$?
	if ((rc >= 8)); then
		ok "repair of ${label[C]} cut after $c of $writes writes (exit $rc)"
	else
		bad "repair of ${label[C]} cut after $c of $writes writes: exit $rc"
	fi
	cp --sparse=always "$W/c$c.img" "$W/r$c.img"
	rc=0
	"$FSCK" -f -y "$W/r$c.img" >/dev/null 2>&1 || rc=$?
	((rc <= 1)) || bad "rerun after the cut at $c: exit $rc"
	expect_clean "rerun after the cut at $c" "$W/r$c.img" -f -n
	list2+=("$W/c$c.img")
	names+=("c$c")
done

# Boot 2: the kernel mounts every image and lists it.
{
	echo 'mkdir -p /tmp/l'
	for i in "${!list2[@]}"; do
		# the test key, where the image can take one: encrypted names and
		# contents are listed as the workload wrote them
		echo "mount -t f2fs -o noatime $(guest_dev "$i") /mnt && { fscrypt-key add /mnt 2>/dev/null; fsmanifest /mnt >/tmp/l/$i; } && umount /mnt || echo \"list-failed $i\""
	done
	for i in "${!list2[@]}"; do echo "echo '=== $i'; cat /tmp/l/$i"; done
	echo 'echo listed'
} >"$W/list.sh"
KVM_MARK=listed kvm_boot kernel-rollforward 0 --timeout 300 --file "$W/fsmanifest" --file "$W/fscrypt-key" \
	"${list2[@]}" "$W/list.sh"
printf '%s\n' "$KVM_OUT" | grep '^list-failed' | sed 's/^/  /'
# a directory's mtime after recovery is the mount's time
printf '%s\n' "$KVM_OUT" | awk -v d="$W" '
	/^=== / { f = d "/" $2 ".list"; printf "" >f; next }
	/^listed$/ { f = ""; next }
	f != "" { if ($2 == "d") sub(/ mt=[^ ]*/, ""); print >>f }'
same=0
for k in "${!SEEDS[@]}"; do
	la=$W/$((2 * k)).list lb=$W/$((2 * k + 1)).list
	if [[ -s $la ]] && cmp -s "$la" "$lb"; then
		same=$((same + 1))
		ok "${label[k]}: the kernel's recovery and ours list the same ($(wc -l <"$la") entries)"
	else
		bad "${label[k]}: the listings differ"
		diff "$la" "$lb" | head -10
	fi
	# per file: the content of its last fsync, and whether a step on it was
	# under way at the cut (its state may then be that step's)
	lost=0 total=0
	while read -r path md5 busy; do
		rel=${path#/mnt$k/}
		total=$((total + 1))
		if [[ $busy == 1 ]]; then
			grep -q "^$rel f " "$la"
		else
			grep -q "^$rel f .*md5=$md5" "$la"
		fi || { lost=$((lost + 1)); echo "  lost: $rel"; }
	done < <(awk -v m="/mnt$k/" 'index($2, m) != 1 { next }
		$1 == "synced" { md5[$2] = $3; busy[$2] = 0 }
		$1 == "begin" { busy[$2] = 1 }
		END { for (p in md5) print p, md5[p], busy[p] }' "$W/steps")
	if ((lost == 0)); then
		ok "${label[k]}: all $total fsync'd files have their fsync'd content"
	else
		bad "${label[k]}: $lost of $total fsync'd files lost or changed"
	fi
done
base=$((2 * N))
for i in "${!cuts[@]}"; do
	if cmp -s "$W/$((2 * C)).list" "$W/$((base + i)).list"; then
		ok "cut at write ${cuts[$i]}: the kernel still recovers the same files"
	else
		bad "cut at write ${cuts[$i]}: the kernel's listing differs"
		diff "$W/$((2 * C)).list" "$W/$((base + i)).list" | head -6
	fi
done
for k in "${!SEEDS[@]}"; do
	for x in a b; do
		expect_clean "${label[k]} ($x, mounted)" "$W/$x$k.img" -f -n
		expect_peer_clean "${label[k]} ($x, mounted)" "$W/$x$k.img" "$W/peer.img"
	done
done
echo "kernel-rollforward: $same of $N listings equal; ${#cuts[@]} cut repairs"
summary kernel-rollforward
