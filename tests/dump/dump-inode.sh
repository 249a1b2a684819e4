#!/bin/bash
# dump.f2fs -i by path and by number, the block map as extents (a sparse
# file built with mkfs --rootdir: offsets, lengths and the bytes at every
# mapped address), and -d debug levels.
NAME=dump-inode
. "$(dirname "$0")/common.sh"
need_tools

B=4096
src=$W/src
mkdir -p "$src/a/b"
# sparse: data in blocks 0-999 and 2500-2599, holes in 1000-2499 and to 2999
head -c $((1000 * B)) /dev/urandom >"$src/sparse"
head -c $((100 * B)) /dev/urandom | dd of="$src/sparse" bs=$B seek=2500 conv=notrunc status=none
truncate -s $((3000 * B)) "$src/sparse"
# hole first: the first block is mapped only at 700
head -c $((3 * B)) /dev/urandom | dd of="$src/late" bs=$B seek=700 conv=notrunc status=none
head -c 10000 /dev/urandom >"$src/a/b/dense"
echo tiny >"$src/a/tiny"
img=$W/i.img
truncate -s 256M "$img"
"$MKFS" -q -f -O extra_attr,inode_checksum --rootdir "$src" "$img" >"$W/mkfs.log" 2>&1 ||
	bad "mkfs --rootdir: $(tail -1 "$W/mkfs.log")"

# Runs of the JSON block map merged by kind ("kind:first+len ..."); the bytes
# at every data extent must be the source file's bytes at that offset.
extents() { # extents SOURCE_FILE
	python3 - "$W/out" "$img" "$1" <<'EOF'
import json, sys
B = 4096
m = json.load(open(sys.argv[1]))["inode"]
img, src = open(sys.argv[2], "rb"), open(sys.argv[3], "rb")
runs, pos = [], 0
for e in m["block_map"]:
    assert e["file_block"] == pos, ("gap or overlap at", pos, e)
    pos += e["blocks"]
    if e["kind"] == "data":
        assert e["last_blkaddr"] == e["blkaddr"] + e["blocks"] - 1, e
        img.seek(e["blkaddr"] * B)
        src.seek(e["file_block"] * B)
        want = src.read(e["blocks"] * B)
        got = img.read(e["blocks"] * B)[:len(want)]
        assert got == want, ("content differs", e)
    else:
        assert e["blkaddr"] is None, e
    if runs and runs[-1][0] == e["kind"]:
        runs[-1][2] += e["blocks"]
    else:
        runs.append([e["kind"], e["file_block"], e["blocks"]])
assert m["extents"] == len(m["block_map"])
assert m["mapped_blocks"] == sum(e["blocks"] for e in m["block_map"] if e["kind"] == "data")
assert m["hole_blocks"] == sum(e["blocks"] for e in m["block_map"] if e["kind"] == "hole")
print(" ".join("%s:%d+%d" % tuple(r) for r in runs))
EOF
}

# ---- path lookup -------------------------------------------------------------
run --json --ls=/ "$img"
sparse_ino=$(python3 -c 'import json,sys; print([r["ino"] for r in json.load(open(sys.argv[1]))["ls"] if r["name"]=="sparse"][0])' "$W/out")
run -i /sparse "$img"
by_path=$out
check "-i /sparse exits 0 and names the inode" eval '[[ $rc -eq 0 && $out == "Inode $sparse_ino"* ]]'
run -i "$sparse_ino" "$img"
check "-i PATH and -i INO print the same" test "$out" = "$by_path"
run -i "$(printf '0x%x' "$sparse_ino")" "$img"
check "-i takes hex with 0x" test "$out" = "$by_path"
run -i / "$img"
check "-i / is the root" eval '[[ $rc -eq 0 && $out == "Inode 3"* ]] && grep -Eq "^ +type: +directory$" "$W/out"'
run --json -i /a/b/dense "$img"
json_ok "--json -i nested path parses"
run --json --ls=/a/b "$img"
want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ls"][0]["ino"])' "$W/out")
run --json -i //a//b/dense "$img"
check "repeated slashes resolve to the --ls inode ($want)" test "$(jget inode.ino)" = "$want"
check "the inode's own name is dense" test "$(jget inode.name)" = dense
expect_error "-i unknown path" -i /a/nosuch/x "$img"
check "unknown path: the message names the first missing part" eval '[[ $err == "dump.f2fs: /a/nosuch: no such file or directory" ]]'
expect_error "-i path through a regular file" -i /sparse/x "$img"
check "through a file: not a directory" eval '[[ $err == *"not a directory"* ]]'
expect_error "-i path without a leading slash, missing" -i nosuch "$img"
expect_error "-i unused inode number" -i 4000 "$img"
run -i 12x "$img"
check "-i malformed number is a usage error (16)" test "$rc" -eq 16

# ---- block map as extents ----------------------------------------------------
run --json -i /sparse "$img"
json_ok "--json -i /sparse parses"
got=$(extents "$src/sparse" 2>"$W/py.err")
check "sparse: extents by kind (got: $got $(head -c 200 "$W/py.err"))" \
	test "$got" = "data:0+1000 hole:1000+1500 data:2500+100 hole:2600+400"
check "sparse: 1100 mapped, 1900 in holes" test "$(jget inode.mapped_blocks)-$(jget inode.hole_blocks)" = 1100-1900
run --json -i /late "$img"
got=$(extents "$src/late" 2>"$W/py.err")
check "hole first (got: $got $(head -c 200 "$W/py.err"))" test "$got" = "hole:0+700 data:700+3"
run --json -i /a/b/dense "$img"
got=$(extents "$src/a/b/dense" 2>"$W/py.err")
check "dense 10000-byte file: 3 blocks of data (got: $got)" test "$got" = "data:0+3"
run -i /sparse "$img"
check "text: the hole row shows no address" grep -Eq '^ +1000 +1500 +- +- hole$' "$W/out"
check "text: extents count" grep -Eq '^ +extents: +[0-9]+$' "$W/out"
run --json -i /a/tiny "$img"
check "inline file: data inline, no block map" eval '[[ $(jget inode.data) == inline ]] && ! grep -q block_map "$W/out"'
check "inline file: its content shown (\"tiny\\n\" is not printable: hex)" test "$(jget inode.inline_data)" = 0x74696e790a
run --json -i / "$img"
check "root directory: one dentry block mapped" eval '[[ $(jget inode.mapped_blocks) -ge 1 && $(jget inode.block_map.0.kind) == data ]]'

# a damaged node pointer: the map stops there with one error line and exit 1,
# what was found before it stays printed and the JSON document stays whole
run --json -i /sparse "$img"
node=$(jget inode.node_blkaddr)
cp "$img" "$W/bad.img"
# i_nid[0] (the first direct node) sits after the 923 data pointers at byte 360
printf '\xf0\xff\xff\x0f' | dd of="$W/bad.img" bs=1 seek=$((node * B + 360 + 923 * 4)) conv=notrunc status=none
run --json -i /sparse "$W/bad.img"
check "damaged node pointer: exit 1, one error line naming the block map" \
	eval '[[ $rc -eq 1 && $(wc -l <"$W/err") -eq 1 && $err == "dump.f2fs: inode $sparse_ino: block map: "* ]]'
check "damaged node pointer: the JSON so far parses, first extent kept" \
	eval 'python3 -m json.tool "$W/out" >/dev/null && [[ $(jget inode.block_map.0.kind) == data && $(jget inode.block_map.0.file_block) == 0 ]]'

# an unreadable inode in a listing: "?" fields in text, nulls in JSON, its
# name on stderr, exit 1, and the other entries still listed
run --json -i /a/tiny "$img"
node=$(jget inode.node_blkaddr)
cp "$img" "$W/bad2.img"
# the footer's nid (byte 4072 of the node block) no longer names the inode
printf '\x01\x00\x00\x00' | dd of="$W/bad2.img" bs=1 seek=$((node * B + 4072)) conv=notrunc status=none
run --ls=/a "$W/bad2.img"
check "--ls: unreadable entry shown with ? and named on stderr, exit 1" \
	eval '[[ $rc -eq 1 && $out == *"?????????? "*" tiny"* && $out == *" b"* && $err == "dump.f2fs: tiny: "* ]]'
run --json --ls=/a "$W/bad2.img"
check "--ls --json: unreadable entry has null fields, JSON parses" \
	eval 'python3 -m json.tool "$W/out" >/dev/null && python3 -c "import json,sys; r={e[\"name\"]: e for e in json.load(open(sys.argv[1]))[\"ls\"]}; sys.exit(not (r[\"tiny\"][\"mode\"] is None and r[\"tiny\"][\"size\"] is None and r[\"b\"][\"mode\"].startswith(\"d\")))" "$W/out"'

# ---- -d debug level ----------------------------------------------------------
run "$img"
plain=$out
run -d 0 "$img"
check "-d 0: same output, nothing on stderr" eval '[[ $rc -eq 0 && $out == "$plain" && -z $err ]]'
run -d 1 "$img"
check "-d 1: stdout unchanged" test "$out" = "$plain"
check "-d 1: names the superblock copy and pack" eval 'grep -q "^dump.f2fs: debug: opened .*superblock copy 0" "$W/err" && grep -q "debug: checkpoint pack [12] at block" "$W/err"'
check "-d 1: no timings" eval '! grep -q " ms" "$W/err"'
run -d 1 -i /a/b/dense "$img"
check "-d 1: path resolution shown" grep -q "debug: /a/b/dense is inode $want$" "$W/err"
run -d 2 --json "$img"
json_ok "-d 2 --json: stdout still one JSON document"
check "-d 2: per-view timing" grep -Eq '^dump.f2fs: debug: view summary: [0-9.]+ ms, exit 0$' "$W/err"
run -d 3 "$img"
check "-d 3 accepted (as 2)" eval '[[ $rc -eq 0 && $out == "$plain" ]] && grep -q "view summary" "$W/err"'
run -d "$img"
check "-d without a level is a usage error" test "$rc" -eq 16
run -d -1 "$img"
check "-d -1 is a usage error" test "$rc" -eq 16

finish
