#!/bin/bash
# dump.f2fs -n/-s/-a/-b/-M/--segments: listings agree with each other and
# with the checkpoint, every valid block's owner points back at it, --json
# parses for every view, and bad input fails with exit 1 and one line.
NAME=dump-views
. "$(dirname "$0")/common.sh"
need_tools

src=$W/src
mkdir -p "$src/a/b"
for i in $(seq 1 200); do echo "file $i" >"$src/a/b/f$i"; done
head -c 6000000 /dev/urandom >"$src/a/big"
ln -s a/big "$src/link"
img=$W/v.img
truncate -s 512M "$img"
"$MKFS" -q -f -O extra_attr,inode_checksum,quota,lost_found --rootdir "$src" "$img" >"$W/mkfs.log" 2>&1 ||
	bad "mkfs: $(tail -1 "$W/mkfs.log")"

run --json "$img"
json_ok "--json summary parses"
main=$(jget superblock.segment_count_main)
vblocks=$(jget checkpoint.valid_block_count)
vnodes=$(jget checkpoint.valid_node_count)

# ---- SIT -------------------------------------------------------------------
# an entry's row starts with its segno and type; its map follows as 8
# rows of 64 marks
entries() { grep -cE '^ +[0-9]+ [a-z_]+ ' "$W/out"; }
run -s 0~-1 "$img"
check "-s 0~-1 lists every main segment ($main)" test "$(entries)" -eq "$main"
check "-s 0~-1: each map as 8 rows of 64 marks" test "$(grep -cE '^ +[0-9]+ [#.]{64}$' "$W/out")" -eq $((8 * main))
run -s 5 "$img"
check "-s N lists one segment" test "$(entries)" -eq 1
check "--segments draws the histogram's shares as bars" eval '"$DUMP" --segments "$img" | grep -qE "^ +0 +0 +[0-9]+ +[0-9.]+ #+$"'
run --json -s 0~-1 "$img"
json_ok "--json -s parses"
sum=$(python3 -c 'import json,sys; print(sum(r["valid"] for r in json.load(open(sys.argv[1]))["sit"]))' "$W/out")
check "SIT valid blocks add up to the checkpoint's ($sum = $vblocks)" test "$sum" -eq "$vblocks"
bits=$(python3 -c 'import json,sys; print(sum(bin(int(r["map"],16)).count("1") for r in json.load(open(sys.argv[1]))["sit"]))' "$W/out")
check "SIT maps agree with the counts" test "$bits" -eq "$sum"
cur=$(python3 -c 'import json,sys; print(sum(r["state"]=="current" for r in json.load(open(sys.argv[1]))["sit"]))' "$W/out")
check "six current segments" test "$cur" -eq 6

run --json --segments "$img"
json_ok "--json --segments parses"
check "--segments total valid = checkpoint" test "$(jget segments.valid_blocks)" -eq "$vblocks"
check "--segments free = checkpoint free" test "$(jget segments.free_segments)" -eq "$(jget segments.free_segments_cp)"
tot=$(python3 -c 'import json,sys; t=[r for r in json.load(open(sys.argv[1]))["by_type"] if r["type"]=="total"][0]; print(t["free_segs"]+t["partial_segs"]+t["full_segs"]+t["current_segs"])' "$W/out")
check "--segments per-type counts add up to $main" test "$tot" -eq "$main"
hist=$(python3 -c 'import json,sys; print(sum(r["segments"] for r in json.load(open(sys.argv[1]))["histogram"]))' "$W/out")
check "--segments histogram adds up to $main" test "$hist" -eq "$main"
run --segments=128 "$img"
check "--segments=128: header, zero and 4 buckets" test "$(sed -n '/^Valid blocks per segment/,/^$/p' "$W/out" | grep -c '^ ')" -eq 6

# ---- NAT -------------------------------------------------------------------
run --json -n 0~-1 "$img"
json_ok "--json -n parses"
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["nat"]))' "$W/out")
# nids 1 and 2 (node and meta inodes) are in use but not counted as nodes
check "NAT entries in use = valid nodes + 2 ($n = $vnodes + 2)" test "$n" -eq $((vnodes + 2))
run -n 3 "$img"
check "-n 3 shows the root" grep -Eq '^ +3 +3 +[0-9]+ +0 (copy[12]|journal)$' "$W/out"

# ---- SSA and owners --------------------------------------------------------
run --json -a 0~-1 "$img"
json_ok "--json -a parses"
python3 -c 'import json,sys; [print(r["blkaddr"]) for r in json.load(open(sys.argv[1]))["ssa"] if r["valid"]==1]' "$W/out" >"$W/valid"
check "SSA lists one entry per valid block ($(wc -l <"$W/valid"))" test "$(wc -l <"$W/valid")" -eq "$vblocks"
bad_owner=0 n=0
while read -r b; do
	n=$((n + 1))
	"$DUMP" -b "$b" "$img" >"$W/b" 2>&1
	grep -Eq '^ +status: +ok$' "$W/b" || { bad_owner=$((bad_owner + 1)); [[ $bad_owner -le 3 ]] && cat "$W/b"; }
done < <(awk 'NR % 7 == 1' "$W/valid")
check "owner of every 7th valid block verifies ($n blocks)" test "$bad_owner" -eq 0
root_blk=$("$DUMP" -n 3 "$img" | awk 'NR==3 {print $3}')
run -b "$root_blk" "$img"
check "-b of the root inode: a node of inode 3" eval 'grep -Eq "^ +inode: +3$" "$W/out" && grep -Eq "node kind: +inode$" "$W/out"'
big_ino=$("$DUMP" --json --ls=/a "$img" | python3 -c 'import json,sys; print([r["ino"] for r in json.load(sys.stdin)["ls"] if r["name"]=="big"][0])')
blk=$("$DUMP" --json -a 0~-1 "$img" | python3 -c '
import json,sys
rows=[r for r in json.load(sys.stdin)["ssa"] if r["kind"]=="data" and r["nid"]!='"$big_ino"' and r["valid"]==1]
print(rows[0]["blkaddr"] if rows else 0)')
run --json -b "$blk" "$img"
json_ok "--json -b parses"
check "-b of a data block names its file offset" eval '[[ $(jget block.status) == ok && -n $(jget block.file_block) ]]'
run -b 0 "$img"
check "-b in the superblock area: metadata" grep -Eq '^ +area: +superblock$' "$W/out"
run -M "$img"
check "-M: nat_bits agree with the NAT" grep -Eq '^ +blocks whose bits disagree: +0$' "$W/out"
check "-M: one map line per 64 segments" test "$(grep -Ec '^ +[0-9]+ [.0-9#C]+$' "$W/out")" -eq $(((main + 63) / 64))
run --json -M "$img"
json_ok "--json -M parses"

# every view as JSON in one document
run --json --sb --cp -i 3 --ls / --gc --gc-free 1 --gc-sim -s 0~3 -n 0~10 "$img"
json_ok "--json with many views is one valid document"

# ---- bad input -------------------------------------------------------------
expect_error "-s range beyond the main area" -s 0~999999 "$img"
expect_error "-s start beyond the main area" -s 999999~-1 "$img"
expect_error "-a range beyond the main area" -a "$main" "$img"
expect_error "-n beyond the NAT" -n 4000000000 "$img"
expect_error "-s empty range" -s 5~3 "$img"
expect_error "-b beyond the device" -b 999999999 "$img"
expect_error "--ls unknown path" --ls=/no/such "$img"
head -c 4M /dev/zero >"$W/zero.img"
expect_error "not F2FS" --segments "$W/zero.img"
head -c 1M "$img" >"$W/trunc.img"
expect_error "truncated image (1 MiB)" --segments "$W/trunc.img"
# truncated in the SIT area: the superblock and checkpoint are intact
sit=$("$DUMP" --json "$img" | python3 -c 'import json,sys; print(json.load(sys.stdin)["superblock"]["sit_blkaddr"])')
head -c $(((sit + 1) * 4096)) "$img" >"$W/trunc2.img"
expect_error "image truncated after the SIT start" -s 0~-1 "$W/trunc2.img"
run -s abc "$img"
check "-s abc is a usage error" test "$rc" -eq 16
run --policy bogus --gc "$img"
check "--policy bogus is a usage error" test "$rc" -eq 16

finish
