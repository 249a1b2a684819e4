#!/usr/bin/env python3
"""repair-matrix.py: the file lists of repair-matrix.sh.

  manifest DIR                 one line per object under DIR (DIR itself
                               left out), sorted: "PATH<TAB>KIND<TAB>WHAT",
                               PATH from the root ("/a/b"), KIND d (WHAT -),
                               l (WHAT the target) or f (WHAT the md5)
  links DIR                    the paths of DIR's hard-linked files, one
                               group a line, separated by tabs
  hits CODE LINKS              the paths a damage (shell code of the case
                               list) names, one a line: the PATH after
                               ino|inode|inode-csum|footer|xattr|orphan,
                               DIR/NAME of "dentry DIR NAME" (and DIR/NEW
                               of a rename to NEW), "/" for the root's NAT
                               entry (nat 3), and every other link of a
                               file so named
  compare REF GOT HITS SKIP    every object of REF (a manifest) but those
                               under /lost+found and those listed in SKIP
                               must be in GOT as they were; prints
                               "KEPT LOST UNHIT FOUND" (UNHIT: lost ones no
                               hit covers, a hit covering itself and what
                               is under it; FOUND: lost files whose
                               content is under /lost+found in GOT), then
                               the unhit paths
  cell REF DIR CODE LINKS SKIP OUT
                               manifest of DIR into OUT, hits of CODE
                               (none for ":"), compare: one call a cell
  kernel MANIFEST              a manifest as the guest lists it
                               ("KIND PATH WHAT", PATH from "."), sorted
"""
import hashlib
import os
import re
import sys


def manifest(top, dest=sys.stdout):
    out = []
    for root, dirs, files in os.walk(top):
        for name in dirs + files:
            p = os.path.join(root, name)
            rel = '/' + os.path.relpath(p, top)
            if os.path.islink(p):
                out.append((rel, 'l', os.readlink(p)))
            elif os.path.isdir(p):
                out.append((rel, 'd', '-'))
            else:
                h = hashlib.md5()
                with open(p, 'rb') as f:
                    for chunk in iter(lambda: f.read(1 << 20), b''):
                        h.update(chunk)
                out.append((rel, 'f', h.hexdigest()))
    for row in sorted(out):
        print('\t'.join(row), file=dest)


def read_manifest(path):
    m = {}
    with open(path, errors='surrogateescape') as f:
        for line in f:
            p, kind, what = line.rstrip('\n').split('\t')
            m[p] = (kind, what)
    return m


def links(top):
    groups = {}
    for root, _, files in os.walk(top):
        for name in files:
            p = os.path.join(root, name)
            st = os.lstat(p)
            if st.st_nlink > 1 and not os.path.islink(p):
                groups.setdefault(st.st_ino, []).append('/' + os.path.relpath(p, top))
    for g in groups.values():
        print('\t'.join(sorted(g)))


def hits(code, links_file, dest=sys.stdout):
    found = set()
    for m in re.finditer(r'\bdentry (/[^\s"\')]*) ([^\s"\')]+)', code):
        d = m.group(1).rstrip('/')
        found.add(os.path.normpath(d + '/' + m.group(2)))
    # a rename's new name: the entry it now duplicates is hit too
    for m in re.finditer(r'\bdentry (/[^\s"\')]*) \S+ rename(?:fold|hash)? "?([^\s"\')]+)', code):
        found.add(os.path.normpath(m.group(1).rstrip('/') + '/' + m.group(2)))
    for m in re.finditer(r'\b(?:ino|inode|inode-csum|footer|xattr|orphan) (/[^\s"\')]*)', code):
        found.add(os.path.normpath(m.group(1)))
    # the root's NAT entry (nid 3): everything hangs from it
    if re.search(r'\bnat 3 ', code):
        found.add('/')
    with open(links_file) as f:
        for line in f:
            g = line.split()
            if found & set(g):
                found.update(g)
    for p in sorted(found):
        print(p, file=dest)


def under(p, h):
    return h == '/' or p == h or p.startswith(h + '/')


def compare(ref_file, got_file, hits_file, skip_file):
    ref, got = read_manifest(ref_file), read_manifest(got_file)
    hit = [line.strip() for line in open(hits_file) if line.strip()]
    skip = {line.strip() for line in open(skip_file) if line.strip()}
    in_lost = {w for p, (k, w) in got.items() if p.startswith('/lost+found/') and k == 'f'}
    kept = lost = found = 0
    unhit = []
    for p, v in ref.items():
        if under(p, '/lost+found') or p in skip:
            continue
        if got.get(p) == v:
            kept += 1
            continue
        lost += 1
        if v[0] == 'f' and v[1] in in_lost:
            found += 1
        if not any(under(p, h) for h in hit):
            unhit.append(p)
    print(kept, lost, len(unhit), found)
    for p in unhit:
        print(p)


def kernel(path):
    m = read_manifest(path)
    for p, (kind, what) in sorted(m.items()):
        print(kind, '.' + p, what if kind != 'd' else '')


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == 'manifest':
        manifest(args[0])
    elif cmd == 'links':
        links(args[0])
    elif cmd == 'hits':
        hits(args[0], args[1])
    elif cmd == 'compare':
        compare(*args)
    elif cmd == 'cell':
        ref, top, code, links_file, skip, out = args
        with open(out, 'w', errors='surrogateescape') as f:
            manifest(top, f)
        with open(out + '.hits', 'w') as f:
            if code != ':':
                hits(code, links_file, f)
        compare(ref, out, out + '.hits', skip)
    elif cmd == 'kernel':
        kernel(args[0])
    else:
        sys.exit(__doc__)


main()
