#!/bin/bash
# Re-formatting a used image leaves no stale metadata.
#
# Old contents: (a) a 1 GiB F2FS made by f2fs-tools' mkfs.f2fs (other
# options: -i, quota, checksums) and filled by sload.f2fs from a generated
# tree of a few hundred files, so both its checkpoint packs carry versions
# above the one we write; (b) 128 MiB of a repeating non-zero pattern.
# Each is formatted with our mkfs, with the default discard and with -t 0,
# using -r -U -T so that the result can be compared with a format of a
# zeroed image (the "fresh" image). Then:
#   - fsck.f2fs -f --dry-run is clean;
#   - f2fsimg.py reformat: pack 1 valid and as fresh, pack 2 cannot win and
#     reads as fresh, NAT copy 1 (but block 0) and SIT copy 1 all zero,
#     everything before the main area as fresh, the main-area blocks mkfs
#     writes as fresh, the warm node log's next free block zero;
#   - with discard (when mkfs reports it done) the whole image equals fresh;
#   - the checker itself is not blind: a stale block planted in NAT copy 1,
#     and a stale valid checkpoint in pack 2, are reported.

# make check runs this with $(SHELL), which may not be bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi

T_NAME=reformat
. "$(dirname "$0")/../peer/common.sh"

require_mkfs
require_python
require_peer sload
make_workdir

UUID=0d5b7c3e-9a41-4f2b-8e6d-1c2b3a4f5e6d
TS=1234567890
FIXED="-r -U $UUID -T $TS"

# ---- old contents ------------------------------------------------------------
echo "== old contents"
tree="$WORK/tree"
python3 - "$tree" <<'EOF' || die "cannot generate the source tree"
import os, random, sys
root = sys.argv[1]
rnd = random.Random(7)
sizes = [0, 1, 100, 3000, 4096, 5000, 20000, 70000]
for d in range(12):
    dp = os.path.join(root, "dir%02d" % d)
    os.makedirs(os.path.join(dp, "sub", "deeper"))
    for f in range(25):
        with open(os.path.join(dp, "file%03d.txt" % f), "wb") as fh:
            fh.write(bytes(rnd.getrandbits(8) for _ in range(rnd.choice(sizes))))
    with open(os.path.join(dp, "sub", "deeper", "big.bin"), "wb") as fh:
        fh.write(os.urandom(256 * 1024))
    os.symlink("file000.txt", os.path.join(dp, "link"))
EOF
nfiles=$(find "$tree" | wc -l)
old="$WORK/old-f2fs.img"
new_image "$old" 1G
"$PEER_MKFS" -q -f -i -O extra_attr,inode_checksum,quota,lost_found "$old" >"$WORK/peer.out" 2>&1 ||
	die "f2fs-tools mkfs.f2fs failed: $(tail -n 1 "$WORK/peer.out")"
"$PEER_SLOAD" -f "$tree" "$old" >"$WORK/sload.out" 2>&1 ||
	die "sload.f2fs failed: $(tail -n 3 "$WORK/sload.out")"
if why=$(fsck_clean "$old" "$WORK/old.log"); then
	pass "old image: f2fs-tools F2FS with $nfiles entries loaded by sload.f2fs, fsck clean"
else
	fail "old image is not clean after sload.f2fs: $why"
fi

pat="$WORK/old-pattern.img"
python3 - "$pat" <<'EOF' || die "cannot write the pattern image"
import sys
blk = bytes([0xA5, 0x5A, 0xC3, 0x3C]) * 1024
with open(sys.argv[1], "wb") as f:
    chunk = blk * 256
    for _ in range(128):
        f.write(chunk)
EOF
pass "old image: 128 MiB of a repeating A5 5A C3 3C pattern"

# ---- reformat and check ---------------------------------------------------------
# fresh SIZE DISCARD: a format of a zeroed image with the same options
fresh() {
	local f="$WORK/fresh-$1-$2.img"
	if [ ! -e "$f" ]; then
		new_image "$f" "$1"
		# shellcheck disable=SC2086
		"$MKFS" -q -t "$2" $FIXED "$f" || die "fresh format ($1, -t $2) failed"
	fi
	printf '%s\n' "$f"
}

# reformat OLD SIZE DISCARD LABEL
reformat() {
	local src=$1 size=$2 t=$3 label=$4 img="$WORK/re.img" ref rc out why
	ref=$(fresh "$size" "$t")
	copy_image "$src" "$img"
	# shellcheck disable=SC2086
	out=$("$MKFS" -f -t "$t" $FIXED "$img" 2>"$WORK/re.err")
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$label: our mkfs exit $rc: $(head -n 1 "$WORK/re.err")"
		return
	fi
	if why=$(fsck_clean "$img" "$WORK/re.log"); then
		pass "$label: fsck.f2fs clean"
	else
		fail "$label: $why"
	fi
	if python3 "$F2FSIMG" reformat "$img" "$ref" >"$WORK/re.chk" 2>&1; then
		pass "$label: no stale metadata ($(grep -c '^ok:' "$WORK/re.chk") checks)"
	else
		fail "$label: stale metadata:"
		grep -v '^ok:' "$WORK/re.chk" | sed 's/^/    /'
	fi
	if [ "$t" = 1 ]; then
		if printf '%s\n' "$out" | grep -q '^Discard: *done'; then
			if why=$(python3 "$F2FSIMG" same "$img" "$ref" 2>&1); then
				pass "$label: after discard the whole image equals a fresh format"
			else
				fail "$label: after discard the image differs from a fresh format: $why"
			fi
		else
			skip "$label: discard not done here ($(printf '%s\n' "$out" | grep '^Discard:'))"
		fi
	fi
	# keep the last -t 0 result for the negative checks
	[ "$t" = 0 ] && mv "$img" "$WORK/last-t0-$size.img"
	rm -f "$img"
}

echo "== reformat"
reformat "$old" 1G 1 "f2fs+sload 1G, discard"
reformat "$old" 1G 0 "f2fs+sload 1G, -t 0"
reformat "$pat" 128M 1 "pattern 128M, discard"
reformat "$pat" 128M 0 "pattern 128M, -t 0"

# ---- the checker must see stale data ---------------------------------------------
echo "== negative checks"
base="$WORK/last-t0-1G.img"
ref=$(fresh 1G 0)
if [ -f "$base" ]; then
	nat=$(python3 "$F2FSIMG" field "$base" sb.nat_blkaddr)
	cpb=$(python3 "$F2FSIMG" field "$base" sb.cp_blkaddr)
	bad="$WORK/bad.img"

	# a stale non-zero block in NAT copy 1 (block 5)
	copy_image "$base" "$bad"
	printf 'stale' | dd of="$bad" bs=1 seek=$(((nat + 5) * 4096 + 100)) conv=notrunc status=none
	if python3 "$F2FSIMG" reformat "$bad" "$ref" 2>&1 | grep -q '^BAD: NAT copy 1 blocks'; then
		pass "checker reports a stale block in NAT copy 1"
	else
		fail "checker is blind to a stale block in NAT copy 1"
	fi

	# pack 1's checkpoint block, with a higher version and a valid CRC,
	# planted at the start of pack 2 (what an old file system could leave)
	copy_image "$base" "$bad"
	python3 - "$bad" "$cpb" <<'EOF'
import struct, sys, zlib
path, cpb = sys.argv[1], int(sys.argv[2])
with open(path, "r+b") as f:
    f.seek(cpb * 4096)
    blk = bytearray(f.read(4096))
    ver = struct.unpack_from("<Q", blk, 0)[0] + 100
    struct.pack_into("<Q", blk, 0, ver)
    off = struct.unpack_from("<I", blk, 164)[0]
    crc = (~zlib.crc32(bytes(blk[:off]), ~0xF2F52010 & 0xFFFFFFFF)) & 0xFFFFFFFF
    struct.pack_into("<I", blk, off, crc)
    f.seek((cpb + 512) * 4096)
    f.write(blk)
EOF
	if python3 "$F2FSIMG" reformat "$bad" "$ref" 2>&1 | grep -q '^BAD: pack 2 holds'; then
		pass "checker reports a stale valid checkpoint in pack 2"
	else
		fail "checker is blind to a stale valid checkpoint in pack 2"
	fi
	rm -f "$bad"
else
	fail "negative checks: no -t 0 image to work on"
fi

finish
