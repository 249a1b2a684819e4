#!/usr/bin/env python3
"""manifest.py: describe a directory tree, one line per entry, sorted by path.

    manifest.py [--exclude-lpf] [--root-owner UID:GID] [--times m|ma|mac]
                [--zmd5-min BYTES] [--no-hl] DIR

The same format as the guest's fsmanifest (tests/kernel/guest/src/fsmanifest.c),
so that a tree on the host and its copy mounted by the kernel compare with
diff.  Each line, fields separated by one space:

  PATH TYPE m=MODE u=UID g=GID n=NLINK [s=SIZE] [md5=HEX|zmd5=HEX] [l=TARGET]
       [r=MAJOR:MINOR] mt=SEC.NSEC [at=SEC.NSEC] [ct=SEC.NSEC] [hl=PATH]
       [x=NAME=HEX]...

  PATH     relative to DIR, "." for DIR itself; sorted by its bytes
  TYPE     f d l c b p s
  MODE     st_mode & 07777, four octal digits
  s=       files and symlinks only
  md5=     md5 of a file's content; files of --zmd5-min bytes or more
           (default 256 MiB) get zmd5= instead: md5 over each 4096-byte block
           that is not all zero, preceded by its block number as 8 bytes LE
  l=       a symlink's target
  r=       a device's numbers
  mt/at/ct mtime, atime, ctime (--times picks which; default m)
  hl=      a non-directory with more than one link: the first path (in this
           order) of the same inode in the manifest
  x=       each xattr, sorted by name: name=hex(value) (ACLs as the VFS
           gives them: system.posix_acl_access / _default)

PATH, TARGET and xattr names are escaped: bytes <= 0x20, >= 0x7f, '%' and
'=' become %XX.  --exclude-lpf leaves out the top-level lost+found and counts
one link less on the root for it.  --root-owner replaces the root's owner
(what mkfs -R does).  Files are opened with O_NOATIME where allowed so that
reading does not move atimes.
"""
import argparse
import errno
import hashlib
import os
import stat
import sys

BLK = 4096
SAFE = set(range(0x21, 0x7f)) - {ord("%"), ord("=")}


def esc(b):
    if isinstance(b, str):
        b = os.fsencode(b)
    return "".join(chr(c) if c in SAFE else "%%%02X" % c for c in b)


def ts(ns):
    return "%d.%09d" % (ns // 10**9, ns % 10**9)


def open_noatime(name, dir_fd, flags):
    try:
        return os.open(name, flags | os.O_NOATIME, dir_fd=dir_fd)
    except PermissionError:
        return os.open(name, flags, dir_fd=dir_fd)


def digest(fd, size, zmin):
    if size < zmin:
        h = hashlib.md5()
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                break
            h.update(b)
        return "md5=" + h.hexdigest()
    h = hashlib.md5()
    zero = bytes(BLK)
    off = 0
    while off < size:
        try:
            data = os.lseek(fd, off, os.SEEK_DATA)
        except OSError as e:
            if e.errno == errno.ENXIO:
                break
            raise
        hole = os.lseek(fd, data, os.SEEK_HOLE)
        blk = data // BLK
        end = min(size, (hole + BLK - 1) // BLK * BLK)
        pos = blk * BLK
        os.lseek(fd, pos, os.SEEK_SET)
        while pos < end:
            n = min(1 << 20, end - pos)
            buf = os.read(fd, n)
            if not buf:
                break
            for i in range(0, len(buf), BLK):
                chunk = buf[i:i + BLK]
                if chunk != zero[:len(chunk)]:
                    h.update(((pos + i) // BLK).to_bytes(8, "little"))
                    h.update(chunk)
            pos += len(buf)
        off = end
    return "zmd5=" + h.hexdigest()


def xattrs(dir_fd, name):
    p = "/proc/self/fd/%d/%s" % (dir_fd, name) if name != "." else "/proc/self/fd/%d" % dir_fd
    try:
        names = os.listxattr(p, follow_symlinks=False)
    except OSError as e:
        if e.errno in (errno.ENOTSUP, errno.EPERM):
            return []
        raise
    out = []
    for n in sorted(names, key=os.fsencode):
        v = os.getxattr(p, n, follow_symlinks=False)
        out.append("x=%s=%s" % (esc(n), v.hex()))
    return out


class Manifest:
    def __init__(self, a):
        self.a = a
        self.rows = []      # (path bytes, fields before hl, xattr fields, inode key, is_dir)

    def entry(self, dir_fd, name, rel, st, is_root=False):
        a = self.a
        m = st.st_mode
        t = {stat.S_IFREG: "f", stat.S_IFDIR: "d", stat.S_IFLNK: "l", stat.S_IFCHR: "c",
             stat.S_IFBLK: "b", stat.S_IFIFO: "p", stat.S_IFSOCK: "s"}[stat.S_IFMT(m)]
        uid, gid = st.st_uid, st.st_gid
        nlink = st.st_nlink
        if is_root:
            if a.root_owner:
                uid, gid = a.root_owner
            if a.lpf_dir:
                nlink -= 1
        f = [esc(rel), t, "m=%04o" % stat.S_IMODE(m), "u=%d" % uid, "g=%d" % gid,
             "n=%d" % nlink]
        if t in "fl":
            f.append("s=%d" % st.st_size)
        if t == "f":
            if st.st_size == 0:    # no open(): saves time on big directories
                f.append(("md5=" if 0 < a.zmd5_min else "zmd5=") + hashlib.md5().hexdigest())
            else:
                fd = open_noatime(name, dir_fd, os.O_RDONLY | os.O_NOFOLLOW)
                try:
                    f.append(digest(fd, st.st_size, a.zmd5_min))
                finally:
                    os.close(fd)
        if t == "l":
            f.append("l=" + esc(os.readlink(name, dir_fd=dir_fd)))
        if t in "cb":
            f.append("r=%d:%d" % (os.major(st.st_rdev), os.minor(st.st_rdev)))
        f.append("mt=" + ts(st.st_mtime_ns))
        if "a" in a.times:
            f.append("at=" + ts(st.st_atime_ns))
        if "c" in a.times:
            f.append("ct=" + ts(st.st_ctime_ns))
        x = xattrs(dir_fd, name)
        self.rows.append((os.fsencode(rel), f, x, (st.st_dev, st.st_ino), t == "d", nlink))

    def walk(self, fd, rel, stats):
        """Two passes: the first only lstat()s everything, the second reads
        (readlink() moves a symlink's atime even under relatime, and a hard
        link's atime would show that in a later lstat())."""
        names = sorted(os.listdir(fd), key=os.fsencode)
        for name in names:
            if not rel and self.a.exclude_lpf and name == "lost+found":
                continue
            crel = name if not rel else rel + "/" + name
            if stats is None:
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
                self.stats[crel] = st
            else:
                st = stats[crel]
                self.entry(fd, name, crel, st)
            if stat.S_ISDIR(st.st_mode):
                cfd = open_noatime(name, fd, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
                try:
                    self.walk(cfd, crel, stats)
                finally:
                    os.close(cfd)

    def run(self, top):
        fd = open_noatime(top, None, os.O_RDONLY | os.O_DIRECTORY)
        try:
            a = self.a
            a.lpf_dir = False
            if a.exclude_lpf:
                try:
                    a.lpf_dir = stat.S_ISDIR(os.stat("lost+found", dir_fd=fd,
                                                     follow_symlinks=False).st_mode)
                except FileNotFoundError:
                    pass
            self.stats = {}
            rst = os.fstat(fd)
            self.walk(fd, "", None)
            self.entry(fd, ".", ".", rst, is_root=True)
            self.walk(fd, "", self.stats)
        finally:
            os.close(fd)
        self.rows.sort(key=lambda r: r[0])
        first = {}
        out = []
        for path, f, x, key, is_dir, nlink in self.rows:
            line = list(f)
            if not is_dir and nlink > 1 and not self.a.no_hl:
                line.append("hl=" + esc(first.setdefault(key, path)))
            out.append(" ".join(line + x))
        return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--exclude-lpf", action="store_true")
    ap.add_argument("--root-owner", type=lambda s: tuple(int(v) for v in s.split(":")))
    ap.add_argument("--times", default="m", choices=["m", "ma", "mc", "mac"])
    ap.add_argument("--zmd5-min", type=int, default=256 << 20)
    ap.add_argument("--no-hl", action="store_true")
    ap.add_argument("dir")
    a = ap.parse_args()
    sys.setrecursionlimit(10000)
    out = sys.stdout.buffer
    for line in Manifest(a).run(a.dir):
        out.write(line.encode("ascii") + b"\n")


if __name__ == "__main__":
    main()
