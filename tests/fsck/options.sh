#!/bin/bash
# f2fs-tools' fsck.f2fs command lines (issue 13): each runs on a fresh copy
# of a case image, and the test checks the exit status, whether the image
# changed (md5 before and after) and a key line of the output. Images:
#   clean     clean-full (cleanly unmounted, nothing wrong)
#   sit       sit-vblocks-map (cleanly unmounted, unflagged; the quick check
#             finds it, preen fixes it)
#   csum      inode-bad-checksum (cleanly unmounted, unflagged; only the
#             full check finds it, a repair reseals it)
#   flagged   cp-needs-fsck (the checkpoint's FSCK flag)
#   stop      clean-full with a stop reason (write_fail) in the superblock
#   shutdown  clean-full with the shutdown stop reason only (not a flag)
#   errors    clean-full with an error bit in the superblock's s_errors
# Also: the answers at a terminal (through script(1), when installed), the
# progress lines, JSON on failure, and the messages of unreadable images.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
[[ -x $FSCK ]] || { echo "options: $FSCK not built"; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-options.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
C=$HERE/cases

bzip2 -dc "$C/clean-full/image.bz2" >"$W/clean"
bzip2 -dc "$C/sit-vblocks-map/image.bz2" >"$W/sit"
bzip2 -dc "$C/inode-bad-checksum/image.bz2" >"$W/csum"
bzip2 -dc "$C/cp-needs-fsck/image.bz2" >"$W/flagged"
# sb_both IMAGE MEMBER IDX VALUE: a superblock member in both copies
sb_both() {
	"$INJECT" --sb 1 --mb "$2" --idx "$3" --val "$4" "$1" >/dev/null &&
		"$INJECT" --sb 2 --mb "$2" --idx "$3" --val "$4" "$1" >/dev/null
}
cp "$W/clean" "$W/stop" && sb_both "$W/stop" s_stop_reason 3 1
cp "$W/clean" "$W/shutdown" && sb_both "$W/shutdown" s_stop_reason 0 1
cp "$W/clean" "$W/errors" && sb_both "$W/errors" s_errors 0 4

# run IMAGE OPTS...: fsck on a copy named "image"; sets RC, OUT, CHANGED
run() {
	local src=$1
	shift
	cp "$W/$src" "$W/image"
	local before
	before=$(md5sum <"$W/image")
	RC=0
	OUT=$(cd "$W" && "$FSCK" "$@" image 2>&1 </dev/null) || RC=$?
	[[ $(md5sum <"$W/image") == "$before" ]] && CHANGED=0 || CHANGED=1
}

# row "OPTS" IMAGE RC CHANGED REGEX: the outcome of fsck OPTS on IMAGE
row() {
	local opts=$1 img=$2 rc=$3 ch=$4 re=$5
	# shellcheck disable=SC2086
	run "$img" $opts
	if [[ $RC == "$rc" && $CHANGED == "$ch" ]] && grep -Eq -- "$re" <<<"$OUT"; then
		ok "fsck $opts ($img): exit $rc, $([[ $ch == 1 ]] && echo written || echo unchanged)"
	else
		bad "fsck $opts ($img): exit $RC (want $rc), changed $CHANGED (want $ch), /$re/"
		printf '%s\n' "$OUT" | head -8
	fi
}

FULL='image: 166 inodes'
QUICK='quick check only'
SKIP='not flagged by the kernel for a check'
# the default: the full check, nothing written (not on a terminal)
row ""                       clean   0 0 "$FULL"
row ""                       csum    4 0 "inode.bad_checksum"
row "-n"                     csum    4 0 "inode.bad_checksum"
row "-N"                     csum    4 0 "inode.bad_checksum"
row "--dry-run"              csum    4 0 "inode.bad_checksum"
row "--quick"                csum    0 0 "$QUICK"
row "--quick"                sit     4 0 "sit.vblocks_map_mismatch"
row "--quick"                flagged 0 0 "cp.needs_fsck"
# -f and -y: the full check and the repair
row "-y"                     sit     1 1 "repaired: 2 problem"
row "-f"                     sit     1 1 "repaired: 2 problem"
row "-f -n"                  sit     4 0 "left uncorrected"
row "-f --dry-run"           sit     4 0 "left uncorrected"
row "-f"                     clean   0 0 "image: clean"
row "-f"                     csum    1 1 "inode.bad_checksum.*path /a/b/c/hard: fixed"
row "-f -c 10000 --debug-cache" sit  1 1 "repaired: 2 problem"
# -a and -p: only what the kernel flagged
row "-a"                     sit     0 0 "$SKIP"
row "-a"                     csum    0 0 "$SKIP"
row "-a -c 10000 --debug-cache" sit  0 0 "$SKIP"
row "-p"                     sit     0 0 "$SKIP"
row "-p 0"                   sit     0 0 "$SKIP"
row "-p 2"                   sit     0 0 "$SKIP"
row "-g android"             sit     0 0 "$SKIP"
row "-a"                     shutdown 0 0 "$SKIP"
row "-a"                     flagged 1 1 "cp.needs_fsck.*fixed"
row "-p"                     flagged 1 1 "cp.needs_fsck.*fixed"
row "-p 2"                   flagged 1 1 "cp.needs_fsck.*fixed"
row "-g android"             flagged 1 1 "cp.needs_fsck.*fixed"
row "-a -n"                  flagged 0 0 "cp.needs_fsck"
row "-a"                     stop    1 1 "sb.errors_recorded.*fixed"
row "-a"                     errors  1 1 "sb.errors_recorded.*fixed"
row "-a --json"              stop    1 1 '"flagged":"stop reason write_fail"'
row "-a --json"              errors  1 1 '"flagged":"errors recorded in the superblock"'
row "-a --json"              sit     0 0 '"mode":"none"'
# -p 1: the quick check, then preen
row "-p 1"                   clean   0 0 "$QUICK"
row "-p 1"                   sit     1 1 "repaired: 2 problem"
row "-p 1 -n"                sit     4 0 "$QUICK"
row "-p 1"                   csum    0 0 "$QUICK"
# the levels are read as f2fs-tools reads them
row "-p 1 -n"                clean   0 0 "$QUICK"
row "-p -n"                  sit     0 0 "$SKIP"
row "-p7"                    sit     0 0 "$SKIP"
# accepted without effect
row "-d 1 -n"                csum    4 0 "inode.bad_checksum"
row "-c 10 -m 4 -q 1 -n"     csum    4 0 "inode.bad_checksum"
row "--kernel-check -n"      clean   0 0 "image: clean"
row "--no-kernel-check -n"   clean   0 0 "image: clean"
# views
row "-l"                     csum    0 0 "ckpt_flags +0x185 \(umount"
row "-l --json"              clean   0 0 '"checkpoint":\{"pack":'
row "-t -n"                  clean   0 0 '^\|   \|-- b/ \[ino'
row "-M"                     clean   0 0 ' l /link$'
row "-M --json"              clean   0 0 '"path":"/a/b/c/hard"'
# refused, usage errors
row "-O encrypt"             clean   8 0 "not supported yet"
row "-C utf8"                clean   8 0 "not supported yet"
row "-S"                     clean   8 0 "not supported yet"
row "-n -y"                  sit    16 0 "cannot go with -y"
row "-N -y"                  sit    16 0 "cannot go with -y"
row "--quick -f"             sit    16 0 "cannot go with -f"
row "-p x1"                  sit    16 0 "too many arguments"
row "-px"                    sit    16 0 "preen level"
row "-d x"                   sit    16 0 "-d needs a number"
row "-g linux"               sit    16 0 "only default set is 'android'"
row "-t --json"              sit    16 0 "cannot go with --json"
row "--json -n -y"           sit    16 0 '^\{"image":null,"error":\{"kind":"usage"'
row "-Z"                     sit    16 0 "Try 'fsck.f2fs --help'"
row "-C"                     sit    16 0 "no image given"

# quick-mode statistics are null, not 0
run sit --quick --json
if python3 -c 'import json,sys; d=json.loads(sys.argv[1]); sys.exit(0 if d["mode"]=="quick" and all(v is None for v in d["stats"].values()) else 1)' "$OUT"; then
	ok "--quick --json: stats are null"
else
	bad "--quick --json: $OUT"
fi

# names in JSON: UTF-8 as it is, other bytes as \udcXX (surrogateescape);
# dump.f2fs shares the writer
mkdir -p "$W/tree/dür"
echo x >"$W/tree/dür/ü.txt"
echo y >"$W/tree/bad$(printf '\377')name"
echo z >"$W/tree/c1$(printf '\302\233')x"   # U+009B, a terminal's CSI
truncate -s 100M "$W/names.img"
if "$MKFS" -q -f --rootdir "$W/tree" "$W/names.img" >/dev/null 2>&1; then
	names=$("$FSCK" -M --json "$W/names.img")
	if python3 -c '
import json, sys
d = json.loads(sys.argv[1])
p = sorted(f["path"].encode("utf-8", "surrogateescape") for f in d["files"])
sys.exit(0 if p == [b"/", b"/bad\xffname", b"/c1\xc2\x9bx", b"/d\xc3\xbcr", b"/d\xc3\xbcr/\xc3\xbc.txt"] else 1)' "$names" &&
	   [[ $names == *'"/dür/ü.txt"'* && $names == *'"/bad\udcffname"'* && $names == *'"/c1\u009bx"'* ]]; then
		ok "-M --json: UTF-8 names as they are, a stray byte as \\udcff, a C1 control as \\u009b"
	else
		bad "-M --json names: $names"
	fi
	# in text, what is not printable UTF-8 is an octal escape, byte by byte
	names=$("$FSCK" -M "$W/names.img")
	if grep -qxE ' +[0-9]+ - /bad\\377name' <<<"$names" &&
	   grep -qxE ' +[0-9]+ - /c1\\302\\233x' <<<"$names" &&
	   grep -qxE ' +[0-9]+ - /dür/ü.txt' <<<"$names"; then
		ok "-M: a stray byte and a C1 control as octal escapes, UTF-8 as it is"
	else
		bad "-M names: $names"
	fi
	DUMP=${DUMP:-$TOP_BUILD/dump/dump.f2fs}
	if [[ -x $DUMP ]]; then
		names=$("$DUMP" --json --ls /dür "$W/names.img" 2>&1)
		[[ $names == *'"ü.txt"'* ]] && ok "dump --ls --json: a UTF-8 name" || bad "dump --ls --json: $names"
	fi
else
	bad "mkfs --rootdir of the names tree"
fi
# an encrypted directory's cipher-text names (a kernel-made case): each is
# 32 bytes (the policy pads to 32), some hold NUL or '/', and -M still gives
# each one whole
bzcat "$HERE/cases/roll-forward-kernel-encrypt/image.bz2" >"$W/enc.img"
names=$("$FSCK" -M --json "$W/enc.img")
if python3 -c '
import json, sys
d = json.loads(sys.argv[1])
n = [p[5:] for p in (f["path"].encode("utf-8", "surrogateescape") for f in d["files"])
     if p.startswith(b"/new/")]
ok = len(n) > 100 and all(len(x) == 32 for x in n)
sys.exit(0 if ok and any(b"\0" in x for x in n) and any(b"/" in x for x in n) else 1)' "$names"; then
	ok "-M --json: cipher-text names whole, with their NUL and '/' bytes"
else
	bad "-M --json on an encrypted directory: $names"
fi
# a problem's path through such a name (a file's link count damaged): whole
# in JSON, its NUL an octal escape in text
ino=$(python3 -c '
import json, sys
for f in json.loads(sys.argv[1])["files"]:
    p = f["path"].encode("utf-8", "surrogateescape")
    if p.startswith(b"/new/") and b"\0" in p[5:] and f["type"] == "-":
        print(f["ino"], p.hex())
        break' "$names")
read -r ino hex <<<"$ino"
if [[ -n $ino ]] && "$INJECT" --node --nid "$ino" --mb i_links --val 7 "$W/enc.img" >/dev/null; then
	line=$("$FSCK" -n "$W/enc.img" | grep -a '^ERROR inode.links')
	want=$(python3 -c 'import sys; print("".join(chr(c) if 32 <= c < 127 and c != 92 else "\\%03o" % c for c in bytes.fromhex(sys.argv[1])))' "$hex")
	[[ $line == *" path $want: "* ]] && ok "a problem's path through a cipher-text name: whole, NUL escaped" ||
		bad "problem path: $line (want $want)"
	"$FSCK" -n --json "$W/enc.img" | python3 -c '
import json, sys
d = json.load(sys.stdin)
p = [x["path"].encode("utf-8", "surrogateescape") for x in d["problems"] if x["name"] == "inode.links"]
sys.exit(0 if p == [bytes.fromhex(sys.argv[1])] else 1)' "$hex" &&
		ok "--json: that path whole" || bad "--json: a problem's path through a cipher-text name"
else
	bad "no file with NUL in its name under /new of the encrypted case"
fi

# images that cannot be opened: one message naming the image once, and JSON
: >"$W/zero.img"
truncate -s 5000 "$W/small.img"
head -c 8M "$W/clean" >"$W/trunc.img"
err_row() {   # FILE RC REGEX
	local rc=0 out
	out=$("$FSCK" "$W/$1" 2>&1) || rc=$?
	if [[ $rc == "$2" ]] && grep -Eq -- "$3" <<<"$out" && [[ $(grep -o "$1" <<<"$out" | wc -l) == 1 ]]; then
		ok "$1: $out"
	else
		bad "$1: exit $rc: $out"
	fi
	rc=0
	out=$("$FSCK" --json "$W/$1" 2>/dev/null) || rc=$?
	if [[ $rc == "$2" ]] && python3 -c 'import json,sys; d=json.loads(sys.argv[1]); sys.exit(0 if d["exit"]==int(sys.argv[2]) and d["error"]["message"] else 1)' "$out" "$2"; then
		ok "$1 --json: $out"
	else
		bad "$1 --json: exit $rc: $out"
	fi
}
err_row zero.img 8 "^fsck.f2fs: [^ ]*zero.img: the file is empty$"
err_row small.img 8 "5000 bytes, too small for F2FS"
err_row trunc.img 8 "truncated: 8388608 bytes, the superblock claims 67108864"
err_row missing.img 8 "cannot open .*missing.img"

# progress: every phase ends at 100%, one line per phase when not a terminal
run clean -n --progress
phases=$(grep -c '%' <<<"$OUT")
if [[ $RC == 0 ]] && grep -q '^nodes: 100% (' <<<"$OUT" &&
   ! grep -E '^[a-zA-Z ]+: +[0-9]+%' <<<"$OUT" | grep -vq ': 100% ' && [[ $phases -ge 4 ]]; then
	ok "--progress: $phases phases, each one line at 100%"
else
	bad "--progress: $OUT"
fi

# at a terminal (script(1) gives a pty): a plain run and -f ask per kind
if command -v script >/dev/null 2>&1; then
	tty_row() {   # IMAGE "OPTS" ANSWERS RC CHANGED REGEX
		cp "$W/$1" "$W/image"
		local before rc=0 out
		before=$(md5sum <"$W/image")
		out=$(cd "$W" && printf '%b' "$3" | script -qec "$FSCK $2 image" /dev/null 2>&1) || rc=$?
		out=${out//$'\r'/}   # the pty's line ends
		TTY_OUT=$out
		local ch=0
		[[ $(md5sum <"$W/image") == "$before" ]] || ch=1
		if [[ $rc == "$4" && $ch == "$5" ]] && grep -Eq -- "$6" <<<"$out"; then
			ok "terminal: fsck $2 ($1), answers '$3': $([[ $ch == 1 ]] && echo written || echo unchanged)"
		else
			bad "terminal: fsck $2 ($1), answers '$3': exit $rc, changed $ch: $(tail -3 <<<"$out")"
		fi
	}
	tty_row sit "" 'n\nn\n' 4 0 'Fix\? \[y\]es'
	tty_row sit "" 'a\n' 1 1 'repaired: 2 problem'
	tty_row sit "-f" 'q\n' 32 0 'cancelled: nothing written'
	tty_row sit "-f" 'y\ny\n' 1 1 'repaired: 2 problem'
	tty_row sit "-y" '' 1 1 'repaired: 2 problem'
	tty_row sit "-n" '' 4 0 'left uncorrected'

	# answers per kind (issue 25): a name's length cleared (1), four
	# inodes unreachable (three names unlinked, one behind the bad
	# length), a link count too high (/small.txt, 7 for 2 names)
	cp "$W/clean" "$W/ask"
	python3 "$DAMAGE" "$W/ask" dentry /big a_rather_long_entry_name_3 unlink 0 -- \
		dentry /big a_rather_long_entry_name_4 unlink 0 -- \
		dentry /big a_rather_long_entry_name_5 unlink 0 -- inode /small.txt links 7 -- \
		dentry /big a_rather_long_entry_name_12 name_len 300
	# asked in the order of cause
	tty_row ask "" 'y\nn\ny\n' 4 1 'inode 89 .*: not fixed, as asked$'
	first=$(grep -n -m1 '^dir.bad_name_len (1): ' <<<"$TTY_OUT" | cut -d: -f1)
	second=$(grep -n -m1 '^Fix.*inode.unreachable (4): ' <<<"$TTY_OUT" | cut -d: -f1)
	third=$(grep -n -m1 '^Fix.*inode.links (1): ' <<<"$TTY_OUT" | cut -d: -f1)
	if [[ -n $first && -n $second && -n $third ]] && ((first < second && second < third)); then
		ok "terminal: asked dir.bad_name_len, inode.unreachable, inode.links in that order"
	else
		bad "terminal: order of the questions: $(grep -E '^(Fix|dir|inode)' <<<"$TTY_OUT")"
	fi
	if grep -q 'inode.links .*: fixed (field)$' <<<"$TTY_OUT" &&
	   ! grep -q 'inode.unreachable .*: fixed' <<<"$TTY_OUT"; then
		ok "terminal: inode.links fixed, inode.unreachable left, as answered"
	else
		bad "terminal: outcome: $(grep -E 'inode\.' <<<"$TTY_OUT")"
	fi
	# the declined inodes keep their link counts (not set to 0), the
	# accepted count is fixed
	after=$(cd "$W" && "$FSCK" -n image 2>&1)
	kept=$(grep -c '^ERROR inode.unreachable .*(mode 0100644, 1 links) has no directory entry' <<<"$after")
	if [[ $kept == 4 ]] && ! grep -q 'inode.links\|dir.bad_name_len' <<<"$after"; then
		ok "terminal: the 4 inodes kept unreachable keep 1 link each"
	else
		bad "terminal: after y/n/y: $after"
	fi
	# a declined cause: what stands on it is not asked, not made
	tty_row ask "" 'n\n' 4 0 'inode.links \(1\): not asked: its fix stands on dir.bad_name_len'
	# q after a yes: nothing written (the image byte for byte), exit 32
	tty_row ask "" 'y\nq\n' 32 0 'cancelled: nothing written'
	tty_row ask "" 'y\ny\nq\n' 32 0 'cancelled: nothing written'
	tty_row ask "" 'a\n' 1 1 'repaired: 6 problem'
else
	echo "SKIP: script(1) not installed: no terminal tests"
fi
summary options
