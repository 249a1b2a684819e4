#!/bin/bash
# dump.f2fs on an image the real kernel wrote. Our mkfs makes a 512 MiB image;
# in one boot the guest mounts it, runs the workload, writes files of known
# content, deletes every other one (partly valid segments), syncs, prints the
# md5 of every regular file and unmounts. On the host:
#   - --extract / gives back every file with the md5 the guest saw;
#   - -i INO's node address is, by -b, that inode's own node block;
#   - -b on a sample of valid data blocks from the SSA (-a) names an inode and
#     a file block, and that block of the extracted inode holds the same bytes;
#   - -i PATH's block map tiles each sampled file, and every data extent holds
#     the bytes of that file as extracted;
#   - --segments: free + partial + full + current = segment_count_main;
#   - --gc (greedy, fg) lists only non-current, partly valid sections;
#   - every --json output parses.
# Exit: 0 pass, 1 fail, 77 when the kernel harness is missing
# (F2FS_REQUIRE_KERNEL=1 makes that a failure); F2FS_KERNEL_TESTS=skip skips.
NAME=dump-kernel
. "$(dirname "$0")/common.sh"
KVM_RUN=$top_srcdir/tests/kernel/kvm-run

if [[ ${F2FS_KERNEL_TESTS:-auto} == skip ]]; then
	echo "$NAME: skipped (F2FS_KERNEL_TESTS=skip)"
	exit 77
fi
need_tools

img=$W/k.img
truncate -s 512M "$img"
"$MKFS" -q -f "$img" >"$W/mkfs.log" 2>&1 || { bad "mkfs: $(tail -1 "$W/mkfs.log")"; finish; exit; }

# Known content: k/fN is N+1 repeats of a 4 KiB pattern block; the host knows
# the md5 without the guest (checked below). 200 files of 8-64 KiB, about
# 7 MiB, then every other file goes: the data segments are left partly valid.
cat >"$W/job.sh" <<'EOF'
mount -t f2fs /dev/vda /mnt || exit 10
workload /mnt/w 300 >/dev/null || exit 11
mkdir /mnt/k || exit 12
printf '%4096s' x > /tmp/blk
cat /tmp/blk /tmp/blk /tmp/blk /tmp/blk > /tmp/b4
cat /tmp/b4 /tmp/b4 /tmp/b4 /tmp/b4 > /tmp/pat
i=0
while [ $i -lt 200 ]; do
	n=$((i % 8 * 2 + 2))
	dd if=/tmp/pat of=/mnt/k/f$i bs=4096 count=$n 2>/dev/null || exit 16
	printf '%d\n' $i >> /mnt/k/f$i
	i=$((i + 1))
done
sync
i=0
while [ $i -lt 200 ]; do rm /mnt/k/f$i || exit 13; i=$((i + 2)); done
printf 'hello from the kernel\n' > /mnt/known
sync
cd /mnt && find . -type f -exec md5sum {} + > /tmp/md5 || exit 14
cd /
umount /mnt || exit 15
echo MD5-BEGIN
cat /tmp/md5
echo MD5-END
EOF

"$KVM_RUN" --dmesg --timeout 600 "$img" "$W/job.sh" >"$W/kout" 2>"$W/kerr"
krc=$?
if ((krc == 77)); then
	cat "$W/kerr"
	if [[ ${F2FS_REQUIRE_KERNEL:-0} == 1 ]]; then bad "kernel harness unavailable (F2FS_REQUIRE_KERNEL=1)"; finish; exit 1; fi
	exit 77
fi
if ((krc != 0)) || ! grep -qx MD5-END "$W/kout"; then
	bad "kernel job exited $krc"
	sed 's/^/    | /' "$W/kout" "$W/kerr" | tail -30
	finish
	exit 1
fi
ok "kernel: mount, workload, known files, deletes, sync, umount"
sed -n '/^MD5-BEGIN$/,/^MD5-END$/p' "$W/kout" | sed '1d;$d' | tr -d '\r' |
	awk '{ p = $2; sub(/^\.\//, "", p); print $1 "  " p }' | sort -k2 >"$W/md5.guest"
nguest=$(wc -l <"$W/md5.guest")

# the guest's md5 of known files agrees with the host's idea of them
blk=$(printf '%4096s' x)
want_known() { # want_known I
	local n=$(($1 % 8 * 2 + 2)) j
	for ((j = 0; j < n; j++)); do printf '%s' "$blk"; done
	printf '%d\n' "$1"
}
mism=0
for i in 1 77 199; do
	h=$(want_known $i | md5sum | cut -d' ' -f1)
	grep -qx "$h  k/f$i" "$W/md5.guest" || mism=$((mism + 1))
done
check "guest md5 of known files matches the host's (k/f1, k/f77, k/f199)" test $mism -eq 0
check "deleted files are gone in the guest's list" test "$(grep -c '  k/f[0-9]*[02468]$' "$W/md5.guest")" -eq 0

# --- extract ---------------------------------------------------------------
dst=$W/x
run --extract / -o "$dst" "$img"
check "--extract / exits 0" test "$rc" -eq 0
(cd "$dst" && find . -type f -exec md5sum {} + 2>/dev/null) |
	awk '{ p = $2; sub(/^\.\//, "", p); print $1 "  " p }' | sort -k2 >"$W/md5.host"
if cmp -s "$W/md5.guest" "$W/md5.host"; then
	ok "extracted tree: all $nguest regular files have the guest's md5"
else
	bad "extracted tree differs from the guest's md5 list: $(diff "$W/md5.guest" "$W/md5.host" | head -6 | tr '\n' ' ')"
fi
check "extracted known file" test "$(cat "$dst/known" 2>/dev/null)" = "hello from the kernel"

# --- JSON views parse --------------------------------------------------------
for v in "--sb" "--cp" "--segments" "--gc" "--gc --fg" "--gc --policy age" "-s 0~-1" "-a 0~-1" "-n 0~-1" "-M" "--ls=/k" "--gc-sim"; do
	# shellcheck disable=SC2086
	run --json $v "$img"
	json_ok "--json $v parses"
done

# --- -i / -b on nodes, -b on data blocks (one python3: a pyenv shim makes each start slow) ---
"$DUMP" --json -a 0~-1 "$img" >"$W/ssa.json"
"$DUMP" --json --ls=/k "$img" >"$W/ls.json"
python3 - "$DUMP" "$img" "$W" >"$W/owners" <<'PY'
import json, os, subprocess, sys
dump, img, w = sys.argv[1:4]
def dj(*args):
    r = subprocess.run([dump, "--json", *args, img], capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode == 0 else {"rc": r.returncode, "err": r.stderr}
# nodes: -i INO's node_blkaddr, looked up with -b, is that inode's own node block
rows = [r for r in json.load(open(w + "/ls.json"))["ls"] if r["name"] not in (".", "..")]
inos = [3] + [r["ino"] for r in rows[::8]]
good = 0
for ino in inos:
    i = dj("-i", str(ino))
    b = dj("-b", str(i["inode"]["node_blkaddr"])).get("block", {}) if "inode" in i else {}
    if (b.get("kind"), b.get("nid"), b.get("ino"), b.get("node_kind"), b.get("valid")) == ("node", ino, ino, "inode", 1):
        good += 1
    else:
        print("    | -i %d: %s; -b: %s" % (ino, i.get("inode", i), b), file=sys.stderr)
print("nodes", good, len(inos))
# data: valid data blocks from the SSA; -b names an inode and a file block,
# and that block of the inode extracted by number holds the image's bytes
ssa = [r for r in json.load(open(w + "/ssa.json"))["ssa"] if r["kind"] == "data" and r["valid"] == 1]
sample = ssa[::max(1, len(ssa) // 40)][:40]
good = 0
with open(img, "rb") as f:
    for r in sample:
        b = dj("-b", str(r["blkaddr"])).get("block", {})
        one = w + "/one"
        if os.path.exists(one):
            os.unlink(one)
        ok = b.get("kind") == "data" and b.get("nid") == r["nid"] and "file_block" in b
        if ok:
            subprocess.run([dump, "--extract", str(b["ino"]), "-o", one, img], capture_output=True)
            f.seek(r["blkaddr"] * 4096)
            x = f.read(4096)
            try:
                with open(one, "rb") as g:
                    g.seek(b["file_block"] * 4096)
                    y = g.read(4096).ljust(4096, b"\0")
            except OSError:
                y = None
            ok = x == y
        if ok:
            good += 1
        else:
            print("    | block %d (SSA nid %d): -b %s" % (r["blkaddr"], r["nid"], b), file=sys.stderr)
print("data", good, len(sample))
PY
read -r _ ngood nall < <(grep '^nodes' "$W/owners")
check "-b on -i's node address names that inode (${ngood:-0} of ${nall:-0} inodes)" test "${ngood:-0}" = "${nall:-x}" -a "${nall:-0}" -gt 5
read -r _ dgood dall < <(grep '^data' "$W/owners")
check "-b on sampled data blocks: owner and file block match the extracted inode (${dgood:-0} of ${dall:-0})" test "${dgood:-0}" = "${dall:-x}" -a "${dall:-0}" -gt 10

# --- -i block maps of kernel-written files: the extents tile the file and each
# data extent holds the bytes of the file extracted above ---
res=$(python3 - "$DUMP" "$img" "$dst" "$W/ls.json" <<'PY'
import json, subprocess, sys
dump, img, dst, ls = sys.argv[1:5]
rows = [r for r in json.load(open(ls))["ls"] if (r["mode"] or "").startswith("-")]
bad, n = [], 0
with open(img, "rb") as f:
    for r in rows[::5][:40]:
        path = "/k/" + r["name"]
        p = subprocess.run([dump, "--json", "-i", path, img], capture_output=True, text=True)
        if p.returncode:
            bad.append("%s: rc %d" % (path, p.returncode))
            continue
        m = json.loads(p.stdout)["inode"]
        if m["data"] != "blocks":
            continue
        src = open(dst + path, "rb").read()
        pos = 0
        for e in m["block_map"]:
            if e["file_block"] != pos:
                bad.append("%s: extent at %d, expected %d" % (path, e["file_block"], pos))
            pos = e["file_block"] + e["blocks"]
            if e["kind"] == "data":
                f.seek(e["blkaddr"] * 4096)
                got = f.read(e["blocks"] * 4096)
                want = src[e["file_block"] * 4096:pos * 4096]
                if got[:len(want)] != want:
                    bad.append("%s: bytes differ in blocks %d+%d" % (path, e["file_block"], e["blocks"]))
            elif e["kind"] != "hole":
                bad.append("%s: %s extent" % (path, e["kind"]))
        if pos != (len(src) + 4095) // 4096:
            bad.append("%s: map covers %d blocks, file has %d bytes" % (path, pos, len(src)))
        n += 1
print(n, " ".join(bad[:3]) or "ok")
PY
)
check "-i block maps of kernel-written files match their extracted bytes ($res)" test "${res#* }" = ok -a "${res%% *}" -gt 10

# --- --segments --------------------------------------------------------------------
run --json --sb "$img"
main=$(jget sb.segment_count_main 2>/dev/null || jget superblock.segment_count_main)
run --json --segments "$img"
read -r sum msegs cur <<<"$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = [r for r in d["by_type"] if r["type"] == "total"][0]
per = sum(r["free_segs"] + r["partial_segs"] + r["full_segs"] + r["current_segs"] for r in d["by_type"] if r["type"] != "total")
tot = t["free_segs"] + t["partial_segs"] + t["full_segs"] + t["current_segs"]
print(tot if tot == per else -1, d["segments"]["main_segments"], ",".join(str(c["segno"]) for c in d["current"]))' "$W/out")"
check "--segments: free+partial+full+current = segment_count_main ($sum = $main)" test "$sum" = "$main" -a "$msegs" = "$main"
histo=$(python3 -c 'import json,sys; print(sum(r["segments"] for r in json.load(open(sys.argv[1]))["histogram"]))' "$W/out")
check "--segments: histogram covers every main segment ($histo)" test "$histo" = "$main"

# --- --gc ----------------------------------------------------------------------
run --json --gc --fg --policy greedy --top 100000 "$img"
"$DUMP" --json -s 0~-1 "$img" >"$W/sit.json"
res=$(python3 - "$W/out" "$W/sit.json" "$cur" <<'PY'
import json, sys
gc = json.load(open(sys.argv[1]))
sit = {r["segno"]: r for r in json.load(open(sys.argv[2]))["sit"]}
cur = {int(s) for s in sys.argv[3].split(",")}
v = gc["victims"]
bad = []
for r in v:
    s = r["segno"]
    if s in cur: bad.append("current %d" % s)
    if not 0 < r["valid"] < 512: bad.append("seg %d valid %d" % (s, r["valid"]))
    if s in sit and sit[s]["valid"] != r["valid"]: bad.append("seg %d SIT %d" % (s, sit[s]["valid"]))
# every partly valid non-current segment is a candidate
want = {s for s, r in sit.items() if 0 < r["valid"] < 512 and s not in cur}
got = {r["segno"] for r in v}
if want != got: bad.append("missing %s extra %s" % (sorted(want - got)[:5], sorted(got - want)[:5]))
costs = [r["cost"] for r in v]
if costs != sorted(costs): bad.append("not sorted by cost")
print(len(v), " ".join(bad[:5]) or "ok")
PY
)
check "--gc lists only non-current, partly valid sections, all of them, by cost ($res)" test "${res#* }" = ok -a "${res%% *}" -gt 0

finish
