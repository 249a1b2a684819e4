#!/bin/bash
# dump.f2fs on images from our mkfs and (if installed) f2fs-tools' mkfs+sload:
# summary fields, --ls, -i, error exits and usage exits.
# Env: MKFS (our mkfs.f2fs), top_builddir (dump is $top_builddir/dump/dump.f2fs).
NAME=dump-basic
. "$(dirname "$0")/common.sh"
PEER_MKFS=${PEER_MKFS:-/usr/sbin/mkfs.f2fs}
PEER_SLOAD=${PEER_SLOAD:-/usr/sbin/sload.f2fs}

# Names listed by dump --ls (ino mode links uid gid size date time name [-> target]).
ls_names() { # ls_names IMG PATH
	"$DUMP" --ls="$2" "$1" | sed -E 's/^ *[0-9]+ [^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ //' |
		sed -E 's/ -> .*$//' | sort
}

need_tools

# ---- our mkfs ---------------------------------------------------------------
img=$W/demo.img
truncate -s 256M "$img"
if "$MKFS" -q -f -O extra_attr,quota,lost_found,inode_checksum -l DEMO "$img" >"$W/mkfs.log" 2>&1; then
	ok "mkfs"
else
	bad "mkfs: $(cat "$W/mkfs.log")"
fi

run "$img"
check "default view exits 0" test "$rc" -eq 0
check "label shown" grep -Eq '^ +label: +DEMO$' "$W/out"
for f in extra_attr quota lost_found inode_checksum; do
	check "feature $f shown" grep -Eq "^ +features: .*\\b$f\\b" "$W/out"
done
check "checkpoint flags name nat_bits" grep -Eq '^ +flags: +0x[0-9a-f]+ \(.*\bnat_bits\b' "$W/out"
check "checkpoint flags name umount" grep -Eq '^ +flags: .*\bumount\b' "$W/out"
check "pack in use named" grep -Eq '^Checkpoint: pack [12] at block [0-9]+' "$W/out"
check "primary superblock used" grep -q '^Superblock: copy 0' "$W/out"

run --sb "$img"
check "--sb exits 0 and lists fields" eval '[[ $rc -eq 0 ]] && grep -Eq "^ +segment_count_main +[0-9]+$" "$W/out" && grep -Eq "^ +volume_name +DEMO$" "$W/out"'
run --cp "$img"
check "--cp exits 0 and lists both journals" eval '[[ $rc -eq 0 ]] && grep -Eq "NAT journal entries +0$" "$W/out" && grep -Eq "SIT journal entries +6$" "$W/out" && grep -Eq "^ +0 +4 +3 hot_node$" "$W/out"'
check "--cp checks nat_bits header" grep -q 'matches the checkpoint' "$W/out"

run --ls / "$img"
check "--ls / exits 0" test "$rc" -eq 0
check "--ls / lists lost+found as a directory" grep -Eq '^ +[0-9]+ d[rwx-]{9} +2 +[0-9]+ +[0-9]+ +[0-9]+ [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} lost\+found$' "$W/out"
run --ls "$img"
check "--ls defaults to /" grep -Eq ' lost\+found$' "$W/out"
run --ls=/lost+found "$img"
check "--ls of an empty directory prints nothing" eval '[[ $rc -eq 0 && -z $out ]]'

run -i 3 "$img"
check "-i 3 exits 0" test "$rc" -eq 0
check "-i 3 is a directory" grep -Eq '^ +type: +directory$' "$W/out"
check "-i 3 has links 3" grep -Eq '^ +links: +3$' "$W/out"
check "-i 3 mode" grep -Eq '^ +mode: +0040755 \(drwxr-xr-x\)$' "$W/out"
check "-i 3 inline flags by name" grep -Eq '^ +inline: +0x20 \(extra_attr\)$' "$W/out"
check "-i 3 checksum ok" grep -Eq '^ +inode_checksum: +0x[0-9a-f]{8} \(ok\)$' "$W/out"

expect_error "-i of an unused nid" -i 200 "$img"
expect_error "-i beyond the NAT" -i 4000000000 "$img"
expect_error "--ls of a missing path" --ls=/no/such "$img"
expect_error "--ls of a missing nested path" --ls=/lost+found/x/y "$img"

# ls -l's columns: mtime (long-iso, local time), a device's major, minor
src=$W/devsrc
mkdir -p "$src"
mknod "$src/tty" c 4 64 2>/dev/null && mknod "$src/wide" b 259 300000 2>/dev/null &&
	touch -h -d '2021-03-04 05:06:00' "$src/tty" "$src/wide"
if [[ -c $src/tty && -b $src/wide ]]; then
	touch -d '2020-01-02 03:04:00' "$src"
	dimg=$W/dev.img
	truncate -s 64M "$dimg"
	"$MKFS" -q -f --rootdir "$src" "$dimg" >/dev/null 2>&1
	run --ls=/ "$dimg"
	check "--ls: a char device shows major, minor and mtime like ls -l" grep -Eq '^ +[0-9]+ crw.* 4, 64 2021-03-04 05:06 tty$' "$W/out"
	check "--ls: a device beyond the 16-bit form" grep -Eq '^ +[0-9]+ brw.* 259, 300000 2021-03-04 05:06 wide$' "$W/out"
	expect_error "--ls with a trailing slash on what is no directory" --ls=/tty/ "$dimg"
	run --json --ls=/ "$dimg"
	check "--ls --json: major, minor and mtime" python3 -c '
import json, sys
rows = {r["name"]: r for r in json.load(open(sys.argv[1]))["ls"]}
assert (rows["tty"]["major"], rows["tty"]["minor"]) == (4, 64), rows["tty"]
assert (rows["wide"]["major"], rows["wide"]["minor"]) == (259, 300000), rows["wide"]
assert rows["tty"]["mtime"] == int(sys.argv[2]), rows["tty"]' "$W/out" "$(stat -c %Y "$src/tty")"
else
	echo "SKIP: device nodes cannot be made here"
fi

# usage mistakes name the way to do it
run --ls "$img" /lost+found
check "--ls with PATH after the image: usage error naming --ls=PATH" eval '[[ $rc -eq 16 ]] && grep -q -- "--ls=/lost+found" "$W/err"'
run --ls=/lost+found/ "$img"
check "--ls with a trailing slash on a directory works" test "$rc" -eq 0
run -i -5 "$img"
check "-i -5 is a usage error, not a path" eval '[[ $rc -eq 16 ]] && grep -q "not an inode number" "$W/err"'
for o in "--policy greedy" "--fg" "--bg" "--max-search 20" "--top 3"; do
	# shellcheck disable=SC2086
	run $o "$img"
	check "$o without --gc is a usage error" eval '[[ $rc -eq 16 ]]'
done

# ---- damaged and foreign input ---------------------------------------------
head -c 1M /dev/zero >"$W/zeros.img"
expect_error "1 MiB of zeros is not F2FS" "$W/zeros.img"
head -c 8K "$img" >"$W/trunc.img"
expect_error "truncated image (8 KiB)" "$W/trunc.img"
expect_error "missing file" "$W/does-not-exist.img"

# primary superblock destroyed: the backup is used and the reason named
cp "$img" "$W/sb1.img"
printf '\0\0\0\0' | dd of="$W/sb1.img" bs=1 seek=1024 conv=notrunc status=none
run "$W/sb1.img"
check "backup superblock used when copy 0 is bad" eval '[[ $rc -eq 0 ]] && grep -Eq "^Superblock: copy 1 .*rejected: .*magic" "$W/out"'

# ---- usage -----------------------------------------------------------------
run --bogus "$img"
check "unknown option gives 16" eval '[[ $rc -eq 16 ]]'
run -i
check "missing option argument gives 16" eval '[[ $rc -eq 16 ]]'
run -i 12abc "$img"
check "malformed inode number gives 16" eval '[[ $rc -eq 16 ]]'
run -d x "$img"
check "bad debug level gives 16" eval '[[ $rc -eq 16 ]]'
run
check "no image gives 16" eval '[[ $rc -eq 16 ]]'
run "$img" "$img"
check "two images give 16" eval '[[ $rc -eq 16 ]]'
run --help
check "--help exits 0" eval '[[ $rc -eq 0 && $out == Usage:* ]]'
run -V
check "-V exits 0" eval '[[ $rc -eq 0 && $out == dump.f2fs* ]]'

# ---- f2fs-tools mkfs + sload: dentry blocks written by another tool ---------
if [[ -x $PEER_MKFS && -x $PEER_SLOAD ]]; then
	src=$W/src
	mkdir -p "$src/small" "$src/big" "$src/deep/a/b/c" "$src/with space"
	echo hi >"$src/small/f1"
	ln -s ../small/f1 "$src/small/link"
	for i in $(seq 1 400); do echo "$i" >"$src/big/file_number_$i"; done
	long=$(printf 'n%.0s' $(seq 1 200))
	echo x >"$src/deep/a/b/c/$long"
	echo y >"$src/with space/a file"
	head -c 5000000 /dev/zero >"$src/bigfile"
	pimg=$W/peer.img
	truncate -s 256M "$pimg"
	if "$PEER_MKFS" -q -f "$pimg" >"$W/peer.log" 2>&1 &&
	   "$PEER_SLOAD" -f "$src" "$pimg" >>"$W/peer.log" 2>&1; then
		for d in / /small /big /deep /deep/a/b/c "/with space"; do
			want=$(cd "$src$d" && find . -mindepth 1 -maxdepth 1 -printf '%f\n' | sort)
			got=$(ls_names "$pimg" "$d")
			if [[ $got == "$want" ]]; then
				ok "sload image: --ls $d lists the source names ($(wc -l <<<"$want"))"
			else
				bad "sload image: --ls $d differs: $(diff <(echo "$want") <(echo "$got") | head -5)"
			fi
		done
		expect_error "sload image: --ls through a regular file" --ls=/small/f1/x "$pimg"
		run --ls=/small/link "$pimg"
		check "sload image: symlink target shown" grep -Eq '^ +[0-9]+ l.* link -> \.\./small/f1$' "$W/out"
		run --ls=/bigfile "$pimg"
		check "sload image: file size" grep -Eq '^ +[0-9]+ -rw.* 5000000 [0-9-]{10} [0-9:]{5} bigfile$' "$W/out"
		run --json -i /bigfile "$pimg"
		tiles=$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["inode"]
pos = 0
for e in m["block_map"]:
    assert e["file_block"] == pos and e["kind"] in ("data", "hole"), e
    pos += e["blocks"]
print(pos, m["mapped_blocks"] + m["hole_blocks"])' "$W/out" 2>&1)
		check "sload image: -i /bigfile block map tiles its 1221 blocks ($tiles)" test "$tiles" = "1221 1221"
		run -i /small/f1 "$pimg"
		check "sload image: -i by path of a small file" eval '[[ $rc -eq 0 && $out == "Inode "* ]] && grep -Eq "^ +size: +3$" "$W/out"'
	else
		bad "f2fs-tools mkfs/sload failed: $(tail -3 "$W/peer.log")"
	fi
else
	echo "SKIP: f2fs-tools (mkfs.f2fs, sload.f2fs) not installed"
fi

finish
