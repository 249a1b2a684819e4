# Shared by the tests/fsck scripts: tool paths and a small varied tree.
HERE=${HERE:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)}
TOP_BUILD=${top_builddir:-$HERE/../..}
FSCK=${FSCK:-$TOP_BUILD/fsck/fsck.f2fs}
MKFS=${MKFS:-$TOP_BUILD/mkfs/mkfs.f2fs}
DAMAGE=${DAMAGE:-$HERE/damage.py}
export LC_ALL=C TZ=UTC

PASS=0 FAIL=0
ok() { PASS=$((PASS + 1)); echo "PASS: $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }

# make_tree DIR: files of several sizes, a directory of 150 long names (more than
# one dentry block), nested directories, symlinks (short and long), hard
# links, xattrs (when setfattr works), an empty file. Content compresses well.
make_tree() {
	local d=$1 i
	mkdir -p "$d/big" "$d/a/b/c" "$d/empty_dir"
	echo hello >"$d/small.txt"
	: >"$d/empty"
	yes 'some text in a file' | head -c 20000 >"$d/a/twenty_k"
	yes 'block' | head -c 2500000 >"$d/a/b/dense"
	truncate -s 4000000 "$d/a/b/sparse" && echo tail >>"$d/a/b/sparse"
	for i in $(seq 1 150); do echo "$i" >"$d/big/a_rather_long_entry_name_$i"; done
	ln -s small.txt "$d/link"
	ln -s "$(printf 'long%.0s' $(seq 1 200))" "$d/a/longlink"
	ln "$d/small.txt" "$d/a/b/c/hard"
	if command -v setfattr >/dev/null 2>&1; then
		setfattr -n user.colour -v blue "$d/small.txt" 2>/dev/null
		setfattr -n user.big -v "$(yes x | head -c 2500 | tr -d '\n')" "$d/a/twenty_k" 2>/dev/null
	fi
	touch -h -d @1700000000 "$d" "$d"/* "$d"/a/* "$d"/a/b/* 2>/dev/null || true
	return 0
}

summary() { echo "$1: $PASS passed, $FAIL failed"; [[ $FAIL -eq 0 ]]; }
