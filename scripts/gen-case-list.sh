#!/bin/bash
# gen-case-list.sh [--check]: tests/fsck/cases.mk, the automake list of the
# fsck image cases, one test per directory tests/fsck/cases/NAME/ (named
# tests/fsck/case/NAME.case, run by tests/fsck/run-cases.sh NAME). automake
# cannot list a directory itself, so the list is written here from the
# directories and committed. With --check, exit 1 when the committed list
# is not the one the directories give.
set -eu
export LC_ALL=C
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
list=$top/tests/fsck/cases.mk

make_list() {
	echo "# The fsck image cases, a test each (fsck/local.mk): written by"
	echo "# scripts/gen-case-list.sh from the directories tests/fsck/cases/*/."
	echo "FSCK_CASES = \\"
	for d in "$top"/tests/fsck/cases/*/; do
		printf '\ttests/fsck/case/%s.case \\\n' "$(basename "$d")"
	done | sed '$ s/ \\$//'
}

if [[ ${1:-} == --check ]]; then
	cmp -s <(make_list) "$list"
	exit
fi
make_list >"$list.tmp" && mv "$list.tmp" "$list"
