#!/bin/bash
# inject.f2fs: each target changes the field it names (dump or fsck sees the
# change), checksums are resealed unless --stale, a dry run writes nothing,
# and each mistake gets its exit status and a line naming it.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
top_builddir=${top_builddir:-$HERE/../..}
INJECT=$top_builddir/inject/inject.f2fs
MKFS=$top_builddir/mkfs/mkfs.f2fs
FSCK=$top_builddir/fsck/fsck.f2fs
export LC_ALL=C TZ=UTC

W=$(mktemp -d "${TMPDIR:-/tmp}/inject.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
PASS=0 FAIL=0
ok() { PASS=$((PASS + 1)); echo "PASS: $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }

# a tree: a file with an xattr, a directory with a file, a symlink
mkdir -p "$W/tree/d"
echo hello >"$W/tree/a.txt"
echo x >"$W/tree/d/b"
ln -s a.txt "$W/tree/l"
XATTR=0
setfattr -n user.k -v v "$W/tree/a.txt" 2>/dev/null && XATTR=1
truncate -s 64M "$W/base.img"
"$MKFS" -q -O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,quota \
	-T 1700000000 -U 01234567-89ab-cdef-0123-456789abcdef \
	--rootdir "$W/tree" "$W/base.img" >/dev/null || { echo "mkfs failed"; exit 1; }
# inodes: root 3, quota 4 and 5, a.txt 6, d 7, l 8 (mkfs --rootdir order)

# inject ARGS...: on a fresh copy; sets rc, out, err
inject() {
	cp "$W/base.img" "$W/i.img"
	"$INJECT" "$@" "$W/i.img" >"$W/out" 2>"$W/err"
	rc=$?
	out=$(cat "$W/out")
	err=$(cat "$W/err")
}

# changes WHAT PROBLEM ARGS...: exit 0, an old -> new line, fsck -n names PROBLEM
changes() {
	local what=$1 pb=$2
	shift 2
	inject "$@"
	if [[ $rc -ne 0 || $out != *" -> "* ]]; then
		bad "$what: exit $rc, '$out' '$err'"
		return
	fi
	"$FSCK" -n "$W/i.img" >"$W/fsck" 2>&1
	if grep -q " $pb " "$W/fsck"; then
		ok "$what: $pb"
	else
		bad "$what: fsck -n does not say $pb:"
		head -5 "$W/fsck"
	fi
}

changes "sb 2 magic" sb.copies_differ --sb 2 --mb magic --val 0
changes "cp valid_block_count" cp.valid_block_count --cp 0 --mb valid_block_count --val 5
changes "cp crc, not resealed" cp.backup_pack_invalid --cp 0 --mb crc --val 1
changes "NAT ino" nat.ino_mismatch --nat 0 --nid 3 --mb ino --val 7
changes "SIT vblocks" sit.vblocks_map_mismatch --sit 0 --blk 0x1000 --mb vblocks --val 3
changes "inode i_links, resealed" inode.links --node --nid 6 --mb i_links --val 5
changes "inode i_links, --stale" inode.bad_checksum --node --nid 6 --mb i_links --val 5 --stale
changes "node footer ino" node.footer_ino --node --nid 6 --mb ino --val 9
changes "dentry file type" dir.file_type --dent --nid 6 --mb d_ftype --val 3
changes "dentry \".\"" dir.dot --dent --nid 7 --dots 1 --mb d_ino --val 3
changes "dentry bitmap bit" inode.unreachable --dent --nid 6 --mb d_bitmap
if [[ $XATTR -eq 1 ]]; then
	changes "xattr name index" xattr.bad_name --xattr --nid 6 --mb e_name_index --val 99
else
	echo "SKIP: xattr name index (no setfattr)"
fi
changes "nat_bits header" nat_bits.header --nat-bits 0 --mb header --val 1
changes "quota record" quota.usage_mismatch --quota 0 --id 0 --mb curinodes --val 99
changes "whole block of zeros (root)" inode.unreachable --garbage zero --blk 0x1000

# a name and its hash change together: the entry is found by the new name
inject --dent --nid 6 --mb filename --str zz
if [[ $rc -eq 0 ]] && "$top_builddir/dump/dump.f2fs" --ls / "$W/i.img" 2>/dev/null | grep -q ' zz$' &&
   "$FSCK" -n "$W/i.img" >/dev/null; then
	ok "filename: renamed, hash kept consistent"
else
	bad "filename: exit $rc, $out $err"
fi

# a version bitmap bit: the other NAT copy becomes live
inject --cp 0 --mb nat_ver_bitmap --idx 0 --val 1 --stale
if [[ $rc -eq 0 && $out == *"nat_ver_bitmap[0]: 0 -> 1"* ]]; then
	ok "nat_ver_bitmap bit"
else
	bad "nat_ver_bitmap bit: exit $rc, $out $err"
fi

# a dry run prints and writes nothing
inject --node --nid 6 --mb i_size --val 0 --dry-run
if [[ $rc -eq 0 && $out == *"0x6 -> 0x0 (dry run: not written)"* ]] && cmp -s "$W/base.img" "$W/i.img"; then
	ok "--dry-run writes nothing"
else
	bad "--dry-run: exit $rc, $out"
fi

# expect_exit STATUS TEXT ARGS...: the status and a line with TEXT on stderr
expect_exit() {
	local want=$1 text=$2
	shift 2
	inject "$@"
	if [[ $rc -eq $want && $err == *"$text"* ]] && cmp -s "$W/base.img" "$W/i.img"; then
		ok "exit $want: $text"
	else
		bad "exit $want ($text): got $rc, '$err'"
	fi
}
expect_exit 1 'has no member "nope" (it has: nid ino flag' --node --nid 6 --mb nope --val 1
expect_exit 1 "member i_addr is an array" --node --nid 6 --mb i_addr --val 1
expect_exit 1 "member i_addr: --idx below 923" --node --nid 6 --mb i_addr --idx 923 --val 1
expect_exit 1 "does not fit the 1-byte member i_advise" --node --nid 6 --mb i_advise --val 256
expect_exit 1 "--nid: this target needs it" --node --mb i_links --val 1
expect_exit 1 "one target at a time" --node --sb 1 --nid 6 --mb i_links --val 1
expect_exit 1 "--sb 3: 0, 1 or 2" --sb 3 --mb magic --val 1
expect_exit 2 "is past the NAT" --node --nid 4000000 --mb i_links --val 1
expect_exit 2 "is not in use" --node --nid 100 --mb i_links --val 1
expect_exit 2 "no entry names the root" --dent --nid 3 --mb d_ino --val 1
expect_exit 2 "no record of id 5" --quota 0 --id 5 --mb curinodes --val 1
expect_exit 1 "--id: --quota needs it" --quota 0 --mb curinodes --val 1
# -1 is all ones in the member's width
inject --node --nid 6 --mb i_advise --val -1
if [[ $rc -eq 0 && $out == *"i_advise: 0x0 -> 0xff"* ]]; then
	ok "--val -1: all ones"
else
	bad "--val -1: $rc $out $err"
fi
"$INJECT" --sb 1 --mb magic --val 0 "$W/missing.img" >/dev/null 2>"$W/err"
rc=$?
if [[ $rc -eq 8 ]] && grep -q "missing.img" "$W/err"; then
	ok "exit 8: an image that cannot be opened"
else
	bad "missing image: exit $rc"
fi

# a zeroed i_inline (an inline file with an xattr, an inline directory, an
# inline symlink): fsck -y finds the flags again from i_addr, and the
# content is the same
for nid in 6 7 8; do
	inject --node --nid "$nid" --mb i_inline --val 0
	"$FSCK" -y "$W/i.img" >"$W/fsck" 2>&1
	yrc=$?
	if [[ $rc -eq 0 && $yrc -eq 1 ]] && "$FSCK" -n "$W/i.img" >/dev/null &&
	   [[ $("$top_builddir/dump/dump.f2fs" -i "$nid" "$W/i.img" | grep -v "footer\|checksum\|node block") == \
	      $("$top_builddir/dump/dump.f2fs" -i "$nid" "$W/base.img" | grep -v "footer\|checksum\|node block") ]]; then
		ok "i_inline of inode $nid zeroed: fsck -y restores it, content kept"
	else
		bad "i_inline of inode $nid zeroed: inject $rc, fsck -y $yrc"
		head -5 "$W/fsck"
	fi
done

echo "inject: $PASS passed, $FAIL failed"
[[ $FAIL -eq 0 ]]
