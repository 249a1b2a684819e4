#!/usr/bin/env bash
# scan-bench.sh IMAGE [RUNS]: the footer scan of the NAT rebuild (and of the
# rescue to come), f2fs_node_find_by_footer over every node segment of
# IMAGE, against reading the same byte ranges with pread (2 MiB at a time)
# and against dd of as many bytes from the start of the main area; each
# run with a cold page cache (sync; drop_caches: needs root). Builds
# bench/node-scan.c against BUILD (default build/) first.
set -euo pipefail
SELF_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
IMG=${1:?usage: $0 IMAGE [RUNS]}
RUNS=${2:-2}
BUILD=${BUILD:-$SELF_DIR/../build}
BIN=${TMPDIR:-/tmp}/node-scan.$$
trap 'rm -f "$BIN"' EXIT
"${CC:-cc}" -std=c11 -O2 -I"$SELF_DIR/../include" -I"$BUILD" -o "$BIN" "$SELF_DIR/node-scan.c" \
	"$BUILD/lib/libf2fs.a" -lz -lblkid -luuid
cold() { sync; echo 3 > /proc/sys/vm/drop_caches; }
read -r first _ < <("$BIN" "$IMG" span)
for ((r = 1; r <= RUNS; r++)); do
	cold; out=$("$BIN" "$IMG" scan); echo "$out"
	bytes=$(sed -n 's/.* s, \([0-9]*\) bytes.*/\1/p' <<<"$out")
	cold; "$BIN" "$IMG" plain
	cold; dd if="$IMG" of=/dev/null bs=2M iflag=skip_bytes,count_bytes skip=$((first * 4096)) \
		count="$bytes" 2>&1 | sed -n 's/^\([0-9]* bytes\).* copied, \(.*\)/dd: \2, \1/p'
done
