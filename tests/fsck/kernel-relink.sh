#!/bin/bash
# Relinked files keep their content, owners, modes and xattrs. The real
# kernel writes a tree (a subdirectory tree, hard links, a symlink, owners,
# modes, xattrs inline and in an xattr node) on an image from our mkfs and
# lists it; damage.py removes the entry of a subtree and of a file; our
# fsck -y repairs it (both back into /t under their own names, which their
# inodes keep in i_name and i_pino, with the quota files rebuilt), our fsck
# and f2fs-tools' find the result clean, and the kernel's listing of it is
# the first one (the same inodes, paths, types, modes, owners, link counts,
# sizes, content hashes and xattrs), nothing under /lost+found. tests/fsck/
# guest-tree.c, built static and shipped with kvm-run --file, lists.
# Exit 77 when the harness or a static C compiler is missing, or with
# F2FS_KERNEL_TESTS=skip.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
. "$HERE/../lib/peer-fsck.sh"
CC=${CC:-cc}

unavailable() {
	echo "kernel-relink: $*"
	[[ ${F2FS_REQUIRE_KERNEL:-0} == 1 ]] && exit 1
	exit 77
}
kernel_tests_on kernel-relink
W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-krelink.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
"$CC" -static -O2 -Wall -Wextra -o "$W/fsck-tree" "$HERE/guest-tree.c" 2>"$W/cc.err" ||
	unavailable "cannot build a static helper with $CC: $(head -n 1 "$W/cc.err")"

IMG=$W/k.img
truncate -s 64M "$IMG"
"$MKFS" -q -f -O extra_attr,inode_checksum,flexible_inline_xattr,quota "$IMG" ||
	{ bad "mkfs"; summary kernel-relink; exit 1; }
cat >"$W/write.sh" <<'EOF'
set -e
mount -t f2fs /dev/vda /mnt
mkdir -p /mnt/t/sub/deep /mnt/t/keep
echo hello >/mnt/t/sub/f1
dd if=/dev/urandom of=/mnt/t/sub/deep/big bs=4096 count=1100 2>/dev/null
echo data >/mnt/t/file2
printf '%3000s' | tr ' ' y >/mnt/t/keep/long
ln /mnt/t/sub/f1 /mnt/t/keep/hard
ln -s f1 /mnt/t/sub/link
chown 1000:1001 /mnt/t/sub/f1 /mnt/t/file2
chown -h 1002:1002 /mnt/t/sub/link
chmod 0640 /mnt/t/file2
chmod 0750 /mnt/t/sub/deep
fsck-tree setx /mnt/t/sub/f1 user.colour blue
fsck-tree setx /mnt/t/file2 user.big "$(printf '%2500s' | tr ' ' x)"
fsck-tree setx /mnt/t/sub/deep user.d dir
umount /mnt
mount -t f2fs /dev/vda /mnt
echo '== list'
fsck-tree list /mnt
umount /mnt
echo '== end'
EOF
sed -e '/^mkdir/,/^mount -t f2fs/d' "$W/write.sh" >"$W/list.sh"

# the listing in KVM_OUT, sorted by path
listing() { sed -n '/^== list$/,/^== end$/p' <<<"$KVM_OUT" | grep -v '^== ' | sort -k2,2; }

KVM_MARK='== end' kvm_boot kernel-relink 0 --file "$W/fsck-tree" "$IMG" "$W/write.sh"
listing >"$W/before"
sub=$(awk '$2 == "./t/sub" { print $1 }' "$W/before")
file=$(awk '$2 == "./t/file2" { print $1 }' "$W/before")
if [[ -z $sub || -z $file ]] || ! grep -q 'user.big=#' "$W/before"; then
	bad "the kernel's tree: $(wc -l <"$W/before") objects listed"
	summary kernel-relink
	exit 1
fi

python3 "$DAMAGE" "$IMG" dentry /t sub unlink 0 -- dentry /t file2 unlink 0 ||
	{ bad "damage"; summary kernel-relink; exit 1; }
rc=0
"$FSCK" -y "$IMG" >"$W/fix.out" 2>&1 || rc=$?
if [[ $rc == 1 ]] && grep -q "inode $sub .*has no directory entry.*: fixed (relink), now /t/sub\$" "$W/fix.out" &&
   grep -q "inode $file .*has no directory entry.*: fixed (relink), now /t/file2\$" "$W/fix.out"; then
	ok "fsck -y relinks the subtree ($sub) and the file ($file) under their own names"
else
	bad "fsck -y exit $rc"
	head -20 "$W/fix.out"
fi
expect_clean "the repaired image" "$IMG" -f -n
expect_peer_clean "the repaired image" "$IMG" "$W/peer.img"

KVM_MARK='== end' kvm_boot kernel-relink 0 --file "$W/fsck-tree" "$IMG" "$W/list.sh"
# back where they were, under their own names
listing | awk '$2 == "./lost+found" { next } { print }' | sort -k2,2 >"$W/after"
moved=$(listing | grep -c "^[0-9]* ./lost+found/")
if [[ $moved == 0 ]] && cmp -s "$W/before" "$W/after"; then
	ok "the kernel lists the same $(wc -l <"$W/before") objects at their paths, none under /lost+found"
else
	bad "the kernel's listing after the repair differs ($moved under /lost+found)"
	diff "$W/before" "$W/after" | head -20
fi
summary kernel-relink
