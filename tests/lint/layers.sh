#!/bin/bash
# The direction of dependencies: lib/ is in layers, util < format < io < fs <
# write < build, and a file of one layer (lib/L/ or include/f2fs/L/) may
# include the headers of its own layer and of the layers before it, never
# those after it. lib/ and include/ never include a tool's files (fsck/,
# dump/, mkfs/, common/); a tool never includes another tool's files.
# fsck/ is in folders too (fsck_rank below).
#   layers.sh [TOP]       check the tree at TOP (default: the source tree)
#   layers.sh --self-test check that a planted violation of each rule fails
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=layers.inc
. "$HERE/layers.inc"

# fsck's folders: the public header (checker.h, problem.h: 0), the checker's
# passes and records (check/: 1), the repair (repair/, the roll-forward
# recovery in repair/roll/: 2), the driver of both (checker.c: 3), the tool
# (main.c, info.c: 4). A file uses its own rank and those below; the tool
# uses libfsck through the public header alone; a header named *_int.h is
# private to its folder and the folders below it.
fsck_rank() {
	case $1 in
	fsck/checker.h | fsck/problem.h | fsck/problem.c) echo 0 ;;
	fsck/check/*) echo 1 ;;
	fsck/repair/*) echo 2 ;;
	fsck/checker.c) echo 3 ;;
	*) echo 4 ;;
	esac
}

# fsck_allows FILE HEADER (both relative to the top): 0, or 1 with why
fsck_allows() {
	local r t
	r=$(fsck_rank "$1")
	t=$(fsck_rank "$2")
	if [[ $2 == *_int.h && $1 != "$(dirname "$2")"/* ]]; then
		echo "private to $(dirname "$2")/"
		return 1
	fi
	if ((t > r)); then
		echo "rank $r may not use rank $t: check/ < repair/ < checker.c < the tool"
		return 1
	fi
	if ((r == 4 && t > 0 && t < 4)); then
		echo "the tool uses libfsck through checker.h only"
		return 1
	fi
	return 0
}

# check TOP: prints each violation as "file: includes X (why)"; exit 1 if any
check() {
	local top=$1 bad=0 f layer r inc target tr tool path why
	while IFS= read -r f; do
		layer=${f#"$top"/}
		case $layer in
		lib/*) layer=${layer#lib/} ;;
		include/f2fs/*) layer=${layer#include/f2fs/} ;;
		esac
		layer=${layer%%/*}
		r=$(rank "$layer")
		if ((r < 0)); then
			echo "${f#"$top"/}: not in a layer folder (${LAYERS[*]})"
			bad=1
			continue
		fi
		while IFS= read -r inc; do
			case $inc in
			'<f2fs/'*)
				target=${inc#<f2fs/}
				target=${target%%/*}
				tr=$(rank "$target")
				if ((tr < 0)); then
					echo "${f#"$top"/}: includes $inc, which is in no layer"
					bad=1
				elif ((tr > r)); then
					echo "${f#"$top"/}: includes $inc (layer $layer may not use layer $target)"
					bad=1
				fi
				;;
			'"'*)
				target=${inc//\"/}
				if [[ $target == */* ]]; then
					echo "${f#"$top"/}: includes $inc (a library file includes its own folder's headers by name, others as <f2fs/LAYER/...>)"
					bad=1
				elif [[ $f == "$top"/lib/* && ! -e $(dirname "$f")/$target ]]; then
					echo "${f#"$top"/}: includes $inc, which is not in its folder"
					bad=1
				fi
				;;
			esac
		done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"][^>"]*[>"]\).*/\1/p' "$f")
	done < <(find "$top/lib" "$top/include" -name '*.[ch]' | sort)
	# a tool includes lib's public headers, its own files and common/ only
	for tool in mkfs dump fsck common; do
		[[ -d $top/$tool ]] || continue
		while IFS= read -r f; do
			while IFS= read -r inc; do
				target=${inc//\"/}
				path=$(realpath -m --relative-to="$top" "$(dirname "$f")/$target")
				case $path in
				common/*) [[ -e $top/$path ]] && continue ;;
				esac
				if [[ $path != "$tool"/* || ! -e $top/$path ]]; then
					echo "${f#"$top"/}: includes $inc (a tool's own header or ../common/ only)"
					bad=1
				elif [[ $tool == fsck ]]; then
					why=$(fsck_allows "${f#"$top"/}" "$path") ||
						{ echo "${f#"$top"/}: includes $inc ($why)"; bad=1; }
				fi
			done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\("[^"]*"\).*/\1/p' "$f")
		done < <(find "$top/$tool" -name '*.[ch]' | sort)
	done
	return $bad
}

self_test() {
	local w fails=0 plant
	w=$(mktemp -d "${TMPDIR:-/tmp}/layers.XXXXXX") || exit 1
	trap 'rm -rf "$w"' RETURN
	if ! check "$1" >/dev/null; then
		echo "FAIL: layers: the tree itself breaks the rules; nothing to plant into"
		return 1
	fi
	for plant in 'lib/format/x.c:#include <f2fs/fs/fs.h>' \
		     'include/f2fs/io/x.h:#include <f2fs/build/mkfs.h>' \
		     'lib/util/x.c:#include "../../fsck/check.h"' \
		     'lib/nolayer/x.c:#include <f2fs/util/error.h>' \
		     'dump/x.c:#include "../fsck/check/ck.h"' \
		     'fsck/check/x.c:#include "../repair/repair.h"' \
		     'fsck/check/x.c:#include "../repair/repair_int.h"' \
		     'fsck/repair/x.c:#include "roll/roll_int.h"' \
		     'fsck/x.c:#include "check/ck.h"' \
		     'fsck/x.c:#include "repair/repair.h"' \
		     'common/x.c:#include "../dump/dump.h"' \
		     'fsck/x.c:#include "../dump/dump.h"'; do
		rm -rf "${w:?}"/*
		cp -r "$1/lib" "$1/include" "$1/fsck" "$1/dump" "$1/mkfs" "$1/common" "$w/"
		mkdir -p "$w/$(dirname "${plant%%:*}")"
		echo "${plant#*:}" >"$w/${plant%%:*}"
		if check "$w" >/dev/null; then
			echo "FAIL: layers: a planted ${plant%%:*} (${plant#*:}) was not caught"
			fails=1
		fi
	done
	return $fails
}

top=${top_srcdir:-$HERE/../..}
if [[ ${1:-} == --self-test ]]; then
	self_test "$top" && echo "PASS: layers self-test"
	exit
fi
[[ $# -gt 0 ]] && top=$1
rc=0
if check "$top"; then
	echo "PASS: layers (${LAYERS[*]})"
else
	echo "FAIL: layers"
	rc=1
fi
# the rules themselves: each planted violation must be caught
if [[ $# -eq 0 ]]; then
	self_test "$top" && echo "PASS: layers self-test" || rc=1
fi
exit $rc
