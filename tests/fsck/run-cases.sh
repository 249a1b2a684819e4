#!/bin/bash
# Damaged-image cases in the e2fsprogs style: cases/NAME/ holds image.bz2 (or
# image.gz), cmd (fsck options) and expect (fsck.f2fs output, stdout and
# stderr, then "exit status N"). Each image is unpacked to a temporary file
# named "image" and the output must match byte for byte.
#   run-cases.sh [NAME...]
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
if [[ ! -x $FSCK ]]; then
	echo "run-cases: $FSCK not built"
	exit 1
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-run.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT

names=("$@")
if [[ ${#names[@]} -eq 0 ]]; then
	for d in "$HERE"/cases/*/; do names+=("$(basename "$d")"); done
fi
for name in "${names[@]}"; do
	c=$HERE/cases/$name
	rm -f "$W/image"
	if [[ -f $c/image.bz2 ]]; then
		bzip2 -dc "$c/image.bz2" >"$W/image"
	elif [[ -f $c/image.gz ]]; then
		gzip -dc "$c/image.gz" >"$W/image"
	else
		bad "$name: no image"
		continue
	fi
	read -r opts <"$c/cmd" || opts=
	rc=0
	# shellcheck disable=SC2086
	(cd "$W" && exec "$FSCK" $opts image) >"$W/out" 2>&1 || rc=$?
	echo "exit status $rc" >>"$W/out"
	if cmp -s "$c/expect" "$W/out"; then
		ok "$name"
	else
		bad "$name"
		diff -u "$c/expect" "$W/out" | head -20
	fi
done
summary run-cases
