#!/bin/bash
# Every fsck image case is a test: tests/fsck/cases.mk, the list automake
# runs, is the one the directories tests/fsck/cases/*/ give (a case missing
# from it would never run, a stale name would fail). Regenerate it with
# scripts/gen-case-list.sh.
set -u
SRC=${top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)}
if "$SRC/scripts/gen-case-list.sh" --check; then
	echo "PASS: tests/fsck/cases.mk lists every case directory"
	echo "case-list: 1 passed, 0 failed"
else
	echo "FAIL: tests/fsck/cases.mk is not the list of tests/fsck/cases/*/ (scripts/gen-case-list.sh)"
	echo "case-list: 0 passed, 1 failed"
	exit 1
fi
