#!/bin/bash
# Damaged-image cases in the e2fsprogs style: cases/NAME/ holds image.bz2 (or
# image.gz), cmd (fsck options) and expect (fsck.f2fs output, stdout and
# stderr, then "exit status N"). Each image is unpacked to a temporary file
# named "image" and the output must match byte for byte. Then the same image
# is repaired (fsck -y: expect.1) and checked again (fsck -f -n: expect.2,
# the e2fsprogs pair); the check run must not have changed the image, and
# no problem the repair called fixed may be found again by the second run.
#   run-cases.sh [NAME...]
# Without a NAME, every case. make check runs each case as a test of its
# own, tests/fsck/case/NAME.case (fsck/local.mk): a NAME may be given so,
# as a path ending in .case.
# F2FS_CASES_REGEN=1 writes expect.1 and expect.2 from the current fsck
# (review them before committing).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
if [[ ! -x $FSCK ]]; then
	echo "run-cases: $FSCK not built"
	exit 1
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-run.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT

names=()
for a in "$@"; do
	[[ $a == *.case ]] && a=$(basename "$a" .case)
	names+=("$a")
done
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
	if [[ ${F2FS_CASES_REGEN:-0} == 1 ]]; then
		cp "$W/out" "$c/expect"
	elif cmp -s "$c/expect" "$W/out"; then
		ok "$name"
	else
		bad "$name"
		diff -u "$c/expect" "$W/out" | head -20
	fi
	run_pass() {   # run_pass N OPTS...: output of a run against expect.N
		local n=$1 r=0
		shift
		(cd "$W" && exec "$FSCK" "$@" image) >"$W/out.$n" 2>&1 || r=$?
		echo "exit status $r" >>"$W/out.$n"
		if [[ ${F2FS_CASES_REGEN:-0} == 1 ]]; then
			cp "$W/out.$n" "$c/expect.$n"
		elif cmp -s "$c/expect.$n" "$W/out.$n"; then
			ok "$name (pass $n)"
		else
			bad "$name (pass $n)"
			diff -u "$c/expect.$n" "$W/out.$n" | head -20
		fi
	}
	[[ -f $c/expect.1 || ${F2FS_CASES_REGEN:-0} == 1 ]] || continue
	sum=$(md5sum <"$W/image")
	run_pass 1 -y
	run_pass 2 -f -n
	# a problem called fixed is gone on the next run
	again=$(sed -n 's/: fixed ([a-z]*)$//p' "$W/out.1" | grep -xF -f - "$W/out.2")
	[[ -z $again ]] && ok "$name (fixed stays fixed)" ||
		{ bad "$name (fixed stays fixed)"; echo "$again" | head -5; }
	if [[ $opts != *-y* && $opts != *-p* && $opts != *-a* ]]; then
		# the check run itself (before) must not have written: compare
		# with a fresh copy
		if [[ -f $c/image.bz2 ]]; then fresh=$(bzip2 -dc "$c/image.bz2" | md5sum)
		else fresh=$(gzip -dc "$c/image.gz" | md5sum); fi
		[[ $fresh == "$sum" ]] && ok "$name (check run wrote nothing)" || bad "$name (check run wrote)"
	fi
done
summary run-cases
