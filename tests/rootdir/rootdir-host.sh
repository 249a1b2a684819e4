#!/bin/bash
# mkfs.f2fs --rootdir on the host alone (no kernel): reproducibility and
# errors.
#   reproducible: the same tree with -U and -T gives byte-identical images
#     (default features and all inode features + quota + lost+found), as does
#     SOURCE_DATE_EPOCH (and it equals -T); another -T gives another image; a
#     tree with the atimes a real tree has (older than the mtimes, so the
#     first read moves them under relatime) also gives identical images;
#   a format over an earlier image with the same -U, -T and -t 0 leaves no
#     roll-forward chain of the old image's nodes (our fsck follows it);
#   refused with exit 1, a message naming the cause, and no image created (or
#     a pre-filled image byte-identical afterwards): a missing --rootdir, a
#     file as --rootdir, 80 MiB of data or 20000 inodes for a 60 MiB image,
#     an unreadable file or directory (mkfs run as nobody), xattrs beyond what
#     an F2FS inode holds (needs a tmpfs with user xattrs);
#   paths longer than PATH_MAX: copied (fsck clean) or refused saying why;
#   the fullest trees mkfs accepts for a 64 MiB image are fsck clean, and
#     the ones it refuses leave the image untouched;
#   480 files (a few nids in a second NAT block): the checkpoint carries
#     nat_bits and an empty NAT journal, and f2fs-tools' fsck checks those
#     nat_bits valid;
#   lost+found in the tree with -O lost_found: one lost+found in the root.
# Exit: 0 pass, 1 fail, 77 without python3 or root.

# make check runs this with $(SHELL), which may not be bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u
T=rootdir-host
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
SRC=${top_srcdir:-$HERE/../..}
BUILD=${top_builddir:-$SRC/build}
MKFS=${MKFS:-$BUILD/mkfs/mkfs.f2fs}
DUMP=${DUMP:-$(dirname "$MKFS")/../dump/dump.f2fs}
FSCK=${FSCK:-$(dirname "$MKFS")/../fsck/fsck.f2fs}
PEER_FSCK=${PEER_FSCK:-/usr/sbin/fsck.f2fs}
# shellcheck source=../lib/peer-fsck.sh
. "$SRC/tests/lib/peer-fsck.sh"
# shellcheck source=../lib/report.sh
. "$SRC/tests/lib/report.sh"

[[ -x $MKFS ]] || { echo "$T: no mkfs at $MKFS"; exit 1; }
command -v python3 >/dev/null || { echo "$T: python3 missing; skipped"; exit 77; }
((EUID == 0)) || { echo "$T: needs root (devices, owners, trusted.* xattrs); skipped"; exit 77; }
HAVE_PEER=0
[[ -x $PEER_FSCK ]] && HAVE_PEER=1
((HAVE_PEER)) || note "no $PEER_FSCK: the fsck checks are left out"

W=$(mktemp -d "${TMPDIR:-/tmp}/$T.XXXXXX") || exit 1
chmod 755 "$W"
trap 'rm -rf "$W"' EXIT
UUID=0b2c1d4e-1111-4222-8333-944455556666
TS=1700000000
ALLFEAT=extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,quota,lost_found,inode_crtime,project_quota

gentree() { python3 "$HERE/gentree.py" "$@" >/dev/null; }
fsck_ok() {   # fsck_ok IMAGE: clean, or no peer fsck
	((HAVE_PEER)) || return 0
	peer_fsck_clean "$1" "$W/fsck.img"
}
# pattern FILE MIB: a file of MIB MiB of a non-zero repeating pattern
pattern() {
	python3 -c 'import sys
blk = (b"rootdir-host pattern %d " % 7) * 200
blk = (blk * 2)[:4096]
with open(sys.argv[1], "wb") as f:
    f.write(blk * (256 * int(sys.argv[2])))' "$1" "$2"
}
mk() {   # mk IMAGE SIZE ARGS...: fresh sparse image file, then mkfs
	local img=$1 size=$2
	shift 2
	rm -f "$img" && truncate -s "$size" "$img" && "$MKFS" -f -q "$@" "$img"
}

# ---- reproducibility -------------------------------------------------------
gentree mixed "$W/mixed" || { bad "gentree mixed failed"; finish; }
r() { mk "$W/r$1.img" 256M -U "$UUID" "${@:2}" --rootdir "$W/mixed"; }
if r 1 -T $TS && r 2 -T $TS; then
	if cmp -s "$W/r1.img" "$W/r2.img"; then
		ok "same tree, -U, -T: byte-identical images"
	else
		bad "same tree, -U, -T: the images differ ($(cmp "$W/r1.img" "$W/r2.img" | head -1))"
	fi
	fsck_ok "$W/r1.img" >/dev/null || bad "the reproducible image is not fsck clean"
else
	bad "mkfs -U -T --rootdir failed"
fi
if SOURCE_DATE_EPOCH=$TS r 3 && SOURCE_DATE_EPOCH=$TS r 4; then
	if cmp -s "$W/r3.img" "$W/r4.img" && cmp -s "$W/r1.img" "$W/r3.img"; then
		ok "SOURCE_DATE_EPOCH: byte-identical images, the same as with -T"
	else
		bad "SOURCE_DATE_EPOCH: $(cmp "$W/r3.img" "$W/r4.img" | head -1) / vs -T: $(cmp "$W/r1.img" "$W/r3.img" | head -1)"
	fi
else
	bad "mkfs with SOURCE_DATE_EPOCH failed"
fi
if r 6 -T $TS -O $ALLFEAT && r 7 -T $TS -O $ALLFEAT; then
	if cmp -s "$W/r6.img" "$W/r7.img"; then
		ok "all inode features + quota + lost+found: byte-identical images"
	else
		bad "all features: the images differ ($(cmp "$W/r6.img" "$W/r7.img" | head -1))"
	fi
	# Every inode copied keeps the tree's times, so -T only shows in the
	# inodes mkfs makes itself (lost+found, quota files).
	if r 5 -T $((TS + 1)) -O $ALLFEAT; then
		if cmp -s "$W/r6.img" "$W/r5.img"; then
			bad "-T $TS and -T $((TS + 1)) give the same image (-O lost_found,quota)"
		else
			ok "another -T gives another image (-O lost_found,quota)"
		fi
	fi
else
	bad "mkfs -O $ALLFEAT --rootdir failed"
fi
# Formatting over an earlier image with the same -U and -T and no discard
# (-t 0): the old image's nodes carry the new checkpoint's version, so
# roll-forward recovery at mount would follow them unless mkfs ends the
# node log with a zero block. A flat tree, then its first half: the second
# format's warm node log stops where the first one wrote the inode of
# f100. Our fsck follows the chain as the kernel does.
mkdir "$W/flat"
for i in $(seq 100 299); do echo "$i" >"$W/flat/f$i"; done
if mk "$W/flat.img" 64M -U "$UUID" -T $TS --rootdir "$W/flat" &&
	rm -f "$W"/flat/f2?? && "$MKFS" -f -q -t 0 -U "$UUID" -T $TS --rootdir "$W/flat" "$W/flat.img"; then
	chain=$("$FSCK" -n --json "$W/flat.img" 2>&1 | sed -n 's/.*"roll_forward":{"nodes":\([0-9]*\),.*/\1/p')
	if [[ $chain == 0 ]]; then
		ok "reformat over an earlier image (-t 0, same -U -T): no roll-forward chain"
	else
		bad "reformat over an earlier image (-t 0, same -U -T): a roll-forward chain of ${chain:-?} old nodes"
	fi
else
	bad "mkfs over an earlier image failed"
fi
rm -rf "$W/flat" "$W/flat.img"
rm -f "$W"/r[1-7].img

# A tree as a build leaves it: atimes not after the mtimes. Under relatime
# the first read of each file moves its atime, so mkfs must not let its own
# reading show up in the next image.
gentree --atime past special "$W/past"
python3 "$HERE/manifest.py" --times ma "$W/past" >"$W/past.before"
if mk "$W/p1.img" 64M -U "$UUID" -T $TS --rootdir "$W/past" &&
	mk "$W/p2.img" 64M -U "$UUID" -T $TS --rootdir "$W/past"; then
	if cmp -s "$W/p1.img" "$W/p2.img"; then
		ok "tree with old atimes: byte-identical images from two runs"
	else
		python3 "$HERE/manifest.py" --times ma "$W/past" >"$W/past.after"
		bad "tree with old atimes: two runs give different images ($(cmp "$W/p1.img" "$W/p2.img" | head -1)); mkfs moved the atimes of $(diff "$W/past.before" "$W/past.after" | grep -c '^>') of $(wc -l <"$W/past.before") entries by reading them"
	fi
else
	bad "mkfs --rootdir (old atimes) failed"
fi
# A copy of the tree (cp -a keeps the a/mtimes, not the ctimes).
cp -a "$W/past" "$W/past-copy"
if mk "$W/p3.img" 64M -U "$UUID" -T $TS --rootdir "$W/past-copy" && mk "$W/p4.img" 64M -U "$UUID" -T $TS --rootdir "$W/past-copy"; then
	if cmp -s "$W/p3.img" "$W/p4.img" && cmp -s "$W/p2.img" "$W/p4.img"; then
		note "a cp -a copy of the tree gives the same image"
	else
		note "a cp -a copy of the tree gives another image (the ctimes are copied; -T does not replace them)"
	fi
fi
rm -rf "$W"/p[1-4].img "$W/past" "$W/past-copy"

# ---- refusals --------------------------------------------------------------
# refused NAME WANT-REGEX IMAGE SECTORS|"" [mkfs options...]: exit 1, a
# message matching WANT-REGEX, and IMAGE not created (when missing) or
# unchanged.  ${RUNAS[@]} comes before mkfs.
RUNAS=()
refused() {
	local name=$1 want=$2 img=$3 sectors=$4 out rc before=''
	shift 4
	[[ -e $img ]] && before=$(md5sum <"$img")
	# shellcheck disable=SC2086  # no SECTORS: no argument
	out=$("${RUNAS[@]}" "$MKFS" "$@" "$img" $sectors 2>&1)
	rc=$?
	if ((rc != 1)); then
		bad "$name: exit $rc, not 1 ($(head -c 300 <<<"$out"))"
	elif ! grep -Eq -- "$want" <<<"$out"; then
		bad "$name: the message does not say /$want/: $(head -c 300 <<<"$out")"
	elif [[ -z $before && -e $img ]]; then
		bad "$name: created $img"
	elif [[ -n $before && $(md5sum <"$img") != "$before" ]]; then
		bad "$name: exit 1 ('$(head -1 <<<"$out" | cut -c1-100)') but the image changed: $(cmp "$img" "$W/pat60.orig" 2>&1 | grep -o 'byte [0-9]*' | sed 's/^/first change at /')"
	else
		ok "$name: exit 1, '$(head -1 <<<"$out" | cut -c1-110)'"
	fi
}
rm -f "$W/new.img"
refused "missing --rootdir" "$W/no/such/dir" "$W/new.img" 262144 -f --rootdir "$W/no/such/dir"
echo hi >"$W/a-file"
refused "a file as --rootdir" "a-file" "$W/new.img" 262144 -f --rootdir "$W/a-file"
pattern "$W/pat60.img" 60
cp "$W/pat60.img" "$W/pat60.orig"
refused "missing --rootdir, existing image" "$W/no/such/dir" "$W/pat60.img" "" -f --rootdir "$W/no/such/dir"

mkdir -p "$W/fat/d"
for i in 1 2 3 4; do head -c 20M /dev/urandom >"$W/fat/d/f$i"; done
refused "80 MiB of data, 60 MiB image" "MiB|space|fit|too (small|big|large)" "$W/pat60.img" "" -f --rootdir "$W/fat"
refused "80 MiB of data, 60 MiB image, -t 0" "MiB|space|fit|too (small|big|large)" "$W/pat60.img" "" -f -t 0 --rootdir "$W/fat"
rm -rf "$W/fat"
python3 -c 'import os, sys
d = sys.argv[1]
os.mkdir(d)
for i in range(20000):
    open("%s/f%05d" % (d, i), "w").close()' "$W/many"
refused "20000 inodes, 60 MiB image" "MiB|space|fit|inode|node|too (small|big|large)" "$W/pat60.img" "" -f --rootdir "$W/many"
rm -rf "$W/many"

# Unreadable entries: mkfs runs as nobody (root reads everything).
if command -v setpriv >/dev/null; then
	nob=$W/nobody
	mkdir -p "$nob/tree/sub"
	echo ok >"$nob/tree/a"
	echo secret >"$nob/tree/sub/z-secret"
	chmod 000 "$nob/tree/sub/z-secret"
	cp "$W/pat60.img" "$nob/t.img"
	chown -R 65534:65534 "$nob"
	chmod 755 "$nob"
	RUNAS=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	refused "unreadable file (mkfs as nobody)" "z-secret" "$nob/t.img" "" -f --rootdir "$nob/tree"
	cp "$W/pat60.img" "$nob/t.img"
	refused "unreadable file (mkfs as nobody), -t 0" "z-secret" "$nob/t.img" "" -f -t 0 --rootdir "$nob/tree"
	chmod 644 "$nob/tree/sub/z-secret"
	chmod 000 "$nob/tree/sub"
	cp "$W/pat60.img" "$nob/t.img"
	refused "unreadable directory (mkfs as nobody)" "sub" "$nob/t.img" "" -f --rootdir "$nob/tree"
	RUNAS=()
	chmod 755 "$nob/tree/sub"
else
	note "no setpriv: unreadable files not tried"
fi

# xattrs beyond an F2FS inode (about 4.2 KB): ext4 refuses such trees
# itself, so they come from a tmpfs.
XT=''
for d in /dev/shm /run /tmp; do
	[[ $(stat -f -c %T "$d" 2>/dev/null) == tmpfs && -w $d ]] || continue
	XT=$(mktemp -d "$d/$T.XXXXXX") || continue
	if python3 -c 'import os, sys
os.setxattr(sys.argv[1], "user.big", b"v" * 6000)' "$XT" 2>/dev/null; then
		break
	fi
	rm -rf "$XT"
	XT=''
done
if [[ -n $XT ]]; then
	mkdir "$XT/tree"
	echo x >"$XT/tree/f"
	python3 -c 'import os, sys
os.setxattr(sys.argv[1], "user.big", b"v" * 5000)' "$XT/tree/f"
	rm -f "$W/new.img"
	refused "xattrs larger than an inode holds" "tree/f" "$W/new.img" 262144 -f --rootdir "$XT/tree"
	rm -rf "$XT"
else
	note "no tmpfs with user xattrs: oversized xattrs not tried"
fi

# Paths longer than PATH_MAX (each name <= 255 bytes): copied, or refused
# with a message that says why.
gentree --long-paths deep "$W/long"
rm -f "$W/long.img"
out=$("$MKFS" -f -q --rootdir "$W/long" "$W/long.img" 262144 2>&1)
rc=$?
if ((rc == 0)); then
	if msg=$(fsck_ok "$W/long.img"); then
		ok "paths longer than PATH_MAX: copied, fsck clean"
	else
		bad "paths longer than PATH_MAX: fsck: $msg"
	fi
elif ((rc == 1)) && [[ ! -e $W/long.img ]] && grep -qiE 'too long|PATH_MAX|ENAMETOOLONG' <<<"$out"; then
	ok "paths longer than PATH_MAX: refused ($(sed -E 's/(x{8})x+/\1.../g; s/(y{8})y+/\1.../g' <<<"$out" | cut -c1-160))"
else
	bad "paths longer than PATH_MAX: exit $rc, image $([[ -e $W/long.img ]] && echo created || echo 'not created'), message without the reason: '$(sed -E 's/(x{8})x+/\1.../g' <<<"$out" | cut -c1-200)' (${#out} bytes)"
fi
rm -rf "$W/long" "$W/long.img"

# ---- the fullest trees that fit --------------------------------------------
# One file of growing size into a 64 MiB image: every accepted image is
# clean, every refusal leaves the image as it was.  (The sizes are no
# multiple of 2 MiB: a full last segment is checked on its own below.)
pattern "$W/pat64.img" 64
mkdir -p "$W/fit"
accepted=0 refusedn=0 lastok=0 badfit=0
for kb in $(seq 14436 512 20580); do
	head -c "${kb}K" /dev/urandom >"$W/fit/data"
	cp "$W/pat64.img" "$W/t.img"
	if out=$("$MKFS" -f -q --rootdir "$W/fit" "$W/t.img" 2>&1); then
		accepted=$((accepted + 1)) lastok=$kb
		if ! msg=$(fsck_ok "$W/t.img"); then
			bad "$kb KiB in 64 MiB: accepted but not clean: $msg"
			badfit=1
		fi
	else
		refusedn=$((refusedn + 1))
		if ! cmp -s "$W/t.img" "$W/pat64.img"; then
			bad "$kb KiB in 64 MiB: refused ($out) but the image changed"
			badfit=1
		fi
	fi
done
if ((!badfit)); then
	if ((accepted && refusedn)); then
		ok "near capacity: $accepted sizes accepted (up to $lastok KiB) and clean, $refusedn refused untouched"
	else
		bad "near capacity: $accepted accepted, $refusedn refused: the probe missed the limit"
	fi
fi
rm -rf "$W/fit" "$W/t.img"

# ---- logs that end exactly at a segment end -------------------------------
# A log whose blocks fill its last segment must move on to a new segment:
# a checkpoint with a current block offset of 512 is refused by the kernel
# ("Failed to get valid F2FS checkpoint") and by fsck.f2fs ("Checkpoint is
# polluted").
seg_case() {   # seg_case NAME TREE
	local name=$1 tree=$2
	rm -f "$W/seg.img"
	truncate -s 256M "$W/seg.img"
	if ! out=$("$MKFS" -f -q --rootdir "$tree" "$W/seg.img" 2>&1); then
		bad "$name: mkfs failed: $out"
	elif msg=$(fsck_ok "$W/seg.img"); then
		ok "$name: fsck clean"
	else
		bad "$name: $msg$([[ -x $DUMP ]] && "$DUMP" "$W/seg.img" | grep -o 'current segments:.*' | tr -s ' ')"
	fi
	rm -rf "$tree" "$W/seg.img"
}
mkdir -p "$W/seg1"
head -c 2M /dev/urandom >"$W/seg1/two-mib"
seg_case "one 2 MiB file (512 warm data blocks)" "$W/seg1"
mkdir -p "$W/seg2"
head -c 4M /dev/urandom >"$W/seg2/four-mib.so"
seg_case "one 4 MiB file with a cold extension" "$W/seg2"
python3 -c 'import os, sys
os.mkdir(sys.argv[1])
for i in range(512):
    open("%s/f%03d" % (sys.argv[1], i), "w").close()' "$W/seg3"
seg_case "512 empty files (512 warm node blocks)" "$W/seg3"
python3 -c 'import os, sys
os.mkdir(sys.argv[1])
for i in range(511):
    os.mkdir("%s/d%03d" % (sys.argv[1], i))' "$W/seg4"
seg_case "511 directories (+ root: 512 hot node blocks)" "$W/seg4"

# ---- the NAT journal beside nat_bits -------------------------------------------
# 480 files: nids 455-483 fill a few entries of NAT block 1, a set small
# enough for the NAT journal. With nat_bits the kernel never leaves entries
# in the journal, and f2fs-tools' fsck calls such nat_bits corrupted and
# rewrites the checkpoint (its -a at boot would write to a fresh image), so
# mkfs writes the block instead. peer_fsck_clean lets that message pass (it
# is benign for other images), so the raw output is read here.
if [[ -x $DUMP ]]; then
	python3 -c 'import os, sys
os.mkdir(sys.argv[1])
for i in range(480):
    with open("%s/f%03d" % (sys.argv[1], i), "w") as f:
        f.write("%d\n" % i)' "$W/nat480"
	rm -f "$W/nat.img"
	truncate -s 256M "$W/nat.img"
	if ! out=$("$MKFS" -f -q --rootdir "$W/nat480" "$W/nat.img" 2>&1); then
		bad "480 files: mkfs failed: $out"
	else
		"$DUMP" --cp "$W/nat.img" >"$W/nat.cp"
		njournal=$(sed -nE 's/^ +NAT journal entries +([0-9]+)$/\1/p' "$W/nat.cp")
		if ! grep -Eq '^ +ckpt_flags +0x[0-9a-f]+ \(.*nat_bits' "$W/nat.cp"; then
			bad "480 files: the checkpoint carries no nat_bits ($(grep ckpt_flags "$W/nat.cp"))"
		elif [[ $njournal != 0 ]]; then
			bad "480 files: ${njournal:-?} NAT journal entries beside nat_bits (want 0)"
		elif ! "$DUMP" -M "$W/nat.img" | grep -Eq '^ +blocks whose bits disagree: +0$'; then
			bad "480 files: nat_bits disagree with the NAT blocks"
		elif ! msg=$("$FSCK" -n "$W/nat.img" 2>&1); then
			bad "480 files: our fsck: $(tail -2 <<<"$msg" | tr '\n' ' ')"
		else
			ok "480 files: nat_bits, an empty NAT journal, our fsck clean"
		fi
		if ((HAVE_PEER)); then
			cp --sparse=always "$W/nat.img" "$W/nat-peer.img"
			peer=$("$PEER_FSCK" -f --dry-run "$W/nat-peer.img" 2>&1 | grep -E 'nat_bits in checkpoint')
			rm -f "$W/nat-peer.img"
			if [[ $peer == "Info: Checked valid nat_bits in checkpoint" ]]; then
				ok "480 files: fsck.f2fs checks the nat_bits valid and says nothing else of them"
			else
				bad "480 files: fsck.f2fs on nat_bits: $(tr '\n' ' ' <<<"${peer:-nothing}")"
			fi
		fi
	fi
	rm -rf "$W/nat480" "$W/nat.img" "$W/nat.cp"
else
	note "no $DUMP: the NAT journal beside nat_bits is not checked"
fi

# ---- lost+found from the tree ------------------------------------------------
lpf_count() {   # lost+found entries in the image's root (our dump.f2fs)
	"$DUMP" --ls / "$1" | awk '$NF == "lost+found"' | wc -l
}
if [[ -x $DUMP ]]; then
	mkdir -p "$W/lpfd/lost+found" "$W/lpff"
	echo a >"$W/lpfd/lost+found/kept"
	echo file >"$W/lpff/lost+found"
	for v in lpfd lpff; do
		what=$([[ $v == lpfd ]] && echo "a directory" || echo "a file")
		rm -f "$W/$v.img"
		truncate -s 64M "$W/$v.img"
		out=$("$MKFS" -f -q -O extra_attr,lost_found --rootdir "$W/$v" "$W/$v.img" 2>&1)
		rc=$?
		if ((rc == 1)) && [[ -n $out ]]; then
			ok "lost+found in the tree is $what, -O lost_found: refused ($out)"
		elif ((rc != 0)); then
			bad "lost+found in the tree is $what, -O lost_found: exit $rc: $out"
		elif n=$(lpf_count "$W/$v.img") && ((n != 1)); then
			bad "lost+found in the tree is $what, -O lost_found: the root has $n entries named lost+found ($("$DUMP" --ls / "$W/$v.img" | awk '$NF == "lost+found"' | cut -c1-10 | tr '\n' ' '))"
		elif ! msg=$(fsck_ok "$W/$v.img"); then
			bad "lost+found in the tree is $what: fsck: $msg"
		else
			ok "lost+found in the tree is $what, -O lost_found: one lost+found, fsck clean"
		fi
	done
else
	note "no $DUMP: lost+found checks left out"
fi

# ---- usability notes (not failures) ------------------------------------------
ln -s "$W/lpfd" "$W/root-link"
rm -f "$W/new.img"
if out=$("$MKFS" -f -q --rootdir "$W/root-link" "$W/new.img" 262144 2>&1); then
	note "--rootdir may be a symlink to a directory"
else
	note "--rootdir refuses a symlink to a directory: $out"
fi
finish
