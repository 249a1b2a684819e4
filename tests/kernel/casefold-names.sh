#!/bin/bash
# Our utf8 casefolding against Linux 6.1's: in the guest, the kernel creates
# several hundred names (tests/kernel/casefold-names.py: many scripts,
# combining marks, ignorables, characters assigned after Unicode 12.1,
# invalid UTF-8, foldings at the 255-byte limit, random strings) in a
# case-insensitive directory of an image our mkfs made (-O casefold -C utf8),
# and looks each up in other case and normal forms. On the host, the hash the
# kernel stored in every dentry must be f2fs_dentry_hash_casefold() of the
# name, and a lookup must succeed exactly when our keys of the two forms are
# equal. f2fs-tools' fsck.f2fs (which recomputes casefolded hashes with the
# kernel's tables) must find the image clean.
# Exit: 0 pass, 1 fail, 77 when the kernel harness, python3 or a static gcc
# is missing (F2FS_REQUIRE_KERNEL=1 makes that a failure).
# F2FS_KERNEL_TESTS=skip skips at once.

# make check runs this with $(SHELL), which may not be bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -u
T=casefold-names
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
SRC=${top_srcdir:-$HERE/../..}
BUILD=${top_builddir:-$SRC/build}
KVM_RUN=$SRC/tests/kernel/kvm-run
MKFS=${MKFS:-$BUILD/mkfs/mkfs.f2fs}
CFTOOL=$BUILD/tests/kernel/cf-tool
PEER_FSCK=${PEER_FSCK:-/usr/sbin/fsck.f2fs}
# shellcheck source=../lib/peer-fsck.sh
. "$SRC/tests/lib/peer-fsck.sh"
# shellcheck source=../lib/report.sh
. "$SRC/tests/lib/report.sh"

[[ ${F2FS_KERNEL_TESTS:-auto} == skip ]] && { echo "$T: skipped (F2FS_KERNEL_TESTS=skip)"; exit 77; }
[[ -x $MKFS && -x $CFTOOL ]] || { echo "$T: no mkfs or tests/kernel/cf-tool under $BUILD"; exit 1; }
command -v python3 >/dev/null || skip "python3 missing" F2FS_REQUIRE_KERNEL

W=$(mktemp -d "${TMPDIR:-/tmp}/$T.XXXXXX") || exit 1
if [[ -n ${F2FS_KEEP_TMP:-} ]]; then echo "$T: keeping $W"; else trap 'rm -rf "$W"' EXIT; fi
CC=${CC:-gcc}
for h in chflag-casefold mknames; do
	if ! "$CC" -static -O2 -o "$W/$h" "$SRC/tests/kernel/guest/src/$h.c" 2>"$W/cc.err"; then
		head -5 "$W/cc.err"
		skip "cannot build a static helper with $CC (libc6-dev?)" F2FS_REQUIRE_KERNEL
	fi
done

python3 "$SRC/tests/kernel/casefold-names.py" gen "$W" || { bad "name generation"; finish; }
"$CFTOOL" keys <"$W/names.hex" >"$W/names.keys"
cut -d' ' -f2 "$W/alts.hex" | "$CFTOOL" keys >"$W/alts.keys"

truncate -s 128M "$W/cf.img"
"$MKFS" -q -f -O casefold -C utf8 "$W/cf.img" || { bad "mkfs -O casefold -C utf8"; finish; }
{
	echo 'mkdir -p /mnt/t && mount -t f2fs /dev/vda /mnt/t || { echo MOUNT-FAILED; exit 1; }'
	echo 'mkdir /mnt/t/cf && chflag-casefold /mnt/t/cf || { echo CHATTR-FAILED; exit 1; }'
	echo 'cd /mnt/t/cf && mknames <<"NAMES"'
	sed 's/^/C /' "$W/names.hex"
	cut -d' ' -f2 "$W/alts.hex" | sed 's/^/L /'
	echo 'NAMES'
	echo 'cd / && umount /mnt/t && echo UMOUNT-OK'
} >"$W/job.sh"

"$KVM_RUN" --timeout 300 --dmesg --file "$W/chflag-casefold" --file "$W/mknames" \
	"$W/cf.img" "$W/job.sh" >"$W/guest.out" 2>"$W/err"
rc=$?
((rc == 77)) && { cat "$W/err"; skip "kernel harness unavailable" F2FS_REQUIRE_KERNEL; }
if ((rc != 0)) || ! grep -qx UMOUNT-OK "$W/guest.out"; then
	bad "kernel job: status $rc"
	tail -20 "$W/guest.out" "$W/err" | sed 's/^/    | /'
	finish
fi
ok "the kernel created and looked up the names, and unmounted"

if "$CFTOOL" dir "$W/cf.img" /cf >"$W/stored.txt"; then
	if python3 "$SRC/tests/kernel/casefold-names.py" compare "$W" >"$W/cmp"; then
		ok "$(tail -1 "$W/cmp")"
	else
		bad "our folding differs from the kernel's:"
		sed 's/^/    | /' "$W/cmp"
	fi
else
	bad "reading the directory back"
fi
if grep '^kernel: ' "$W/err" | grep -E 'BUG|WARNING|Oops|Call Trace|[Cc]orrupt|[Ii]nconsisten' >"$W/kbad"; then
	bad "kernel messages: $(head -5 "$W/kbad" | tr '\n' ' ')"
else
	ok "no kernel complaints"
fi
if [[ -x $PEER_FSCK ]]; then
	if msg=$(peer_fsck_clean "$W/cf.img" "$W/copy.img"); then
		ok "f2fs-tools' fsck.f2fs finds the image clean (casefolded hashes included)"
	else
		bad "f2fs-tools' fsck.f2fs: $msg"
	fi
else
	note "f2fs-tools missing: no peer check"
fi
finish
