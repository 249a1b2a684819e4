#!/usr/bin/env bash
# repair-bench.sh: repairing a large image with a handful of damaged NAT and
# SIT entries. Our `fsck.f2fs -y` against f2fs-tools' `fsck.f2fs -f -y`, each
# on its own sparse copy of the same damaged image, beside our own full
# check (`fsck.f2fs -f -n`) of it: the target is a repair within 1.3x of
# that check. Images are made by our `mkfs.f2fs --rootdir` from
# bench/gen-bench-tree.py trees (an existing tree-N under --trees is used),
# then damaged with tests/fsck/damage.py: the valid counts of three SIT
# entries, the reserved NAT entry of nid 0, one nat_bits bit and the
# checkpoint's free segment count.
#
# --damage tree instead damages the file tree (repair II): 100 entry hashes,
# 100 entry file types, 100 inode link counts and 100 entries removed (their
# files go to lost+found), spread over the tree's directories.
#
# --damage nat overwrites the live NAT block in the middle of the nids in
# use with garbage: the repair rebuilds its entries from the node blocks
# (target: within 1.5x of the check) and keeps every file.
#
# Per size: wall time, peak RSS and bytes written for each run (one run
# each, warm: a repair changes its copy), then both repaired copies are
# checked by both tools. Report (markdown) on stdout, progress on stderr.
set -euo pipefail

SELF_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench/common.sh
. "$SELF_DIR/common.sh"

SIZES="100k 1M"
WORK=${TMPDIR:-/var/tmp}
TREES=/var/tmp/bench-trees
BIN=""
THEIRS=/usr/sbin/fsck.f2fs
GEN=$SELF_DIR/gen-bench-tree.py
DAMAGE_KIND=meta
DAMAGE=$SELF_DIR/../tests/fsck/damage.py

usage() {
	cat <<USAGE
Usage: $0 [--sizes "100k 1M"] [--work DIR] [--trees DIR] [--bin DIR] [--damage meta|tree|nat]
  --bin DIR    build directory holding mkfs/mkfs.f2fs and fsck/fsck.f2fs
  --trees DIR  where tree-SIZE source trees are kept (made when missing)
USAGE
}
while [[ $# -gt 0 ]]; do
	case $1 in
	--sizes) SIZES=$2; shift 2 ;;
	--work) WORK=$2; shift 2 ;;
	--trees) TREES=$2; shift 2 ;;
	--bin) BIN=$2; shift 2 ;;
	--damage) DAMAGE_KIND=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 16 ;;
	esac
done
num() { case $1 in *k) echo $(( ${1%k} * 1000 )) ;; *M) echo $(( ${1%M} * 1000000 )) ;; *) echo "$1" ;; esac; }
log() { echo "$*" >&2; }

MKFS=$(our_tool "${BIN:+$BIN/mkfs/mkfs.f2fs}" mkfs/mkfs.f2fs --bin)
OURS=$(our_tool "${BIN:+$BIN/fsck/fsck.f2fs}" fsck/fsck.f2fs --bin)
BENCH_WORK=$(mktemp -d "$WORK/repair-bench.XXXXXX")
trap 'rm -rf "$BENCH_WORK"' EXIT
bench_init
T=$BENCH_WORK

damage() {   # IMAGE
	local img=$1 segs
	segs=$(python3 - "$img" "$DAMAGE" <<'PY'
import importlib.util, struct, sys
spec = importlib.util.spec_from_file_location('damage', sys.argv[2])
d = importlib.util.module_from_spec(spec)
spec.loader.exec_module(d)
img = d.Img(sys.argv[1])
out = []
for s in range(img.sbget('segment_count_main')):
    a, o = img.sit_loc(s)
    if struct.unpack_from('<H', img.rblk(a), o)[0] & 0x3FF and s % 7 == 3:
        out.append(s)
    if len(out) == 3:
        break
print(' '.join(map(str, out)))
PY
)
	local args=() s
	for s in $segs; do args+=(sit "$s" vblocks 1 --); done
	python3 "$DAMAGE" "$img" "${args[@]}" nat 0 blkaddr 7 -- natbits full 1 1 -- \
		cp free_segment_count 1
}

# damage_nat IMAGE: the live NAT block holding the middle of the nids in
# use overwritten by garbage (the same every run): every node it mapped
# must be answered for by its block (footer, summary, SIT) and kept.
damage_nat() {
	python3 - "$1" "$DAMAGE" <<'PY'
import importlib.util, random, sys
spec = importlib.util.spec_from_file_location('damage', sys.argv[2])
d = importlib.util.module_from_spec(spec)
spec.loader.exec_module(d)
img = d.Img(sys.argv[1])
nid = img.cpget('valid_node_count') // 2
r = random.Random(11)
img.wblk(img.nat_block_addr(nid), bytes(r.randrange(256) for _ in range(4096)))
PY
}

# damage_tree IMAGE TREE: 400 problems in files and directories, chosen
# from the source tree (regular files, 4 per directory over 100 directories)
damage_tree() {
	local img=$1 tree=$2 args=() k=0 d f rel
	while read -r f; do
		rel=${f#"$tree"}
		d=$(dirname "$rel"); f=$(basename "$rel")
		case $((k % 4)) in
		0) args+=(dentry "$d" "$f" hash 0x1234567 --) ;;
		1) args+=(dentry "$d" "$f" file_type 2 --) ;;
		2) args+=(inode "$rel" links 7 --) ;;
		3) args+=(dentry "$d" "$f" unlink 0 --) ;;
		esac
		k=$((k + 1))
	done < <(find "$tree" -mindepth 2 -type f | awk -F/ '{ d = $0; sub("/[^/]*$", "", d); if (n[d]++ < 4) print }' | head -400)
	unset 'args[${#args[@]}-1]'
	python3 "$DAMAGE" "$img" "${args[@]}"
}

row() {   # LABEL
	printf '| %s | %s | %.3f | %s | %s | %s |\n' "$size" "$1" "$T_WALL" "$(human $((T_RSS * 1024)))" \
		"$(human "$T_W")" "$2"
}

echo "| files | run | wall s | peak RSS | written | result |"
echo "|---|---|---|---|---|---|"
for size in $SIZES; do
	n=$(num "$size")
	tree=$TREES/tree-$size
	if [[ ! -d $tree ]]; then
		log "== generating $tree"
		mkdir -p "$TREES"
		python3 "$GEN" "$n" "$tree" >/dev/null
	fi
	log "== $size files: mkfs, damage"
	img=$T/img
	rm -f "$img"; truncate -s $(( (n * 24 * 1024) + (1 << 30) )) "$img"
	"$MKFS" -q -f --rootdir "$tree" "$img" >&2
	case $DAMAGE_KIND in
	tree) damage_tree "$img" "$tree" ;;
	nat) damage_nat "$img" ;;
	*) damage "$img" ;;
	esac
	cp --sparse=always "$img" "$T/ours.img"
	cp --sparse=always "$img" "$T/theirs.img"
	sync
	# warm: every run reads its image from the page cache, as a check run
	# just before it leaves it (three copies of a large image need not all
	# stay cached, so each is warmed right before its run)
	warm() { "$OURS" -f -n "$1" >/dev/null 2>&1 </dev/null || true; }
	warm "$img"
	timed "$T/check.out" "$OURS" -f -n "$img" </dev/null
	check_wall=$T_WALL
	row "ours: check (-f -n)" "exit $T_RC, $(grep -c '^ERROR' "$T/check.out") problem lines"
	warm "$T/ours.img"
	timed "$T/repair.out" "$OURS" -y "$T/ours.img" </dev/null
	repair_wall=$T_WALL
	row "ours: repair (-y)" "exit $T_RC; $(grep -E '^[^ ]*: NAT:' "$T/repair.out" | sed 's/^[^ ]*: //')"
	warm "$T/theirs.img"
	timed "$T/theirs.out" "$THEIRS" -f -y "$T/theirs.img" </dev/null
	row "f2fs-tools: repair (-f -y)" "exit $T_RC"
	for who in ours theirs; do
		rc=0; "$OURS" -f -n "$T/$who.img" >/dev/null 2>&1 || rc=$?
		fsck_check "$THEIRS" "$T/$who.img" "$T/peer.out" "$T"
		log "  $who's repaired copy: our check exit $rc; f2fs-tools: $FSCK_RESULT"
		echo "|  | $who's repaired copy, checked | | | | ours: exit $rc; f2fs-tools: $FSCK_RESULT |"
	done
	if [[ $DAMAGE_KIND == nat ]]; then
		for who in ours theirs; do
			echo "|  | $who's repaired copy holds | | | | $("$OURS" -f -n "$T/$who.img" 2>/dev/null | sed -n 's/^[^ ]*: \([0-9]* inodes\).*/\1/p') |"
		done
		echo "|  | the source tree | | | | $(find "$tree" | wc -l) files and directories, its root included |"
	fi
	echo "|  | repair / check (ours) | $(ratio "$repair_wall" "$check_wall" 2)x | | | target <= $([[ $DAMAGE_KIND == nat ]] && echo 1.5 || echo 1.3)x |"
	rm -f "$img" "$T/ours.img" "$T/theirs.img"
done
