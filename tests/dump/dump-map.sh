#!/bin/bash
# dump.f2fs --map FILE: the SVG parses and renders (librsvg's rsvg-convert),
# a section known to be full is drawn in the full data colour and one known
# to be free in the free colour; the current logs and GC ranks are drawn;
# a 15 TiB volume's picture stays under 2 MiB.
NAME=dump-map
. "$(dirname "$0")/common.sh"
need_tools
if ! command -v rsvg-convert >/dev/null; then
	echo "SKIP: rsvg-convert (librsvg2-bin) is not installed"
	exit 77
fi

# 12 MiB of one file: whole data sections full of valid blocks
mkdir -p "$W/tree"
head -c 12582912 /dev/zero | tr '\0' 'x' >"$W/tree/big"
img=$W/m.img
truncate -s 128M "$img"
"$MKFS" -q -f --rootdir "$W/tree" "$img" >/dev/null || { echo "mkfs failed"; exit 1; }

run --map "$W/m.svg" "$img"
check "--map exits 0 and says where" eval '[[ $rc -eq 0 && $out == *"$W/m.svg"* ]]'
check "the SVG marks current logs and GC ranks" \
	eval 'grep -q "stroke=\"#d00000\"" "$W/m.svg" && grep -q "<text" "$W/m.svg"'
rsvg-convert -f png -o "$W/m.png" "$W/m.svg" 2>"$W/rsvg.err"
check "rsvg-convert renders it" test -s "$W/m.png"

# a full segment and a free one, from the SIT as --json -s gives it
"$DUMP" --json -s 0~-1 "$img" >"$W/sit.json"
python3 - "$W/sit.json" "$W/m.png" <<'EOF' >"$W/px.out" 2>&1
import json, struct, sys, zlib

segs = json.load(open(sys.argv[1]))["sit"]
full = next(s["segno"] for s in segs if s["valid"] == 512)
free = next(s["segno"] for s in segs if s["valid"] == 0 and s["state"] != "current" and s["segno"] > full)

def png(path):
    data = open(path, "rb").read()
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            bpp = 4 if ctype == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, rows, stride, prev = zlib.decompress(idat), [], w * bpp, bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return rows, bpp

rows, bpp = png(sys.argv[2])
def at(seg, cols=16):   # one section a segment; 16 columns under 256 cells
    x, y = seg % cols * 8 + 3, seg // cols * 8 + 3
    return "#%02x%02x%02x" % tuple(rows[y][x * bpp:x * bpp + 3])
print(full, at(full), free, at(free))
EOF
read -r full fullc free freec <"$W/px.out"
check "a full data section is drawn #1f4eb4 (segment ${full:-?}: ${fullc:-$(cat "$W/px.out")})" \
	test "${fullc:-}" = "#1f4eb4"
check "a free section is drawn #e4e4e4 (segment ${free:-?}: ${freec:-?})" test "${freec:-}" = "#e4e4e4"

# the largest volume F2FS has: under 2 MiB
big=$W/big.img
if truncate -s 15T "$big" 2>/dev/null && "$MKFS" -q -f "$big" >/dev/null 2>&1; then
	run --map "$W/big.svg" "$big"
	size=$(stat -c %s "$W/big.svg" 2>/dev/null || echo 0)
	check "a 15 TiB volume's map: $size bytes, under 2 MiB" eval '[[ $rc -eq 0 && $size -gt 0 && $size -lt 2097152 ]]'
else
	echo "SKIP: no room for a sparse 15 TiB file here"
fi

finish
