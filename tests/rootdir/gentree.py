#!/usr/bin/env python3
"""gentree.py: build a deterministic source tree for mkfs.f2fs --rootdir tests.

    gentree.py [--seed N] [--entries N] PROFILE DEST

PROFILE is one of:
  small    many small files: empty, 1 byte, inline-sized (up to ~3.4 KB) and
           the sizes around F2FS's inline-data limits, in nested directories
  bigdir   one directory with --entries names (default 50000) of varied
           length (1..255 bytes, some UTF-8), mostly empty files, some with
           data, hard links, symlinks and subdirectories
  deep     nesting depth 48 with names up to 255 bytes, paths up to ~3800
           bytes (--long-paths: every third name 255 bytes, paths > 8000)
  large    files of 1, 5 and 40 MiB, files ending around the inode's direct
           pointer limits (864/873/923 blocks) and the first direct-node
           boundaries, a 13 MiB file that needs an indirect node, a 3 GiB
           sparse file with data islands and a 9 GiB one with an island past
           the double-indirect boundary (block 2075507)
  special  hard links across directories (also to a symlink and a fifo),
           symlinks (1 to 4095 bytes, dangling), fifo, char and block devices
           with big major/minor numbers, a unix socket, modes 4755/2755/1777/
           000/7777, uids/gids 1000/65534/4000000000/4294967294, times with
           nanoseconds, before 1970 and after 2038
  xattrs   user.* small and large values (past the inline area into an xattr
           node), security.selinux, security.capability, trusted.*, xattrs on
           directories and symlinks, POSIX ACLs (access and default, a large
           one) set with setfacl when present, else written raw
  mixed    all of the above at small scale, one subdirectory each

Everything (names, sizes, contents, owners, modes, atime/mtime) is a
function of the seed and the profile.  ctimes are whatever the host gives.
Atimes are after 2100 (--atime future, the default) so that reading the
tree under relatime never moves them; --atime past makes them older than
the mtimes, as in a real tree.
Needs root for devices, owners and trusted.* xattrs.  Prints a summary line.
"""
import argparse
import hashlib
import os
import random
import shutil
import socket
import stat
import struct
import subprocess
import sys

BLK = 4096
# Default atimes lie after 2100-01-02: later than any mtime and ctime here
# and in the future, so relatime never moves them when mkfs or a manifest
# reads the tree (--atime past gives the atimes a real tree has, older than
# the mtimes: the first read of each file moves them).
FUTURE = 4102531200


class Gen:
    def __init__(self, root, seed, atime="future"):
        self.root = os.path.abspath(root)
        self.seed = seed
        self.atime = atime
        self.rng = random.Random(seed)
        self.times = {}     # relpath -> (atime_ns, mtime_ns); else derived
        self.counts = {}
        self.have_setfacl = shutil.which("setfacl") is not None
        self._cur = None
        self._fd = None

    def count(self, kind, n=1):
        self.counts[kind] = self.counts.get(kind, 0) + n

    # Paths can be longer than PATH_MAX (deep), so everything goes through
    # the parent directory's fd (cached for the last parent used).
    def dirfd(self, parent):
        if parent != self._cur:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
            self._fd = self.open_dir(parent)
            self._cur = parent
        return self._fd

    def open_dir(self, parent):
        fd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY)
        for comp in parent.split("/") if parent else []:
            nfd = os.open(comp, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = nfd
        return fd

    def at(self, rel):
        parent, _, name = rel.rpartition("/")
        return self.dirfd(parent), name

    def proc(self, rel):
        """A short path for calls without *at() variants."""
        fd, name = self.at(rel)
        return "/proc/self/fd/%d/%s" % (fd, name)

    # ---- primitives (paths relative to the root) -------------------------
    def mkdir(self, rel, mode=0o755):
        fd, name = self.at(rel)
        os.mkdir(name, dir_fd=fd)
        os.chmod(name, mode, dir_fd=fd)
        self.count("dirs")

    def data(self, n, rng=None):
        r = rng or self.rng
        return r.randbytes(n) if n else b""

    def text(self, n, rng=None):
        """Compressible but not constant content."""
        r = rng or self.rng
        words = [b"f2fs", b"inode", b"node", b"segment", b"checkpoint",
                 b"dentry", b"xattr", b"\n", b"0123456789", b"data"]
        out = bytearray()
        while len(out) < n:
            out += r.choice(words) + b" "
        return bytes(out[:n])

    def file(self, rel, content=b"", mode=0o644):
        d, name = self.at(rel)
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600, dir_fd=d)
        with os.fdopen(fd, "wb") as f:
            f.write(content)
        os.chmod(name, mode, dir_fd=d)
        self.count("files")
        self.count("bytes", len(content))

    def sparse(self, rel, size, islands):
        """islands: list of (offset, bytes)."""
        d, name = self.at(rel)
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644, dir_fd=d)
        with os.fdopen(fd, "wb") as f:
            for off, b in islands:
                f.seek(off)
                f.write(b)
                self.count("bytes", len(b))
            f.truncate(size)
        self.count("files")
        self.count("sparse")

    def symlink(self, rel, target):
        fd, name = self.at(rel)
        os.symlink(target, name, dir_fd=fd)
        self.count("symlinks")

    def link(self, src, rel):
        sp, _, sname = src.rpartition("/")
        sfd = self.open_dir(sp)
        try:
            fd, name = self.at(rel)
            os.link(sname, name, src_dir_fd=sfd, dst_dir_fd=fd, follow_symlinks=False)
        finally:
            os.close(sfd)
        self.count("hardlinks")

    def mknod(self, rel, mode, dev=0):
        fd, name = self.at(rel)
        os.mknod(name, mode, dev, dir_fd=fd)
        os.chmod(name, mode & 0o7777, dir_fd=fd)
        self.count("fifos" if stat.S_ISFIFO(mode) else "devices")

    def owner(self, rel, uid, gid, mode=None):
        """chown first (it clears set-id bits), then chmod."""
        fd, name = self.at(rel)
        os.chown(name, uid, gid, dir_fd=fd, follow_symlinks=False)
        if mode is not None:
            os.chmod(name, mode, dir_fd=fd)

    def xattr(self, rel, name, value):
        os.setxattr(self.proc(rel), name, value, follow_symlinks=False)
        self.count("xattrs")

    def acl(self, rel, spec, default=False):
        """spec: list of (tag, id, perm) with tag in u g m o (id None for
        the owner/group/other entries)."""
        if self.have_setfacl:
            txt = ",".join("%s:%s:%s" % (t, "" if i is None else i,
                                         "".join(c if perm & b else "-" for c, b in
                                                 (("r", 4), ("w", 2), ("x", 1))))
                           for t, i, perm in spec)
            cmd = ["setfacl", "-m", txt, self.proc(rel)]
            if default:
                cmd.insert(1, "-d")
            subprocess.run(cmd, check=True, pass_fds=(self.at(rel)[0],))
        else:
            tags = {"u": (1, 2), "g": (4, 8), "m": (0x10, 0x10), "o": (0x20, 0x20)}
            ents = []
            for t, i, perm in spec:
                tag = tags[t][0 if i is None else 1]
                ents.append((tag, 0xFFFFFFFF if i is None else int(i), perm))
            ents.sort()
            raw = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", t, p, i)
                                                  for t, i, p in ents)
            name = "system.posix_acl_default" if default else "system.posix_acl_access"
            os.setxattr(self.proc(rel), name, raw, follow_symlinks=False)
        self.count("acls")

    # ---- times ----------------------------------------------------------
    def settime(self, rel, atime_ns, mtime_ns):
        self.times[rel] = (atime_ns, mtime_ns)

    def derived_time(self, rel):
        h = hashlib.sha256(("%d:%s" % (self.seed, rel)).encode(
            "utf-8", "surrogateescape")).digest()
        v = int.from_bytes(h[:16], "little")
        m = 1_000_000_000 + v % 700_000_000
        mns = (v >> 40) % 1_000_000_000
        if self.atime == "future":
            a = FUTURE + (v >> 80) % 10_000_000
        else:
            a = m + (v >> 80) % 10_000_000
        ans = (v >> 100) % 1_000_000_000
        return a * 10**9 + ans, m * 10**9 + mns

    def apply_times(self):
        """Bottom-up over the whole tree through directory fds (the deep
        profile's paths are longer than PATH_MAX)."""
        def walk(fd, rel):
            for name in sorted(os.listdir(fd)):
                crel = name if not rel else rel + "/" + name
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
                if stat.S_ISDIR(st.st_mode):
                    cfd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW,
                                  dir_fd=fd)
                    try:
                        walk(cfd, crel)
                    finally:
                        os.close(cfd)
                t = self.times.get(crel) or self.derived_time(crel)
                os.utime(name, ns=t, dir_fd=fd, follow_symlinks=False)
        fd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY)
        try:
            walk(fd, "")
        finally:
            os.close(fd)
        os.utime(self.root, ns=self.times.get("") or self.derived_time(""))


# ---- profiles --------------------------------------------------------------
# Inline data limit (bytes) = 4 * (923 - 50 inline xattr words - 1 reserved
# - extra_isize/4): 3488 without extra_attr, 3452 with all extra fields.
INLINE_EDGES = [3451, 3452, 3453, 3487, 3488, 3489, 4095, 4096, 4097]


def p_small(g, base, nfiles=1500):
    g.mkdir(base)
    dirs = [base]
    for i in range(40 if nfiles >= 1000 else 8):
        parent = g.rng.choice(dirs)
        d = "%s/d%02d" % (parent, i)
        g.mkdir(d)
        dirs.append(d)
    for i in range(nfiles):
        d = dirs[i % len(dirs)]
        r = g.rng.random()
        if r < 0.1:
            n = 0
        elif r < 0.2:
            n = g.rng.randint(1, 64)
        elif r < 0.9:
            n = g.rng.randint(65, 3400)
        else:
            n = g.rng.randint(3401, 12000)
        content = g.text(n) if i % 3 else g.data(n)
        g.file("%s/f%04d.%s" % (d, i, g.rng.choice(["txt", "c", "h", "cfg", "bin"])),
               content)
    for n in INLINE_EDGES:
        g.file("%s/edge-%d" % (base, n), g.data(n))
        g.file("%s/edge-%d.zero" % (base, n), bytes(n))   # all zero bytes
    g.mkdir(base + "/empty-dir")


def varied_name(rng, i, maxlen=255):
    """Unique for distinct i; length 1..maxlen, mostly short."""
    key = ""
    n = i
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    while True:
        key = alphabet[n % 62] + key
        n //= 62
        if not n:
            break
    r = rng.random()
    if r < 0.5:
        ln = rng.randint(len(key), 16)
    elif r < 0.85:
        ln = rng.randint(17, 64)
    elif r < 0.97:
        ln = rng.randint(65, 200)
    else:
        ln = rng.randint(201, maxlen)
    ln = max(ln, len(key))
    pad = ""
    chars = "abcdefghijklmnopqrstuvwxyz_-.0123456789 ~+,=@"
    utf = "\u00e9\u00fc\u00df\u4e2d\u6587\u0416"
    while len((key + pad).encode()) < ln:
        c = rng.choice(utf) if rng.random() < 0.03 else rng.choice(chars)
        if len((key + "_" + pad + c).encode()) > ln:
            break
        pad += c
    name = key if not pad else key + "_" + pad
    return name


def p_bigdir(g, base, entries=50000):
    g.mkdir(base)
    d = base + "/big"
    g.mkdir(d)
    names = set()
    made = 0
    link_src = []
    i = 0
    while made < entries:
        name = varied_name(g.rng, i)
        i += 1
        if name in (".", "..") or name in names:
            continue
        names.add(name)
        rel = d + "/" + name
        r = g.rng.random()
        if r < 0.04 and len(link_src) > 0:
            g.link(g.rng.choice(link_src), rel)
        elif r < 0.05:
            g.symlink(rel, "target-%d" % i)
        elif r < 0.055:
            g.mkdir(rel)
        elif r < 0.08:
            g.file(rel, g.text(g.rng.randint(1, 200)))
            if len(link_src) < 50:
                link_src.append(rel)
        else:
            g.file(rel, b"")
        made += 1


def p_deep(g, base, depth=48, long_paths=False):
    """Names up to 255 bytes.  The paths stay below 3800 bytes (PATH_MAX is
    4096, and the tree's own location comes in front) unless long_paths:
    then every third level has a 255-byte name and the deepest paths pass
    8000 bytes."""
    g.mkdir(base)
    cur = base
    for lvl in range(depth):
        if long_paths:
            ln = 255 if lvl % 3 == 0 else g.rng.randint(1, 254)
        else:
            room = 3800 - len(cur.encode()) - 2 * 256 - 20 * (depth - lvl)
            ln = 255 if lvl % 8 == 0 else g.rng.randint(1, 60)
            ln = max(1, min(ln, room))
        name = ("L%02d-" % lvl + "x" * 255)[:ln] if ln >= 4 else "L%d" % (lvl % 10)
        name = name[:ln]
        nxt = cur + "/" + name
        g.mkdir(nxt)
        # a file with a 255-byte name at some levels
        if lvl % 4 == 0:
            fname = ("file%02d" % lvl + "y" * 255)[:255]
            g.file(nxt + "/" + fname, g.text(lvl * 37))
        if lvl % 10 == 5:
            g.symlink(nxt + "/up", "../" * (lvl + 1))
        cur = nxt
    g.file(cur + "/bottom", b"the bottom\n")
    g.mkdir(cur + "/" + "z" * 255)
    g.count("maxpath", len((cur + "/" + "z" * 255).encode()))


def p_large(g, base, big=True):
    g.mkdir(base)
    rng = random.Random(g.seed * 7 + 1)
    g.file(base + "/one-mib", g.data(1 << 20, rng))
    if big:
        g.file(base + "/five-mib.mp4", g.data(5 << 20, rng))   # a cold extension
        g.file(base + "/forty-mib", g.data(40 << 20, rng))
        # > (923 + 2 * 1018) blocks: needs an indirect node
        g.file(base + "/indirect-13mib", g.data(13 << 20, rng))
    # dense files ending right around the inode's direct pointer limits
    for nblk in ([863, 864, 865, 872, 873, 874, 922, 923, 924] if big else [873, 874]):
        g.file(base + "/direct-%d" % nblk, g.data(nblk * BLK - (nblk % 7), rng))
    # sparse: data only around the boundaries of the direct nodes
    for b in [864, 873, 923, 864 + 1018, 873 + 1018, 923 + 1018,
              923 + 2 * 1018, 923 + 2 * 1018 + 1018]:
        g.sparse(base + "/edge-%d" % b, (b + 2) * BLK,
                 [((b - 2) * BLK, g.data(4 * BLK, rng))])
    gib = 1 << 30
    g.sparse(base + "/sparse-3g", 3 * gib,
             [(0, g.data(5000, rng)), (4 << 20, g.data(3 * BLK, rng)),
              (gib + 12345, g.data(70000, rng)), (3 * gib - 100, g.data(100, rng))])
    dind = (923 + 2 * 1018 + 2 * 1018 * 1018) * BLK     # first block in a double-indirect tree
    g.sparse(base + "/sparse-9g", 9 * gib,
             [(BLK, g.data(BLK, rng)), (dind - BLK, g.data(2 * BLK, rng)),
              (dind + 1018 * 1018 * BLK, g.data(BLK, rng)), (9 * gib - 1, b"\x01")])
    g.sparse(base + "/all-hole-1g", gib, [])


def p_special(g, base):
    g.mkdir(base)
    for d in ("a", "b", "c"):
        g.mkdir(base + "/" + d)
    g.file(base + "/a/orig", g.text(5000))
    g.link(base + "/a/orig", base + "/b/link1")
    g.link(base + "/a/orig", base + "/c/link2")
    g.link(base + "/a/orig", base + "/a/link3")
    g.file(base + "/a/small", b"tiny\n")
    g.link(base + "/a/small", base + "/c/small-link")
    for n in (1, 60, 1000, 3487, 4095):
        tgt = ("t" * (n - 1) + "/")[:n] if n > 1 else "x"
        g.symlink(base + "/b/sym-%d" % n, tgt)
    g.symlink(base + "/b/to-orig", "../a/orig")
    g.symlink(base + "/b/dangling", "does/not/exist")
    g.symlink(base + "/b/abs", "/etc/passwd")
    g.link(base + "/b/to-orig", base + "/c/hardlink-to-symlink")
    g.mknod(base + "/fifo", 0o640 | stat.S_IFIFO)
    g.link(base + "/fifo", base + "/c/fifo-link")
    g.mknod(base + "/chr", 0o620 | stat.S_IFCHR, os.makedev(4095, 1048575))
    g.mknod(base + "/blk", 0o660 | stat.S_IFBLK, os.makedev(259, 262144))
    g.mknod(base + "/null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    old = os.getcwd()
    os.fchdir(g.dirfd(base))
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind("sock")
        s.close()
    finally:
        os.chdir(old)
    g.count("sockets")
    modes = [0o4755, 0o2755, 0o6711, 0o7777, 0o000, 0o1777, 0o400, 0o777]
    for m in modes:
        g.file(base + "/mode-%04o" % m, b"m", m)
    g.mkdir(base + "/sticky", 0o1777)
    g.mkdir(base + "/noperm", 0o000)
    g.mkdir(base + "/setgid-dir", 0o2775)
    for uid, gid in ((1000, 1000), (65534, 65534), (4000000000, 4000000000),
                     (4294967294, 0), (0, 4294967294), (12345, 54321)):
        rel = base + "/own-%d-%d" % (uid, gid)
        g.file(rel, b"owner\n")
        g.owner(rel, uid, gid, 0o4755 if uid == 1000 else 0o644)
    g.owner(base + "/b/sym-60", 1000, 65534)
    g.owner(base + "/c", 4000000000, 1000, 0o750)
    g.owner(base + "/chr", 1000, 5)
    # times: nanoseconds, before 1970, after 2038, zero
    s = 10**9
    # (atimes of files and symlinks that are read stay in the future, see
    # FUTURE; nobody reads a fifo or a device, so theirs can be anything)
    fut = FUTURE * s if g.atime == "future" else 0
    g.settime(base + "/a/small", (fut or 1234567890 * s) + 123456789, 1234567891 * s + 999999999)
    g.file(base + "/t-1969", b"old")
    g.settime(base + "/t-1969", (fut or -5 * s) + 1, -86400 * 365 * s + 500)
    g.mknod(base + "/t-1969-fifo", 0o600 | stat.S_IFIFO)
    g.settime(base + "/t-1969-fifo", -5 * s + 1, -86400 * 365 * s - 999999999)
    g.file(base + "/t-2100", b"new")
    g.settime(base + "/t-2100", 4102444800 * s + 999, 4102444800 * s + 7)
    g.file(base + "/t-zero", b"zero")
    g.settime(base + "/t-zero", fut, 0)
    g.mknod(base + "/t-zero-chr", 0o600 | stat.S_IFCHR, os.makedev(10, 200))
    g.settime(base + "/t-zero-chr", 0, 0)
    g.settime(base + "/b/sym-1000", (fut or 1500000000 * s) + 1, 1500000000 * s + 2)
    g.settime(base + "/sticky", (fut or 1600000000 * s) + 333, 1600000000 * s + 444)
    g.file(base + "/empty", b"")


def p_xattrs(g, base):
    g.mkdir(base)
    f = base + "/user-small"
    g.file(f, b"x")
    g.xattr(f, "user.a", b"1")
    g.xattr(f, "user.empty", b"")
    g.xattr(f, "user.bin", bytes(range(256))[:64])
    f = base + "/user-large"
    g.file(f, g.text(100))
    g.xattr(f, "user.big1", g.data(1500))
    g.xattr(f, "user.big2", g.text(1200))
    g.xattr(f, "user." + "n" * 200, b"long name")
    f = base + "/many"
    g.file(f, b"")
    for i in range(40):
        g.xattr(f, "user.k%02d" % i, g.text(40 + i))
    f = base + "/inline-only"
    g.file(f, g.data(3000))     # inline data and inline xattrs together
    g.xattr(f, "user.i", b"inline")
    f = base + "/sec"
    g.file(f, b"sec")
    g.xattr(f, "security.selinux", b"system_u:object_r:etc_t:s0\x00")
    # struct vfs_cap_data, revision 2, effective: cap_net_bind_service
    g.xattr(f, "security.capability",
            struct.pack("<IIIII", 0x02000001, 1 << 10, 0, 0, 0))
    g.xattr(f, "trusted.t1", b"trusted value")
    g.xattr(f, "trusted.overlay.opaque", b"y")
    d = base + "/dir-x"
    g.mkdir(d)
    g.xattr(d, "user.dir", b"on a directory")
    g.xattr(d, "trusted.big", g.data(2000))
    g.file(d + "/child", b"c")
    g.symlink(base + "/sym-x", "user-small")
    g.xattr(base + "/sym-x", "trusted.onsym", b"symlink xattr")
    g.xattr(base + "/sym-x", "security.selinux", b"system_u:object_r:lnk_t:s0\x00")
    # POSIX ACLs
    f = base + "/acl-file"
    g.file(f, b"acl", 0o640)
    g.acl(f, [("u", None, 6), ("u", 1000, 6), ("u", 4000000000, 4), ("g", None, 4),
              ("g", 65534, 5), ("m", None, 7), ("o", None, 0)])
    f = base + "/acl-big"
    g.file(f, b"big acl", 0o600)
    spec = [("u", None, 6), ("g", None, 4), ("m", None, 7), ("o", None, 4)]
    spec += [("u", 2000 + i, i % 8) for i in range(40)]
    spec += [("g", 3000 + i, (i * 3) % 8) for i in range(20)]
    g.acl(f, spec)
    g.xattr(f, "user.with-acl", b"both")
    d = base + "/acl-dir"
    g.mkdir(d, 0o775)
    g.acl(d, [("u", None, 7), ("u", 1000, 7), ("g", None, 5), ("m", None, 7), ("o", None, 5)])
    g.acl(d, [("u", None, 7), ("u", 1000, 7), ("g", None, 5), ("g", 4000000000, 7),
              ("m", None, 7), ("o", None, 0)], default=True)
    g.file(d + "/inherits", b"inherited acl")     # gets the default ACL
    g.mkdir(d + "/subdir")                        # gets both
    d = base + "/default-only"
    g.mkdir(d)
    g.acl(d, [("u", None, 7), ("g", None, 5), ("o", None, 5), ("u", 65534, 5),
              ("m", None, 5)], default=True)
    # total near the limit: ~3 KB of xattrs on one inode
    f = base + "/near-full"
    g.file(f, b"")
    g.xattr(f, "user.fill1", g.data(1400))
    g.xattr(f, "user.fill2", g.data(1400))
    g.xattr(f, "trusted.fill3", g.data(300))
    g.acl(f, [("u", None, 6), ("u", 7, 4), ("g", None, 4), ("m", None, 6), ("o", None, 4)])


def p_mixed(g, base):
    g.mkdir(base)
    p_small(g, base + "/small", nfiles=120)
    p_bigdir(g, base + "/bigdir", entries=1500)
    p_deep(g, base + "/deep", depth=42)
    p_large(g, base + "/large", big=False)
    p_special(g, base + "/special")
    p_xattrs(g, base + "/xattrs")


PROFILES = {
    "small": p_small, "bigdir": p_bigdir, "deep": p_deep, "large": p_large,
    "special": p_special, "xattrs": p_xattrs, "mixed": p_mixed,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--entries", type=int, default=50000,
                    help="bigdir: number of names (default 50000)")
    ap.add_argument("--atime", choices=["future", "past"], default="future",
                    help="future (default): atimes that relatime never moves; "
                    "past: older than the mtimes, as in a real tree")
    ap.add_argument("--long-paths", action="store_true",
                    help="deep: paths longer than PATH_MAX")
    ap.add_argument("profile", choices=sorted(PROFILES))
    ap.add_argument("dest")
    a = ap.parse_args()
    if os.path.lexists(a.dest) and (not os.path.isdir(a.dest) or os.listdir(a.dest)):
        sys.exit("gentree: %s exists and is not an empty directory" % a.dest)
    os.makedirs(a.dest, exist_ok=True)
    os.chmod(a.dest, 0o755)
    os.umask(0o022)
    g = Gen(a.dest, a.seed, a.atime)
    sys.setrecursionlimit(10000)
    # Each profile builds in one directory under the root.
    fn = PROFILES[a.profile]
    base = "top"
    if a.profile == "bigdir":
        fn(g, base, entries=a.entries)
    elif a.profile == "deep":
        fn(g, base, long_paths=a.long_paths)
    else:
        fn(g, base)
    g.apply_times()
    print("gentree: %s seed %d: %s" % (a.profile, a.seed, ", ".join(
        "%s %d" % kv for kv in sorted(g.counts.items()))))


if __name__ == "__main__":
    main()
