#!/bin/bash
# dump.f2fs --extract copies extended attributes and POSIX ACLs back out:
# gentree.py's xattrs profile (user.* values small and large, past the inline
# area into an xattr node, security.*, trusted.*, access and default ACLs,
# xattrs on directories and symlinks) goes through mkfs --rootdir and comes
# back equal by manifest.py, xattrs and ACLs included, with inline xattrs
# (flexible_inline_xattr) and without extra_attr.
# As non-root, trusted.* and some security.* cannot be set: those are
# warnings, and the xattrs are then left out of the comparison.
NAME=dump-xattr
. "$(dirname "$0")/common.sh"
need_tools

src=$W/src
if ! $GENTREE xattrs "$src" >"$W/gen.log" 2>&1; then
	bad "gentree xattrs: $(tail -1 "$W/gen.log")"
	finish
	exit
fi
root=1
[[ $(id -u) -eq 0 ]] || { root=0; echo "(not root: xattrs are not compared)"; }
manifest() {
	if ((root)); then $MANIFEST --exclude-lpf "$1"; else $MANIFEST --exclude-lpf "$1" | sed -E 's/ x=[^ ]*//g'; fi
}
manifest "$src" >"$W/m.src"
check "source tree has xattrs and ACLs" grep -q ' x=' "$W/m.src"

for feat in "" "extra_attr,flexible_inline_xattr" "extra_attr,inode_checksum,flexible_inline_xattr,lost_found"; do
	img=$W/x.img dst=$W/dst
	rm -rf "$img" "$dst"
	truncate -s 1G "$img"
	if ! "$MKFS" -q -f ${feat:+-O "$feat"} --rootdir "$src" "$img" >"$W/mkfs.log" 2>&1; then
		bad "mkfs -O ${feat:-default}: $(tail -1 "$W/mkfs.log")"
		continue
	fi
	run --json --extract / -o "$dst" "$img"
	check "-O ${feat:-default}: --extract / exits 0" test "$rc" -eq 0
	[[ $rc -eq 0 ]] || echo "    | $(head -c 300 "$W/err")"
	n=$(jget extract.xattrs 2>/dev/null || echo 0)
	check "-O ${feat:-default}: xattrs set ($n)" test "$n" -gt 0
	manifest "$dst" >"$W/m.dst"
	if cmp -s "$W/m.src" "$W/m.dst"; then
		ok "-O ${feat:-default}: extracted tree equals the source, xattrs and ACLs included ($(wc -l <"$W/m.src") entries)"
	else
		bad "-O ${feat:-default}: trees differ: $(diff "$W/m.src" "$W/m.dst" | head -4 | cut -c1-300 | tr '\n' ' ')"
	fi
done

# -i lists the xattrs of the last image: for every file and directory of the
# source, its user.*, trusted.* and security.* xattrs are exactly those shown
# (values as text, or 0x and hex when not printable); ACLs are counted.
res=$(python3 - "$DUMP" "$img" "$src" <<'EOF'
import json, os, subprocess, sys
dump, img, src = sys.argv[1:4]
bad, n, acls = [], 0, 0
for root, dirs, files in os.walk(src):
    for name in dirs + files:
        host = os.path.join(root, name)
        if os.path.islink(host):
            continue
        path = host[len(src):]
        try:
            want = {k: os.getxattr(host, k, follow_symlinks=False)
                    for k in os.listxattr(host, follow_symlinks=False)}
        except OSError:
            continue
        p = subprocess.run([dump, "--json", "-i", path, img], capture_output=True, text=True)
        if p.returncode:
            bad.append("%s: rc %d" % (path, p.returncode))
            continue
        got = {x["name"]: x for x in json.loads(p.stdout)["inode"]["xattrs"]}
        for k, v in want.items():
            if k.startswith("system."):
                acls += k in got
                continue
            x = got.get(k)
            if x is None:
                bad.append("%s: %s missing" % (path, k))
            elif x["size"] != len(v) or x["value"] not in (v.rstrip(b"\0").decode("latin-1"), "0x" + v.hex()):
                bad.append("%s: %s differs" % (path, k))
        extra = set(got) - set(want)
        if extra:
            bad.append("%s: extra %s" % (path, sorted(extra)[:2]))
        n += 1
print(n, acls, " ".join(bad[:3]) or "ok")
EOF
)
read -r nfiles nacls verdict <<<"$res"
check "-i lists each inode's xattrs as the source has them ($res)" \
	test "$verdict" = ok -a "${nfiles:-0}" -gt 5 -a "${nacls:-0}" -gt 0

finish
