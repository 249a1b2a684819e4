#!/bin/bash
# demo.sh [IMAGE]: build, format a 1 GiB sparse demo image, check it, show it,
# then damage a copy (metadata, directory entries) and repair it.
set -eu
top=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
"$top/scripts/bootstrap.sh" demo
build=$top/${F2FS_BUILD_DIR:-build}
img=${1:-$top/demo.img}

tree=$(mktemp -d "${TMPDIR:-/tmp}/demo-tree.XXXXXX")
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/docs/notes" "$tree/photos"
echo "hello from f2fsprogs" >"$tree/docs/readme.txt"
seq 1 20000 >"$tree/docs/notes/numbers.txt"
head -c 300000 /dev/urandom >"$tree/photos/holiday.jpg"
ln -s ../docs/readme.txt "$tree/photos/readme"

echo
echo "== mkfs.f2fs: a 1 GiB sparse image at $img, holding a small tree"
"$build/mkfs/mkfs.f2fs" -f -l demo \
	-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,inode_crtime,lost_found,quota \
	--rootdir "$tree" "$img" 2097152
echo "   (on disk: $(du -h "$img" | cut -f1) of $(du -h --apparent-size "$img" | cut -f1))"

echo
if [[ -x $build/fsck/fsck.f2fs ]]; then
	echo "== fsck.f2fs -n (ours)"
	"$build/fsck/fsck.f2fs" -n "$img"
else
	echo "== check with f2fs-tools' fsck.f2fs --dry-run (our fsck is not built yet), on a copy"
	cp --sparse=always "$img" "$img.check"
	/usr/sbin/fsck.f2fs -f --dry-run "$img.check" | grep -E '^\[FSCK\]|checkpoint state'
	rm -f "$img.check"
fi

if [[ -x $build/dump/dump.f2fs ]]; then
	echo
	echo "== dump.f2fs: what is inside"
	"$build/dump/dump.f2fs" "$img"
	echo
	echo "== dump.f2fs --ls /"
	"$build/dump/dump.f2fs" --ls / "$img"
fi
if [[ -x $build/fsck/fsck.f2fs ]] && command -v python3 >/dev/null 2>&1; then
	bad=$img.damaged
	echo
	echo "== damage a copy ($bad): a SIT count, the free segment count, a nat_bits bit,"
	echo "   an entry's file type, the entry of /photos/holiday.jpg removed"
	cp --sparse=always "$img" "$bad"
	python3 "$top/tests/fsck/damage.py" "$bad" sit 0 vblocks 5 -- cp free_segment_count 3 \
		-- natbits full 1 1 -- dentry /docs readme.txt file_type 2 \
		-- dentry /photos holiday.jpg unlink 0
	echo
	echo "== fsck.f2fs -n: what is wrong (exit 4: left uncorrected)"
	"$build/fsck/fsck.f2fs" -n "$bad" || echo "   exit $?"
	echo
	echo "== fsck.f2fs -y: repair, one transaction, new checkpoint last (exit 1: corrected)"
	"$build/fsck/fsck.f2fs" -y "$bad" || echo "   exit $?"
	echo
	echo "== fsck.f2fs -n: the second run"
	"$build/fsck/fsck.f2fs" -n "$bad"
	if [[ -x $build/dump/dump.f2fs ]]; then
		echo
		echo "== dump.f2fs --ls /lost+found: the file whose entry was lost, by its inode number"
		"$build/dump/dump.f2fs" --ls /lost+found "$bad"
	fi
	rm -f "$bad"
fi
