#!/bin/bash
# Man pages and --help agree: every option a tool's --help lists is in its
# man page; -r's fixed checkpoint version is the same number in mkfs's help,
# its man page and what it writes; the man pages carry one date and
# the package's version (configure.ac); fsck's PROBLEMS table is problem.h's.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
BUILD=${top_builddir:-$HERE/../../build}
SRC=${top_srcdir:-$HERE/../..}
pass=0 fail=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

help_opts() { "$1" --help | grep -oE '(^|[ ,])-[A-Za-z](\b|,)|--[a-z][a-z-]+' | sed 's/^[ ,]*//; s/,$//' | sort -u; }
man_opts() { grep -oE '\\-\\-[a-z]([a-z]|\\-)*|\\-[A-Za-z]\b' "$1" | sed 's/\\//g' | sort -u; }

for t in mkfs fsck dump inject; do
	bin=$BUILD/$t/$t.f2fs man=$SRC/man/$t.f2fs.8
	missing=$(comm -23 <(help_opts "$bin") <(man_opts "$man") | tr '\n' ' ')
	[[ -z $missing ]] && ok "$t: every option of --help is in the man page" ||
		bad "$t: options in --help but not in the man page: $missing"
done

version=$(sed -n 's/^AC_INIT(\[[^]]*\], \[\([^]]*\)\].*/\1/p' "$SRC/configure.ac")
th=$(for t in mkfs fsck dump inject; do sed -n 's/^\.TH [^ ]* 8 \("[^"]*" "[^"]*"\).*/\1/p' "$SRC/man/$t.f2fs.8"; done | sort -u)
if [[ $(wc -l <<<"$th") == 1 && $th == *"\"f2fsprogs $version\"" ]]; then
	ok "man pages: one date and version: $th"
else
	bad "man pages: dates and versions differ or are not $version: $(tr '\n' ' ' <<<"$th")"
fi

img=$(mktemp "${TMPDIR:-/tmp}/docs.XXXXXX") || exit 1
trap 'rm -f "$img"' EXIT
help_r=$("$BUILD/mkfs/mkfs.f2fs" --help | grep -E '^ +-r ' | grep -oE '[0-9]{3,}')
man_r=$(sed -n '/^\.B \\-r$/,/^\.TP/p' "$SRC/man/mkfs.f2fs.8" | grep -oE '[0-9]{3,}' | head -1)
truncate -s 64M "$img"
"$BUILD/mkfs/mkfs.f2fs" -q -f -r "$img" &&
	written=$("$BUILD/dump/dump.f2fs" --json "$img" | tr -d ' ' | grep -oE '"checkpoint_ver":[0-9]+' | head -1 | cut -d: -f2)
if [[ -n $help_r && $help_r == "$man_r" && $help_r == "${written:-}" ]]; then
	ok "-r: help, man page and image agree on version $help_r"
else
	bad "-r: help says ${help_r:-nothing}, the man page ${man_r:-nothing}, the image ${written:-unknown}"
fi

# the man page's problem table is the one fsck/problem.h gives
if python3 "$SRC/scripts/gen-problem-table.py" --check "$SRC/man/fsck.f2fs.8"; then
	ok "fsck.f2fs(8): the PROBLEMS table matches fsck/problem.h"
else
	bad "fsck.f2fs(8): the PROBLEMS table differs from fsck/problem.h (scripts/gen-problem-table.py man/fsck.f2fs.8)"
fi

echo "docs: $pass passed, $fail failed"
[[ $fail == 0 ]]
