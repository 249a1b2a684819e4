#!/bin/bash
# Format sparse images with our mkfs.f2fs over a matrix of sizes and options
# and check each with f2fs-tools' fsck.f2fs -f --dry-run (on a copy).
#
# Clean = fsck.f2fs exits 0 and prints no problem line (see fsck_problems in
# common.sh for the benign lines that fsck.f2fs 1.15 prints for its own
# images). The classifier is checked both ways first: f2fs-tools' own images
# must come out clean, and deliberately corrupted copies must not.
#
# Sizes from the minimum our mkfs accepts (52 MiB, and one block less must
# fail with exit 1) up to 4 TiB, and 16 TiB where TMPDIR (or else /dev/shm)
# can hold such a sparse file. fsck.f2fs needs ~5 s for 1 TiB, ~18 s for
# 4 TiB and ~70 s (and 2 GiB of memory) for 16 TiB on an idle machine, so by
# default the largest sizes run a subset of the options, and 16 TiB is only
# formatted; F2FS_TEST_FULL=1 runs every option at every size and fsck at
# 16 TiB. F2FS_TEST_JOBS (default 2) cases run at once.
#
# When our mkfs rejects a combination (too small for it), that passes only
# if f2fs-tools' mkfs.f2fs rejects it too. When fsck.f2fs rejects our image
# and f2fs-tools' own image (same options, size, uuid and timestamp) the
# same way, while both have the same superblock and checkpoint, the case is
# skipped: fsck.f2fs cannot check it. (fsck.f2fs 1.15 finds no valid
# checkpoint in -i images from about 1.6 TiB up, cp_payload >= 6, its own
# included.)

# make check runs this with $(SHELL), which may not be bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi

T_NAME=peer-fsck
. "$(dirname "$0")/common.sh"

require_mkfs
require_python
require_peer
make_workdir

FULL=${F2FS_TEST_FULL:-0}
JOBS=${F2FS_TEST_JOBS:-2}
SAME_UUID=6f2e3c1a-52b4-4c6e-9d1f-0a1b2c3d4e5f
MIN_BYTES=$((52 * 1024 * 1024))   # smallest image our mkfs (and 1.15) accepts

OPTS=(
	""
	"-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,quota,lost_found,inode_crtime,project_quota"
	"-O extra_attr,compression,encrypt,verity,lost_found -C utf8"
	"-O casefold -C utf8"
	"-s 4 -z 2"
	"-s 2 -z 3"
	"-o 5"
	"-a 1"
	"-i"
	"-R 1000:1000 -O extra_attr,quota"
	"-l peer_Label-1"
	"-g android"
	"-w 4096"
)
ALL_OPTS="0 1 2 3 4 5 6 7 8 9 10 11 12"
# Subsets for the sizes where fsck.f2fs is slow: default, multi-segment
# sections, a large NAT bitmap, heap allocation.
OPTS_1T="0 4 8 7"
OPTS_4T="0 8"

# ---- classifier self-check ---------------------------------------------------
echo "== classifier: f2fs-tools' own images must be clean"
for i in 0 1 2 4 9 11; do
	img="$WORK/ref.img"
	new_image "$img" 1G
	# shellcheck disable=SC2086
	if ! "$PEER_MKFS" -q -f ${OPTS[$i]} "$img" >"$WORK/ref.out" 2>&1; then
		fail "f2fs-tools mkfs.f2fs ${OPTS[$i]:-(default)} 1G failed: $(tail -n 1 "$WORK/ref.out")"
		continue
	fi
	if why=$(fsck_clean "$img" "$WORK/ref.log"); then
		pass "classifier: f2fs-tools image [${OPTS[$i]:-default}] 1G is clean"
	else
		fail "classifier: f2fs-tools image [${OPTS[$i]:-default}] 1G flagged: $why"
	fi
done

echo "== classifier: corrupted images must be flagged"
img="$WORK/neg.img"
new_image "$img" 1G
"$MKFS" -q "$img" || die "mkfs of the negative-check image failed"
fsck_clean "$img" "$WORK/neg0.log" >/dev/null ||
	fail "negative check: the uncorrupted image is not clean"
# (1) root inode i_links (offset 12 in the inode) 2 -> 7
root=$(python3 "$F2FSIMG" rootinode "$img") || die "cannot find the root inode"
# (2) SIT journal entry count in the compacted summary (its second half)
cpb=$(python3 "$F2FSIMG" field "$img" sb.cp_blkaddr)
sum=$(python3 "$F2FSIMG" field "$img" cp.cp_pack_start_sum)
for neg in "root i_links:$((root + 12)):\\x07" \
	   "SIT journal count:$(((cpb + sum) * 4096 + 507)):\\x00\\x00"; do
	what=${neg%%:*}; rest=${neg#*:}; off=${rest%%:*}; bytes=${rest#*:}
	bad="$WORK/neg-bad.img"
	copy_image "$img" "$bad"
	# shellcheck disable=SC2059
	printf "$bytes" | dd of="$bad" bs=1 seek="$off" conv=notrunc status=none
	cmp -s "$img" "$bad" && die "negative check: corrupting $what changed nothing"
	"$PEER_FSCK" -f --dry-run "$bad" >"$WORK/neg.log" 2>&1
	rc=$?
	probs=$(fsck_problems "$WORK/neg.log" | wc -l)
	# both halves of the classifier must see it: the exit status and the text
	if [ $rc -ne 0 ] && [ "$probs" -gt 0 ] && ! fsck_clean "$bad" "$WORK/neg2.log" >/dev/null; then
		pass "classifier flags a corrupted $what (fsck exit $rc, $probs problem lines)"
	else
		fail "classifier is blind to a corrupted $what (fsck exit $rc, $probs problem lines)"
	fi
done
rm -f "$WORK"/neg*.img "$WORK"/ref.img

# ---- the minimum size ---------------------------------------------------------
echo "== minimum size: $MIN_BYTES bytes"
img="$WORK/min.img"
new_image "$img" $((MIN_BYTES - 4096))
"$MKFS" -q "$img" >"$WORK/min.out" 2>"$WORK/min.err"
rc=$?
if [ $rc -eq 1 ] && grep -q "too small" "$WORK/min.err"; then
	pass "one block below the minimum is refused (exit 1: $(head -n 1 "$WORK/min.err"))"
else
	fail "one block below the minimum: exit $rc, stderr: $(head -n 1 "$WORK/min.err")"
fi
rm -f "$img"

# ---- the matrix ---------------------------------------------------------------
# fsck_sig LOG RC: what a failing fsck run looks like (exit status, problem
# lines, last line), to tell whether f2fs-tools' own image fails the same way.
fsck_sig() {
	echo "exit $2"
	fsck_problems "$1"
	grep -v '^[[:space:]]*$' "$1" | tail -n 1
}

# run_case N SIZE_BYTES SIZE_NAME OPTINDEX DIR [mkfs-only]: writes $WORK/r.N,
# whose first line is "PASS: ...", "FAIL: ..." or "SKIP: ...".
run_case() {
	local n=$1 bytes=$2 name=$3 dir=$5 mode=${6:-} out="$WORK/r.$1"
	local img="$dir/m$n.img" opts=${OPTS[$4]} desc rc why bc
	desc="[${opts:-default}] $name"
	SECONDS=0
	{
		new_image "$img" "$bytes" || { echo "FAIL: $desc: cannot create the image"; return; }
		# shellcheck disable=SC2086
		"$MKFS" -q $opts "$img" >"$img.out" 2>"$img.err"
		rc=$?
		if [ $rc -ne 0 ]; then
			if [ $rc -ne 1 ] || ! grep -q "too small" "$img.err"; then
				echo "FAIL: $desc: our mkfs exit $rc: $(head -n 1 "$img.err")"
			else
				new_image "$img" "$bytes"
				# shellcheck disable=SC2086
				if "$PEER_MKFS" -q -f -t 0 $opts "$img" >/dev/null 2>&1; then
					echo "FAIL: $desc: we refuse ($(head -n 1 "$img.err")) but f2fs-tools formats it"
				else
					echo "PASS: $desc: too small for these options; f2fs-tools refuses too"
				fi
			fi
		elif [ -s "$img.err" ] || [ -s "$img.out" ]; then
			echo "FAIL: $desc: mkfs -q printed: $(head -n 1 "$img.err" "$img.out" | tr '\n' ' ')"
		elif [ "$mode" = mkfs-only ]; then
			bc=$(python3 "$F2FSIMG" field "$img" sb.block_count)
			if [ "$bc" -eq $((bytes / 4096)) ]; then
				echo "PASS: $desc: formatted, block_count $bc (fsck.f2fs skipped: F2FS_TEST_FULL=1 runs it)"
			else
				echo "FAIL: $desc: block_count $bc, expected $((bytes / 4096))"
			fi
		elif why=$(fsck_clean "$img" "$img.log"); then
			echo "PASS: $desc: fsck.f2fs clean"
		else
			# Does fsck.f2fs reject f2fs-tools' own image the same way? Then
			# fsck.f2fs cannot check this combination; ours still has to
			# match f2fs-tools' superblock and checkpoint.
			fsck_sig "$img.log" "$(echo "$why" | sed -n 's/^fsck.f2fs exit //p')" >"$img.sig1"
			new_image "$img" "$bytes"
			new_image "$img.peer" "$bytes"
			# shellcheck disable=SC2086
			"$MKFS" -q -t 0 $opts -U "$SAME_UUID" -T 1000000000 "$img" >/dev/null 2>&1
			# shellcheck disable=SC2086
			"$PEER_MKFS" -q -f -t 0 $opts -U "$SAME_UUID" -T 1000000000 "$img.peer" >/dev/null 2>&1
			python3 "$F2FSIMG" sbdiff "$img" "$img.peer" >"$img.diff" 2>&1
			python3 "$F2FSIMG" cpdiff "$img" "$img.peer" >>"$img.diff" 2>&1
			"$PEER_FSCK" -f --dry-run "$img.peer" >"$img.log2" 2>&1
			fsck_sig "$img.log2" $? >"$img.sig2"
			if ! cmp -s "$img.sig1" "$img.sig2"; then
				echo "FAIL: $desc: $why"
			elif [ -s "$img.diff" ]; then
				echo "FAIL: $desc: $why"
				echo "  (f2fs-tools' own image fails the same way, but its layout differs from ours:)"
				sed 's/^/    /' "$img.diff"
			else
				echo "SKIP: $desc: fsck.f2fs rejects f2fs-tools' own, identical image the same way ($(tail -n 1 "$img.sig1"))"
			fi
		fi
		rm -f "$img" "$img".*
		echo "  (${SECONDS}s)"
	} >"$out" 2>&1
}

CASES=()   # "bytes name optindex dir mode"
add_size() {   # bytes name optlist dir [mode]
	local i
	for i in $3; do
		CASES+=("$1 $2 $i $4 ${5:-}")
	done
}
sparse_ok "$WORK" 4T || die "${TMPDIR:-/tmp} cannot hold a 4 TiB sparse file (set TMPDIR)"
# Largest first, so that the slow fsck runs overlap with the many fast ones.
if [ "$FULL" = 1 ]; then
	add_size $((4 << 40)) 4TiB "$ALL_OPTS" "$WORK"
	add_size $((1 << 40)) 1TiB "$ALL_OPTS" "$WORK"
else
	add_size $((4 << 40)) 4TiB "$OPTS_4T" "$WORK"
	add_size $((1 << 40)) 1TiB "$OPTS_1T" "$WORK"
fi
add_size $((64 << 30)) 64GiB "$ALL_OPTS" "$WORK"
add_size $((1 << 30)) 1GiB "$ALL_OPTS" "$WORK"
add_size $((100 << 20)) 100MiB "$ALL_OPTS" "$WORK"
add_size $((64 << 20)) 64MiB "$ALL_OPTS" "$WORK"
add_size $MIN_BYTES 52MiB "$ALL_OPTS" "$WORK"
# 16 TiB: ext4 cannot hold such a file; fall back to /dev/shm (tmpfs), where
# a sparse image costs only the few blocks mkfs writes.
BIG=""
if sparse_ok "$WORK" 16T; then
	BIG=$WORK
elif [ -d /dev/shm ] && [ -w /dev/shm ] &&
     BIG=$(mktemp -d /dev/shm/f2fs-$T_NAME.XXXXXX 2>/dev/null); then
	on_exit "rm -rf '$BIG'"
	sparse_ok "$BIG" 16T || BIG=""
fi
if [ -z "$BIG" ]; then
	skip "16 TiB: neither ${TMPDIR:-/tmp} nor /dev/shm can hold a 16 TiB sparse file"
elif [ "$FULL" = 1 ]; then
	add_size $((16 << 40)) 16TiB "0 4" "$BIG"
else
	add_size $((16 << 40)) 16TiB "0 4 8" "$BIG" mkfs-only
fi

echo "== matrix: ${#CASES[@]} cases, $JOBS at a time (F2FS_TEST_FULL=$FULL)"
n=0
running=0
for c in "${CASES[@]}"; do
	# shellcheck disable=SC2086
	set -- $c
	n=$((n + 1))
	run_case $n "$1" "$2" "$3" "$4" "${5:-}" &
	running=$((running + 1))
	if [ $running -ge "$JOBS" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait

for i in $(seq 1 $n); do
	line=$(head -n 1 "$WORK/r.$i")
	case "$line" in
	PASS:*) T_PASS=$((T_PASS + 1)) ;;
	SKIP:*) T_SKIP=$((T_SKIP + 1)) ;;
	*) T_FAIL=$((T_FAIL + 1)) ;;
	esac
	cat "$WORK/r.$i"
done

finish
