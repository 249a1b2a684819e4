#!/bin/bash
# Format the same sparse image sizes with our mkfs.f2fs and f2fs-tools'
# mkfs.f2fs, with the same -U uuid and -T timestamp, and compare:
#   - the superblock, field by field, except the version/init_version
#     strings (and the CRC when sb_checksum is on, as it covers them);
#   - the checkpoint block of pack 1, except checkpoint_ver and the CRC;
#   - the rest of what mkfs writes, by meaning rather than position
#     (f2fsimg.py metadiff): pack 1's other blocks, pack 2's checkpoint
#     blocks, the NAT and SIT as the checkpoint's journals amend them, the
#     log summaries, each inode by nid and its data blocks (quota files as
#     files), and every other block either image holds data in, except what
#     depends on the random checkpoint version and a few documented
#     differences ("accepted:", see cmd_metadiff), where f2fs-tools 1.15
#     departs from what the kernel writes or where placement does not matter.
# They should be identical: any other difference fails the case.
# A combination that both refuse (too small) passes; one that only one of
# them refuses fails.

# make check runs this with $(SHELL), which may not be bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi

T_NAME=peer-layout
. "$(dirname "$0")/common.sh"

require_mkfs
require_python
require_peer
make_workdir

UUID=3e0f6a52-8d1c-4b7e-a9f0-5c2d7e1b4a96
TS=1600000000

SIZES="60M 100M 1G 3100M 64G 1T"
MAIN_OPTS=(
	""
	"-s 4 -z 2"
	"-s 2 -z 3"
	"-o 5"
	"-i"
	"-a 1"
	"-O quota"
	"-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,quota,lost_found,inode_crtime,project_quota"
)
# Options that change content more than layout: two sizes are enough.
MORE_SIZES="60M 1G"
MORE_OPTS=(
	"-t 0"
	"-O extra_attr,compression,encrypt,verity,lost_found -C utf8"
	"-O casefold -C utf8:strict"
	"-O extra_attr,project_quota,quota,lost_found"
	"-R 1000:1000 -O extra_attr,quota"
	"-l peer_Label-1"
	"-e mp3,avi -E db"
	"-w 4096"
	"-g android"
)

n=0
LIST="$WORK/list"
: >"$LIST"

# one_case SIZE OPTS [SECTORS]: format both; queue the pair for comparison
# or decide now when one or both refuse.
one_case() {
	local size=$1 opts=$2 sectors=${3:-} label=${4:-} a b rca rcb desc
	n=$((n + 1))
	a="$WORK/$n.ours.img"
	b="$WORK/$n.theirs.img"
	desc="[${opts:-default}] ${label:-$size}${sectors:+ ($sectors sectors)}"
	new_image "$a" "$size"
	new_image "$b" "$size"
	# shellcheck disable=SC2086
	"$MKFS" -q -U "$UUID" -T "$TS" $opts "$a" $sectors >"$a.out" 2>&1
	rca=$?
	# shellcheck disable=SC2086
	"$PEER_MKFS" -q -f -U "$UUID" -T "$TS" $opts "$b" $sectors >"$b.out" 2>&1
	rcb=$?
	if [ $rca -ne 0 ] && [ $rcb -ne 0 ]; then
		pass "$desc: both refuse (ours: $(head -n 1 "$a.out"))"
		rm -f "$a" "$b"
	elif [ $rca -ne 0 ]; then
		fail "$desc: we refuse, f2fs-tools formats it (ours exit $rca: $(head -n 1 "$a.out"))"
		rm -f "$a" "$b"
	elif [ $rcb -ne 0 ]; then
		fail "$desc: f2fs-tools refuses (exit $rcb: $(grep -i error "$b.out" | head -n 1)), we format it"
		rm -f "$a" "$b"
	else
		printf '%s\t%s\t%s\n' "$desc" "$a" "$b" >>"$LIST"
	fi
}

echo "== the minimum size"
one_case $((52 << 20)) "" "" 52MiB
one_case $(((52 << 20) - 4096)) "" "" "52MiB-4KiB"

echo "== formatting with both"
for size in $SIZES; do
	for opts in "${MAIN_OPTS[@]}"; do
		one_case "$size" "$opts"
	done
done
for size in $MORE_SIZES; do
	for opts in "${MORE_OPTS[@]}"; do
		one_case "$size" "$opts"
	done
done
# an explicit [sectors] argument smaller than the file, in 512- and
# 4096-byte sectors
one_case 2G "" 2097152
one_case 2G "-w 4096" 262144

# Devices that do not end on a zone (issue 13 point 7): the main area ends
# at the last whole zone, and both tools leave the segments after it
# unused. The pair is compared like the others (the counters below are
# "accepted:" differences there); the checks after the comparison pin what
# differs and why.
PARTIAL=("1G|-s 3" "1G|-s 5" "1G|-s 7" "1G|-z 3" "777M|-s 8")
for g in "${PARTIAL[@]}"; do
	one_case "${g%%|*}" "${g#*|}"
done

echo "== comparing $(wc -l <"$LIST") pairs (formatting took ${SECONDS}s)"
SECONDS=0
python3 "$F2FSIMG" batch "$LIST" >"$WORK/batch.out" 2>&1
cat "$WORK/batch.out"
echo "(comparing took ${SECONDS}s)"
T_PASS=$((T_PASS + $(grep -c '^PASS: ' "$WORK/batch.out")))
T_FAIL=$((T_FAIL + $(grep -c '^FAIL: ' "$WORK/batch.out")))
if [ "$(grep -c '^\(PASS\|FAIL\): ' "$WORK/batch.out")" -ne "$(wc -l <"$LIST")" ]; then
	fail "the comparison did not report on every pair"
fi

echo "== devices that do not end on a zone: where our layout differs, and why"
# f2fs-tools 1.15 (built with zoned-device support, as Debian's is) sizes
# the reserve and overprovision from f2fs_get_usable_segments(): the
# device's whole segments minus the metadata, the unused tail after the
# last whole zone included. Its multiplier round_up(usable, section_count)
# is then segs_per_sec + 1, and free_segment_count and user_block_count
# count segments the main area does not have; both fscks flag its
# free_segment_count. We size everything from the main area: the counters
# agree with the segments that exist. Ours are pinned exactly
# (main segments, reserved, overprovision, free, user blocks).
OURS_WANT=(
	"498 84 125 492 190976"
	"495 140 175 489 163840"
	"490 196 225 484 135680"
	"498 39 68 492 220160"
	"368 224 238 362 66560"
)
cpf() { python3 "$F2FSIMG" field "$1" "$2"; }
k=0
for g in "${PARTIAL[@]}"; do
	size=${g%%|*} opts=${g#*|}
	a="$WORK/pz$k.ours.img" b="$WORK/pz$k.theirs.img"
	desc="[$opts] $size"
	new_image "$a" "$size"
	new_image "$b" "$size"
	# shellcheck disable=SC2086
	if ! "$MKFS" -q -U "$UUID" -T "$TS" $opts "$a" >/dev/null 2>&1 ||
	   ! "$PEER_MKFS" -q -f -U "$UUID" -T "$TS" $opts "$b" >/dev/null 2>&1; then
		fail "$desc: one of the two refuses"
		k=$((k + 1))
		continue
	fi
	spsec=$(cpf "$a" sb.segs_per_sec)
	main=$(cpf "$a" sb.segment_count_main)
	z=$((spsec * $(cpf "$a" sb.secs_per_zone)))
	dev_segs=$((($(stat -c %s "$a") / 4096 - $(cpf "$a" sb.segment0_blkaddr)) / 512))
	got="$main $(cpf "$a" cp.rsvd_segment_count) $(cpf "$a" cp.overprov_segment_count)"
	got="$got $(cpf "$a" cp.free_segment_count) $(cpf "$a" cp.user_block_count)"
	if [ "$dev_segs" -gt "$(cpf "$a" sb.segment_count)" ]; then
		pass "$desc: the device ends inside a zone ($dev_segs segments, $(cpf "$a" sb.segment_count) in zones of $z)"
	else
		fail "$desc: the device ends on a zone ($dev_segs segments, zones of $z): not the case meant"
	fi
	if [ "$got" = "${OURS_WANT[$k]}" ]; then
		pass "$desc: ours: main, reserved, overprovision, free, user blocks = $got"
	else
		fail "$desc: ours: main, reserved, ovp, free, user are $got, expected ${OURS_WANT[$k]}"
	fi
	ours_r=$(cpf "$a" cp.rsvd_segment_count) theirs_r=$(cpf "$b" cp.rsvd_segment_count)
	theirs_free=$(cpf "$b" cp.free_segment_count)
	if [ $((ours_r % spsec)) -eq 0 ] && [ "$(cpf "$a" cp.free_segment_count)" -eq $((main - 6)) ]; then
		pass "$desc: ours: reserved $ours_r is whole sections of $spsec, free = main - 6"
	else
		fail "$desc: ours: reserved $ours_r (sections of $spsec), free $(cpf "$a" cp.free_segment_count), main $main"
	fi
	if [ "$theirs_r" -gt "$ours_r" ] && [ "$theirs_free" -gt $((main - 6)) ]; then
		pass "$desc: f2fs-tools reserves $theirs_r (ours $ours_r) and claims $theirs_free free segments of $main"
	else
		fail "$desc: f2fs-tools no longer differs as documented: reserved $theirs_r, free $theirs_free, main $main"
	fi
	if fsck_clean "$a" "$WORK/pz$k.fsck.log" >"$WORK/pz$k.why"; then
		pass "$desc: f2fs-tools' fsck finds our image clean"
	else
		fail "$desc: f2fs-tools' fsck on our image: $(head -n 3 "$WORK/pz$k.why")"
	fi
	k=$((k + 1))
done

echo "== the comparison is not blind"
# Plant one difference at a time in a copy of our image of the first pair.
ours=$(head -n 1 "$LIST" | cut -f2)
theirs=$(head -n 1 "$LIST" | cut -f3)
if [ -n "$ours" ] && [ -f "$ours" ]; then
	cpb=$(python3 "$F2FSIMG" field "$ours" sb.cp_blkaddr)
	nat=$(python3 "$F2FSIMG" field "$ours" sb.nat_blkaddr)
	root=$(python3 "$F2FSIMG" rootinode "$ours")
	for plant in "segment_count_main:$((1024 + 68))" \
		     "free_segment_count:$((cpb * 4096 + 32))" \
		     "NAT nid 1:$((nat * 4096 + 1 * 9 + 1))" \
		     "node of nid 3:$((root + 12))"; do
		what=${plant%%:*}
		off=${plant##*:}
		bad="$WORK/planted.img"
		copy_image "$ours" "$bad"
		printf '\007' | dd of="$bad" bs=1 seek="$off" conv=notrunc status=none
		python3 "$F2FSIMG" compare "$bad" "$theirs" >"$WORK/planted.out" 2>&1
		rc=$?
		if [ $rc -eq 1 ] && grep -qF "$what" "$WORK/planted.out"; then
			pass "a byte planted at $off is reported ($(grep -F "$what" "$WORK/planted.out" | head -n 1))"
		else
			fail "a byte planted at $off ($what) is not reported (exit $rc)"
		fi
	done
	rm -f "$bad"
else
	fail "no image pair for the planted-difference checks"
fi

finish
