#!/bin/bash
# compare-builds.sh [--keep DIR] OLD_BUILD NEW_BUILD
#
# Runs two builds of f2fsprogs over the same inputs and reports every output
# that differs: for refactors that must not change behaviour. A build
# directory holds mkfs/mkfs.f2fs, fsck/fsck.f2fs and dump/dump.f2fs.
#
#  1. mkfs: images over a matrix of sizes (64 MiB, 1 GiB, 20 GiB sparse
#     files), feature sets, -o, -s, -z, -l, other options, error cases and
#     --rootdir trees, all with a fixed UUID and time (-U, -T 0). Compared:
#     mkfs's stdout, stderr and exit status; the image's content (sha256
#     over the size and every 4 KiB block that is not all zero, with its
#     offset: equal exactly when the bytes are); the image's allocation (the
#     data/hole map of SEEK_DATA/SEEK_HOLE, i.e. what mkfs wrote or punched).
#  2. fsck: every tests/fsck/cases/*/ image with the options in its cmd
#     file, with -f, with -f --json and with none; the mkfs images with -f,
#     -f --json and none.
#  3. dump: every view of dump.f2fs --help, in text and --json, on the mkfs
#     images, on images with a random SIT (tests/dump/sitedit.py fill, for
#     the GC views) and on some case images; --extract to a directory,
#     compared with diff -r and with tests/rootdir/manifest.py (modes,
#     owners, mtimes, xattrs, hard links).
#
# Every image fsck and dump read is hashed again afterwards (they must not
# write). fsck and dump of both builds read the same image: where the two
# mkfs images differ (reported), the new side gets a copy of the old one.
# Inputs are made once and given to both builds: trees by
# tests/rootdir/gentree.py (mixed: needs root for its devices and owners,
# else "small" is used) plus a few entries made here, and by two seeded
# generators below; derived images by the OLD build's mkfs. The case images
# and the helper scripts come from the checkout that holds this script. Every
# command runs in a directory of the same relative name for each build, with
# argv[0] TOOL.f2fs, LC_ALL=C and TZ=UTC, so paths in messages agree.
#
# Prints one line per difference ("differ: INPUT: COMMAND [ID]") and
#   compare-builds: N outputs compared, M differ
# Exit status: 0 no difference, 1 differences, 2 usage or setup error.
# --keep DIR keeps the outputs: DIR/old/ID.out and .err (stdout; stderr and
# "exit status N"), the same under DIR/new/, DIR/ID.diff (the diff -r of two
# extracted trees), DIR/index-*.txt (ID and command of every output),
# DIR/times-*.txt (ID, start and end of each pair of runs, for finding slow
# commands) and DIR/differ.txt.
# The scratch directory is $TMPDIR/compare-builds.XXXXXX, or under /dev/shm
# (or /tmp) without TMPDIR; it holds up to about 300 MiB and is removed at
# the end.
set -u

usage() {
	sed -n '2p' "${BASH_SOURCE[0]}" | sed 's/^# /usage: /' >&2
	exit 2
}

KEEP=
while [ $# -gt 0 ]; do
	case $1 in
	--keep) [ $# -ge 2 ] || usage; KEEP=$2; shift 2 ;;
	--keep=*) KEEP=${1#--keep=}; shift ;;
	-h | --help) sed -n '2,/^set -u/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--) shift; break ;;
	-*) echo "compare-builds: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || usage
OLD=$(cd "$1" 2>/dev/null && pwd) || { echo "compare-builds: no directory $1" >&2; exit 2; }
NEW=$(cd "$2" 2>/dev/null && pwd) || { echo "compare-builds: no directory $2" >&2; exit 2; }
for b in "$OLD" "$NEW"; do
	for t in mkfs fsck dump; do
		[ -x "$b/$t/$t.f2fs" ] || { echo "compare-builds: $b/$t/$t.f2fs is not built" >&2; exit 2; }
	done
done
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CASES=$SRC/tests/fsck/cases
for f in tests/rootdir/gentree.py tests/rootdir/manifest.py tests/dump/sitedit.py; do
	[ -f "$SRC/$f" ] || { echo "compare-builds: $SRC/$f missing" >&2; exit 2; }
done
# the interpreter itself, not a wrapper (a pyenv shim adds 0.2 s per call)
PY=$(python3 -c 'import sys; print(sys.executable)') || { echo "compare-builds: needs python3" >&2; exit 2; }
if [ -n "$KEEP" ]; then
	if [ -e "$KEEP" ] && [ -n "$(ls -A "$KEEP" 2>/dev/null)" ]; then
		echo "compare-builds: --keep $KEEP exists and is not empty" >&2
		exit 2
	fi
	mkdir -p "$KEEP" || exit 2
	KEEP=$(cd "$KEEP" && pwd)
fi

# tmpfs by default: extracting and deleting thousands of files on a disk
# file system (ext4 with discard here) costs ten times as much
if [ -n "${TMPDIR:-}" ]; then
	TMPBASE=$TMPDIR
elif [ -d /dev/shm ] && [ -w /dev/shm ]; then
	TMPBASE=/dev/shm
else
	TMPBASE=/tmp
fi
W=$(mktemp -d "$TMPBASE/compare-builds.XXXXXX") || exit 2
# shellcheck disable=SC2317  # called by the trap
cleanup() {
	local j
	for j in $(jobs -p); do kill "$j" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
OUT=${KEEP:-$W/out}
mkdir -p "$OUT/old" "$OUT/new" "$W/old" "$W/new" "$W/in" || exit 2
export LC_ALL=C TZ=UTC
unset SOURCE_DATE_EPOCH
START=$SECONDS
UUID=6f1d3a3c-0000-4000-8000-000000000001
FIX=(-U "$UUID" -T 0)
FULL=extra_attr,inode_checksum,flexible_inline_xattr,quota,lost_found,sb_checksum,compression
log() { echo "compare-builds: $*" >&2; }

# ---- the helper ------------------------------------------------------------
cat >"$W/helper.py" <<'PY'
import hashlib, json, os, random, struct, sys

BLK = 4096
ZERO = bytes(BLK)
ZCHUNK = bytes(256 * BLK)


def hash_image(path):
    """(content, layout) digests; 'missing' if there is no file."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return "missing", "missing"
    try:
        size = os.fstat(fd).st_size
        h = hashlib.sha256(b"size %d\n" % size)
        lay = []
        done = -1          # last 4 KiB block hashed
        off = 0
        while off < size:
            try:
                d = os.lseek(fd, off, os.SEEK_DATA)
            except OSError:
                break
            e = min(os.lseek(fd, d, os.SEEK_HOLE), size)
            lay.append((d, e))
            blk = max(d // BLK, done + 1)
            while blk * BLK < e:
                n = min(256, (e - blk * BLK + BLK - 1) // BLK)
                buf = os.pread(fd, n * BLK, blk * BLK)
                if buf == ZCHUNK[:len(buf)]:
                    blk += n
                    continue
                for i in range(0, len(buf), BLK):
                    b = buf[i:i + BLK]
                    if b != ZERO[:len(b)]:
                        h.update(struct.pack("<Q", blk + i // BLK))
                        h.update(b)
                blk += n
            done = blk - 1
            off = e
        allocated = os.fstat(fd).st_blocks * 512
        lh = hashlib.sha256(repr(lay).encode()).hexdigest()
        return ("%s size %d" % (h.hexdigest(), size),
                "%s %d extents, %d bytes of data, %d allocated" %
                (lh, len(lay), sum(e - d for d, e in lay), allocated))
    finally:
        os.close(fd)


def cmd_hash(args):
    # hash [OUT1 OUT2 IMG]...: content digest of IMG to OUT1, layout to
    # OUT2 (if not "")
    for i in range(0, len(args), 3):
        c, l = hash_image(args[i + 2])
        with open(args[i], "w") as f:
            f.write(c + "\n")
        if args[i + 1]:
            with open(args[i + 1], "w") as f:
                f.write(l + "\n")


def cmd_addrs(args):
    """addrs SBJSON CPJSON: B blkaddr / I ino / S A~B lines for dump."""
    out = []
    try:
        sb = json.load(open(args[0]))["superblock"]
        cp = json.load(open(args[1]))["checkpoint"]
        main, bc = sb["main_blkaddr"], sb["block_count"]
        per = 1 << sb["log_blocks_per_seg"]
        nseg = sb["segment_count_main"]
        blks = {0, 1, sb["cp_blkaddr"], sb["sit_blkaddr"], sb["nat_blkaddr"],
                sb["ssa_blkaddr"], main - 1, main, main + 1, bc - 1, bc}
        for c in cp["current_segments"]:
            s, o = c["segno"], c["blkoff"]
            base = main + s * per
            blks.update({base, base + max(o - 1, 0), base + o})
        inos = {1, 2, 3, 4, 5, 6, 7, 8, sb["root_ino"],
                max(cp["next_free_nid"] - 1, 0), cp["next_free_nid"]}
        segs = {"0~0", "%d~%d" % (nseg - 1, nseg - 1), "%d~-1" % nseg}
        for c in cp["current_segments"]:
            s = c["segno"]
            segs.add("%d~%d" % (max(s - 1, 0), min(s + 1, nseg - 1)))
    except Exception:
        blks = {0, 1, 512, 4096, 5120, 5121, 8192, 16384}
        inos = {1, 2, 3, 4, 5, 6, 7, 8}
        segs = {"0~0", "1~3", "10~12"}
    out += ["B %d" % b for b in sorted(blks)]
    out += ["I %d" % i for i in sorted(inos)]
    out += ["S %s" % s for s in sorted(segs)]
    print("\n".join(out))


def pick(lst, n):
    if len(lst) <= n:
        return lst
    return [lst[(i * (len(lst) - 1)) // (n - 1)] for i in range(n)]


def cmd_paths(args):
    """paths TREE: D /dir and F /file lines, a spread of the tree."""
    root = args[0]
    dirs, files, special = [], [], []
    for dp, dn, fn in os.walk(root):
        dn.sort()
        rel = "/" + os.path.relpath(dp, root) if dp != root else "/"
        rel = rel.replace("//", "/")
        if len(rel.encode("utf-8", "surrogateescape")) < 1000:
            dirs.append(rel)
        for name in sorted(fn + [d for d in dn if os.path.islink(os.path.join(dp, d))]):
            p = os.path.join(rel, name)
            if len(p.encode("utf-8", "surrogateescape")) >= 1000 or "\n" in p:
                continue
            st = os.lstat(os.path.join(dp, name))
            if st.st_nlink > 1 or os.path.islink(os.path.join(dp, name)) \
                    or st.st_blocks * 512 < st.st_size:
                special.append(p)
            else:
                files.append(p)
    dirs.sort()
    files.sort()
    special.sort()
    for d in pick(dirs, 5):
        print("D " + d)
    for f in pick(files, 8) + pick(special, 4):
        print("F " + f)


def utime_tree(root, rng):
    """Bottom-up fixed times: mtimes from rng, atimes in the future."""
    ents = []
    for dp, dn, fn in os.walk(root):
        for n in sorted(dn) + sorted(fn):
            ents.append(os.path.join(dp, n))
    ents.sort(key=lambda p: -p.count("/"))
    for p in ents + [root]:
        m = rng.randrange(10**9, 17 * 10**8)
        a = 4102531200 + rng.randrange(10**6)
        os.utime(p, ns=(a * 10**9, m * 10**9 + rng.randrange(10**9)),
                 follow_symlinks=False)


def cmd_medium(args):
    """medium DIR: about 5000 files in 209 directories, seeded."""
    root = args[0]
    rng = random.Random("compare-builds-medium")
    buf = rng.randbytes(1 << 21)
    os.makedirs(root)
    dirs = [root]
    for i in range(8):
        a = os.path.join(root, "d%02d" % i)
        os.mkdir(a)
        dirs.append(a)
        for j in range(5):
            b = os.path.join(a, "s%02d" % j)
            os.mkdir(b)
            dirs.append(b)
            for k in range(4):
                c = os.path.join(b, "t%02d" % k)
                os.mkdir(c)
                dirs.append(c)
    files = []
    exts = ["c", "h", "txt", "so", "mp4", "db", "jpg", "", "cfg", "py"]
    for i in range(5000):
        d = rng.choice(dirs)
        e = rng.choice(exts)
        name = "f%04d" % i + ("." + e if e else "")
        if rng.random() < 0.01:
            name = ("L%04d-" % i) + "x" * 200 + ("." + e if e else "")
        r = rng.random()
        if r < 0.05:
            n = 0
        elif r < 0.75:
            n = int(2 ** rng.uniform(0, 12))
        elif r < 0.99:
            n = int(2 ** rng.uniform(12, 16))
        else:
            n = int(2 ** rng.uniform(16, 20))
        o = rng.randrange(len(buf) - n) if n < len(buf) else 0
        p = os.path.join(d, name)
        with open(p, "wb") as f:
            f.write(buf[o:o + n])
        os.chmod(p, 0o755 if rng.random() < 0.1 else 0o644)
        if rng.random() < 0.02:
            os.setxattr(p, b"user.cmp", buf[o:o + rng.randrange(1, 200)])
        files.append(p)
    for i in range(50):
        src = rng.choice(files)
        os.link(src, os.path.join(rng.choice(dirs), "h%02d" % i))
        tgt = os.path.relpath(rng.choice(files), root)
        os.symlink(tgt, os.path.join(rng.choice(dirs), "l%02d" % i))
    utime_tree(root, rng)
    print("medium: %d dirs, %d files" % (len(dirs), len(files)))


def cmd_casefold(args):
    """casefold DIR: ASCII names in mixed case, no two alike ignoring case
    within a directory."""
    root = args[0]
    rng = random.Random("compare-builds-casefold")
    alpha = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"
    os.makedirs(root)
    dirs = [root]
    for n in ["Docs", "SRC", "MixedCase", "lower", "UPPER", "Docs/Api",
              "Docs/Api/V1", "SRC/Include", "MixedCase/" + "Long" * 60]:
        os.mkdir(os.path.join(root, n))
        dirs.append(os.path.join(root, n))
    seen = {d: set() for d in dirs}
    for i in range(400):
        d = rng.choice(dirs)
        while True:
            ln = rng.choice([1, 2, 5, 8, 12, 20, 40, 255])
            name = "".join(rng.choice(alpha) for _ in range(ln))
            if name in (".", "..") or name.lower() in seen[d]:
                continue
            break
        seen[d].add(name.lower())
        n = rng.choice([0, 1, 100, 3000, 5000, 70000])
        with open(os.path.join(d, name), "wb") as f:
            f.write(rng.randbytes(n))
    # the same names in several cases, in different directories
    for d, name in zip(dirs[1:6], ["README", "ReadMe", "readme", "README.md", "Readme.MD"]):
        if name.lower() not in seen[d]:
            with open(os.path.join(d, name), "w") as f:
                f.write(name + "\n")
    utime_tree(root, rng)
    print("casefold: %d dirs" % len(dirs))


def cmd_garbage(args):
    """garbage IMG SIZE: a sparse file with 64 KiB of seeded bytes at 48
    fixed offsets, half in the first 16 MiB (where the metadata goes)."""
    path, size = args[0], int(args[1])
    rng = random.Random("compare-builds-garbage")
    with open(path, "wb") as f:
        f.truncate(size)
        for i in range(48):
            lim = 16 << 20 if i % 2 == 0 else size - 65536
            f.seek(rng.randrange(0, lim // 4096) * 4096)
            f.write(rng.randbytes(65536))


def cmd_pattern(args):
    rng = random.Random("compare-builds-pattern")
    with open(args[0], "wb") as f:
        f.write(rng.randbytes(int(args[1])))


def cmd_compare(args):
    """compare OUT INDEX...: one line per output that differs; a summary."""
    out, n, m = args[0], 0, 0
    with open(os.path.join(out, "differ.txt"), "w") as dl:
        for index in args[1:]:
            for line in open(index, encoding="utf-8", errors="surrogateescape"):
                oid, what = line.rstrip("\n").split("\t", 1)
                n += 1
                d = os.path.join(out, oid + ".diff")
                if os.path.exists(d):
                    same = os.path.getsize(d) == 0
                else:
                    same = True
                    for ext in (".out", ".err"):
                        a = os.path.join(out, "old", oid + ext)
                        b = os.path.join(out, "new", oid + ext)
                        ea, eb = os.path.exists(a), os.path.exists(b)
                        if ea != eb or (ea and open(a, "rb").read() != open(b, "rb").read()):
                            same = False
                if not same:
                    m += 1
                    msg = "differ: %s [%s]" % (what, oid)
                    print(msg, flush=True)
                    dl.write(msg + "\n")
    print("compare-builds: %d outputs compared, %d differ" % (n, m))
    sys.exit(1 if m else 0)


globals()["cmd_" + sys.argv[1]](sys.argv[2:])
PY
H() { "$PY" "$W/helper.py" "$@"; }

# ---- running and recording -------------------------------------------------
# Every output is a line "ID<TAB>WHAT" in $INDEX and the files
# $OUT/old/ID.out, .err and $OUT/new/ID.out, .err (as far as they exist), or
# $OUT/ID.diff when the comparison was made on the spot (non-empty: differ).
# The comparison of all of them comes at the end (helper.py compare).
SEQ=0 PFX=a LAST_ID=
INDEX=$OUT/index-a.txt
RUN_ENV=()

# newid WHAT: LAST_ID, a new output ID, recorded in $INDEX with WHAT.
newid() {
	local s=$1 what=${1//[$'\t\n']/ }
	SEQ=$((SEQ + 1))
	s=${s//[^A-Za-z0-9._=+-]/_}
	printf -v LAST_ID '%s%05d_%s' "$PFX" "$SEQ" "${s:0:90}"
	printf '%s\t%s\n' "$LAST_ID" "$what" >>"$INDEX"
}

# one SIDE WHERE TOOL ID ARG...: run one build's TOOL in $W/SIDE/WHERE.
one() {
	local side=$1 where=$2 tool=$3 id=$4 bin rc=0
	shift 4
	if [ "$side" = old ]; then bin=$OLD/$tool/$tool.f2fs; else bin=$NEW/$tool/$tool.f2fs; fi
	(
		cd "$W/$side/$where" || exit 125
		[ ${#RUN_ENV[@]} -eq 0 ] || export "${RUN_ENV[@]}"
		exec -a "$tool.f2fs" "$bin" "$@"
	) >"$OUT/$side/$id.out" 2>"$OUT/$side/$id.err" </dev/null || rc=$?
	echo "exit status $rc" >>"$OUT/$side/$id.err"
}

# run WHERE TOOL ARG...: TOOL (mkfs, fsck or dump) of each build in turn;
# stdout, stderr and exit status are compared.
run() {
	local where=$1 tool=$2 t0=$EPOCHREALTIME
	shift 2
	newid "$where: $tool.f2fs $*"
	one old "$where" "$tool" "$LAST_ID" "$@"
	one new "$where" "$tool" "$LAST_ID" "$@"
	echo "$LAST_ID $t0 $EPOCHREALTIME" >>"$OUT/times-$PFX.txt"
}

# old_status ID: the old build's exit status for output ID.
old_status() { tail -n 1 "$OUT/old/$1.err" | sed 's/^exit status //'; }

# hash_cmp WHERE FILE WHAT [content]: the content and the allocation (not
# with "content") of $W/old/WHERE/FILE and $W/new/WHERE/FILE. Returns 1 if
# the contents differ.
hash_cmp() {
	local where=$1 file=$2 what=$3 cid lid='' s
	newid "$where: $file content ($what)"
	cid=$LAST_ID
	if [ "${4:-}" != content ]; then
		newid "$where: $file allocation ($what)"
		lid=$LAST_ID
	fi
	H hash "$OUT/old/$cid.out" "${lid:+$OUT/old/$lid.out}" "$W/old/$where/$file" \
		"$OUT/new/$cid.out" "${lid:+$OUT/new/$lid.out}" "$W/new/$where/$file"
	cmp -s "$OUT/old/$cid.out" "$OUT/new/$cid.out"
}

# ---- fsck and dump views ---------------------------------------------------
# fsck_views WHERE IMG OPTS...: fsck with each distinct option set (one
# word per set, split on spaces).
fsck_views() {
	local where=$1 img=$2 o seen=
	shift 2
	for o in "$@"; do
		case $seen in *"<$o>"*) continue ;; esac
		seen="$seen<$o>"
		# shellcheck disable=SC2086  # one word per option set
		run "$where" fsck $o "$img"
	done
}

# dump views in text and --json
both() {
	run "$DW" dump "$@" "$DIMG"
	run "$DW" dump --json "$@" "$DIMG"
}

# extract WHAT DEST [OPTION...]: dump --extract WHAT -o DEST, then compare
# the two trees with diff -r (special files compare by type there; files of
# 256 MiB or more, sparse here, are left to manifest.py's zmd5) and with
# manifest.py.
extract() {
	local what=$1 dest=$2 j x
	local -a big=()
	shift 2
	run "$DW" dump "$@" --extract "$what" -o "$dest" "$DIMG"
	[ -e "$W/old/$DW/$dest" ] || [ -e "$W/new/$DW/$dest" ] || return 0
	newid "$DW: diff -r of the files from --extract $what $*"
	while IFS= read -r -d '' x; do big+=(-x "$x"); done < <(find "$W/old/$DW/$dest" \
		"$W/new/$DW/$dest" -type f -size +262143k -printf '%f\0' 2>/dev/null | sort -zu)
	diff -r --no-dereference "${big[@]}" "$W/old/$DW/$dest" "$W/new/$DW/$dest" 2>&1 |
		sed -E '/^File .* is a (.*) while file .* is a \1$/d' >"$OUT/$LAST_ID.diff"
	newid "$DW: modes, owners, mtimes, xattrs, links of --extract $what $* (manifest.py)"
	for j in old new; do
		if [ -d "$W/$j/$DW/$dest" ]; then
			"$PY" "$SRC/tests/rootdir/manifest.py" "$W/$j/$DW/$dest" >"$OUT/$j/$LAST_ID.out" 2>&1
		else
			find "$W/$j/$DW/$dest" -printf '%M %U %G %s %T@ %l\n' >"$OUT/$j/$LAST_ID.out" 2>&1
		fi
	done
	rm -rf "$W/old/$DW/$dest" "$W/new/$DW/$dest"
}

# dump_views WHERE IMG full|short [TREE]: the dump views on WHERE/IMG.
# TREE (a tree under $W/in) adds --ls and -i of paths from it.
dump_views() {
	DW=$1 DIMG=$2
	local kind=$3 tree=${4:-} sbid cpid a p n
	local -a blks=() inos=() segs=() dirs=(/) files=(/)
	both --sb
	sbid=$LAST_ID
	both --cp
	cpid=$LAST_ID
	both
	both -M
	both --segments
	both --gc
	both --ls=/
	both -i 3
	both -n 0~-1
	both -s 0~-1
	both -a 0~-1
	both --gc-sim
	extract / ex
	[ "$kind" = full ] || return 0

	while read -r a p; do
		case $a in B) blks+=("$p") ;; I) inos+=("$p") ;; S) segs+=("$p") ;; esac
	done < <(H addrs "$OUT/old/$sbid.out" "$OUT/old/$cpid.out")
	if [ -n "$tree" ]; then
		while IFS= read -r p; do
			case $p in "D "*) dirs+=("${p#D }") ;; "F "*) files+=("${p#F }") ;; esac
		done <"$W/in/$tree.paths"
	fi
	both --sb --cp
	both -d 1 --sb
	both -d 1 --ls=/lost+found
	run "$DW" dump --ls / "$DIMG"
	for p in "${dirs[@]}"; do both --ls="$p"; done
	both --ls=/no/such/dir
	for p in "${files[@]}"; do both -i "$p"; done
	both -i /no/such/file
	for n in "${inos[@]}"; do both -i "$n"; done
	both -i 0x3
	both -i 4294967295
	both -n 0~10
	both -n 3~3
	both -n 4294967295~-1
	for p in "${segs[@]}"; do
		both -s "$p"
		both -a "$p"
	done
	both -s 5~2
	for n in "${blks[@]}"; do both -b "$n"; done
	both --segments=1
	both --segments=100
	both --gc --fg
	both --gc --bg
	for p in greedy cb age; do
		both --gc --policy "$p"
		both --gc --fg --policy "$p"
	done
	both --gc --policy bogus
	both --gc --max-search 0
	both --gc --max-search 8 --top 3
	both --gc --top 1000
	both --gc --gc-free 1
	both --gc-free 3
	both --gc-sim=1
	both --gc-sim=100000
	run "$DW" dump --json --extract / -o exj "$DIMG"
	run "$DW" dump --extract 3 -o ex3 "$DIMG"
	rm -rf "$W/old/$DW/exj" "$W/new/$DW/exj" "$W/old/$DW/ex3" "$W/new/$DW/ex3"
	for p in "${files[@]:1:3}"; do extract "$p" exf; done
}

# ---- 2. fsck on the case images, 3. dump on some: in the background -------
DUMP_CASES=" clean-full dir-loop inode-links block-multiply-owned nat-journal sit-journal
	ssa-mismatch roll-forward-ok xattr-node-bad-name quota-usage-mismatch orphan-ok
	sb-primary-invalid not-f2fs "
cases_phase() {
	local c opts s
	PFX=c SEQ=0 INDEX=$OUT/index-c.txt
	while IFS= read -r c; do
		for s in old new; do mkdir -p "$W/$s/c/$c"; done
		if [ -f "$CASES/$c/image.bz2" ]; then
			bzip2 -dc "$CASES/$c/image.bz2"
		elif [ -f "$CASES/$c/image.gz" ]; then
			gzip -dc "$CASES/$c/image.gz"
		fi | dd of="$W/old/c/$c/image" bs=65536 conv=sparse status=none
		cp --sparse=always "$W/old/c/$c/image" "$W/new/c/$c/image"
		opts=
		read -r opts <"$CASES/$c/cmd" || true
		fsck_views "c/$c" image "$opts" "-n" "-n --json" "--quick"
		case $DUMP_CASES in *[[:space:]]"$c"[[:space:]]*) dump_views "c/$c" image full ;; esac
		hash_cmp "c/$c" image "after fsck" content || true
		rm -rf "${W:?}/old/c/$c" "${W:?}/new/c/$c"
	done < <(find "$CASES" -mindepth 2 -maxdepth 2 -name cmd -printf '%h\n' | sed 's,.*/,,' | LC_ALL=C sort)
	for s in old new; do mkdir -p "$W/$s/x"; done
	run x fsck --help
	run x fsck --version
	run x fsck
	run x fsck -Z img
	run x fsck -f no-such-image
	run x dump --help
	run x dump --version
	run x dump
	run x dump --sb no-such-image
	run x dump --gc --policy bogus no-such-image
}

log "old $OLD, new $NEW, scratch $W"
: >"$OUT/index-a.txt"
: >"$OUT/index-c.txt"
cases_phase &
CASES_PID=$!

# ---- inputs ----------------------------------------------------------------
H pattern "$W/in/pattern" 2097152
# trees
T=$W/in/small
"$PY" "$SRC/tests/rootdir/gentree.py" mixed "$T" >"$W/in/small.log" 2>&1 || {
	log "gentree.py mixed failed (not root?), using small:"
	sed 's/^/  /' "$W/in/small.log" >&2
	rm -rf "$T"
	"$PY" "$SRC/tests/rootdir/gentree.py" small "$T" >"$W/in/small.log" 2>&1 || exit 2
}
(
	e=$T/extra
	mkdir -p "$e/empty" "$e/sub/deeper"
	: >"$e/size0"
	for n in 1 100 3452 3453 4096 4097 65536 1048577; do head -c "$n" "$W/in/pattern" >"$e/size$n"; done
	long=$(printf 'n%.0s' $(seq 255))
	head -c 5000 "$W/in/pattern" >"$e/$long"
	head -c 10 "$W/in/pattern" >"$e/sub/${long:0:254}Z"
	truncate -s 200M "$e/sparse"
	dd if="$W/in/pattern" of="$e/sparse" bs=4096 count=3 seek=1000 conv=notrunc status=none
	dd if="$W/in/pattern" of="$e/sparse" bs=4096 count=1 seek=50000 conv=notrunc status=none
	ln "$e/size100" "$e/hardlink1"
	ln "$e/size100" "$e/sub/hardlink2"
	ln -s size3452 "$e/symlink"
	ln -s "$(printf 't%.0s' $(seq 3000))" "$e/longsymlink"
	ln -s ../no/such "$e/sub/dangling"
	setfattr -n user.small -v hello "$e/size1"
	setfattr -n user.big -v "$(head -c 3000 /dev/zero | tr '\0' v)" "$e/size4096"
	setfattr -n user.dir -v "on a dir" "$e/sub"
	setfattr -n user.empty "$e/size0"
	setfattr -n trusted.t -v 0x00ff00 "$e/size65536" 2>/dev/null
	find "$e" -depth -exec touch -h -d @0 {} +
	touch -d @0 "$T"
) || exit 2
H medium "$W/in/medium" >"$W/in/medium.log" || exit 2
H casefold "$W/in/casefold" >"$W/in/casefold.log" || exit 2
for t in small medium casefold; do H paths "$W/in/$t" >"$W/in/$t.paths" || exit 2; done
H garbage "$W/in/garbage.img" 1073741824 || exit 2
log "inputs made ($((SECONDS - START)) s)"

# ---- 1. mkfs -----------------------------------------------------------------
# mk ID PRE VIEWS TREE MKFS_ARG...: format $W/SIDE/m/ID/img with both builds.
# PRE: the size of a new sparse img, "-" for none (mkfs creates it), or
# @FILE for a copy of $W/in/FILE. VIEWS: full, short or none (fsck and dump
# on the image if the old mkfs succeeded). TREE: a tree under $W/in for the
# dump paths, or "-".
mk() {
	local id=$1 pre=$2 views=$3 tree=$4 where=m/$1 s rc
	shift 4
	for s in old new; do
		mkdir -p "$W/$s/$where"
		case $pre in
		-) ;;
		@*) cp --sparse=always "$W/in/${pre#@}" "$W/$s/$where/img" ;;
		*) truncate -s "$pre" "$W/$s/$where/img" ;;
		esac
	done
	run "$where" mkfs "$@"
	rc=$(old_status "$LAST_ID")
	if ! hash_cmp "$where" img "after mkfs"; then
		rm -f "$W/new/$where/img"
		[ ! -e "$W/old/$where/img" ] || cp --sparse=always "$W/old/$where/img" "$W/new/$where/img"
	fi
	if [ "$rc" = 0 ] && [ "$views" != none ]; then
		fsck_views "$where" img "-f" "-f --json" ""
		dump_views "$where" img "$views" "$([ "$tree" = - ] || echo "$tree")"
		hash_cmp "$where" img "after fsck and dump" content || true
	fi
	[ -z "$MK_SAVE" ] || cp --sparse=always "$W/old/$where/img" "$MK_SAVE"
	rm -rf "${W:?}/old/$where" "${W:?}/new/$where"
}
MK_SAVE=

log "mkfs matrix"
for size in 64M 1G 20G; do
	mk "$size-none" "$size" full - -f "${FIX[@]}" img
	mk "$size-full" "$size" full - -f "${FIX[@]}" -O "$FULL" img
	mk "$size-casefold" "$size" full - -f "${FIX[@]}" -O "$FULL" -C utf8 img
done
for o in 1 3 5 20 50; do mk "1G-o$o" 1G short - -f "${FIX[@]}" -o "$o" img; done
mk 20G-o1 20G short - -f "${FIX[@]}" -o 1 img
mk 64M-o1 64M none - -f "${FIX[@]}" -o 1 img
for s in 2 4 16; do mk "1G-s$s" 1G short - -f "${FIX[@]}" -s "$s" img; done
mk 20G-s8-full 20G full - -f "${FIX[@]}" -O "$FULL" -s 8 img
mk 64M-s4-z2 64M short - -f "${FIX[@]}" -s 4 -z 2 img
for z in 2 4; do mk "1G-s2-z$z" 1G short - -f "${FIX[@]}" -s 2 -z "$z" img; done
mk 20G-z3 20G short - -f "${FIX[@]}" -z 3 img
mk 1G-label 1G short - -f "${FIX[@]}" -l test-label img
mk 1G-label-utf8 1G short - -f "${FIX[@]}" -l "Étiquette ラベル ü" img
mk 1G-label-long 1G none - -f "${FIX[@]}" -l "$(printf 'L%.0s' $(seq 600))" img
mk 1G-a0 1G short - -f "${FIX[@]}" -a 0 img
mk 1G-i 1G short - -f "${FIX[@]}" -i img
mk 1G-ext 1G short - -f "${FIX[@]}" -e foo,bar -E baz img
mk 1G-android 1G short - -f "${FIX[@]}" -g android img
mk 1G-r 1G short - -f "${FIX[@]}" -r img
mk 1G-R 1G short - -f "${FIX[@]}" -R 1000:2000 img
mk 1G-feat 1G short - -f "${FIX[@]}" -O extra_attr,encrypt,project_quota,inode_crtime,verity img
mk 1G-q 1G short - -q -f "${FIX[@]}" -O "$FULL" img
mk 1G-d1 1G none - -d 1 -f "${FIX[@]}" img
mk 1G-cf-strict 1G short - -f "${FIX[@]}" -C utf8:strict img
mk 1G-sectors 1G short - -f "${FIX[@]}" img 1000000
mk 1G-w4096 1G short - -f "${FIX[@]}" -w 4096 img 200000
mk S-create - short - -f "${FIX[@]}" -S img 300000
mk 1G-t0-garbage @garbage.img full - -f "${FIX[@]}" -t 0 img
mk 1G-t1-garbage @garbage.img short - -f "${FIX[@]}" -t 1 img
RUN_ENV=(SOURCE_DATE_EPOCH=1234567890)
mk 1G-sde 1G short - -f -U "$UUID" img
RUN_ENV=()
# errors
mk err-small 1M none - -f "${FIX[@]}" img
mk err-o 1G none - -f "${FIX[@]}" -o 100 img
mk err-s 1G none - -f "${FIX[@]}" -s 0 img
mk err-feature 1G none - -f "${FIX[@]}" -O nosuchfeature img
mk err-uuid 1G none - -f -U not-a-uuid -T 0 img
mk err-enc 1G none - -f "${FIX[@]}" -C latin1 img
mk err-zoned 1G none - -f "${FIX[@]}" -m img
mk err-nodev - none - -f "${FIX[@]}" img
mk err-sectors 64M none - -f "${FIX[@]}" img 999999999999
mk err-rootdir 1G none - -f "${FIX[@]}" --rootdir "$W/in/no-such-tree" img
mk err-usage 1G none - "${FIX[@]}"
mk err-notforce @garbage.img none - "${FIX[@]}" img
run . mkfs --help
run . mkfs --version
run . mkfs -Z
log "mkfs --rootdir ($((SECONDS - START)) s)"
mk rd-small-none 1G full small -f "${FIX[@]}" --rootdir "$W/in/small" img
MK_SAVE=$W/in/used.img
mk rd-small-full 1G full small -f "${FIX[@]}" -O "$FULL" --rootdir "$W/in/small" img
MK_SAVE=
mk rd-small-casefold 1G full small -f "${FIX[@]}" -O "$FULL" -C utf8 --rootdir "$W/in/small" img
mk rd-small-64M-R 64M short small -f "${FIX[@]}" -R 1000:1000 -o 5 --rootdir "$W/in/small" img
mk rd-small-20G-s4 20G short small -f "${FIX[@]}" -O "$FULL" -s 4 -l tree --rootdir "$W/in/small" img
mk rd-medium-none 1G full medium -f "${FIX[@]}" --rootdir "$W/in/medium" img
mk rd-medium-full 1G full medium -f "${FIX[@]}" -O "$FULL" --rootdir "$W/in/medium" img
mk rd-medium-20G-z2 20G short medium -f "${FIX[@]}" -s 2 -z 2 --rootdir "$W/in/medium" img
mk rd-medium-64M 64M short medium -f "${FIX[@]}" --rootdir "$W/in/medium" img
mk rd-casefold 1G full casefold -f "${FIX[@]}" -O casefold -C utf8 --rootdir "$W/in/casefold" img
mk rd-casefold-full 1G full casefold -f "${FIX[@]}" -O "$FULL" -C utf8 --rootdir "$W/in/casefold" img
mk rd-casefold-plain 1G short casefold -f "${FIX[@]}" --rootdir "$W/in/casefold" img
# over the old build's image of the small tree: -t 0 leaves old data behind
mk rd-reformat-t0 @used.img full - -f "${FIX[@]}" -t 0 img
mk rd-reformat-t1 @used.img short - -f "${FIX[@]}" -O "$FULL" img
mk rd-over-used @used.img short small -f "${FIX[@]}" -t 0 --rootdir "$W/in/small" img
rm -f "$W/in/used.img"

# ---- dump on images with a random SIT (GC views) ----------------------------
log "dump on SIT-filled images ($((SECONDS - START)) s)"
gcimg() {
	local id=$1 size=$2 where=g/$1 s
	shift 2
	rm -f "$W/in/g.img"
	truncate -s "$size" "$W/in/g.img"
	if ! "$OLD/mkfs/mkfs.f2fs" -q "$@" "$W/in/g.img" >/dev/null 2>&1 ||
		! "$PY" "$SRC/tests/dump/sitedit.py" "$W/in/g.img" fill 7 >/dev/null ||
		! "$PY" "$SRC/tests/dump/sitedit.py" "$W/in/g.img" elapsed 500000 >/dev/null; then
		log "cannot make the SIT-filled image $id"
		return 0
	fi
	for s in old new; do
		mkdir -p "$W/$s/$where"
		cp --sparse=always "$W/in/g.img" "$W/$s/$where/img"
	done
	fsck_views "$where" img "-f" "-f --json"
	dump_views "$where" img full
	hash_cmp "$where" img "after fsck and dump" content || true
}
gcimg fill-1G 1G -f "${FIX[@]}"
gcimg fill-1G-s4 1G -f "${FIX[@]}" -O "$FULL" -s 4
gcimg fill-64M 64M -f "${FIX[@]}"
rm -f "$W/in/g.img"

log "waiting for the fsck cases ($((SECONDS - START)) s)"
wait "$CASES_PID"
log "comparing ($((SECONDS - START)) s)"
H compare "$OUT" "$OUT/index-a.txt" "$OUT/index-c.txt"
rc=$?
log "done in $((SECONDS - START)) s"
exit "$rc"
