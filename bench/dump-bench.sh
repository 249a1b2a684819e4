#!/usr/bin/env bash
# dump-bench.sh: our dump.f2fs against f2fs-tools' dump.f2fs, side by side.
#
#   (a) the whole SSA (-a 0~-1) of an image made by our `mkfs.f2fs --rootdir`
#       from `bench/gen-bench-tree.py FILES DIR` (default 100000 files);
#   (b) on an empty 1 TiB image (about 500k segments): the whole SIT
#       (-s 0~-1), and for ours also --segments and --gc (victim ranking).
#
# Every command runs once, after one untimed warm-up read of the image (of
# its metadata area for the 1 TiB one), with
# stdout to /dev/null; /usr/bin/time gives wall time and peak RSS.
# f2fs-tools' dump.f2fs runs in a scratch directory (its -a/-s write dump_ssa
# / dump_sit files there) with stdin from /dev/null, under `timeout`.
#
# Usage: bench/dump-bench.sh [--files N] [--ours PATH] [--theirs PATH]
#                            [--mkfs PATH] [--timeout S] [--work DIR]
# The report (markdown) goes to stdout, progress to stderr.
set -euo pipefail

SELF_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$SELF_DIR/.." && pwd)
FILES=100000
OURS=$ROOT/build/dump/dump.f2fs
MKFS=$ROOT/build/mkfs/mkfs.f2fs
THEIRS=/usr/sbin/dump.f2fs
TIMEOUT=600
WORK=""
while (($#)); do
	case $1 in
	--files) FILES=$2; shift 2 ;;
	--ours) OURS=$2; shift 2 ;;
	--theirs) THEIRS=$2; shift 2 ;;
	--mkfs) MKFS=$2; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--work) WORK=$2; shift 2 ;;
	-h | --help) sed -n '2,17p' "$0"; exit 0 ;;
	*) echo "dump-bench: unknown argument $1" >&2; exit 2 ;;
	esac
done
for t in "$OURS" "$MKFS" /usr/bin/time; do
	[[ -x $t ]] || { echo "dump-bench: $t missing" >&2; exit 2; }
done
have_theirs=1
[[ -x $THEIRS ]] || { echo "dump-bench: $THEIRS missing, ours only" >&2; have_theirs=0; }

if [[ -z $WORK ]]; then
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/dump-bench.XXXXXX")
	trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK/scratch"

ROWS=()
# timed NAME TOOL CMD...: one row "| NAME | TOOL | wall s | RSS MiB | note |"
timed() {
	local name=$1 tool=$2 rc note=""
	shift 2
	echo "dump-bench: $tool: $*" >&2
	set +e
	(cd "$WORK/scratch" && /usr/bin/time -f '%e %M' -o "$WORK/time" \
		timeout "$TIMEOUT" "$@" </dev/null >/dev/null 2>"$WORK/stderr")
	rc=$?
	set -e
	wall=$(tail -1 "$WORK/time" | cut -d' ' -f1) rss=$(tail -1 "$WORK/time" | cut -d' ' -f2)
	((rc == 124)) && note="timed out after ${TIMEOUT} s"
	((rc != 0 && rc != 124)) && note="exit $rc: $(tail -1 "$WORK/stderr" | cut -c1-80)"
	ROWS+=("| $name | $tool | $wall | $(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }') | $note |")
	echo "dump-bench: ${ROWS[-1]}" >&2
	rm -f "$WORK/scratch"/dump_*
}

# (a) SSA of a FILES-file image
tree=$WORK/tree img=$WORK/rootdir.img
echo "dump-bench: generating $FILES files" >&2
python3 "$SELF_DIR/gen-bench-tree.py" "$FILES" "$tree" >/dev/null
truncate -s 4G "$img"
"$MKFS" -q -f --rootdir "$tree" "$img" >/dev/null
rm -rf "$tree"
cat "$img" >/dev/null
main=$("$OURS" --json --sb "$img" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[list(d)[0]]["segment_count_main"])')
used=$("$OURS" --json --segments "$img" | python3 -c 'import json,sys; print(json.load(sys.stdin)["segments"]["valid_blocks"])')
A="a: -a 0~-1, $FILES files ($main segs, $used valid blocks)"
timed "$A" ours "$OURS" -a 0~-1 "$img"
((have_theirs)) && timed "$A" f2fs-tools "$THEIRS" -a 0~-1 "$img"
rm -f "$img"

# (b) SIT and victim ranking of a 1 TiB image
img=$WORK/1t.img
truncate -s 1T "$img"
"$MKFS" -q -f "$img" >/dev/null
# warm-up: the metadata area only (the image is sparse, 1 TiB)
meta=$("$OURS" --json --sb "$img" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[list(d)[0]]["main_blkaddr"])')
dd if="$img" of=/dev/null bs=4096 count="$meta" status=none
main=$("$OURS" --json --sb "$img" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[list(d)[0]]["segment_count_main"])')
B="b: 1 TiB ($main segs)"
timed "$B -s 0~-1" ours "$OURS" -s 0~-1 "$img"
((have_theirs)) && timed "$B -s 0~-1" f2fs-tools "$THEIRS" -s 0~-1 "$img"
timed "$B --segments" ours "$OURS" --segments "$img"
timed "$B --gc" ours "$OURS" --gc "$img"
timed "$B --gc --fg --policy greedy" ours "$OURS" --gc --fg --policy greedy "$img"
timed "$B --gc --policy age" ours "$OURS" --gc --policy age "$img"
rm -f "$img"

echo "Machine: $(nproc) CPUs, $(uname -r); ours: $("$OURS" -V 2>&1 | head -1);" \
	"f2fs-tools: $( ((have_theirs)) && dpkg-query -W -f='${Version}' f2fs-tools 2>/dev/null || echo none)"
echo
echo "| view | tool | wall s | peak RSS MiB | note |"
echo "|---|---|---:|---:|---|"
printf '%s\n' "${ROWS[@]}"
