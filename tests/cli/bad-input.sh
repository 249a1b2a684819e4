#!/bin/bash
# Bad input never crashes mkfs.f2fs, gives an error naming the problem on
# stderr (one line for exit 1; for usage errors, exit 16, the first line
# names the problem and a second says where the options are, never the
# whole help), prints nothing on stdout, and
# leaves the target exactly as it was (cksum and mtime of a 64 MiB file
# filled with a repeating pattern).
#
# Exit 1: invalid values and combinations, a target that is too small, holds
# a file system or partition table (without -f), is a directory, does not
# exist (without a size), or is attached to a loop device / mounted.
# Exit 16: no device, unknown option, too many arguments, bad sector count.
# Also: -f overwrites, a missing image is created when a size is given,
# --help exits 0, -V prints the version.
#
# f2fs-tools and mkfs.ext4 are used when present (to make existing file
# systems); loop devices and mount only where permitted (else skipped).

# make check runs this with $(SHELL), which may not be bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi

T_NAME=cli-bad-input
. "$(dirname "$0")/../peer/common.sh"

require_mkfs
require_python
make_workdir

PAT="$WORK/pattern.img"
python3 - "$PAT" <<'EOF' || die "cannot write the pattern file"
import sys
chunk = bytes([0xA5, 0x5A, 0xC3, 0x3C]) * 1024 * 256    # 1 MiB
with open(sys.argv[1], "wb") as f:
    for _ in range(64):
        f.write(chunk)
EOF
touch -d '2001-01-01 00:00:00' "$PAT"
T="$WORK/target.img"

fingerprint() { printf '%s %s\n' "$(cksum <"$1")" "$(stat -c '%s %Y' "$1")"; }

# reset_target [FILE]: the target becomes a pristine copy of FILE (the pattern)
reset_target() {
	cp "${1:-$PAT}" "$T" && touch -d '2001-01-01 00:00:00' "$T"
	BEFORE=$(fingerprint "$T")
}
reset_target

# expect RC KEYWORD DESC -- mkfs-arguments...
# Runs our mkfs; checks the exit status, that stderr names KEYWORD (a fixed
# string; several alternatives separated by "|"), the shape of stderr, an
# empty stdout, and that $T is unchanged.
expect() {
	local want=$1 key=$2 desc=$3 rc errl first problems=""
	shift 4
	"$MKFS" "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	errl=$(wc -l <"$WORK/err")
	first=$(head -n 1 "$WORK/err")
	[ $rc -ge 128 ] && problems="$problems; crashed (exit $rc: signal $((rc - 128)))"
	[ $rc -ne "$want" ] && [ $rc -lt 128 ] && problems="$problems; exit $rc, expected $want"
	if [ "$errl" -eq 0 ]; then
		problems="$problems; nothing on stderr"
	elif ! grep -qiF -e "${key//|/$'\n'}" "$WORK/err"; then
		problems="$problems; stderr does not mention \"$key\""
	fi
	if [ "$want" = 1 ] && [ "$errl" -ne 1 ]; then
		problems="$problems; $errl lines on stderr, expected 1"
	fi
	if [ "$want" = 16 ] && [ "$errl" -gt 0 ] && ! grep -qiF -e "${key//|/$'\n'}" <<<"$first"; then
		problems="$problems; the first stderr line does not name the problem"
	fi
	if [ "$want" = 16 ] && [ "$errl" -gt 2 ]; then
		problems="$problems; $errl lines on stderr, expected the problem and a hint"
	fi
	[ -s "$WORK/out" ] && problems="$problems; printed on stdout: $(head -n 1 "$WORK/out")"
	if [ "$(fingerprint "$T")" != "$BEFORE" ]; then
		problems="$problems; the target was modified"
		reset_target
	fi
	if [ -z "$problems" ]; then
		pass "$desc: exit $rc: $first"
	else
		fail "$desc: ${problems#; } (stderr: $first)"
	fi
}

L600=$(printf 'L%.0s' $(seq 600))
L513=$(printf 'L%.0s' $(seq 513))

echo "== invalid values and combinations (exit 1)"
expect 1 "extra_attr" "-O inode_checksum without extra_attr" -- -O inode_checksum "$T"
expect 1 "extra_attr" "-O compression without extra_attr" -- -O compression "$T"
expect 1 "extra_attr" "-O project_quota without extra_attr" -- -O project_quota "$T"
expect 1 "extra_attr" "-O inode_crtime without extra_attr" -- -O inode_crtime "$T"
expect 1 "extra_attr" "-O flexible_inline_xattr without extra_attr" -- -O flexible_inline_xattr "$T"
expect 1 "bogus" "-O bogus" -- -O bogus "$T"
expect 1 "bogus" "-O extra_attr,bogus" -- -O extra_attr,bogus "$T"
expect 1 "-s" "-s 0" -- -s 0 "$T"
expect 1 "-s" "-s abc" -- -s abc "$T"
expect 1 "-s" "-s -1" -- -s -1 "$T"
expect 1 "-s" "-s 99999999999" -- -s 99999999999 "$T"
expect 1 "-z" "-z 0" -- -z 0 "$T"
expect 1 "-z" "-z abc" -- -z abc "$T"
expect 1 "-o" "-o 100" -- -o 100 "$T"
expect 1 "-o" "-o abc" -- -o abc "$T"
expect 1 "-o" "-o -5" -- -o -5 "$T"
expect 1 "-o 0.001" "-o 0.001 (too small a ratio: the option is blamed)" -- -o 0.001 "$T"
expect 1 "-a" "-a 2" -- -a 2 "$T"
expect 1 "-t" "-t 5" -- -t 5 "$T"
expect 1 "-w" "-w 1000" -- -w 1000 "$T"
expect 1 "-w" "-w 8192" -- -w 8192 "$T"
expect 1 "-R" "-R abc" -- -R abc "$T"
expect 1 "-R" "-R 1000:" -- -R 1000: "$T"
expect 1 "-U|uuid" "-U not-a-uuid" -- -U not-a-uuid "$T"
expect 1 "-C|latin1" "-C latin1" -- -C latin1 "$T"
expect 1 "-C|strict" "-C utf8:bogus" -- -C utf8:bogus "$T"
expect 1 "-T|epoch" "-T abc" -- -T abc "$T"
expect 1 "-T|epoch" "-T -5" -- -T -5 "$T"
SOURCE_DATE_EPOCH=abc expect 1 "SOURCE_DATE_EPOCH" "SOURCE_DATE_EPOCH=abc" -- "$T"
SOURCE_DATE_EPOCH=-3 expect 1 "SOURCE_DATE_EPOCH" "SOURCE_DATE_EPOCH=-3" -- "$T"
expect 1 "-d|debug" "-d 99" -- -d 99 "$T"
expect 1 "-g|android" "-g ios" -- -g ios "$T"
expect 1 "label" "-l with 600 characters" -- -l "$L600" "$T"
expect 1 "label" "-l with 513 characters" -- -l "$L513" "$T"
expect 1 "label" "-l with invalid UTF-8" -- -l "$(printf 'ab\377\376')" "$T"
expect 1 "extension|abcdefghi" "-e with a 9-character extension" -- -e mp3,abcdefghi "$T"
expect 1 "extension|abcdefghi" "-E with a 9-character extension" -- -E abcdefghi "$T"
cdevs=()
for i in 1 2 3 4 5 6 7 8; do cdevs+=(-c "$WORK/extra$i.img"); done
expect 1 "-c|7" "-c with 8 devices" -- "${cdevs[@]}" "$T"
if ls "$WORK"/extra*.img >/dev/null 2>&1; then
	fail "-c with 8 devices created device files"
fi
expect 1 "nonexistent|No such file" "-c with a missing device" -- -c "$WORK/nonexistent-c.img" "$T"
expect 1 "same file" "the target given again with -c" -- -c "$T" "$T"
ln -s "$T" "$WORK/link.img"
expect 1 "same file" "the target given again through a symlink" -- -c "$WORK/link.img" "$T"
expect 1 "same file" "the target given again as another path" -- -c "$WORK/../$(basename "$WORK")/target.img" "$T"
rm -f "$WORK/link.img"
expect 1 "rootdir|itself" "--rootdir holding the target image" -- --rootdir "$WORK" "$T"
expect 1 "zoned" "-m on an image file" -- -m "$T"
expect 1 "too small" "-s 1024 (a section larger than the target)" -- -s 1024 "$T"
expect 1 "too small" "-z 100000 (a zone larger than the target)" -- -z 100000 "$T"
expect 1 "16 TiB|beyond|sector" "a sector count beyond 16 TiB" -- "$T" 99999999999

echo "== usage errors (exit 16)"
expect 16 "no device" "no device" --
expect 16 "no device" "only options" -- -f -t 0
expect 16 "invalid option|unknown option|-x" "unknown option -x" -- -x "$T"
expect 16 "unrecognized option|--bogus" "unknown option --bogus" -- --bogus "$T"
expect 16 "too many" "too many arguments" -- "$T" 131072 extra
expect 16 "sector count|abc" "sector count abc" -- "$T" abc
expect 16 "sector count|0" "sector count 0" -- "$T" 0
expect 16 "requires an argument|-s" "-s without its argument" -- "$T" -s
expect 16 "-S|sector count" "-S without a sector count" -- -S "$T"

echo "== targets"
small="$WORK/small.img"
python3 -c "import sys; open(sys.argv[1],'wb').write(bytes([0xA5,0x5A,0xC3,0x3C])*1024*256)" "$small"
cp "$T" "$WORK/saved.img"
reset_target "$small"
expect 1 "at least 52 MiB" "a 1 MiB target: the minimum for these options" -- "$T"
reset_target
expect 1 "directory|neither|regular" "a directory as target" -- "$WORK"
expect 1 "neither|regular|block" "/dev/null as target" -- /dev/null

missing="$WORK/missing.img"
expect 1 "missing.img|No such file|does not exist" "a missing target without a size" -- "$missing"
if [ -e "$missing" ]; then
	fail "a missing target without a size: the file was created"
	rm -f "$missing"
fi
expect 1 "No such file|directory" "a target in a missing directory, with a size" -- "$WORK/nodir/x.img" 131072
"$MKFS" -q "$missing" 131072 >"$WORK/out" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ "$(stat -c %s "$missing" 2>/dev/null)" = $((131072 * 512)) ] &&
   [ "$(python3 "$F2FSIMG" field "$missing" sb.block_count)" = $((131072 / 8)) ]; then
	pass "a missing target with a size (131072 sectors) is created as a 64 MiB F2FS image"
else
	fail "a missing target with a size: exit $rc, size $(stat -c %s "$missing" 2>/dev/null): $(head -n 1 "$WORK/out")"
fi
rm -f "$missing"

# existing signatures
make_existing() {   # KIND: leaves it in $T and sets BEFORE; returns 1 if unavailable
	reset_target
	case "$1" in
	f2fs)
		local m
		m=$(find_tool mkfs.f2fs) || m=$MKFS
		"$m" -q -f -l oldf2fs "$T" >/dev/null 2>&1 || return 1 ;;
	ext4)
		command -v mkfs.ext4 >/dev/null 2>&1 || [ -x /sbin/mkfs.ext4 ] || return 1
		PATH=$PATH:/sbin:/usr/sbin mkfs.ext4 -q -F -L oldext4 "$T" >/dev/null 2>&1 || return 1 ;;
	dos)
		python3 - "$T" <<'EOF' || return 1
import struct, sys
with open(sys.argv[1], "r+b") as f:
    mbr = bytearray(512)
    mbr[446:462] = bytes([0, 0, 0, 0, 0x83, 0, 0, 0]) + struct.pack("<II", 2048, 65536)
    mbr[510:512] = b"\x55\xaa"
    f.write(mbr)
EOF
		;;
	esac
	touch -d '2001-01-01 00:00:00' "$T"
	BEFORE=$(fingerprint "$T")
}
for kind in f2fs ext4 dos; do
	if ! make_existing $kind; then
		skip "existing $kind: cannot make one here"
		continue
	fi
	expect 1 "$kind" "a target holding $kind, without -f" -- "$T"
	grep -q -- "-f" "$WORK/err" || fail "existing $kind: the message does not point to -f"
	"$MKFS" -f "$T" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$WORK/err" ] && [ "$(python3 "$F2FSIMG" field "$T" sb.magic 2>/dev/null)" = $((0xF2F52010)) ]; then
		pass "a target holding $kind, with -f: formatted ($(grep -i '^Overwrote' "$WORK/out" | head -n 1))"
	else
		fail "a target holding $kind, with -f: exit $rc: $(head -n 1 "$WORK/err")"
	fi
done
reset_target

echo "== loop devices"
LOOP=""
MNT=""
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1 &&
   LOOP=$(losetup -f --show "$T" 2>/dev/null) && [ -n "$LOOP" ]; then
	on_exit '[ -n "$MNT" ] && umount "$MNT" 2>/dev/null; [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null'
	expect 1 "in use|loop" "an image attached to $LOOP" -- "$T"
	expect 1 "in use|loop" "an image attached to $LOOP, with -f" -- -f "$T"
	losetup -d "$LOOP"
	LOOP=""
	reset_target
	# a mounted file system: ext4 on the loop device, mounted read-only
	if command -v mkfs.ext4 >/dev/null 2>&1 && mkfs.ext4 -q -F "$T" >/dev/null 2>&1 &&
	   LOOP=$(losetup -f --show "$T" 2>/dev/null) && mkdir -p "$WORK/mnt" &&
	   mount -o ro "$LOOP" "$WORK/mnt" 2>/dev/null; then
		# (read-only, so that ext4 itself does not write while we compare)
		MNT="$WORK/mnt"
		touch -d '2001-01-01 00:00:00' "$T"
		BEFORE=$(fingerprint "$T")
		dev_before=$(dd if="$LOOP" bs=1M count=4 2>/dev/null | cksum)
		"$MKFS" -f "$LOOP" >"$WORK/out" 2>"$WORK/err"
		rc=$?
		dev_after=$(dd if="$LOOP" bs=1M count=4 2>/dev/null | cksum)
		if [ $rc -eq 1 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] &&
		   grep -qiE 'mounted|in use' "$WORK/err" && [ "$dev_before" = "$dev_after" ]; then
			pass "a mounted $LOOP, with -f: exit 1: $(head -n 1 "$WORK/err")"
		else
			fail "a mounted $LOOP, with -f: exit $rc, unchanged: $([ "$dev_before" = "$dev_after" ] && echo yes || echo no): $(head -n 1 "$WORK/err")"
		fi
		umount "$MNT" && MNT=""
	else
		skip "a mounted loop device: cannot make or mount ext4 here"
	fi
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	LOOP=""
	reset_target
else
	skip "loop devices: losetup not permitted here"
fi

echo "== help and version"
"$MKFS" --help >"$WORK/out" 2>"$WORK/err"
rc=$?
if [ $rc -eq 0 ] && grep -q "Usage" "$WORK/out" && [ ! -s "$WORK/err" ]; then
	pass "--help: exit 0, usage on stdout"
else
	fail "--help: exit $rc"
fi
if grep -A1 -e "-g android" "$WORK/out" | grep -q "implies -f"; then
	pass "--help: -g android says it implies -f"
else
	fail "--help: -g android does not say it implies -f"
fi
"$MKFS" -V >"$WORK/out" 2>"$WORK/err"
rc=$?
if [ $rc -eq 0 ] && grep -qE 'mkfs\.f2fs.*[0-9]+\.[0-9]+' "$WORK/out" && [ "$(wc -l <"$WORK/out")" -eq 1 ]; then
	pass "-V: exit 0: $(cat "$WORK/out")"
else
	fail "-V: exit $rc: $(head -n 1 "$WORK/out" "$WORK/err")"
fi
[ "$(fingerprint "$T")" = "$BEFORE" ] || fail "the target changed at the end"

echo "== f2fs-tools' meanings: -o 0 is the default ratio, -T -1 the current time"
fixed=(-q -f -U 01234567-89ab-cdef-0123-456789abcdef)
truncate -s 64M "$WORK/d.img" "$WORK/o0.img"
if SOURCE_DATE_EPOCH=1700000000 "$MKFS" "${fixed[@]}" "$WORK/d.img" &&
   SOURCE_DATE_EPOCH=1700000000 "$MKFS" "${fixed[@]}" -o 0 -T -1 "$WORK/o0.img" &&
   cmp -s "$WORK/d.img" "$WORK/o0.img"; then
	pass "-o 0 -T -1: the image the defaults give"
else
	fail "-o 0 -T -1: not the image the defaults give"
fi

finish
