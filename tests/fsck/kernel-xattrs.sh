#!/bin/bash
# Xattrs, owners and project ids written by the real kernel must check
# clean: the xattr checks (inline area and xattr node as one list) and the
# quota check (user, group and project usage against the quota files) are
# judged on what the kernel itself wrote. tests/fsck/guest-xattrs.c, built
# static and shipped with kvm-run --file, sets them on images from our mkfs.
# Exit 77 when the harness or a static C compiler is missing, or with
# F2FS_KERNEL_TESTS=skip (F2FS_REQUIRE_KERNEL=1 turns those into failures).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
. "$HERE/../lib/peer-fsck.sh"
CC=${CC:-cc}

unavailable() {
	echo "kernel-xattrs: $*"
	[[ ${F2FS_REQUIRE_KERNEL:-0} == 1 ]] && exit 1
	exit 77
}
kernel_tests_on kernel-xattrs
W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-kxattr.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
"$CC" -static -O2 -Wall -Wextra -o "$W/fsck-xattrs" "$HERE/guest-xattrs.c" 2>"$W/cc.err" ||
	unavailable "cannot build a static helper with $CC: $(head -n 1 "$W/cc.err")"

# image options | whether project ids can be set
OPTS=(
	"|0"
	"-O extra_attr,flexible_inline_xattr|0"
	"-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,quota,lost_found,inode_crtime,project_quota|1"
)
disks=() projs=() labels=()
for k in "${!OPTS[@]}"; do
	IFS='|' read -r o p <<<"${OPTS[$k]}"
	img=$W/x$k.img
	truncate -s 128M "$img"
	# shellcheck disable=SC2086
	"$MKFS" -q -f $o "$img" || { bad "mkfs $o"; continue; }
	disks+=("$img") projs+=("$p") labels+=("${o:-default}")
done
{
	echo 'set -e'
	for k in "${!disks[@]}"; do
		echo "mount -t f2fs $(guest_dev "$k") /mnt"
		echo "fsck-xattrs /mnt/xa ${projs[$k]}"
		echo "umount /mnt"
	done
	echo 'echo all-done'
} >"$W/job.sh"
KVM_MARK=all-done kvm_boot kernel-xattrs 0 --file "$W/fsck-xattrs" "${disks[@]}" "$W/job.sh"
printf '%s\n' "$KVM_OUT" | grep '^fsck-xattrs:' | sed 's/^/  /'
for k in "${!disks[@]}"; do
	expect_clean "kernel xattrs '${labels[$k]}'" "${disks[$k]}" -f -n
	expect_peer_clean "kernel xattrs '${labels[$k]}'" "${disks[$k]}" "$W/peer.img"
done
summary kernel-xattrs
