#!/bin/bash
# Make the kernel-aged bases of the repair matrix (repair-matrix.sh) once;
# maintainers only: the images are committed as matrix-bases/NAME.img.bz2,
# because ageing under QEMU (TCG) takes minutes, too long for every run.
#
#   make-matrix-bases.sh [NAME...]      (default: every base below)
#
# Each base: f2fs-tools' mkfs.f2fs (fixed time, UUID and checkpoint seed),
# then the real kernel (tests/kernel/kvm-run) mounts it, unpacks the tree of
# common.sh (make_tree; a tar on a second disk, its xattrs set by fsck-tree
# setx) and ages the volume until its logs allocate by SSR:
#   fill   /age/a with 32 KiB files until ENOSPC
#   thin   unlink every other one: most segments left half valid
#   SSR    min_ssr_sections (sysfs) set high: a log that needs a new
#          segment takes a dirty one (SSR) instead of a free one
#   refill /age/b with 64 KiB files until ENOSPC (into the holes)
#   GC     F2FS_IOC_GARBAGE_COLLECT, foreground, synchronous, up to 8
#          passes (the moved blocks go to the cold data log, by SSR)
#   thin   /age/b; then 300 small files (1..4000 bytes, a third renamed)
#   refill /age/c with 16 KiB files until ENOSPC, thin it
#   urgent gc_urgent=1 (GC_URGENT_HIGH: every log that moves on takes a
#          dirty segment), 800 small files, 4 more GC passes, 5 s of
#          the kernel's urgent background GC, gc_urgent=0
# then unmounts. The kernel's timing makes the result vary from run to
# run: a run whose checkpoint shows no data log in SSR mode (dump.f2fs
# --cp: alloc_type, 1 = SSR) is made again, up to F2FS_BASE_TRIES times
# (default 8). The script refuses an image that our fsck or f2fs-tools'
# fsck.f2fs does not find clean. Needs kvm-run, a
# static C compiler and f2fs-tools.
#
# Bases (NAME|mkfs.f2fs options|size):
#   kernel-ssr        default features, 128 MiB
# (A second one with the Android feature set, extra_attr, inode_checksum,
# flexible_inline_xattr, lost_found, sb_checksum and quota, showed no SSR
# data log at unmount in some 25 runs of this ageing: not made for now.)
set -eu
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
. "$HERE/../lib/peer-fsck.sh"
DUMP=${DUMP:-$TOP_BUILD/dump/dump.f2fs}
PEER_MKFS=${PEER_MKFS:-/usr/sbin/mkfs.f2fs}
OUT=$HERE/matrix-bases

BASES=(
"kernel-ssr||128M"
)

W=$(mktemp -d "${TMPDIR:-/tmp}/matrix-bases.XXXXXX")
trap 'rm -rf "$W"' EXIT
"${CC:-cc}" -static -O2 -Wall -Wextra -o "$W/fsck-fsops" "$HERE/guest-fsops.c"
"${CC:-cc}" -static -O2 -Wall -Wextra -o "$W/fsck-tree" "$HERE/guest-tree.c"
make_tree "$W/tree"
# the tree without xattrs (busybox tar drops them), padded to whole sectors
tar -C "$W/tree" --owner=0 --group=0 --format=gnu -cf "$W/tree.tar" .
truncate -s $((($(stat -c %s "$W/tree.tar") + 1048575) / 1048576 * 1048576)) "$W/tree.tar"

mkdir -p "$OUT"
for row in "${BASES[@]}"; do
	IFS='|' read -r name opts size <<<"$row"
	if (($#)); then
		want=0
		for n in "$@"; do [[ $n == "$name" ]] && want=1; done
		((want)) || continue
	fi
	img=$W/$name.img
	for ((try = 1; ; try++)); do
	rm -f "$img"
	truncate -s "$size" "$img"
	# shellcheck disable=SC2086
	"$PEER_MKFS" -q -f -r -T 1700000000 -U 01234567-89ab-cdef-0123-456789abcdef $opts "$img" >/dev/null
	cat >"$W/job.sh" <<'EOF'
set -e
mount -t f2fs /dev/vda /mnt
tar -xf /dev/vdb -C /mnt
fsck-tree setx /mnt/small.txt user.colour blue
fsck-tree setx /mnt/a/twenty_k user.big "$(yes x | head -c 2500 | tr -d '\n')"
sync
mkdir -p /mnt/age/a /mnt/age/b /mnt/age/c /mnt/age/m /mnt/age/n
fsck-fsops fill /mnt/age/a 32
fsck-fsops thin /mnt/age/a
sync
echo 10000 >/sys/fs/f2fs/vda/min_ssr_sections
fsck-fsops fill /mnt/age/b 64
fsck-fsops gc /mnt 8
fsck-fsops thin /mnt/age/b
fsck-fsops many /mnt/age/m 300
sync
fsck-fsops fill /mnt/age/c 16
sync
fsck-fsops thin /mnt/age/c
echo 1 >/sys/fs/f2fs/vda/gc_urgent
fsck-fsops many /mnt/age/n 800
fsck-fsops gc /mnt 4
sleep 5
sync
echo 0 >/sys/fs/f2fs/vda/gc_urgent
umount /mnt
echo ageing-done
EOF
	out=$("$KVM_RUN" --timeout 900 --file "$W/fsck-fsops" --file "$W/fsck-tree" \
		--extra "$W/tree.tar" "$img" "$W/job.sh" 2>&1) || true
	printf '%s\n' "$out"
	[[ $out == *ageing-done* ]] || { echo "make-matrix-bases: $name: the guest job failed"; exit 1; }
	cp=$("$DUMP" --cp "$img")
	grep -E '^ *alloc_type' <<<"$cp"
	ssr=$(awk '$1 == "alloc_type" { print ($2 == 1 || $3 == 1 || $4 == 1) }' <<<"$cp")
	[[ $ssr == 1 ]] && break
	echo "make-matrix-bases: $name: no data log in SSR mode (try $try)"
	((try < ${F2FS_BASE_TRIES:-8})) || exit 1
	done
	"$FSCK" -f -n "$img" | tail -2
	if ! why=$(peer_fsck_clean "$img" "$W/copy.img"); then
		echo "make-matrix-bases: $name: f2fs-tools' fsck: $why"
		exit 1
	fi
	bzip2 -9c "$img" >"$OUT/$name.img.bz2"
	echo "made $OUT/$name.img.bz2 ($(stat -c %s "$OUT/$name.img.bz2") bytes)"
done
