#!/bin/bash
# Regenerate the image cases the real kernel wrote (maintainers only; the
# cases are committed, so that run-cases.sh checks them without QEMU). Needs
# tests/kernel/kvm-run and a static C compiler, like kernel-compress.sh.
#
#   make-kernel-cases.sh [--expect]
#
# roll-forward-kernel, roll-forward-kernel-quota, roll-forward-kernel-casefold
#   are not made here: they are the power-cut images (p0, p1, p2) of a run of
#   F2FS_ROLL_KEEP=1 tests/fsck/kernel-rollforward.sh (seeds 1 to 3), saved
#   with save_case NAME -n IMAGE: fsck -n says what the roll-forward recovery
#   would do, -y does it (expect.1), and the result checks clean (expect.2)
# roll-forward-kernel-encrypt: p5 of such a run with the default six seeds
#   (-O extra_attr,inode_checksum,encrypt,casefold -C utf8; new/ casefolded
#   and encrypted, so its names are cipher text with the hash kept after them)
# roll-forward-kernel-unlink: also saved by hand, from a power cut after this
#   job on a default 128M image: /mnt/d with a, h and its hard link hl, an
#   empty directory dd, a 3000-block file big and f0..f299; sync; then, each
#   step ended by an fsync of the new file: a, hl, dd, big and f77 removed
#   and made again as small files of the same name, and b made, fsync'd,
#   removed and made again. The recovery unlinks the six old inodes (h keeps
#   its other link; dd was a directory) before it adds the new names
# kernel-compressed: compression (lz4, compress_extension=*): compressed
#   clusters, a cluster overwritten with noise, a truncated file, a file left
#   released by F2FS_IOC_RELEASE_COMPRESS_BLOCKS and one released and
#   reserved again (valid_block_count, i_blocks and i_compr_blocks count
#   COMPRESS_ADDR and the reserved NEW_ADDR; see include/f2fs/format/compress.h)
# inode-compr-blocks: the same image, i_compr_blocks of /d/kept off by 5
# kernel-ssr-summary: filled, every other file removed, then GC forced
#   (gc_urgent) until a data log allocates by SSR: the checkpoint's compacted
#   summaries hold all 512 entries of that log (f2fs_data_sum_counts); the
#   script refuses an image whose checkpoint does not show that
set -eu
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
CASES=$HERE/cases
DUMP=${DUMP:-$TOP_BUILD/dump/dump.f2fs}
WANT_EXPECT=0
if [[ ${1:-} == --expect ]]; then WANT_EXPECT=1; shift; fi

W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-kcases.XXXXXX")
trap 'rm -rf "$W"' EXIT
"${CC:-cc}" -static -O2 -Wall -Wextra -o "$W/fsck-fsops" "$HERE/guest-fsops.c"
truncate -s 64M "$W/c.img"
truncate -s 128M "$W/s.img"
"$MKFS" -q -f -T 1700000000 -U 01234567-89ab-cdef-0123-456789abcdef \
	-O extra_attr,compression "$W/c.img"
"$MKFS" -q -f -T 1700000000 -U 01234567-89ab-cdef-0123-456789abcdef "$W/s.img"
cat >"$W/job.sh" <<'EOF'
set -e
mount -t f2fs -o compress_algorithm=lz4,compress_extension=* /dev/vda /mnt
mkdir /mnt/d
yes "alpha line of text" | head -c 300000 > /mnt/d/kept
yes "beta" | head -c 1000000 > /mnt/d/released
yes "gamma gamma" | head -c 200000 > /mnt/d/rereserved
yes "delta" | head -c 150000 > /mnt/d/cut
dd if=/dev/urandom of=/mnt/d/noise bs=4k count=8 2>/dev/null
dd if=/dev/urandom of=/mnt/d/kept bs=4k seek=16 count=3 conv=notrunc 2>/dev/null
sync
truncate -s 70000 /mnt/d/cut
sync
fsck-fsops release /mnt/d/released
fsck-fsops release /mnt/d/rereserved
fsck-fsops reserve /mnt/d/rereserved
umount /mnt
mount -t f2fs /dev/vdb /mnt
mkdir /mnt/f /mnt/d
fsck-fsops fill /mnt/f 16
fsck-fsops thin /mnt/f
fsck-fsops many /mnt/d 400
sync
echo 1 > /sys/fs/f2fs/vdb/gc_urgent
sleep 6
echo 0 > /sys/fs/f2fs/vdb/gc_urgent
umount /mnt
echo all-done
EOF
out=$("$HERE/../kernel/kvm-run" --timeout 600 --file "$W/fsck-fsops" --extra "$W/s.img" \
	"$W/c.img" "$W/job.sh")
[[ $out == *all-done* ]] || { echo "$out"; exit 1; }
cp="$("$DUMP" --cp "$W/s.img")"
ssr=$(awk '$1 == "alloc_type" { print ($2 == 1 || $3 == 1 || $4 == 1) }' <<<"$cp")
if ! grep -q compacted_summary <<<"$cp" || [[ $ssr != 1 ]]; then
	echo "make-kernel-cases: the SSR image has no SSR log in a compacted summary; run again"
	exit 1
fi

# NAME|fsck options|image|shell code run with $IMG set
CASE_LIST=(
"kernel-compressed|-n|c|:"
"inode-compr-blocks|-n|c|D=\$(python3 \"\$DAMAGE\" \"\$IMG\" get inode /d/kept compr_blocks); python3 \"\$DAMAGE\" \"\$IMG\" inode /d/kept compr_blocks \$((D + 5))"
"kernel-ssr-summary|-n|s|:"
)
for row in "${CASE_LIST[@]}"; do
	IFS='|' read -r name opts src code <<<"$row"
	IMG=$W/image
	cp --sparse=always "$W/$src.img" "$IMG"
	eval "$code"
	save_case "$name" "$opts" "$IMG" "$CASES" "$WANT_EXPECT"
done
