#!/bin/bash
# dump.f2fs --metadump / --restore: over every image of the fsck case suite
# that dump opens, the restored image gets the verdict of the original from
# our fsck -n (the problems it names and the exit status) with
# --keep-names, and the same apart from dir.bad_hash and dir.wrong_bucket
# (the scrambling's) without; a scrambled name is not the original; file
# data is not in the dump; a restore never overwrites a file.
NAME=dump-metadump
. "$(dirname "$0")/common.sh"
need_tools
FSCK=${FSCK:-$top_builddir/fsck/fsck.f2fs}
CASES=$top_srcdir/tests/fsck/cases

# verdict IMAGE [IGNORED-RE]: problem names and counts, then the exit
# status (left out when problems are ignored: they change it)
verdict() {
	"$FSCK" -n "$1" 2>&1 | grep -oE '^(ERROR|WARNING) [a-z_.]+ ' | grep -vE "${2:-^$}" | sort | uniq -c
	"$FSCK" -n "$1" >/dev/null 2>&1
	local rc=$?
	[[ -n ${2:-} ]] || echo "exit $rc"
}

for mode in keep scramble; do
	same=0 differ=0 opened=0
	for d in "$CASES"/*/; do
		[[ -f $d/image.bz2 ]] || continue
		c=$(basename "$d")
		bzip2 -dc "$d/image.bz2" >"$W/c.img"
		rm -f "$W/r.img" "$W/md"
		args=(--metadump "$W/md")
		[[ $mode == keep ]] && args+=(--keep-names)
		"$DUMP" "${args[@]}" "$W/c.img" >/dev/null 2>&1 || continue   # dump cannot open it
		opened=$((opened + 1))
		"$DUMP" --restore "$W/md" -o "$W/r.img" >/dev/null 2>&1 || { bad "$c: restore failed"; continue; }
		ign=$([[ $mode == keep ]] || echo 'dir\.bad_hash|dir\.wrong_bucket')
		if [[ $(verdict "$W/c.img" "$ign") == "$(verdict "$W/r.img" "$ign")" ]]; then
			same=$((same + 1))
		else
			differ=$((differ + 1))
			echo "$mode: $c: the restored image's verdict differs"
		fi
	done
	check "$mode names: $same of $opened case images restore with their verdict" \
		eval '[[ $differ -eq 0 && $opened -gt 100 ]]'
done

# a tree with names and data that must not be in a scrambled dump
mkdir -p "$W/tree/secret_dir"
printf 'TOPSECRETDATA' >"$W/tree/secret_dir/inline_file"
head -c 20000 /dev/zero | tr '\0' 'Q' >"$W/tree/secret_dir/block_file"
ln -s TOPSECRETLINK "$W/tree/secret_dir/a_link"
setfattr -n user.note -v TOPSECRETXATTR "$W/tree/secret_dir/inline_file" 2>/dev/null
img=$W/s.img
truncate -s 64M "$img"
"$MKFS" -q -f -O extra_attr,inode_checksum,flexible_inline_xattr --rootdir "$W/tree" "$img" >/dev/null
run --metadump "$W/s.md" "$img"
check "--metadump exits 0" test "$rc" -eq 0
rm -f "$W/s.r"
"$DUMP" --restore "$W/s.md" -o "$W/s.r" >/dev/null
check "no name, inline data, link target, user xattr or file block in the restored image" \
	eval '! grep -aqE "secret_dir|inline_file|block_file|a_link|TOPSECRET|QQQQQQQQ" "$W/s.r"'
check "the restored image checks clean, hash problems apart" \
	eval '[[ -z $(verdict "$W/s.r" "dir\.bad_hash|dir\.wrong_bucket") ]]'
run --metadump "$W/k.md" --keep-names "$img"
rm -f "$W/k.r"
"$DUMP" --restore "$W/k.md" -o "$W/k.r" >/dev/null
check "--keep-names keeps the names, not the data" \
	eval 'grep -aq secret_dir "$W/k.r" && ! grep -aqE "TOPSECRET|QQQQQQQQ" "$W/k.r"'
check "a restore does not overwrite a file" \
	eval '! "$DUMP" --restore "$W/k.md" -o "$W/k.r" >/dev/null 2>&1'
printf 'F2FSMDMP\x02\0\0\0' >"$W/bad.md"
rm -f "$W/bad.r"
run --restore "$W/bad.md" -o "$W/bad.r"
check "a file of another version is refused, naming it" eval '[[ $rc -eq 1 && $err == *"not a metadata image"* ]]'

finish
