#!/bin/bash
# Images that are consistent must check clean (exit 0), full (the default)
# and with --quick:
# our mkfs over several feature sets, empty and with --rootdir of a varied
# tree, of many xattrs and of device nodes, fifos and sockets; f2fs-tools'
# mkfs.f2fs + sload.f2fs when installed. Also: the image
# is never opened for writing (strace), JSON output parses, usage errors
# exit 16.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-clean.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
make_tree "$W/tree"

check_clean() {   # LABEL IMAGE
	local out rc
	for mode in --quick ""; do
		rc=0
		out=$("$FSCK" $mode "$2" 2>&1) || rc=$?
		if [[ $rc -eq 0 && $out == *": clean" ]]; then
			ok "$1 ${mode:-full}"
		else
			bad "$1 ${mode:-full} (exit $rc)"
			printf '%s\n' "$out" | head -10
		fi
	done
}

FEATURES=(
	""
	"-O extra_attr"
	"-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,quota,lost_found,inode_crtime,project_quota"
	"-O extra_attr,compression,lost_found"
	"-C utf8"
	"-s 4 -z 2"
	"-i"
	"-a 1 -o 5"
)
for f in "${FEATURES[@]}"; do
	img=$W/e.img
	rm -f "$img"
	truncate -s 512M "$img"
	# shellcheck disable=SC2086
	if ! "$MKFS" -q -f $f "$img"; then bad "mkfs $f"; continue; fi
	check_clean "mkfs ${f:-default}" "$img"
	rm -f "$img"
	truncate -s 512M "$img"
	# shellcheck disable=SC2086
	if ! "$MKFS" -q -f $f --rootdir "$W/tree" "$img"; then bad "mkfs --rootdir $f"; continue; fi
	check_clean "mkfs --rootdir ${f:-default}" "$img"
done

# Many xattrs (user, security, trusted; POSIX ACLs, which have no name;
# values large enough for the xattr node) from tests/rootdir/gentree.py,
# inline and not: the xattr checks must find nothing.
GENTREE=${GENTREE:-$HERE/../rootdir/gentree.py}
if python3 "$GENTREE" xattrs "$W/xtree" >"$W/gen.log" 2>&1; then
	for f in "" "-O extra_attr,flexible_inline_xattr" \
		"-O extra_attr,inode_checksum,flexible_inline_xattr,lost_found,quota,project_quota"; do
		img=$W/x.img
		rm -f "$img"
		truncate -s 256M "$img"
		# shellcheck disable=SC2086
		if ! "$MKFS" -q -f $f --rootdir "$W/xtree" "$img"; then bad "mkfs --rootdir xattrs $f"; continue; fi
		check_clean "mkfs --rootdir xattrs ${f:-default}" "$img"
	done
else
	echo "SKIP: gentree.py xattrs: $(tail -n 1 "$W/gen.log")"
fi

# Devices, fifos and sockets (gentree.py special; devices need root): a
# device's pointers hold its number, not blocks.
if python3 "$GENTREE" special "$W/stree" >"$W/gen.log" 2>&1; then
	ndev=$(find "$W/stree" \( -type b -o -type c \) | wc -l)
	img=$W/s.img
	rm -f "$img"
	truncate -s 128M "$img"
	if "$MKFS" -q -f -O extra_attr,inode_checksum --rootdir "$W/stree" "$img"; then
		check_clean "mkfs --rootdir special files ($ndev devices)" "$img"
	else
		bad "mkfs --rootdir special files"
	fi
else
	echo "SKIP: gentree.py special: $(tail -n 1 "$W/gen.log")"
fi

# sload.f2fs 1.15 with flexible_inline_xattr lays out the data pointers of
# a large file as if it had no inline xattr words: pointers 867..916 land in
# those words and its direct node starts at file block 917, while the kernel
# reads 867 pointers and starts the node at 867. The kernel would find a
# corrupt xattr list there (and the file's later blocks in the wrong place,
# which no count shows), so our fsck reports xattr problems; in the tree
# only /a/b/sparse is that large. All else must be clean. LABEL IMAGE
check_sload() {
	local out rc other
	rc=0
	out=$("$FSCK" --quick "$2" 2>&1) || rc=$?
	if [[ $rc -eq 0 && $out == *": clean" ]]; then ok "$1 quick"; else bad "$1 quick (exit $rc)"; fi
	rc=0
	out=$("$FSCK" -n "$2" 2>&1) || rc=$?
	other=$(grep -E '^(ERROR|WARNING) ' <<<"$out" |
		grep -Ev '^(ERROR|WARNING) xattr\.[a-z_]+ .* path /a/b/sparse(: .*)?$')
	if [[ ($rc -eq 0 || $rc -eq 4) && -z $other ]]; then
		ok "$1 full ($(grep -c '^[EW].* xattr\.' <<<"$out") xattr problems of sload's)"
	else
		bad "$1 full (exit $rc)"
		printf '%s\n' "$out" | head -10
	fi
}

# f2fs-tools: mkfs.f2fs + sload.f2fs of the same tree
PEER_MKFS=${PEER_MKFS:-/usr/sbin/mkfs.f2fs}
PEER_SLOAD=${PEER_SLOAD:-/usr/sbin/sload.f2fs}
if [[ -x $PEER_MKFS && -x $PEER_SLOAD ]]; then
	for f in "" "-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,lost_found,inode_crtime"; do
		img=$W/p.img
		rm -f "$img"
		truncate -s 256M "$img"
		# shellcheck disable=SC2086
		"$PEER_MKFS" -q -f $f "$img" >/dev/null 2>&1 && "$PEER_SLOAD" -f "$W/tree" "$img" >/dev/null 2>&1
		if [[ $f == *flexible_inline_xattr* ]]; then
			check_sload "f2fs-tools mkfs+sload ${f:-default}" "$img"
		else
			check_clean "f2fs-tools mkfs+sload ${f:-default}" "$img"
		fi
	done
else
	echo "SKIP: f2fs-tools mkfs.f2fs/sload.f2fs not installed"
fi

img=$W/s.img
rm -f "$img"
"$MKFS" -q --rootdir "$W/tree" -S "$img" 131072
# read-only: the image is never opened for writing, whatever the options
# a repair of a clean image opens it for writing (-y) or not (-p, -a: the
# kernel did not flag it, so it is not checked), and never writes
for o in -y -p -a; do
	before=$(stat -c %y "$img"; md5sum <"$img")
	"$FSCK" $o "$img" >/dev/null 2>&1
	rc=$?
	after=$(stat -c %y "$img"; md5sum <"$img")
	if [[ $rc == 0 && $before == "$after" ]]; then
		ok "$o on a clean image: exit 0, nothing written"
	else
		bad "$o on a clean image: exit $rc, $([[ $before == "$after" ]] && echo unchanged || echo written)"
	fi
done
# a repair needs the image to itself: attached to a loop device (as when
# mounted from it) it is refused, naming the device; -n still checks it
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1 &&
   loop=$(losetup -f --show "$img" 2>/dev/null) && [ -n "$loop" ]; then
	rc=0
	out=$("$FSCK" -y "$img" 2>&1) || rc=$?
	if [[ $rc == 8 && $out == *"backing file of $loop"* ]]; then
		ok "-y on an image attached to $loop: refused, exit 8"
	else
		bad "-y on an image attached to $loop: exit $rc: $out"
	fi
	rc=0
	"$FSCK" -n "$img" >/dev/null 2>&1 || rc=$?
	[[ $rc == 0 ]] && ok "-n on an image attached to $loop: checked" || bad "-n on an attached image: exit $rc"
	losetup -d "$loop"
else
	echo "SKIP: loop devices not available"
fi
if command -v strace >/dev/null 2>&1; then
	for o in -n "-f -n" -N --dry-run -p -a "-p 1" --quick -l -M; do
		# LeakSanitizer cannot run under ptrace: no leak check here
		if ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		   strace -f -e trace=open,openat,creat -o "$W/trace" "$FSCK" $o "$img" >/dev/null 2>&1 &&
		   grep -q "s.img" "$W/trace" && ! grep "s.img" "$W/trace" | grep -qE 'O_RDWR|O_WRONLY|creat'; then
			ok "strace $o: opened read-only"
		else
			bad "strace $o"
			grep "s.img" "$W/trace"
		fi
	done
else
	echo "SKIP: strace not installed"
fi
# JSON parses and matches the exit status
if command -v python3 >/dev/null 2>&1; then
	rc=0
	"$FSCK" -n --json "$img" >"$W/j" || rc=$?
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["exit"]==int(sys.argv[2]) and d["problems"]==[] else 1)' "$W/j" "$rc"; then
		ok "json"
	else
		bad "json"
	fi
fi
# usage errors and operational errors
rc=0; "$FSCK" >/dev/null 2>&1 || rc=$?
[[ $rc -eq 16 ]] && ok "no image: 16" || bad "no image: exit $rc"
rc=0; "$FSCK" --bogus "$img" >/dev/null 2>&1 || rc=$?
[[ $rc -eq 16 ]] && ok "bad option: 16" || bad "bad option: exit $rc"
rc=0; "$FSCK" "$img" "$img" >/dev/null 2>&1 || rc=$?
[[ $rc -eq 16 ]] && ok "two images: 16" || bad "two images: exit $rc"
rc=0; "$FSCK" "$W/missing" >/dev/null 2>&1 || rc=$?
[[ $rc -eq 8 ]] && ok "missing image: 8" || bad "missing image: exit $rc"
rc=0; "$FSCK" -V >/dev/null 2>&1 || rc=$?
[[ $rc -eq 0 ]] && ok "-V" || bad "-V: exit $rc"
rc=0; "$FSCK" -n --progress "$img" >/dev/null 2>"$W/err" || rc=$?
[[ $rc -eq 0 && $(cat "$W/err") == *"nodes: 100%"* ]] && ok "--progress" || bad "--progress: exit $rc"
summary clean-images
