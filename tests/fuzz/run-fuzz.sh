#!/bin/bash
# libFuzzer over f2fs_check() (FULL mode, then a repair of each mutant and
# a check of what it left: see fuzz_check.c): builds tests/fuzz/fuzz_check.c
# and the library sources with clang -fsanitize=fuzzer,address,undefined,
# runs it on a corpus directory
# (F2FS_FUZZ_CORPUS, default a fresh temporary one) and fails on any crash,
# leak or sanitizer report. In the suite the run is repeatable: seed 1,
# F2FS_FUZZ_RUNS mutants (default 2000), after every earlier finding
# (tests/fuzz/regress). F2FS_FUZZ_SECONDS=N explores instead: a random
# seed for N seconds (keep what it finds in tests/fuzz/regress).
# Skips (77) when clang or libFuzzer (Debian:
# clang, libclang-rt-14-dev) is missing, unless F2FS_REQUIRE_FUZZ=1.
#
# run-fuzz.sh --replay UNIT [IMAGE]: builds, runs the one unit (a file the
# fuzzer kept) and leaves the patched image at IMAGE (default ./fuzz.img)
# for fsck.f2fs to look at.
set -u
REPLAY= REPLAY_IMG=
if [[ ${1:-} = --replay ]]; then
	REPLAY=$(realpath "$2") REPLAY_IMG=$(realpath -m "${3:-fuzz.img}")
fi
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
SRC=$(cd "$HERE/../.." && pwd -P)
CLANG=${CLANG:-clang}
SECS=${F2FS_FUZZ_SECONDS:-}
if [[ -n $SECS ]]; then
	BOUND=(-max_total_time="$SECS")
	WHAT="for ${SECS}s, random seed"
else
	BOUND=(-seed=1 -runs="${F2FS_FUZZ_RUNS:-2000}" -max_total_time=600)
	WHAT="${F2FS_FUZZ_RUNS:-2000} mutants, seed 1"
fi

skip() {
	echo "fuzz: $*"
	if [[ ${F2FS_REQUIRE_FUZZ:-0} = 1 ]]; then
		echo "fuzz: 0 passed, 1 failed (F2FS_REQUIRE_FUZZ=1)"
		exit 1
	fi
	exit 77
}

command -v "$CLANG" >/dev/null 2>&1 || skip "$CLANG not found"
W=$(mktemp -d "${TMPDIR:-/tmp}/f2fs-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' >"$W/probe.c"
"$CLANG" -fsanitize=fuzzer,address,undefined "$W/probe.c" -o "$W/probe" >/dev/null 2>&1 ||
	skip "libFuzzer runtime missing (install libclang-rt-14-dev)"

# the checker: every file of fsck/ but the tool's own, as fsck/local.mk
# lists them
tool=$(sed -n 's/^fsck_fsck_f2fs_SOURCES = //p' "$SRC/fsck/local.mk")
checker=()
while IFS= read -r f; do
	[[ " $tool " == *" ${f#"$SRC"/} "* ]] || checker+=("$f")
done < <(find "$SRC/fsck" -name '*.c' | sort)
echo "fuzz: building with $CLANG"
if ! "$CLANG" -g -O1 -std=c11 -D_GNU_SOURCE -I"$SRC/include" \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer \
	"$SRC/tests/fuzz/fuzz_check.c" "$SRC"/lib/*/*.c \
	"${checker[@]}" -I"$SRC/fsck" \
	-o "$W/fuzz_check" -lz -luuid -lblkid >"$W/build.log" 2>&1; then
	cat "$W/build.log"
	echo "fuzz: 0 passed, 1 failed (build)"
	exit 1
fi

if [[ -n $REPLAY ]]; then
	F2FS_FUZZ_DUMP_IMG=$REPLAY_IMG "$W/fuzz_check" "$REPLAY"
	rc=$?
	echo "fuzz: replayed $REPLAY (exit $rc); the image is $REPLAY_IMG"
	exit $rc
fi

CORPUS=${F2FS_FUZZ_CORPUS:-$W/corpus}
mkdir -p "$CORPUS" "$W/artifacts"
# A few starting patch lists: no change, and one-byte edits of the first
# non-zero blocks (superblock, checkpoint, ...).
printf '' >"$CORPUS/empty"
# every finding so far (tests/fuzz/regress), run first as part of the corpus
cp "$HERE"/regress/* "$CORPUS"/ 2>/dev/null
for s in 0 1 2 3 4 8 16 32 64; do
	printf "\\x$(printf %02x $s)\\x00\\x40\\x00\\x01\\xff" >"$CORPUS/seed$s"
done

echo "fuzz: running ($WHAT)"
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	"$W/fuzz_check" "${BOUND[@]}" -timeout=25 -rss_limit_mb=2048 \
	-max_len=512 -print_final_stats=1 -artifact_prefix="$W/artifacts/" \
	"$CORPUS" >"$W/log" 2>&1
rc=$?
tail -n 12 "$W/log"
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$W/log" | tail -1)
if [[ $rc -ne 0 ]] || grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$W/log"; then
	grep -nE -A30 'ERROR: |runtime error:' "$W/log" | head -60
	for a in "$W"/artifacts/*; do
		[[ -e $a ]] || continue
		mkdir -p "${TMPDIR:-/tmp}/f2fs-fuzz-crashes"
		cp "$a" "${TMPDIR:-/tmp}/f2fs-fuzz-crashes/" && echo "fuzz: kept ${TMPDIR:-/tmp}/f2fs-fuzz-crashes/${a##*/}"
	done
	echo "fuzz: ${runs:-?} execs, crash or sanitizer report (exit $rc)"
	echo "fuzz: 0 passed, 1 failed"
	exit 1
fi
echo "fuzz: ${runs:-?} execs ($WHAT), no crash"
echo "fuzz: 1 passed, 0 failed"
