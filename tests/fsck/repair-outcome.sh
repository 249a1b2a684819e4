#!/bin/bash
# What a repair leaves, judged by others than ourselves. Every damaged case
# under cases/ whose repair (expect.1) fixes everything is repaired again
# here: f2fs-tools' fsck.f2fs -f --dry-run must find the result clean. Then
# the real kernel (tests/kernel/kvm-run) mounts a sample of them (all with
# F2FS_LONG_TESTS=1) and lists every file with its content's md5: the list
# must be the one of the undamaged image (every case is a copy of one base
# image). The same for repairs cut short (F2FS_FSCK_FAULT: after 1 block,
# and torn in the middle and at the pack's last block): the kernel mounts
# the old state or the new one, with the same files. Exit 77 without f2fs-tools; the kernel part is skipped as the
# other kernel tests are (F2FS_KERNEL_TESTS=skip).
# The data-loss account: where a repair removes or moves something (an
# entry, a file into lost+found), the kernel's listing of the repaired image
# may differ from the undamaged one only in the paths the repair's report
# names (the path itself, a renamed "path~N", anything under it) and under
# /lost+found; any other difference fails.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
. "$HERE/../lib/peer-fsck.sh"
if [[ ! -x ${PEER_FSCK:-/usr/sbin/fsck.f2fs} ]]; then
	echo "repair-outcome: f2fs-tools' fsck.f2fs not installed"
	exit 77
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-repair.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT

SAMPLE=" cp-curseg-range cp-space-counts root-missing inode-extra-isize inode-extra-isize-blocks roll-forward-loop cp-summary ssa-mismatch sit-journal nat-bits-full orphan-linked sb-primary-invalid quota-usage-mismatch quota-log-full nat-ino-mismatch dir-dangling dir-wrong-bucket dir-duplicate-name dir-bad-name inode-unreachable dir-multiple-parents dir-dotdot dir-bitmap inode-links inode-unreachable-new-lost-found "
repaired=()
for d in "$HERE"/cases/*/; do
	name=$(basename "$d")
	[[ -f $d/expect.1 && $(tail -1 "$d/expect.1") == "exit status 1" ]] || continue
	bzip2 -dc "$d/image.bz2" >"$W/$name.img"
	rc=0
	"$FSCK" -y "$W/$name.img" >/dev/null 2>&1 || rc=$?
	if [[ $rc != 1 ]]; then
		bad "$name: repair exit $rc"
		continue
	fi
	expect_peer_clean "$name repaired" "$W/$name.img" "$W/copy.img"
	if [[ ${F2FS_LONG_TESTS:-0} == 1 || $SAMPLE == *" $name "* ]]; then
		repaired+=("$name")
	else
		rm -f "$W/$name.img"
	fi
done
# interrupted repairs of one case (damage the kernel mounts anyway: an SSA
# entry): each leaves the old image or the new
# (only problems it had before, but the older pack's slot being overwritten)
names() { grep -E '^(ERROR|WARNING) ' "$1" | cut -d' ' -f2 | grep -vx cp.backup_pack_invalid | sort -u; }
bzip2 -dc "$HERE/cases/ssa-mismatch/image.bz2" >"$W/before.img"
"$FSCK" -f -n "$W/before.img" >"$W/before.out" 2>&1
for cut in 1 4:512 7:512; do
	name=cut-${cut%%:*}
	cp --sparse=always "$W/before.img" "$W/$name.img"
	rc=0
	F2FS_FSCK_FAULT=$cut "$FSCK" -y "$W/$name.img" >"$W/cut.out" 2>&1 || rc=$?
	rc2=0
	"$FSCK" -f -n "$W/$name.img" >"$W/cut2.out" 2>&1 || rc2=$?
	if [[ $rc == 8 ]] && grep -q "injected write failure" "$W/cut.out" &&
	   { [[ $rc2 == 0 ]] || [[ -z $(comm -13 <(names "$W/before.out") <(names "$W/cut2.out")) ]]; }; then
		ok "repair cut after $cut: exit 8, the image checks as the old one or the new ($rc2)"
		repaired+=("$name")
	else
		bad "repair cut after $cut: exit $rc, then $rc2"
		head -5 "$W/cut2.out"
	fi
done
# --json after a repair: the exit, the fixed problems and what was written
bzip2 -dc "$HERE/cases/sit-journal/image.bz2" >"$W/json.img"
rc=0
"$FSCK" -y --json "$W/json.img" >"$W/json.out" 2>&1 || rc=$?
if python3 - "$W/json.out" "$rc" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d['repair']
ok = (d['exit'] == int(sys.argv[2]) == 1 and r['committed'] and r['refused'] is None and
      r['fixed'] == 1 and r['unfixed'] == 0 and r['sit']['blocks_written'] == 1 and
      r['checkpoint_blocks'] > 0 and r['bytes_written'] == 4096 * (r['sit']['blocks_written'] +
      r['nat']['blocks_written'] + r['ssa_blocks'] + r['checkpoint_blocks'] + r['superblock_blocks']) and
      all(p['fixed'] and p['fix'] == 'rebuild' for p in d['problems']))
sys.exit(0 if ok else 1)
PY
then
	ok "--json repair report"
else
	bad "--json repair report (exit $rc)"
	head -c 2000 "$W/json.out"
fi
if [[ ${F2FS_KERNEL_TESTS:-auto} == skip || ${#repaired[@]} == 0 ]]; then
	summary repair-outcome
	exit
fi
# unaccounted EXPECT.1 BEFORE AFTER: the lines of the two listings' diff
# that are not accounted for: a line is when it is under ./lost+found, about
# a path EXPECT.1 names (or its "~N" rename, or under it), or a file gone
# from its path whose content is still in AFTER (another link, a rename).
# moved_to_lost PATH BEFORE AFTER: is PATH (./a/b/c) in AFTER under
# lost+found, as the directory it was in or one above it linked there
# (NAME/b/c, NAME/c: under its own name or #INO), or is it such a
# directory (a child of it is)?
moved_to_lost() {
	local rest=${1#./} re child
	while [[ $rest == */* ]]; do
		rest=${rest#*/}
		re=$(sed 's/[.[\*^$+?(){}|]/\\&/g' <<<"$rest")
		grep -qE "^\./lost\+found/[^/]+/$re( |\$)" "$3" && return 0
	done
	child=$(grep -m1 -F "$1/" "$2" | cut -d' ' -f1)
	[[ -n $child && $child == "$1/"* ]] || return 1
	re=$(sed 's/[.[\*^$+?(){}|]/\\&/g' <<<"${child#"$1"/}")
	grep -qE "^\./lost\+found/[^/]+/$re( |\$)" "$3"
}
unaccounted() {
	local paths
	paths=$(sed -n 's/.* path \(\/.*\): fixed ([a-z]*)\(, now .*\)\{0,1\}$/\1/p' "$1" | sort -u)
	diff "$2" "$3" | sed -n 's/^\([<>]\) /\1 /p' | while read -r side f sum; do
		[[ $f == ./lost+found* ]] && continue
		[[ $side == '<' && -n $sum ]] && grep -q " $sum\$" "$3" && continue
		[[ $side == '<' ]] && moved_to_lost "$f" "$2" "$3" && continue
		hit=0
		while read -r p; do
			[[ -n $p ]] || continue
			p=${p%/}   # the root ("/"): anything under it
			case $f in ".$p" | ".$p~"* | ".$p/"*) hit=1 ;; esac
		done <<<"$paths"
		[[ $hit == 1 ]] || echo "$side $f $sum"
	done
}
bzip2 -dc "$HERE/cases/clean-full/image.bz2" >"$W/base.img"
disks=("$W/base.img")
for name in "${repaired[@]}"; do disks+=("$W/$name.img"); done
# boot_list FIRST N: one boot lists the base image (list.0) and disks
# FIRST..FIRST+N-1 (list.K): the harness attaches at most 25 disks
boot_list() {
	local first=$1 n=$2 job=$W/job.sh k d
	{
		for ((k = 0; k <= n; k++)); do
			d=$((k ? first + k - 1 : 0))
			echo "echo '== disk $d'"
			echo "mount -t f2fs $(guest_dev "$k") /mnt || echo MOUNT-FAILED"
			echo "(cd /mnt && find . | sort | while read -r f; do if [ -f \"\$f\" ] && [ ! -L \"\$f\" ]; then echo \"\$f \$(md5sum <\"\$f\" | cut -c1-32)\"; else echo \"\$f\"; fi; done)"
			# a rebuilt quota file is read and updated by the kernel: a
			# new owner's file must be counted in it at unmount
			[[ $k -gt 0 && ${repaired[$((d - 1))]} == quota-* ]] &&
				echo "echo q >/mnt/quota-probe && chown 4242:4243 /mnt/quota-probe"
			echo "umount /mnt"
		done
	} >"$job"
	KVM_MARK="== disk $((first + n - 1))"
	kvm_boot repair-outcome 0 --timeout 600 "$W/base.img" "${disks[@]:first:n}" "$job"
	awk '/^== disk /{k=$3; next} {print > (dir "/list." k)}' dir="$W" <<<"$KVM_OUT"
}
for ((first = 1; first < ${#disks[@]}; first += 20)); do
	n=$((${#disks[@]} - first))
	((n > 20)) && n=20
	boot_list "$first" "$n"
done
for k in "${!repaired[@]}"; do
	n=$((k + 1))
	case_dir=$HERE/cases/${repaired[$k]}
	if [[ -s $W/list.$n ]] && ! grep -q MOUNT-FAILED "$W/list.$n" && cmp -s "$W/list.0" "$W/list.$n"; then
		ok "kernel mounts ${repaired[$k]} repaired, the same files and contents"
	elif [[ -s $W/list.$n && -f $case_dir/expect.1 ]] && ! grep -q MOUNT-FAILED "$W/list.$n" &&
	     lost=$(unaccounted "$case_dir/expect.1" "$W/list.0" "$W/list.$n") && [[ -z $lost ]]; then
		ok "kernel mounts ${repaired[$k]} repaired: it differs only in what the repair names and in lost+found"
	else
		bad "kernel on ${repaired[$k]} repaired"
		diff "$W/list.0" "$W/list.$n" | head -10
		[[ -n ${lost:-} ]] && { echo "not accounted for:"; echo "$lost" | head -5; }
	fi
	if [[ ${repaired[$k]} == quota-* ]]; then
		rc=0
		"$FSCK" -f -n "${disks[$n]}" >"$W/q.out" 2>&1 || rc=$?
		if [[ $rc == 0 ]] && "$FSCK" -f -n --json "${disks[$n]}" | grep -q '"inodes":167'; then
			ok "kernel updated ${repaired[$k]}'s rebuilt quota files; the check agrees"
		else
			bad "quota after the kernel on ${repaired[$k]} (exit $rc)"
			head -5 "$W/q.out"
		fi
	fi
done
summary repair-outcome
