#!/bin/bash
# dump.f2fs --extract: trees built by mkfs --rootdir come back out equal
# (content, holes, modes, owners, times, links, devices), single files by
# path and by inode number, and bad requests fail with one line.
NAME=dump-extract
. "$(dirname "$0")/common.sh"
need_tools

# manifest without xattrs (not extracted) and without lost+found
manifest() { $MANIFEST --exclude-lpf "$1" | sed -E 's/ x=[^ ]*//g'; }

for profile in mixed large; do
	src=$W/src-$profile
	img=$W/$profile.img
	if ! $GENTREE "$profile" "$src" >"$W/gen.log" 2>&1; then
		bad "gentree $profile: $(tail -1 "$W/gen.log")"
		continue
	fi
	truncate -s 20G "$img"
	if ! "$MKFS" -q -f -O extra_attr,inode_checksum,flexible_inline_xattr,lost_found \
		--rootdir "$src" "$img" >"$W/mkfs.log" 2>&1; then
		bad "mkfs --rootdir $profile: $(tail -1 "$W/mkfs.log")"
		continue
	fi
	dst=$W/out-$profile
	mkdir "$dst"
	run --extract / -o "$dst" "$img"
	check "$profile: --extract / exits 0" test "$rc" -eq 0
	manifest "$src" >"$W/m.src"
	manifest "$dst" >"$W/m.dst"
	if cmp -s "$W/m.src" "$W/m.dst"; then
		ok "$profile: extracted tree equals the source ($(wc -l <"$W/m.src") entries: content, modes, owners, mtimes, links)"
	else
		bad "$profile: trees differ: $(diff "$W/m.src" "$W/m.dst" | head -4 | tr '\n' ' ')"
	fi
	if [[ $(id -u) -ne 0 ]]; then
		echo "(not root: owners and devices are not compared exactly)"
	fi
	# holes stay holes: the extracted sparse files use no more space than the sources
	if [[ $profile == large ]]; then
		s=$(du -sk "$src" | cut -f1) d=$(du -sk "$dst" | cut -f1)
		check "large: sparse files stay sparse ($d KiB out, $s KiB in)" test "$d" -le $((s + 1024))
		big=$(cd "$src" && find . -type f -size +1G | head -1)
		if [[ -n $big ]]; then
			run --extract "$big" -o "$W/one" "$img"
			check "large: single file past the double-indirect boundary ($big)" cmp -s "$src/$big" "$W/one"
		fi
	fi
done

# a hand-made tree: small files, a 13 MiB file (indirect node), a sparse file
src=$W/hand
mkdir -p "$src/d/e" "$src/empty"
printf 'hello\n' >"$src/d/small"
: >"$src/d/zero"
head -c 13631488 /dev/urandom >"$src/d/indirect"
truncate -s 40M "$src/sparse"
printf 'tail' | dd of="$src/sparse" bs=1 seek=30000000 conv=notrunc status=none
ln -s d/small "$src/link"
ln "$src/d/small" "$src/d/e/hard"
chmod 0640 "$src/d/small"
touch -d '2001-02-03 04:05:06.789' "$src/d/small"
img=$W/hand.img
truncate -s 512M "$img"
"$MKFS" -q -f -O extra_attr,inode_checksum --rootdir "$src" "$img" >"$W/mkfs.log" 2>&1 ||
	bad "mkfs --rootdir hand: $(tail -1 "$W/mkfs.log")"
mkdir "$W/h"
run --extract / -o "$W/h" "$img"
if diff -r "$src" "$W/h" >"$W/diff" 2>&1; then ok "hand tree: diff -r finds no difference"; else bad "hand tree: $(head -3 "$W/diff")"; fi
check "hand tree: mode kept" test "$(stat -c %a "$W/h/d/small")" = 640
check "hand tree: mtime kept (ns)" test "$(stat -c %y "$W/h/d/small")" = "$(stat -c %y "$src/d/small")"
check "hand tree: hard link kept" test "$(stat -c %h "$W/h/d/e/hard")" = 2
check "hand tree: symlink kept" test "$(readlink "$W/h/link")" = d/small
check "hand tree: sparse file sparse" test "$(du -k "$W/h/sparse" | cut -f1)" -lt 1024

# single objects: by path into an existing directory, by inode number, to a new name
mkdir "$W/into"
run --extract /d/indirect -o "$W/into" "$img"
check "file by path into an existing directory" cmp -s "$src/d/indirect" "$W/into/indirect"
ino=$("$DUMP" --ls=/d "$img" --json | python3 -c 'import json,sys; print([r["ino"] for r in json.load(sys.stdin)["ls"] if r["name"]=="indirect"][0])')
run --extract "$ino" -o "$W/byino" "$img"
check "file by inode number ($ino)" cmp -s "$src/d/indirect" "$W/byino"
run --extract /d -o "$W/sub" "$img"
check "subtree to a new directory" diff -r "$src/d" "$W/sub"
run --json --extract /link -o "$W/l2" "$img"
json_ok "--json --extract output parses"
check "symlink by path" test "$(readlink "$W/l2")" = d/small

# bad requests
expect_error "unknown path" --extract /no/such -o "$W/x" "$img"
expect_error "unused inode number" --extract 4000 -o "$W/x" "$img"
expect_error "destination exists (a file)" --extract /d/small -o "$W/into/indirect" "$img"
run --extract /d "$img"
check "--extract without -o is a usage error" test "$rc" -eq 16
run -o "$W/x" "$img"
check "-o without --extract is a usage error" test "$rc" -eq 16

finish
