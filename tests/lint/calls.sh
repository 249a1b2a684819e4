#!/bin/bash
# Who calls whom, read from the built objects (nm): no two files of fsck's
# checker library call each other both ways (one driver calls the passes,
# the passes call services and hooks, nothing calls back), and no object of
# lib/ uses a symbol defined in a later layer of lib/ or outside lib/.
#   calls.sh   check the build tree (top_builddir), then check that a
#              planted cycle and a planted upward call are caught
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
BUILD=${top_builddir:-$HERE/../../build}
SRC=${top_srcdir:-$HERE/../..}
# shellcheck source=layers.inc
. "$HERE/layers.inc"

# symbols ARCHIVE: "file D|U symbol" lines, file named by the member's
# base name without automake's prefix (libf2fs_a-, ...)
symbols() {
	nm -A "$1" 2>/dev/null | awk '{
		split($1, p, ":"); f = p[2]; sub(/\.o$/, "", f); sub(/^.*_a-/, "", f)
		if (NF == 2 && $2 != "") { print f, "U", $2; next }
		if (NF == 3 && $2 == "U") { print f, "U", $3; next }
		if (NF == 3 && $2 ~ /^[TDBRC]$/) print f, "D", $3
	}'
}

# edges ARCHIVE: "caller callee" for each file using a symbol another defines
edges() {
	symbols "$1" | awk '
		$2 == "D" { def[$3] = $1; next }
		{ use[NR] = $1 " " $3 }
		END {
			for (k in use) {
				split(use[k], u, " ")
				if ((u[2] in def) && def[u[2]] != u[1])
					print u[1], def[u[2]]
			}
		}' | sort -u
}

# both_ways ARCHIVE: pairs of files that call each other both ways
both_ways() {
	edges "$1" | awk '{ e[$1 " " $2] = 1 }
		END { for (k in e) { split(k, p, " ");
			if ((p[2] " " p[1]) in e && p[1] < p[2]) print p[1] " <-> " p[2] } }' | sort
}

# upward ARCHIVE SRCDIR: lib files using a symbol of a later layer; a
# member's layer is the folder of its source under SRCDIR/lib
upward() {
	local from to f t
	edges "$1" | while read -r from to; do
		f=$(layer_of "$2" "$from")
		t=$(layer_of "$2" "$to")
		if [[ $f == "?" || $t == "?" ]]; then
			echo "lib: no source for $from or $to under $2/lib"
		elif (($(rank "$t") > $(rank "$f"))); then
			echo "lib/$f/$from uses lib/$t/$to (layer $f may not use layer $t)"
		fi
	done
}

layer_of() {
	local src
	src=$(ls "$1"/lib/*/"$2".c 2>/dev/null | head -1)
	[[ -n $src ]] && basename "$(dirname "$src")" || echo "?"
}

# check FSCK_ARCHIVE LIB_ARCHIVE SRCDIR
check() {
	local bad=0 out
	out=$(both_ways "$1")
	if [[ -n $out ]]; then
		echo "fsck files calling each other both ways:"
		echo "$out"
		bad=1
	fi
	out=$(upward "$2" "$3")
	if [[ -n $out ]]; then
		echo "$out"
		bad=1
	fi
	return $bad
}

W=$(mktemp -d "${TMPDIR:-/tmp}/calls.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
command -v nm >/dev/null || { echo "calls: nm not found"; exit 77; }
if [[ ! -f $BUILD/fsck/libfsck.a || ! -f $BUILD/lib/libf2fs.a ]]; then
	echo "calls: no libraries built under $BUILD"
	exit 1
fi

rc=0
{
	if check "$BUILD/fsck/libfsck.a" "$BUILD/lib/libf2fs.a" "$SRC"; then
		echo "PASS: calls (fsck: no two-way calls; lib: no upward calls)"
	else
		echo "FAIL: calls"
		rc=1
	fi
	# the rules themselves: a planted cycle and a planted upward call
	cc=${CC:-cc}
	mkdir -p "$W/t/lib/format" "$W/t/lib/fs"
	touch "$W/t/lib/format/low.c" "$W/t/lib/fs/high.c"
	echo 'int b(void); int a(void) { return b(); }' >"$W/a.c"
	echo 'int a(void); int b(void) { return a(); }' >"$W/b.c"
	echo 'int high(void); int low(void) { return high(); }' >"$W/low.c"
	echo 'int high(void) { return 1; }' >"$W/high.c"
	if "$cc" -c "$W/a.c" -o "$W/a.o" && "$cc" -c "$W/b.c" -o "$W/b.o" &&
	   "$cc" -c "$W/low.c" -o "$W/libf2fs_a-low.o" &&
	   "$cc" -c "$W/high.c" -o "$W/libf2fs_a-high.o" &&
	   ar cr "$W/fsck.a" "$W/a.o" "$W/b.o" &&
	   ar cr "$W/lib.a" "$W/libf2fs_a-low.o" "$W/libf2fs_a-high.o"; then
		out=$(check "$W/fsck.a" "$W/lib.a" "$W/t")
		if grep -q 'a <-> b' <<<"$out" && grep -q 'lib/format/low uses lib/fs/high' <<<"$out"; then
			echo "PASS: calls self-test"
		else
			echo "FAIL: calls self-test: planted violations not caught: $out"
			rc=1
		fi
	else
		echo "FAIL: calls self-test: cannot compile the plants"
		rc=1
	fi
}
exit $rc
