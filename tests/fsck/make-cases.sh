#!/bin/bash
# Regenerate the damaged-image cases under tests/fsck/cases/ (maintainers only;
# the cases are committed). Each case is a copy of one base image, made by our
# mkfs from the tree in common.sh with a fixed time, UUID and checkpoint
# version, then edited by damage.py (sb-feature-dependency formats its own
# image the same way but without extra_attr).
#
#   make-cases.sh [--expect] [NAME...]
#
# writes cases/NAME/image.bz2 and cases/NAME/cmd; with --expect also
# cases/NAME/expect from the current fsck.f2fs (review it before committing!).
#
# Every named check has a case but node.unreadable, which needs a read error
# (bad media), not a damaged image: it is covered by the unit test
# tests/unit/test_check_unreadable.c, which injects read faults
# (f2fs_dev_fail_read) on an inode, a direct node, a directory and an xattr
# node and checks that the check reports them and goes on.
set -eu
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
CASES=$HERE/cases
WANT_EXPECT=0
if [[ ${1:-} == --expect ]]; then WANT_EXPECT=1; shift; fi

W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-cases.XXXXXX")
trap 'rm -rf "$W"' EXIT
make_tree "$W/tree"
BASE=$W/base.img
"$MKFS" -q -r -T 1700000000 -U 01234567-89ab-cdef-0123-456789abcdef \
	-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,lost_found,inode_crtime,quota \
	--rootdir "$W/tree" -S "$BASE" 131072

D() { python3 "$DAMAGE" "$IMG" "$@"; }
get() { python3 "$DAMAGE" "$BASE" get "$@"; }

MAIN=$(get main x)
seg_of() { echo $((($1 - MAIN) / 512)); }
off_of() { echo $((($1 - MAIN) % 512)); }
# the hash of NAME in a casefolded directory, by our library (cf-tool)
cf_hash() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n' | { cat; echo; } | "$top_builddir/tests/kernel/cf-tool" keys | awk '{ print "0x" $2 }'; }
# index of the first nonzero pointer of the direct node at block $1, and
# the pointer at index $2 there
first_ptr() { od -An -tu4 -w4 -v -j $(($1 * 4096)) -N4072 "$BASE" | awk '$1 != 0 { print NR - 1; exit }'; }
ptr_at() { od -An -tu4 -j $(($1 * 4096 + 4 * $2)) -N4 "$BASE" | tr -d ' '; }
# 4096 bytes of garbage, the same every time, as hex
garbage_hex() { python3 -c 'import random; r = random.Random(5); print(bytes(r.randrange(256) for _ in range(4096)).hex())'; }
le32() { python3 -c 'import struct, sys; print(struct.pack("<I", int(sys.argv[1], 0)).hex())' "$1"; }

# A roll-forward chain: the first direct node of /a/b/sparse copied to the
# block where the warm node log goes on (our mkfs writes this checkpoint's
# version in every node), flagged offset 1, COLD and FSYNC, its footer's
# next_blkaddr set to $1.
WARM_NEXT=$((MAIN + $(get cp cur_node_segno[1]) * 512 + $(get cp cur_node_blkoff[1])))
chain_node() {
	D copy "$(get nat "$(get inode /a/b/sparse nid[0])" blkaddr)" "$WARM_NEXT" -- \
		raw "$WARM_NEXT" 4080 "$(le32 $(((1 << 3) | 1 | 2)))" -- raw "$WARM_NEXT" 4092 "$(le32 "$1")"
}

# NAME|fsck options|shell code run with $IMG set
CASE_LIST=(
"clean-quick|--quick|:"
"clean-full|-n|:"
"clean-json|-n --json|:"
"inode-links-high|-y|D inode /small.txt links 7"
"sb-primary-invalid|-n|D sb0 magic 0"
"sb-backup-invalid|-n|D sb1 magic 0"
"sb-both-invalid|-n|D sb segment_count_ckpt 3"
"sb-quota-ino|-n|D sb qf_ino2 9"
"sb-quota-ino-left|-n|D sb feature \$((\$(get sb feature) & ~0x80))"
"sb-copies-differ|-n|D sb1 minor_ver 99"
"sb-errors-recorded|-n|D sb 's_stop_reason[3]' 1 -- sb 's_errors[0]' 4"
# with damage fixed and the checkpoint flagged: all cleared with the repair
"sb-errors-and-damage|-n|D sb 's_stop_reason[5]' 2 -- inode-csum /small.txt 0x12345678 -- cp ckpt_flags \$((\$(get cp ckpt_flags) | 0x10))"
"sb-unknown-feature|-n|D sb feature \$((\$(get sb feature) | 0x100000))"
"sb-checksum-offset|-n|D sb feature \$((\$(get sb feature) & ~0x800))"
"sb-feature-dependency|-n|\"\$MKFS\" -q -f -r -T 1700000000 -U 01234567-89ab-cdef-0123-456789abcdef -O quota,lost_found --rootdir \"\$W/tree\" -S \"\$IMG\" 131072 && D sb feature \$((\$(python3 \"\$DAMAGE\" \"\$IMG\" get sb feature) | 0x100))"
"not-f2fs|-n|dd if=/dev/zero of=\$IMG bs=4096 count=4 conv=notrunc status=none"
"truncated|-n|truncate -s 8M \$IMG"
"cp-backup-pack-invalid|-n|D raw \$((\$(get sb cp_blkaddr) + 512)) 8 ff"
"cp-newest-pack-invalid|-n|D raw \$(get sb cp_blkaddr) 8 ff"
"cp-newest-pack-unordered|-n|D raw \$(get sb cp_blkaddr) 0 0102030405060708"
# f2fs-tools' resize.f2fs (1.15) grows an image and zeroes the first block
# of the pack it leaves unused, whose older footer stays: the kernel skips
# that pack, nothing committed is lost (a warning, exit 0)
"cp-backup-pack-resized|-n|rm -f \$IMG && truncate -s 64M \$IMG && /usr/sbin/mkfs.f2fs -q -f \$IMG >/dev/null && truncate -s 128M \$IMG && /usr/sbin/resize.f2fs \$IMG >/dev/null"
# the pack not in use zeroed whole: of no version, no footer in its slot;
# nothing shows a checkpoint lost (a warning)
"cp-backup-pack-blank|-n|dd if=/dev/zero of=\$IMG bs=4096 seek=\$((\$(get sb cp_blkaddr) + 512)) count=512 conv=notrunc status=none"
"cp-newest-pack-unfinished|-n|C=\$(get sb cp_blkaddr); T=\$(get cp cp_pack_total_block_count); D copy \$((C + 512 + T - 1)) \$((C + T - 1))"
"cp-valid-block-count|--quick|D cp valid_block_count \$((\$(get cp valid_block_count) - 3))"
"cp-valid-block-count-full|-n|D cp valid_block_count \$((\$(get cp valid_block_count) + 3))"
"cp-bitmap-size|-n|D cp nat_ver_bitmap_bytesize 0xffffff00"
"cp-orphan-block|-n|D orphan-flag 1"
"cp-orphan-footer|-n|O=\$(get ino /empty); D dentry / empty unlink 0 -- inode \\#\$O links 0 -- orphan \\#\$O -- orphan-footer 2 3"
"cp-valid-node-count|--quick|D cp valid_node_count 1"
"cp-valid-inode-count|--quick|D cp valid_inode_count 1000"
"cp-free-segment-count|--quick|D cp free_segment_count 5"
"cp-next-free-nid|--quick|D cp next_free_nid 2"
"cp-curseg-range|--quick|D cp cur_data_segno[1] 100000"
"cp-curseg-duplicate|--quick|D cp cur_data_segno[1] \$(get cp cur_data_segno[0])"
"cp-curseg-type|--quick|D sit \$(get cp cur_data_segno[1]) type 2"
"cp-curseg-blkoff|--quick|D cp cur_node_blkoff[0] 2"
# an SSR log (f2fs-tools' sload leaves every log so) whose next block is in
# use: it goes on at the next free block of its segment
"cp-curseg-blkoff-ssr|--quick|D cp alloc_type[3] 1 -- cp cur_node_blkoff[0] 2"
"cp-overprovision|--quick|D cp overprov_segment_count 0"
"cp-user-block-count|--quick|D cp user_block_count \$(((\$(get sb segment_count_main) - \$(get cp overprov_segment_count)) * 512 + 1))"
"cp-space-counts|--quick|D cp overprov_segment_count 0 -- cp rsvd_segment_count 0 -- cp user_block_count 0"
"cp-summary|-n|D cp cur_data_blkoff[0] 512 -- cp cur_data_blkoff[1] 512 -- cp cur_data_blkoff[2] 512"
"cp-needs-fsck|--quick|D cp ckpt_flags \$((\$(get cp ckpt_flags) | 0x10))"
"nat-addr-out-of-range|-n|D nat \$(get ino /a/twenty_k) blkaddr 100"
"nat-addr-out-of-range-node|-n|D nat \$(get inode /a/b/sparse nid[0]) blkaddr 100"
"nat-duplicate-block|-n|D nat \$(get ino /a/twenty_k) blkaddr \$(get inode /small.txt blkaddr)"
"nat-ino-mismatch|-n|D nat \$(get ino /a/twenty_k) ino \$(get ino /small.txt)"
"nat-ino-mismatch-node|-n|D nat \$(get inode /a/b/sparse nid[0]) ino \$(get ino /small.txt)"
"nat-ino-claims-inode|-n|N=\$(get inode /a/b/sparse nid[0]); D nat \$N ino \$N"
"nat-reserved|--quick|D natblock 1 blkaddr 7"
"nat-ino-zero|-n|D nat \$(get inode /a/b/sparse nid[0]) ino 0"
# the first dentry block of /big overwritten: its files come back by the
# names and parents their inodes keep (i_name, i_pino)
# a node footer's ino changed: the NAT, the offset and the parent pointer
# agree, so the footer is the broken side (it converges in one run)
"node-footer-ino|-n|D footer /small.txt ino \$((\$(get ino /small.txt) + 1))"
"node-footer-ino-direct|-n|D footer \"#\$(get inode /a/b/sparse nid[0])\" ino \$(get ino /small.txt)"
"dir-block-garbage|-n|D raw \$(get inode /big addr[0]) 0 \$(garbage_hex)"
# the same damage, with the node's block no longer valid in the SIT: no
# node block answers for the entry (nat_answers.c), which goes
"nat-ino-zero-unanswered|-n|b=\$(get nat \$(get inode /a/b/sparse nid[0]) blkaddr); D nat \$(get inode /a/b/sparse nid[0]) ino 0 -- sit \$(seg_of \$b) clrbit \$(off_of \$b)"
"nat-addr-out-of-range-unanswered|-n|b=\$(get nat \$(get ino /a/twenty_k) blkaddr); D nat \$(get ino /a/twenty_k) blkaddr 100 -- sit \$(seg_of \$b) clrbit \$(off_of \$b)"
"nat-block-zeroed|-n|dd if=/dev/zero of=\$IMG bs=4096 seek=\$(get natblockaddr 3) count=1 conv=notrunc status=none"
"nat-duplicate-block-unanswered|-n|b=\$(get nat \$(get ino /a/twenty_k) blkaddr); D nat \$(get ino /a/twenty_k) blkaddr \$(get inode /small.txt blkaddr) -- sit \$(seg_of \$b) clrbit \$(off_of \$b)"
"nat-not-valid-in-sit|--quick|B=\$(get inode /small.txt blkaddr); S=\$(seg_of \$B); D sit \$S clrbit \$(off_of \$B) -- sit \$S vblocks \$((\$(get sit \$S vblocks) - 1))"
# segment 20 is free in the base image: a node (data) block moved there,
# with its SIT entry typed data (node) and the SSA and counts kept consistent
"nat-segment-type|-n|N=\$(get ino /empty); B=\$(get nat \$N blkaddr); S=\$(seg_of \$B); T=\$((MAIN + 20 * 512)); D copy \$B \$T -- nat \$N blkaddr \$T -- sit \$S clrbit \$(off_of \$B) -- sit \$S vblocks \$((\$(get sit \$S vblocks) - 1)) -- sit 20 setbit 0 -- sit 20 vblocks 1 -- sit 20 type 1 -- ssa 20 0 nid \$N -- cp free_segment_count \$((\$(get cp free_segment_count) - 1))"
"nat-journal|-n|N=\$((\$(get cp nat_ver_bitmap_bytesize) * 8 * 455)); D journal nat add \$N \$N 0"
"nat-bits-empty|--quick|D natbits empty 0 1"
"nat-bits-full|--quick|D natbits full 3 1"
"nat-bits-header|--quick|D natbits header 0x1234"
"sit-vblocks-map|--quick|D sit \$(seg_of \$(get inode /a/b/dense addr[0])) vblocks 5"
"sit-bad-type|--quick|D sit \$(seg_of \$(get inode /a/b/dense addr[0])) type 7"
"sit-journal|-n|D journal sit 5 segno 100"
"sit-block-under-journal|--quick|D sitblock 3 vblocks 7"
# f2fs-tools' fsck checks the type of such an entry too
"sit-block-under-journal-type|--quick|D sitblock 3 type 7"
"sit-used-not-valid|-n|B=\$(get inode /a/b/dense addr[5]); S=\$(seg_of \$B); D sit \$S clrbit \$(off_of \$B) -- sit \$S vblocks \$((\$(get sit \$S vblocks) - 1))"
"sit-valid-unused|-n|D sit 20 setbit 0 -- sit 20 vblocks 1 -- sit 20 type 1 -- cp valid_block_count \$((\$(get cp valid_block_count) + 1)) -- cp free_segment_count \$((\$(get cp free_segment_count) - 1))"
"ssa-mismatch|-n|B=\$(get inode /a/b/dense addr[0]); D ssa \$(seg_of \$B) \$(off_of \$B) nid 4242"
"ssa-bad-type|-n|B=\$(get inode /a/b/dense addr[0]); D ssa \$(seg_of \$B) - type 1"
"node-footer-nid|-n|D footer /a/twenty_k nid 4242"
"node-bad-offset|-n|D footer \\#\$(get inode /a/b/sparse nid[0]) ofs 7"
"node-footer-nid-node|-n|D footer \\#\$(get inode /a/b/sparse nid[0]) nid 4242"
"node-bad-offset-footer|-n|D footer \\#\$(get inode /a/b/sparse nid[0]) ofs 0"
"node-child-missing|-n|D inode /a/b/sparse nid[0] 4000"
"node-unreachable|-n|D inode /a/b/sparse nid[0] 0"
"node-multiple-parents|-n|D inode /a/b/sparse nid[1] \$(get inode /a/b/sparse nid[0])"
"node-wrong-owner|-n|D inode /a/twenty_k nid[0] \$(get inode /a/b/sparse nid[0])"
"inode-bad-mode|-n|D inode /a/twenty_k mode 0170644"
"inode-bad-checksum|-n|D inode-csum /small.txt 0x12345678"
"inode-extra-isize|-n|D inode /small.txt extra_isize 38"
"inode-extra-isize-blocks|-n|D inode /a/twenty_k extra_isize 2"
"inode-inline-xattr-size|-n|D inode /small.txt inline \$((\$(get inode /small.txt inline) | 1)) -- inode /small.txt inline_xattr_size 1000"
"inode-extent|-n|D inode /a/twenty_k ext_fofs 0 -- inode /a/twenty_k ext_blk \$(get inode /a/twenty_k addr[0]) -- inode /a/twenty_k ext_len 6"
"inode-extent-inline|-y|D inode /small.txt ext_fofs 0 -- inode /small.txt ext_blk \$MAIN -- inode /small.txt ext_len 1"
"inode-extent-range|-n|D inode /a/twenty_k ext_fofs 0 -- inode /a/twenty_k ext_blk 0xfffffff0 -- inode /a/twenty_k ext_len 4"
"inode-extent-node|-y|N=\$(get nat \$(get inode /a/b/sparse nid[0]) blkaddr); K=\$(first_ptr \$N); X=\$((923 - \$(get inode /a/b/sparse extra_isize) / 4 - \$(get inode /a/b/sparse inline_xattr_size))); D inode /a/b/sparse ext_fofs \$((X + K)) -- inode /a/b/sparse ext_blk \$((\$(ptr_at \$N \$K) + 1)) -- inode /a/b/sparse ext_len 1"
"inode-inline-reserved|-n|D inode /small.txt addr[0] 38"
"inode-inline-reserved-dir|-y|D inode /a/b/c addr[0] 0x12345"
"inode-inline-flags|-n|D inode /a/twenty_k inline \$((\$(get inode /a/twenty_k inline) | 4))"
"inode-inline-dentry-lost|-n|D inode /a inline \$((\$(get inode /a inline) & ~4))"
"inode-inline-size|-n|D inode /small.txt size 5000"
"inode-inline-flags-both|-n|D inode /a inline \$((\$(get inode /a inline) | 2))"
"inode-inline-flags-nids|-n|D inode /small.txt nid[0] 4000"
"inode-bad-mode-dir|-n|D inode /a mode 0170755"
"inode-bad-mode-lost-found|-n|D inode /lost+found mode 0170700"
"inode-mode-file-as-dir|-n|D inode /a/twenty_k mode 040644"
"inode-xattr-nid-missing|-n|D inode /small.txt xattr_nid 4000"
"inode-size|-n|D inode /big size 20481"
"inode-i-blocks|-n|D inode /a/twenty_k blocks 99"
"inode-links|-n|D inode /small.txt links 1"
"inode-unreachable|-n|D dentry /big a_rather_long_entry_name_7 unlink 0"
"inode-xattr-nid|-n|D inode /small.txt xattr_nid \$(get ino /a/twenty_k)"
"inode-not-inode|-n|D dentry / empty ino \$(get inode /a/b/sparse nid[0])"
"inode-current-depth|-n|D inode /big depth 70"
"data-addr-out-of-range|-n|D inode /a/twenty_k addr[1] 77"
"data-segment-type|-n|B=\$(get inode /a/twenty_k addr[1]); S=\$(seg_of \$B); T=\$((MAIN + 20 * 512)); D copy \$B \$T -- inode /a/twenty_k addr[1] \$T -- sit \$S clrbit \$(off_of \$B) -- sit \$S vblocks \$((\$(get sit \$S vblocks) - 1)) -- sit 20 setbit 0 -- sit 20 vblocks 1 -- sit 20 type 4 -- ssa 20 - type 1 -- ssa 20 0 nid \$(get ino /a/twenty_k) -- ssa 20 0 ofs 1 -- cp free_segment_count \$((\$(get cp free_segment_count) - 1))"
"block-multiply-owned|-n|D inode /a/twenty_k addr[1] \$(get inode /a/b/dense addr[3])"
# a direct node's pointer to a directory's block (the directory's inode,
# swept first, owns it); a stray node's block claimed by a file after it
"block-multiply-owned-node|-n|B=\$(get nat \$(get inode /a/b/sparse nid[0]) blkaddr); D raw \$B \$((4 * \$(first_ptr \$B))) \$(le32 \$(get inode /big addr[0]))"
"block-multiply-owned-stray|-n|B=\$(get nat \$(get inode /a/b/sparse nid[0]) blkaddr); D inode /a/b/sparse nid[0] 0 -- inode /a/twenty_k addr[1] \$(ptr_at \$B \$(first_ptr \$B))"
"dir-bad-hash|-n|D dentry /big a_rather_long_entry_name_9 hash 0x1234567"
"dir-wrong-bucket|-n|D dentry /big a_rather_long_entry_name_9 rebucket 2"
"dir-dangling|-n|D dentry / small.txt ino 3000"
"dir-file-type|-n|D dentry / small.txt file_type 2"
"dir-dot|-n|D dentry /a . ino \$(get ino /big)"
"dir-dotdot|-n|D dentry /a .. ino \$(get ino /big)"
"dir-bad-name-len|-n|D dentry /big a_rather_long_entry_name_12 name_len 300"
"inode-unreachable-new-lost-found|-n|\"\$MKFS\" -q -f -r -T 1700000000 -U 01234567-89ab-cdef-0123-456789abcdef -O extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime,quota --rootdir \"\$W/tree\" -S \"\$IMG\" 131072 && D dentry /a/b/c hard unlink 0 -- dentry / small.txt unlink 0 -- dentry / a unlink 0"
"dir-bad-name|-n|D dentry / small.txt rename small/txt"
"dir-bad-name-casefold-strict|-n|D sb feature \$((\$(get sb feature) | 0x1000)) -- sb s_encoding 1 -- sb s_encoding_flags 1 -- inode /big flags \$((\$(get inode /big flags) | 0x40000000)) -- dentry /big a_rather_long_entry_name_12 renamehash \"a_rather_long_entry_name\$(printf '\\377')_x\" 0x1234567"
"dir-bitmap|-n|D dentry /big a_rather_long_entry_name_20 clrbit 2"
"dir-multiple-parents|-n|D dentry / small.txt ino \$(get ino /a/b) -- dentry / small.txt file_type 2"
"dir-loop|-n|D dentry /a/b/c hard ino \$(get ino /a) -- dentry /a/b/c hard file_type 2 -- dentry / a ino \$(get ino /small.txt) -- dentry / a file_type 1"
"dir-bad-pino|-n|D inode /a/b pino 3"
"dir-block-beyond-size|-n|D inode /big size 8192"
"root-bad|-n|D inode / mode 0100644"
"root-missing|-n|D nat 3 blkaddr 0"
"root-block-zeroed|-n|dd if=/dev/zero of=\$IMG bs=4096 seek=\$(get nat 3 blkaddr) count=1 conv=notrunc status=none"
"quota-usage-mismatch|-n|D quota 0 0 inodes 7 -- quota 1 0 space 4096"
"quota-uid-changed|-n|D inode /small.txt uid 1000"
"quota-bad-file|-n|D quota 1 magic 0x12345678"
"quota-bad-tree|-n|D quota 0 rootref 5000"
"quota-log-full|-n|D quota 0 0 inodes 7 -- quota 1 0 space 4096 -- cp cur_data_blkoff[1] 510"
# the quota charge moves with what the repair does to an inode: i_blocks
# 0 set to the count (the check charged nothing for 0), an orphan freed
# whose i_blocks is in 2^31..2^32 (the count in 32 bits), a project id
# that the i_extra_isize fix brings into view
"quota-xattr-nid-blocks-zero|-n|D inode /small.txt xattr_nid \$(get ino /a/twenty_k) -- inode /small.txt blocks 0"
"quota-orphan-blocks-wrap|-n|A=\$(get ino /a/twenty_k); D dentry /a twenty_k unlink 0 -- inode \\#\$A links 0 -- inode \\#\$A blocks 0xFFFFFFF0 -- orphan \\#\$A"
"quota-projid-extra-isize|-n|\"\$MKFS\" -q -f -r -T 1700000000 -U 01234567-89ab-cdef-0123-456789abcdef -O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,lost_found,inode_crtime,quota,project_quota --rootdir \"\$W/tree\" -S \"\$IMG\" 131072 && B=\$(python3 \"\$DAMAGE\" \"\$IMG\" get nat \$(python3 \"\$DAMAGE\" \"\$IMG\" get ino /small.txt) blkaddr) && D raw \$B 364 07000000 -- inode /small.txt extra_isize 2"
"xattr-bad-header|-n|D xattr /small.txt raw 0 78563412"
"xattr-bad-name|-n|D xattr /small.txt raw 24 08"
"xattr-entry-bounds|-n|D xattr /small.txt raw 26 00ff"
"xattr-duplicate-name|-n|D xattr /small.txt raw \$(get xattr /small.txt end) 01060400636f6c6f7572626c7565"
"xattr-fills-area|-n|D xattr /small.txt raw \$(get xattr /small.txt end) 01019b0078"
"xattr-node-bad-name|-n|D xattr /a/twenty_k raw \$(get xattr /a/twenty_k end) 0004000061626364"
"xattr-node-entry-bounds|-n|D xattr /a/twenty_k raw 26 ffff"
"dir-duplicate-name|-n|D dentry /big a_rather_long_entry_name_12 rename a_rather_long_entry_name_13"
"dir-duplicate-name-encrypted|-n|D sb feature \$((\$(get sb feature) | 0x1)) -- inode /big advise \$((\$(get inode /big advise) | 0x4)) -- dentry /big a_rather_long_entry_name_12 rename a_rather_long_entry_name_13"
"dir-duplicate-name-casefold|-n|D sb feature \$((\$(get sb feature) | 0x1000)) -- sb s_encoding 1 -- inode /big flags \$((\$(get inode /big flags) | 0x40000000)) -- dentry /big a_rather_long_entry_name_12 renamefold A_RATHER_long_entry_name_13"
"dir-duplicate-name-casefold-utf8|-n|D sb feature \$((\$(get sb feature) | 0x1000)) -- sb s_encoding 1 -- inode /big flags \$((\$(get inode /big flags) | 0x40000000)) -- dentry /big a_rather_long_entry_name_12 renamehash \"a_rather_long_entry_name_\$(printf '\\303\\211')\" \$(cf_hash \"a_rather_long_entry_name_\$(printf '\\303\\211')\") -- dentry /big a_rather_long_entry_name_13 renamehash \"a_rather_long_entry_name_\$(printf '\\303\\251')\" \$(cf_hash \"a_rather_long_entry_name_\$(printf '\\303\\251')\")"
"dir-bad-hash-casefold-utf8|-n|D sb feature \$((\$(get sb feature) | 0x1000)) -- sb s_encoding 1 -- inode /big flags \$((\$(get inode /big flags) | 0x40000000)) -- dentry /big a_rather_long_entry_name_12 renamehash \"A_Rather_Long_Entry_Name_\$(printf '\\303\\204')\" 0x1234567"
"dir-wrong-bucket-casefold-utf8|-n|N=\"A_Rather_Long_Entry_Name\$(printf '\\303\\204')\"; D sb feature \$((\$(get sb feature) | 0x1000)) -- sb s_encoding 1 -- inode /big flags \$((\$(get inode /big flags) | 0x40000000)) -- dentry /big a_rather_long_entry_name_9 renamehash \"\$N\" \$(cf_hash \"\$N\")"
"orphan-ok|-n|O=\$(get ino /empty); D dentry / empty unlink 0 -- inode \\#\$O links 0 -- orphan \\#\$O"
"orphan-not-inode|-n|D orphan \\#\$(get inode /a/b/sparse nid[0]) \\#3000"
"orphan-linked|-n|D orphan /small.txt"
"orphan-has-entry|-n|D inode /empty links 0 -- orphan /empty"
"roll-forward-ok|-n|chain_node 0"
"roll-forward-repair-refused|-y --keep-roll-forward|D cp free_segment_count 5; chain_node 0"
"roll-forward-repair-discarded|-y --discard-roll-forward|D cp free_segment_count 5; chain_node 0"
"roll-forward-loop|-n|chain_node \$WARM_NEXT"
"roll-forward-in-use|-n|chain_node \$(get inode / blkaddr)"
"orphan-duplicate|-n|O=\$(get ino /empty); D dentry / empty unlink 0 -- inode \\#\$O links 0 -- orphan \\#\$O \\#\$O"
"orphan-dir-freed|-n|O=\$(get ino /empty_dir); D dentry / empty_dir unlink 0 -- inode \\#\$O links 0 -- inode / links \$((\$(get inode / links) - 1)) -- orphan \\#\$O \\#\$O"
"orphan-freed|-n|A=\$(get ino /a/twenty_k); S=\$(get ino /a/b/sparse); D dentry /a twenty_k unlink 0 -- inode \\#\$A links 0 -- dentry /a/b sparse unlink 0 -- inode \\#\$S links 0 -- orphan \\#\$A \\#\$S \\#\$S"
)

mkdir -p "$CASES"
for row in "${CASE_LIST[@]}"; do
	IFS='|' read -r name opts code <<<"$row"
	if [[ $# -gt 0 ]]; then
		want=0
		for n in "$@"; do [[ $n == "$name" ]] && want=1; done
		[[ $want == 1 ]] || continue
	fi
	IMG=$W/image
	cp --sparse=always "$BASE" "$IMG"
	eval "$code"
	save_case "$name" "$opts" "$IMG" "$CASES" "$WANT_EXPECT"
done
