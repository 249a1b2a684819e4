#!/bin/bash
# dump.f2fs --gc/--gc-free/--gc-sim on SITs crafted with sitedit.py, against
# hand-worked kernel arithmetic (fs/f2fs/gc.c: get_cb_cost, atgc_lookup_victim).
NAME=dump-gc
. "$(dirname "$0")/common.sh"
need_tools

img=$W/g.img
truncate -s 256M "$img"
"$MKFS" -q -f "$img" >"$W/mkfs.log" 2>&1 || bad "mkfs: $(tail -1 "$W/mkfs.log")"
# current segments of a 256 MiB image: 0-3, 29, 59 (never candidates)
$SITEDIT "$img" set 10 100 1 1000 &&
$SITEDIT "$img" set 11 50 1 9000 &&
$SITEDIT "$img" set 12 300 1 100 &&
$SITEDIT "$img" set 13 200 4 5000 &&
$SITEDIT "$img" set 20 512 1 7000 &&
$SITEDIT "$img" elapsed 10000 || bad "sitedit failed"

# victims in rank order, "secno:cost ..."
ranking() { python3 -c '
import json,sys
print(" ".join("%d:%d" % (r["secno"], r["cost"]) for r in json.load(open(sys.argv[1]))["victims"]))' "$W/out"; }

run --json --gc --fg "$img"
json_ok "--json --gc parses"
# greedy: cost = valid blocks
check "FG greedy ranking" test "$(ranking)" = "11:50 10:100 13:200 12:300"
check "FG greedy searches every dirty section" test "$(jget gc.searched)" -eq 4

# cost-benefit, min_mtime 0 (free sections), max_mtime = elapsed_time 10000:
#  seg 10: u = 100*100>>9 = 19, age = 100-100*1000/10000 = 90, 100*81*90/119 = 6126
#  seg 11: u = 9, age = 10, 100*91*10/109 = 834
#  seg 12: u = 58, age = 99, 100*42*99/158 = 2631
#  seg 13: u = 39, age = 50, 100*61*50/139 = 2194
U=4294967295
run --json --gc "$img"
check "BG cost-benefit ranking" test "$(ranking)" = "10:$((U - 6126)) 12:$((U - 2631)) 13:$((U - 2194)) 11:$((U - 834))"
check "BG default policy is cb" test "$(jget gc.policy)" = cb

# window: the kernel visits max_victim_search dirty sections from offset 0
run --json --gc --policy greedy --bg --max-search 1 "$img"
check "greedy window 1 misses the cheaper section 11" test "$(ranking)" = "10:100"
run --json --gc --policy greedy --bg --max-search 2 "$img"
check "greedy window 2 finds section 11" test "$(ranking)" = "11:50 10:100"
run --json --gc --policy greedy --fg --max-search 1 "$img"
check "FG ignores max_victim_search" test "$(jget gc.victim_secno)" -eq 11

# ATGC: all candidates are younger than 7 days and elapsed < 7 days: retry with 0.
# sorted by mtime 12,10,13,11; dirty min 100, max 9000+1, total 8901, accu 10000:
#  12: age 10000*8901/8901*60 = 600000, u = (10000*212/512 = 4140)*40 = 165600
#  10: (80010000/8901 = 8988)*60 = 539280, (10000*412/512 = 8046)*40 = 321840
#  13: (40010000/8901 = 4495)*60 = 269700, (10000*312/512 = 6093)*40 = 243720
#  11: (10000/8901 = 1)*60 = 60, (10000*462/512 = 9023)*40 = 360920
run --json --gc --policy age "$img"
check "ATGC retried with threshold 0" test "$(jget gc.retried)" -eq 1
check "ATGC ranking" test "$(ranking)" = "10:$((U - 861120)) 12:$((U - 765600)) 13:$((U - 513420)) 11:$((U - 360980))"

# cost of freeing: K=2 cheapest 11 + 10 = 150; net 2 sections (1024 blocks):
# 11 (+462), 10 (+412), 13 (+312) -> 350 blocks, 3 victims
run --json --gc-free 2 "$img"
check "--gc-free 2: 150 blocks to empty two" test "$(jget gc_free.blocks_to_empty)" -eq 150
check "--gc-free 2: 350 blocks, 3 victims net" test "$(jget gc_free.blocks_net)-$(jget gc_free.victims_net)" = 350-3

# simulation to 111 free sections (109 now). Greedy: 11 (50, opens a data
# destination: 108 -> 109), 10 (100: 110), 13 is node data -> opens a node
# destination (109 -> 110), 12 (300: 111): 4 victims, 650 blocks
run --json --gc-sim=111 "$img"
json_ok "--json --gc-sim parses"
g=$(python3 -c 'import json,sys; r=[x for x in json.load(open(sys.argv[1]))["runs"] if x["policy"]=="greedy" and x["window"]==0][0]; print(r["victims"], r["moved"], r["free_after"])' "$W/out")
check "greedy simulation: 4 victims, 650 blocks moved, 111 free" test "$g" = "4 650 111"

# a count that disagrees with its map is flagged
$SITEDIT "$img" badcount 30
run -s 30 "$img"
check "-s flags a count that disagrees with the map" grep -q 'count!=map' "$W/out"

# current segments are never victims even when nearly empty
run --json -s 0~-1 "$img"
curs=$(python3 -c 'import json,sys; print(" ".join(str(r["segno"]) for r in json.load(open(sys.argv[1]))["sit"] if r["state"]=="current"))' "$W/out")
run --json --gc --fg --top 100 "$img"
hit=0
for s in $curs; do ranking | tr ' ' '\n' | grep -q "^$s:" && hit=1; done
check "current segments ($curs) are not candidates" test "$hit" -eq 0

# Two segments per section (-s 2): the kernel walks dirty_secmap, one bit
# per section, set only for sections with 0 < valid < 1024 that hold no
# current segment (segment.c init_dirty_segmap, __locate_dirty_segment);
# max_search is its bit count and nsearched counts each bit
# (gc.c select_policy, get_victim_by_default). Current sections of this
# image: 0 (hot node), 1, 2, 3 (hot data), 13, 28. Sections 0, 3 and 13 are
# given valid blocks: they are not in the map, so they neither rank nor
# take a place in the window.
img2=$W/s2.img
truncate -s 256M "$img2"
"$MKFS" -q -f -s 2 "$img2" >"$W/mkfs.log" 2>&1 || bad "mkfs -s 2: $(tail -1 "$W/mkfs.log")"
$SITEDIT "$img2" set 1 300 3 500 &&     # section 0 (current): 301 valid
$SITEDIT "$img2" set 7 200 0 500 &&     # section 3 (current): 201 valid
$SITEDIT "$img2" set 27 100 2 500 &&    # section 13 (current): 100 valid
$SITEDIT "$img2" set 10 512 1 2000 &&   # section 5: a full and an empty segment,
$SITEDIT "$img2" set 11 0 1 0 &&        #   512 valid: in dirty_secmap, though no
                                        #   segment of it is in dirty_segmap[DIRTY]
$SITEDIT "$img2" set 12 300 1 4000 &&   # section 6: 500
$SITEDIT "$img2" set 13 200 1 4000 &&
$SITEDIT "$img2" set 16 512 1 3000 &&   # section 8: 1024, full, not in the map
$SITEDIT "$img2" set 17 512 1 3000 &&
$SITEDIT "$img2" set 18 250 1 9000 &&   # section 9: 250
$SITEDIT "$img2" set 40 50 1 8000 &&    # section 20: 90
$SITEDIT "$img2" set 41 40 1 8000 &&
$SITEDIT "$img2" set 60 512 1 100 &&    # section 30: 612
$SITEDIT "$img2" set 61 100 1 100 &&
$SITEDIT "$img2" elapsed 10000 || bad "sitedit -s 2 failed"

run --json --gc --fg "$img2"
check "-s 2: FG greedy ranks the five non-current partly valid sections" \
	test "$(ranking)" = "20:90 9:250 6:500 5:512 30:612"
check "-s 2: the map holds 5 sections (current ones absent)" test "$(jget gc.dirty_sections)" -eq 5
# BG window 4 from offset 0 visits sections 5, 6, 9, 20 (a window that
# counted the current sections 0 and 3 would end at 6 and pick it)
run --json --gc --policy greedy --bg --max-search 4 "$img2"
check "-s 2: greedy window 4 visits 5 6 9 20 and picks 20" \
	test "$(ranking) $(jget gc.searched) $(jget gc.window)" = "20:90 9:250 6:500 5:512 4 4"
run --json --gc --policy greedy --bg --max-search 3 "$img2"
check "-s 2: greedy window 3 stops at section 9" test "$(ranking)" = "9:250 6:500 5:512"
# cost-benefit over the same window: min_mtime 0 (free sections), max 10000,
# section mtime = mean of its two segments, u = (valid / 2) * 100 >> 9:
#  5: 256 -> u 50, mtime 1000 -> age 90, 100*50*90/150 = 3000
#  6: 250 -> u 48, mtime 4000 -> age 60, 100*52*60/148 = 2108
#  9: 125 -> u 24, mtime 4500 -> age 55, 100*76*55/124 = 3370
# 20:  45 -> u 8,  mtime 8000 -> age 20, 100*92*20/108 = 1703
run --json --gc --policy cb --bg --max-search 4 "$img2"
check "-s 2: cost-benefit window 4 ranking" \
	test "$(ranking)" = "9:$((U - 3370)) 5:$((U - 3000)) 6:$((U - 2108)) 20:$((U - 1703))"

# speed: a 64 GiB image with every segment's SIT entry filled at random
big=$W/big.img
"$MKFS" -q -f -S "$big" $((64 * 1024 * 1024 * 2)) >"$W/mkfs.log" 2>&1 || bad "mkfs 64G: $(tail -1 "$W/mkfs.log")"
$SITEDIT "$big" fill 7
start=$(date +%s%N)
run --gc --fg --top 3 "$big"
ms=$((($(date +%s%N) - start) / 1000000))
check "64 GiB random SIT: FG ranking exits 0 (${ms} ms)" test "$rc" -eq 0
run --json --segments "$big"
json_ok "64 GiB random SIT: --segments parses"

finish
