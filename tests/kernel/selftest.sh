#!/usr/bin/env bash
# selftest.sh: shows that tests/kernel/kvm-run works, using Debian's own
# f2fs-tools (/usr/sbin/mkfs.f2fs, /usr/sbin/fsck.f2fs) as the reference.
# Exit: 0 all passed, 1 a test failed, 77 the harness is unavailable here.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
KVM_RUN=$HERE/kvm-run
MKFS=${SELFTEST_MKFS:-/usr/sbin/mkfs.f2fs}
FSCK=${SELFTEST_FSCK:-/usr/sbin/fsck.f2fs}
W=$(mktemp -d "${TMPDIR:-/tmp}/kvm-selftest.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
PASS=0 FAIL=0

for t in "$MKFS" "$FSCK"; do
	[[ -x $t ]] || { echo "selftest: $t missing (apt-get install f2fs-tools)"; exit 77; }
done

ok() { PASS=$((PASS + 1)); echo "PASS: $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }

# kvm JOBFILE ARGS...: run the harness, output in $W/out, status in $RC.
kvm() {
	local job=$1
	shift
	"$KVM_RUN" --timeout 300 "$@" "$job" >"$W/out" 2>"$W/err"
	RC=$?
	if ((RC == 77)); then
		cat "$W/err"
		echo "kernel selftest: harness unavailable (77)"
		exit 77
	fi
}
show() { sed 's/^/    | /' "$W/out" "$W/err"; }

mkimg() {   # mkimg FILE MIB [mkfs options]: sparse image, fresh F2FS
	local f=$1 mib=$2
	shift 2
	rm -f "$f" && truncate -s "${mib}M" "$f" && "$MKFS" -q -f "$@" "$f" >/dev/null
}

# fsck_clean IMAGE [copy]: Debian's fsck.f2fs must find nothing to fix.
fsck_clean() {
	local img=$1 out rc
	if [[ ${2-} == copy ]]; then
		cp --sparse=always "$img" "$W/fsck-copy.img" || return 1
		img=$W/fsck-copy.img
	fi
	out=$("$FSCK" -f --dry-run "$img" 2>&1)
	rc=$?
	if ((rc != 0)) || grep -Eq '\[FAIL\]|\[FIX\]|Fix' <<<"$out"; then
		echo "    fsck.f2fs $img: status $rc"
		grep -E '\[FAIL\]|\[FIX\]|Fix|rror' <<<"$out" | head -n 20 | sed 's/^/    | /'
		return 1
	fi
	rm -f "$W/fsck-copy.img"
}

# 1. mount an image made by Debian's mkfs, nat_bits, workload, unmount; fsck.
mkimg "$W/a.img" 256 || { echo "selftest: $MKFS failed"; exit 1; }
cat >"$W/job1.sh" <<'EOF'
mount -t f2fs /dev/vda /mnt || exit 10
dmesg | grep -q 'Found nat_bits in checkpoint' && echo NATBITS-OK
workload /mnt/w 200 || exit 11
[ -d /mnt/w/big ] || exit 12
umount /mnt || exit 13
echo JOB1-DONE
EOF
kvm "$W/job1.sh" -v "$W/a.img"
if ((RC == 0)) && grep -qx NATBITS-OK "$W/out" && grep -qx 'workload: /mnt/w: 200 files done' "$W/out" &&
	grep -qx JOB1-DONE "$W/out" && fsck_clean "$W/a.img" copy; then
	ok "mount + nat_bits + workload 200 + fsck clean ($(grep -o 'wall.*' "$W/err"))"
else
	bad "mount + nat_bits + workload (status $RC)"
	show
fi

# 2. two images in one boot; the extra one is given by a relative path, and
# the guest must have symlinked both its relative and absolute host paths.
if ! mkimg "$W/b1.img" 128 || ! mkimg "$W/b2.img" 128; then echo "selftest: $MKFS failed"; exit 1; fi
cat >"$W/job2.sh" <<EOF
[ "\$(readlink b2.img)" = /dev/vdb ] || { echo "no relative link"; exit 20; }
[ "\$(readlink '$W/b2.img')" = /dev/vdb ] || { echo "no absolute link"; exit 21; }
mkdir -p /mnt/1 /mnt/2
mount -t f2fs /dev/vda /mnt/1 || exit 22
mount -t f2fs /dev/vdb /mnt/2 || exit 23
workload /mnt/1/w 40 && workload /mnt/2/w 60 || exit 24
umount /mnt/1 && umount /mnt/2 || exit 25
echo JOB2-DONE
EOF
(cd "$W" && kvm "$W/job2.sh" --extra b2.img b1.img)
if ((RC == 0)) && grep -qx JOB2-DONE "$W/out" && fsck_clean "$W/b1.img" && fsck_clean "$W/b2.img"; then
	ok "two images in one boot, extra-device symlinks, both fsck clean"
else
	bad "two images in one boot (status $RC)"
	show
fi

# 3. a failing job: its status comes back; a failing workload op fails it.
cat >"$W/job3.sh" <<'EOF'
echo before-failure
mount -t f2fs -o ro /dev/vda /mnt || exit 30
if workload /mnt/ro 5; then echo WORKLOAD-IGNORED-EROFS; fi
umount /mnt
echo to-stderr >&2
exit 42
EOF
kvm "$W/job3.sh" "$W/b1.img"
if ((RC == 42)) && grep -qx before-failure "$W/out" && grep -qx to-stderr "$W/out" &&
	! grep -q WORKLOAD-IGNORED-EROFS "$W/out" && grep -q '^workload: failed' "$W/out"; then
	ok "failing job returns its status (42), workload fails on EROFS"
else
	bad "failing job (status $RC, wanted 42)"
	show
fi

# 4. a multi-device F2FS (the superblock names the second device by its host
# path), then a power cut in the middle of a workload.
rm -f "$W/m1.img" "$W/m2.img"
truncate -s 128M "$W/m1.img" "$W/m2.img"
"$MKFS" -q -f -c "$W/m2.img" "$W/m1.img" >/dev/null || { echo "selftest: multi-device mkfs failed"; exit 1; }
cat >"$W/job4.sh" <<'EOF'
mount -t f2fs /dev/vda /mnt || exit 40
workload /mnt/w 100 || exit 41
umount /mnt || exit 42
echo JOB4-DONE
EOF
kvm "$W/job4.sh" --dmesg --extra "$W/m2.img" "$W/m1.img"
if ((RC == 0)) && grep -qx JOB4-DONE "$W/out" && grep -q 'Mount Device \[ *1\]' "$W/err" && fsck_clean "$W/m1.img"; then
	ok "multi-device F2FS via --extra, fsck clean"
else
	bad "multi-device F2FS (status $RC)"
	show
fi

cat >"$W/job5.sh" <<'EOF'
mount -t f2fs /dev/vda /mnt || exit 50
echo CUT-PENDING
i=0
while :; do workload /mnt/w$i 50 >/dev/null || exit 51; i=$((i + 1)); done
EOF
kvm "$W/job5.sh" --crash-after-ms 3000 "$W/a.img"
if ((RC == 137)) && grep -qx CUT-PENDING "$W/out"; then
	ok "power cut during a workload returns 137"
else
	bad "power cut (status $RC, wanted 137)"
	show
fi

echo "kernel selftest: $PASS passed, $FAIL failed"
((FAIL == 0))
