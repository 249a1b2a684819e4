# shellcheck shell=bash
# Counting and reporting for the script tests (sourced; T names the test).
# ok/bad count a PASS/FAIL line; finish prints the totals and exits 0 or 1;
# skip MESSAGE [REQUIRE-VARIABLE] exits 77, or fails when that variable
# (F2FS_REQUIRE_KERNEL, F2FS_REQUIRE_PEER, ...) is 1.
PASS=0 FAIL=0
ok() { PASS=$((PASS + 1)); echo "PASS: $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }
note() { echo "NOTE: $*"; }
finish() { echo "$T: $PASS passed, $FAIL failed"; ((FAIL == 0)) && exit 0; exit 1; }
skip() {
	echo "$T: $1"
	if [[ -n ${2-} && ${!2:-0} == 1 ]]; then echo "$T: $2=1, so this is a failure"; bad "$1"; finish; fi
	echo "$T: skipped"
	exit 77
}
