#!/bin/bash
# Who calls whom, read from the built objects (nm), between the files of
# lib/, common/, fsck/, dump/ and mkfs/:
# - no call cycle of any length between files: a file that calls another is
#   never called back by it, directly or through others (a cycle means two
#   concepts are tangled, or a function lives in the wrong file);
# - calls go down only: a file of lib/ uses its own layer and those before
#   it, common/ uses lib/, a tool uses lib/, common/ and its own folder.
# A file calls another when its object has an undefined symbol the other's
# object defines; a symbol defined in several folders (main) resolves to the
# caller's own folder.
#   calls.sh   check the build tree (top_builddir), then check that planted
#              cycles, an upward call and a call between tools are caught
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
BUILD=${top_builddir:-$HERE/../../build}
SRC=${top_srcdir:-$HERE/../..}
FOLDERS="lib common fsck dump mkfs inject"
# shellcheck source=layers.inc
. "$HERE/layers.inc"

# objects BUILD SRC: "object file" lines, the file being the object's source
# without .c (lib/fs/nat for lib/fs/libf2fs_a-nat.o: automake's per-target
# prefix dropped); objects with no source (left by an older build) are left out
objects() {
	local top o rel dir base
	for top in $FOLDERS; do
		[[ -d $1/$top ]] || continue
		while IFS= read -r o; do
			rel=${o#"$1"/}
			dir=$(dirname "$rel")
			base=$(basename "$rel" .o)
			[[ -f $2/$dir/$base.c ]] || base=${base#*-}
			[[ -f $2/$dir/$base.c ]] && echo "$o $dir/$base"
		done < <(find "$1/$top" -name '*.o' | sort)
	done
}

# symbols BUILD SRC: "file D|U symbol" lines
symbols() {
	local o f
	objects "$1" "$2" | while read -r o f; do
		nm "$o" 2>/dev/null | awk -v f="$f" '
			NF == 2 && $1 == "U" { print f, "U", $2; next }
			NF == 3 && $2 ~ /^[TDBRCGSVW]$/ { print f, "D", $3 }'
	done
}

# edges BUILD SRC: "caller callee" for each file using a symbol another
# defines; a symbol defined in several folders and not in the caller's is
# reported as "ambiguous"
edges() {
	symbols "$1" "$2" | awk '
		function folder(f) { sub(/\/[^\/]*$/, "", f); return f }
		$2 == "D" { defs[$3] = defs[$3] " " $1; next }
		{ use[++n] = $1 " " $3 }
		END {
			for (k = 1; k <= n; k++) {
				split(use[k], u, " ")
				if (!(u[2] in defs)) continue
				m = split(defs[u[2]], d, " ")
				to = ""; amb = 0
				for (i = 1; i <= m; i++) {
					if (folder(d[i]) == folder(u[1])) { to = d[i]; amb = 0; break }
					if (to != "" && to != d[i]) amb = 1
					to = d[i]
				}
				if (amb) print "ambiguous", u[1], u[2] ":" defs[u[2]]
				else if (to != u[1]) print u[1], to
			}
		}' | sort -u
}

# cycles: reads "caller callee" lines, prints each cycle as a chain
# "a -> b -> c -> a": the strongly connected components of the call graph,
# each shown by the shortest cycle through its first file, then through each
# of its files not shown yet
cycles() {
	python3 -c '
import sys
from collections import deque
succ = {}
for line in sys.stdin:
    a, b = line.split()
    succ.setdefault(a, set()).add(b)
    succ.setdefault(b, set())
# Tarjan, iterative (no recursion limit to meet)
index, low, on, stack, comps, n = {}, {}, set(), [], [], 0
for root in sorted(succ):
    if root in index:
        continue
    work = [(root, iter(sorted(succ[root])))]
    index[root] = low[root] = n; n += 1; stack.append(root); on.add(root)
    while work:
        v, it = work[-1]
        for w in it:
            if w not in index:
                index[w] = low[w] = n; n += 1; stack.append(w); on.add(w)
                work.append((w, iter(sorted(succ[w]))))
                break
            if w in on:
                low[v] = min(low[v], index[w])
        else:
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop(); on.discard(w); comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(comp)
def shortest_cycle(start, comp):
    prev, todo = {start: None}, deque([start])
    while todo:
        v = todo.popleft()
        for w in sorted(succ[v] & comp):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return [start] + path[::-1][1:] + [start]
            if w not in prev:
                prev[w] = v; todo.append(w)
for comp in sorted(comps, key=min):
    shown = set()
    for f in sorted(comp):
        if f not in shown:
            c = shortest_cycle(f, comp)
            shown.update(c)
            print(" -> ".join(c))
'
}

# rank_of FILE: where a file may sit in the order of calls: lib/ by layer,
# then common/, then the tools (each its own folder); -1 when unknown
rank_of() {
	local f
	case $1 in
	lib/*/*) f=${1#lib/}; rank "${f%%/*}" ;;
	common/*) echo "${#LAYERS[@]}" ;;
	fsck/* | dump/* | mkfs/* | inject/*) echo $((${#LAYERS[@]} + 1)) ;;
	*) echo -1 ;;
	esac
}

# upward: reads "caller callee" lines, prints each call to a later layer, out
# of lib/ or common/, or from one tool to another
upward() {
	local from to f t
	while read -r from to; do
		f=$(rank_of "$from")
		t=$(rank_of "$to")
		if ((f < 0 || t < 0)); then
			echo "$from uses $to: not in a layer (${LAYERS[*]}), common/ or a tool"
		elif ((t > f)); then
			echo "$from uses $to (a file may use only files of its own layer or those before it)"
		elif ((t == f && f == ${#LAYERS[@]} + 1)) && [[ ${from%%/*} != "${to%%/*}" ]]; then
			echo "$from uses $to (a tool may not use another tool)"
		fi
	done
}

# check BUILD SRC: prints the cycles and upward calls; exit 1 if any
check() {
	local bad=0 all out
	all=$(edges "$1" "$2")
	if [[ -z $all ]]; then
		echo "no calls found between the objects under $1"
		return 1
	fi
	out=$(grep '^ambiguous ' <<<"$all")
	if [[ -n $out ]]; then
		echo "symbols defined in several folders, none the caller's:"
		echo "$out"
		bad=1
	fi
	all=$(grep -v '^ambiguous ' <<<"$all")
	out=$(cycles <<<"$all") || bad=1
	if [[ -n $out ]]; then
		echo "files calling each other in a cycle:"
		echo "$out"
		bad=1
	fi
	out=$(upward <<<"$all")
	if [[ -n $out ]]; then
		echo "calls against the layers:"
		echo "$out"
		bad=1
	fi
	return $bad
}

command -v nm >/dev/null || { echo "calls: nm not found"; exit 77; }
command -v python3 >/dev/null || { echo "calls: python3 not found"; exit 77; }
if [[ ! -f $BUILD/fsck/libfsck.a || ! -f $BUILD/lib/libf2fs.a ]]; then
	echo "calls: no libraries built under $BUILD"
	exit 1
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/calls.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT

rc=0
if check "$BUILD" "$SRC"; then
	echo "PASS: calls (no call cycles between files; calls go down the layers)"
else
	echo "FAIL: calls"
	rc=1
fi

# the rules themselves, in a tree of their own: a cycle of three files, a
# cycle through main (defined in two folders: the caller's own is meant), an
# upward call in lib/ and a tool calling another tool
plant() { # plant FILE CODE: the source in $W/src, its object in $W/build
	local dir base
	dir=$(dirname "$1")
	base=$(basename "$1" .c)
	mkdir -p "$W/src/$dir" "$W/build/$dir"
	echo "$2" >"$W/src/$1"
	"${CC:-cc}" -c "$W/src/$1" -o "$W/build/$dir/${3:-}$base.o"
}
if plant lib/format/low.c 'int high(void); int low(void) { return high(); }' libf2fs_a- &&
   plant lib/fs/high.c 'int high(void) { return 1; }' libf2fs_a- &&
   plant dump/a.c 'int b(void); int a(void) { return b(); }' dump_f2fs- &&
   plant dump/b.c 'int c(void); int b(void) { return c(); }' dump_f2fs- &&
   plant dump/c.c 'int a(void); int c(void) { return a(); }' dump_f2fs- &&
   plant mkfs/main.c 'int a(void); int main(void) { return a(); }' mkfs_f2fs- &&
   plant fsck/main.c 'int d(void); int main(void) { return d(); }' &&
   plant fsck/d.c 'int main(void); int d(void) { return main(); }'; then
	out=$(check "$W/build" "$W/src")
	if grep -qx 'dump/a -> dump/b -> dump/c -> dump/a' <<<"$out" &&
	   grep -qx 'fsck/d -> fsck/main -> fsck/d' <<<"$out" &&
	   grep -q '^lib/format/low uses lib/fs/high ' <<<"$out" &&
	   grep -q '^mkfs/main uses dump/a (a tool may not use another tool)' <<<"$out"; then
		echo "PASS: calls self-test, the plants caught:"
		while IFS= read -r line; do echo "  $line"; done <<<"$out"
	else
		echo "FAIL: calls self-test: planted violations not caught:"
		echo "$out"
		rc=1
	fi
else
	echo "FAIL: calls self-test: cannot compile the plants"
	rc=1
fi
exit $rc
