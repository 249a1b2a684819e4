#!/usr/bin/env python3
"""Read-only helpers for the peer/cli tests: parse the on-disk F2FS
superblock and checkpoint of an image file and compare two images.

Usage:
  f2fsimg.py sbdiff A B          superblocks, field by field (not version strings)
  f2fsimg.py cpdiff A B          checkpoint block of pack 1 (not version, CRC)
  f2fsimg.py compare A B         sbdiff, cpdiff and metadiff
  f2fsimg.py batch LIST          compare each "label<TAB>A<TAB>B" line of LIST
                                 and print PASS:/FAIL: lines
  f2fsimg.py metadiff A B        the other metadata mkfs writes (see cmd_metadiff)
  f2fsimg.py same A B            two (sparse) files have the same bytes
  f2fsimg.py rootinode IMG       byte offset of the root inode's node block
  f2fsimg.py field IMG NAME      one superblock/checkpoint field (sb.X / cp.X)
  f2fsimg.py reformat IMG FRESH  IMG was formatted over old data, FRESH the
                                 same way (-r -U -T) over zeros: check that
                                 IMG holds no stale metadata (see below)
Exit status: 0 same/ok, 1 differences found, 2 usage or read error.
"""
import os
import struct
import sys
import zlib

BLK = 4096
SB_OFF = 1024
SB_SIZE = 3072
F2FS_MAGIC = 0xF2F52010

# (name, offset, struct format) of f2fs_super_block (f2fs-tools 1.15 layout).
SB_FIELDS = [
    ("magic", 0, "<I"), ("major_ver", 4, "<H"), ("minor_ver", 6, "<H"),
    ("log_sectorsize", 8, "<I"), ("log_sectors_per_block", 12, "<I"),
    ("log_blocksize", 16, "<I"), ("log_blocks_per_seg", 20, "<I"),
    ("segs_per_sec", 24, "<I"), ("secs_per_zone", 28, "<I"),
    ("checksum_offset", 32, "<I"), ("block_count", 36, "<Q"),
    ("section_count", 44, "<I"), ("segment_count", 48, "<I"),
    ("segment_count_ckpt", 52, "<I"), ("segment_count_sit", 56, "<I"),
    ("segment_count_nat", 60, "<I"), ("segment_count_ssa", 64, "<I"),
    ("segment_count_main", 68, "<I"), ("segment0_blkaddr", 72, "<I"),
    ("cp_blkaddr", 76, "<I"), ("sit_blkaddr", 80, "<I"),
    ("nat_blkaddr", 84, "<I"), ("ssa_blkaddr", 88, "<I"),
    ("main_blkaddr", 92, "<I"), ("root_ino", 96, "<I"),
    ("node_ino", 100, "<I"), ("meta_ino", 104, "<I"),
    ("uuid", 108, "16s"), ("volume_name", 124, "1024s"),
    ("extension_count", 1148, "<I"), ("extension_list", 1152, "512s"),
    ("cp_payload", 1664, "<I"),
    # version 1668..1923 and init_version 1924..2179 are not compared
    ("feature", 2180, "<I"), ("encryption_level", 2184, "B"),
    ("encrypt_pw_salt", 2185, "16s"), ("devs", 2201, "544s"),
    ("qf_ino", 2745, "<3I"), ("hot_ext_count", 2757, "B"),
    ("s_encoding", 2758, "<H"), ("s_encoding_flags", 2760, "<H"),
    ("reserved", 2762, "306s"), ("crc", 3068, "<I"),
]
SB_VERSION_RANGE = (1668, 2180)
FEATURE_SB_CHKSUM = 0x0800

CP_FIELDS = [
    ("checkpoint_ver", 0, "<Q"), ("user_block_count", 8, "<Q"),
    ("valid_block_count", 16, "<Q"), ("rsvd_segment_count", 24, "<I"),
    ("overprov_segment_count", 28, "<I"), ("free_segment_count", 32, "<I"),
    ("cur_node_segno", 36, "<8I"), ("cur_node_blkoff", 68, "<8H"),
    ("cur_data_segno", 84, "<8I"), ("cur_data_blkoff", 116, "<8H"),
    ("ckpt_flags", 132, "<I"), ("cp_pack_total_block_count", 136, "<I"),
    ("cp_pack_start_sum", 140, "<I"), ("valid_node_count", 144, "<I"),
    ("valid_inode_count", 148, "<I"), ("next_free_nid", 152, "<I"),
    ("sit_ver_bitmap_bytesize", 156, "<I"),
    ("nat_ver_bitmap_bytesize", 160, "<I"), ("checksum_offset", 164, "<I"),
    ("elapsed_time", 168, "<Q"), ("alloc_type", 176, "16s"),
]


def die(msg):
    sys.stderr.write("f2fsimg: %s\n" % msg)
    sys.exit(2)


def read_at(path, off, size):
    with open(path, "rb") as f:
        f.seek(off)
        data = f.read(size)
    if len(data) != size:
        die("%s: short read at %d" % (path, off))
    return data


def unpack_fields(fields, raw):
    out = {}
    for name, off, fmt in fields:
        v = struct.unpack_from(fmt, raw, off)
        out[name] = v[0] if len(v) == 1 else v
    return out


class Image:
    def __init__(self, path):
        self.path = path
        self.sb_raw = read_at(path, SB_OFF, SB_SIZE)
        self.sb = unpack_fields(SB_FIELDS, self.sb_raw)
        if self.sb["magic"] != F2FS_MAGIC:
            die("%s: no F2FS superblock" % path)
        self.blocks_per_seg = 1 << self.sb["log_blocks_per_seg"]

    def block(self, blkaddr, count=1):
        return read_at(self.path, blkaddr * BLK, count * BLK)

    def cp_raw(self, pack):
        """First block of checkpoint pack 1 or 2."""
        addr = self.sb["cp_blkaddr"] + (pack - 1) * self.blocks_per_seg
        return self.block(addr)

    def cp(self, pack):
        return unpack_fields(CP_FIELDS, self.cp_raw(pack))


def fmt_val(v):
    if isinstance(v, bytes):
        s = v.rstrip(b"\0")
        return s.hex() if len(s) <= 32 else "%s... (%d bytes)" % (s[:32].hex(), len(s))
    return repr(v)


def diff_fields(fields, a, b, ra, rb, skip):
    diffs = []
    for name, off, fmt in fields:
        if name in skip:
            continue
        if a[name] != b[name]:
            diffs.append("%s: ours=%s theirs=%s" % (name, fmt_val(a[name]), fmt_val(b[name])))
    return diffs


def cmd_sbdiff(pa, pb):
    a, b = Image(pa), Image(pb)
    skip = set()
    if (a.sb["feature"] & FEATURE_SB_CHKSUM) or (b.sb["feature"] & FEATURE_SB_CHKSUM):
        skip.add("crc")   # covers the version strings, which may differ
    diffs = diff_fields(SB_FIELDS, a.sb, b.sb, a.sb_raw, b.sb_raw, skip)
    for d in diffs:
        print("sb " + d)
    return 1 if diffs else 0


# Counters f2fs-tools 1.15 derives from the segments of a partial last
# zone, which the main area does not contain; we count the main area only
# (its free_segment_count would exceed the segments that exist).
PARTIAL_ZONE_FIELDS = ("rsvd_segment_count", "overprov_segment_count",
                       "free_segment_count", "user_block_count")


def partial_zone(img):
    dev_blocks = os.path.getsize(img.path) // BLK
    dev_segs = (dev_blocks - img.sb["segment0_blkaddr"]) // img.blocks_per_seg
    return dev_segs != img.sb["segment_count"]


def cmd_cpdiff(pa, pb):
    a, b = Image(pa), Image(pb)
    ra, rb = a.cp_raw(1), b.cp_raw(1)
    ca, cb = unpack_fields(CP_FIELDS, ra), unpack_fields(CP_FIELDS, rb)
    skip_fields = {"checkpoint_ver"}
    if partial_zone(b):
        skip_fields.update(PARTIAL_ZONE_FIELDS)
        for f in PARTIAL_ZONE_FIELDS:
            if ca[f] != cb[f]:
                print("accepted: cp %s: ours=%s theirs=%s (f2fs-tools counts the "
                      "partial last zone)" % (f, ca[f], cb[f]))
    diffs = diff_fields(CP_FIELDS, ca, cb, ra, rb, skip_fields)
    # The rest of the block: the version bitmaps, and the CRC wherever
    # checksum_offset puts it (4092, or 192 with a large NAT bitmap).
    skip = set()
    for c in (ca, cb):
        off = c["checksum_offset"]
        if off <= BLK - 4:
            skip.update(range(off, off + 4))
    tail = [i for i in range(192, BLK) if i not in skip and ra[i] != rb[i]]
    if tail:
        diffs.append("cp bytes 192..4095: %d differ, first at %d (ours %02x theirs %02x)"
                     % (len(tail), tail[0], ra[tail[0]], rb[tail[0]]))
    for d in diffs:
        print("cp " + d)
    return 1 if diffs else 0


def root_inode_offset(img):
    """Byte offset of the root inode: the NAT entry of root_ino, found in
    the checkpoint's NAT journal or the valid NAT block."""
    root = img.sb["root_ino"]
    # Search the current hot node segment of the valid checkpoint pack
    # for the node block whose footer says nid == ino == root_ino.
    best = None
    for pack in (1, 2):
        c = img.cp(pack)
        if best is None or c["checkpoint_ver"] > best["checkpoint_ver"]:
            best = c
    seg = best["cur_node_segno"][0]
    start = img.sb["main_blkaddr"] + seg * img.blocks_per_seg
    data = img.block(start, img.blocks_per_seg)
    for i in range(img.blocks_per_seg):
        nid, ino = struct.unpack_from("<II", data, i * BLK + BLK - 24)
        if nid == root and ino == root:
            return (start + i) * BLK
    die("%s: root inode not found in hot node segment %d" % (img.path, seg))


def f2fs_crc(data, seed=F2FS_MAGIC):
    """f2fs_cal_crc32: CRC-32 (reflected 0xEDB88320), initial value = seed,
    no final inversion."""
    return (~zlib.crc32(data, ~seed & 0xFFFFFFFF)) & 0xFFFFFFFF


def cp_valid(blk):
    """(valid, version) of a checkpoint block."""
    off = struct.unpack_from("<I", blk, 164)[0]
    if off < 192 or off > BLK - 4:
        return False, None
    crc = struct.unpack_from("<I", blk, off)[0]
    return f2fs_crc(blk[:off]) == crc, struct.unpack_from("<Q", blk, 0)[0]


def data_extents(path):
    """(start, end) byte ranges holding data (SEEK_DATA/SEEK_HOLE)."""
    out = []
    with open(path, "rb") as f:
        fd = f.fileno()
        end = os.fstat(fd).st_size
        pos = 0
        while pos < end:
            try:
                start = os.lseek(fd, pos, os.SEEK_DATA)
            except OSError:
                break
            stop = os.lseek(fd, start, os.SEEK_HOLE)
            out.append((start, stop))
            pos = stop
    return out


def masked_diff(x, y, masks):
    """Offsets where x and y differ outside the (start, end) masks."""
    out = []
    for i in range(len(x)):
        if x[i] != y[i] and not any(s <= i < e for s, e in masks):
            out.append(i)
    return out


S_IFMT, S_IFREG = 0o170000, 0o100000
NODE_COLD = 0x1          # node footer flag: cold node (set for non-directories)
I_CTIME, I_EXT_BLK, I_ADDR = 40, 352, 360     # f2fs_inode offsets
I_CRTIME, I_CHKSUM = 372, 368                 # extra attributes
INLINE_DATA, INLINE_DENTRY, EXTRA_ATTR = 0x02, 0x04, 0x20
FEATURE_INODE_CHKSUM = 0x20
CP_COMPACT_SUM = 0x4
CP_NAT_BITS = 0x80
SUM_JOURNAL_SIZE = 507
SUM_ENTRY = 7
SUM_FOOTER = 5
NAT_ENTRY = 9
SIT_ENTRY = 74
NULL_ADDR, NEW_ADDR = 0, 0xFFFFFFFF
QT_BLK = 1024
QT_DEPTH = 4
DQ_SIZE = 72                 # struct v2r1_disk_dqblk
DQ_HDR = 16                  # struct qt_disk_dqdbheader


class View:
    """What the first checkpoint pack says, independent of where mkfs put
    each block: the NAT (NAT block overlaid by the journal), the SIT (SIT
    blocks overlaid by the journal), the summaries of the current logs, and
    the node and data blocks reachable from the NAT."""

    def __init__(self, img):
        self.img = img
        sb = self.sb = img.sb
        cp = self.cp = img.cp(1)
        self.bps = img.blocks_per_seg
        self.main = sb["main_blkaddr"]
        self._summaries()
        self._nat()
        self._sit()
        self._files()

    def _summaries(self):
        img, cp, sb = self.img, self.cp, self.sb
        start = sb["cp_blkaddr"] + cp["cp_pack_start_sum"]
        total = cp["cp_pack_total_block_count"]
        self.data_sums = []
        if cp["ckpt_flags"] & CP_COMPACT_SUM:
            blk = img.block(start)
            nat_j, sit_j = blk[:SUM_JOURNAL_SIZE], blk[SUM_JOURNAL_SIZE:2 * SUM_JOURNAL_SIZE]
            off, b = 2 * SUM_JOURNAL_SIZE, 0
            for t in range(3):
                ents = []
                for _ in range(cp["cur_data_blkoff"][t]):
                    ents.append(struct.unpack_from("<IBH", blk, off))
                    off += SUM_ENTRY
                    if off + SUM_ENTRY > BLK - SUM_FOOTER:
                        b += 1
                        blk = img.block(start + b)
                        off = 0
                self.data_sums.append(ents)
        else:
            blocks = [img.block(start + t) for t in range(3)]
            nat_j = blocks[0][512 * SUM_ENTRY:512 * SUM_ENTRY + SUM_JOURNAL_SIZE]
            sit_j = blocks[2][512 * SUM_ENTRY:512 * SUM_ENTRY + SUM_JOURNAL_SIZE]
            for t in range(3):
                self.data_sums.append([struct.unpack_from("<IBH", blocks[t], i * SUM_ENTRY)
                                       for i in range(cp["cur_data_blkoff"][t])])
        # node summaries: the three blocks before the closing checkpoint block
        self.node_sums = []
        for t in range(3):
            blk = img.block(sb["cp_blkaddr"] + total - 4 + t)
            self.node_sums.append([struct.unpack_from("<IBH", blk, i * SUM_ENTRY)
                                   for i in range(cp["cur_node_blkoff"][t])])
        n = struct.unpack_from("<H", nat_j, 0)[0]
        self.nat_journal = {}
        for i in range(min(n, 38)):
            nid, ver, ino, addr = struct.unpack_from("<IBII", nat_j, 2 + 13 * i)
            self.nat_journal[nid] = (ver, ino, addr)
        n = struct.unpack_from("<H", sit_j, 0)[0]
        self.sit_journal = {}
        for i in range(min(n, 6)):
            segno = struct.unpack_from("<I", sit_j, 2 + 78 * i)[0]
            self.sit_journal[segno] = sit_j[6 + 78 * i:6 + 78 * i + SIT_ENTRY]

    def _nat(self):
        """nid -> (version, ino, blkaddr) for every nid below next_free_nid
        with an entry, from NAT copy 1 (mkfs leaves the version bitmap 0)."""
        per = BLK // NAT_ENTRY
        self.nat = {}
        self.nat_blocks = set()
        for nid in range(self.cp["next_free_nid"]):
            addr = self.sb["nat_blkaddr"] + nid // per
            if nid % per == 0 or nid == 0:
                blk = self.img.block(addr)
                self.nat_blocks.add(addr)
            e = struct.unpack_from("<BII", blk, (nid % per) * NAT_ENTRY)
            if nid in self.nat_journal:
                e = self.nat_journal[nid]
            if any(e):
                self.nat[nid] = e

    def _sit(self):
        """segno -> 74-byte SIT entry for the current segments and any
        segment in the journal."""
        per = BLK // SIT_ENTRY
        segs = set(self.cp["cur_node_segno"][:3]) | set(self.cp["cur_data_segno"][:3])
        segs |= set(self.sit_journal)
        self.sit = {}
        self.sit_blocks = set()
        for s in sorted(segs):
            addr = self.sb["sit_blkaddr"] + s // per
            self.sit_blocks.add(addr)
            e = self.img.block(addr)[(s % per) * SIT_ENTRY:(s % per + 1) * SIT_ENTRY]
            self.sit[s] = self.sit_journal.get(s, e)

    def _files(self):
        """Node blocks by nid, and the data block addresses of each inode."""
        self.nodes = {}      # nid -> (blkaddr, bytes)
        self.data = {}       # nid -> [blkaddr per index]
        self.addr_slots = {}  # nid -> (first byte, end byte) of the i_addr in use
        for nid, (ver, ino, addr) in self.nat.items():
            if addr in (NULL_ADDR, NEW_ADDR) or addr < self.main:
                continue
            node = self.img.block(addr)
            self.nodes[nid] = (addr, node)
            f_nid, f_ino = struct.unpack_from("<II", node, BLK - 24)
            if f_nid != f_ino:
                continue    # not an inode (mkfs writes none)
            inline = node[3]
            if inline & (INLINE_DATA | INLINE_DENTRY):
                self.data[nid] = []
                continue
            first = struct.unpack_from("<H", node, I_ADDR)[0] // 4 if inline & EXTRA_ATTR else 0
            size = struct.unpack_from("<Q", node, 16)[0]
            nblk = min((size + BLK - 1) // BLK, 923 - first)
            self.data[nid] = list(struct.unpack_from("<%dI" % nblk, node, I_ADDR + 4 * first))
            self.addr_slots[nid] = (I_ADDR + 4 * first, I_ADDR + 4 * (first + nblk))

    def referenced(self):
        """Main-area block addresses the view accounts for."""
        out = set(a for a, _ in self.nodes.values())
        for addrs in self.data.values():
            out.update(a for a in addrs if a not in (NULL_ADDR, NEW_ADDR))
        return out


def quota_file(view, ino):
    node = view.nodes[ino][1]
    size = struct.unpack_from("<Q", node, 16)[0]
    return b"".join(view.img.block(a) if a not in (NULL_ADDR, NEW_ADDR) else bytes(BLK)
                    for a in view.data.get(ino, []))[:size]


def qtree_entries(data):
    """{dquot id: 72-byte record} found by walking the whole tree."""
    found = {}

    def walk(blk, depth):
        refs = struct.unpack_from("<256I", data, blk * QT_BLK)
        for r in refs:
            if not r:
                continue
            if depth < QT_DEPTH - 1:
                walk(r, depth + 1)
            else:
                base = r * QT_BLK + DQ_HDR
                for k in range((QT_BLK - DQ_HDR) // DQ_SIZE):
                    rec = data[base + k * DQ_SIZE:base + (k + 1) * DQ_SIZE]
                    if rec != bytes(DQ_SIZE):
                        found[struct.unpack_from("<I", rec)[0]] = rec
    walk(1, 0)
    return found


def qtree_lookup(data, qid):
    """The record for qid by the path its id gives (as the kernel looks)."""
    blk = 1
    for depth in range(QT_DEPTH):
        idx = (qid >> ((QT_DEPTH - depth - 1) * 8)) & 0xFF
        blk = struct.unpack_from("<I", data, blk * QT_BLK + 4 * idx)[0]
        if not blk:
            return None
    base = blk * QT_BLK + DQ_HDR
    for k in range((QT_BLK - DQ_HDR) // DQ_SIZE):
        rec = data[base + k * DQ_SIZE:base + (k + 1) * DQ_SIZE]
        if rec != bytes(DQ_SIZE) and struct.unpack_from("<I", rec)[0] == qid:
            return rec
    return None


def compare_quota_file(ino, xa, xb, diffs, accepted):
    """The same records (by a walk of the whole tree), each found in ours
    by the path of its id."""
    if xa == xb:
        return
    if len(xa) != len(xb) or xa[:QT_BLK] != xb[:QT_BLK]:
        diffs.append("quota file (inode %d): size or header differs (ours %d bytes, theirs %d)"
                     % (ino, len(xa), len(xb)))
        return
    ea, eb = qtree_entries(xa), qtree_entries(xb)
    if ea != eb:
        diffs.append("quota file (inode %d): records differ: ours ids %s, theirs ids %s"
                     % (ino, sorted(ea), sorted(eb)))
        return
    lost = [q for q in ea if qtree_lookup(xa, q) != ea[q]]
    if lost:
        diffs.append("quota file (inode %d): ids %s not found by their tree path in ours" % (ino, lost))
        return
    wrong = [q for q in eb if qtree_lookup(xb, q) != eb[q]]
    accepted.append("quota file (inode %d): same records; f2fs-tools files id(s) %s under "
                    "another id's tree path, ours under their own" % (ino, wrong))


def cmd_metadiff(pa, pb):
    """Everything else mkfs writes, compared by meaning rather than by
    position (assuming sbdiff and cpdiff found the same layout):
      - checkpoint pack 1: the payload blocks, the closing checkpoint block
        (but its version and CRC), the nat_bits blocks (but the header,
        derived from the version);
      - pack 2's opening and closing checkpoint blocks (but version, CRC);
      - the NAT (NAT block overlaid by the checkpoint's journal): each nid's
        version, inode and segment;
      - the SIT (overlaid by the journal) of the current segments;
      - the summaries of the current logs, as sets of (nid, version, offset);
      - each node block, found by nid, but the footer's checkpoint version
        and next block, the inode checksum, and the block addresses; each
        data block, found by (inode, index); quota files as files;
      - every other block before and in the main area that either image
        holds data in, byte for byte (NAT/SIT copy 2, SSA, zeroed blocks).
    Accepted differences (printed as "accepted:", not failures), where
    f2fs-tools 1.15 differs from what the kernel itself writes, or where the
    choice does not matter:
      - blocks in another order within their segment (nodes, data);
      - NAT entries in the NAT block, the journal or both (same values);
      - pack 2's version: f2fs-tools writes 0, we pack 1's version - 1;
      - the cold-node flag in the footer of regular-file inodes (quota
        files): the kernel sets it for every non-directory node;
      - i_crtime of inodes other than the root (quota files, lost+found):
        f2fs-tools leaves it 0, we set it to the creation time (= i_ctime);
      - quota files with the same records whose tree differs, when each of
        our records is where its id leads (f2fs-tools 1.15 files a non-zero
        id, as with -R 1000:1000, under the path of id 0, where the kernel
        will not find it).
    Pack 2's summary and nat_bits blocks are not compared: f2fs-tools
    leaves them unwritten."""
    a, b = Image(pa), Image(pb)
    va, vb = View(a), View(b)
    sb, bps, main = a.sb, a.blocks_per_seg, a.sb["main_blkaddr"]
    ca, cb = va.cp, vb.cp
    diffs, accepted = [], []
    total = ca["cp_pack_total_block_count"]

    # checkpoint packs
    cp_masks = [(0, 8)] + [(c["checksum_offset"], c["checksum_offset"] + 4) for c in (ca, cb)]
    if partial_zone(b):   # see cmd_cpdiff: accepted there
        cp_masks += [(off, off + struct.calcsize(fmt)) for name, off, fmt in CP_FIELDS
                     if name in PARTIAL_ZONE_FIELDS]
    nb_blocks = ((sb["segment_count_nat"] // 2 * bps) // 8 * 2 + 8 + BLK - 1) // BLK
    checked = set()
    p1 = sb["cp_blkaddr"]
    for i in list(range(1, 1 + sb["cp_payload"])) + [total - 1]:
        masks = cp_masks if i == total - 1 else []
        d = masked_diff(a.block(p1 + i), b.block(p1 + i), masks)
        if d:
            diffs.append("pack 1 block %d (%s): %d bytes differ, first at %d"
                         % (i, "closing checkpoint" if i == total - 1 else "payload", len(d), d[0]))
    checked.update(range(p1, p1 + total))
    if ca["ckpt_flags"] & CP_NAT_BITS:
        for i in range(bps - nb_blocks, bps):
            d = masked_diff(a.block(p1 + i), b.block(p1 + i), [(0, 8)] if i == bps - nb_blocks else [])
            if d:
                diffs.append("pack 1 nat_bits block %d: %d bytes differ, first at %d" % (i, len(d), d[0]))
        checked.update(range(p1 + bps - nb_blocks, p1 + bps))
    p2 = p1 + bps
    for i in (0, total - 1):
        x, y = a.block(p2 + i), b.block(p2 + i)
        d = masked_diff(x, y, cp_masks)
        if d:
            diffs.append("pack 2 checkpoint block %d: %d bytes differ, first at %d" % (i, len(d), d[0]))
        elif x != y:
            accepted.append("pack 2 checkpoint block %d: version ours %d, theirs %d"
                            % (i, struct.unpack_from("<Q", x)[0], struct.unpack_from("<Q", y)[0]))
    checked.update(range(p2, p2 + bps))   # the rest of pack 2: see above

    # NAT
    for nid in sorted(set(va.nat) | set(vb.nat)):
        ea, eb = va.nat.get(nid), vb.nat.get(nid)
        if ea is None or eb is None:
            diffs.append("NAT nid %d: only in %s" % (nid, "ours" if eb is None else "theirs"))
            continue
        seg = lambda e: (e[2] - main) // bps if e[2] >= main else e[2]
        if ea[:2] != eb[:2] or seg(ea) != seg(eb):
            diffs.append("NAT nid %d: ours (version, ino, blkaddr) %s, theirs %s" % (nid, ea, eb))
    if set(va.nat_journal) != set(vb.nat_journal):
        accepted.append("NAT journal holds nids %s in ours, %s in theirs (the NAT they make is the same)"
                        % (sorted(va.nat_journal), sorted(vb.nat_journal)))
    checked |= va.nat_blocks | vb.nat_blocks

    # SIT
    for s in sorted(set(va.sit) | set(vb.sit)):
        if va.sit.get(s) != vb.sit.get(s):
            x, y = va.sit.get(s) or bytes(SIT_ENTRY), vb.sit.get(s) or bytes(SIT_ENTRY)
            diffs.append("SIT segment %d: vblocks/type ours %#x theirs %#x, bitmap %s"
                         % (s, struct.unpack_from("<H", x)[0], struct.unpack_from("<H", y)[0],
                            "same" if x[2:66] == y[2:66] else "differs"))
    checked |= va.sit_blocks | vb.sit_blocks

    # summaries of the current logs
    order = False
    for kind, xs, ys in (("data", va.data_sums, vb.data_sums), ("node", va.node_sums, vb.node_sums)):
        for t in range(3):
            if sorted(xs[t]) != sorted(ys[t]):
                diffs.append("%s log %d summary: ours %s, theirs %s" % (kind, t, xs[t][:6], ys[t][:6]))
            elif xs[t] != ys[t]:
                order = True

    # node blocks by nid, data blocks by (inode, index)
    chksum = bool(sb["feature"] & FEATURE_INODE_CHKSUM)
    quota = set(q for q in sb["qf_ino"] if q)
    for nid in sorted(set(va.nodes) | set(vb.nodes)):
        if nid not in va.nodes or nid not in vb.nodes:
            continue        # reported with the NAT
        (xa, x), (xb, y) = va.nodes[nid], vb.nodes[nid]
        if xa != xb:
            order = True
        masks = [(4084, BLK), (I_EXT_BLK, I_EXT_BLK + 4)]   # footer cp_ver, next_blkaddr
        notes = []
        if nid in va.addr_slots:
            masks.append(va.addr_slots[nid])
        if nid in vb.addr_slots:
            masks.append(vb.addr_slots[nid])
        f_nid, f_ino = struct.unpack_from("<II", x, BLK - 24)
        is_inode = f_nid == f_ino
        if chksum and is_inode:
            masks.append((I_CHKSUM, I_CHKSUM + 4))
        mode = struct.unpack_from("<H", x, 0)[0]
        if is_inode and (mode & S_IFMT) == S_IFREG and x[4080] ^ y[4080] == NODE_COLD \
           and x[4080] & NODE_COLD:
            masks.append((4080, 4081))
            notes.append("cold flag")
        if is_inode and nid != sb["root_ino"] and y[I_CRTIME:I_CRTIME + 12] == bytes(12) \
           and x[I_CRTIME:I_CRTIME + 8] == x[I_CTIME:I_CTIME + 8] and x[3] & EXTRA_ATTR:
            masks.append((I_CRTIME, I_CRTIME + 12))
            notes.append("i_crtime")
        d = masked_diff(x, y, masks)
        if d:
            diffs.append("node of nid %d: %d bytes differ, first at %d (ours %02x theirs %02x)"
                         % (nid, len(d), d[0], x[d[0]], y[d[0]]))
        elif notes:
            accepted.append("inode %d: %s" % (nid, ", ".join(notes)))
        da, db = va.data.get(nid, []), vb.data.get(nid, [])
        if nid in quota:
            compare_quota_file(nid, quota_file(va, nid), quota_file(vb, nid), diffs, accepted)
            continue
        if len(da) != len(db):
            diffs.append("inode %d: %d data blocks in ours, %d in theirs" % (nid, len(da), len(db)))
            continue
        for i, (pa_, pb_) in enumerate(zip(da, db)):
            if (pa_ in (NULL_ADDR, NEW_ADDR)) != (pb_ in (NULL_ADDR, NEW_ADDR)):
                diffs.append("inode %d block %d: a hole in only one" % (nid, i))
            elif pa_ not in (NULL_ADDR, NEW_ADDR):
                if pa_ != pb_:
                    order = True
                d = masked_diff(a.block(pa_), b.block(pb_), [])
                if d:
                    diffs.append("inode %d data block %d: %d bytes differ, first at %d"
                                 % (nid, i, len(d), d[0]))
    if order:
        accepted.append("node or data blocks in another order within their segments")

    # every other block that holds data in either image
    skip = checked | va.referenced() | vb.referenced()
    areas = [("superblock area", 0), ("checkpoint area", sb["cp_blkaddr"]),
             ("SIT", sb["sit_blkaddr"]), ("NAT", sb["nat_blkaddr"]),
             ("SSA", sb["ssa_blkaddr"]), ("main area", main)]
    ranges = []
    for s0, e0 in sorted(data_extents(pa) + data_extents(pb)):
        s0, e0 = max(s0 // BLK, sb["cp_blkaddr"]), (e0 + BLK - 1) // BLK
        if s0 >= e0:
            continue
        if ranges and s0 <= ranges[-1][1]:
            ranges[-1][1] = max(ranges[-1][1], e0)
        else:
            ranges.append([s0, e0])
    other = {}
    CH = 256
    with open(pa, "rb") as fa, open(pb, "rb") as fb:
        for r0, r1 in ranges:
            for c0 in range(r0, r1, CH):
                n = min(CH, r1 - c0)
                fa.seek(c0 * BLK)
                fb.seek(c0 * BLK)
                xa, xb = fa.read(n * BLK), fb.read(n * BLK)
                if xa == xb:
                    continue
                xa, xb = xa.ljust(n * BLK, b"\0"), xb.ljust(n * BLK, b"\0")
                for k in range(n):
                    blk = c0 + k
                    if blk in skip or xa[k * BLK:(k + 1) * BLK] == xb[k * BLK:(k + 1) * BLK]:
                        continue
                    name = [nm for nm, st in areas if blk >= st][-1]
                    other.setdefault(name, []).append(blk)
    for name, blks in other.items():
        diffs.append("%s: %d other blocks differ, first %d" % (name, len(blks), blks[0]))

    for d in accepted:
        print("accepted: " + d)
    for d in diffs[:20]:
        print("meta " + d)
    if len(diffs) > 20:
        print("meta ... %d more" % (len(diffs) - 20))
    return 1 if diffs else 0


def cmd_same(pa, pb):
    """cmp for sparse files: only the data extents of either are read."""
    sa, sb_ = os.path.getsize(pa), os.path.getsize(pb)
    if sa != sb_:
        print("sizes differ: %d and %d" % (sa, sb_))
        return 1
    ranges = sorted(data_extents(pa) + data_extents(pb))
    with open(pa, "rb") as fa, open(pb, "rb") as fb:
        for start, stop in ranges:
            pos = start
            while pos < stop:
                n = min(stop - pos, 1 << 20)
                fa.seek(pos)
                fb.seek(pos)
                x, y = fa.read(n), fb.read(n)
                if x != y:
                    i = next(k for k in range(n) if x[k] != y[k])
                    print("differ at byte %d (block %d)" % (pos + i, (pos + i) // BLK))
                    return 1
                pos += n
    return 0


def cmd_reformat(path, fresh_path):
    """Checks for an image formatted over an old file system (or junk):
      - pack 1 is a valid checkpoint, the same as a fresh format's;
      - checkpoint pack 2 cannot win: no block in it is a valid checkpoint
        with a version >= pack 1's, and it reads as in a fresh format;
      - NAT copy 1: block 0 as in a fresh format, every other block zero;
      - SIT copy 1: all zero;
      - every metadata block before the main area reads as in a fresh
        format (superblock blocks, both SIT/NAT copies, SSA);
      - main area: the blocks a fresh format writes read the same, and the
        next free block of the warm node log (where roll-forward recovery
        would look for fsync'd node blocks) is zero.
    """
    img, fresh = Image(path), Image(fresh_path)
    sb = img.sb
    bad = []
    ok = []

    def check(cond, what):
        (ok if cond else bad).append(what)

    check(img.sb_raw == fresh.sb_raw, "superblock equals a fresh format's")
    bps = img.blocks_per_seg
    cp1 = img.cp_raw(1)
    v1ok, v1 = cp_valid(cp1)
    check(v1ok and cp1 == fresh.cp_raw(1), "pack 1 is a valid checkpoint (version %s), as in a fresh format" % v1)

    # pack 2: no valid checkpoint that could be chosen instead of pack 1
    p2 = sb["cp_blkaddr"] + bps
    pack2 = img.block(p2, bps)
    winners = []
    for i in range(bps):
        valid, ver = cp_valid(pack2[i * BLK:(i + 1) * BLK])
        if valid and v1 is not None and ver >= v1:
            winners.append((i, ver))
    check(not winners, "pack 2 holds no valid checkpoint at or above pack 1's version%s"
          % ("" if not winners else " (found %s)" % winners[:4]))
    check(pack2 == fresh.block(p2, bps), "pack 2 reads as in a fresh format")

    zero = bytes(BLK)
    nat_half = sb["segment_count_nat"] // 2 * bps
    sit_half = sb["segment_count_sit"] // 2 * bps
    nat = img.block(sb["nat_blkaddr"], nat_half)
    nz = [i for i in range(1, nat_half) if nat[i * BLK:(i + 1) * BLK] != zero]
    check(nat[:BLK] == fresh.block(sb["nat_blkaddr"]),
          "NAT copy 1 block 0 as in a fresh format")
    check(not nz, "NAT copy 1 blocks 1..%d all zero%s" % (nat_half - 1, "" if not nz else
          " (%d are not, first %d)" % (len(nz), nz[0])))
    sit = img.block(sb["sit_blkaddr"], sit_half)
    nz = [i for i in range(sit_half) if sit[i * BLK:(i + 1) * BLK] != zero]
    check(not nz, "SIT copy 1 all zero%s" % ("" if not nz else
          " (%d blocks are not, first %d)" % (len(nz), nz[0])))

    # every block before the main area
    areas = [("superblock/unused", 0), ("checkpoint", sb["cp_blkaddr"]),
             ("SIT", sb["sit_blkaddr"]), ("NAT", sb["nat_blkaddr"]),
             ("SSA", sb["ssa_blkaddr"]), ("main", sb["main_blkaddr"])]
    main = sb["main_blkaddr"]
    diff = {}
    with open(path, "rb") as fa, open(fresh_path, "rb") as fb:
        for b in range(main):
            x, y = fa.read(BLK), fb.read(BLK)
            if x != y:
                name = [n for n, start in areas if b >= start][-1]
                diff.setdefault(name, []).append(b)
    check(not diff, "metadata before the main area reads as in a fresh format%s" % (
          "" if not diff else ": differs in " + ", ".join(
              "%s (%d blocks, first %d)" % (n, len(v), v[0]) for n, v in diff.items())))

    # main area: the blocks a fresh format writes
    written = 0
    mdiff = []
    with open(path, "rb") as fa, open(fresh_path, "rb") as fb:
        for start, stop in data_extents(fresh_path):
            for off in range(max(start, main * BLK) // BLK * BLK, stop, BLK):
                fb.seek(off)
                y = fb.read(BLK)
                if y == zero:
                    continue
                written += 1
                fa.seek(off)
                if fa.read(BLK) != y:
                    mdiff.append(off // BLK)
    check(not mdiff, "the %d main-area blocks a fresh format writes read the same%s" % (
          written, "" if not mdiff else " (%d differ, first %d)" % (len(mdiff), mdiff[0])))
    c = img.cp(1)
    warm = main + c["cur_node_segno"][1] * bps + c["cur_node_blkoff"][1]
    check(img.block(warm) == zero, "next free warm node block (%d) is zero" % warm)

    for m in ok:
        print("ok: " + m)
    for m in bad:
        print("BAD: " + m)
    return 1 if bad else 0


def cmd_compare(pa, pb):
    rc = cmd_sbdiff(pa, pb)
    rc |= cmd_cpdiff(pa, pb)
    if rc == 0:     # metadata positions depend on the layout
        rc |= cmd_metadiff(pa, pb)
    return rc


def cmd_batch(listfile):
    import io
    import contextlib
    bad = 0
    with open(listfile) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            label, pa, pb = line.split("\t")
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                try:
                    rc = cmd_compare(pa, pb)
                except SystemExit as e:
                    rc = 1
                    print("error: %s" % e)
            out = buf.getvalue().splitlines()
            acc = [l for l in out if l.startswith("accepted: ")]
            rest = [l for l in out if not l.startswith("accepted: ")]
            if rc == 0 and not rest:
                print("PASS: %s: identical%s" % (label, " (%d accepted differences)" % len(acc) if acc else ""))
            else:
                bad += 1
                print("FAIL: %s: %d differences" % (label, len(rest)))
                for l in rest:
                    print("    " + l)
            for l in acc:
                print("    " + l)
            sys.stdout.flush()
    return 1 if bad else 0


def main(argv):
    if len(argv) < 2:
        die(__doc__)
    cmd, args = argv[1], argv[2:]
    if cmd == "sbdiff" and len(args) == 2:
        return cmd_sbdiff(*args)
    if cmd == "cpdiff" and len(args) == 2:
        return cmd_cpdiff(*args)
    if cmd == "compare" and len(args) == 2:
        return cmd_compare(*args)
    if cmd == "batch" and len(args) == 1:
        return cmd_batch(*args)
    if cmd == "metadiff" and len(args) == 2:
        return cmd_metadiff(*args)
    if cmd == "same" and len(args) == 2:
        return cmd_same(*args)
    if cmd == "reformat" and len(args) == 2:
        return cmd_reformat(*args)
    if cmd == "rootinode" and len(args) == 1:
        print(root_inode_offset(Image(args[0])))
        return 0
    if cmd == "field" and len(args) == 2:
        img = Image(args[0])
        kind, _, name = args[1].partition(".")
        src = img.sb if kind == "sb" else img.cp(1) if kind == "cp" else None
        if src is None or name not in src:
            die("unknown field %s" % args[1])
        print(src[name])
        return 0
    die("bad usage\n" + __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
