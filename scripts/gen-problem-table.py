#!/usr/bin/env python3
"""gen-problem-table.py [--check] MAN_PAGE: the PROBLEMS section of fsck.f2fs(8),
an entry per problem of fsck/problem.h (name, severity, the fix a repair
applies, whether -p/-a may apply it, what it means), written between the
page's '.\\" problems begin' and '.\\" problems end' lines. With --check,
exit 1 when the page's table differs from the one problem.h gives."""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIX_WORDS = {
    'NONE': 'none', 'REBUILD': 'rebuilt', 'REWRITE': 'rewritten', 'FIELD': 'field set',
    'CLEAR': 'cleared', 'MOVE': 'moved', 'CLONE': 'cloned', 'RELINK': 'relinked',
    'TRUNCATE': 'truncated', 'RENAME': 'renamed', 'RECOVER': 'recovered',
    'CANNOT': 'none (cannot)',
}


def rows():
    text = open(os.path.join(HERE, '..', 'fsck', 'problem.h')).read()
    sp = r'[\s\\]*'
    pat = re.compile(r'X\((\w+),' + sp + r'"([^"]+)",' + sp + r'"([^"]+)",' + sp + r'(\w+),' + sp +
                     r'(\w+),' + sp + r'(\w+),' + sp + r'\w+,' + sp +
                     r'((?:"(?:[^"\\]|\\.)*"' + sp + r')+)\)')
    for m in pat.finditer(text):
        desc = ''.join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(7)))
        yield m.group(2), m.group(4).lower(), FIX_WORDS[m.group(5)], m.group(6) == 'PREEN', desc


def roff(s):
    return s.replace('\\', '\\e').replace('-', '\\-')


def table():
    out = []
    for name, sev, fix, preen, desc in rows():
        out += ['.TP', '.B ' + roff(name),
                '%s; fix: %s; \\-p/\\-a: %s. %s.' % (sev, fix, 'yes' if preen else 'no',
                                                      roff(desc[0].upper() + desc[1:]))]
    return '\n'.join(out) + '\n'


def main():
    args = sys.argv[1:]
    check = args[:1] == ['--check']
    page = args[-1]
    text = open(page).read()
    begin, end = '.\\" problems begin\n', '.\\" problems end\n'
    a, b = text.index(begin) + len(begin), text.index(end)
    want = text[:a] + table() + text[b:]
    if check:
        sys.exit(0 if want == text else 1)
    open(page, 'w').write(want)


main()
