#!/bin/bash
# mkfs.f2fs --rootdir against the real kernel.
#
# For each gentree.py profile (small, bigdir with 50000 names, deep, large,
# special, xattrs, mixed) a tree is built under $TMPDIR, described by
# manifest.py (type, mode, owner, link count, size, content md5, symlink
# target, device numbers, a/m/ctime with ns, hard-link groups, xattrs and
# ACLs), and copied into an image by our mkfs --rootdir, with the default
# features and (mixed, large, xattrs) with all the inode features, quota and
# lost+found (mixed also with -R). Then:
#   - f2fs-tools' fsck.f2fs -f --dry-run finds every image clean;
#   - in one kernel boot each image is mounted (noatime), the guest's
#     fsmanifest (tests/kernel/guest/src/fsmanifest.c, built here with
#     gcc -static and shipped with kvm-run --file) describes it, the
#     workload writes to it, and it is unmounted; no kernel complaints;
#   - the guest's manifest equals the host's, line for line;
#   - fsck.f2fs finds every image clean after the kernel's writes.
# Exit: 0 pass, 1 fail, 77 when the kernel harness, f2fs-tools, python3 or a
# static gcc is missing (F2FS_REQUIRE_KERNEL=1 / F2FS_REQUIRE_PEER=1 make
# those failures). F2FS_KERNEL_TESTS=skip skips at once.
# ROOTDIR_BIGDIR_ENTRIES changes the bigdir size (default 50000).

# make check runs this with $(SHELL), which may not be bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u
T=rootdir-kernel
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
SRC=${top_srcdir:-$HERE/../..}
KVM_RUN=$SRC/tests/kernel/kvm-run
MKFS=${MKFS:-${top_builddir:-$SRC/build}/mkfs/mkfs.f2fs}
PEER_FSCK=${PEER_FSCK:-/usr/sbin/fsck.f2fs}
# shellcheck source=../lib/peer-fsck.sh
. "$SRC/tests/lib/peer-fsck.sh"
# shellcheck source=../lib/report.sh
. "$SRC/tests/lib/report.sh"

[[ ${F2FS_KERNEL_TESTS:-auto} == skip ]] && { echo "$T: skipped (F2FS_KERNEL_TESTS=skip)"; exit 77; }
[[ -x $MKFS ]] || { echo "$T: no mkfs at $MKFS"; exit 1; }
[[ -x $PEER_FSCK ]] || skip "$PEER_FSCK missing (apt-get install f2fs-tools)" F2FS_REQUIRE_PEER
command -v python3 >/dev/null || skip "python3 missing" F2FS_REQUIRE_KERNEL
((EUID == 0)) || skip "needs root (devices, owners, trusted.* xattrs)" F2FS_REQUIRE_KERNEL
if ! command -v setfacl >/dev/null && ((EUID == 0)) && command -v apt-get >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q acl attr >/dev/null 2>&1 ||
		echo "$T: note: no setfacl; gentree writes the ACL xattrs itself"
fi

W=$(mktemp -d "${TMPDIR:-/tmp}/$T.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/trees" "$W/man" "$W/out"

# The guest's manifest tool: static, so it runs on the initrd's busybox.
CC=${CC:-gcc}
if ! "$CC" -static -O2 -o "$W/fsmanifest" "$SRC/tests/kernel/guest/src/fsmanifest.c" 2>"$W/cc.err"; then
	head -5 "$W/cc.err"
	skip "cannot build a static fsmanifest with $CC (libc6-dev?)" F2FS_REQUIRE_KERNEL
fi

ALLFEAT=extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,quota,lost_found,inode_crtime,project_quota
# name|profile|image size|mkfs options|manifest options
MATRIX=(
	"small|small|128M||"
	"bigdir|bigdir|512M||"
	"deep|deep|64M||"
	"large|large|256M||"
	"special|special|64M||"
	"xattrs|xattrs|64M||"
	"mixed|mixed|256M||"
	"mixed-allfeat|mixed|256M|-O $ALLFEAT -R 1234:5678|--exclude-lpf --root-owner 1234:5678"
	"large-allfeat|large|256M|-O $ALLFEAT|--exclude-lpf"
	"xattrs-allfeat|xattrs|64M|-O $ALLFEAT|--exclude-lpf"
)
MOPTS_COMMON="--times mac"

# ---- trees, host manifests, images, fsck ------------------------------------
declare -A TREE_OK=()
names=() disks=() mopts=()
for row in "${MATRIX[@]}"; do
	IFS='|' read -r name profile size opts mo <<<"$row"
	tree=$W/trees/$profile
	if [[ -z ${TREE_OK[$profile]+x} ]]; then
		args=()
		[[ $profile == bigdir ]] && args=(--entries "${ROOTDIR_BIGDIR_ENTRIES:-50000}")
		if out=$(python3 "$HERE/gentree.py" "${args[@]}" "$profile" "$tree" 2>&1); then
			TREE_OK[$profile]=1
			echo "$out"
		else
			TREE_OK[$profile]=0
			bad "$profile: gentree.py failed: $(tail -3 <<<"$out")"
		fi
	fi
	((TREE_OK[$profile])) || continue
	# The host side is described before mkfs reads the tree (mkfs records
	# the atimes it found; see gentree.py on atimes).
	# shellcheck disable=SC2086
	if ! python3 "$HERE/manifest.py" $MOPTS_COMMON $mo "$tree" >"$W/man/$name.host" 2>"$W/man/$name.err"; then
		bad "$name: manifest.py failed: $(head -3 "$W/man/$name.err")"
		continue
	fi
	img=$W/$name.img
	rm -f "$img"
	truncate -s "$size" "$img"
	t0=$EPOCHREALTIME
	# shellcheck disable=SC2086
	if ! out=$("$MKFS" -f -q $opts --rootdir "$tree" "$img" 2>&1); then
		bad "$name: mkfs $opts --rootdir failed: $(head -c 600 <<<"$out")"
		continue
	fi
	t1=$EPOCHREALTIME
	if msg=$(peer_fsck_clean "$img" "$W/fsck.img"); then
		ok "$name: mkfs --rootdir ($(wc -l <"$W/man/$name.host") entries, $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s) and fsck.f2fs finds it clean"
	else
		bad "$name: fsck.f2fs after mkfs: $msg"
		continue
	fi
	names+=("$name") disks+=("$img") mopts+=("$mo")
done
((${#names[@]})) || finish

# ---- one boot: mount, manifest, workload, unmount ----------------------------
# The manifests go back on a disk of their own (a tar on /dev/vdX): bigdir's
# is ~8 MB, too much for the job's serial port.
outimg=$W/out.img
truncate -s 64M "$outimg"
letters=abcdefghijklmnopqrstuvwxyz
job=$W/job.sh
{
	echo 'mkdir -p /tmp/out'
	for k in "${!names[@]}"; do
		name=${names[k]}
		dev=/dev/vd${letters:k:1}
		cat <<EOF
dmesg -c >/dev/null
if mount -t f2fs -o noatime $dev /mnt; then
	echo '$name MOUNT'
	if fsmanifest $MOPTS_COMMON ${mopts[k]} /mnt >/tmp/out/$name.guest 2>/tmp/out/$name.err; then
		echo '$name MANIFEST'
	else
		echo '$name MANIFEST-FAILED'; head -3 /tmp/out/$name.err
	fi
	workload /mnt/w 50 >/dev/null && echo '$name WORKLOAD'
	umount /mnt && echo '$name UMOUNT'
else
	echo '$name MOUNT-FAILED'; dmesg | tail -5
fi
EOF
	done
	echo "cd /tmp/out && tar -cf /dev/vd${letters:${#names[@]}:1} . && sync && echo TAR-DONE"
} >"$job"

extra=()
for d in "${disks[@]:1}" "$outimg"; do extra+=(--extra "$d"); done
t0=$EPOCHREALTIME
"$KVM_RUN" --timeout 500 --dmesg -v --file "$W/fsmanifest" "${extra[@]}" "${disks[0]}" "$job" \
	>"$W/kvm.out" 2>"$W/kvm.err"
rc=$?
t1=$EPOCHREALTIME
if ((rc == 77)); then
	cat "$W/kvm.err"
	skip "kernel harness unavailable" F2FS_REQUIRE_KERNEL
fi
echo "$T: kernel boot: status $rc, $(grep -o 'wall.*' "$W/kvm.err" || awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f s", b - a }')"
if ((rc != 0)) || ! grep -qx TAR-DONE "$W/kvm.out"; then
	bad "kernel job: status $rc"
	sed 's/^/    | /' "$W/kvm.out" | tail -20
	grep -v '^kernel: ' "$W/kvm.err" | sed 's/^/    | /' | tail -20
fi
if ! tar -xf "$outimg" -C "$W/out" 2>"$W/tar.err"; then
	bad "cannot read the guest's manifests: $(head -3 "$W/tar.err")"
fi
# Kernel messages that mean trouble (normal mounts only say "Found nat_bits"
# and the like).
kbad='[Ee]rror|[Ii]nconsisten|[Cc]orrupt|[Ww]rong|[Ii]nvalid|fsck|BUG|WARNING|Oops|Call Trace'
if grep '^kernel: ' "$W/kvm.err" | grep -E "$kbad" >"$W/kbad"; then
	bad "kernel messages: $(head -5 "$W/kbad" | tr '\n' ' ')"
else
	ok "no kernel complaints ($(grep -c '^kernel: ' "$W/kvm.err") f2fs messages)"
fi

# ---- compare, fsck again -----------------------------------------------------
for name in "${names[@]}"; do
	steps=$(grep -E "^$name (MOUNT|MANIFEST|WORKLOAD|UMOUNT)\$" "$W/kvm.out" | cut -d' ' -f2 | tr '\n' ' ')
	if [[ $steps != "MOUNT MANIFEST WORKLOAD UMOUNT " ]]; then
		bad "$name: guest steps: ${steps:-none} ($(grep -E "^$name " "$W/kvm.out" | tail -3 | tr '\n' ' '))"
	fi
	if [[ ! -f $W/out/$name.guest ]]; then
		bad "$name: no manifest from the guest"
	elif diff -u "$W/man/$name.host" "$W/out/$name.guest" >"$W/$name.diff"; then
		ok "$name: the kernel sees the tree as on the host ($(wc -l <"$W/out/$name.guest") entries)"
	else
		bad "$name: guest manifest differs from the host's ($(grep -c '^[-+][^-+]' "$W/$name.diff") lines):"
		grep '^[-+][^-+]' "$W/$name.diff" | head -12 | cut -c1-400 | sed 's/^/    | /'
	fi
	if msg=$(peer_fsck_clean "$W/$name.img" "$W/fsck.img"); then
		ok "$name: fsck.f2fs clean after the kernel's writes"
	else
		bad "$name: fsck.f2fs after the kernel's writes: $msg"
	fi
done
finish
