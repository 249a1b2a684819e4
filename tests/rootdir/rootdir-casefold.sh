#!/bin/bash
# mkfs.f2fs --rootdir with case-insensitive source directories, on the real
# kernel. This host's kernel has no Unicode support, so the source tree is
# made in the guest: an F2FS with -O casefold (made here by our mkfs) is
# mounted there, directories are made case-insensitive (chattr +F, by the
# static helper tests/kernel/guest/src/chflag-casefold.c), filled, and our
# static mkfs.f2fs, shipped into the guest, copies the tree into a second
# image. Then, in the same boot:
#   - without -O casefold, mkfs refuses the tree with a one-line error;
#   - with it, the kernel mounts the copy, finds names in any case in the
#     casefolded directories (a 300-name one spans hashed dentry blocks,
#     so lookups go through the folded-name hash), not in plain ones, and
#     the flag is kept on each directory;
#   - the kernel adds a file to a casefolded directory and unmounts.
# On the host: f2fs-tools' fsck.f2fs -f --dry-run (which recomputes the
# folded hashes) and our fsck find the copy clean.
# Exit: 0 pass, 1 fail, 77 when the kernel harness, f2fs-tools or a static
# gcc is missing (F2FS_REQUIRE_KERNEL=1 / F2FS_REQUIRE_PEER=1 make those
# failures). F2FS_KERNEL_TESTS=skip skips at once.

# make check runs this with $(SHELL), which may not be bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u
T=rootdir-casefold
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
SRC=${top_srcdir:-$HERE/../..}
BUILD=${top_builddir:-$SRC/build}
KVM_RUN=$SRC/tests/kernel/kvm-run
MKFS=${MKFS:-$BUILD/mkfs/mkfs.f2fs}
FSCK=$BUILD/fsck/fsck.f2fs
PEER_FSCK=${PEER_FSCK:-/usr/sbin/fsck.f2fs}
# shellcheck source=../lib/peer-fsck.sh
. "$SRC/tests/lib/peer-fsck.sh"
# shellcheck source=../lib/report.sh
. "$SRC/tests/lib/report.sh"

[[ ${F2FS_KERNEL_TESTS:-auto} == skip ]] && { echo "$T: skipped (F2FS_KERNEL_TESTS=skip)"; exit 77; }
[[ -x $MKFS && -x $FSCK ]] || { echo "$T: no mkfs/fsck under $BUILD"; exit 1; }
[[ -x $PEER_FSCK ]] || skip "$PEER_FSCK missing (apt-get install f2fs-tools)" F2FS_REQUIRE_PEER
# The guest runs our tools from the initrd: they must not need libraries.
for t in "$MKFS" "$FSCK"; do
	if ! command -v readelf >/dev/null || readelf -l "$t" 2>/dev/null | grep -q INTERP; then
		skip "$t is not statically linked (configure --disable-static-tools?)" ""
	fi
done

W=$(mktemp -d "${TMPDIR:-/tmp}/$T.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
CC=${CC:-gcc}
if ! "$CC" -static -O2 -o "$W/chflag-casefold" "$SRC/tests/kernel/guest/src/chflag-casefold.c" 2>"$W/cc.err"; then
	head -5 "$W/cc.err"
	skip "cannot build a static helper with $CC (libc6-dev?)" F2FS_REQUIRE_KERNEL
fi
mkdir "$W/bin"
cp "$MKFS" "$FSCK" "$W/bin/"

truncate -s 128M "$W/src.img" "$W/dst.img"
"$MKFS" -q -f -O casefold -C utf8 "$W/src.img" || { bad "mkfs of the source image"; finish; }

cat >"$W/job.sh" <<'JOB'
mkdir -p /mnt/src /mnt/dst
mount -t f2fs /dev/vda /mnt/src || { echo "SRC-MOUNT-FAILED"; exit 1; }
mkdir /mnt/src/cf /mnt/src/plain
chflag-casefold /mnt/src/cf || { echo "CHATTR-FAILED"; exit 1; }
mkdir /mnt/src/cf/Sub
echo hello >/mnt/src/cf/Hello.TXT
echo readme >/mnt/src/cf/Sub/README.md
i=0
while [ $i -lt 300 ]; do echo $i >/mnt/src/cf/Sub/File-$i.Dat; i=$((i + 1)); done
echo plain >/mnt/src/plain/File
echo "SRC-SUB $(chflag-casefold -q /mnt/src/cf/Sub)"
mkfs.f2fs -q -f --rootdir /mnt/src /dev/vdb >/tmp/refuse.out 2>&1
echo "REFUSE rc=$? $(cat /tmp/refuse.out)"
mkfs.f2fs -q -f -O casefold -C utf8 --rootdir /mnt/src /dev/vdb
echo "MKFS rc=$?"
umount /mnt/src
mount -t f2fs /dev/vdb /mnt/dst || { echo "DST-MOUNT-FAILED"; exit 1; }
for p in cf/hello.txt cf/HELLO.TXT cf/Hello.TXT cf/sub/readme.MD cf/SUB/file-299.DAT \
	 cf/sub/FILE-7.dat plain/File plain/file CF/hello.txt; do
	if v=$(cat /mnt/dst/$p 2>/dev/null); then echo "LOOKUP $p = $v"; else echo "LOOKUP $p missing"; fi
done
echo "FLAGS $(chflag-casefold -q /mnt/dst/cf) $(chflag-casefold -q /mnt/dst/cf/Sub) $(chflag-casefold -q /mnt/dst/plain) $(chflag-casefold -q /mnt/dst)"
echo "COUNT $(ls /mnt/dst/cf/Sub | wc -l)"
echo new >/mnt/dst/cf/NewFile
echo "NEW $(cat /mnt/dst/cf/NEWFILE)"
umount /mnt/dst && echo "UMOUNT-OK"
JOB

"$KVM_RUN" --timeout 300 --dmesg --file "$W/chflag-casefold" --file "$W/bin/mkfs.f2fs" \
	--file "$W/bin/fsck.f2fs" --extra "$W/dst.img" "$W/src.img" "$W/job.sh" \
	>"$W/out" 2>"$W/err"
rc=$?
((rc == 77)) && { cat "$W/err"; skip "kernel harness unavailable" F2FS_REQUIRE_KERNEL; }
if ((rc != 0)); then
	bad "kernel job: status $rc"
	tail -20 "$W/out" "$W/err" | sed 's/^/    | /'
	finish
fi

expect() {   # expect LINE WHAT: the guest printed LINE exactly
	if grep -qxF -- "$1" "$W/out"; then ok "$2"; else
		bad "$2: no line '$1' in:"
		sed 's/^/    | /' "$W/out" | tail -25
	fi
}
expect "SRC-SUB casefold" "the guest kernel made a case-insensitive source tree"
expect "REFUSE rc=1 mkfs.f2fs: --rootdir: /mnt/src/cf is case-insensitive (chattr +F); the image needs -O casefold" \
	"without -O casefold mkfs refuses, naming the directory"
expect "MKFS rc=0" "mkfs -O casefold -C utf8 --rootdir copies the tree"
expect "LOOKUP cf/hello.txt = hello" "casefolded lookup, lower case"
expect "LOOKUP cf/HELLO.TXT = hello" "casefolded lookup, upper case"
expect "LOOKUP cf/Hello.TXT = hello" "lookup as stored"
expect "LOOKUP cf/sub/readme.MD = readme" "casefolded lookups through two directories"
expect "LOOKUP cf/SUB/file-299.DAT = 299" "casefolded lookup in a 300-name hashed directory"
expect "LOOKUP cf/sub/FILE-7.dat = 7" "another name of the hashed directory"
expect "LOOKUP plain/File = plain" "plain directory, exact name"
expect "LOOKUP plain/file missing" "plain directory stays case-sensitive"
expect "LOOKUP CF/hello.txt missing" "the root (not casefolded in the source) stays case-sensitive"
expect "FLAGS casefold casefold plain plain" "the casefold flag is kept per directory"
expect "COUNT 301" "the hashed directory lists all its names (300 files and README.md)"
expect "NEW new" "the kernel adds and finds a file in a casefolded directory"
expect "UMOUNT-OK" "clean unmount"
kbad='[Ee]rror|[Ii]nconsisten|[Cc]orrupt|[Ww]rong|[Ii]nvalid|fsck|BUG|WARNING|Oops|Call Trace'
if grep '^kernel: ' "$W/err" | grep -E "$kbad" >"$W/kbad"; then
	bad "kernel messages: $(head -5 "$W/kbad" | tr '\n' ' ')"
else
	ok "no kernel complaints"
fi
if msg=$(peer_fsck_clean "$W/dst.img" "$W/copy.img"); then
	ok "f2fs-tools' fsck.f2fs finds the copy clean (casefolded hashes included)"
else
	bad "f2fs-tools' fsck.f2fs: $msg"
fi
if out=$("$FSCK" -f -n "$W/dst.img" 2>&1); then
	ok "our fsck finds the copy clean"
else
	bad "our fsck: $(tail -3 <<<"$out" | tr '\n' ' ')"
fi
finish
