#!/usr/bin/env python3
"""Edit the SIT (and the checkpoint) of an F2FS image copy, for dump tests.

    sitedit.py IMG set SEGNO VALID TYPE MTIME   write one SIT entry (the first
                                                VALID blocks marked valid) into
                                                the live SIT block, and into
                                                the SIT journal if it holds SEGNO
    sitedit.py IMG badcount SEGNO               make SEGNO's count disagree with its map
    sitedit.py IMG elapsed SECONDS              set the checkpoint's elapsed_time
    sitedit.py IMG fill SEED                    random entries for every
                                                non-current segment (speed tests)
    sitedit.py IMG info                         print the layout it found

Checkpoint edits recompute the CRC of the header and of its footer copy:
f2fs_crc32(seed, data) = zlib.crc32(data, seed ^ 0xFFFFFFFF) ^ 0xFFFFFFFF,
seed 0xF2F52010, stored at checksum_offset (4092).
"""
import random
import struct
import sys
import zlib

BLK = 4096
SEG_BLKS = 512
SIT_ENTRY = 74
SIT_PER_BLOCK = 55
CRC_SEED = 0xF2F52010
F2FS_MAGIC = 0xF2F52010
CP_COMPACT_SUM = 0x4
SUM_JOURNAL_SIZE = 507
SUM_ENTRY_SIZE = 7 * 512


def f2fs_crc32(data, seed=CRC_SEED):
    return zlib.crc32(data, seed ^ 0xFFFFFFFF) ^ 0xFFFFFFFF


class Image:
    def __init__(self, path):
        self.f = open(path, 'r+b')
        sb = self.read(0)[1024:1024 + 3072]
        (magic,) = struct.unpack_from('<I', sb, 0)
        if magic != F2FS_MAGIC:
            sys.exit('sitedit: not F2FS')
        u32 = lambda off: struct.unpack_from('<I', sb, off)[0]
        self.segs_per_sec = u32(24)
        self.segment_count_sit = u32(56)
        self.segment_count_main = u32(68)
        self.cp_blkaddr = u32(76)
        self.sit_blkaddr = u32(80)
        self.main_blkaddr = u32(92)
        self.cp_payload = u32(1664)
        # newest valid pack
        best = None
        for pack in (0, 1):
            start = self.cp_blkaddr + pack * SEG_BLKS
            cp = self.read(start)
            csum_off = struct.unpack_from('<I', cp, 164)[0]
            if csum_off != 4092:
                continue
            if f2fs_crc32(cp[:csum_off]) != struct.unpack_from('<I', cp, csum_off)[0]:
                continue
            ver = struct.unpack_from('<Q', cp, 0)[0]
            if best is None or ver > best[1]:
                best = (start, ver)
        if best is None:
            sys.exit('sitedit: no valid checkpoint')
        self.cp_start = best[0]
        cp = self.read(self.cp_start)
        self.flags = struct.unpack_from('<I', cp, 132)[0]
        self.total = struct.unpack_from('<I', cp, 136)[0]
        self.start_sum = struct.unpack_from('<I', cp, 140)[0]
        sit_bytes = struct.unpack_from('<I', cp, 156)[0]
        if self.cp_payload == 0:
            self.sit_bitmap = cp[192:192 + sit_bytes]
        else:
            self.sit_bitmap = self.read(self.cp_start + 1, self.cp_payload)[:sit_bytes]
        self.cur = [struct.unpack_from('<I', cp, 84 + 4 * t)[0] for t in range(3)] + \
                   [struct.unpack_from('<I', cp, 36 + 4 * t)[0] for t in range(3)]

    def read(self, blk, n=1):
        self.f.seek(blk * BLK)
        return bytearray(self.f.read(n * BLK))

    def write(self, blk, data):
        self.f.seek(blk * BLK)
        self.f.write(data)

    def sit_block_addr(self, segno):
        b = segno // SIT_PER_BLOCK
        addr = self.sit_blkaddr + b
        if (self.sit_bitmap[b // 8] >> (7 - b % 8)) & 1:
            addr += self.segment_count_sit // 2 * SEG_BLKS
        return addr

    def journal_place(self):
        """(block, byte offset) of the SIT journal in the pack."""
        if self.flags & CP_COMPACT_SUM:
            return self.cp_start + self.start_sum, SUM_JOURNAL_SIZE
        return self.cp_start + self.start_sum + 2, SUM_ENTRY_SIZE


def entry(valid, typ, mtime, bad=False):
    m = bytearray(64)
    for b in range(valid):
        m[b // 8] |= 0x80 >> (b % 8)
    count = valid + 1 if bad else valid
    return struct.pack('<H', (typ << 10) | count) + bytes(m) + struct.pack('<Q', mtime)


def set_entry(img, segno, data):
    addr = img.sit_block_addr(segno)
    blk = img.read(addr)
    off = (segno % SIT_PER_BLOCK) * SIT_ENTRY
    blk[off:off + SIT_ENTRY] = data
    img.write(addr, blk)
    jblk, joff = img.journal_place()
    blk = img.read(jblk)
    n = struct.unpack_from('<H', blk, joff)[0]
    for k in range(min(n, 6)):
        eoff = joff + 2 + k * (4 + SIT_ENTRY)
        if struct.unpack_from('<I', blk, eoff)[0] == segno:
            blk[eoff + 4:eoff + 4 + SIT_ENTRY] = data
            img.write(jblk, blk)


def set_elapsed(img, seconds):
    for addr in (img.cp_start, img.cp_start + img.total - 1):
        cp = img.read(addr)
        struct.pack_into('<Q', cp, 168, seconds)
        struct.pack_into('<I', cp, 4092, f2fs_crc32(bytes(cp[:4092])))
        img.write(addr, cp)


def fill(img, seed):
    rnd = random.Random(seed)
    nblocks = (img.segment_count_main + SIT_PER_BLOCK - 1) // SIT_PER_BLOCK
    cur = set(img.cur)
    for b in range(nblocks):
        first = b * SIT_PER_BLOCK
        addr = img.sit_block_addr(first)
        blk = img.read(addr)
        for k in range(SIT_PER_BLOCK):
            s = first + k
            if s >= img.segment_count_main or s in cur:
                continue
            r = rnd.random()
            valid = 0 if r < 0.2 else 512 if r < 0.4 else rnd.randrange(1, 512)
            typ = rnd.randrange(0, 6)
            blk[k * SIT_ENTRY:(k + 1) * SIT_ENTRY] = entry(valid, typ, rnd.randrange(0, 10 ** 6))
        img.write(addr, blk)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    img = Image(sys.argv[1])
    cmd, args = sys.argv[2], [int(a, 0) for a in sys.argv[3:]]
    if cmd == 'set' and len(args) == 4:
        set_entry(img, args[0], entry(args[1], args[2], args[3]))
    elif cmd == 'badcount' and len(args) == 1:
        set_entry(img, args[0], entry(10, 1, 0, bad=True))
    elif cmd == 'elapsed' and len(args) == 1:
        set_elapsed(img, args[0])
    elif cmd == 'fill' and len(args) == 1:
        fill(img, args[0])
    elif cmd == 'info':
        print('cp_start', img.cp_start, 'flags', hex(img.flags), 'cur', img.cur,
              'main segs', img.segment_count_main, 'sit', img.sit_blkaddr)
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
