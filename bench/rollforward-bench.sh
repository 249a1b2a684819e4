#!/usr/bin/env bash
# rollforward-bench.sh: repair of an image whose roll-forward chain holds
# about N fsync'd nodes (a power cut after N fsyncs), ours (`fsck.f2fs -f
# -y`, which replays the chain as a mount would) against f2fs-tools'
# (`fsck.f2fs -f -y`), each on its own sparse copy. The image is made by the
# real kernel through tests/kernel/kvm-run: bench/guest-fsyncs.c (built
# static) creates files of one block and appends blocks to sixteen others,
# with an fsync after each, after a checkpoint; the job then cuts the power.
#
# Per tool: wall time, peak RSS, bytes written; then the kernel mounts each
# result, and a third copy left to the kernel's own recovery, and counts the
# fsync'd files there (new files present, appended blocks present). Report
# (markdown) on stdout, progress on stderr. Needs the kvm-run harness.
set -euo pipefail

SELF_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench/common.sh
. "$SELF_DIR/common.sh"

FSYNCS=10000
WORK=${TMPDIR:-/var/tmp}
BIN=""
THEIRS=/usr/sbin/fsck.f2fs
KVM_RUN=$SELF_DIR/../tests/kernel/kvm-run

usage() {
	cat <<USAGE
Usage: $0 [--fsyncs N] [--work DIR] [--bin DIR]
  --fsyncs N   fsyncs before the power cut (default 10000)
  --bin DIR    build directory holding mkfs/mkfs.f2fs and fsck/fsck.f2fs
USAGE
}
while [[ $# -gt 0 ]]; do
	case $1 in
	--fsyncs) FSYNCS=$2; shift 2 ;;
	--work) WORK=$2; shift 2 ;;
	--bin) BIN=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 16 ;;
	esac
done
log() { echo "$*" >&2; }

MKFS=$(our_tool "${BIN:+$BIN/mkfs/mkfs.f2fs}" mkfs/mkfs.f2fs --bin)
OURS=$(our_tool "${BIN:+$BIN/fsck/fsck.f2fs}" fsck/fsck.f2fs --bin)
BENCH_WORK=$(mktemp -d "$WORK/rollforward-bench.XXXXXX")
trap 'rm -rf "$BENCH_WORK"' EXIT
bench_init
T=$BENCH_WORK
"${CC:-cc}" -static -O2 -o "$T/guest-fsyncs" "$SELF_DIR/guest-fsyncs.c"

log "== kernel: $FSYNCS fsyncs, then the power cut"
truncate -s 2G "$T/img"
"$MKFS" -q -f "$T/img" >&2
cat >"$T/cut.sh" <<EOF
mount -t f2fs /dev/vda /mnt || exit 1
mkdir /mnt/new || exit 1
i=0; while [ \$i -lt 16 ]; do printf 'app %d\n' \$i >/mnt/app\$i; i=\$((i + 1)); done
sync -f /mnt || exit 1
echo 100000 >/sys/fs/f2fs/vda/cp_interval || exit 1
guest-fsyncs /mnt $FSYNCS || exit 1
echo 'S cut' >/dev/ttyS2
stty -F /dev/ttyS1 raw; stty -F /dev/ttyS2 raw
echo b >/proc/sysrq-trigger
sleep 60
EOF
rc=0
"$KVM_RUN" --timeout 3000 --crash-after-ms 2900000 --file "$T/guest-fsyncs" "$T/img" "$T/cut.sh" \
	>"$T/cut.out" 2>&1 || rc=$?
grep -q "^done $FSYNCS" "$T/cut.out" || { log "the workload did not finish (kvm-run exit $rc)"; tail "$T/cut.out" >&2; exit 1; }
chain=$("$OURS" -f -n --json "$T/img" | sed -n 's/.*"roll_forward":{"nodes":\([0-9]*\),"fsync":\([0-9]*\).*/\1 nodes, \2 fsync-marked/p')
log "   chain: $chain"

for who in kernel ours theirs; do cp --sparse=always "$T/img" "$T/$who.img"; done
sync
row() {   # LABEL RESULT
	printf '| %s | %.3f | %s | %s | %s |\n' "$1" "$T_WALL" "$(human $((T_RSS * 1024)))" \
		"$(human "$T_W")" "$2"
}
echo "chain: $chain ($FSYNCS fsyncs: $((FSYNCS - FSYNCS / 10)) new files, $((FSYNCS / 10)) appends)"
echo
echo "| run | wall s | peak RSS | written | result |"
echo "|---|---|---|---|---|"
timed "$T/ours.out" "$OURS" -f -y "$T/ours.img" </dev/null
row "ours: fsck.f2fs -f -y" "exit $T_RC; $(grep -E ': roll-forward recovery' "$T/ours.out" | sed 's/^[^ ]*: //')"
timed "$T/theirs.out" "$THEIRS" -f -y "$T/theirs.img" </dev/null
row "f2fs-tools: fsck.f2fs -f -y" "exit $T_RC"

# The kernel mounts the three copies: fsync'd files kept.
{
	for k in 0 1 2; do
		dev=/dev/vd$(printf "\\x$(printf %x $((97 + k)))")
		echo "mount -t f2fs $dev /mnt && n=\$(ls /mnt/new | wc -l) && b=\$(cat /mnt/app* | wc -c) && umount /mnt && echo \"kept $k \$n \$b\" || echo \"kept $k mount-failed\""
	done
	echo 'echo listed'
} >"$T/count.sh"
"$KVM_RUN" --timeout 600 --extra "$T/ours.img" --extra "$T/theirs.img" "$T/kernel.img" "$T/count.sh" \
	>"$T/count.out" 2>&1 || true
appended=$((FSYNCS / 10)) created=$((FSYNCS - FSYNCS / 10))
names=(kernel ours theirs)
for k in 0 1 2; do
	read -r n b < <(sed -n "s/^kept $k //p" "$T/count.out")
	if [[ ${n:-} =~ ^[0-9]+$ ]]; then
		blocks=$(( (b - 102) / 4096 ))   # the sixteen files start with 102 bytes
		res="new files $n of $created; appended blocks $blocks of $appended"
	else
		res="mount failed"
	fi
	echo "|  | ${names[k]}'s result, mounted | | | $res |"
done
for who in ours theirs; do
	rc=0; "$OURS" -f -n "$T/$who.img" >/dev/null 2>&1 || rc=$?
	fsck_check "$THEIRS" "$T/$who.img" "$T/peer.out" "$T"
	echo "|  | $who's result, checked | | | ours: exit $rc; f2fs-tools: $FSCK_RESULT |"
done
