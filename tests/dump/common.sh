# Shared by the tests/dump scripts (sourced). Sets DUMP, MKFS, W, PASS/FAIL
# and the helpers ok, bad, check, run, expect_error, json_ok, finish.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
top_builddir=${top_builddir:-$HERE/../..}
top_srcdir=${top_srcdir:-$HERE/../..}
MKFS=${MKFS:-$top_builddir/mkfs/mkfs.f2fs}
DUMP=${DUMP:-$top_builddir/dump/dump.f2fs}
SITEDIT="python3 $top_srcdir/tests/dump/sitedit.py"
GENTREE="python3 $top_srcdir/tests/rootdir/gentree.py"
MANIFEST="python3 $top_srcdir/tests/rootdir/manifest.py"
export LC_ALL=C TZ=UTC

W=$(mktemp -d "${TMPDIR:-/tmp}/${NAME:-dump}.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
PASS=0 FAIL=0
ok() { PASS=$((PASS + 1)); echo "PASS: $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }
check() { # check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then ok "$what"; else bad "$what"; fi
}

# Run dump; sets rc, out (stdout), err (stderr).
run() {
	"$DUMP" "$@" >"$W/out" 2>"$W/err"
	rc=$?
	out=$(cat "$W/out")
	err=$(cat "$W/err")
}

# An error exit: status 1, nothing on stdout, one "dump.f2fs: ..." line on stderr.
expect_error() { # expect_error DESCRIPTION ARGS...
	local what=$1
	shift
	run "$@"
	if [[ $rc -eq 1 && -z $out && $(wc -l <"$W/err") -eq 1 && $err == "dump.f2fs: "* ]]; then
		ok "$what ($err)"
	else
		bad "$what: rc=$rc stdout=[${out:0:200}] stderr=[$err]"
	fi
}

# The last run's stdout is one valid JSON document.
json_ok() { # json_ok DESCRIPTION
	if [[ $rc -eq 0 ]] && python3 -m json.tool "$W/out" >/dev/null 2>"$W/json.err"; then
		ok "$1"
	else
		bad "$1: rc=$rc $(head -c 300 "$W/json.err")"
	fi
}

# Value of a JSON path in the last run's stdout: jq-like "a.b.0.c".
jget() {
	python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v[int(k)] if isinstance(v, list) else v[k]
print(v)' "$W/out" "$1"
}

need_tools() {
	if [[ ! -x $DUMP || ! -x $MKFS ]]; then
		echo "$NAME: $DUMP or $MKFS not built"
		exit 1
	fi
}

finish() {
	echo "$NAME: $PASS passed, $FAIL failed"
	[[ $FAIL -eq 0 ]]
}
