#!/bin/bash
# The repair on images others made: a matrix of bases x damage kinds.
#
# Bases (each holds the tree of common.sh, make_tree):
#   sload-default  f2fs-tools' mkfs.f2fs (default features), sload.f2fs
#   sload-android  the same with -O extra_attr,inode_checksum,
#                  flexible_inline_xattr,lost_found,sb_checksum,quota, where
#                  sload.f2fs 1.15 exits 1 (which Android's build accepts:
#                  its own fsck pass finds the inline xattr areas it set up
#                  late and "fixes" them)
#   sload-s4       mkfs.f2fs -s 4 (4 segments a section), sload.f2fs; 256 MiB
#   resize         mkfs.f2fs on 96 MiB, sload.f2fs, the file grown to
#                  192 MiB and resize.f2fs
#   kernel-ssr     committed (matrix-bases/, made by make-matrix-bases.sh):
#                  f2fs-tools' mkfs.f2fs, the tree unpacked by the real
#                  kernel, then aged by it (fill, delete, refill, forced GC
#                  with F2FS_IOC_GARBAGE_COLLECT) until a data log
#                  allocates by SSR; every base in matrix-bases/ is used
# The sload and resize bases are made at test time with fixed times, UUID
# and checkpoint seed.
#
# Damage kinds: those of make-cases.sh (its CASE_LIST and helpers, read
# from that file) whose committed case the repair fixes (the -y run exits
# 1), plus "none" (the base repaired as it is). Left out, and why:
#   sb-feature-dependency, inode-unreachable-new-lost-found,
#   quota-projid-extra-isize: they format their own image with our mkfs;
#   cp-backup-pack-resized formats one with f2fs-tools
#   the cases whose repair does not fix them (exit 4 or 8 by design)
# nat-segment-type, data-segment-type and sit-valid-unused move a block to
# "segment 20", free in our base: here a free section's first segment is
# used instead. A damage that cannot be applied to a base (no quota file,
# no /lost+found, no nat_bits, no inline xattr on /small.txt...) or that
# changes no byte there is "n/a" in that cell, with the damage's message.
#
# Each cell: copy the base, damage it (deterministic: fixed paths and
# values, no randomness), then
#   our fsck -y            exit 0 or 1 (the case's other options kept)
#   our fsck -f -n         exit 0, clean
#   f2fs-tools' fsck.f2fs  -f --dry-run on a copy: nothing reported
#                          (tests/lib/peer-fsck.sh)
#   dump.f2fs --extract /  every object the damage did not hit (its paths,
#                          see repair-matrix.py hits; "none" hits nothing)
#                          is at its path with its content: the reference
#                          is the undamaged base extracted the same way;
#                          objects where that differs from the tree the
#                          base was loaded from are "base defects", named
#                          and left out
# and the real kernel (tests/kernel/kvm-run) mounts a sample of the passing
# cells (SAMPLE below) and lists every file with its md5: the list must be
# the one dump.f2fs extracted. A table base x damage ends the output.
#
# Known failures: repair-matrix.xfail lists cells (BASE KIND REASON; globs
# allowed) expected to fail: they are XFAIL and do not fail the test; a cell
# listed there that passes is XPASS and fails the test, so that the list
# shrinks with each fix.
#
# Time budget: F2FS_MATRIX=ci (the default) runs CI_KINDS on every base,
# about 65 cells; F2FS_MATRIX=full runs every kind. F2FS_MATRIX_BASES and
# F2FS_MATRIX_KINDS (space-separated names) narrow either. The times are in
# the last lines of the output. Exit 77 without f2fs-tools (mkfs.f2fs,
# sload.f2fs, resize.f2fs, fsck.f2fs); the kernel part is skipped as the
# other kernel tests are (F2FS_KERNEL_TESTS=skip).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
. "$HERE/../lib/peer-fsck.sh"
DUMP=${DUMP:-$TOP_BUILD/dump/dump.f2fs}
top_builddir=${top_builddir:-$TOP_BUILD}
PEER_DIR=${PEER_DIR:-/usr/sbin}
PEER_FSCK=${PEER_FSCK:-$PEER_DIR/fsck.f2fs}
MX="python3 $HERE/repair-matrix.py"
XFAIL_FILE=$HERE/repair-matrix.xfail
for t in mkfs.f2fs sload.f2fs resize.f2fs fsck.f2fs; do
	if [[ ! -x $PEER_DIR/$t ]]; then
		echo "repair-matrix: f2fs-tools' $t not installed"
		exit 77
	fi
done
W=$(mktemp -d "${TMPDIR:-/tmp}/repair-matrix.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
start=$SECONDS

CI_KINDS="none sb-primary-invalid cp-summary nat-ino-mismatch nat-journal sit-journal
	ssa-mismatch node-unreachable inode-links dir-dangling xattr-bad-name orphan-freed
	quota-usage-mismatch"
# cells the kernel mounts (when they pass the other checks)
SAMPLE="sload-default/nat-ino-mismatch sload-android/dir-dangling sload-s4/cp-summary
	resize/sit-journal kernel-ssr/ssa-mismatch kernel-ssr/orphan-freed"

bases=(sload-default sload-android sload-s4 resize)
for f in "$HERE"/matrix-bases/*.img.bz2; do
	[[ -f $f ]] && bases+=("$(basename "$f" .img.bz2)")
done
if [[ -n ${F2FS_MATRIX_BASES:-} ]]; then
	bases=()
	for b in $F2FS_MATRIX_BASES; do bases+=("$b"); done
fi

make_tree "$W/tree"
$MX manifest "$W/tree" >"$W/tree.list"
$MX links "$W/tree" >"$W/links"

# make_base NAME IMAGE: the base, or exit 1 with why
peer_mkfs() {
	local img=$1 size=$2
	shift 2
	truncate -s "$size" "$img"
	"$PEER_DIR/mkfs.f2fs" -q -f -r -T 1700000000 -U 01234567-89ab-cdef-0123-456789abcdef "$@" "$img" >/dev/null
}
sload() {
	local rc=0
	"$PEER_DIR/sload.f2fs" -f "$W/tree" -T 1700000000 "$1" >"$W/sload.out" 2>&1 || rc=$?
	[[ $rc == 0 || ($rc == 1 && ${2:-} == android) ]] && return 0
	echo "sload.f2fs exit $rc: $(tail -2 "$W/sload.out" | tr '\n' ' ')"
	return 1
}
make_base() {
	local img=$2
	rm -f "$img"
	case $1 in
	sload-default) peer_mkfs "$img" 128M && sload "$img" ;;
	sload-android)
		peer_mkfs "$img" 128M -O extra_attr,inode_checksum,flexible_inline_xattr,lost_found,sb_checksum,quota &&
			sload "$img" android ;;
	sload-s4) peer_mkfs "$img" 256M -s 4 && sload "$img" ;;
	resize)
		peer_mkfs "$img" 96M && sload "$img" && truncate -s 192M "$img" &&
			{ "$PEER_DIR/resize.f2fs" "$img" >"$W/resize.out" 2>&1 ||
				{ echo "resize.f2fs: $(tail -2 "$W/resize.out" | tr '\n' ' ')"; false; }; } ;;
	*)
		[[ -f $HERE/matrix-bases/$1.img.bz2 ]] || { echo "no such base"; return 1; }
		bzip2 -dc "$HERE/matrix-bases/$1.img.bz2" >"$img" ;;
	esac
}

# the damage kinds: make-cases.sh's helpers and CASE_LIST (evaluated per
# base: they read the base image, $BASE)
HELPERS=$(sed -n '/^D() {/,/^)$/p' "$HERE/make-cases.sh")
if [[ $HELPERS != *'CASE_LIST=('* ]]; then
	echo "repair-matrix: no CASE_LIST in make-cases.sh"
	exit 1
fi
# has_fix NAME OPTS: the committed case's repair fixes it (exits 1)
has_fix() {
	local c=$HERE/cases/$1 f=expect.1
	[[ $2 == -y* ]] && f=expect
	[[ -f $c/$f && $(tail -1 "$c/$f") == "exit status 1" ]]
}
BASE=$W/none.img   # for the first evaluation: the names only
peer_mkfs "$BASE" 128M >/dev/null 2>&1
eval "$HELPERS" 2>/dev/null
kinds=(none) kind_opts=(-y) kind_code=(:)
skipped=()
for row in "${CASE_LIST[@]}"; do
	IFS='|' read -r name opts code <<<"$row"
	if [[ $code == *'$MKFS'* ]]; then skipped+=("$name (formats with our mkfs)"); continue; fi
	if [[ $code == *mkfs.f2fs* ]]; then skipped+=("$name (formats an image of its own)"); continue; fi
	has_fix "$name" "$opts" || { skipped+=("$name (no fix)"); continue; }
	o=-y
	for x in $opts; do
		case $x in -n | -y | --quick | --json) ;; *) o+=" $x" ;; esac
	done
	# "segment 20", free in our base: a free section here
	code=$(sed -E 's/\b(sit|ssa) 20 /\1 $FREE_SEG /g; s/MAIN \+ 20 \* 512/MAIN + FREE_SEG * 512/g' <<<"$code")
	kinds+=("$name") kind_opts+=("$o") kind_code+=("$code")
done
want_kind() {
	local k
	if [[ -n ${F2FS_MATRIX_KINDS:-} ]]; then
		for k in $F2FS_MATRIX_KINDS; do [[ $k == "$1" ]] && return 0; done
		return 1
	fi
	[[ ${F2FS_MATRIX:-ci} == full ]] && return 0
	for k in $CI_KINDS; do [[ $k == "$1" ]] && return 0; done
	return 1
}
# xfail_reason BASE KIND: the reason the list gives, if listed
xfail_reason() {
	local b k r
	[[ -f $XFAIL_FILE ]] || return 1
	while read -r b k r; do
		[[ -z $b || $b == \#* ]] && continue
		# shellcheck disable=SC2053
		if [[ $1 == $b && $2 == $k ]]; then echo "${r:-listed}"; return 0; fi
	done <"$XFAIL_FILE"
	return 1
}
# free_seg: the first segment of the last section whose segments are all
# free and none current
free_seg() {
	local per
	per=$(python3 "$DAMAGE" "$BASE" get sb segs_per_sec)
	"$DUMP" -s 0~-1 "$BASE" | awk -v per="$per" '
		$1 ~ /^[0-9]+$/ { s = $1; sec = int(s / per); if ($4 != "free") bad[sec] = 1; seen[sec] = 1 }
		END { for (x in seen) if (!(x in bad) && x + 0 > best) best = x + 0; print best * per }'
}

declare -A CELL RESULT
PASSN=0 FAILN=0 XFAILN=0 XPASSN=0 NAN=0
kernel_cells=()
for base in "${bases[@]}"; do
	t0=$SECONDS
	BASE=$W/$base.img
	if ! why=$(make_base "$base" "$BASE" 2>&1); then
		bad "$base: base not made: $why"
		FAILN=$((FAILN + 1))
		continue
	fi
	# the reference: the undamaged base as our dump extracts it
	rm -rf "$W/x"
	if ! "$DUMP" --extract / -o "$W/x" "$BASE" >"$W/x.out" 2>&1; then
		bad "$base: dump.f2fs --extract of the base failed: $(tail -1 "$W/x.out")"
		FAILN=$((FAILN + 1))
		continue
	fi
	$MX manifest "$W/x" >"$W/ref.list"
	# base defects: tree objects the base does not hold as the tree has them
	comm -23 <(grep -v '^/age/' "$W/tree.list") "$W/ref.list" | cut -f1 >"$W/defects"
	[[ -s $W/defects ]] && echo "$base: base defects (left out): $(tr '\n' ' ' <"$W/defects")"
	eval "$HELPERS"
	FREE_SEG=$(free_seg)
	echo "== $base: made in $((SECONDS - t0)) s; $(wc -l <"$W/ref.list") objects; free section at segment $FREE_SEG"
	for i in "${!kinds[@]}"; do
		kind=${kinds[$i]}
		want_kind "$kind" || continue
		cell=$base/$kind
		IMG=$W/cell.img
		cp --sparse=always "$BASE" "$IMG"
		( set -e; eval "${kind_code[$i]}" ) >"$W/damage.out" 2>&1
		drc=$?
		if [[ $drc != 0 ]] || { [[ $kind != none ]] && cmp -s "$BASE" "$IMG"; }; then
			why=$(grep -v '^$' "$W/damage.out" | tail -1)
			[[ $drc == 0 ]] && why="the damage changes nothing here"
			echo "N/A: $cell: $why"
			CELL[$cell]="n/a"
			NAN=$((NAN + 1))
			continue
		fi
		rc1=0 rc2=0 probs=()
		# shellcheck disable=SC2086
		"$FSCK" ${kind_opts[$i]} "$IMG" >"$W/fsck1.out" 2>&1 || rc1=$?
		[[ $rc1 == 0 || $rc1 == 1 ]] || probs+=("repair exit $rc1: $(grep -E '^(ERROR|WARNING) |refus|cannot|exit' "$W/fsck1.out" | grep -v 'fixed (' | head -2 | tr '\n' ' ')")
		"$FSCK" -f -n "$IMG" >"$W/fsck2.out" 2>&1 || rc2=$?
		[[ $rc2 == 0 ]] || probs+=("second check exit $rc2: $(grep -E '^(ERROR|WARNING) ' "$W/fsck2.out" | cut -c1-160 | head -2 | tr '\n' ' ')")
		peer=ok
		if ! why=$(peer_fsck_clean "$IMG" "$W/copy.img"); then
			peer=BAD
			probs+=("f2fs-tools: $why")
		fi
		rm -rf "$W/y"
		kept=- lost=-
		if "$DUMP" --extract / -o "$W/y" "$IMG" >"$W/y.out" 2>&1; then
			$MX cell "$W/ref.list" "$W/y" "${kind_code[$i]}" "$W/links" "$W/defects" "$W/got.list" >"$W/cmp.out"
			read -r kept lost unhit found <"$W/cmp.out"
			((unhit == 0)) || probs+=("$unhit untouched object(s) lost: $(sed 1d "$W/cmp.out" | head -4 | tr '\n' ' ')")
			((found == 0)) || lost="$lost($found in lost+found)"
		else
			probs+=("dump.f2fs --extract failed: $(tail -1 "$W/y.out")")
		fi
		CELL[$cell]="$rc1 $rc2 $peer $kept/$lost"
		reason=$(xfail_reason "$base" "$kind")
		listed=$?
		if ((${#probs[@]} == 0)); then
			if ((listed == 0)); then
				RESULT[$cell]=XPASS
				XPASSN=$((XPASSN + 1))
				echo "XPASS: $cell passes: take it off repair-matrix.xfail ($reason)"
			else
				RESULT[$cell]=PASS
				PASSN=$((PASSN + 1))
				echo "PASS: $cell (${CELL[$cell]})"
				[[ " $(echo $SAMPLE) " == *" $cell "* ]] &&
					{ cp --sparse=always "$IMG" "$W/k.$base.$kind.img"; cp "$W/got.list" "$W/k.$base.$kind.list"; kernel_cells+=("$cell"); }
			fi
		else
			if ((listed == 0)); then
				RESULT[$cell]=XFAIL
				XFAILN=$((XFAILN + 1))
				echo "XFAIL: $cell ($reason)"
			else
				RESULT[$cell]=FAIL
				FAILN=$((FAILN + 1))
				echo "FAIL: $cell"
			fi
			printf '    %s\n' "${probs[@]}"
		fi
	done
	echo "== $base: $((SECONDS - t0)) s"
done

# the kernel mounts a sample of the repaired images and lists them
if [[ ${F2FS_KERNEL_TESTS:-auto} != skip && ${#kernel_cells[@]} -gt 0 ]]; then
	job=$W/job.sh disks=()
	{
		for k in "${!kernel_cells[@]}"; do
			c=${kernel_cells[$k]}
			disks+=("$W/k.${c%%/*}.${c#*/}.img")
			echo "echo '== disk $k'"
			echo "mount -t f2fs $(guest_dev "$k") /mnt || echo MOUNT-FAILED"
			echo "cd /mnt; find . -type d | sed 's/^/d /'; find . -type l | while read -r l; do echo \"l \$l \$(readlink \"\$l\")\"; done"
			echo "find . -type f | xargs md5sum | while read -r s f; do echo \"f \$f \$s\"; done; cd /; umount /mnt"
		done
	} >"$job"
	KVM_MARK="== disk $((${#disks[@]} - 1))"
	rc=0
	args=()
	for d in "${disks[@]:1}"; do args+=(--extra "$d"); done
	KVM_OUT=$("$KVM_RUN" --timeout 600 "${args[@]}" "${disks[0]}" "$job" 2>&1) || rc=$?
	if [[ $rc == 77 ]]; then
		echo "repair-matrix: kernel harness unavailable; the kernel sample skipped"
	elif [[ $rc != 0 || $KVM_OUT != *"$KVM_MARK"* ]]; then
		bad "kernel sample: kvm-run exit $rc"
		printf '%s\n' "$KVM_OUT" | tail -10
		FAILN=$((FAILN + 1))
	else
		awk '/^== disk /{k=$3; next} {print > (dir "/kl." k)}' dir="$W" <<<"$KVM_OUT"
		for k in "${!kernel_cells[@]}"; do
			c=${kernel_cells[$k]}
			$MX kernel "$W/k.${c%%/*}.${c#*/}.list" | sed 's/ $//' | sort >"$W/kwant"
			sed 's/ $//' "$W/kl.$k" 2>/dev/null | grep -v '^d \.$' | sort >"$W/kgot"
			if ! grep -q MOUNT-FAILED "$W/kgot" && cmp -s "$W/kwant" "$W/kgot"; then
				ok "kernel lists $c repaired as dump.f2fs extracts it ($(wc -l <"$W/kgot") objects)"
				CELL[$c]="${CELL[$c]} K"
			else
				bad "kernel on $c repaired"
				diff "$W/kwant" "$W/kgot" | head -6
				CELL[$c]="${CELL[$c]} K!"
				RESULT[$c]=FAIL
				FAILN=$((FAILN + 1)) PASSN=$((PASSN - 1))
			fi
		done
	fi
fi

# the table: a row a damage kind, a column a base; a cell: -y exit, second
# check's exit, f2fs-tools' verdict, objects kept/lost, then the result
echo
echo "cell: repair exit, second check exit, f2fs-tools fsck, objects kept/lost [K: the kernel listed it]"
printf '%-30s' "damage \\ base"
for base in "${bases[@]}"; do printf ' %-26s' "$base"; done
echo
for i in "${!kinds[@]}"; do
	kind=${kinds[$i]}
	want_kind "$kind" || continue
	printf '%-30s' "$kind"
	for base in "${bases[@]}"; do
		c=$base/$kind
		v=${CELL[$c]:--}
		[[ -n ${RESULT[$c]:-} && ${RESULT[$c]} != PASS ]] && v="$v ${RESULT[$c]}"
		printf ' %-26s' "$v"
	done
	echo
done
echo "left out: ${skipped[*]}"
echo "repair-matrix (${F2FS_MATRIX:-ci}): $PASSN passed, $XFAILN expected failures, $XPASSN unexpected passes, $FAILN failed, $NAN n/a; $((SECONDS - start)) s"
[[ $FAILN == 0 && $XPASSN == 0 ]]
