# shellcheck shell=bash
# bench/common.sh: helpers shared by the benchmark scripts (sourced).
#
# The sourcing script sets BENCH_WORK (a scratch directory) before calling
# bench_init, and defines log().

# our_tool GIVEN REL [OPTION]: GIVEN if set, else the first built REL (e.g.
# mkfs/mkfs.f2fs) under build/ or the source tree; must be executable.
# OPTION (default --ours) is the command-line option that sets GIVEN, for
# the error messages.
our_tool() {
	local given=$1 rel=$2 opt=${3:---ours} root c
	root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	if [ -z "$given" ]; then
		for c in "$root/build/$rel" "$root/$rel"; do
			if [ -x "$c" ]; then given=$c; break; fi
		done
		[ -n "$given" ] || { echo "$0: no built $rel found; build one or pass $opt" >&2; return 1; }
	fi
	[ -x "$given" ] || { echo "$0: $opt $given is not executable" >&2; return 1; }
	echo "$given"
}

# abs_path PATH: PATH made absolute (its directory must exist).
abs_path() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }

# Build bench/runtime.c, the timer every run goes through, into BENCH_WORK.
bench_init() {
	local cc=${CC:-cc}
	command -v "$cc" >/dev/null || { echo "$0: no C compiler ($cc) for bench/runtime.c" >&2; exit 2; }
	RUNTIME=$BENCH_WORK/runtime
	"$cc" -std=c11 -O2 -o "$RUNTIME" "$(dirname "${BASH_SOURCE[0]}")/runtime.c" ||
		{ echo "$0: cannot build bench/runtime.c" >&2; exit 2; }
}

# IO_W / IO_R: bytes this shell and every child it has reaped passed to
# write / read syscalls so far (Linux adds a reaped child's I/O counters to
# its parent's). Must run in the main shell, not in $(...).
read_io() {
	local k v
	IO_W=0; IO_R=0
	while read -r k v; do
		case $k in wchar:) IO_W=$v ;; rchar:) IO_R=$v ;; esac
	done < "/proc/$BASHPID/io"
}

# timed OUT CMD...: run CMD (stdout and stderr to OUT) under bench/runtime.
# Sets T_WALL (s, around the child alone), T_CPU (user+sys s), T_RSS (peak
# KiB, wait4 ru_maxrss: also covers the children CMD waited for, e.g. under
# timeout(1)), T_W, T_R (bytes written/read by the child), T_RC. CMD
# inherits stdin and the working directory: redirect or cd around the call
# (`timed OUT CMD </dev/null`).
timed() {
	local out=$1
	shift
	timed_split "$out" "" "$@"
}

# timed_split OUT ERR CMD...: timed with stdout to OUT and stderr to ERR
# (ERR "" = OUT), e.g. `timed_split /dev/null LOG CMD` for a tool whose
# output should cost only what writing to /dev/null costs.
# shellcheck disable=SC2034  # T_*: results for the caller
timed_split() {
	local out=$1 err=$2 w0 r0 wall user sys
	shift 2
	sync
	read_io; w0=$IO_W; r0=$IO_R
	T_RC=0
	if [ -n "$err" ]; then
		"$RUNTIME" "$BENCH_WORK/runtime.out" "$@" >"$out" 2>"$err" || T_RC=$?
	else
		"$RUNTIME" "$BENCH_WORK/runtime.out" "$@" >"$out" 2>&1 || T_RC=$?
		err=$out
	fi
	read_io
	T_W=$((IO_W - w0)); T_R=$((IO_R - r0))
	read -r wall user sys T_RSS _ <"$BENCH_WORK/runtime.out"
	T_WALL=$wall
	T_CPU=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.4f", u + s }')
	if [ "$T_RC" != 0 ]; then
		log "  $1 exited $T_RC; last output:"
		tail -n 15 "$err" | sed 's/^/    /' >&2
	fi
}

# ratio A B [DECIMALS]: A / B with DECIMALS (default 1) decimals, "inf" if
# B is 0.
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-1}" 'BEGIN { if (b > 0) printf "%.*f", d, a / b; else print "inf" }'; }
human() { numfmt --to=iec-i --suffix=B --format='%.1f' "$1"; }

# Lines fsck.f2fs 1.15 prints on a clean image from our mkfs or its own.
BENIGN='^(Info: Corrupted valid nat_bits in checkpoint|Info: Write valid nat_bits in checkpoint|Info: Force to fix corruption|\[FSCK\] fixing SIT types|Info: Duplicate valid checkpoint to mirror position.*)$'
SUSPECT='\[Fail\]|\[FIX|ASSERT|[Ee]rror|[Cc]orrupt|[Ww]rong|[Ii]nvalid|[Mm]ismatch|not match|[Ii]nconsisten|[Bb]ad '

# fsck_check FSCK IMAGE LOG COPYDIR: f2fs-tools' fsck.f2fs -f --dry-run on a
# sparse copy (1.15 may write even then). Sets FSCK_RESULT ("clean" or
# "FAIL: ...").
fsck_check() {
	local fsck=$1 img=$2 out=$3 copy="$4/fsck-copy.img" rc=0
	rm -f "$copy"
	cp --sparse=always "$img" "$copy"
	"$fsck" -f --dry-run "$copy" </dev/null >"$out" 2>&1 || rc=$?
	rm -f "$copy"
	fsck_verdict "$rc" "$out"
}

# fsck_verdict RC LOG: FSCK_RESULT for a run of f2fs-tools' fsck.f2fs that
# exited RC and wrote LOG (its stdout and stderr); logs it unless clean.
fsck_verdict() {
	local rc=$1 out=$2 bad
	bad=$(grep -Ev "$BENIGN" "$out" | grep -Fv '[Ok..]' | grep -E "$SUSPECT" |
		head -n 3 | tr -s ' ' | tr '\n' ';' || true)
	if [ "$rc" != 0 ]; then
		FSCK_RESULT="FAIL: exit $rc ${bad}"
	elif [ -n "$bad" ]; then
		FSCK_RESULT="FAIL: ${bad}"
	elif ! grep -q 'other corrupted bugs.*\[Ok\.\.\]' "$out"; then
		FSCK_RESULT="FAIL: no '[FSCK] other corrupted bugs [Ok..]' line"
	else
		FSCK_RESULT="clean"
	fi
	[ "$FSCK_RESULT" = clean ] || { log "  fsck: $FSCK_RESULT"; tail -n 30 "$out" | sed 's/^/    /' >&2; }
}
