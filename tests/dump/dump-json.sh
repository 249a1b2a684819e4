#!/bin/bash
# dump.f2fs --json of the superblock and checkpoint: every on-disk field is
# there, values agree with what mkfs was asked for (extensions, encoding,
# label), with a device list written in by hand and with the text view, and
# every document parses.
NAME=dump-json
. "$(dirname "$0")/common.sh"
need_tools

img=$W/j.img img2=$W/j2.img
truncate -s 200M "$img"
truncate -s 56M "$img2"
# a volume over two devices, for the device list
"$MKFS" -q -f -O extra_attr,inode_checksum,sb_checksum -C utf8 -l JLABEL \
	-e zzcold -E zzhot -c "$img2" "$img" >"$W/mkfs.log" 2>&1 ||
	bad "mkfs: $(tail -1 "$W/mkfs.log")"
want_crc=$(python3 -c 'import struct,sys; f=open(sys.argv[1],"rb"); f.seek(1024+0x20); o=struct.unpack("<I",f.read(4))[0]; f.seek(1024+o); print(struct.unpack("<I",f.read(4))[0])' "$img")

# Keys of object OBJ missing from the last run's JSON, of those given
# ("unreadable" when there is no such JSON object).
missing() { # missing OBJ KEY...
	python3 - "$W/out" "$@" 2>/dev/null <<'EOF' || echo unreadable
import json, sys
o = json.load(open(sys.argv[1]))[sys.argv[2]]
print(" ".join(k for k in sys.argv[3:] if k not in o))
EOF
}

sb_keys="magic major_ver minor_ver log_sectorsize log_sectors_per_block log_blocksize
log_blocks_per_seg segs_per_sec secs_per_zone checksum_offset block_count section_count
segment_count segment_count_ckpt segment_count_sit segment_count_nat segment_count_ssa
segment_count_main segment0_blkaddr cp_blkaddr sit_blkaddr nat_blkaddr ssa_blkaddr
main_blkaddr root_ino node_ino meta_ino uuid label extension_count extension_list
hot_extension_list hot_ext_count cp_payload version init_version feature features
encryption_level encrypt_pw_salt devs qf_ino_usr qf_ino_grp qf_ino_prj s_encoding
encoding s_encoding_flags s_stop_reason s_errors crc crc_computed copy"
cp_keys="checkpoint_ver user_block_count valid_block_count rsvd_segment_count
overprov_segment_count free_segment_count cur_node_segno cur_node_blkoff cur_data_segno
cur_data_blkoff ckpt_flags cp_pack_total_block_count cp_pack_start_sum valid_node_count
valid_inode_count next_free_nid sit_ver_bitmap_bytesize nat_ver_bitmap_bytesize
checksum_offset elapsed_time alloc_type crc current_segments sit_bitmap_blocks
nat_bitmap_blocks nat_bits nat_journal sit_journal nat_journal_entries
sit_journal_entries pack blkaddr other_pack_valid"

for args in "--sb" "--cp" ""; do
	# shellcheck disable=SC2086
	run --json $args "$img"
	json_ok "--json ${args:-(summary)} parses"
done

run --json --sb "$img"
# shellcheck disable=SC2086
m=$(missing superblock $sb_keys)
check "superblock: every field present${m:+ (missing: $m)}" test -z "$m"
check "superblock: magic" test "$(jget superblock.magic)" -eq $((0xF2F52010))
check "superblock: label" test "$(jget superblock.label)" = JLABEL
check "superblock: encoding utf8" eval '[[ $(jget superblock.encoding) == utf8-12.1 && $(jget superblock.s_encoding) -eq 1 ]]'
check "superblock: feature names casefold and sb_checksum" eval '[[ $(jget superblock.features) == *casefold* && $(jget superblock.features) == *sb_checksum* ]]'
check "superblock: crc as stored ($want_crc), computed the same" \
	test "$(jget superblock.crc)-$(jget superblock.crc_computed)" = "$want_crc-$want_crc"
python3 - "$W/out" "$img" "$img2" >"$W/py.out" 2>&1 <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))["superblock"]
cold, hot = s["extension_list"], s["hot_extension_list"]
assert "zzcold" in cold and "zzhot" in hot, (cold, hot)
assert len(cold) == s["extension_count"] and len(hot) == s["hot_ext_count"]
assert [d["path"] for d in s["devs"]] == sys.argv[2:], s["devs"]
assert s["devs"][1]["total_segments"] == 28, s["devs"]
assert sum(d["total_segments"] for d in s["devs"]) == s["segment_count"], s["devs"]
print("ok")
EOF
check "superblock: extension lists and devices ($(tail -1 "$W/py.out"))" test "$(tail -1 "$W/py.out")" = ok

run --json --cp "$img"
# shellcheck disable=SC2086
m=$(missing checkpoint $cp_keys)
check "checkpoint: every field present${m:+ (missing: $m)}" test -z "$m"
python3 - "$W/out" >"$W/py.out" 2>&1 <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))["checkpoint"]
f = c["ckpt_flags"]
assert "umount" in f["names"] and "nat_bits" in f["names"], f
assert len(c["cur_node_segno"]) == 8 and len(c["cur_data_blkoff"]) == 8
assert len(c["alloc_type"]) == 16
logs = {r["log"]: r for r in c["current_segments"]}
assert logs["hot_data"]["segno"] == c["cur_data_segno"][0]
assert logs["cold_node"]["blkoff"] == c["cur_node_blkoff"][2]
assert all(r["alloc"] == "lfs" for r in c["current_segments"])
assert c["sit_bitmap_blocks"] == 8 * c["sit_ver_bitmap_bytesize"]
assert c["nat_bitmap_blocks"] == 8 * c["nat_ver_bitmap_bytesize"]
assert c["sit_journal_entries"] == len(c["sit_journal"]) == 6
assert c["nat_bits"] == "matches the checkpoint"
print("ok")
EOF
check "checkpoint: flags, logs, bitmaps, journals ($(tail -1 "$W/py.out"))" test "$(tail -1 "$W/py.out")" = ok
ver=$(jget checkpoint.checkpoint_ver)
run --cp "$img"
check "text --cp shows the same version" grep -Eq "^ +checkpoint_ver +$ver$" "$W/out"
check "text --cp names the flags" grep -Eq '^ +ckpt_flags +0x[0-9a-f]+ \(umount,.*nat_bits' "$W/out"

# the default JSON document holds both, complete
run --json "$img"
# shellcheck disable=SC2086
m="$(missing superblock $sb_keys) $(missing checkpoint $cp_keys)"
check "default --json: both objects complete" test -z "${m// /}"

# every view's JSON parses when combined into one document
run --json --sb --cp -i / --ls / -n 0~10 -s 0~3 -a 0~1 --segments "$img"
json_ok "--json with eight views parses"

# failed_json DESCRIPTION EXIT KIND ARGS...: the exit status, and one JSON
# document on stdout with "image", "error" (of KIND, naming the problem as
# stderr does) and "exit"
failed_json() {
	local what=$1 want=$2 kind=$3
	shift 3
	run "$@"
	if [[ $rc -eq $want ]] && python3 - "$W/out" "$want" "$kind" "${err%%$'\n'*}" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
want, kind, line = int(sys.argv[2]), sys.argv[3], sys.argv[4]
assert set(d) >= {"image", "error", "exit"}, d
assert d["exit"] == want and d["error"]["kind"] == kind, d
assert line.endswith(d["error"]["message"]), (line, d)
EOF
	then
		ok "$what: exit $want, the failure as JSON"
	else
		bad "$what: rc=$rc stdout=[${out:0:300}] stderr=[$err]"
	fi
}
failed_json "--json, an image that cannot be opened" 1 "No such file or directory" --json "$W/missing.img"
failed_json "--json, a view that fails (-i of a free nid)" 1 view --json -i 99999 "$img"
failed_json "--json, a view that fails after another (--sb, --ls /nope)" 1 view --json --sb --ls /nope "$img"
failed_json "--json, a usage error" 16 usage --json --bogus "$img"

finish
