#!/bin/bash
# demo.sh [IMAGE]: build, format a 1 GiB sparse demo image, check it, show it,
# then damage a copy's metadata and repair it.
set -eu
top=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
"$top/scripts/bootstrap.sh" demo
build=$top/${F2FS_BUILD_DIR:-build}
img=${1:-$top/demo.img}

echo
echo "== mkfs.f2fs: a 1 GiB sparse image at $img"
"$build/mkfs/mkfs.f2fs" -f -l demo \
	-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,inode_crtime,lost_found,quota \
	"$img" 2097152
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
	echo "== damage a copy ($bad): a SIT count, the free segment count, a nat_bits bit"
	cp --sparse=always "$img" "$bad"
	python3 "$top/tests/fsck/damage.py" "$bad" sit 0 vblocks 5 -- cp free_segment_count 3 \
		-- natbits full 1 1
	echo
	echo "== fsck.f2fs -n: what is wrong (exit 4: left uncorrected)"
	"$build/fsck/fsck.f2fs" -n "$bad" || echo "   exit $?"
	echo
	echo "== fsck.f2fs -y: repair, one transaction, new checkpoint last (exit 1: corrected)"
	"$build/fsck/fsck.f2fs" -y "$bad" || echo "   exit $?"
	echo
	echo "== fsck.f2fs -n: the second run"
	"$build/fsck/fsck.f2fs" -n "$bad"
	rm -f "$bad"
fi
