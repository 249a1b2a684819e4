#!/bin/bash
# fscrypt in the kvm-run guest, end to end, in one boot of Linux 6.1: on an
# image our mkfs made with -O encrypt, the guest helper fscrypt-key
# (tests/kernel/guest/src/fscrypt-key.c, built static here) adds its test
# key and gives an empty directory a v2 policy (AES-256-XTS, AES-256-CTS);
# files, a subdirectory and a symlink are written there and the image is
# unmounted. Mounted again without the key, the directory lists no-key names
# only and its files cannot be read; mounted with the key, the names and
# contents are back. Our fsck (and f2fs-tools' when installed) then finds
# the image clean. The base for tests that make power-cut images holding
# encrypted files.
# Exit: 0 pass, 1 fail, 77 when the kernel harness or a static C compiler
# is missing, or with F2FS_KERNEL_TESTS=skip (F2FS_REQUIRE_KERNEL=1 makes a
# missing harness a failure).

# make check runs this with $(SHELL), which may not be bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u
T=fscrypt-smoke
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
SRC=${top_srcdir:-$HERE/../..}
BUILD=${top_builddir:-$SRC/build}
KVM_RUN=$SRC/tests/kernel/kvm-run
MKFS=${MKFS:-$BUILD/mkfs/mkfs.f2fs}
FSCK=${FSCK:-$BUILD/fsck/fsck.f2fs}
PEER_FSCK=${PEER_FSCK:-/usr/sbin/fsck.f2fs}
# shellcheck source=../lib/peer-fsck.sh
. "$SRC/tests/lib/peer-fsck.sh"
# shellcheck source=../lib/report.sh
. "$SRC/tests/lib/report.sh"

[[ ${F2FS_KERNEL_TESTS:-auto} == skip ]] && { echo "$T: skipped (F2FS_KERNEL_TESTS=skip)"; exit 77; }
[[ -x $MKFS && -x $FSCK ]] || { echo "$T: no mkfs.f2fs or fsck.f2fs under $BUILD"; exit 1; }

W=$(mktemp -d "${TMPDIR:-/tmp}/$T.XXXXXX") || exit 1
if [[ -n ${F2FS_KEEP_TMP:-} ]]; then echo "$T: keeping $W"; else trap 'rm -rf "$W"' EXIT; fi
CC=${CC:-gcc}
if ! "$CC" -static -O2 -o "$W/fscrypt-key" "$SRC/tests/kernel/guest/src/fscrypt-key.c" 2>"$W/cc.err"; then
	head -5 "$W/cc.err"
	skip "cannot build a static helper with $CC (libc6-dev?)" F2FS_REQUIRE_KERNEL
fi

IMG=$W/enc.img
truncate -s 64M "$IMG"
"$MKFS" -q -f -O encrypt "$IMG" || { bad "mkfs -O encrypt"; finish; }

# Each phase mounts the image anew: the key lives in the mounted
# filesystem's keyring, so a fresh mount starts without it.
cat >"$W/job.sh" <<'JOB'
mkdir -p /mnt/t
fail() { echo "FAILED: $*"; exit 1; }
mount -t f2fs /dev/vda /mnt/t || fail mount
fscrypt-key add /mnt/t || fail add
mkdir /mnt/t/e && fscrypt-key policy /mnt/t/e || fail policy
cd /mnt/t/e || fail cd
echo "fscrypt smoke: the plain text" >hello.txt || fail write
seq 1 40000 >big || fail write big
mkdir sub && echo inner >sub/inner || fail write sub
ln -s hello.txt link || fail symlink
echo "WROTE $(ls | tr '\n' ' ')$(md5sum big)"
cd / && sync && umount /mnt/t || fail umount

mount -t f2fs /dev/vda /mnt/t || fail mount 2
echo "NOKEY $(ls /mnt/t/e | tr '\n' ' ')"
for f in /mnt/t/e/*; do
	[ -f "$f" ] || continue
	cat "$f" >/dev/null 2>/tmp/err && echo "NOKEY-READ ${f##*/}: readable" ||
		echo "NOKEY-READ ${f##*/}: $(sed 's/.*: //' /tmp/err)"
done
touch /mnt/t/e/new 2>/tmp/err && echo "NOKEY-CREATE allowed" ||
	echo "NOKEY-CREATE $(sed 's/.*: //' /tmp/err)"
umount /mnt/t || fail umount 2

mount -t f2fs /dev/vda /mnt/t || fail mount 3
fscrypt-key add /mnt/t || fail add 3
cd /mnt/t/e || fail cd 3
echo "KEY $(ls | tr '\n' ' ')"
echo "KEY-READ $(cat hello.txt) | $(cat sub/inner) | $(readlink link) | $(md5sum big)"
cd / && umount /mnt/t || fail umount 3
echo DONE
JOB

"$KVM_RUN" -v --timeout 300 --dmesg --file "$W/fscrypt-key" "$IMG" "$W/job.sh" >"$W/out" 2>"$W/err"
rc=$?
((rc == 77)) && { cat "$W/err"; skip "kernel harness unavailable" F2FS_REQUIRE_KERNEL; }
sed 's/^/    | /' "$W/out"
grep '^kvm-run: wall' "$W/err" | sed 's/^kvm-run: /NOTE: /'
if ((rc != 0)) || ! grep -qx DONE "$W/out"; then
	bad "guest job: status $rc"
	grep -v '^kvm-run: wall' "$W/err" | tail -20 | sed 's/^/    | /'
	finish
fi

wrote=$(grep '^WROTE ' "$W/out")
want_md5=$(awk '{ print $(NF - 1) }' <<<"$wrote")
if [[ $wrote == "WROTE big hello.txt link sub "* && $want_md5 == "$(seq 1 40000 | md5sum | cut -d' ' -f1)" ]]; then
	ok "with the key added, an encrypted directory takes files, a subdirectory and a symlink"
else
	bad "writing the encrypted directory: $wrote"
fi
nokey=$(sed -n 's/^NOKEY //p' "$W/out")
read -ra names <<<"$nokey"
if ((${#names[@]} == 4)) && ! grep -qE '(^| )(big|hello\.txt|link|sub)( |$)' <<<"$nokey"; then
	ok "without the key: 4 entries, no plain name among them (${names[0]} ...)"
else
	bad "without the key, ls shows: $nokey"
fi
if grep -q '^NOKEY-READ ' "$W/out" && ! grep '^NOKEY-READ ' "$W/out" | grep -qv 'Required key not available$' &&
   grep -qx 'NOKEY-CREATE Required key not available' "$W/out"; then
	ok "without the key: reading a file and creating one fail with ENOKEY"
else
	bad "without the key: $(grep -E '^NOKEY-(READ|CREATE)' "$W/out" | tr '\n' ' ')"
fi
if grep -qx 'KEY big hello.txt link sub ' "$W/out" &&
   grep -qx "KEY-READ fscrypt smoke: the plain text | inner | hello.txt | $want_md5  big" "$W/out"; then
	ok "with the key added again: the names, contents and symlink target are back"
else
	bad "with the key: $(grep -E '^KEY' "$W/out" | tr '\n' ' ')"
fi
if grep '^kernel: ' "$W/err" | grep -E 'BUG|WARNING|Oops|Call Trace|[Cc]orrupt|[Ii]nconsisten' >"$W/kbad"; then
	bad "kernel messages: $(head -5 "$W/kbad" | tr '\n' ' ')"
else
	ok "no kernel complaints"
fi

if "$FSCK" -n "$IMG" >"$W/fsck.out" 2>&1; then
	ok "our fsck.f2fs -n finds the image clean"
else
	bad "our fsck.f2fs -n: $(grep -m3 -E '^(ERROR|WARNING)' "$W/fsck.out" | tr '\n' ' ')"
	sed 's/^/    | /' "$W/fsck.out" | head -20
fi
if [[ ! -x $PEER_FSCK ]]; then
	note "f2fs-tools missing: no peer check"
elif msg=$(peer_fsck_clean "$IMG" "$W/peer.img"); then
	ok "f2fs-tools' fsck.f2fs finds the image clean"
else
	bad "f2fs-tools' fsck.f2fs: $msg"
fi
finish
