#!/usr/bin/env python3
"""multidev-compare.py [--every-device] OURS_DUMP PEER_DUMP IMAGE [DUMP ARGS...]: compare our
dump.f2fs with f2fs-tools' on a volume over several devices, at addresses on
every device. Prints one line per comparison ("same: ..." / "DIFFER: ...")
and exits 1 when any differ.

  blocks: -b at the first valid block of each device (from our SIT view),
          at a block in the middle of each device and at its first block;
  sit:    every segment's valid count and type (-s 0~-1 against dump_sit);
  inodes: size, blocks and every direct address of the inodes owning the
          valid blocks found above (-i).
--every-device also fails when a device holds no valid block (the SIT's
count per device is printed either way).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

args = sys.argv[1:]
every = args[0] == '--every-device'
if every:
    args = args[1:]
ours, peer, image = args[:3]
extra = args[3:]
bad = 0


def run(cmd, cwd=None):
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd).stdout


def device_of(a):
    return next(k for k in range(len(devs)) if a < starts[k + 1] or k == len(devs) - 1)


def report(same, what):
    global bad
    print(('same: ' if same else 'DIFFER: ') + what)
    bad += not same


def our_json(*args):
    return json.loads(run([ours, '--json', *extra, *args, image]))


sb = our_json('--sb')['superblock']
main = sb['main_blkaddr']
seg0 = sb['segment0_blkaddr']
devs = sb['devs']
starts, at = [], 0
for k, d in enumerate(devs):
    starts.append(at)
    at += d['total_segments'] * 512 + (seg0 if k == 0 else 0)
starts.append(at)

sit = our_json('-s', '0~-1')['sit']
rows = sit['entries'] if isinstance(sit, dict) else sit
types = ['hot_data', 'warm_data', 'cold_data', 'hot_node', 'warm_node', 'cold_node']

per_dev = [0] * len(devs)
for r in rows:
    a = main + r['segno'] * 512
    per_dev[device_of(a)] += r['valid']
print(f"valid blocks per device: {per_dev}")
if every:
    report(all(per_dev), f"every device holds valid blocks: {per_dev}")

# ---- blocks ---------------------------------------------------------------
samples = []
for k in range(len(devs)):
    lo, hi = max(starts[k], main), starts[k + 1]
    samples += [starts[k], (lo + hi) // 2]
    for r in rows:
        a = main + r['segno'] * 512
        if lo <= a < hi and r['valid'] > 0:
            bits = bytes.fromhex(r['map'])
            off = next(i for i in range(512) if bits[i // 8] & (0x80 >> (i % 8)))
            samples.append(a + off)
            break


def peer_block(addr):
    out = run([peer, '-b', str(addr), image])
    kind = 'node' if 'Node block' in out else 'data' if 'Data block' in out else 'none'
    ino = re.search(r'Inode block\s*: id = (0x[0-9a-f]+)', out)
    name = re.search(r'File name\s*: (.*)', out)
    ofs = re.search(r'Data offset\s*: (0x[0-9a-f]+)', out)
    return (kind, int(ino.group(1), 16) if ino else None,
            name.group(1).strip() if name else None,
            int(ofs.group(1), 16) if ofs and kind == 'data' else None)


owners = set()
for addr in samples:
    b = our_json('-b', str(addr))['block']
    kind = 'none'
    if b.get('area') == 'main' and b.get('status') == 'ok':
        kind = b['kind']
    elif b.get('area') != 'main':
        kind = 'meta'
    # the file block of a block addressed from a direct node: f2fs-tools
    # 1.15 counts the inode's addresses as if it had no inline xattrs
    # (923, not 873), so only blocks the inode itself points to compare
    in_inode = b.get('node_kind') == 'inode'
    mine = (kind, b.get('ino') if kind in ('node', 'data') else None,
            b.get('name') or None if kind in ('node', 'data') else None,
            b.get('file_block') if kind == 'data' and in_inode else None)
    theirs = peer_block(addr)
    if kind == 'data' and not in_inode:
        theirs = theirs[:3] + (None,)
    if kind == 'meta':
        mine = theirs   # f2fs-tools' -b prints nothing for metadata
    if kind in ('node', 'data') and b.get('ino'):
        owners.add(b['ino'])
    report(mine == theirs, f"-b {addr} (device {b.get('device')}): ours {mine}, f2fs-tools {theirs}")

# ---- SIT ------------------------------------------------------------------
with tempfile.TemporaryDirectory() as tmp:
    run([peer, '-s', '0~-1', os.path.abspath(image)], cwd=tmp)
    try:
        text = open(os.path.join(tmp, 'dump_sit')).read()
    except OSError:
        text = ''
peer_sit = {int(m.group(1)): (int(m.group(2)), int(m.group(3))) for m in
            re.finditer(r'segno:\s*(\d+)\s+vblocks:\s*(\d+)\s+seg_type:(\d+)', text)}
our_sit = {r['segno']: (r['valid'], types.index(r['type']) if r['type'] in types else -1)
           for r in rows}
common = sorted(set(peer_sit) & set(our_sit))
diff = [s for s in common if peer_sit[s] != our_sit[s]]
report(len(common) >= len(our_sit) - 1 and not diff,
       f"SIT: {len(common)} of {len(our_sit)} segments compared, {len(diff)} differ {diff[:5]}")

# ---- inodes ---------------------------------------------------------------
for ino in sorted(owners):
    i = our_json('-i', str(ino))['inode']
    addrs = {}
    for e in i.get('block_map') or []:
        if e.get('kind') == 'data':
            for k in range(e['blocks']):
                addrs[e['file_block'] + k] = e['blkaddr'] + k
    out = run([peer, '-i', str(ino), image])
    size = re.search(r'^i_size\s+\[0x\s*[0-9a-f]+ : (\d+)\]', out, re.M)
    blocks = re.search(r'^i_blocks\s+\[0x\s*[0-9a-f]+ : (\d+)\]', out, re.M)
    pa = {int(m.group(1), 16): int(m.group(2)) for m in
          re.finditer(r'^i_addr\[(0x[0-9a-f]+)\]\s+\[0x\s*[0-9a-f]+ : (\d+)\]', out, re.M)}
    # direct pointers of the inode itself: file block k is i_addr[k] (no
    # inline data or compression on these volumes)
    ours_direct = {k: v for k, v in addrs.items() if k in pa}
    peer_direct = {k: v for k, v in pa.items() if v not in (0, 0xffffffff)}
    if i.get('data') == 'inline':   # i_addr holds the data, not addresses
        ours_direct = peer_direct = {}
    same = (size and int(size.group(1)) == i['size'] and blocks and
            int(blocks.group(1)) == i['blocks'] and ours_direct == peer_direct)
    devs_used = sorted({device_of(a) + 1 for a in peer_direct.values()})
    report(bool(same), f"-i {ino}: size, blocks and {len(peer_direct)} direct addresses "
           f"(on devices {devs_used})")
sys.exit(1 if bad else 0)
