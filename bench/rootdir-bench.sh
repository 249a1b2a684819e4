#!/usr/bin/env bash
# rootdir-bench.sh: our `mkfs.f2fs --rootdir TREE IMG` against f2fs-tools'
# `mkfs.f2fs IMG && sload.f2fs -f TREE IMG`, side by side, on trees of
# 10k, 100k and 1M files made by bench/gen-bench-tree.py.
#
# For every size: generate the tree (deterministic), read it once untimed
# (warm page cache), then on fresh sparse images sized to fit (2x the tree's
# data and inode blocks + 256 MiB):
#   ours        RUNS timed runs (default 3), median reported
#   f2fs-tools  one timed mkfs.f2fs + sload.f2fs, only for sizes up to
#               --sload-max files (default 100000: sload grows superlinearly,
#               a 1M-file run would take hours)
# and, at --cold-size files (default 100000), one more run of ours after
# `sync; echo 3 > /proc/sys/vm/drop_caches` (needs root; drops the caches of
# the whole machine).
# Per run: wall time, peak RSS (bench/runtime.c, wait4; for f2fs-tools the max
# of mkfs and sload), bytes passed to write/read syscalls (/proc/<pid>/io
# wchar/rchar) and bytes allocated in the image (du -B1). The last image of
# each tool and size is checked with fsck.f2fs -f --dry-run on a sparse copy.
#
# --old DIR: DIR/mkfs/mkfs.f2fs (an older build of ours) runs like ours,
# run for run before each of ours (and cold after ours' cold run), instead of
# f2fs-tools; a table of new/old follows the results. Its images are not
# checked with fsck.f2fs.
#
# The report (markdown) goes to stdout, progress to stderr. Exit status 0
# whatever the targets say; non-zero only for usage or setup errors.
# shellcheck disable=SC2317  # cleanup, reached through the trap
# shellcheck disable=SC2154  # G_* variables, set by eval from the generator's output
set -euo pipefail

SELF_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench/common.sh
. "$SELF_DIR/common.sh"

SIZES="10k 100k 1M"
SLOAD_MAX=100000
SLOAD_TIMEOUT=3600
COLD_SIZE=100000
RUNS=3
IMG_DIR=""
TREE_DIR=""
FSCK_DIR=""
OURS=""
OLD_DIR=""
THEIRS=/usr/sbin/mkfs.f2fs
SLOAD=/usr/sbin/sload.f2fs
FSCK=/usr/sbin/fsck.f2fs
GEN=$SELF_DIR/gen-bench-tree.py
TREE_CACHE=""
KEEP=0
CHECK=1
TARGET_X=50        # at least 50x faster than mkfs+sload at 100k files
TARGET_1M_S=120    # 1M files in under 2 minutes
LINEAR_MAX=12.6    # time growth per 10x files counted as linear (N^1.1)

usage() {
	cat <<EOF
Usage: $0 [options]
  --sizes "10k 100k 1M"  tree sizes in files (k/M suffixes; default "$SIZES")
  --sload-max N          run f2fs-tools (mkfs + sload) only up to N files
                         (default $SLOAD_MAX; 0 = never)
  --sload-timeout S      kill sload after S seconds (default $SLOAD_TIMEOUT)
  --runs N               timed runs of ours per size (default $RUNS)
  --cold-size N          size (files) for the cold-cache run of ours, ""
                         to skip (default $COLD_SIZE)
  --img-dir DIR          where the images go (default /dev/shm when it has
                         room, else \${TMPDIR:-/var/tmp})
  --tree-dir DIR         where the trees go (default \${TMPDIR:-/var/tmp}: a
                         disk file system, so the cold-cache run means
                         something; tmpfs cannot drop its pages)
  --fsck-dir DIR         where the sparse copies for fsck go (default: the
                         tree directory)
  --ours PATH            our mkfs.f2fs (default: build/ or mkfs/ under the
                         source tree, the first built)
  --theirs PATH          f2fs-tools' mkfs.f2fs (default $THEIRS)
  --old DIR              time DIR/mkfs/mkfs.f2fs, an older build of ours,
                         beside ours instead of f2fs-tools (no sload runs);
                         ratios new/old
  --sload PATH           f2fs-tools' sload.f2fs (default $SLOAD)
  --fsck PATH            f2fs-tools' fsck.f2fs (default $FSCK)
  --no-fsck              skip the fsck checks (targets then read MISS)
  --tree-cache DIR       keep the generated trees in DIR (tree-10k, ...) and
                         reuse them on later runs instead of generating and
                         deleting them (a 1M tree takes minutes to make and
                         a quarter of an hour to delete on ext4)
  --keep                 keep trees and images
  -h, --help             this help
Space: a 1M-file tree takes ~8 GiB (5 GiB of data, 4 KiB-block rounding),
our 1M image ~9 GiB allocated, its fsck copy as much again.
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
	--sizes) SIZES=$2; shift 2 ;;
	--sload-max) SLOAD_MAX=$2; shift 2 ;;
	--sload-timeout) SLOAD_TIMEOUT=$2; shift 2 ;;
	--runs) RUNS=$2; shift 2 ;;
	--cold-size) COLD_SIZE=$2; shift 2 ;;
	--img-dir|--dir) IMG_DIR=$2; shift 2 ;;
	--tree-dir) TREE_DIR=$2; shift 2 ;;
	--fsck-dir) FSCK_DIR=$2; shift 2 ;;
	--tree-cache) TREE_CACHE=$2; shift 2 ;;
	--ours) OURS=$2; shift 2 ;;
	--theirs) THEIRS=$2; shift 2 ;;
	--old) OLD_DIR=$2; shift 2 ;;
	--sload) SLOAD=$2; shift 2 ;;
	--fsck) FSCK=$2; shift 2 ;;
	--no-fsck) CHECK=0; shift ;;
	--keep) KEEP=1; shift ;;
	-h|--help) usage; exit 0 ;;
	*) echo "$0: unknown option $1" >&2; usage >&2; exit 2 ;;
	esac
done

die() { echo "$0: $*" >&2; exit 2; }
log() { echo "[rootdir-bench $(date +%T)] $*" >&2; }

count() {   # 10k -> 10000, 1M -> 1000000
	case $1 in
	*[kK]) echo $(( ${1%?} * 1000 )) ;;
	*[mM]) echo $(( ${1%?} * 1000000 )) ;;
	*) echo $(( $1 )) ;;
	esac
}
label() {   # 10000 -> 10k
	local n=$1
	if [ "$n" = 0 ]; then echo 0
	elif [ $((n % 1000000)) = 0 ]; then echo "$((n / 1000000))M"
	elif [ $((n % 1000)) = 0 ]; then echo "$((n / 1000))k"
	else echo "$n"; fi
}

case $RUNS in ''|*[!0-9]*|0) die "--runs needs a positive integer" ;; esac
case $SLOAD_MAX in ''|*[!0-9]*) die "--sload-max needs a number" ;; esac
NS=()
for s in $SIZES; do
	case $s in ''|*[!0-9kKmM]*) die "bad size $s" ;; esac
	NS+=("$(count "$s")")
done
mapfile -t NS < <(printf '%s\n' "${NS[@]}" | sort -n | uniq)
[ -z "$COLD_SIZE" ] || COLD_SIZE=$(count "$COLD_SIZE")

OURS=$(our_tool "$OURS" mkfs/mkfs.f2fs) || exit 2
OURS=$(cd "$(dirname "$OURS")" && pwd)/$(basename "$OURS")
NEED_PEER=("$THEIRS" "$SLOAD" "$FSCK")
if [ -n "$OLD_DIR" ]; then
	OLDM=$(our_tool "$OLD_DIR/mkfs/mkfs.f2fs" mkfs/mkfs.f2fs --old) || exit 2
	OLDM=$(abs_path "$OLDM")
	SLOAD_MAX=0
	NEED_PEER=()
	[ "$CHECK" = 0 ] || NEED_PEER=("$FSCK")
fi
for t in "${NEED_PEER[@]}"; do
	[ -x "$t" ] || die "$t is not executable (apt-get install f2fs-tools)"
done
command -v python3 >/dev/null || die "python3 missing"

avail() { df -B1 --output=avail "$1" | tail -n 1 | tr -d ' '; }
fstype() { findmnt -n -o FSTYPE -T "$1" 2>/dev/null | head -n 1; }

# Largest tree's estimated footprint: ~8.2 KiB per file on a 4 KiB-block
# file system; our image about the same.
BIGGEST=${NS[${#NS[@]}-1]}
NEED=$((BIGGEST * 8400 + (512 << 20)))
if [ -z "$IMG_DIR" ]; then
	if [ -d /dev/shm ] && [ "$(avail /dev/shm)" -gt $((NEED + (2 << 30))) ]; then
		IMG_DIR=/dev/shm
	else
		IMG_DIR=${TMPDIR:-/var/tmp}
	fi
fi
[ -n "$TREE_DIR" ] || TREE_DIR=${TMPDIR:-/var/tmp}
[ -z "$TREE_CACHE" ] || TREE_DIR=$TREE_CACHE
mkdir -p "$IMG_DIR" "$TREE_DIR"
IWORK=$(mktemp -d "$IMG_DIR/rootdir-bench-img.XXXXXX")
if [ -n "$TREE_CACHE" ]; then
	TWORK=$(cd "$TREE_CACHE" && pwd)
else
	TWORK=$(mktemp -d "$TREE_DIR/rootdir-bench-tree.XXXXXX")
fi
if [ -n "$FSCK_DIR" ]; then
	mkdir -p "$FSCK_DIR"
	FWORK=$(mktemp -d "$FSCK_DIR/rootdir-bench-fsck.XXXXXX")
else
	FWORK=$(mktemp -d "$TWORK/rootdir-bench-fsck.XXXXXX")
fi
cleanup() {
	if [ "$KEEP" = 1 ]; then
		log "kept: $IWORK $TWORK $FWORK"
	else
		rm -rf "$IWORK" "$FWORK"
		[ -n "$TREE_CACHE" ] || rm -rf "$TWORK"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
BENCH_WORK=$IWORK
bench_init
TREEREAD=$IWORK/treeread
"${CC:-cc}" -std=c11 -O2 -pthread -o "$TREEREAD" "$SELF_DIR/treeread.c" || die "cannot build bench/treeread.c"
NPROC=$(nproc)

# ---------------------------------------------------------------- helpers

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; if (m == int(m) && m > 1000) printf "%.0f\n", m; else printf "%.2f\n", m }'; }
maxof() { printf '%s\n' "$@" | sort -g | tail -n 1; }
mib() { awk -v b="$1" 'BEGIN { printf "%.0f", b / 1048576 }'; }

# Untimed read of every file and directory of the tree.
warm() { find "$1" -type f -print0 | xargs -0 -r cat >/dev/null; sync; }

# The read bound: bench/treeread asks the kernel only what any copy of the
# tree must (list, stat, list xattrs, open, read, close), with 1 thread and
# with one per CPU. Median of RUNS each; sets R1[n] and RN[n].
read_bound() {
	local n=$1 tree=$2 j i out secs
	for j in 1 "$NPROC"; do
		secs=()
		for ((i = 1; i <= RUNS; i++)); do
			out=$("$TREEREAD" -j "$j" "$tree") || die "treeread failed on $tree"
			secs+=("${out##*seconds=}")
		done
		if [ "$j" = 1 ]; then R1[$n]=$(median "${secs[@]}"); else RN[$n]=$(median "${secs[@]}"); fi
	done
	log "$(label "$n"): read bound ${R1[$n]}s (1 thread), ${RN[$n]}s ($NPROC threads)"
}

# The write bound: dd of as many bytes as our image will take (the tree's
# data plus one block per inode) into a new file next to the images: what
# the kernel charges for writing that much there, whatever the tool. Each of
# RUNS runs starts after a sync, as every timed run does; median in WB[n].
write_bound() {
	local n=$1 mib=$((((G_blocks + G_files + G_dirs) * 4096 + 1048575) / 1048576)) i secs=()
	for ((i = 1; i <= RUNS; i++)); do
		rm -f "$IWORK/wb.img"; sync
		timed "$IWORK/wb.log" dd if=/dev/zero of="$IWORK/wb.img" bs=1M count="$mib" status=none
		secs+=("$T_WALL")
	done
	rm -f "$IWORK/wb.img"
	WB[$n]=$(median "${secs[@]}")
	WB_MIB[$n]=$mib
	log "$(label "$n"): write bound ${WB[$n]}s (dd of $mib MiB)"
}

can_drop_caches() { [ -w /proc/sys/vm/drop_caches ] && sync && echo 3 >/proc/sys/vm/drop_caches 2>/dev/null; }

# ------------------------------------------------------------------- runs

declare -A G_INFO G_SECS IMG_BYTES
declare -A O_WALL O_WALLS O_CPU O_RSS O_W O_R O_DU O_FAIL O_FSCK
declare -A S_MKFS S_SLOAD S_CPU S_WALL S_RSS S_W S_R S_DU S_RC S_FSCK
declare -A C_WALL C_CPU C_RSS C_R C_RC R1 RN WB WB_MIB BOUND
# --old: the old build's runs (as O_*) and cold run (as C_*)
declare -A P_WALL P_WALLS P_CPU P_RSS P_W P_R P_DU P_FAIL PC_WALL PC_CPU PC_RSS PC_R PC_RC
NOTES=()
DATE=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
LOADS=()
IMG_FS=$(fstype "$IWORK"); TREE_FS=$(fstype "$TWORK"); FSCK_FS=$(fstype "$FWORK")
COLD_OK=0
if [ -n "$COLD_SIZE" ]; then
	if [ "$TREE_FS" = tmpfs ]; then
		NOTES+=("cold-cache run skipped: the trees are on tmpfs, whose pages drop_caches cannot drop")
		COLD_SIZE=""
	elif ! can_drop_caches; then
		NOTES+=("cold-cache run skipped: cannot write /proc/sys/vm/drop_caches (not root?)")
		COLD_SIZE=""
	else
		COLD_OK=1
	fi
fi

log "ours:   $OURS"
if [ -n "$OLD_DIR" ]; then
	log "old:    $OLDM"
else
	log "theirs: $THEIRS + $SLOAD (up to $SLOAD_MAX files)"
fi
log "trees:  $TWORK ($TREE_FS); images: $IWORK ($IMG_FS); fsck copies: $FWORK ($FSCK_FS)"

for n in "${NS[@]}"; do
	L=$(label "$n")
	tree="$TWORK/tree-$L"
	if [ -n "$TREE_CACHE" ] && [ -s "$TWORK/gen-$L.out" ] && [ -d "$tree" ]; then
		log "$L: reusing $tree (--tree-cache)"
		G_SECS[$n]="reused"
	else
		log "$L: generating the tree"
		rm -rf "$tree"
		t0=$EPOCHREALTIME
		python3 "$GEN" "$n" "$tree" >"$TWORK/gen-$L.out.new" || die "gen-bench-tree.py $n failed"
		sync
		mv "$TWORK/gen-$L.out.new" "$TWORK/gen-$L.out"
		G_SECS[$n]=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
	fi
	G_INFO[$n]=$(tail -n 1 "$TWORK/gen-$L.out")
	eval "$(tr ' ' '\n' <<<"${G_INFO[$n]}" | grep -E '^(files|dirs|bytes|blocks)=' | sed 's/^/G_/')"
	# 2x (data blocks + one block per inode) + 256 MiB, in whole MiB
	IMG_BYTES[$n]=$(( (2 * (G_blocks + G_files + G_dirs + 1) * 4096 + (256 << 20) + (1 << 20) - 1) >> 20 << 20 ))
	log "$L: ${G_INFO[$n]}; image $(human "${IMG_BYTES[$n]}") sparse; tree $(du -sh "$tree" | cut -f1) on disk"
	need=$(( (G_blocks + G_files + G_dirs) * 4096 * 11 / 10 ))
	if [ "$(avail "$IWORK")" -lt "$need" ]; then
		NOTES+=("$L skipped: $IWORK has less than $(human "$need") free for an image")
		[ -n "$TREE_CACHE" ] || rm -rf "$tree"
		continue
	fi
	log "$L: warming the page cache (untimed read of the tree)"
	warm "$tree"
	read_bound "$n" "$tree"
	write_bound "$n"

	img="$IWORK/ours-$L.img"
	walls=(); cpus=(); rss=(); ws=(); rs=(); fails=0
	owalls=(); ocpus=(); orss=(); ows=(); ors=(); ofails=0
	run_theirs=0
	[ "$n" -le "$SLOAD_MAX" ] && run_theirs=1
	for ((i = 1; i <= RUNS; i++)); do
		if [ -n "$OLD_DIR" ]; then
			# first, so that our last image (kept for fsck) is the only one
			rm -f "$img"
			oimg="$IWORK/old-$L.img"
			rm -f "$oimg"; truncate -s "${IMG_BYTES[$n]}" "$oimg"; sync
			timed "$IWORK/old-$L.log" "$OLDM" -f --rootdir "$tree" "$oimg"
			[ "$T_RC" = 0 ] || ofails=$((ofails + 1))
			owalls+=("$T_WALL"); ocpus+=("$T_CPU"); orss+=("$T_RSS"); ows+=("$T_W"); ors+=("$T_R")
			LOADS+=("$L old run $i: $(cut -d' ' -f1 /proc/loadavg)")
			log "$L old run $i: ${T_WALL}s cpu ${T_CPU}s rss ${T_RSS}KiB written $(human "$T_W") read $(human "$T_R") rc $T_RC"
			P_DU[$n]=$(du -B1 "$oimg" | cut -f1)
			rm -f "$oimg"
		fi
		rm -f "$img"; truncate -s "${IMG_BYTES[$n]}" "$img"; sync
		timed "$IWORK/ours-$L.log" "$OURS" -f --rootdir "$tree" "$img"
		[ "$T_RC" = 0 ] || fails=$((fails + 1))
		walls+=("$T_WALL"); cpus+=("$T_CPU"); rss+=("$T_RSS"); ws+=("$T_W"); rs+=("$T_R")
		LOADS+=("$L ours run $i: $(cut -d' ' -f1 /proc/loadavg)")
		log "$L ours run $i: ${T_WALL}s cpu ${T_CPU}s rss ${T_RSS}KiB written $(human "$T_W") read $(human "$T_R") rc $T_RC (load $(cut -d' ' -f1 /proc/loadavg))"
		if [ "$i" = 1 ] && [ "$run_theirs" = 1 ]; then
			# f2fs-tools once, between our first and second runs
			simg="$IWORK/theirs-$L.img"
			rm -f "$simg"; truncate -s "${IMG_BYTES[$n]}" "$simg"; sync
			timed "$IWORK/theirs-mkfs-$L.log" "$THEIRS" -f "$simg"
			m_wall=$T_WALL m_cpu=$T_CPU m_rss=$T_RSS m_w=$T_W m_r=$T_R m_rc=$T_RC
			log "$L f2fs-tools mkfs: ${m_wall}s rc $m_rc; sload (timeout ${SLOAD_TIMEOUT}s) ..."
			timed "$IWORK/theirs-sload-$L.log" timeout "$SLOAD_TIMEOUT" "$SLOAD" -f "$tree" "$simg"
			S_MKFS[$n]=$m_wall; S_SLOAD[$n]=$T_WALL
			S_WALL[$n]=$(awk -v a="$m_wall" -v b="$T_WALL" 'BEGIN { printf "%.2f", a + b }')
			S_RSS[$n]=$(maxof "$m_rss" "$T_RSS")
			S_CPU[$n]=$(awk -v a="$m_cpu" -v b="$T_CPU" 'BEGIN { printf "%.2f", a + b }')
			S_W[$n]=$((m_w + T_W)); S_R[$n]=$((m_r + T_R))
			S_RC[$n]="$m_rc/$T_RC"
			S_DU[$n]=$(du -B1 "$simg" | cut -f1)
			[ "$T_RC" != 124 ] || NOTES+=("$L: sload.f2fs killed after ${SLOAD_TIMEOUT}s")
			LOADS+=("$L f2fs-tools: $(cut -d' ' -f1 /proc/loadavg)")
			log "$L f2fs-tools: mkfs ${m_wall}s + sload ${T_WALL}s, cpu ${S_CPU[$n]}s, rss ${S_RSS[$n]}KiB written $(human "${S_W[$n]}") rc ${S_RC[$n]} (load $(cut -d' ' -f1 /proc/loadavg))"
			if [ "$CHECK" = 1 ] && [ "${S_RC[$n]}" = 0/0 ]; then
				log "$L f2fs-tools: fsck.f2fs"
				fsck_check "$FSCK" "$simg" "$IWORK/theirs-fsck-$L.log" "$FWORK"; S_FSCK[$n]=$FSCK_RESULT
			else
				S_FSCK[$n]="not checked"
			fi
			rm -f "$simg"
		fi
	done
	O_WALLS[$n]="${walls[*]}"
	O_WALL[$n]=$(median "${walls[@]}"); O_CPU[$n]=$(median "${cpus[@]}"); O_RSS[$n]=$(maxof "${rss[@]}")
	O_W[$n]=$(median "${ws[@]}"); O_W[$n]=${O_W[$n]%.*}
	O_R[$n]=$(median "${rs[@]}"); O_R[$n]=${O_R[$n]%.*}
	O_DU[$n]=$(du -B1 "$img" | cut -f1); O_FAIL[$n]=$fails
	if [ -n "$OLD_DIR" ]; then
		P_WALLS[$n]="${owalls[*]}"
		P_WALL[$n]=$(median "${owalls[@]}"); P_CPU[$n]=$(median "${ocpus[@]}"); P_RSS[$n]=$(maxof "${orss[@]}")
		P_W[$n]=$(median "${ows[@]}"); P_W[$n]=${P_W[$n]%.*}
		P_R[$n]=$(median "${ors[@]}"); P_R[$n]=${P_R[$n]%.*}
		P_FAIL[$n]=$ofails
	fi
	if [ "$CHECK" = 1 ] && [ "$fails" = 0 ]; then
		log "$L ours: fsck.f2fs on the last image"
		fsck_check "$FSCK" "$img" "$IWORK/ours-fsck-$L.log" "$FWORK"; O_FSCK[$n]=$FSCK_RESULT
	else
		O_FSCK[$n]="not checked"
	fi
	rm -f "$img"
	if [ "$COLD_OK" = 1 ] && [ "$n" = "$COLD_SIZE" ]; then
		rm -f "$img"; truncate -s "${IMG_BYTES[$n]}" "$img"
		log "$L ours: cold-cache run (sync; echo 3 > /proc/sys/vm/drop_caches)"
		sync; echo 3 >/proc/sys/vm/drop_caches
		timed "$IWORK/ours-cold-$L.log" "$OURS" -f --rootdir "$tree" "$img"
		C_WALL[$n]=$T_WALL; C_CPU[$n]=$T_CPU; C_RSS[$n]=$T_RSS; C_R[$n]=$T_R; C_RC[$n]=$T_RC
		log "$L ours cold: ${T_WALL}s cpu ${T_CPU}s rc $T_RC"
		rm -f "$img"
		if [ -n "$OLD_DIR" ]; then
			truncate -s "${IMG_BYTES[$n]}" "$img"
			log "$L old: cold-cache run"
			sync; echo 3 >/proc/sys/vm/drop_caches
			timed "$IWORK/old-cold-$L.log" "$OLDM" -f --rootdir "$tree" "$img"
			PC_WALL[$n]=$T_WALL; PC_CPU[$n]=$T_CPU; PC_RSS[$n]=$T_RSS; PC_R[$n]=$T_R; PC_RC[$n]=$T_RC
			log "$L old cold: ${T_WALL}s cpu ${T_CPU}s rc $T_RC"
			rm -f "$img"
		fi
	fi
	[ "$KEEP" = 1 ] || [ -n "$TREE_CACHE" ] || rm -rf "$tree"
done

# ----------------------------------------------------------------- report

LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

if [ -n "$OLD_DIR" ]; then
	echo "# mkfs.f2fs --rootdir: new vs old build of ours"
else
	echo "# mkfs.f2fs --rootdir vs mkfs.f2fs + sload.f2fs"
fi
echo
echo "- Date: $DATE"
echo "- Machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')), $(awk '/MemTotal/ { printf "%.1f GiB RAM", $2 / 1048576 }' /proc/meminfo), kernel $(uname -r)"
echo "- Load average (1/5/15 min): $LOAD_START at start, $LOAD_END at end; 1-min load after each run: $(IFS=';'; x="${LOADS[*]-}"; echo "${x//;/; }")"
echo "- Trees: \`$TWORK\` ($TREE_FS), made by \`bench/gen-bench-tree.py N DIR\`, then read once untimed (\`find -type f | xargs cat\`, then \`sync\`) so the timed runs start with a warm page cache"
echo "- Images: \`$IWORK\` ($IMG_FS), fresh sparse files of 2x (data + one block per inode) + 256 MiB; fsck copies: \`$FWORK\` ($FSCK_FS)"
if [ -n "$OLD_DIR" ]; then
	echo "- New (ours): \`$OURS\` ($("$OURS" -V 2>&1 | head -n 1)); old: \`$OLDM\` ($("$OLDM" -V 2>&1 | head -n 1)), run before each of ours; no f2fs-tools runs"
else
	echo "- Ours: \`$OURS\` ($("$OURS" -V 2>&1 | head -n 1)); f2fs-tools: \`$THEIRS\`, \`$SLOAD\` ($("$THEIRS" -V 2>&1 | head -n 1))"
fi
if [ -n "$OLD_DIR" ]; then
	echo "- Runs: new and old $RUNS per size each (median wall, max RSS), old first in each pair"
else
	echo "- Runs: ours $RUNS per size (median wall, max RSS); f2fs-tools once per size up to $(label "$SLOAD_MAX") files (--sload-max $SLOAD_MAX), after our first run"
fi
for n in "${NOTES[@]+"${NOTES[@]}"}"; do echo "- **Note:** $n"; done
echo
echo "## Trees"
echo
echo "| Files | Dirs | Data | Depth | Generation (s) | Image size |"
echo "|---:|---:|---:|---:|---:|---:|"
for n in "${NS[@]}"; do
	[ -n "${G_INFO[$n]+x}" ] || continue
	eval "$(tr ' ' '\n' <<<"${G_INFO[$n]}" | grep -E '^(files|dirs|bytes|max_depth)=' | sed 's/^/G_/')"
	printf '| %s | %s | %s | %s | %s | %s |\n' "$G_files" "$G_dirs" "$(human "$G_bytes")" "$G_max_depth" "${G_SECS[$n]}" "$(human "${IMG_BYTES[$n]}")"
done
echo
echo "## Results"
echo
echo "Wall: CLOCK_MONOTONIC around posix_spawn + wait4 of the tool (bench/runtime.c). CPU: user+sys from wait4, less sensitive to other load than wall time. RSS: wait4 ru_maxrss (f2fs-tools: max of mkfs and sload)."
echo "Written/read: bytes passed to write/read syscalls (/proc/<pid>/io wchar/rchar). Allocated: \`du -B1\` of the image afterwards."
echo
echo "| Files | Tool | Wall (s) | CPU (s) | Peak RSS | Written | Read | Allocated | fsck.f2fs |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---|"
for n in "${NS[@]}"; do
	[ -n "${O_WALL[$n]+x}" ] || continue
	L=$(label "$n")
	extra=""; [ "${O_FAIL[$n]}" = 0 ] || extra=" (${O_FAIL[$n]} failed runs)"
	printf '| %s | ours (median of %s: %s) | %s | %s | %s MiB | %s | %s | %s | %s%s |\n' "$L" "$RUNS" "${O_WALLS[$n]// /, }" \
		"${O_WALL[$n]}" "${O_CPU[$n]}" "$(mib $((O_RSS[$n] * 1024)))" "$(human "${O_W[$n]}")" "$(human "${O_R[$n]}")" \
		"$(human "${O_DU[$n]}")" "${O_FSCK[$n]}" "$extra"
	if [ -n "${P_WALL[$n]+x}" ]; then
		extra=""; [ "${P_FAIL[$n]}" = 0 ] || extra=" (${P_FAIL[$n]} failed runs)"
		printf '| %s | old (median of %s: %s) | %s | %s | %s MiB | %s | %s | %s | not checked%s |\n' "$L" "$RUNS" "${P_WALLS[$n]// /, }" \
			"${P_WALL[$n]}" "${P_CPU[$n]}" "$(mib $((P_RSS[$n] * 1024)))" "$(human "${P_W[$n]}")" "$(human "${P_R[$n]}")" \
			"$(human "${P_DU[$n]}")" "$extra"
	elif [ -n "${S_WALL[$n]+x}" ]; then
		extra=""; [ "${S_RC[$n]}" = 0/0 ] || extra=" (exit mkfs/sload ${S_RC[$n]})"
		printf '| %s | f2fs-tools (mkfs %s + sload %s) | %s | %s | %s MiB | %s | %s | %s | %s%s |\n' "$L" \
			"${S_MKFS[$n]}" "${S_SLOAD[$n]}" "${S_WALL[$n]}" "${S_CPU[$n]}" "$(mib $((S_RSS[$n] * 1024)))" \
			"$(human "${S_W[$n]}")" "$(human "${S_R[$n]}")" "$(human "${S_DU[$n]}")" "${S_FSCK[$n]}" "$extra"
	else
		printf '| %s | f2fs-tools | not run (more than --sload-max %s files) | | | | | | |\n' "$L" "$SLOAD_MAX"
	fi
	if [ -n "${R1[$n]+x}" ]; then
		printf '| %s | read bound: bench/treeread, 1 thread / %s threads | %s / %s | | | | | | |\n' "$L" "$NPROC" "${R1[$n]}" "${RN[$n]}"
	fi
	if [ -n "${WB[$n]+x}" ]; then
		printf '| %s | write bound: dd of %s MiB into %s (median of %s) | %s | | | %s MiB | | | |\n' "$L" "${WB_MIB[$n]}" "$IMG_FS" "$RUNS" "${WB[$n]}" "${WB_MIB[$n]}"
	fi
	if [ -n "${C_WALL[$n]+x}" ]; then
		printf '| %s | ours, cold cache (drop_caches first) | %s | %s | %s MiB | | %s | | exit %s |\n' "$L" \
			"${C_WALL[$n]}" "${C_CPU[$n]}" "$(mib $((C_RSS[$n] * 1024)))" "$(human "${C_R[$n]}")" "${C_RC[$n]}"
	fi
	if [ -n "${PC_WALL[$n]+x}" ]; then
		printf '| %s | old, cold cache (drop_caches first) | %s | %s | %s MiB | | %s | | exit %s |\n' "$L" \
			"${PC_WALL[$n]}" "${PC_CPU[$n]}" "$(mib $((PC_RSS[$n] * 1024)))" "$(human "${PC_R[$n]}")" "${PC_RC[$n]}"
	fi
done
if [ -n "$OLD_DIR" ]; then
	echo
	echo "## New vs old"
	echo
	echo "New / old, medians of $RUNS runs each (peak RSS: max); below 1, the new build is faster or uses less."
	echo
	echo "| Files | New wall (s) | Old wall (s) | Wall new/old | CPU new/old | Peak RSS new/old | Written new/old | Read new/old | Allocated new/old | Cold wall new/old |"
	echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for n in "${NS[@]}"; do
		if [ -z "${P_WALL[$n]+x}" ] || [ -z "${O_WALL[$n]+x}" ]; then continue; fi
		cold="-"
		[ -z "${PC_WALL[$n]+x}" ] || cold=$(ratio "${C_WALL[$n]}" "${PC_WALL[$n]}" 2)
		printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$(label "$n")" "${O_WALL[$n]}" "${P_WALL[$n]}" \
			"$(ratio "${O_WALL[$n]}" "${P_WALL[$n]}" 2)" "$(ratio "${O_CPU[$n]}" "${P_CPU[$n]}" 2)" \
			"$(ratio "${O_RSS[$n]}" "${P_RSS[$n]}" 2)" "$(ratio "${O_W[$n]}" "${P_W[$n]}" 2)" \
			"$(ratio "${O_R[$n]}" "${P_R[$n]}" 2)" "$(ratio "${O_DU[$n]}" "${P_DU[$n]}" 2)" "$cold"
	done
fi
echo
echo "## Ratios and growth"
echo
echo "Ratios are f2fs-tools / ours (higher is better for ours), of wall time unless marked CPU. Growth: ours at N files / ours at N/10 files. Ours / read bound: our wall time over bench/treeread's with 1 thread (the floor for a tool that reads the tree in one thread). Bounds: read (1 thread) + write bound, and how that sum grows per 10x files: what the kernel charges for the I/O alone."
echo
echo "| Files | (mkfs+sload) / ours | sload / ours | CPU: (mkfs+sload) / ours | Ours: wall vs 10x fewer files | Ours: growth exponent (wall) | Ours: CPU vs 10x fewer files | Ours: µs wall per file | Ours / read bound | Bounds (s) | Ours / bounds | Bounds vs 10x fewer files |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
prev=""
for n in "${NS[@]}"; do
	[ -n "${O_WALL[$n]+x}" ] || continue
	r1="-"; r2="-"; r3="-"; g="-"; e="-"; gc="-"
	if [ -n "${S_WALL[$n]+x}" ]; then
		r1="$(ratio "${S_WALL[$n]}" "${O_WALL[$n]}")x"; r2="$(ratio "${S_SLOAD[$n]}" "${O_WALL[$n]}")x"
		r3="$(ratio "${S_CPU[$n]}" "${O_CPU[$n]}")x"
	fi
	if [ -n "$prev" ] && [ "$n" = $((prev * 10)) ]; then
		g="$(ratio "${O_WALL[$n]}" "${O_WALL[$prev]}")x"
		gc="$(ratio "${O_CPU[$n]}" "${O_CPU[$prev]}")x"
		e=$(awk -v a="${O_WALL[$n]}" -v b="${O_WALL[$prev]}" 'BEGIN { if (a > 0 && b > 0) printf "N^%.2f", log(a / b) / log(10); else print "-" }')
	fi
	rb="-"; [ -z "${R1[$n]+x}" ] || rb="$(ratio "${O_WALL[$n]}" "${R1[$n]}")x"
	bs="-"; rbs="-"; gb="-"
	if [ -n "${R1[$n]+x}" ] && [ -n "${WB[$n]+x}" ]; then
		BOUND[$n]=$(awk -v a="${R1[$n]}" -v b="${WB[$n]}" 'BEGIN { printf "%.2f", a + b }')
		bs=${BOUND[$n]}; rbs="$(ratio "${O_WALL[$n]}" "${BOUND[$n]}")x"
		if [ -n "$prev" ] && [ "$n" = $((prev * 10)) ] && [ -n "${BOUND[$prev]+x}" ]; then
			gb="$(ratio "${BOUND[$n]}" "${BOUND[$prev]}")x"
		fi
	fi
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$(label "$n")" "$r1" "$r2" "$r3" "$g" "$e" "$gc" \
		"$(awk -v t="${O_WALL[$n]}" -v n="$n" 'BEGIN { printf "%.0f", t * 1e6 / n }')" "$rb" "$bs" "$rbs" "$gb"
	prev=$n
done
echo
echo "## Targets"
echo
echo "A target PASSes only if our runs all succeeded and fsck.f2fs found our image clean."
echo
echo "| Target | Measured | Result |"
echo "|---|---:|---|"
ok() { [ "${O_FAIL[$1]}" = 0 ] && [ "${O_FSCK[$1]}" = clean ]; }
n=100000
if [ -n "${S_WALL[$n]+x}" ] && [ -n "${O_WALL[$n]+x}" ]; then
	v=$(ratio "${S_WALL[$n]}" "${O_WALL[$n]}")
	res=MISS
	if ok $n && awk -v v="$v" -v t="$TARGET_X" 'BEGIN { exit !(v >= t) }'; then res=PASS; fi
	echo "| >= ${TARGET_X}x faster than mkfs+sload at 100k files | ${v}x | $res |"
	if [ -n "${R1[$n]+x}" ]; then
		need=$(awk -v s="${S_WALL[$n]}" -v t="$TARGET_X" 'BEGIN { printf "%.2f", s / t }')
		echo "| (context) ${TARGET_X}x means at most $need s; reading the tree alone (bench/treeread) takes ${R1[$n]} s in 1 thread, ${RN[$n]} s in $NPROC | best possible: $(ratio "${S_WALL[$n]}" "${R1[$n]}")x / $(ratio "${S_WALL[$n]}" "${RN[$n]}")x | |"
	fi
else
	echo "| >= ${TARGET_X}x faster than mkfs+sload at 100k files | not measured | MISS |"
fi
n=1000000
if [ -n "${O_WALL[$n]+x}" ]; then
	res=MISS
	if ok $n && awk -v v="${O_WALL[$n]}" -v t="$TARGET_1M_S" 'BEGIN { exit !(v < t) }'; then res=PASS; fi
	echo "| 1M files in under ${TARGET_1M_S} s | ${O_WALL[$n]} s | $res |"
else
	echo "| 1M files in under ${TARGET_1M_S} s | not measured | MISS |"
fi
prev=""
for n in "${NS[@]}"; do
	if [ -n "$prev" ] && [ -n "${O_WALL[$n]+x}" ] && [ -n "${O_WALL[$prev]+x}" ] && [ "$n" = $((prev * 10)) ]; then
		g=$(ratio "${O_WALL[$n]}" "${O_WALL[$prev]}")
		res=MISS
		awk -v v="$g" -v t="$LINEAR_MAX" 'BEGIN { exit !(v <= t) }' && res=PASS
		echo "| linear: ~10x time per 10x files, $(label "$prev") -> $(label "$n") (PASS up to ${LINEAR_MAX}x = N^1.1) | ${g}x | $res |"
		if [ -n "${BOUND[$n]+x}" ] && [ -n "${BOUND[$prev]+x}" ]; then
			echo "| (context) the read + write bounds grow $(ratio "${BOUND[$n]}" "${BOUND[$prev]}")x from $(label "$prev") to $(label "$n") (${BOUND[$prev]} s -> ${BOUND[$n]} s); ours over them: $(ratio "${O_WALL[$prev]}" "${BOUND[$prev]}")x -> $(ratio "${O_WALL[$n]}" "${BOUND[$n]}")x | | |"
		fi
	fi
	prev=$n
done
echo
echo "## Commands"
echo
echo '```sh'
echo "python3 $GEN N TREE; sync; find TREE -type f -print0 | xargs -0 cat >/dev/null; sync"
echo "# ours, each run:"
echo "rm -f IMG; truncate -s SIZE IMG; sync"
echo "bench/runtime OUT $OURS -f --rootdir TREE IMG"
[ -z "$OLD_DIR" ] || echo "bench/runtime OUT $OLDM -f --rootdir TREE IMG   # old, before each of ours"
echo "# read bound, 1 thread and $NPROC:"
echo "bench/treeread -j 1 TREE; bench/treeread -j $NPROC TREE"
echo "# write bound, $RUNS runs per size: MIB = (data blocks + one per inode) * 4 KiB"
echo "rm -f FILE; sync; bench/runtime OUT dd if=/dev/zero of=FILE bs=1M count=MIB status=none"
echo "# f2fs-tools, once (up to $SLOAD_MAX files):"
echo "rm -f IMG; truncate -s SIZE IMG; sync"
echo "bench/runtime OUT $THEIRS -f IMG && bench/runtime OUT timeout $SLOAD_TIMEOUT $SLOAD -f TREE IMG"
[ -z "$COLD_SIZE" ] || echo "# cold ($(label "$COLD_SIZE")): sync; echo 3 > /proc/sys/vm/drop_caches; then ours as above"
echo "# check, last image of each tool and size:"
echo "cp --sparse=always IMG COPY && $FSCK -f --dry-run COPY </dev/null"
echo '```'
exit 0
