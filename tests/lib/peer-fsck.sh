# peer_fsck_clean IMAGE COPY|-: run f2fs-tools' fsck.f2fs -f --dry-run on a
# sparse copy (fsck.f2fs 1.15 may write even then; "-" checks IMAGE itself,
# for multi-device volumes whose superblock names the path) and succeed when it
# reports nothing wrong. Lines that fsck.f2fs prints for its own fresh
# images are not counted. Prints the offending lines on failure.
# Needs PEER_FSCK (default /usr/sbin/fsck.f2fs).
peer_fsck_benign='\[Ok\.\.\]|Info: (Corrupted valid nat_bits in checkpoint|Write valid nat_bits in checkpoint|Force to fix corruption|Duplicate valid checkpoint to mirror position)|\[FSCK\] fixing SIT types'
peer_fsck_bad='\[Fail\]|\[FAIL\]|ASSERT|[Ff]ix|[Cc]orrupt|Wrong|[Ee]rror|[Ii]nvalid'

peer_fsck_clean() {
	local img=$1 copy=$2 out rc
	if [[ $copy != - ]]; then
		cp --sparse=always "$img" "$copy" || return 1
		img=$copy
	fi
	out=$("${PEER_FSCK:-/usr/sbin/fsck.f2fs}" -f --dry-run "$img" 2>&1)
	rc=$?
	[[ $copy != - ]] && rm -f "$copy"
	out=$(grep -Ev "$peer_fsck_benign" <<<"$out" | grep -E "$peer_fsck_bad")
	if ((rc != 0)) || [[ -n $out ]]; then
		echo "fsck.f2fs status $rc: $(head -5 <<<"$out" | tr '\n' ' ')"
		return 1
	fi
	return 0
}
