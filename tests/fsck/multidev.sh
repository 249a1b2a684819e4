#!/bin/bash
# Volumes over several devices (mkfs -c) on the host: volumes of 2, 3 and 8
# image files made by our mkfs (populated with --rootdir so that data and
# nodes reach later devices) and by f2fs-tools' mkfs.f2fs -c. Our fsck finds
# them clean, and so does f2fs-tools' fsck.f2fs; dump's -b, SIT and inode
# views agree with f2fs-tools' dump.f2fs at addresses on every device
# (multidev-compare.py); neither tool writes. Bad input (a device missing,
# unreadable, given twice or through a symlink, too few, too small, out of
# order, of another volume, the first device in a later place) is one line
# naming the device, exit 8 (fsck) / 1 (dump), nothing written. A node block
# damaged on the second device is found and its report names the device; a
# repair (-y) of SIT damage on a later device's segment, and one rebuilding a
# quota file out of place on later devices, leave the volume clean for both
# fscks.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
. "$HERE/../lib/peer-fsck.sh"
DUMP=${DUMP:-$TOP_BUILD/dump/dump.f2fs}
PEER_MKFS=${PEER_MKFS:-/usr/sbin/mkfs.f2fs}
PEER_DUMP=${PEER_DUMP:-/usr/sbin/dump.f2fs}
W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-multidev.XXXXXX") || exit 1
W=$(cd "$W" && pwd -P)
trap 'rm -rf "$W"' EXIT
have_peer=0
[[ -x $PEER_MKFS && -x $PEER_DUMP && -x ${PEER_FSCK:-/usr/sbin/fsck.f2fs} ]] && have_peer=1

# A tree of about 70 MiB: small files (nodes) and 1 MiB files (data).
mkdir -p "$W/tree/small" "$W/tree/big"
make_tree "$W/tree/misc"
python3 - "$W/tree" <<'EOF'
import os, random, sys
r = random.Random(12)
for i in range(600):
    with open(f'{sys.argv[1]}/small/s{i}', 'wb') as f:
        f.write(r.randbytes(100 + i * 37 % 3000))
for i in range(70):
    with open(f'{sys.argv[1]}/big/b{i}', 'wb') as f:
        f.write(r.randbytes(1 << 20))
EOF

hashes() { sha256sum "$@" | awk '{print $1}' | tr '\n' ' '; }

# make_vol DIR N MIB MAKER: N images of MIB MiB under DIR, one volume.
make_vol() {
	local d=$1 n=$2 mib=$3 maker=$4 i extra=()
	mkdir -p "$d"
	for ((i = 0; i < n; i++)); do truncate -s "${mib}M" "$d/d$i.img"; done
	for ((i = 1; i < n; i++)); do extra+=(-c "$d/d$i.img"); done
	if [[ $maker == ours ]]; then
		"$MKFS" -q -f -T 0 --rootdir "$W/tree" "${extra[@]}" "$d/d0.img"
	else
		"$PEER_MKFS" -q -f "${extra[@]}" "$d/d0.img" >/dev/null
	fi
}

# check_vol LABEL DIR N: clean for both fscks, dump agrees with f2fs-tools',
# nothing written by either.
check_vol() {
	local label=$1 d=$2 n=$3 before out rc=0 imgs=()
	for ((i = 0; i < n; i++)); do imgs+=("$d/d$i.img"); done
	before=$(hashes "${imgs[@]}")
	expect_clean "$label" "$d/d0.img" -n
	out=$("$FSCK" -n --json "$d/d0.img" 2>&1)
	[[ $out == *'"problems":[]'* ]] && ok "$label: --json lists no problem" ||
		bad "$label: --json: ${out:0:300}"
	if [[ $have_peer == 1 ]]; then
		expect_peer_clean "$label" "$d/d0.img" -
		out=$(python3 "$HERE/multidev-compare.py" "$DUMP" "$PEER_DUMP" "$d/d0.img" 2>&1) || rc=$?
		if [[ $rc -eq 0 ]]; then
			ok "$label: dump -b, SIT, -i agree with dump.f2fs ($(grep -c '^same' <<<"$out") comparisons)"
		else
			bad "$label: dump differs from dump.f2fs"
			grep -v '^same' <<<"$out" | head -10
		fi
	fi
	if ! "$DUMP" --extract / -o "$d/out" "$d/d0.img" >/dev/null 2>&1; then
		bad "$label: dump --extract failed"
	elif [[ $maker == ours ]] && ! diff -r --no-dereference "$W/tree" "$d/out" >/dev/null; then
		bad "$label: dump --extract differs from the tree"
	else
		ok "$label: dump --extract"
	fi
	rm -rf "$d/out"
	"$DUMP" --gc --json "$d/d0.img" >/dev/null && ok "$label: dump --gc" || bad "$label: dump --gc"
	[[ $(hashes "${imgs[@]}") == "$before" ]] && ok "$label: nothing written" ||
		bad "$label: fsck -n or dump wrote to the devices"
}

for maker in ours peer; do
	[[ $maker == peer && $have_peer == 0 ]] && { echo "f2fs-tools missing: peer volumes skipped"; continue; }
	for spec in 2:128 3:128 8:64; do
		n=${spec%:*} mib=${spec#*:}
		d=$W/$maker$n
		make_vol "$d" "$n" "$mib" "$maker" || { bad "$maker mkfs of $n devices"; continue; }
		check_vol "$maker mkfs, $n devices" "$d" "$n"
	done
done

# ---- bad input, on a 3-device volume whose first device holds only the
# metadata (so that nodes live on device 2, where an order check can see them)
V=$W/bad3
mkdir -p "$V" && truncate -s 17M "$V/d0.img" && truncate -s 128M "$V/d1.img" "$V/d2.img"
"$MKFS" -q -f -T 0 --rootdir "$W/tree" -c "$V/d1.img" -c "$V/d2.img" "$V/d0.img" || bad "mkfs of $V"
# dev_start K: first volume block of device K (0-based) of $V
dev_start() {
	"$DUMP" --json --sb "$V/d0.img" | python3 -c '
import json, sys
sb = json.load(sys.stdin)["superblock"]
k, at = int(sys.argv[1]), 0
for i, d in enumerate(sb["devs"][:k]):
    at += d["total_segments"] * 512 + (sb["segment0_blkaddr"] if i == 0 else 0)
print(at)' "$1"
}
start1=$(dev_start 1) start2=$(dev_start 2)
before=$(hashes "$V"/d*.img)
# expect_refused TOOL LABEL WANT_EXIT WORD ARGS...: one line naming WORD
expect_refused() {
	local tool=$1 label=$2 want=$3 word=$4 rc=0 err
	shift 4
	err=$("$tool" "$@" 2>&1 >/dev/null) || rc=$?
	if [[ $rc -eq $want && $(wc -l <<<"$err") -eq 1 && $err == *"$word"* ]]; then
		ok "$label: exit $rc: $err"
	else
		bad "$label: exit $rc (want $want), stderr: $err"
	fi
}
mkdir -p "$W/adir"
ln -s "$V/d1.img" "$W/link1.img"
truncate -s 64M "$W/small.img"
cp --sparse=always "$V/d0.img" "$W/first-copy.img"
mkdir -p "$W/other3"
for i in 0 1 2; do truncate -s 128M "$W/other3/d$i.img"; done
"$MKFS" -q -f --rootdir "$W/tree/misc" -c "$W/other3/d1.img" -c "$W/other3/d2.img" "$W/other3/d0.img"
truncate -s 128M "$W/single.img" && "$MKFS" -q -f "$W/single.img"
for t in fsck dump; do
	if [[ $t == fsck ]]; then tool=$FSCK want=8 o=(-n) dv=--device; else tool=$DUMP want=1 o=() dv=-c; fi
	expect_refused "$tool" "$t: missing device" $want nope.img "${o[@]}" $dv "$V/d1.img" $dv "$W/nope.img" "$V/d0.img"
	expect_refused "$tool" "$t: not a file or device" $want adir "${o[@]}" $dv "$V/d1.img" $dv "$W/adir" "$V/d0.img"
	expect_refused "$tool" "$t: device given twice" $want "same as" "${o[@]}" $dv "$V/d1.img" $dv "$V/d1.img" "$V/d0.img"
	expect_refused "$tool" "$t: twice through a symlink" $want link1.img "${o[@]}" $dv "$W/link1.img" $dv "$V/d1.img" "$V/d0.img"
	expect_refused "$tool" "$t: too few devices" $want "3 devices" "${o[@]}" $dv "$V/d1.img" "$V/d0.img"
	expect_refused "$tool" "$t: device too small" $want small.img "${o[@]}" $dv "$V/d1.img" $dv "$W/small.img" "$V/d0.img"
	expect_refused "$tool" "$t: devices out of order" $want "device 2 of 3" "${o[@]}" $dv "$V/d2.img" $dv "$V/d1.img" "$V/d0.img"
	expect_refused "$tool" "$t: another volume's device" $want "other3/d1.img" "${o[@]}" $dv "$W/other3/d1.img" $dv "$V/d2.img" "$V/d0.img"
	expect_refused "$tool" "$t: first device in a later place" $want first-copy.img "${o[@]}" $dv "$W/first-copy.img" $dv "$V/d2.img" "$V/d0.img"
	expect_refused "$tool" "$t: --device on a single-device volume" $want "one device" "${o[@]}" $dv "$V/d1.img" "$W/single.img"
done
expect_refused "$FSCK" "fsck -y: missing device, nothing opened for writing" 8 nope.img -y --device "$V/d1.img" --device "$W/nope.img" "$V/d0.img"
[[ $(hashes "$V"/d*.img) == "$before" ]] && ok "bad input: nothing written" || bad "bad input: the volume changed"
# by other names: renamed images, given with --device in mkfs's order
mv "$V/d1.img" "$V/renamed1.img"
expect_refused "$FSCK" "fsck: renamed device, recorded path" 8 "$V/d1.img" -n "$V/d0.img"
expect_clean "renamed device given with --device" "$V/d0.img" -n --device "$V/renamed1.img" --device "$V/d2.img"
"$DUMP" --device "$V/renamed1.img" --device "$V/d2.img" -b $((start1 + 10)) "$V/d0.img" | grep -q 'renamed1.img' &&
	ok "dump --device: -b names the renamed device" || bad "dump --device on renamed device"
mv "$V/renamed1.img" "$V/d1.img"
"$DUMP" -c "$V/d1.img" -c "$V/d2.img" -b "$start1" "$V/d0.img" | grep -q "block on the device: *0$" &&
	ok "dump -c: -b $start1 is block 0 of device 2" || bad "dump -b at the start of device 2"

# ---- damage on the second device --------------------------------------------
read -r nid blk <<<"$("$DUMP" -n 0~-1 "$V/d0.img" | awk -v lo="$start1" -v hi="$start2" \
	'NR > 2 && $3 >= lo && $3 < hi && $1 == $2 { print $1, $3; exit }')"
if [[ -n ${blk:-} ]]; then
	cp --sparse=always "$V/d1.img" "$W/d1.keep"
	python3 -c "
import struct, sys
with open(sys.argv[1], 'r+b') as f:
    f.seek(($blk - $start1) * 4096 + 4096 - 24)
    f.write(struct.pack('<I', 999999))" "$V/d1.img"
	out=$("$FSCK" -n "$V/d0.img" 2>&1)
	grep -q "node.footer_nid.*block $blk.* on $V/d1.img (device 2, block $((blk - start1)))" <<<"$out" &&
		ok "damaged node $nid on device 2 found, report names $V/d1.img" ||
		bad "damaged node on device 2: $(head -3 <<<"$out")"
	"$FSCK" -n --json "$V/d0.img" | grep -q "\"device\":2,\"device_path\":\"$V/d1.img\"" &&
		ok "--json names the device" || bad "--json does not name the device"
	cp --sparse=always "$W/d1.keep" "$V/d1.img"
else
	bad "no inode on device 2 to damage"
fi

# ---- repair through the set: SIT damage of a segment on device 3 ------------
seg=$(( (start2 - $("$DUMP" --json --sb "$V/d0.img" | python3 -c 'import json,sys; print(json.load(sys.stdin)["superblock"]["main_blkaddr"])')) / 512 + 3 ))
python3 "$DAMAGE" "$V/d0.img" sit "$seg" vblocks 7 >/dev/null 2>&1 || bad "damage.py sit on a multi-device volume"
rc=0
out=$("$FSCK" -y "$V/d0.img" 2>&1) || rc=$?
[[ $rc -eq 1 ]] && ok "fsck -y repairs SIT damage on a later device's segment (exit 1)" ||
	bad "fsck -y exit $rc: $(tail -3 <<<"$out")"
expect_clean "after the repair" "$V/d0.img" -n
[[ $have_peer == 1 ]] && expect_peer_clean "after the repair" "$V/d0.img" -

# ---- a repair that writes out of place on a later device --------------------
# The quota file's header damaged on device 2 of a volume whose first device
# holds only metadata: the rebuilt file's node and data blocks can only go
# to a later device, through the set.
Q=$W/quota3
mkdir -p "$Q" && truncate -s 17M "$Q/d0.img" && truncate -s 128M "$Q/d1.img" "$Q/d2.img"
"$MKFS" -q -f -O extra_attr,quota --rootdir "$W/tree/misc" -c "$Q/d1.img" -c "$Q/d2.img" "$Q/d0.img" ||
	bad "mkfs -O quota of $Q"
qi=$("$DUMP" --json --sb "$Q/d0.img" | python3 -c 'import json,sys; print(json.load(sys.stdin)["superblock"]["qf_ino_usr"])')
qa=$("$DUMP" --json -i "$qi" "$Q/d0.img" | python3 -c 'import json,sys; print(json.load(sys.stdin)["inode"]["block_map"][0]["blkaddr"])')
read -r qdev qblk <<<"$("$DUMP" --json -b "$qa" "$Q/d0.img" | python3 -c '
import json, sys
b = json.load(sys.stdin)["block"]
print(b.get("device", 0), b.get("device_blkaddr", 0))')"
if [[ $qdev -ge 2 ]]; then
	printf '\xde\xad\xbe\xef' | dd of="$Q/d$((qdev - 1)).img" bs=1 seek=$((qblk * 4096)) conv=notrunc 2>/dev/null
	later=$(hashes "$Q/d1.img" "$Q/d2.img")
	rc=0
	out=$("$FSCK" -y "$Q/d0.img" 2>&1) || rc=$?
	if [[ $rc -eq 1 && $out == *"written out of place: 1 node block(s)"* &&
	      $(hashes "$Q/d1.img" "$Q/d2.img") != "$later" ]]; then
		ok "quota file damaged on device $qdev: -y rebuilds it, writing on the later devices"
	else
		bad "quota repair on a later device: exit $rc: $(tail -3 <<<"$out")"
	fi
	expect_clean "after the quota repair" "$Q/d0.img" -n
	[[ $have_peer == 1 ]] && expect_peer_clean "after the quota repair" "$Q/d0.img" -
else
	bad "the quota file's first block is not on a later device ($qdev)"
fi

summary multidev
