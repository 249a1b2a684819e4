#!/bin/bash
# The fuzz campaign in short, for the suite: F2FS_FUZZ_CI_SEEDS seeds
# (default 20) on each base of campaign.py (our mkfs with two feature sets,
# f2fs-tools' mkfs + sload with two when installed, the kernel-aged SSR
# base): about 100 mutants, each checked, repaired, checked again, and the
# files the mutation did not touch compared with the base (see
# campaign.py). Then the seeds of campaign.regress, every earlier finding,
# replayed.
#
# Fails on a crash, a timeout, a lost file, or any other finding that
# campaign.xfail does not list (BASE SEED CLASS); a listed one that no
# longer happens is XPASS and fails too, so that the list shrinks as the
# repair is fixed. Prints the convergence rate (mutants whose repair
# converged in one run, of those that open); below F2FS_FUZZ_MIN_RATE
# (percent, default 98, the issue's floor) it fails. The seeds are fixed,
# so the rate of a given build is too.
#
# Long runs: tests/fuzz/campaign.py --minutes N (see its header).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
BUILD=${top_builddir:-$HERE/../..}
BUILD=$(cd "$BUILD" && pwd -P)
if ! command -v python3 >/dev/null 2>&1; then
	echo "campaign-ci: python3 missing"
	exit 77
fi
if [[ ! -x $BUILD/tests/fuzz/f2fs-mutate ]]; then
	echo "campaign-ci: $BUILD/tests/fuzz/f2fs-mutate not built (make check builds it)"
	exit 77
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-ci.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
N=${F2FS_FUZZ_CI_SEEDS:-20}
rc=0
python3 "$HERE/campaign.py" --build "$BUILD" --work "$W" --seeds "1:$((N + 1))" \
	--extra "$HERE/campaign.regress" --xfail "$HERE/campaign.xfail" \
	--timeout "${F2FS_FUZZ_TIMEOUT:-60}" --bucket 1 || rc=$?
[[ $rc == 77 ]] && exit 77
rate=$(sed -n 's/^convergence: .*(\([0-9.]*\)%).*/\1/p' "$W/summary.txt")
min=${F2FS_FUZZ_MIN_RATE:-98}
if [[ -z $rate ]] || awk -v r="$rate" -v m="$min" 'BEGIN { exit !(r < m) }'; then
	echo "FAIL: convergence ${rate:-?}% below ${min}%"
	rc=1
fi
if [[ $rc == 0 ]]; then
	echo "PASS: campaign-ci (convergence $rate%)"
else
	echo "FAIL: campaign-ci: findings above (list known ones in tests/fuzz/campaign.xfail)"
fi
exit "$rc"
