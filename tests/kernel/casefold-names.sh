#!/bin/bash
# Our utf8 casefolding against Linux 6.1's: in the guest, the kernel creates
# several hundred names (tests/kernel/casefold-names.py: many scripts,
# combining marks, ignorables, characters assigned after Unicode 12.1,
# invalid UTF-8, foldings at the 255-byte limit, random strings) in a
# case-insensitive directory of an image our mkfs made (-O casefold -C utf8),
# and looks each up in other case and normal forms. On the host, the hash the
# kernel stored in every dentry must be f2fs_dentry_hash_casefold() of the
# name, and a lookup must succeed exactly when our keys of the two forms are
# equal. In the same boot our static mkfs.f2fs --rootdir copies the directory
# (and refuses it under -C utf8:strict, for its invalid names); the kernel
# must find the same forms in the copy, whose dentries carry the same
# hashes. f2fs-tools' fsck.f2fs (which recomputes casefolded hashes with the
# kernel's tables) must find both images clean.
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
FSCK=${FSCK:-$BUILD/fsck/fsck.f2fs}
DUMP=${DUMP:-$BUILD/dump/dump.f2fs}
CFTOOL=$BUILD/tests/kernel/cf-tool
PEER_FSCK=${PEER_FSCK:-/usr/sbin/fsck.f2fs}
# shellcheck source=../lib/peer-fsck.sh
. "$SRC/tests/lib/peer-fsck.sh"
# shellcheck source=../lib/report.sh
. "$SRC/tests/lib/report.sh"

[[ ${F2FS_KERNEL_TESTS:-auto} == skip ]] && { echo "$T: skipped (F2FS_KERNEL_TESTS=skip)"; exit 77; }
[[ -x $MKFS && -x $CFTOOL ]] || { echo "$T: no mkfs or tests/kernel/cf-tool under $BUILD"; exit 1; }
# The guest runs our mkfs from the initrd: it must not need libraries.
if ! command -v readelf >/dev/null || readelf -l "$MKFS" 2>/dev/null | grep -q INTERP; then
	skip "$MKFS is not statically linked (configure --disable-static-tools?)" ""
fi
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

# run_case NAME [ENV=VALUE]: one boot over one set of names, in $W/NAME
run_case() {
	local c=$1 d=$W/$1 rc img
	mkdir "$d"
	env ${2:+"$2"} python3 "$SRC/tests/kernel/casefold-names.py" gen "$d" >/dev/null ||
		{ bad "$c: name generation"; return; }
	"$CFTOOL" keys <"$d/names.hex" >"$d/names.keys"
	cut -d' ' -f2 "$d/alts.hex" | "$CFTOOL" keys >"$d/alts.keys"
	truncate -s 128M "$d/cf.img" "$d/copy.img"
	"$MKFS" -q -f -O casefold -C utf8 "$d/cf.img" || { bad "$c: mkfs -O casefold -C utf8"; return; }
	{
		echo 'mkdir -p /mnt/t && mount -t f2fs /dev/vda /mnt/t || { echo MOUNT-FAILED; exit 1; }'
		echo 'mkdir /mnt/t/cf && chflag-casefold /mnt/t/cf || { echo CHATTR-FAILED; exit 1; }'
		echo 'cd /mnt/t/cf && mknames <<"NAMES"'
		sed 's/^/C /' "$d/names.hex"
		cut -d' ' -f2 "$d/alts.hex" | sed 's/^/L /'
		echo 'NAMES'
		echo 'cd /'
		# our mkfs --rootdir copies the directory: refused under strict
		# when a name has no key, else made; the kernel looks the other
		# forms up in the copy
		echo 'mkfs.f2fs -q -f -O casefold -C utf8:strict --rootdir /mnt/t /dev/vdb >/tmp/strict 2>&1'
		echo 'echo "STRICT rc=$? $(cat /tmp/strict)"'
		echo 'mkfs.f2fs -q -f -O casefold -C utf8 --rootdir /mnt/t /dev/vdb; echo "MKFS rc=$?"'
		echo 'umount /mnt/t && mkdir -p /mnt/d && mount -t f2fs /dev/vdb /mnt/d || { echo COPY-MOUNT-FAILED; exit 1; }'
		echo 'echo COPY-BEGIN; cd /mnt/d/cf && mknames <<"NAMES"'
		cut -d' ' -f2 "$d/alts.hex" | sed 's/^/L /'
		echo 'NAMES'
		echo 'cd / && umount /mnt/d && echo UMOUNT-OK'
	} >"$d/job.sh"

	"$KVM_RUN" --timeout 300 --dmesg --file "$W/chflag-casefold" --file "$W/mknames" \
		--file "$MKFS" --extra "$d/copy.img" "$d/cf.img" "$d/job.sh" >"$d/all.out" 2>"$d/err"
	rc=$?
	((rc == 77)) && { cat "$d/err"; skip "kernel harness unavailable" F2FS_REQUIRE_KERNEL; }
	if ((rc != 0)) || ! grep -aqx UMOUNT-OK "$d/all.out"; then
		bad "$c: kernel job: status $rc"
		tail -20 "$d/all.out" "$d/err" | sed 's/^/    | /'
		return
	fi
	ok "$c: the kernel created and looked up $(wc -l <"$d/names.hex") names, and unmounted"
	sed '/^COPY-BEGIN$/,$d' "$d/all.out" >"$d/guest.out"
	sed '1,/^COPY-BEGIN$/d' "$d/all.out" >"$d/copy.out"
	if LC_ALL=C grep -aq "^STRICT rc=1 mkfs.f2fs: --rootdir: /mnt/t/cf is case-insensitive and -C utf8:strict refuses a name that \(is not valid UTF-8\|folds to .*\): '" "$d/all.out"; then
		ok "$c: mkfs -C utf8:strict --rootdir refuses a name without a key, naming it"
	else
		bad "$c: strict refusal: $(grep -a '^STRICT' "$d/all.out")"
	fi
	if grep -aqx "MKFS rc=0" "$d/all.out"; then
		ok "$c: mkfs -O casefold -C utf8 --rootdir copies the directory"
	else
		bad "$c: mkfs --rootdir of the names: $(grep -a -A3 '^MKFS' "$d/all.out" | head -3)"
	fi
	if "$CFTOOL" dir "$d/cf.img" /cf >"$d/stored.txt" &&
	   "$CFTOOL" dir "$d/copy.img" /cf >"$d/copy-stored.txt"; then
		if python3 "$SRC/tests/kernel/casefold-names.py" compare "$d" >"$d/cmp"; then
			ok "$c: $(tail -1 "$d/cmp")"
		else
			bad "$c: our folding differs from the kernel's:"
			sed 's/^/    | /' "$d/cmp"
		fi
	else
		bad "$c: reading the directories back"
	fi
	if grep -a '^kernel: ' "$d/err" | grep -aE 'BUG|WARNING|Oops|Call Trace|[Cc]orrupt|[Ii]nconsisten' >"$d/kbad"; then
		bad "$c: kernel messages: $(head -5 "$d/kbad" | tr '\n' ' ')"
	else
		ok "$c: no kernel complaints"
	fi
	if [[ ! -x $PEER_FSCK ]]; then
		note "f2fs-tools missing: no peer check"
	elif [[ $c == divergent ]]; then
		note "$c: no f2fs-tools check: it hashes these names' foldings, the kernel their bytes"
	else
		for img in cf copy; do
			if msg=$(peer_fsck_clean "$d/$img.img" "$d/peer.img"); then
				ok "$c: f2fs-tools' fsck.f2fs finds $img.img clean (casefolded hashes included)"
			else
				bad "$c: f2fs-tools' fsck.f2fs on $img.img: $msg"
			fi
		done
	fi
	our_fsck "$c" "$d"
}

# our_fsck CASE DIR: our fsck finds the kernel's image and our copy clean,
# and catches the hash of one non-ASCII name damaged in a copy
our_fsck() {
	local c=$1 d=$2 img
	for img in cf copy; do
		if "$FSCK" -n "$d/$img.img" >"$d/fsck.out" 2>&1; then
			ok "$c: our fsck.f2fs finds $img.img clean (casefolded hashes included)"
		else
			bad "$c: our fsck.f2fs on $img.img: $(grep -m3 -E '^(ERROR|WARNING)' "$d/fsck.out" | tr '\n' ' ')"
		fi
	done
	[[ $c == names ]] || return   # the divergent names have no key to damage
	# dump.f2fs finds names by any form the kernel finds them by: every
	# other form whose key equals its name's resolves to the same inode
	if python3 - "$d" "$DUMP" <<'PY'
import subprocess, sys
d, dump = sys.argv[1], sys.argv[2]
names = [l.split() for l in open(d + '/names.keys')]
alts = [l.split() for l in open(d + '/alts.hex')]
akeys = [l.split() for l in open(d + '/alts.keys')]
def ino(img, name):
    r = subprocess.run([dump, '-i', b'/cf/' + name, img], capture_output=True)
    for line in r.stdout.decode('utf-8', 'replace').splitlines():
        if line.startswith('Inode '):
            return line.split()[1].rstrip(':')
    return None
tried = 0
for (idx, althex), (_, _, akey) in zip(alts, akeys):
    nhex, _, nkey = names[int(idx) - 1]   # alts count names from 1
    name, alt = bytes.fromhex(nhex), bytes.fromhex(althex)
    if akey == '-' or akey != nkey or alt == name or b'/' in alt or 0 in alt:
        continue
    for img in ('cf', 'copy'):
        a, b = ino(d + '/' + img + '.img', name), ino(d + '/' + img + '.img', alt)
        if not a or a != b:
            sys.exit('%s: %s -> %s, %s -> %s' % (img, nhex, a, althex, b))
    tried += 1
    if tried == 200:
        break
print(tried)
sys.exit(0 if tried else 'no other forms to try')
PY
	then
		ok "$c: dump.f2fs finds names by their other case and normal forms, as the kernel does"
	else
		bad "$c: dump.f2fs lookup by another form"
	fi
	cp --sparse=always "$d/cf.img" "$d/bad.img"
	if ! python3 - "$d" "$SRC/tests/fsck/damage.py" <<'PY'
import subprocess, sys
d, damage = sys.argv[1], sys.argv[2]
for line in open(d + '/names.keys'):
    hexname, _, key = line.split()
    name = bytes.fromhex(hexname)
    if key != '-' and any(b >= 0x80 for b in name) and all(b >= 0x20 for b in name) and b'/' not in name:
        subprocess.run([sys.executable, damage, d + '/bad.img', 'dentry', '/cf', name, 'hash', '0x12345678'], check=True)
        break
else:
    sys.exit('no non-ASCII name with a key')
PY
	then
		bad "$c: damaging one hash"
		return
	fi
	if ! "$FSCK" -n "$d/bad.img" >"$d/fsck.out" 2>&1 && grep -q '^ERROR dir.bad_hash .*found 305419896' "$d/fsck.out"; then
		ok "$c: our fsck.f2fs catches the damaged hash of a non-ASCII name"
	else
		bad "$c: damaged hash not caught: $(head -3 "$d/fsck.out" | tr '\n' ' ')"
	fi
	repaired_lookups "$c" "$d"
}

# repaired_lookups CASE DIR: fsck -y puts the damaged hash right, and the
# kernel then finds every name, and every other form of one, as it did in
# the undamaged directory (a name whose hash is wrong is not found by a
# lookup: the kernel looks in the bucket of the right hash)
repaired_lookups() {
	local c=$1 d=$2 rc=0
	"$FSCK" -y "$d/bad.img" >"$d/fix.out" 2>&1 || rc=$?
	if [[ $rc == 1 ]] && grep -q '^ERROR dir.bad_hash .*: fixed (field)$' "$d/fix.out" &&
	   "$FSCK" -n "$d/bad.img" >/dev/null 2>&1; then
		ok "$c: fsck.f2fs -y fixes the hash with the kernel's folding; the next check is clean"
	else
		bad "$c: repair of the damaged hash (exit $rc): $(head -3 "$d/fix.out" | tr '\n' ' ')"
		return
	fi
	{
		echo 'mkdir -p /mnt/r && mount -t f2fs /dev/vda /mnt/r || { echo MOUNT-FAILED; exit 1; }'
		echo 'cd /mnt/r/cf && mknames <<"NAMES"'
		sed 's/^/L /' "$d/names.hex"
		cut -d' ' -f2 "$d/alts.hex" | sed 's/^/L /'
		echo 'NAMES'
		echo 'cd / && umount /mnt/r && echo UMOUNT-OK'
	} >"$d/rjob.sh"
	rc=0
	"$KVM_RUN" --timeout 300 --file "$W/mknames" "$d/bad.img" "$d/rjob.sh" >"$d/r.out" 2>"$d/r.err" || rc=$?
	# the lookups of the first boot: the names as created, then the other forms
	grep -a '^C ' "$d/guest.out" | awk '{ print "L", NR, $3 }' >"$d/want"
	grep -a '^L ' "$d/guest.out" | awk -v n="$(grep -ac '^C ' "$d/guest.out")" '{ print "L", NR + n, $3 }' >>"$d/want"
	if ((rc == 0)) && grep -aqx UMOUNT-OK "$d/r.out" && diff <(grep -a '^L ' "$d/r.out") "$d/want" >"$d/r.diff"; then
		ok "$c: the kernel finds all $(wc -l <"$d/want") names and forms in the repaired directory as in the undamaged one"
	else
		bad "$c: kernel lookups in the repaired directory (status $rc): $(head -3 "$d/r.diff" | tr '\n' ' ')"
	fi
}

run_case names
run_case divergent F2FS_CF_ONLY_DIVERGENT=1
finish
