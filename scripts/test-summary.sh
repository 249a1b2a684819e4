#!/bin/bash
# test-summary.sh BUILD_DIR: add up the individual checks of every test log:
# check's "Checks: N, Failures: F, Errors: E" lines and the scripts'
# "NAME: P passed, F failed" lines; a test that skipped counts as skipped.
# Prints "tests: P passed, F failed, S skipped"; exit 1 if anything failed.
set -u
build=$1
passed=0 failed=0 skipped=0
while IFS= read -r trs; do
	log=${trs%.trs}.log
	result=$(sed -n 's/^:test-result: //p' "$trs" | head -1)
	if [[ $result == SKIP ]]; then
		skipped=$((skipped + 1))
		continue
	fi
	got=0
	while IFS= read -r line; do
		if [[ $line =~ Checks:\ ([0-9]+),\ Failures:\ ([0-9]+),\ Errors:\ ([0-9]+) ]]; then
			f=$((BASH_REMATCH[2] + BASH_REMATCH[3]))
			passed=$((passed + BASH_REMATCH[1] - f))
			failed=$((failed + f))
			got=1
		elif [[ $line =~ ^[A-Za-z0-9_.-]+:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
			passed=$((passed + BASH_REMATCH[1]))
			failed=$((failed + BASH_REMATCH[2]))
			got=1
		fi
	done <"$log"
	# a test that printed no counts counts once, by its result
	if ((!got)); then
		if [[ $result == PASS ]]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
	elif [[ $result != PASS && $result != XFAIL ]]; then
		failed=$((failed + 1))
	fi
done < <(find "$build/tests" -name '*.trs' | sort)
echo "tests: $passed passed, $failed failed, $skipped skipped"
((failed == 0))
