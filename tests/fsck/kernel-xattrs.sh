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
KVM_RUN=${KVM_RUN:-$HERE/../kernel/kvm-run}
CC=${CC:-cc}

unavailable() {
	echo "kernel-xattrs: $*"
	[[ ${F2FS_REQUIRE_KERNEL:-0} == 1 ]] && exit 1
	exit 77
}
if [[ ${F2FS_KERNEL_TESTS:-auto} == skip ]]; then
	echo "kernel-xattrs: skipped (F2FS_KERNEL_TESTS=skip)"
	exit 77
fi
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
		dev=/dev/vd$(printf "\\x$(printf %x $((97 + k)))")
		echo "mount -t f2fs $dev /mnt"
		echo "fsck-xattrs /mnt/xa ${projs[$k]}"
		echo "umount /mnt"
	done
	echo 'echo all-done'
} >"$W/job.sh"
extra=()
for d in "${disks[@]:1}"; do extra+=(--extra "$d"); done
rc=0
out=$("$KVM_RUN" --file "$W/fsck-xattrs" "${extra[@]}" "${disks[0]}" "$W/job.sh" 2>&1) || rc=$?
if [[ $rc -eq 77 ]]; then
	echo "kernel-xattrs: kernel harness unavailable"
	printf '%s\n' "$out" | tail -3
	exit 77
fi
if [[ $rc -ne 0 || $out != *all-done* ]]; then
	bad "kvm-run exit $rc"
	printf '%s\n' "$out" | tail -20
	summary kernel-xattrs
	exit 1
fi
printf '%s\n' "$out" | grep '^fsck-xattrs:' | sed 's/^/  /'
for k in "${!disks[@]}"; do
	rc=0
	res=$("$FSCK" -f -n "${disks[$k]}" 2>&1) || rc=$?
	if [[ $rc -eq 0 && $res == *": clean" ]]; then
		ok "kernel xattrs '${labels[$k]}' check clean"
	else
		bad "kernel xattrs '${labels[$k]}' (exit $rc)"
		printf '%s\n' "$res" | head -20
	fi
	if [[ -x ${PEER_FSCK:-/usr/sbin/fsck.f2fs} ]]; then
		if why=$(peer_fsck_clean "${disks[$k]}" "$W/peer.img"); then
			ok "f2fs-tools fsck: kernel xattrs '${labels[$k]}' clean"
		else
			bad "f2fs-tools fsck on kernel xattrs '${labels[$k]}': $why"
		fi
	fi
done
summary kernel-xattrs
