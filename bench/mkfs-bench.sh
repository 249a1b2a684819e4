#!/usr/bin/env bash
# shellcheck disable=SC2317  # functions reached through "$prep" and the trap
# mkfs-bench.sh: our mkfs.f2fs against f2fs-tools' mkfs.f2fs, side by side,
# on sparse image files.
#
#   fresh     each run formats a freshly created, empty sparse file
#             (1 TiB and 16 TiB by default)
#   reformat  each run formats a copy of an image that already holds old
#             data: an f2fs-tools-formatted file system plus random data at
#             scattered offsets (some inside the metadata area)
#
# For every run: wall time and peak RSS (bench/runtime.c: posix_spawn and
# wait4 around the tool alone), bytes allocated
# in the image afterwards (du -B1) and bytes the tool passed to write
# syscalls (wchar from /proc/<pid>/io, which the shell accumulates from the
# children it reaps). The last image of each tool/scenario is checked with
# f2fs-tools' fsck.f2fs -f --dry-run on a sparse copy.
#
# --old DIR puts DIR/mkfs/mkfs.f2fs (an older build of ours) where
# f2fs-tools' mkfs.f2fs is timed, and the ratios become new/old (f2fs-tools
# still builds the reformat scenario's old image and checks the images).
#
# The report (markdown) goes to stdout, progress to stderr. The exit status
# is 0 whatever the targets say (a benchmark, not a test); it is non-zero
# only for usage or setup errors.
set -euo pipefail

SELF_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench/common.sh
. "$SELF_DIR/common.sh"

RUNS=5
DIR=""
OURS=""
OLD_DIR=""
THEIRS=/usr/sbin/mkfs.f2fs
FSCK=/usr/sbin/fsck.f2fs
SIZES="1T 16T"
REFORMAT_SIZE=1T
KEEP=0
CHECK=1
TARGET_X=10

usage() {
	cat <<EOF
Usage: $0 [options]
  --runs N             runs per tool and scenario (default $RUNS)
  --dir DIR            where the images go (default: a new directory in
                       \${TMPDIR:-/var/tmp}); needs a few hundred MB free,
                       about 2 GB for 16 TiB
  --ours PATH          our mkfs.f2fs (default: build/ or mkfs/
                       under the source tree, the first that exists)
  --theirs PATH        f2fs-tools' mkfs.f2fs (default $THEIRS)
  --old DIR            time DIR/mkfs/mkfs.f2fs, an older build of ours, in
                       place of f2fs-tools' mkfs.f2fs; ratios new/old
  --fsck PATH          f2fs-tools' fsck.f2fs (default $FSCK)
  --sizes "1T 16T"     image sizes for the fresh scenario (default "$SIZES")
  --reformat-size SZ   image size for the reformat scenario, "" to skip
                       (default $REFORMAT_SIZE)
  --no-fsck            skip the fsck.f2fs checks (quick runs; targets then
                       read MISS for lack of a check)
  --keep               keep the work directory
  -h, --help           this help
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
	--runs) RUNS=$2; shift 2 ;;
	--dir) DIR=$2; shift 2 ;;
	--ours) OURS=$2; shift 2 ;;
	--theirs) THEIRS=$2; shift 2 ;;
	--old) OLD_DIR=$2; shift 2 ;;
	--fsck) FSCK=$2; shift 2 ;;
	--sizes) SIZES=$2; shift 2 ;;
	--reformat-size) REFORMAT_SIZE=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	--no-fsck) CHECK=0; shift ;;
	-h|--help) usage; exit 0 ;;
	*) echo "$0: unknown option $1" >&2; usage >&2; exit 2 ;;
	esac
done

die() { echo "$0: $*" >&2; exit 2; }
log() { echo "[bench] $*" >&2; }

case $RUNS in ''|*[!0-9]*|0) die "--runs needs a positive integer" ;; esac
OURS=$(our_tool "$OURS" mkfs/mkfs.f2fs) || exit 2
[ -x "$THEIRS" ] || die "--theirs $THEIRS is not executable (apt-get install f2fs-tools)"
[ -x "$FSCK" ] || die "--fsck $FSCK is not executable (apt-get install f2fs-tools)"
OURS=$(cd "$(dirname "$OURS")" && pwd)/$(basename "$OURS")
# OTHER: the mkfs timed beside ours (f2fs-tools', or with --old our old one)
OTHER=$THEIRS
if [ -n "$OLD_DIR" ]; then
	OTHER=$(our_tool "$OLD_DIR/mkfs/mkfs.f2fs" mkfs/mkfs.f2fs --old) || exit 2
	OTHER=$(abs_path "$OTHER")
fi
# name TOOL: how the report calls ours / theirs
name() {
	if [ -z "$OLD_DIR" ]; then echo "$1"
	elif [ "$1" = ours ]; then echo new
	else echo old; fi
}

if [ -n "$DIR" ]; then
	mkdir -p "$DIR"
	WORK=$(mktemp -d "$DIR/f2fs-bench.XXXXXX")
else
	WORK=$(mktemp -d "${TMPDIR:-/var/tmp}/f2fs-bench.XXXXXX")
fi
cleanup() { if [ "$KEEP" = 1 ]; then log "work directory kept: $WORK"; else rm -rf "$WORK"; fi; }
trap cleanup EXIT
BENCH_WORK=$WORK
bench_init

# ---------------------------------------------------------------- helpers

to_bytes() { numfmt --from=iec "$1"; }

# run_tool BIN IMAGE LOG: one timed format. Sets R_WALL (s), R_RSS (KiB),
# R_CPU (s), R_WCHAR (bytes), R_DU (bytes), R_RC.
run_tool() {
	local bin=$1 img=$2 out=$3
	timed "$out" "$bin" -f "$img"
	R_WALL=$T_WALL; R_CPU=$T_CPU; R_RSS=$T_RSS; R_WCHAR=$T_W; R_RC=$T_RC
	R_DU=$(du -B1 "$img" | cut -f1)
}

# stats VALUES...: "min median max"
stats() {
	printf '%s\n' "$@" | sort -g | awk '
		{ v[NR] = $1 }
		END {
			m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%s %s %s\n", v[1], m, v[NR]
		}'
}


# Results, keyed "scenario|size|tool".
declare -A RES_WALL RES_CPU RES_RSS RES_WCHAR RES_DU RES_DU_BEFORE RES_FSCK RES_FAILS
ROWS=()

# bench SCENARIO SIZE PREPARE_FN: RUNS runs per tool, interleaved.
bench() {
	local scen=$1 size=$2 prep=$3 i tool bin key img
	local -A walls cpus rss wchar du dub fails
	for tool in ours theirs; do
		walls[$tool]=""; cpus[$tool]=""; rss[$tool]=""; wchar[$tool]=""; du[$tool]=""; dub[$tool]=""; fails[$tool]=0
	done
	for ((i = 1; i <= RUNS; i++)); do
		for tool in ours theirs; do
			if [ "$tool" = ours ]; then bin=$OURS; else bin=$OTHER; fi
			img="$WORK/$scen-$size-$tool.img"
			rm -f "$img"
			"$prep" "$img" "$size"
			dub[$tool]+="$(du -B1 "$img" | cut -f1) "
			run_tool "$bin" "$img" "$WORK/$scen-$size-$tool.log"
			[ "$R_RC" = 0 ] || fails[$tool]=$((fails[$tool] + 1))
			walls[$tool]+="$R_WALL "; cpus[$tool]+="$R_CPU "; rss[$tool]+="$R_RSS "
			wchar[$tool]+="$R_WCHAR "; du[$tool]+="$R_DU "
			log "$scen $size $(name "$tool") run $i: ${R_WALL}s cpu ${R_CPU}s rss ${R_RSS}KiB du $R_DU written $R_WCHAR rc $R_RC"
			# keep only the last image (for fsck); frees the space at once
			[ "$i" -eq "$RUNS" ] || rm -f "$img"
		done
	done
	for tool in ours theirs; do
		key="$scen|$size|$tool"
		# shellcheck disable=SC2086
		RES_WALL[$key]=$(stats ${walls[$tool]})
		# shellcheck disable=SC2086
		RES_CPU[$key]=$(stats ${cpus[$tool]})
		# shellcheck disable=SC2086
		RES_RSS[$key]=$(stats ${rss[$tool]})
		# shellcheck disable=SC2086
		RES_WCHAR[$key]=$(stats ${wchar[$tool]})
		# shellcheck disable=SC2086
		RES_DU[$key]=$(stats ${du[$tool]})
		# shellcheck disable=SC2086
		RES_DU_BEFORE[$key]=$(stats ${dub[$tool]})
		RES_FAILS[$key]=${fails[$tool]}
		if [ "$CHECK" = 1 ]; then
			log "$scen $size $(name "$tool"): fsck.f2fs on the last image"
			fsck_check "$FSCK" "$WORK/$scen-$size-$tool.img" "$WORK/$scen-$size-$tool.fsck.log" "$WORK"
			RES_FSCK[$key]=$FSCK_RESULT
		else
			RES_FSCK[$key]="not checked"
		fi
		rm -f "$WORK/$scen-$size-$tool.img"
	done
	ROWS+=("$scen|$size")
}

prep_fresh() { truncate -s "$2" "$1"; }

# The reformat scenario's old image, rebuilt before every run (a sparse
# copy would not do: cp turns the zero blocks f2fs-tools wrote back into
# holes): f2fs-tools' format, then 1 MiB chunks of random data, half in the
# first 2.5 GiB (checkpoint, SIT, NAT and SSA areas of a 1 TiB file system)
# and half scattered over the rest. Offsets and data are the same each run.
REFORMAT_OFFSETS=()
REFORMAT_RANDOM="$WORK/reformat-random.bin"
make_reformat_plan() {
	local size=$1 bytes mib off s
	bytes=$(to_bytes "$size")
	mib=$((bytes / 1048576))
	REFORMAT_OFFSETS=()
	for off in 1 3 5 7 20 50 83 100 150 200 247 300 600 1000 2000 2290 2300 2500; do
		[ "$off" -ge "$mib" ] || REFORMAT_OFFSETS+=("$off")
	done
	RANDOM=4242
	for ((s = 0; s < 18 && mib > 2600; s++)); do
		REFORMAT_OFFSETS+=($((2600 + (RANDOM * 32768 + RANDOM) % (mib - 2601))))
	done
	head -c $((${#REFORMAT_OFFSETS[@]} * 1048576)) /dev/urandom >"$REFORMAT_RANDOM"
}
prep_reformat() {
	local img=$1 size=$2 i
	truncate -s "$size" "$img"
	"$THEIRS" -f "$img" >"$WORK/reformat-base.log" 2>&1 ||
		die "$THEIRS failed building the reformat image (see $WORK/reformat-base.log)"
	for i in "${!REFORMAT_OFFSETS[@]}"; do
		dd if="$REFORMAT_RANDOM" of="$img" bs=1M count=1 skip="$i" \
			seek="${REFORMAT_OFFSETS[$i]}" conv=notrunc status=none
	done
}

# ------------------------------------------------------------------- runs

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
FSTYPE=$(findmnt -n -o FSTYPE -T "$WORK" 2>/dev/null | head -n 1)
[ -n "$FSTYPE" ] || FSTYPE=$(df --output=fstype "$WORK" | tail -n 1)
DATE=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
NOTES=()
RUN_SIZES=()
for size in $SIZES; do
	bytes=$(to_bytes "$size") || die "bad size $size"
	if truncate -s "$size" "$WORK/probe.img" 2>"$WORK/probe.err"; then
		RUN_SIZES+=("$size")
	else
		NOTES+=("$size skipped: the $FSTYPE file system holding $WORK cannot hold a $size sparse file ($(tr -d '\n' < "$WORK/probe.err")); rerun with --dir on a file system that can, e.g. --dir /dev/shm (tmpfs)")
		log "skipping $size: $(cat "$WORK/probe.err")"
	fi
	rm -f "$WORK/probe.img"
done

log "ours:   $OURS"
log "$(name theirs): $OTHER"
log "work:   $WORK ($FSTYPE), $RUNS runs"

for size in "${RUN_SIZES[@]}"; do
	bench fresh "$size" prep_fresh
done
if [ -n "$REFORMAT_SIZE" ]; then
	if truncate -s "$REFORMAT_SIZE" "$WORK/probe.img" 2>/dev/null; then
		rm -f "$WORK/probe.img"
		make_reformat_plan "$REFORMAT_SIZE"
		bench reformat "$REFORMAT_SIZE" prep_reformat
		rm -f "$REFORMAT_RANDOM"
	else
		NOTES+=("reformat scenario skipped: cannot create a $REFORMAT_SIZE sparse file in $WORK")
	fi
fi

# ----------------------------------------------------------------- report

f1() { echo "$1" | cut -d' ' -f"$2"; }

LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
if [ -n "$OLD_DIR" ]; then
	echo "# mkfs.f2fs benchmark: new vs old build of ours"
else
	echo "# mkfs.f2fs benchmark: ours vs f2fs-tools"
fi
echo
echo "- Date: $DATE"
echo "- Machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')), $(awk '/MemTotal/ { printf "%.1f GiB RAM", $2 / 1048576 }' /proc/meminfo), kernel $(uname -r)"
echo "- Load average (1/5/15 min): $LOAD_START at start, $LOAD_END at end"
echo "- Bench directory: \`$WORK\` on **$FSTYPE**"
if [ -n "$OLD_DIR" ]; then
	echo "- New (ours): \`$OURS\` ($("$OURS" -V 2>&1 | head -n 1))"
	echo "- Old: \`$OTHER\` ($("$OTHER" -V 2>&1 | head -n 1)); the reformat image is still made by \`$THEIRS\`"
else
	echo "- Ours: \`$OURS\` ($("$OURS" -V 2>&1 | head -n 1))"
	echo "- Theirs: \`$THEIRS\` ($("$THEIRS" -V 2>&1 | head -n 1))"
fi
echo "- Checker: \`$FSCK -f --dry-run\` on a \`cp --sparse=always\` copy of the last image of each series"
echo "- Runs: $RUNS per tool and scenario, $(name ours) and $(name theirs) interleaved"
for n in "${NOTES[@]+"${NOTES[@]}"}"; do echo "- **Note:** $n"; done
echo
echo "## Results"
echo
echo "Wall time: best / median of $RUNS runs, CLOCK_MONOTONIC around posix_spawn + wait4 of the tool alone (bench/runtime.c), so the tool's own exec and start-up count but no shell or time(1) fork does."
echo "CPU: user+sys of the tool (wait4 rusage), median; less sensitive than wall time to other load on the machine."
echo "Peak RSS: wait4 ru_maxrss, max over runs. \"Allocated after\": \`du -B1\` of the image after the run (median)."
echo "\"Written\": bytes passed to write syscalls by the tool (/proc/<pid>/io wchar, median; includes its few KB of console output)."
echo
echo "| Scenario | Size | Tool | Best wall (s) | Median wall (s) | Median CPU (s) | Peak RSS (KiB) | Allocated before | Allocated after | Written | Failed runs | fsck.f2fs |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for row in "${ROWS[@]}"; do
	scen=${row%%|*}; size=${row#*|}
	for tool in ours theirs; do
		k="$row|$tool"
		printf '| %s | %s | %s | %.3f | %.3f | %.3f | %s | %s | %s (%s) | %s (%s) | %s | %s |\n' \
			"$scen" "$size" "$(name "$tool")" \
			"$(f1 "${RES_WALL[$k]}" 1)" "$(f1 "${RES_WALL[$k]}" 2)" "$(f1 "${RES_CPU[$k]}" 2)" \
			"$(f1 "${RES_RSS[$k]}" 3)" \
			"$(human "$(f1 "${RES_DU_BEFORE[$k]}" 2 | cut -d. -f1)")" \
			"$(f1 "${RES_DU[$k]}" 2 | cut -d. -f1)" "$(human "$(f1 "${RES_DU[$k]}" 2 | cut -d. -f1)")" \
			"$(f1 "${RES_WCHAR[$k]}" 2 | cut -d. -f1)" "$(human "$(f1 "${RES_WCHAR[$k]}" 2 | cut -d. -f1)")" \
			"${RES_FAILS[$k]}" "${RES_FSCK[$k]}"
	done
done
echo
if [ -n "$OLD_DIR" ]; then
	echo "## Ratios (new / old; below 1 the new build is faster or writes less)"
else
	echo "## Ratios (f2fs-tools / ours; higher is better for ours)"
fi
echo
echo "| Scenario | Size | Time (median) | Time (best) | CPU (median) | Allocated after | Written |"
echo "|---|---|---:|---:|---:|---:|---:|"
DEC=1; [ -z "$OLD_DIR" ] || DEC=2   # decimals of the ratios
for row in "${ROWS[@]}"; do
	scen=${row%%|*}; size=${row#*|}
	o="$row|ours"; t="$row|theirs"
	# with --old: new / old, i.e. the same quotient the other way round
	[ -z "$OLD_DIR" ] || { o="$row|theirs"; t="$row|ours"; }
	printf '| %s | %s | %sx | %sx | %sx | %sx | %sx |\n' "$scen" "$size" \
		"$(ratio "$(f1 "${RES_WALL[$t]}" 2)" "$(f1 "${RES_WALL[$o]}" 2)" "$DEC")" \
		"$(ratio "$(f1 "${RES_WALL[$t]}" 1)" "$(f1 "${RES_WALL[$o]}" 1)" "$DEC")" \
		"$(ratio "$(f1 "${RES_CPU[$t]}" 2)" "$(f1 "${RES_CPU[$o]}" 2)" "$DEC")" \
		"$(ratio "$(f1 "${RES_DU[$t]}" 2)" "$(f1 "${RES_DU[$o]}" 2)" "$DEC")" \
		"$(ratio "$(f1 "${RES_WCHAR[$t]}" 2)" "$(f1 "${RES_WCHAR[$o]}" 2)" "$DEC")"
done
# the targets are against f2fs-tools: nothing to say with --old
if [ -z "$OLD_DIR" ]; then
	echo
	echo "## Targets (from the issue: at least ${TARGET_X}x faster and ${TARGET_X}x fewer bytes written than f2fs-tools, 1 TiB and 16 TiB)"
	echo
	echo "Measured on fresh sparse images: time = median wall-time ratio, bytes = \`du -B1\` ratio."
	echo
	echo "| Target | Size | Measured | Result |"
	echo "|---|---|---:|---|"
	for size in 1T 16T; do
		row="fresh|$size"
		if [ -z "${RES_WALL[$row|ours]+x}" ]; then
			echo "| >= ${TARGET_X}x faster | $size | not run | SKIP |"
			echo "| >= ${TARGET_X}x fewer bytes | $size | not run | SKIP |"
			continue
		fi
		if [ "${RES_FAILS[$row|ours]}" != 0 ] || [ "${RES_FSCK[$row|ours]}" != clean ]; then
			verdict_extra=" (but ours failed a run or fsck)"
		else
			verdict_extra=""
		fi
		tr_=$(ratio "$(f1 "${RES_WALL[$row|theirs]}" 2)" "$(f1 "${RES_WALL[$row|ours]}" 2)")
		br=$(ratio "$(f1 "${RES_DU[$row|theirs]}" 2)" "$(f1 "${RES_DU[$row|ours]}" 2)")
		for pair in "faster:$tr_" "fewer bytes:$br"; do
			what=${pair%%:*}; val=${pair#*:}
			if [ "$val" = inf ] || awk -v v="$val" -v t="$TARGET_X" 'BEGIN { exit !(v >= t) }'; then
				res=PASS
			else
				res=MISS
			fi
			[ -z "$verdict_extra" ] || res=MISS
			echo "| >= ${TARGET_X}x $what | $size | ${val}x | $res$verdict_extra |"
		done
	done
fi
echo
echo "## Commands"
echo
echo '```sh'
echo "# fresh, each run (SIZE in: ${RUN_SIZES[*]-none}):"
echo "rm -f IMG && truncate -s SIZE IMG && sync"
echo "bench/runtime OUT $OURS -f IMG"
echo "bench/runtime OUT $OTHER -f IMG"
echo "du -B1 IMG"
if [ -n "$REFORMAT_SIZE" ]; then
	echo "# reformat ($REFORMAT_SIZE), each run: build the old image, then the same mkfs commands"
	echo "rm -f IMG && truncate -s $REFORMAT_SIZE IMG && $THEIRS -f IMG"
	echo "dd if=RANDOM.bin of=IMG bs=1M count=1 skip=I seek=OFF_MIB conv=notrunc   # ${#REFORMAT_OFFSETS[@]} chunks at MiB offsets ${REFORMAT_OFFSETS[*]-}"
	echo "sync"
fi
echo "# check, last image of each series:"
echo "cp --sparse=always IMG COPY && $FSCK -f --dry-run COPY"
echo '```'
echo
echo "Reproduce: \`bench/mkfs-bench.sh --runs $RUNS${DIR:+ --dir $DIR} --sizes \"$SIZES\"${OLD_DIR:+ --ours $OURS --old $OLD_DIR}\`"
exit 0
