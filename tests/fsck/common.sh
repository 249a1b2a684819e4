# shellcheck shell=bash
# Shared by the tests/fsck scripts: tool paths and a small varied tree.
HERE=${HERE:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)}
TOP_BUILD=${top_builddir:-$HERE/../..}
FSCK=${FSCK:-$TOP_BUILD/fsck/fsck.f2fs}
MKFS=${MKFS:-$TOP_BUILD/mkfs/mkfs.f2fs}
DAMAGE=${DAMAGE:-$HERE/damage.py}
INJECT=${INJECT:-$TOP_BUILD/inject/inject.f2fs}
export LC_ALL=C TZ=UTC

PASS=0 FAIL=0
ok() { PASS=$((PASS + 1)); echo "PASS: $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }

# make_tree DIR: files of several sizes, a directory of 150 long names (more than
# one dentry block), nested directories, symlinks (short and long), hard
# links, xattrs (when setfattr works), an empty file. Content compresses well.
make_tree() {
	local d=$1 i
	mkdir -p "$d/big" "$d/a/b/c" "$d/empty_dir"
	echo hello >"$d/small.txt"
	: >"$d/empty"
	yes 'some text in a file' | head -c 20000 >"$d/a/twenty_k"
	yes 'block' | head -c 2500000 >"$d/a/b/dense"
	truncate -s 4000000 "$d/a/b/sparse" && echo tail >>"$d/a/b/sparse"
	for i in $(seq 1 150); do echo "$i" >"$d/big/a_rather_long_entry_name_$i"; done
	ln -s small.txt "$d/link"
	ln -s "$(printf 'long%.0s' $(seq 1 200))" "$d/a/longlink"
	ln "$d/small.txt" "$d/a/b/c/hard"
	if command -v setfattr >/dev/null 2>&1; then
		setfattr -n user.colour -v blue "$d/small.txt" 2>/dev/null
		setfattr -n user.big -v "$(yes x | head -c 2500 | tr -d '\n')" "$d/a/twenty_k" 2>/dev/null
	fi
	touch -h -d @1700000000 "$d" "$d"/* "$d"/a/* "$d"/a/b/* 2>/dev/null || true
	return 0
}

summary() { echo "$1: $PASS passed, $FAIL failed"; [[ $FAIL -eq 0 ]]; }

# ---- the kernel tests (kernel-*.sh), through tests/kernel/kvm-run ----------

KVM_RUN=${KVM_RUN:-$HERE/../kernel/kvm-run}

# kernel_tests_on NAME: end the test as skipped (77) under F2FS_KERNEL_TESTS=skip.
kernel_tests_on() {
	if [[ ${F2FS_KERNEL_TESTS:-auto} == skip ]]; then
		echo "$1: skipped (F2FS_KERNEL_TESTS=skip)"
		exit 77
	fi
}

# guest_dev K: the guest's device for the K-th image given to kvm-run.
guest_dev() { printf '/dev/vd%b' "\\x$(printf %x $((97 + $1)))"; }

# kvm_boot NAME WANT [kvm-run options] IMAGE... JOB: boot with the first
# image as vda and the others as --extra disks, run JOB; its output goes to
# KVM_OUT. A missing harness ends the test as skipped (77); an exit other
# than WANT, or no KVM_MARK in the output when that is set, is a failure
# that ends the test.
kvm_boot() {
	local name=$1 want=$2 rc=0 opts=() disks=() extra=() d
	shift 2
	while [[ $1 == --* ]]; do opts+=("$1" "$2"); shift 2; done
	while (($# > 1)); do disks+=("$1"); shift; done
	for d in "${disks[@]:1}"; do extra+=(--extra "$d"); done
	KVM_OUT=$("$KVM_RUN" "${opts[@]}" "${extra[@]}" "${disks[0]}" "$1" 2>&1) || rc=$?
	if [[ $rc -eq 77 ]]; then
		echo "$name: kernel harness unavailable"
		printf '%s\n' "$KVM_OUT" | tail -3
		exit 77
	fi
	if [[ $rc -ne $want || ( -n ${KVM_MARK-} && $KVM_OUT != *"$KVM_MARK"* ) ]]; then
		local want_mark=""
		[[ -z ${KVM_MARK-} ]] || want_mark=" and \"$KVM_MARK\" in the output"
		bad "kvm-run exit $rc, expected $want$want_mark"
		printf '%s\n' "$KVM_OUT" | tail -20
		summary "$name"
		exit 1
	fi
}

# expect_clean LABEL IMAGE [FSCK OPTIONS]: our fsck finds IMAGE clean.
expect_clean() {
	local label=$1 img=$2 rc=0 res
	shift 2
	res=$("$FSCK" "$@" "$img" 2>&1) || rc=$?
	if [[ $rc -eq 0 && $res == *": clean" ]]; then
		ok "$label checks clean"
	else
		bad "$label (exit $rc)"
		printf '%s\n' "$res" | head -20
	fi
}

# expect_peer_clean LABEL IMAGE COPY: so does f2fs-tools' fsck.f2fs, when
# installed (needs tests/lib/peer-fsck.sh sourced).
expect_peer_clean() {
	local why
	[[ -x ${PEER_FSCK:-/usr/sbin/fsck.f2fs} ]] || return 0
	if why=$(peer_fsck_clean "$2" "$3"); then
		ok "f2fs-tools fsck: $1 clean"
	else
		bad "f2fs-tools fsck on $1: $why"
	fi
}

# save_case NAME OPTS IMAGE CASES WANT_EXPECT: cases/NAME/ from IMAGE (the
# image, as image.bz2, and cmd); with WANT_EXPECT 1 also expect, the output
# of fsck.f2fs OPTS on a copy named "image" beside IMAGE; then the list of
# cases make check runs (tests/fsck/cases.mk).
save_case() {
	local name=$1 opts=$2 img=$3 cases=$4 rc=0
	mkdir -p "$cases/$name"
	printf '%s\n' "$opts" >"$cases/$name/cmd"
	bzip2 -9c "$img" >"$cases/$name/image.bz2"
	if [[ $5 == 1 ]]; then
		# shellcheck disable=SC2086
		(cd "$(dirname "$img")" && exec "$FSCK" $opts image) >"$cases/$name/expect" 2>&1 || rc=$?
		echo "exit status $rc" >>"$cases/$name/expect"
	fi
	# a new case is a test of make check only once it is listed
	"$(dirname "$cases")/../../scripts/gen-case-list.sh"
	echo "made $name"
}

