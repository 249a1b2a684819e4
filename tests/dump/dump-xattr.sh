#!/bin/bash
# dump.f2fs --extract copies extended attributes and POSIX ACLs back out:
# gentree.py's xattrs profile (user.* values small and large, past the inline
# area into an xattr node, security.*, trusted.*, access and default ACLs,
# xattrs on directories and symlinks) goes through mkfs --rootdir and comes
# back equal by manifest.py, xattrs and ACLs included, with inline xattrs
# (flexible_inline_xattr) and without extra_attr.
# As non-root, trusted.* and some security.* cannot be set: those are
# warnings, and the xattrs are then left out of the comparison.
NAME=dump-xattr
. "$(dirname "$0")/common.sh"
need_tools

src=$W/src
if ! $GENTREE xattrs "$src" >"$W/gen.log" 2>&1; then
	bad "gentree xattrs: $(tail -1 "$W/gen.log")"
	finish
	exit
fi
root=1
[[ $(id -u) -eq 0 ]] || { root=0; echo "(not root: xattrs are not compared)"; }
manifest() {
	if ((root)); then $MANIFEST --exclude-lpf "$1"; else $MANIFEST --exclude-lpf "$1" | sed -E 's/ x=[^ ]*//g'; fi
}
manifest "$src" >"$W/m.src"
check "source tree has xattrs and ACLs" grep -q ' x=' "$W/m.src"

for feat in "" "extra_attr,flexible_inline_xattr" "extra_attr,inode_checksum,flexible_inline_xattr,lost_found"; do
	img=$W/x.img dst=$W/dst
	rm -rf "$img" "$dst"
	truncate -s 1G "$img"
	if ! "$MKFS" -q -f ${feat:+-O "$feat"} --rootdir "$src" "$img" >"$W/mkfs.log" 2>&1; then
		bad "mkfs -O ${feat:-default}: $(tail -1 "$W/mkfs.log")"
		continue
	fi
	run --json --extract / -o "$dst" "$img"
	check "-O ${feat:-default}: --extract / exits 0" test "$rc" -eq 0
	[[ $rc -eq 0 ]] || echo "    | $(head -c 300 "$W/err")"
	n=$(jget extract.xattrs 2>/dev/null || echo 0)
	check "-O ${feat:-default}: xattrs set ($n)" test "$n" -gt 0
	manifest "$dst" >"$W/m.dst"
	if cmp -s "$W/m.src" "$W/m.dst"; then
		ok "-O ${feat:-default}: extracted tree equals the source, xattrs and ACLs included ($(wc -l <"$W/m.src") entries)"
	else
		bad "-O ${feat:-default}: trees differ: $(diff "$W/m.src" "$W/m.dst" | head -4 | cut -c1-300 | tr '\n' ' ')"
	fi
done

finish
