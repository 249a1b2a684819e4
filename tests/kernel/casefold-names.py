#!/usr/bin/env python3
"""Names for tests/kernel/casefold-names.sh, and the comparison of its results.

  casefold-names.py gen OUTDIR       write OUTDIR/names.hex (one name a line)
                                     and OUTDIR/alts.hex (INDEX HEX: another
                                     form of name INDEX, 1-based, to look up)
  casefold-names.py compare OUTDIR   read names.keys, alts.keys (cf-tool keys),
                                     guest.out (mknames), stored.txt (cf-tool
                                     dir), and when there is one the mkfs
                                     --rootdir copy's copy-stored.txt and
                                     copy.out; print FAIL lines and a summary

Names cover the scripts and the corner cases of the kernel's utf8 folding:
Latin with combining marks and precomposed forms, sharp s, Turkish i, Greek
final sigma and ypogegrammeni, Cyrillic, Armenian, Georgian, Cherokee,
ligatures, full-width forms, Hangul, CJK, emoji with variation selectors,
Deseret (4-byte case pairs), default ignorables, characters assigned after
Unicode 12.1, unassigned code points, invalid UTF-8 and foldings near the
255-byte limit, plus random strings over all of these (fixed seed;
F2FS_CF_RANDOM of them, 600 by default).
"""
import os
import random
import sys
import unicodedata

FIXED = [
    'Straße', 'STRASSE', 'ẞ', 'İstanbul', 'ıi', 'ISPARTA', 'ΟΔΟΣ', 'οδος', 'οδοσ',
    'ᾼ', 'ά', 'ΐ', 'ᾴ', 'α\u0345\u0301', 'α\u0301\u0345', 'Привет', 'ЁЖИК', 'ёжик',
    'Բարեւ', 'և', 'ﬁle', 'ﬃ', 'ﬆ', 'ᲐᲑᲒ', 'აბგ', 'ᏣᎳᎩ', 'ꮳꮃꭹ', 'ᏸᏹ', 'ＡＢＣ', 'ａｂｃ',
    '한국어', '가각힣', '\u1100\u1161', '中文名字', '日本語のファイル', '😀', '❤\ufe0f', '❤',
    '👍🏽', '👩\u200d💻', 'Café', 'Cafe\u0301', 'CAFÉ', 'e\u0301\u0316', 'e\u0316\u0301',
    'a\u200bb', 'co\u00adop', 'K', '\u212a', 'Å', '\u212b', 'Ω', '\u2126', 'ǅ', 'ǆ', 'Ǆ',
    '𐐀𐐁', '𐐨𐐩', '𞤀', '𞤢', 'Ꭰ', '\ue000', '\uffff', '\u32ff', 'ⓐⒶ', 'Ⅻ', 'ⅻ',
    '\U0001f972', 'A\U0001f972', '\u0870', 'A\u0378', 'x\U000e0001y', 'A\u180f',
    'A\U000e0080B', 'A\U000e01f0', 'A\ufff0', 'A\u2065', 'A\U0002fffe', 'A\U00040000',
    'A\U0010fffd', 'A\U0010ffff', 'A\U000f0000', 'A\u0870\u0301\u0316',
]
# invalid UTF-8 (and quirks), each with an upper-case letter, so that a
# folding would show in the hash
INVALID = [b'A\xff', b'A\xc0\xaf', b'A\xed\xa0\x80', b'A\xed\xbf\xbf', b'A\xe2\x82',
           b'A\xf4\x90\x80\x80', b'OK\xfe', b'A\xe0\x80\xaf',
           b'A\xf0\x80\x80\xaf', b'A\xf5\x80\x80\x80', b'A\xc1\xbf',
           # stray continuation bytes: copied, once per pass over a run of marks
           b'A\x80bc', b'A\xcc\x81\xcc\x96\x80B', b'A\x80\xcc\x81', b'Ab\x80\x80c',
           b'A\xcc\x81\x80\xcc\x96\xd6\xa2\x80']

# Names the kernel gives no key (it hashes them raw) where f2fs-tools
# (lib/libf2fs.c) hashes their folding, made into a PATH_MAX buffer, even an
# empty one: generated alone with F2FS_CF_ONLY_DIVERGENT=1, so that the peer
# check of the other names stays meaningful.
DIVERGENT = ['ß'.encode() * 127 + b'A',                     # 255 -> 255 bytes
             'ﬃ'.encode() * 85,                             # 255 -> 255
             'Ä'.encode() * 120 + b'abcdefghijklmno',       # 255 -> 375
             '\u200b'.encode(),                             # folds to nothing
             b'A' * 255]                                    # 255 -> 255

# pools for random names: (weight, code points)
POOLS = [
    (6, list(range(0x41, 0x5B)) + list(range(0x61, 0x7B)) + [0x2D, 0x5F, 0x2E]),
    (3, list(range(0xC0, 0x250))),
    (3, list(range(0x300, 0x370)) + list(range(0x591, 0x5BE)) + list(range(0x610, 0x61B))
     + [0x1AB0, 0x1DC0, 0x20D0, 0x302A, 0x3099]),
    (3, list(range(0x370, 0x400)) + list(range(0x1F00, 0x2000))),
    (2, list(range(0x400, 0x530))),
    (1, list(range(0x531, 0x590))),
    (1, list(range(0x10A0, 0x1100)) + list(range(0x1C90, 0x1CC0))),
    (1, list(range(0x13A0, 0x1400)) + list(range(0xAB70, 0xABC0))),
    (1, list(range(0xFB00, 0xFB50)) + list(range(0xFF01, 0xFF5F))),
    (2, list(range(0xAC00, 0xD7A4)) + list(range(0x1100, 0x1200))),
    (1, list(range(0x4E00, 0x4F00)) + list(range(0x3040, 0x3100))),
    (1, list(range(0x1F300, 0x1FA00))),
    (1, [0xAD, 0x34F, 0x61C, 0x115F, 0x180B, 0x200B, 0x200C, 0x200D, 0x2060, 0xFE0F,
         0xFEFF, 0x1D173, 0xE0020, 0xE0100]),
    (1, list(range(0x10400, 0x10450)) + list(range(0x104B0, 0x10500))
     + list(range(0x1E900, 0x1E950)) + list(range(0x16E40, 0x16EA0))),
    (1, list(range(0x2100, 0x2200)) + list(range(0x2460, 0x2500)) + list(range(0x3300, 0x3400))),
    (1, list(range(0x0860, 0x08C0)) + list(range(0x10EC0, 0x10F00)) + [0x0378, 0x1FAF0]),
]


def rand_name(rng):
    n = rng.randint(1, 12)
    pools = [p for w, p in POOLS for _ in range(w)]
    return ''.join(chr(rng.choice(rng.choice(pools))) for _ in range(n))


def encode(s):
    return s.encode('utf-8', 'surrogatepass') if isinstance(s, str) else s


def gen(out):
    rng = random.Random(11)
    names = []
    if os.environ.get('F2FS_CF_ONLY_DIVERGENT'):
        return write(out, list(DIVERGENT))
    for i, s in enumerate(FIXED):
        names.append(f'f{i:03d}-'.encode() + encode(s))
    for i, b in enumerate(INVALID):
        names.append(f'i{i:03d}-'.encode() + b)
    # foldings at the kernel's 255-byte limit: 254 fits, 255 does not
    names.append('ß'.encode() * 127)                  # 254 -> "ss" * 127 = 254
    names.append('ﬃ'.encode() * 84 + b'x')            # 253 -> 253
    names.append(b'B' * 254)                          # 254 -> 254
    for i in range(int(os.environ.get('F2FS_CF_RANDOM', '600'))):
        names.append(f'r{i:04d}-'.encode() + rand_name(rng).encode('utf-8'))
    # stray continuation bytes among marks (the kernel copies them once per
    # ordering pass) and other bytes that are not UTF-8, at random places
    for i in range(int(os.environ.get('F2FS_CF_RANDOM', '600')) // 10):
        b = bytearray(rand_name(rng).encode('utf-8'))
        for _ in range(rng.randint(1, 3)):
            b.insert(rng.randint(0, len(b)), rng.choice([0x80, 0x9F, 0xBF, 0xBF, 0xFF, 0xC0]))
        names.append(f's{i:04d}-'.encode() + bytes(b))
    return write(out, names)


def write(out, names):
    names = [n for n in names if b'/' not in n and b'\0' not in n and 0 < len(n) <= 255]
    alts = []
    for i, b in enumerate(names, 1):
        try:
            s = b.decode('utf-8')
        except UnicodeDecodeError:
            continue
        for f in (str.upper, str.lower, str.swapcase,
                  lambda x: unicodedata.normalize('NFD', x),
                  lambda x: unicodedata.normalize('NFC', x)):
            a = f(s).encode('utf-8')
            if a != b and b'/' not in a and len(a) <= 255:
                alts.append((i, a))
    with open(os.path.join(out, 'names.hex'), 'w') as f:
        f.writelines(n.hex() + '\n' for n in names)
    with open(os.path.join(out, 'alts.hex'), 'w') as f:
        f.writelines(f'{i} {a.hex()}\n' for i, a in alts)
    print(f'{len(names)} names, {len(alts)} other forms to look up')


def keys(path):
    out = []
    with open(path) as f:
        for line in f:
            h, hsh, key = line.split()
            out.append((bytes.fromhex(h), int(hsh, 16), None if key == '-' else key))
    return out


def compare(d):
    ok = fail = 0

    def check(cond, what):
        nonlocal ok, fail
        if cond:
            ok += 1
        else:
            fail += 1
            if fail <= 20:
                print(f'FAIL: {what}')

    names = keys(os.path.join(d, 'names.keys'))
    altk = keys(os.path.join(d, 'alts.keys'))
    alts = [int(l.split()[0]) for l in open(os.path.join(d, 'alts.hex'))]
    res = {}
    for line in open(os.path.join(d, 'guest.out'), errors='replace'):
        p = line.split()
        if len(p) == 3 and p[0] in 'CL':
            res[int(p[1])] = int(p[2])
    stored = {}
    for line in open(os.path.join(d, 'stored.txt')):
        h, hsh = line.split()
        stored[bytes.fromhex(h)] = int(hsh, 16)

    created = raw = 0
    for i, (b, h, key) in enumerate(names, 1):
        r = res.get(i)
        check(r == 0, f'the kernel refused name {i} {b!r}: errno {r}')
        if r != 0:
            continue
        created += 1
        raw += key is None
        check(stored.get(b) == h,
              f'name {i} {b!r}: kernel stored hash {stored.get(b, 0):08x}, ours {h:08x}'
              f' (key {key})')
    check(len(stored) == created, f'{len(stored)} entries on disk, {created} created')
    n = len(names)
    found_ok = 0
    for j, (a, _, akey) in enumerate(altk):
        i = alts[j]
        b, _, key = names[i - 1]
        if res.get(i) != 0:
            continue
        want = (akey is not None and akey == key) or a == b
        got = res.get(n + j + 1) == 0
        check(got == want, f'lookup of {a!r} (a form of {b!r}): kernel '
              f'{"found" if got else "did not find"} it, our keys say '
              f'{"found" if want else "not found"} ({akey} vs {key})')
        found_ok += got
    copy = os.path.join(d, 'copy-stored.txt')
    if os.path.exists(copy):
        cstored = {}
        for line in open(copy):
            h, hsh = line.split()
            cstored[bytes.fromhex(h)] = int(hsh, 16)
        check(cstored == stored, f'the mkfs --rootdir copy holds {len(cstored)} names, '
              f'{sum(cstored.get(b) != h for b, h in stored.items())} of them missing or '
              f'with another hash than the kernel stored')
        cres = {}
        for line in open(os.path.join(d, 'copy.out'), errors='replace'):
            p = line.split()
            if len(p) == 3 and p[0] == 'L':
                cres[int(p[1])] = int(p[2])
        for j, (a, _, _) in enumerate(altk):
            check((cres.get(j + 1) == 0) == (res.get(n + j + 1) == 0),
                  f'lookup of {a!r}: in the copy {cres.get(j + 1)}, in the original '
                  f'{res.get(n + j + 1)}')
    print(f'{created} names created ({raw} without a key, hashed raw), {len(stored)} read back; '
          f'{len(altk)} lookups of other forms, {found_ok} found; {ok} checks passed, {fail} failed')
    return 1 if fail else 0


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == 'gen':
        gen(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == 'compare':
        sys.exit(compare(sys.argv[2]))
    else:
        sys.exit(__doc__)
