# Shared helpers for the script tests in tests/peer and tests/cli.
# Source it from bash:  . "$(dirname "$0")/../peer/common.sh"
#
# Environment (set by `make check`, or by hand):
#   MKFS               our mkfs.f2fs (default: $top_builddir/mkfs/mkfs.f2fs)
#   top_srcdir         source tree (default: two levels above this file)
#   top_builddir       build tree (default: $top_srcdir/build)
#   F2FS_REQUIRE_PEER  1: fail instead of skipping when f2fs-tools is missing
#   PEER_MKFS, PEER_FSCK, PEER_SLOAD   f2fs-tools binaries to use (default:
#                      /usr/sbin, /sbin, /usr/local/sbin, then $PATH)
#   TMPDIR             where images go (sparse files; needs a file system
#                      that supports holes)

set -u

T_NAME=${T_NAME:-$(basename "$0" .sh)}
T_PASS=0
T_FAIL=0
T_SKIP=0

_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$_here/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir/build}
MKFS=${MKFS:-$top_builddir/mkfs/mkfs.f2fs}
F2FSIMG="$top_srcdir/tests/peer/f2fsimg.py"
export LC_ALL=C TZ=UTC

pass() { T_PASS=$((T_PASS + 1)); printf 'PASS: %s\n' "$*"; }
fail() { T_FAIL=$((T_FAIL + 1)); printf 'FAIL: %s\n' "$*"; }
skip() { T_SKIP=$((T_SKIP + 1)); printf 'SKIP: %s\n' "$*"; }
note() { printf '  %s\n' "$*"; }

# Print the closing line and exit: 1 if anything failed, 0 otherwise.
finish() {
	if [ "$T_SKIP" -gt 0 ]; then
		printf '%s: %d passed, %d failed, %d skipped\n' "$T_NAME" "$T_PASS" "$T_FAIL" "$T_SKIP"
	else
		printf '%s: %d passed, %d failed\n' "$T_NAME" "$T_PASS" "$T_FAIL"
	fi
	[ "$T_FAIL" -eq 0 ] && exit 0
	exit 1
}

# Skip the whole script (exit 77), or fail it when F2FS_REQUIRE_PEER=1.
skip_all() {
	if [ "${F2FS_REQUIRE_PEER:-0}" = 1 ]; then
		printf '%s: %s (F2FS_REQUIRE_PEER=1, so this fails)\n' "$T_NAME" "$*"
		printf '%s: 0 passed, 1 failed\n' "$T_NAME"
		exit 1
	fi
	printf '%s: SKIP: %s\n' "$T_NAME" "$*"
	exit 77
}

die() {
	printf '%s: error: %s\n' "$T_NAME" "$*"
	printf '%s: %d passed, %d failed\n' "$T_NAME" "$T_PASS" "$((T_FAIL + 1))"
	exit 1
}

require_mkfs() {
	[ -x "$MKFS" ] || die "our mkfs not found at MKFS=$MKFS (build it first)"
}

require_python() {
	command -v python3 >/dev/null 2>&1 || skip_all "python3 not found"
}

# find_tool NAME: the f2fs-tools binary NAME, or nothing. Never our own build.
find_tool() {
	local d p
	for d in /usr/sbin /sbin /usr/local/sbin; do
		if [ -x "$d/$1" ]; then
			printf '%s\n' "$d/$1"
			return 0
		fi
	done
	p=$(command -v "$1" 2>/dev/null) || return 1
	case "$p" in
	"$top_builddir"/*|"$top_srcdir"/*) return 1 ;;
	esac
	printf '%s\n' "$p"
}

# Sets PEER_FSCK, PEER_MKFS (and PEER_SLOAD when asked) or skips the script.
require_peer() {
	PEER_FSCK=${PEER_FSCK:-$(find_tool fsck.f2fs)} || true
	PEER_MKFS=${PEER_MKFS:-$(find_tool mkfs.f2fs)} || true
	[ -n "$PEER_FSCK" ] && [ -x "$PEER_FSCK" ] ||
		skip_all "f2fs-tools (fsck.f2fs) not installed"
	[ -n "$PEER_MKFS" ] && [ -x "$PEER_MKFS" ] ||
		skip_all "f2fs-tools (mkfs.f2fs) not installed"
	if [ "${1:-}" = sload ]; then
		PEER_SLOAD=${PEER_SLOAD:-$(find_tool sload.f2fs)} || true
		[ -n "$PEER_SLOAD" ] && [ -x "$PEER_SLOAD" ] ||
			skip_all "f2fs-tools (sload.f2fs) not installed"
	fi
	printf 'peer: %s\n' "$("$PEER_FSCK" -V 2>&1 | head -n 1)"
}

# A scratch directory, removed on exit (plus any cleanup hooks).
T_CLEANUP=""
make_workdir() {
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/f2fs-$T_NAME.XXXXXX") || die "mktemp failed"
	trap 'eval "$T_CLEANUP"; rm -rf "$WORK"' EXIT
	trap 'exit 130' INT TERM
}
on_exit() { T_CLEANUP="$T_CLEANUP $*;"; }

# Can this directory hold a sparse file of SIZE (truncate syntax)?
sparse_ok() {
	local f="$1/.sparse-probe" ok=1
	if truncate -s "$2" "$f" 2>/dev/null; then
		# must really be sparse: a few KiB at most
		[ "$(du -k "$f" | cut -f1)" -le 64 ] && ok=0
	fi
	rm -f "$f"
	return $ok
}

# A fresh sparse image: new_image PATH SIZE
new_image() {
	rm -f "$1" && truncate -s "$2" "$1"
}

# A sparse copy (fsck.f2fs may write even with --dry-run).
copy_image() {
	rm -f "$2" && cp --sparse=always "$1" "$2"
}

# ---- fsck.f2fs output classifier -------------------------------------------
# Lines that fsck.f2fs 1.15 prints even for images its own mkfs.f2fs made.
# A "[FSCK] <check> [Ok..]" line is a passed check ("other corrupted bugs
# [Ok..]" contains "corrupt" but reports that nothing was found).
FSCK_BENIGN='^(Info: Corrupted valid nat_bits in checkpoint|Info: Write valid nat_bits in checkpoint|Info: Force to fix corruption|\[FSCK\] fixing SIT types|Info: Duplicate valid checkpoint to mirror position [0-9]+ -> [0-9]+|\[FSCK\] [^[]*\[Ok\.\.\]( \[0x[0-9a-f]+\])?)[[:space:]]*$'
FSCK_BAD='\[Fail\]|ASSERT|Fix|corrupt|Wrong|Error|invalid'

# fsck_problems LOG: print the lines of a fsck.f2fs log that signal trouble.
# Returns 0 if there are some.
fsck_problems() {
	grep -Ev "$FSCK_BENIGN" "$1" | grep -Ei "$FSCK_BAD"
}

# fsck_clean IMG LOG: run fsck.f2fs -f --dry-run on a copy of IMG; the log
# goes to LOG. Returns 0 when fsck exits 0 and prints no problem line;
# otherwise prints why.
fsck_clean() {
	local img="$1" log="$2" copy="$1.fsck" rc
	copy_image "$img" "$copy" || { echo "cannot copy $img"; return 1; }
	"$PEER_FSCK" -f --dry-run "$copy" >"$log" 2>&1
	rc=$?
	rm -f "$copy"
	if [ $rc -ne 0 ] || fsck_problems "$log" >/dev/null; then
		echo "fsck.f2fs exit $rc"
		fsck_problems "$log" | head -n 8 | sed 's/^/    | /'
		return 1
	fi
	return 0
}
