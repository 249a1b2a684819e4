#!/usr/bin/env python3
"""gen-bench-tree.py N DIR: write a deterministic source tree of about N files.

Used by bench/rootdir-bench.sh to feed `mkfs.f2fs --rootdir` and
`sload.f2fs`. The same N (and --seed) gives the same tree on every run and
every machine: the same names, sizes, contents, modes and times.

Shape
-----
* Only directories and regular files (no symlinks, hard links or xattrs, so
  that f2fs-tools' sload.f2fs handles the tree the same way ours does).
* Exactly N regular files. Directories are made breadth-first from DIR; each
  directory gets a number of entries (files + subdirectories) drawn
  log-uniformly from 50..500 (median about 160, mean about 195). The
  directory made last may hold fewer, to land on exactly N files.
* Depth: the deepest level is 3 (N up to ~20k), 4 (up to ~200k) or 5
  (beyond); DIR itself is level 0. A directory above the deepest level gets
  about b subdirectories (b * uniform(0.5, 1.5), b chosen from N so the tree
  is wide enough), and no more than the files still to place need, so the
  leaves sit on the last two levels: directories are nested 3 to 5 levels.
* Names: 3-24 characters from a small word list plus a counter, with a mix
  of extensions (.c .h .txt .json .py .png .so .md .o and none).
* Modes: 0644, 1 in 10 files 0755; directories 0755. All inodes get the
  fixed mtime/atime 2024-01-01 00:00:00 UTC.

File sizes (per file, independently)
------------------------------------
    4.00 %  empty
   93.69 %  64 B .. 16 KiB, log-uniform  (median 1 KiB, mean ~2.9 KiB;
                                          ~75 % of all files <= 4 KiB)
    2.00 %  16 KiB .. 128 KiB, log-uniform
    0.30 %  128 KiB .. 1 MiB, log-uniform
    0.01 %  1 MiB .. 4 MiB, log-uniform  (the long tail)
Mean about 5.3 KiB per file, so ~50 MiB for 10k files, ~0.5 GiB for 100k,
~5 GiB for 1M. Contents are slices of one seeded pseudo-random 4 MiB buffer
(incompressible, never all-zero, so no tool can turn them into holes).

Output
------
One line of key=value pairs on stdout (files, dirs, bytes, blocks = sum of
the files' sizes in 4 KiB blocks, max_depth, seconds); progress on stderr
with --verbose. DIR must not exist or be empty.
"""

import argparse
import math
import os
import random
import sys
import time

MTIME = 1704067200  # 2024-01-01 00:00:00 UTC
BUF_SIZE = 4 << 20

# (probability, low, high): sizes drawn log-uniformly in [low, high].
SIZE_BANDS = [
    (0.0400, 0, 0),
    (0.9369, 64, 16 << 10),
    (0.0200, 16 << 10, 128 << 10),
    (0.0030, 128 << 10, 1 << 20),
    (0.0001, 1 << 20, 4 << 20),
]
ENTRIES_MIN, ENTRIES_MAX = 50, 500
WORDS = ["src", "lib", "util", "core", "test", "data", "conf", "main", "node",
         "page", "cache", "index", "module", "handler", "parser", "client",
         "server", "render", "vendor", "asset", "image", "build", "doc",
         "locale", "schema", "event", "io", "net", "x"]
EXTS = [".c", ".h", ".txt", ".json", ".py", ".png", ".so", ".md", ".o", ""]
DIR_WORDS = ["include", "drivers", "common", "internal", "pkg", "tests", "v2",
             "assets", "share", "third_party", "gen", "tools", "arch", "fs"]


def log_uniform(rng, lo, hi):
    if hi <= lo:
        return lo
    return int(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def draw_size(rng):
    u = rng.random()
    acc = 0.0
    for p, lo, hi in SIZE_BANDS:
        acc += p
        if u < acc:
            return 0 if hi == 0 else log_uniform(rng, lo, hi)
    return log_uniform(rng, 64, 16 << 10)


def mean_entries():
    return (ENTRIES_MAX - ENTRIES_MIN) / math.log(ENTRIES_MAX / ENTRIES_MIN)


def plan_depth(n):
    """Deepest level and mean subdirectories per directory above it."""
    dirs = max(1.0, n / mean_entries())
    depth = 3 if n <= 20000 else 4 if n <= 200000 else 5
    # b with 1 + b + ... + b^depth = 1.5 * dirs: room to spare; the
    # "files still to place" cap keeps the tree from growing past need.
    lo, hi = 1.0, 64.0
    for _ in range(60):
        b = (lo + hi) / 2
        if sum(b ** k for k in range(depth + 1)) < 1.5 * dirs:
            lo = b
        else:
            hi = b
    return depth, max(2.0, hi)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("n", type=int, help="number of regular files")
    ap.add_argument("dir", help="where to build the tree (created)")
    ap.add_argument("--seed", default="f2fs-rootdir-bench",
                    help="seed string (default %(default)s)")
    ap.add_argument("--verbose", "-v", action="store_true")
    a = ap.parse_args()
    if a.n < 1:
        ap.error("N must be at least 1")
    os.makedirs(a.dir, exist_ok=True)
    if os.listdir(a.dir):
        ap.error(f"{a.dir} is not empty")

    t0 = time.monotonic()
    rng = random.Random(f"{a.seed}/{a.n}")
    buf = random.Random(f"{a.seed}/data").randbytes(BUF_SIZE)
    mv = memoryview(buf)
    depth_max, b = plan_depth(a.n)
    mean_files = mean_entries() - b / 2  # rough files per directory

    files = dirs = nbytes = blocks = 0
    deepest = 0
    made_dirs = [a.dir]
    queue = [(a.dir, 0)]
    qi = 0
    ncounter = 0
    while qi < len(queue) and files < a.n:
        path, depth = queue[qi]
        qi += 1
        entries = log_uniform(rng, ENTRIES_MIN, ENTRIES_MAX)
        left = a.n - files
        pending = len(queue) - qi  # directories made but not filled yet
        nsub = 0
        if depth < depth_max:
            nsub = max(0, round(b * rng.uniform(0.5, 1.5)))
            # directories still needed after this one, minus those queued
            need = math.ceil(max(0, left - entries) / mean_files) - pending
            nsub = max(0, min(nsub, need, entries - 1))
        nfiles = min(entries - nsub, left)
        if qi == len(queue) and nsub == 0 and nfiles < left:
            # last directory and files left over: keep the tree going
            nsub = 1 if depth < depth_max else 0
            nfiles = min(entries - nsub, left)
            if nsub == 0:
                nfiles = left  # deepest level and nowhere to go: overfill
        names = set()
        for _ in range(nsub):
            ncounter += 1
            name = f"{rng.choice(DIR_WORDS)}{ncounter}"
            names.add(name)
            sub = os.path.join(path, name)
            os.mkdir(sub, 0o755)
            dirs += 1
            made_dirs.append(sub)
            queue.append((sub, depth + 1))
            deepest = max(deepest, depth + 1)
        for _ in range(nfiles):
            ncounter += 1
            word = rng.choice(WORDS)
            if rng.random() < 0.3:
                word += "_" + rng.choice(WORDS)
            name = f"{word}{ncounter}{rng.choice(EXTS)}"
            size = draw_size(rng)
            mode = 0o755 if rng.random() < 0.1 else 0o644
            off = rng.randrange(BUF_SIZE)
            fd = os.open(os.path.join(path, name),
                         os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            try:
                left_b = size
                while left_b:
                    chunk = min(left_b, BUF_SIZE - off)
                    os.write(fd, mv[off:off + chunk])
                    left_b -= chunk
                    off = 0
                os.fchmod(fd, mode)  # umask-proof
                os.utime(fd, (MTIME, MTIME))
            finally:
                os.close(fd)
            files += 1
            nbytes += size
            blocks += (size + 4095) // 4096
            if a.verbose and files % 100000 == 0:
                print(f"gen: {files} files, {dirs} dirs, "
                      f"{time.monotonic() - t0:.0f}s", file=sys.stderr)
    # safety net: directories queued but never reached (files ran out)
    # would stay empty; drop them
    unused = {p for p, _ in queue[qi:]}
    for p in unused:
        os.rmdir(p)
    dirs -= len(unused)
    made_dirs = [d for d in made_dirs if d not in unused]
    for d in reversed(made_dirs):
        os.chmod(d, 0o755)
        os.utime(d, (MTIME, MTIME))
    print(f"files={files} dirs={dirs} bytes={nbytes} blocks={blocks} "
          f"max_depth={deepest} seconds={time.monotonic() - t0:.1f}")


if __name__ == "__main__":
    main()
