#!/bin/bash
# check.sh: build and run the whole test suite (unit, peer cross-checks,
# CLI, real-kernel tests). As root it installs what is missing first.
# Prints one closing line: "tests: N passed, M failed, K skipped".
#   F2FS_BUILD_DIR, F2FS_CONFIGURE_FLAGS  as for scripts/bootstrap.sh
#   F2FS_KERNEL_TESTS=skip                leave out the QEMU kernel tests
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
"$top/scripts/bootstrap.sh" test || exit 1
build=$top/${F2FS_BUILD_DIR:-build}
# when everything could be installed, nothing may silently skip
if ((EUID == 0)); then
	export F2FS_REQUIRE_PEER=${F2FS_REQUIRE_PEER:-1}
	export F2FS_REQUIRE_FUZZ=${F2FS_REQUIRE_FUZZ:-1}
	[[ ${F2FS_KERNEL_TESTS:-auto} != skip ]] && export F2FS_REQUIRE_KERNEL=${F2FS_REQUIRE_KERNEL:-1}
fi
make -C "$build" -s -j"$(nproc)" check >"$build/check.out" 2>&1
rc=$?
grep -E '^(PASS|FAIL|SKIP|ERROR|XFAIL|XPASS):' "$build/check.out" || true
"$top/scripts/test-summary.sh" "$build" || rc=1
if ((rc != 0)); then
	echo "check.sh: failures; logs:"
	for log in $(find "$build/tests" -name '*.log' -exec grep -lE '^(FAIL|ERROR)' {} + 2>/dev/null); do
		echo "---- $log"
		tail -40 "$log"
	done
	grep -A3 -E '^(FAIL|ERROR):' "$build/check.out" | head -40
fi
exit $rc
