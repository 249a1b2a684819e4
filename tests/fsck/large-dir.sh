#!/bin/bash
# A directory large enough that some of its dentry blocks are mapped through
# a direct node, not the inode: fsck reads those blocks only after the node
# sweep, by reading the direct node again (fsck/check/pass_dirs.c,
# read_dir_dnodes). If it missed them, their entries would not be counted
# and their files would be reported as unreachable.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
for x in "$FSCK" "$MKFS"; do
	if [[ ! -x $x ]]; then
		echo "large-dir: $x not built"
		exit 1
	fi
done
W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-large-dir.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT

N=60000
mkdir -p "$W/tree/d"
python3 - "$W/tree/d" "$N" <<'PY'
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    os.close(os.open(os.path.join(d, "entry_with_a_name_%d" % i), os.O_CREAT | os.O_WRONLY, 0o644))
PY
truncate -s 1G "$W/img"
if ! "$MKFS" -q -f --rootdir "$W/tree" "$W/img" >"$W/mkfs.out" 2>&1; then
	bad "mkfs --rootdir of $N entries"
	cat "$W/mkfs.out"
	summary large-dir
	exit
fi
rc=0
"$FSCK" -f -n "$W/img" >"$W/out" 2>&1 || rc=$?
# inodes: root, d and the files; nodes: those plus d's direct node(s);
# entries: the files plus "." and ".." of root and d plus d itself
inodes=$((N + 2))
if [[ $rc -eq 0 ]] && grep -q "^$W/img: clean\$" "$W/out"; then
	ok "$N-entry directory checks clean"
else
	bad "$N-entry directory checks clean (exit $rc)"
	head -5 "$W/out"
fi
line=$(grep " inodes (" "$W/out")
nodes=$(sed -n 's/.* \([0-9]*\) nodes,.*/\1/p' <<<"$line")
entries=$(sed -n 's/.* \([0-9]*\) entries$/\1/p' <<<"$line")
if [[ $line == *": $inodes inodes ("* && ${nodes:-0} -gt $inodes ]]; then
	ok "directory has direct nodes ($nodes nodes for $inodes inodes)"
else
	bad "directory has direct nodes: $line"
fi
if [[ ${entries:-0} -eq $((N + 5)) ]]; then
	ok "every entry read ($entries)"
else
	bad "every entry read: $entries, want $((N + 5))"
fi
summary large-dir
