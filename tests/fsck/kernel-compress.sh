#!/bin/bash
# Compressed files and aged images written by the real kernel must check
# clean, with our fsck and with f2fs-tools' (when installed). One boot, four
# images from our mkfs:
#  - lz4, compress_extension=*: `workload`, then files of 4 KiB..2 MiB,
#    compressible or not, overwritten in part, truncated, unlinked; some
#    released with F2FS_IOC_RELEASE_COMPRESS_BLOCKS (COMPRESS_ADDR and the
#    reserved NEW_ADDR then no longer count: include/f2fs/format/compress.h);
#  - zstd with quota, the same files, some released and reserved again,
#    one of those then overwritten (quota charges the reserved blocks too);
#  - -s 2, background GC off: filled, every other file removed (most
#    segments half valid, few free), 2000 files in one directory (renamed
#    in part), a preallocated file: with so few free sections the kernel
#    allocates by SSR, and a data log left by SSR at unmount has all 512
#    entries in the compacted summary (f2fs_data_sum_counts) when the
#    other logs leave room for one (a note says whether this run did; the
#    committed case kernel-ssr-summary, made by this workload, must);
#  - the same with background GC on, then GC forced (gc_urgent) for a few
#    seconds before unmount; whether a data log is left by SSR then depends
#    on timing, so a note says which.
# F2FS_KERNEL_COMPRESS_LARGE=1 adds, in the same boot, two 512 MiB images
# aged like the reports that led here (about a minute more): -s 1 with lz4
# compression, and -s 2 without, each with mixed files, filled, thinned,
# 10000 files in one directory, a preallocated file, then gc_urgent before
# unmount.
# tests/fsck/guest-fsops.c, built static and shipped with kvm-run --file,
# does what busybox cannot. Exit 77 when the harness or a static C compiler
# is missing, or with F2FS_KERNEL_TESTS=skip (F2FS_REQUIRE_KERNEL=1 turns
# those into failures).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
. "$HERE/../lib/peer-fsck.sh"
DUMP=${DUMP:-$TOP_BUILD/dump/dump.f2fs}
CC=${CC:-cc}

unavailable() {
	echo "kernel-compress: $*"
	[[ ${F2FS_REQUIRE_KERNEL:-0} == 1 ]] && exit 1
	exit 77
}
kernel_tests_on kernel-compress
W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-kcompr.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
"$CC" -static -O2 -Wall -Wextra -o "$W/fsck-fsops" "$HERE/guest-fsops.c" 2>"$W/cc.err" ||
	unavailable "cannot build a static helper with $CC: $(head -n 1 "$W/cc.err")"

LABELS=("lz4, released files" "zstd, quota, released and reserved files" "-s 2, SSR"
	"-s 2, gc_urgent")
OPTS=("-O extra_attr,compression" "-O extra_attr,inode_checksum,quota,compression" "-s 2" "-s 2")
SIZES=(192M 192M 192M 192M)
if [[ ${F2FS_KERNEL_COMPRESS_LARGE:-0} == 1 ]]; then
	LABELS+=("512 MiB, -s 1, lz4, aged, gc_urgent" "512 MiB, -s 2, aged, gc_urgent")
	OPTS+=("-s 1 -O extra_attr,compression" "-s 2")
	SIZES+=(512M 512M)
fi
disks=()
for k in "${!OPTS[@]}"; do
	img=$W/k$k.img
	truncate -s "${SIZES[$k]}" "$img"
	# shellcheck disable=SC2086
	"$MKFS" -q -f ${OPTS[$k]} "$img" || { bad "mkfs ${OPTS[$k]}"; summary kernel-compress; exit 1; }
	disks+=("$img")
done
cat >"$W/job.sh" <<'EOF'
set -e
mount -t f2fs -o compress_algorithm=lz4,compress_extension=* /dev/vda /mnt
workload /mnt/w 200 >/dev/null
mkdir /mnt/m
fsck-fsops mixed /mnt/m 120 1
for i in 1 2 3 5 9; do fsck-fsops release /mnt/m/m$i >/dev/null; done
umount /mnt
mount -t f2fs -o compress_algorithm=zstd,compress_extension=* /dev/vdb /mnt
mkdir /mnt/m
fsck-fsops mixed /mnt/m 120 2
for i in 1 2 3 5 9; do fsck-fsops release /mnt/m/m$i >/dev/null; done
for i in 2 5; do fsck-fsops reserve /mnt/m/m$i >/dev/null; done
dd if=/dev/zero of=/mnt/m/m5 bs=4k count=20 conv=notrunc 2>/dev/null
umount /mnt
mount -t f2fs -o background_gc=off /dev/vdc /mnt
mkdir /mnt/f /mnt/d
fsck-fsops fill /mnt/f 16 >/dev/null
fsck-fsops thin /mnt/f >/dev/null
fsck-fsops many /mnt/d 2000 >/dev/null
fsck-fsops falloc /mnt/pre 4 >/dev/null
umount /mnt
mount -t f2fs /dev/vdd /mnt
mkdir /mnt/f /mnt/d
fsck-fsops fill /mnt/f 16 >/dev/null
fsck-fsops thin /mnt/f >/dev/null
fsck-fsops many /mnt/d 2000 >/dev/null
fsck-fsops falloc /mnt/pre 4 >/dev/null
sync
echo 1 > /sys/fs/f2fs/vdd/gc_urgent
sleep 6
echo 0 > /sys/fs/f2fs/vdd/gc_urgent
umount /mnt
EOF
if [[ ${F2FS_KERNEL_COMPRESS_LARGE:-0} == 1 ]]; then
	for d in vde vdf; do
		opt=
		[[ $d == vde ]] && opt="-o compress_algorithm=lz4,compress_extension=*"
		cat <<EOF
mount -t f2fs $opt /dev/$d /mnt
mkdir /mnt/f /mnt/d /mnt/m
fsck-fsops mixed /mnt/m 200 3 >/dev/null
fsck-fsops fill /mnt/f 16 >/dev/null
fsck-fsops thin /mnt/f >/dev/null
fsck-fsops many /mnt/d 10000 >/dev/null
fsck-fsops falloc /mnt/pre 8 >/dev/null
sync
echo 1 > /sys/fs/f2fs/$d/gc_urgent
sleep 8
echo 0 > /sys/fs/f2fs/$d/gc_urgent
umount /mnt
EOF
	done >>"$W/job.sh"
fi
echo 'echo all-done' >>"$W/job.sh"
KVM_MARK=all-done kvm_boot kernel-compress 0 --timeout 1800 --file "$W/fsck-fsops" \
	"${disks[@]}" "$W/job.sh"
for k in "${!disks[@]}"; do
	expect_clean "kernel image '${LABELS[$k]}'" "${disks[$k]}" -n
	expect_peer_clean "kernel image '${LABELS[$k]}'" "${disks[$k]}" "$W/peer.img"
done

# Does the checkpoint leave a data log allocating by SSR, in a compacted summary?
ssr_compacted() {
	local cp
	cp=$("$DUMP" --cp "$1") || return 1
	grep -q compacted_summary <<<"$cp" &&
		[[ $(awk '$1 == "alloc_type" { print ($2 == 1 || $3 == 1 || $4 == 1) }' <<<"$cp") == 1 ]]
}
# Whether this run's checkpoint uses a compacted summary depends on how
# full the other logs are at unmount, so the kernel does not always give
# one: the committed case kernel-ssr-summary (this workload's image, which
# run-cases.sh checks) must hold one in any event.
bzip2 -dc "$HERE/cases/kernel-ssr-summary/image.bz2" >"$W/ssr.img"
if ssr_compacted "$W/ssr.img"; then
	ok "the case kernel-ssr-summary has an SSR data log in a compacted summary"
else
	bad "the case kernel-ssr-summary has no SSR data log in a compacted summary"
fi
if ssr_compacted "${disks[2]}"; then
	echo "  note: '${LABELS[2]}': a data log allocates by SSR in a compacted summary"
else
	echo "  note: '${LABELS[2]}': no SSR data log in a compacted summary this time:"
	"$DUMP" --cp "${disks[2]}" | grep -E 'ckpt_flags|cur_data_blkoff|alloc_type '
fi
for k in "${!disks[@]}"; do
	((k >= 3)) || continue
	if ssr_compacted "${disks[$k]}"; then
		echo "  note: '${LABELS[$k]}': a data log allocates by SSR in a compacted summary"
	else
		echo "  note: '${LABELS[$k]}': no SSR data log in a compacted summary this time"
	fi
done
summary kernel-compress
