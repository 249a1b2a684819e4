#!/usr/bin/env python3
"""Generate lib/format/utf8_data.c: the Unicode tables behind f2fs_utf8_normalize().

usage: gen-utf8-tables.py [UCD_DIR] [-o OUTPUT]

UCD_DIR is a Unicode Character Database (default /usr/share/unicode, Debian's
unicode-data package). It reads UnicodeData.txt (canonical combining class and
canonical decompositions), CaseFolding.txt (statuses C and F: the full case
folding), DerivedCoreProperties.txt (Default_Ignorable_Code_Point) and
DerivedAge.txt, and keeps only what Unicode 12.1.0 had assigned: Linux's utf8
tables (fs/unicode, version 12.1.0, the one F2FS's "utf8" encoding names) are
built from the 12.1.0 database. The kernel's generator gives every code point
but the surrogates a place in its trie: one that 12.1.0 does not assign
(including one assigned later) has class 0 and no mapping, so it passes
through unchanged as a starter, unless it is a reserved default ignorable.
Later databases may be used because Unicode's stability policies freeze the
combining class, the canonical decomposition and the case folding of an
assigned character; the script still fails if a kept mapping would reach a
character assigned after 12.1.0.

For every code point the kernel's normaliser needs: whether it is a
character at all (not a surrogate), its combining class, and two mappings:
NFDI (canonical decomposition) and NFDICF (full case folding, else the
canonical decomposition), each expanded until no character of the result has
a mapping of its own, a Default_Ignorable_Code_Point mapping to nothing in
both. That is the kernel's definition of the "utf8" nfdicf form. Hangul
syllables are left to the C code, which decomposes them arithmetically.

The output is a three-level table (see split(); identical rows and blocks
are stored once: about 27 KB for 1.1 million code points, the block sizes
being the smallest found for this data) of 16-bit values: 0 for a code point
that is not a character, 1 + the combining class for a character that maps
to itself, else F2FS_UTF8_MAPPED + the offset of its mapping in one array of
32-bit words: a header (NFDICF length, NFDI length, flags, the character's
own class), then each result character with its combining class in the top
byte, so the C code never looks a result character up again.

The generated file is committed; tests/unit/utf8-tables.sh regenerates it
from the installed database and fails if the output differs.
"""
import argparse
import os
import sys

MAX_AGE = (12, 1)
HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3
MAPPED = 0x100
HAS_NFDI = 1 << 16
SAME = 1 << 17
MID_BITS, LO_BITS = 6, 3


def data_lines(path):
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if line:
                yield [field.strip() for field in line.split(';')]


def code_range(field):
    if '..' in field:
        a, b = field.split('..')
        return range(int(a, 16), int(b, 16) + 1)
    return range(int(field, 16), int(field, 16) + 1)


def load(ucd):
    age = {}
    for f in data_lines(os.path.join(ucd, 'DerivedAge.txt')):
        a = tuple(int(x) for x in f[1].split('.'))
        age.update((c, a) for c in code_range(f[0]))
    assigned = {c for c, a in age.items() if a <= MAX_AGE and not 0xD800 <= c <= 0xDFFF}

    ccc, decomp = {}, {}
    for f in data_lines(os.path.join(ucd, 'UnicodeData.txt')):
        c = int(f[0], 16)
        if c not in assigned:
            continue
        if int(f[3]):
            ccc[c] = int(f[3])
        # a <tag> marks a compatibility decomposition: not part of NFD
        if f[5] and not f[5].startswith('<'):
            decomp[c] = [int(x, 16) for x in f[5].split()]

    fold = {}
    for f in data_lines(os.path.join(ucd, 'CaseFolding.txt')):
        c = int(f[0], 16)
        if f[1] in ('C', 'F') and c in assigned:
            fold[c] = [int(x, 16) for x in f[2].split()]

    # Default_Ignorable_Code_Point also covers reserved (unassigned) code
    # points, and the kernel applies it to them; a code point assigned after
    # 12.1.0 was a plain unassigned one then (U+180F, Unicode 14, became
    # ignorable only when assigned), so it keeps no mapping.
    ignorable = set()
    for f in data_lines(os.path.join(ucd, 'DerivedCoreProperties.txt')):
        if f[1] == 'Default_Ignorable_Code_Point':
            ignorable.update(c for c in code_range(f[0]) if c in assigned or c not in age)
    return assigned, ccc, decomp, fold, ignorable


def expand(base):
    """Replace every character of every mapping by its own mapping until none
    has one (the result of the kernel's nfdi_decompose/nfdicf_decompose)."""
    done = {}

    def full(c):
        if c not in done:
            out = []
            for x in base[c]:
                out.extend(full(x) if x in base else [x])
            done[c] = out
        return done[c]

    for c in base:
        full(c)
    return done


def build(assigned, ccc, decomp, fold, ignorable):
    nfdi_base = dict(decomp)
    nfdicf_base = dict(decomp)
    nfdicf_base.update(fold)
    for c in ignorable:
        nfdi_base[c] = []
        nfdicf_base[c] = []
    nfdi, nfdicf = expand(nfdi_base), expand(nfdicf_base)
    for m in (nfdi, nfdicf):
        for c, seq in m.items():
            bad = [x for x in seq if x not in assigned]
            if bad:
                sys.exit(f'U+{c:04X} maps to U+{bad[0]:04X}, not assigned by '
                         f'{MAX_AGE[0]}.{MAX_AGE[1]}: stability broken?')

    # value: 0 not a character; 1 + class for a character without a
    # mapping; F2FS_UTF8_MAPPED + the offset of its header word otherwise
    seqs, seq_at, value = [], {}, [0] * 0x110000
    for c in range(0x110000):
        if 0xD800 <= c <= 0xDFFF:
            continue
        if c not in nfdicf:
            value[c] = 1 + ccc.get(c, 0)
            continue
        cf, i = nfdicf[c], nfdi.get(c)
        same = i == cf
        head = len(cf) | ccc.get(c, 0) << 24
        if i is not None:
            head |= len(i) << 8 | HAS_NFDI | (SAME if same else 0)
        words = [head] + [x | ccc.get(x, 0) << 24 for x in cf]
        if i is not None and not same:
            words += [x | ccc.get(x, 0) << 24 for x in i]
        key = tuple(words)  # the ignorables share one entry
        if key not in seq_at:
            seq_at[key] = len(seqs)
            seqs.extend(words)
        value[c] = MAPPED + seq_at[key]
    if MAPPED + len(seqs) > 0xFFFF:
        sys.exit('mapping words do not fit 16-bit values')
    return value, seqs, nfdi, nfdicf


def dedup(items, size):
    blocks, at, index = [], {}, []
    for start in range(0, len(items), size):
        b = tuple(items[start:start + size])
        if b not in at:
            at[b] = len(blocks) // size
            blocks.extend(b)
        index.append(at[b])
    return index, blocks


def split(value):
    """Three levels: code point bits 20..9 pick a row of the middle level,
    bits 8..3 an entry of the row, which picks a leaf block of 8 values,
    bits 2..0 the value. Identical rows and leaf blocks are stored once."""
    leaf_index, leaves = dedup(value, 1 << LO_BITS)
    top, mids = dedup(leaf_index, 1 << MID_BITS)
    if max(top) > 0xFF or max(mids) > 0xFFFF:
        sys.exit('the table levels outgrew their types: change MID_BITS/LO_BITS')
    return top, mids, leaves


def c_array(ctype, name, items, per_line, fmt):
    out = [f'const {ctype} {name}[{len(items)}] = {{']
    for i in range(0, len(items), per_line):
        out.append('\t' + ', '.join(fmt(x) for x in items[i:i + per_line]) + ',')
    out.append('};')
    return '\n'.join(out)


def emit(value, seqs, counts):
    top, mids, leaves = split(value)
    size = len(top) + len(mids) * 2 + len(leaves) * 2 + len(seqs) * 4
    lines = [
        '/* Generated by scripts/gen-utf8-tables.py from the Unicode Character',
        ' * Database; do not edit (tests/unit/utf8-tables.sh checks that it is what',
        ' * the script makes). Characters assigned by Unicode 12.1.0 only, as in',
        ' * Linux\'s utf8 tables. */',
        '#include "utf8_data.h"',
        '',
        f'/* {counts} */',
        f'/* {size} bytes: top {len(top)}, middle {len(mids) * 2}, leaves '
        f'{len(leaves) * 2}, mappings {len(seqs) * 4} */',
        f'_Static_assert(F2FS_UTF8_MID_BITS == {MID_BITS} && F2FS_UTF8_LO_BITS == {LO_BITS} &&',
        f'\t       F2FS_UTF8_MAPPED == {MAPPED} && F2FS_UTF8_HAS_NFDI == {HAS_NFDI} &&',
        f'\t       F2FS_UTF8_SAME == {SAME}, "utf8_data.h does not match the generator");',
        '',
        c_array('uint8_t', 'f2fs_utf8_top', top, 16, str),
        '',
        c_array('uint16_t', 'f2fs_utf8_mid', mids, 12, str),
        '',
        c_array('uint16_t', 'f2fs_utf8_leaf', leaves, 12, str),
        '',
        c_array('uint32_t', 'f2fs_utf8_map', seqs, 6, lambda x: f'0x{x:08x}'),
        '',
    ]
    return '\n'.join(lines), size


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('ucd', nargs='?', default='/usr/share/unicode')
    ap.add_argument('-o', '--output', default='-')
    args = ap.parse_args()
    assigned, ccc, decomp, fold, ignorable = load(args.ucd)
    value, seqs, nfdi, nfdicf = build(assigned, ccc, decomp, fold, ignorable)
    counts = (f'{len(assigned)} characters of 12.1.0, {len(ccc)} with a combining class, '
              f'{len(nfdi)} NFDI and {len(nfdicf)} NFDICF mappings '
              f'({len(ignorable)} of them ignorables, mapped to nothing)')
    text, size = emit(value, seqs, counts)
    if args.output == '-':
        sys.stdout.write(text)
    else:
        with open(args.output, 'w', encoding='utf-8') as f:
            f.write(text)


if __name__ == '__main__':
    main()
