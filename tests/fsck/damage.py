#!/usr/bin/env python3
"""damage.py IMAGE ACTION [ARGS...] [-- ACTION ...]: edit an F2FS image precisely.

Checksums that cover an edited structure (inode checksum, checkpoint CRC and
the nat_bits header that holds it, superblock CRC) are recomputed, unless the
checksum itself is the point of the action.  Actions (separate with --):

  sb FIELD VALUE            superblock field, both copies (CRC resealed)
  sb0 FIELD VALUE           copy 0 only, CRC not resealed
  sb1 FIELD VALUE           copy 1 only, CRC resealed (a valid copy that differs)
  cp FIELD VALUE            checkpoint in use, header and footer (CRC resealed)
  nat NID FIELD VALUE       effective NAT entry (journal first); FIELD ino|blkaddr|version
  natblock NID FIELD VALUE  the entry in the live NAT block even if journalled
  sit SEGNO FIELD VALUE     effective SIT entry; FIELD vblocks|type|setbit|clrbit
  sitblock SEGNO FIELD VALUE  the entry in the live SIT block even if journalled
  ssa SEGNO OFF FIELD VALUE SSA block entry; FIELD nid|ofs; or ssa SEGNO - type VALUE
  inode PATH|#INO FIELD VALUE   inode field (checksum resealed)
  inode-csum PATH|#INO VALUE    store VALUE as the inode checksum
  footer PATH|#NID FIELD VALUE  node footer field nid|ino|ofs|flag (inode resealed)
  dentry DIR NAME FIELD VALUE   FIELD hash|ino|name_len|file_type,
                            clrbit K (slot K of the entry), unlink 0 (all its slots),
                            rebucket N (rename into another of N buckets)
  natbits full|empty NATBLK 0|1, natbits header VALUE
  quota TYPE ID inodes|space VALUE   a record of quota file TYPE (0 user,
                            1 group, 2 project); quota TYPE magic VALUE;
                            quota TYPE rootref VALUE (slot 0 of the tree root)
  xattr PATH|#INO raw OFFSET HEXBYTES   bytes at OFFSET of the inode's xattr
                            area (inline part, then the xattr node; resealed)
  dentry DIR NAME rename NEWNAME   same-length name, hash recomputed
  dentry DIR NAME renamehash NEWNAME HASH   same-length name, the hash given
                            (renamefold: hash of the ASCII-lowercased name,
                            as a casefolded directory wants it)
  orphan INO...             list the inodes in a new orphan block (the pack's
                            summaries and footer move up one block) and set
                            ORPHAN_PRESENT; orphan-flag 1 sets only the flag;
                            orphan-footer BLK_ADDR BLK_COUNT edits the footer
                            of the first orphan block
  journal nat add NID INO BLKADDR   append an entry to the NAT journal
  journal sit K segno SEGNO          segment number of SIT journal entry K
  journal nat|sit count N            n_entries as stored (no bound applied)
                            (the journals lie in the data summaries of the
                            checkpoint pack, which no checksum covers)
  copy SRC DST              copy block SRC to block DST
  raw BLKADDR OFFSET HEXBYTES
  get inode PATH FIELD|blkaddr, get nat NID FIELD, get ino PATH,
  get sit SEGNO vblocks|type|firstclear, get cp FIELD, get sb FIELD,
  get xattr PATH end (offset of the end mark in the xattr area)   print a value

Inode fields: mode links size blocks inline xattr_nid flags pino depth
dir_level ext_fofs ext_blk ext_len (the largest extent) generation extra_isize
inline_xattr_size compr_blocks addr[N] (data pointer N, after the extra attributes) nid[K]. VALUE is an integer (0x.. hex, 0... octal).
"""
import os
import struct
import sys
import zlib

BLK = 4096
MAGIC = 0xF2F52010


def crc32(seed, data):
    return zlib.crc32(data, seed ^ 0xFFFFFFFF) ^ 0xFFFFFFFF


SB_FIELDS = {
    'magic': (0x0, 'I'), 'major_ver': (0x4, 'H'), 'minor_ver': (0x6, 'H'),
    'log_sectorsize': (0x8, 'I'), 'log_sectors_per_block': (0xC, 'I'),
    'log_blocksize': (0x10, 'I'), 'log_blocks_per_seg': (0x14, 'I'),
    'segs_per_sec': (0x18, 'I'), 'secs_per_zone': (0x1C, 'I'),
    'checksum_offset': (0x20, 'I'), 'block_count': (0x24, 'Q'),
    'section_count': (0x2C, 'I'), 'segment_count': (0x30, 'I'),
    'segment_count_ckpt': (0x34, 'I'), 'segment_count_sit': (0x38, 'I'),
    'segment_count_nat': (0x3C, 'I'), 'segment_count_ssa': (0x40, 'I'),
    'segment_count_main': (0x44, 'I'), 'segment0_blkaddr': (0x48, 'I'),
    'cp_blkaddr': (0x4C, 'I'), 'sit_blkaddr': (0x50, 'I'),
    'nat_blkaddr': (0x54, 'I'), 'ssa_blkaddr': (0x58, 'I'),
    'main_blkaddr': (0x5C, 'I'), 'root_ino': (0x60, 'I'),
    'cp_payload': (0x680, 'I'), 'feature': (0x884, 'I'), 's_encoding': (0xAC6, 'H'), 's_encoding_flags': (0xAC8, 'H'),
    'qf_ino0': (0xAB9, 'I'), 'qf_ino1': (0xABD, 'I'), 'qf_ino2': (0xAC1, 'I'),
    'crc': (0xBFC, 'I'),
}


def sb_field(name):
    """A SB_FIELDS name, or s_stop_reason[K] / s_errors[K] (one byte each)."""
    for arr, base in (('s_stop_reason[', 0xACA), ('s_errors[', 0xAEA)):
        if name.startswith(arr) and name.endswith(']'):
            return base + num(name[len(arr):-1]), 'B'
    return SB_FIELDS[name]

CP_FIELDS = {
    'checkpoint_ver': (0, 'Q'), 'user_block_count': (8, 'Q'),
    'valid_block_count': (16, 'Q'), 'rsvd_segment_count': (24, 'I'),
    'overprov_segment_count': (28, 'I'), 'free_segment_count': (32, 'I'),
    'ckpt_flags': (132, 'I'), 'cp_pack_total_block_count': (136, 'I'),
    'cp_pack_start_sum': (140, 'I'), 'valid_node_count': (144, 'I'),
    'valid_inode_count': (148, 'I'), 'next_free_nid': (152, 'I'),
    'sit_ver_bitmap_bytesize': (156, 'I'), 'nat_ver_bitmap_bytesize': (160, 'I'),
}
for _i in range(8):
    CP_FIELDS['cur_node_segno[%d]' % _i] = (36 + 4 * _i, 'I')
    CP_FIELDS['cur_node_blkoff[%d]' % _i] = (68 + 2 * _i, 'H')
    CP_FIELDS['cur_data_segno[%d]' % _i] = (84 + 4 * _i, 'I')
    CP_FIELDS['cur_data_blkoff[%d]' % _i] = (116 + 2 * _i, 'H')
for _i in range(16):
    CP_FIELDS['alloc_type[%d]' % _i] = (176 + _i, 'B')

INODE_FIELDS = {
    'mode': (0, 'H'), 'advise': (2, 'B'), 'inline': (3, 'B'), 'uid': (4, 'I'), 'gid': (8, 'I'),
    'links': (12, 'I'), 'size': (16, 'Q'), 'blocks': (24, 'Q'),
    'generation': (68, 'I'), 'depth': (72, 'I'), 'xattr_nid': (76, 'I'),
    'flags': (80, 'I'), 'pino': (84, 'I'), 'namelen': (88, 'I'),
    'dir_level': (347, 'B'), 'ext_fofs': (348, 'I'), 'ext_blk': (352, 'I'),
    'ext_len': (356, 'I'), 'extra_isize': (360, 'H'),
    'inline_xattr_size': (362, 'H'), 'checksum': (368, 'I'),
    'compr_blocks': (384, 'Q'),
}


M32 = 0xFFFFFFFF


def f2fs_hash(name):
    """The dentry name hash (FORMAT-FACTS 8.2)."""
    if name in (b'.', b'..'):
        return 0
    buf = [0x67452301, 0xEFCDAB89]
    p, ln = 0, len(name)
    while True:
        pad = (ln | ln << 8 | ln << 16 | ln << 24) & M32
        ins, val = [], pad
        for i, c in enumerate(name[p:p + 16]):
            if i % 4 == 0:
                val = pad
            val = (c + (val << 8)) & M32
            if i % 4 == 3:
                ins.append(val)
                val = pad
        if len(ins) < 4:
            ins.append(val)
        while len(ins) < 4:
            ins.append(pad)
        b0, b1, sm = buf[0], buf[1], 0
        for _ in range(16):
            sm = (sm + 0x9E3779B9) & M32
            b0 = (b0 + ((((b1 << 4) + ins[0]) & M32) ^ ((b1 + sm) & M32) ^ (((b1 >> 5) + ins[1]) & M32))) & M32
            b1 = (b1 + ((((b0 << 4) + ins[2]) & M32) ^ ((b0 + sm) & M32) ^ (((b0 >> 5) + ins[3]) & M32))) & M32
        buf[0] = (buf[0] + b0) & M32
        buf[1] = (buf[1] + b1) & M32
        if ln <= 16:
            break
        ln -= 16
        p += 16
    return buf[0]


def num(s):
    if len(s) > 1 and s[0] == '0' and s[1].isdigit():
        return int(s, 8)          # C-style octal, e.g. modes
    return int(s, 0)


class Img:
    def __init__(self, path):
        self.f = open(path, 'r+b')
        self.sb = self.read_bytes(1024, 3072)
        g = lambda name: self.sbget(name)
        self.feature = g('feature')
        self.main = g('main_blkaddr')
        self.nat = g('nat_blkaddr')
        self.sit = g('sit_blkaddr')
        self.ssa = g('ssa_blkaddr')
        self.cpaddr = g('cp_blkaddr')
        self.payload = g('cp_payload')
        self.sit_half = g('segment_count_sit') // 2 * 512
        self.uuid = self.sb[0x6C:0x7C]
        self.pick_cp()

    # raw io
    def read_bytes(self, off, n):
        self.f.seek(off)
        b = self.f.read(n)
        return b + bytes(n - len(b))

    def write_bytes(self, off, data):
        self.f.seek(off)
        self.f.write(data)

    def rblk(self, a):
        return bytearray(self.read_bytes(a * BLK, BLK))

    def wblk(self, a, data):
        assert len(data) == BLK
        self.write_bytes(a * BLK, bytes(data))

    def sbget(self, name):
        off, fmt = sb_field(name)
        return struct.unpack_from('<' + fmt, self.sb, off)[0]

    # checkpoint
    @staticmethod
    def cp_crc(blk):
        off = struct.unpack_from('<I', blk, 164)[0]
        if off < 192 or off > 4092:
            return None, off
        c = crc32(MAGIC, bytes(blk[:off]))
        if off < 4092:
            c = crc32(c, bytes(blk[off + 4:]))
        return c, off

    def pick_cp(self):
        best = None
        for p in range(2):
            start = self.cpaddr + p * 512
            h = self.rblk(start)
            c, off = self.cp_crc(h)
            if c is None or struct.unpack_from('<I', h, off)[0] != c:
                continue
            total = struct.unpack_from('<I', h, 136)[0]
            if total < 2 or total > 512:
                continue
            foot = self.rblk(start + total - 1)
            if bytes(foot[:8]) != bytes(h[:8]):
                continue
            ver = struct.unpack_from('<Q', h, 0)[0]
            if best is None or ver > best[1]:
                best = (start, ver)
        if best is None:
            raise SystemExit('damage.py: no valid checkpoint')
        self.cpstart = best[0]
        self.cp = self.rblk(self.cpstart)

    def cpget(self, name):
        off, fmt = CP_FIELDS[name]
        return struct.unpack_from('<' + fmt, self.cp, off)[0]

    def cp_write(self, reseal=True):
        if reseal:
            c, off = self.cp_crc(self.cp)
            struct.pack_into('<I', self.cp, off, c)
        total = self.cpget('cp_pack_total_block_count')
        self.wblk(self.cpstart, self.cp)
        self.wblk(self.cpstart + total - 1, self.cp)
        if reseal and self.cpget('ckpt_flags') & 0x80:
            nb = self.natbits_blocks()
            a = self.cpstart + 512 - nb
            b = self.rblk(a)
            c, off = self.cp_crc(self.cp)
            struct.pack_into('<Q', b, 0, self.cpget('checkpoint_ver') | (c << 32))
            self.wblk(a, b)

    def nat_blocks(self):
        return self.sbget('segment_count_nat') // 2 * 512

    def natbits_blocks(self):
        nb = self.nat_blocks() // 8
        return (2 * nb + 8 + BLK - 1) // BLK

    def bitmaps(self):
        """(nat bitmap, sit bitmap) as bytes."""
        sit_b = struct.unpack_from('<I', self.cp, 156)[0]
        nat_b = struct.unpack_from('<I', self.cp, 160)[0]
        flags = self.cpget('ckpt_flags')
        if flags & 0x400:
            nat = self.cp[196:196 + nat_b]
            sit = self.cp[196 + nat_b:196 + nat_b + sit_b]
        elif self.payload:
            nat = self.cp[192:192 + nat_b]
            sit = self.rblk(self.cpstart + 1)[:sit_b]
        else:
            sit = self.cp[192:192 + sit_b]
            nat = self.cp[192 + sit_b:192 + sit_b + nat_b]
        return bytes(nat), bytes(sit)

    # journals: (block address, byte offset of the journal)
    def journal_loc(self, which):
        start = self.cpstart + self.cpget('cp_pack_start_sum')
        if self.cpget('ckpt_flags') & 0x4:
            return start, 0 if which == 'nat' else 507
        return (start, 3584) if which == 'nat' else (start + 2, 3584)

    # NAT
    def nat_block_addr(self, nid):
        blk_off = nid // 455
        a = self.nat + (blk_off // 512) * 1024 + blk_off % 512
        natbm, _ = self.bitmaps()
        if (natbm[blk_off // 8] >> (7 - blk_off % 8)) & 1:
            a += 512
        return a

    def nat_loc(self, nid, journal=True):
        if journal:
            a, jo = self.journal_loc('nat')
            b = self.rblk(a)
            n = struct.unpack_from('<H', b, jo)[0]
            for k in range(min(n, 38)):
                if struct.unpack_from('<I', b, jo + 2 + 13 * k)[0] == nid:
                    return a, jo + 2 + 13 * k + 4
        a = self.nat_block_addr(nid)
        return a, (nid % 455) * 9

    def nat_get(self, nid):
        a, o = self.nat_loc(nid)
        b = self.rblk(a)
        ver, ino, addr = struct.unpack_from('<BII', b, o)
        return {'version': ver, 'ino': ino, 'blkaddr': addr}

    def nat_set(self, nid, field, value, journal=True):
        a, o = self.nat_loc(nid, journal)
        b = self.rblk(a)
        fo = {'version': (0, 'B'), 'ino': (1, 'I'), 'blkaddr': (5, 'I')}[field]
        struct.pack_into('<' + fo[1], b, o + fo[0], value)
        self.wblk(a, b)

    # SIT
    def sit_loc(self, segno, journal=True):
        a, jo = self.journal_loc('sit')
        b = self.rblk(a)
        n = struct.unpack_from('<H', b, jo)[0] if journal else 0
        for k in range(min(n, 6)):
            if struct.unpack_from('<I', b, jo + 2 + 78 * k)[0] == segno:
                return a, jo + 2 + 78 * k + 4
        blk_off = segno // 55
        _, sitbm = self.bitmaps()
        a = self.sit + blk_off
        if (sitbm[blk_off // 8] >> (7 - blk_off % 8)) & 1:
            a += self.sit_half
        return a, (segno % 55) * 74

    # nodes and inodes
    def node_addr(self, nid):
        return self.nat_get(nid)['blkaddr']

    def node(self, nid):
        a = self.node_addr(nid)
        if nid < 3 or a < self.main:
            raise SystemExit('damage.py: nid %d has no node block (address %d)' % (nid, a))
        return a, self.rblk(a)

    def extra_words(self, n):
        if n[3] & 0x20:
            return struct.unpack_from('<H', n, 360)[0] // 4
        return 0

    def xattr_words(self, n):
        if (n[3] & 0x20) and (self.feature & 0x40):
            return struct.unpack_from('<H', n, 362)[0]
        if n[3] & 0x05:
            return 50
        return 0

    def has_csum(self, n):
        return (self.feature & 0x20) and (n[3] & 0x20) and \
            struct.unpack_from('<H', n, 360)[0] >= 12

    def seal(self, n):
        if not self.has_csum(n):
            return
        ino, = struct.unpack_from('<I', n, 4076)
        gen, = struct.unpack_from('<I', n, 68)
        c = crc32(crc32(0xFFFFFFFF, bytes(self.uuid)), struct.pack('<I', ino))
        c = crc32(c, struct.pack('<I', gen))
        c = crc32(c, bytes(n[:368]))
        c = crc32(c, bytes(4))
        c = crc32(c, bytes(n[372:]))
        struct.pack_into('<I', n, 368, c)

    def is_inode(self, nid, n):
        return struct.unpack_from('<I', n, 4076)[0] == nid and \
            struct.unpack_from('<I', n, 4080)[0] >> 3 == 0

    def dir_blocks(self, ino):
        """(address, inline?, node) of each dentry area of a directory."""
        a, n = self.node(ino)
        if n[3] & 0x04:
            return [(a, True, n)]
        out = []
        ew = self.extra_words(n)
        p = 923 - ew - self.xattr_words(n)
        size = struct.unpack_from('<Q', n, 16)[0]
        nblocks = (size + BLK - 1) // BLK
        ptrs = [struct.unpack_from('<I', n, 360 + 4 * (ew + k))[0] for k in range(p)]
        for k in range(2):
            dn = struct.unpack_from('<I', n, 4052 + 4 * k)[0]
            if dn:
                _, d = self.node(dn)
                ptrs += [struct.unpack_from('<I', d, 4 * j)[0] for j in range(1018)]
        for fofs in range(min(nblocks, len(ptrs))):
            if ptrs[fofs] not in (0, 0xFFFFFFFF):
                out.append((ptrs[fofs], False, None))
        return out

    def dentries(self, ino):
        """yield (addr, inline, node-or-block, bitmap_off, dentry_off, name_off, slot, len, ino)"""
        for a, inline, n in self.dir_blocks(ino):
            if inline:
                ew = self.extra_words(n)
                size = 4 * (923 - ew - self.xattr_words(n) - 1)
                ns = size * 8 // (19 * 8 + 1)
                base = 360 + 4 * (ew + 1)
                bm, de, nm, blk = base, base + size - ns * 19, base + size - ns * 8, n
            else:
                blk = self.rblk(a)
                ns, bm, de, nm = 214, 0, 30, 30 + 214 * 11
            i = 0
            while i < ns:
                if not (blk[bm + i // 8] >> (i % 8)) & 1:
                    i += 1
                    continue
                h, cino, ln, ft = struct.unpack_from('<IIHB', blk, de + 11 * i)
                if ln == 0:
                    i += 1
                    continue
                yield (a, inline, blk, bm, de, nm, i, ln, cino)
                i += (ln + 7) // 8

    def lookup(self, path):
        if path.startswith('#'):
            return num(path[1:])
        ino = 3
        for comp in [c for c in path.split('/') if c]:
            want = comp.encode()
            for (a, inl, blk, bm, de, nm, i, ln, cino) in self.dentries(ino):
                if bytes(blk[nm + 8 * i:nm + 8 * i + ln]) == want:
                    ino = cino
                    break
            else:
                raise SystemExit('damage.py: %s: no such entry' % path)
        return ino

    def file_block(self, n, k):
        """Address of block k of a file mapped by inode pointers only."""
        return struct.unpack_from('<I', n, 360 + 4 * (self.extra_words(n) + k))[0]

    def quota_loc(self, qtype, qid):
        """(4 KiB block address, byte offset) of qid's record, or of the
        header when qid is None, in quota file qtype (1 KiB tree blocks)."""
        _, n = self.node(self.sbget('qf_ino%d' % qtype))

        def qblk(k):
            a = self.file_block(n, k * 1024 // BLK)
            return a, k * 1024 % BLK
        if qid is None:
            return qblk(0)
        ref = 1
        for depth in range(4):
            a, o = qblk(ref)
            ref = struct.unpack_from('<I', self.rblk(a), o + 4 * ((qid >> (24 - 8 * depth)) & 0xFF))[0]
            if not ref:
                raise SystemExit('damage.py: no quota record for id %d' % qid)
        a, o = qblk(ref)
        b = self.rblk(a)
        for r in range(14):
            ro = o + 16 + 72 * r
            if any(b[ro:ro + 72]) and struct.unpack_from('<I', b, ro)[0] == qid:
                return a, ro
        raise SystemExit('damage.py: no quota record for id %d' % qid)

    def xattr_loc(self, ino, off):
        """(node address, node, byte offset, nid) of byte off of the xattr area."""
        a, n = self.node(ino)
        words = self.xattr_words(n) if n[3] & 0x01 else 0
        if off < 4 * words:
            return a, n, 4 * (923 - words) + 360 + off, ino
        xnid = struct.unpack_from('<I', n, 76)[0]
        if not xnid:
            raise SystemExit('damage.py: inode %d has no xattr node' % ino)
        xa, xn = self.node(xnid)
        return xa, xn, off - 4 * words, xnid

    def add_orphans(self, inos):
        start = self.cpget('cp_pack_start_sum')
        total = self.cpget('cp_pack_total_block_count')
        if total + 1 > 512 - self.natbits_blocks():
            raise SystemExit('damage.py: no room for an orphan block')
        for b in range(total - 1, start - 1, -1):      # summaries and footer
            self.wblk(self.cpstart + b + 1, self.rblk(self.cpstart + b))
        ob = bytearray(BLK)
        for k, ino in enumerate(inos):
            struct.pack_into('<I', ob, 4 * k, ino)
        struct.pack_into('<HHI', ob, 4084, 1, 1, len(inos))
        self.wblk(self.cpstart + start, ob)
        struct.pack_into('<I', self.cp, 140, start + 1)
        struct.pack_into('<I', self.cp, 136, total + 1)
        struct.pack_into('<I', self.cp, 132, self.cpget('ckpt_flags') | 0x2)
        self.cp_write()

    def put_node(self, nid, a, n, reseal=True):
        if reseal and self.is_inode(nid, n):
            self.seal(n)
        self.wblk(a, n)


def inode_field(img, n, field):
    if field.startswith('addr['):
        k = num(field[5:-1])
        return 360 + 4 * (img.extra_words(n) + k), 'I'
    if field.startswith('nid['):
        return 4052 + 4 * num(field[4:-1]), 'I'
    return INODE_FIELDS[field]


def run(img, args):
    act = args[0]
    if act in ('sb', 'sb0', 'sb1'):
        off, fmt = sb_field(args[1])
        sb = bytearray(img.sb if act != 'sb1' else img.read_bytes(BLK + 1024, 3072))
        struct.pack_into('<' + fmt, sb, off, num(args[2]))
        if act != 'sb0' and struct.unpack_from('<I', sb, 0x884)[0] & 0x800 and args[1] != 'crc':
            struct.pack_into('<I', sb, 0xBFC, crc32(MAGIC, bytes(sb[:0xBFC])))
        if act != 'sb1':
            img.write_bytes(1024, bytes(sb))
            img.sb = bytes(sb)
        if act != 'sb0':
            img.write_bytes(BLK + 1024, bytes(sb))
    elif act == 'cp':
        off, fmt = CP_FIELDS[args[1]]
        struct.pack_into('<' + fmt, img.cp, off, num(args[2]))
        img.cp_write()
    elif act in ('nat', 'natblock'):
        img.nat_set(num(args[1]), args[2], num(args[3]), journal=(act == 'nat'))
    elif act in ('sit', 'sitblock'):
        a, o = img.sit_loc(num(args[1]), act == 'sit')
        b = img.rblk(a)
        v = struct.unpack_from('<H', b, o)[0]
        field, val = args[2], num(args[3])
        if field == 'vblocks':
            v = (v & ~0x3FF) | val
        elif field == 'type':
            v = (v & 0x3FF) | (val << 10)
        elif field in ('setbit', 'clrbit'):
            if field == 'setbit':
                b[o + 2 + val // 8] |= 0x80 >> (val % 8)
            else:
                b[o + 2 + val // 8] &= ~(0x80 >> (val % 8)) & 0xFF
        struct.pack_into('<H', b, o, v)
        img.wblk(a, b)
    elif act == 'ssa':
        a = img.ssa + num(args[1])
        b = img.rblk(a)
        if args[3] == 'type':
            b[4091] = num(args[4])
        else:
            o = 7 * num(args[2])
            if args[3] == 'nid':
                struct.pack_into('<I', b, o, num(args[4]))
            else:
                struct.pack_into('<H', b, o + 5, num(args[4]))
        img.wblk(a, b)
    elif act in ('inode', 'inode-csum', 'footer'):
        nid = img.lookup(args[1])
        a, n = img.node(nid)
        if act == 'inode':
            off, fmt = inode_field(img, n, args[2])
            struct.pack_into('<' + fmt, n, off, num(args[3]))
            img.put_node(nid, a, n)
        elif act == 'inode-csum':
            struct.pack_into('<I', n, 368, num(args[2]))
            img.put_node(nid, a, n, reseal=False)
        else:
            field, val = args[2], num(args[3])
            was_inode = img.is_inode(nid, n)
            if field == 'ofs':
                flag = struct.unpack_from('<I', n, 4080)[0]
                struct.pack_into('<I', n, 4080, (flag & 7) | (val << 3))
            else:
                struct.pack_into('<I', n, 4072 + {'nid': 0, 'ino': 4, 'flag': 8}[field], val)
            if was_inode:
                img.seal(n)
            img.wblk(a, n)
    elif act == 'dentry':
        dino = img.lookup(args[1])
        want = os.fsencode(args[2])
        for (a, inl, blk, bm, de, nm, i, ln, cino) in img.dentries(dino):
            if bytes(blk[nm + 8 * i:nm + 8 * i + ln]) == want:
                break
        else:
            raise SystemExit('damage.py: no entry %s in %s' % (args[2], args[1]))
        field = args[3]
        val = 0 if field in ('rename', 'renamefold', 'renamehash') else num(args[4])
        if field == 'renamehash':
            # a name of the same length in bytes, with the hash given
            # (a casefolded name's hash is of its utf8 key)
            new = os.fsencode(args[4])
            if len(new) != ln:
                raise SystemExit('damage.py: rename needs a name of %d bytes' % ln)
            blk[nm + 8 * i:nm + 8 * i + ln] = new
            struct.pack_into('<I', blk, de + 11 * i, num(args[5]))
        elif field in ('rename', 'renamefold'):
            new = args[4].encode()
            if len(new) != ln:
                raise SystemExit('damage.py: rename needs a name of %d bytes' % ln)
            blk[nm + 8 * i:nm + 8 * i + ln] = new
            h = new.lower() if field == 'renamefold' else new
            struct.pack_into('<I', blk, de + 11 * i, f2fs_hash(h))
        elif field == 'rebucket':
            # rename (same length, last byte changed) so that the hash falls
            # in another of VALUE buckets; the hash is kept consistent
            old = f2fs_hash(want)
            for c in b'abcdefghijklmnopqrstuvwxyz0123456789':
                new = want[:-1] + bytes([c])
                if f2fs_hash(new) % val != old % val:
                    break
            blk[nm + 8 * i:nm + 8 * i + ln] = new
            struct.pack_into('<I', blk, de + 11 * i, f2fs_hash(new))
        elif field == 'unlink':
            for k in range((ln + 7) // 8):
                blk[bm + (i + k) // 8] &= ~(1 << ((i + k) % 8)) & 0xFF
        elif field == 'clrbit':
            blk[bm + (i + val) // 8] &= ~(1 << ((i + val) % 8)) & 0xFF
        else:
            fo = {'hash': (0, 'I'), 'ino': (4, 'I'), 'name_len': (8, 'H'),
                  'file_type': (10, 'B')}[field]
            struct.pack_into('<' + fo[1], blk, de + 11 * i + fo[0], val)
        if inl:
            img.put_node(dino, a, blk)
        else:
            img.wblk(a, blk)
    elif act == 'natbits':
        nb = img.natbits_blocks()
        a = img.cpstart + 512 - nb
        area = bytearray(img.read_bytes(a * BLK, nb * BLK))
        if args[1] == 'header':
            struct.pack_into('<Q', area, 0, num(args[2]))
        else:
            k = num(args[2])
            base = 8 + (0 if args[1] == 'full' else img.nat_blocks() // 8)
            if num(args[3]):
                area[base + k // 8] |= 1 << (k % 8)
            else:
                area[base + k // 8] &= ~(1 << (k % 8)) & 0xFF
        img.write_bytes(a * BLK, bytes(area))
    elif act == 'quota':
        if args[2] in ('magic', 'rootref'):
            a, o = img.quota_loc(num(args[1]), None)
            if args[2] == 'rootref':       # tree root: 1 KiB block 1
                _, n = img.node(img.sbget('qf_ino%d' % num(args[1])))
                a, o = img.file_block(n, 1024 // BLK), 1024 % BLK
            b = img.rblk(a)
            struct.pack_into('<I', b, o, num(args[3]))
        else:
            a, o = img.quota_loc(num(args[1]), num(args[2]))
            b = img.rblk(a)
            struct.pack_into('<Q', b, o + {'inodes': 24, 'space': 48}[args[3]], num(args[4]))
        img.wblk(a, b)
    elif act == 'xattr':
        ino = img.lookup(args[1])
        data = bytes.fromhex(args[4])
        for k, byte in enumerate(data):       # may cross into the node
            a, n, o, nid = img.xattr_loc(ino, num(args[3]) + k)
            n[o] = byte
            img.put_node(nid, a, n)
    elif act == 'orphan':
        img.add_orphans([img.lookup(x) for x in args[1:]])
    elif act == 'orphan-footer':
        a = img.cpstart + 1 + img.payload
        b = img.rblk(a)
        struct.pack_into('<HH', b, 4084, num(args[1]), num(args[2]))
        img.wblk(a, b)
    elif act == 'orphan-flag':
        struct.pack_into('<I', img.cp, 132, img.cpget('ckpt_flags') | 0x2)
        img.cp_write()
    elif act == 'journal':
        a, jo = img.journal_loc(args[1])
        b = img.rblk(a)
        n = struct.unpack_from('<H', b, jo)[0]
        if args[2] == 'count':
            struct.pack_into('<H', b, jo, num(args[3]))
        elif args[1] == 'nat' and args[2] == 'add':
            if n >= 38:
                raise SystemExit('damage.py: the NAT journal is full')
            struct.pack_into('<IBII', b, jo + 2 + 13 * n, num(args[3]), 0,
                             num(args[4]), num(args[5]))
            struct.pack_into('<H', b, jo, n + 1)
        elif args[1] == 'sit' and args[3] == 'segno':
            struct.pack_into('<I', b, jo + 2 + 78 * num(args[2]), num(args[4]))
        else:
            raise SystemExit('damage.py: journal %s' % ' '.join(args[1:]))
        img.wblk(a, b)
    elif act == 'copy':
        img.wblk(num(args[2]), img.rblk(num(args[1])))
    elif act == 'raw':
        img.write_bytes(num(args[1]) * BLK + num(args[2]), bytes.fromhex(args[3]))
    elif act == 'get':
        if args[1] == 'ino':
            print(img.lookup(args[2]))
        elif args[1] == 'inode':
            nid = img.lookup(args[2])
            a, n = img.node(nid)
            if args[3] == 'blkaddr':
                print(a)
            else:
                off, fmt = inode_field(img, n, args[3])
                print(struct.unpack_from('<' + fmt, n, off)[0])
        elif args[1] == 'nat':
            print(img.nat_get(num(args[2]))[args[3]])
        elif args[1] == 'natblockaddr':   # where the live NAT block of NID is
            print(img.nat_block_addr(num(args[2])))
        elif args[1] == 'cp':
            print(img.cpget(args[2]))
        elif args[1] == 'sb':
            print(img.sbget(args[2]))
        elif args[1] == 'sit':
            a, o = img.sit_loc(num(args[2]))
            v = struct.unpack_from('<H', img.rblk(a), o)[0]
            if args[3] == 'firstclear':
                m = img.rblk(a)[o + 2:o + 66]
                print(next(i for i in range(512) if not (m[i // 8] >> (7 - i % 8)) & 1))
            else:
                print(v & 0x3FF if args[3] == 'vblocks' else v >> 10)
        elif args[1] == 'main':
            print(img.main)
        elif args[1] == 'xattr':          # get xattr PATH end: offset of the end mark
            ino, off = img.lookup(args[2]), 24
            while True:
                a, n, o, _ = img.xattr_loc(ino, off)
                if not any(img.xattr_loc(ino, off + k)[1][img.xattr_loc(ino, off + k)[2]] for k in range(4)):
                    break
                nlen = n[o + 1]
                vlo = img.xattr_loc(ino, off + 2)
                vhi = img.xattr_loc(ino, off + 3)
                vlen = vlo[1][vlo[2]] | vhi[1][vhi[2]] << 8
                off += (4 + nlen + vlen + 3) & ~3
            print(off)
    else:
        raise SystemExit('damage.py: unknown action %s' % act)


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    img = Img(sys.argv[1])
    acts, cur = [], []
    for a in sys.argv[2:]:
        if a == '--':
            acts.append(cur)
            cur = []
        else:
            cur.append(a)
    if cur:
        acts.append(cur)
    for a in acts:
        run(img, a)
        img.f.flush()
        img.pick_cp()
    return 0


if __name__ == '__main__':
    sys.exit(main())
