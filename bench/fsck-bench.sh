#!/usr/bin/env bash
# fsck-bench.sh: our `fsck.f2fs -f -n IMG` against f2fs-tools'
# `fsck.f2fs -f --dry-run COPY` (COPY: a sparse copy, stdin </dev/null), side
# by side, on images of 10k, 100k and 1M files made by our
# `mkfs.f2fs --rootdir` from bench/gen-bench-tree.py trees.
#
# Per size and tool: one untimed run, then RUNS warm timed runs (median) and
# one cold run after `sync; echo 3 > /proc/sys/vm/drop_caches` (root only;
# skipped otherwise). Every run goes through bench/runtime.c (`timed` of
# bench/common.sh): wall time is CLOCK_MONOTONIC around posix_spawn + wait4
# of the tool alone, peak RSS is wait4's ru_maxrss (KiB).
#
# "Read bound": the time to just read, with pread(2) in 2 MiB chunks, what a
# full check must read at least: the metadata area (block 0 up to
# main_blkaddr: superblocks, checkpoint packs, SIT, NAT, SSA) and every main
# segment the SIT (copy 0; the SIT journal is ignored) types as node
# (hot/warm/cold node) or hot data (dentry blocks), whole segments when they
# hold any valid block. Measured warm and cold like the tools.
#
# --old DIR: instead of f2fs-tools, time DIR/fsck/fsck.f2fs (an older build
# of ours) the same way as ours, on the same image, and report new/old.
#
# Report (markdown) on stdout, progress on stderr.
set -euo pipefail

SELF_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench/common.sh
. "$SELF_DIR/common.sh"

SIZES="10k 100k 1M"
RUNS=3
WORK=${TMPDIR:-/var/tmp}
BIN=""
THEIRS=/usr/sbin/fsck.f2fs
GEN=$SELF_DIR/gen-bench-tree.py
COLD=1
OLD_DIR=""
TREES=""

usage() {
	cat <<USAGE
Usage: $0 [--sizes "10k 100k 1M"] [--runs N] [--work DIR] [--bin DIR] [--old DIR] [--trees DIR] [--no-cold]
  --bin DIR   build directory holding mkfs/mkfs.f2fs and fsck/fsck.f2fs
              (default: each the first built under build/ or the source tree)
  --old DIR   an older build directory of ours: its fsck/fsck.f2fs -f -n runs
              instead of f2fs-tools, on the same image; ratios are new/old
  --work DIR  where trees and images go (default \${TMPDIR:-/var/tmp};
              not tmpfs if cold runs are to mean anything)
  --trees DIR use DIR/tree-SIZE (as bench/repair-bench.sh keeps them) when it
              exists instead of generating a tree (and deleting it: at 1M
              files generating and deleting take longer than the bench)
USAGE
}
while [[ $# -gt 0 ]]; do
	case $1 in
	--sizes) SIZES=$2; shift 2 ;;
	--runs) RUNS=$2; shift 2 ;;
	--work) WORK=$2; shift 2 ;;
	--bin) BIN=$2; shift 2 ;;
	--old) OLD_DIR=$2; shift 2 ;;
	--trees) TREES=$2; shift 2 ;;
	--no-cold) COLD=0; shift ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 16 ;;
	esac
done
log() { echo "$*" >&2; }
MKFS=$(our_tool "${BIN:+$BIN/mkfs/mkfs.f2fs}" mkfs/mkfs.f2fs --bin) || exit 1
OURS=$(our_tool "${BIN:+$BIN/fsck/fsck.f2fs}" fsck/fsck.f2fs --bin) || exit 1
OTHER=theirs
if [[ -n $OLD_DIR ]]; then
	OLDF=$(our_tool "$OLD_DIR/fsck/fsck.f2fs" fsck/fsck.f2fs --old) || exit 1
	OTHER=old
else
	[[ -x $THEIRS ]] || { echo "missing $THEIRS" >&2; exit 1; }
fi
if [[ $COLD = 1 && ( $(id -u) != 0 || ! -w /proc/sys/vm/drop_caches ) ]]; then
	echo "not root: no cold runs" >&2
	COLD=0
fi

T=$(mktemp -d "$WORK/fsck-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
BENCH_WORK=$T
bench_init

num() { local s=$1; s=${s/k/000}; s=${s/M/000000}; echo "$s"; }
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

readbound() {
	python3 - "$1" <<'PY'
import os, struct, sys, time
f = os.open(sys.argv[1], os.O_RDONLY)
sb = os.pread(f, 4096, 0)[1024:]
lbps = struct.unpack_from('<I', sb, 20)[0]
seg_main, seg0, cp, sit, nat, ssa, main = struct.unpack_from('<7I', sb, 68)
bps = 1 << lbps
t0 = time.monotonic()
nbytes = 0
CH = 2 << 20
def rd(a, b):
    global nbytes
    off, end = a * 4096, b * 4096
    while off < end:
        n = len(os.pread(f, min(CH, end - off), off))
        if n <= 0:
            break
        nbytes += n
        off += n
rd(0, main)
sitb = os.pread(f, (seg_main + 54) // 55 * 4096, sit * 4096)
segs = 0
for s in range(seg_main):
    v = struct.unpack_from('<H', sitb, (s // 55) * 4096 + (s % 55) * 74)[0]
    typ, cnt = v >> 10, v & 0x3ff
    if cnt and typ in (0, 3, 4, 5):
        rd(main + s * bps, main + (s + 1) * bps)
        segs += 1
print('%.3f %d %d' % (time.monotonic() - t0, nbytes, segs))
PY
}

report=()
for size in $SIZES; do
	n=$(num "$size")
	echo "== $size files" >&2
	tree=$T/tree
	if [[ -n $TREES && -d $TREES/tree-$size ]]; then
		tree=$TREES/tree-$size
	else
		python3 "$GEN" "$n" "$tree" >/dev/null
	fi
	img=$T/img
	bytes=$(( (n * 24 * 1024) + (1 << 30) ))
	rm -f "$img"; truncate -s "$bytes" "$img"
	"$MKFS" -q -f --rootdir "$tree" "$img" >&2
	[[ $tree != "$T/tree" ]] || rm -rf "$tree"
	[[ $OTHER = old ]] || cp --sparse=always "$img" "$T/copy"
	alloc=$(du -B1 "$img" | cut -f1)
	# warm
	declare -A w=() r=() c=() cr=()
	for tool in ours $OTHER; do
		case $tool in
		ours) cmd=("$OURS" -f -n "$img") ;;
		old) cmd=("$OLDF" -f -n "$img") ;;
		*) cmd=("$THEIRS" -f --dry-run "$T/copy") ;;
		esac
		# untimed warm-up; its output is the tool's verdict
		timed "$T/$tool.out" "${cmd[@]}" </dev/null
		[[ $tool != theirs ]] || fsck_verdict "$T_RC" "$T/theirs.out"
		walls=(); rss=0
		for _ in $(seq "$RUNS"); do
			timed "$T/out" "${cmd[@]}" </dev/null
			walls+=("$T_WALL")
			if (( T_RSS > rss )); then rss=$T_RSS; fi
		done
		w[$tool]=$(printf '%s\n' "${walls[@]}" | median); r[$tool]=$rss
		if [[ $COLD = 1 ]]; then
			drop
			timed "$T/out" "${cmd[@]}" </dev/null
			c[$tool]=$(printf '%.3f' "$T_WALL"); cr[$tool]="${c[$tool]}s $T_RSS KiB"
		else
			c[$tool]=-; cr[$tool]=-
		fi
		echo "  $tool: warm $(printf '%.3f' "${w[$tool]}")s ${r[$tool]} KiB, cold ${cr[$tool]}" >&2
	done
	readbound "$img" >/dev/null
	read -r rbw rbbytes rbsegs < <(readbound "$img")
	rbc=-
	if [[ $COLD = 1 ]]; then drop; read -r rbc _ _ < <(readbound "$img"); fi
	echo "  read bound: warm ${rbw}s cold ${rbc}s ($rbbytes bytes, $rbsegs segments)" >&2
	verdict_ours=$(tail -n 3 "$T/ours.out" | tr '\n' ' ' | cut -c1-60)
	if [[ $OTHER = old ]]; then
		cold_ratio=-
		[[ $COLD = 0 ]] || cold_ratio="$(ratio "${c[ours]}" "${c[old]}" 2)"
		report+=("| $size | $(human "$alloc") | $(printf '%.3f' "${w[ours]}") | $(printf '%.3f' "${w[old]}") | $(ratio "${w[ours]}" "${w[old]}" 2) | ${c[ours]} | ${c[old]} | $cold_ratio | $rbw | $rbc | $(human "$rbbytes") | ${r[ours]} | ${r[old]} | $(ratio "${r[ours]}" "${r[old]}" 2) |")
		echo "  new said: $verdict_ours" >&2
		echo "  old said: $(tail -n 3 "$T/old.out" | tr '\n' ' ' | cut -c1-60)" >&2
	else
		report+=("| $size | $(human "$alloc") | $(printf '%.3f' "${w[ours]}") | $(printf '%.3f' "${w[theirs]}") | $(ratio "${w[theirs]}" "${w[ours]}")x | ${c[ours]} | ${c[theirs]} | $rbw | $rbc | $(human "$rbbytes") | ${r[ours]} | ${r[theirs]} | $(ratio "${r[ours]}" "${r[theirs]}" 2) |")
		echo "  ours said: $verdict_ours" >&2
		echo "  theirs said: $FSCK_RESULT (bench/common.sh fsck_verdict)" >&2
	fi
	rm -f "$img" "$T/copy"
	unset w r c cr
done

if [[ $OTHER = old ]]; then
	echo "New: $OURS; old: $OLDF (both -f -n on the same image). Ratios new/old: below 1, the new build is faster or smaller."
	echo
	echo "| Files | Image allocated | New warm (s) | Old warm (s) | Warm new/old | New cold (s) | Old cold (s) | Cold new/old | Read bound warm (s) | Read bound cold (s) | Read-bound bytes | New peak RSS (KiB) | Old peak RSS (KiB) | RSS new/old |"
	echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
else
	echo "| Files | Image allocated | Ours warm (s) | f2fs-tools warm (s) | Speed-up warm | Ours cold (s) | f2fs-tools cold (s) | Read bound warm (s) | Read bound cold (s) | Read-bound bytes | Ours peak RSS (KiB) | f2fs-tools peak RSS (KiB) | RSS ratio |"
	echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
fi
printf '%s\n' "${report[@]}"
