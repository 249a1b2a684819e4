#!/bin/bash
# Robustness: 300 random single-byte corruptions of metadata blocks
# (superblocks, checkpoint pack, NAT, SIT, SSA, node blocks) of a small
# image. fsck.f2fs -n must exit 0, 4 or 8 every time and never crash (run it
# in a sanitizer build to catch bad reads). Then a copy is repaired (-y):
# exit 0, 1, 4 or 8; exit 8 (and 0) leave the copy untouched; after a
# repair a second -y must find nothing more to write (one pass), and exits
# 0 when the first fixed everything. Deterministic: F2FS_FUZZ_SEED
# (default 1) and F2FS_FUZZ_RUNS (default 300) choose the cases; the loop
# stops early after F2FS_FUZZ_SECONDS (default 25) so that slow (sanitizer)
# builds stay bounded.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
. "$HERE/common.sh"
if ! command -v python3 >/dev/null 2>&1; then
	echo "fuzz-quick: python3 missing"
	exit 77
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/fsck-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
make_tree "$W/tree"
"$MKFS" -q -O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,lost_found,quota \
	--rootdir "$W/tree" -S "$W/img" 131072 || exit 1
python3 - "$W/img" "$FSCK" "$DAMAGE" "${F2FS_FUZZ_SEED:-1}" "${F2FS_FUZZ_RUNS:-300}" "${F2FS_FUZZ_SECONDS:-25}" <<'PY'
import hashlib, importlib.util, random, shutil, struct, subprocess, sys, time
img_path, fsck, damage, seed, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
limit = float(sys.argv[6])
spec = importlib.util.spec_from_file_location('damage', damage)
d = importlib.util.module_from_spec(spec)
spec.loader.exec_module(d)
img = d.Img(img_path)
blocks = [0, 1]
total = img.cpget('cp_pack_total_block_count')
blocks += [img.cpstart + k for k in range(total)] + [img.cpstart + 511]
blocks += [img.nat_block_addr(0), img.sit, img.ssa + 3, img.ssa + 4]
for nid in range(3, 455):
    a = img.nat_get(nid)['blkaddr']
    if a >= img.main:
        blocks.append(a)
img.f.close()
def digest(path):
    with open(path, 'rb') as g:
        return hashlib.md5(g.read()).hexdigest()

def repair_fails(path):
    # the repair of a copy: what is wrong with it, or None
    copy = path + '.rep'
    shutil.copyfile(path, copy)
    before = digest(copy)
    r1 = subprocess.run([fsck, '-y', copy], stdout=subprocess.DEVNULL,
                        stderr=subprocess.PIPE, timeout=60).returncode
    if r1 not in (0, 1, 4, 8):
        return 'repair exit %d' % r1
    after = digest(copy)
    if r1 in (0, 8) and after != before:
        return 'repair exit %d changed the image' % r1
    r2 = subprocess.run([fsck, '-y', copy], stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL, timeout=60).returncode
    if r1 in (1, 4) and digest(copy) != after:
        return 'a second repair (exit %d) wrote again after exit %d' % (r2, r1)
    if r1 == 1 and r2 != 0:
        return 'second run exit %d after a full repair' % r2
    return None

rnd = random.Random(seed)
passed = failed = 0
start = time.time()
with open(img_path, 'r+b') as f:
    for r in range(runs):
        if time.time() - start > limit:
            print('NOTE: stopped after %d of %d runs (%.0f s limit)' % (r, runs, limit))
            break
        blk = rnd.choice(blocks)
        off = blk * 4096 + rnd.randrange(4096)
        f.seek(off)
        old = f.read(1)
        new = bytes([rnd.randrange(256)])
        if new == old:
            new = bytes([old[0] ^ 0xFF])
        f.seek(off); f.write(new); f.flush()
        p = subprocess.run([fsck, '-n', img_path], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=60)
        what = 'block %d byte %d -> 0x%02x' % (blk, off % 4096, new[0])
        why = repair_fails(img_path) if p.returncode in (0, 4, 8) else None
        f.seek(off); f.write(old); f.flush()
        if p.returncode in (0, 4, 8) and not why:
            passed += 1
        else:
            failed += 1
            print('FAIL: %s: %s' % (what, why or 'exit %d' % p.returncode))
            sys.stdout.write(p.stderr.decode(errors='replace')[-2000:])
print('PASS: %d corruptions survived in %.1f s' % (passed, time.time() - start))
print('fuzz-quick: %d passed, %d failed' % (passed, failed))
sys.exit(1 if failed else 0)
PY
