#!/usr/bin/env bash
# dump-bench.sh: our dump.f2fs against f2fs-tools' dump.f2fs, side by side.
#
#   (a) the whole SSA (-a 0~-1) of an image made by our `mkfs.f2fs --rootdir`
#       from `bench/gen-bench-tree.py FILES DIR` (default 100000 files);
#   (b) on an empty 1 TiB image (about 500k segments): the whole SIT
#       (-s 0~-1), and for ours also --segments and --gc (victim ranking).
#
# Every command runs once, after one untimed warm-up read of the image (of
# its metadata area for the 1 TiB one), under `timeout`, in a scratch
# directory (f2fs-tools' -a/-s write dump_ssa / dump_sit files there), with
# stdin from /dev/null, stdout to /dev/null and stderr to a file. It is
# timed by bench/runtime.c (`timed_split` of bench/common.sh): wall time is
# CLOCK_MONOTONIC around posix_spawn + wait4 of `timeout` and the tool, peak
# RSS is wait4's ru_maxrss (KiB; the report gives MiB).
#
# Usage: bench/dump-bench.sh [--files N] [--ours PATH] [--theirs PATH]
#                            [--old DIR] [--mkfs PATH] [--timeout S] [--work DIR]
# --ours and --mkfs default to the first built dump/dump.f2fs and
# mkfs/mkfs.f2fs under build/ or the source tree.
# --old DIR: instead of f2fs-tools, DIR/dump/dump.f2fs (an older build of
# ours) runs every command ours runs, on the same images, and a table of
# new/old wall time and peak RSS follows.
# The report (markdown) goes to stdout, progress to stderr.
set -euo pipefail

SELF_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench/common.sh
. "$SELF_DIR/common.sh"

FILES=100000
OURS=""
OLD_DIR=""
MKFS=""
THEIRS=/usr/sbin/dump.f2fs
TIMEOUT=600
WORK=""
while (($#)); do
	case $1 in
	--files) FILES=$2; shift 2 ;;
	--ours) OURS=$2; shift 2 ;;
	--theirs) THEIRS=$2; shift 2 ;;
	--old) OLD_DIR=$2; shift 2 ;;
	--mkfs) MKFS=$2; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--work) WORK=$2; shift 2 ;;
	-h | --help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
	*) echo "dump-bench: unknown argument $1" >&2; exit 2 ;;
	esac
done
log() { echo "dump-bench: $*" >&2; }
# absolute: the runs below are in the scratch directory
OURS=$(our_tool "$OURS" dump/dump.f2fs) || exit 2
MKFS=$(our_tool "$MKFS" mkfs/mkfs.f2fs --mkfs) || exit 2
OURS=$(abs_path "$OURS") MKFS=$(abs_path "$MKFS")
have_theirs=1
if [[ -n $OLD_DIR ]]; then
	OLDD=$(our_tool "$OLD_DIR/dump/dump.f2fs" dump/dump.f2fs --old) || exit 2
	OLDD=$(abs_path "$OLDD")
	have_theirs=0
else
	[[ -x $THEIRS ]] || { log "$THEIRS missing, ours only"; have_theirs=0; }
	((have_theirs == 0)) || THEIRS=$(abs_path "$THEIRS")
fi

if [[ -z $WORK ]]; then
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/dump-bench.XXXXXX")
	trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK/scratch"
WORK=$(cd "$WORK" && pwd)
BENCH_WORK=$WORK
bench_init

ROWS=()
OLDROWS=()
# row NAME TOOL CMD...: one timed run, adds "| NAME | TOOL | wall s | RSS MiB | note |"
row() {
	local name=$1 tool=$2 note=""
	shift 2
	log "$tool: $*"
	cd "$WORK/scratch"
	timed_split /dev/null "$WORK/stderr" timeout "$TIMEOUT" "$@" </dev/null
	cd "$OLDPWD"
	((T_RC == 124)) && note="timed out after ${TIMEOUT} s"
	((T_RC != 0 && T_RC != 124)) && note="exit $T_RC: $(tail -1 "$WORK/stderr" | cut -c1-80)"
	ROWS+=("| $name | $tool | $(printf '%.3f' "$T_WALL") | $(awk -v k="$T_RSS" 'BEGIN { printf "%.1f", k / 1024 }') | $note |")
	log "${ROWS[-1]}"
	rm -f "$WORK/scratch"/dump_*
}

# both NAME ARGS...: row NAME for ours and (if present) f2fs-tools, or with
# --old for ours (new) and the old build, each run with ARGS
both() {
	local w r
	row "$1" ours "$OURS" "${@:2}"
	if [[ -n $OLD_DIR ]]; then
		w=$T_WALL r=$T_RSS
		row "$1" old "$OLDD" "${@:2}"
		OLDROWS+=("| $1 | $(printf '%.3f' "$w") | $(printf '%.3f' "$T_WALL") | $(ratio "$w" "$T_WALL" 2) | $(ratio "$r" "$T_RSS" 2) |")
	fi
	((have_theirs == 0)) || row "$1" f2fs-tools "$THEIRS" "${@:2}"
}
# ours_only NAME ARGS...: a view f2fs-tools lacks (both builds with --old)
ours_only() {
	if [[ -n $OLD_DIR ]]; then both "$@"; else row "$1" ours "$OURS" "${@:2}"; fi
}

# sb_field IMG FIELD: a superblock field of IMG, from our dump.f2fs --json --sb
sb_field() {
	"$OURS" --json --sb "$1" |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[list(d)[0]][sys.argv[1]])' "$2"
}

# (a) SSA of a FILES-file image
tree=$WORK/tree img=$WORK/rootdir.img
log "generating $FILES files"
python3 "$SELF_DIR/gen-bench-tree.py" "$FILES" "$tree" >/dev/null
truncate -s 4G "$img"
"$MKFS" -q -f --rootdir "$tree" "$img" >/dev/null
rm -rf "$tree"
cat "$img" >/dev/null
main=$(sb_field "$img" segment_count_main)
used=$("$OURS" --json --segments "$img" | python3 -c 'import json,sys; print(json.load(sys.stdin)["segments"]["valid_blocks"])')
A="a: -a 0~-1, $FILES files ($main segs, $used valid blocks)"
both "$A" -a 0~-1 "$img"
rm -f "$img"

# (b) SIT and victim ranking of a 1 TiB image
img=$WORK/1t.img
truncate -s 1T "$img"
"$MKFS" -q -f "$img" >/dev/null
# warm-up: the metadata area only (the image is sparse, 1 TiB)
meta=$(sb_field "$img" main_blkaddr)
dd if="$img" of=/dev/null bs=4096 count="$meta" status=none
main=$(sb_field "$img" segment_count_main)
B="b: 1 TiB ($main segs)"
both "$B -s 0~-1" -s 0~-1 "$img"
ours_only "$B --segments" --segments "$img"
ours_only "$B --gc" --gc "$img"
ours_only "$B --gc --fg --policy greedy" --gc --fg --policy greedy "$img"
ours_only "$B --gc --policy age" --gc --policy age "$img"
rm -f "$img"

echo "Machine: $(nproc) CPUs, $(uname -r); ours: $("$OURS" -V 2>&1 | head -1);" \
	"f2fs-tools: $( ((have_theirs)) && dpkg-query -W -f='${Version}' f2fs-tools 2>/dev/null || echo none)"
[[ -z $OLD_DIR ]] || echo "New (ours): $OURS; old: $OLDD"
echo
echo "| view | tool | wall s | peak RSS MiB | note |"
echo "|---|---|---:|---:|---|"
printf '%s\n' "${ROWS[@]}"
if [[ -n $OLD_DIR ]]; then
	echo
	echo "Ratios new/old: below 1, the new build is faster or smaller."
	echo
	echo "| view | new wall s | old wall s | wall new/old | peak RSS new/old |"
	echo "|---|---:|---:|---:|---:|"
	printf '%s\n' "${OLDROWS[@]}"
fi
