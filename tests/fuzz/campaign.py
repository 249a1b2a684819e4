#!/usr/bin/env python3
"""The fuzz campaign: structure-aware mutants of several bases, each checked,
repaired, checked again, and what the repair kept compared with the base.

  campaign.py --build DIR --work DIR [--bases a,b] (--seeds A:B | --minutes M)
              [--jobs N] [--timeout S] [--bucket MIN] [--xfail FILE]
  campaign.py --build DIR --work DIR --resume --minutes M [...]
  campaign.py --work DIR --report [--bucket MIN]

A campaign keeps its state in WORK/state.json after every mutant: the
build it runs (fsck.f2fs, dump.f2fs and f2fs-mutate by content), its
elapsed time, its counts, and the next seed. --resume goes on with it, on
the same build only, so one campaign can be longer than one sitting (its
runs are listed); --report prints the summary of the state so far (a run
that was cut off included).

Bases (made once in WORK/bases, kept for the next run):
  ours          our mkfs --rootdir, the Android feature set (extra_attr,
                inode_checksum, sb_checksum, flexible_inline_xattr,
                lost_found, quota), 64 MiB
  ours-default  our mkfs --rootdir, default features, 64 MiB
  sload-default f2fs-tools' mkfs.f2fs + sload.f2fs (as repair-matrix.sh)
  sload-android the same with the Android feature set
  kernel-ssr    tests/fsck/matrix-bases/kernel-ssr.img.bz2 (kernel-aged)
each holding the tree of tests/fsck/common.sh (make_tree).

Per mutant (a seed on a base; tests/fuzz/f2fs-mutate makes it):
  fsck -n      must not crash; exit 8 means the mutant does not open (it is
               counted, nothing more is asked of it)
  fsck -y      the repair
  fsck -n      the recheck
Classes written to WORK/findings.tsv (elapsed seconds, seed, base, class,
mutation line, detail):
  crash        a signal, a sanitizer report, or an exit fsck never gives
  timeout      a run longer than --timeout seconds
  nonconv      the repair exited 0 or 1 and the recheck is not clean
  exit4-noreason  the repair exited 4 and no line says what was not fixed
  exit8        the repair could not run on a mutant the check opened
  lost         a file of the base whose blocks the mutation did not touch
               (its inode block, node blocks, data blocks, and the blocks
               holding its nids' live NAT entries, as f2fs-mutate --files
               lists them) is missing from what dump.f2fs --extract gives
               after a repair that exited 0 or 1, at its path and, by
               content, anywhere else (lost+found)
  extract      dump.f2fs --extract failed on a repaired image whose recheck
               is clean
Not findings, counted: converged (the repair exited 0/1, recheck clean),
exit4 (not fixed, with the reason line kept in WORK/exit4.tsv), unopened.
Convergence rate = converged / (mutants that open), over the seeds alone
(not the units --extra replays).

--xfail FILE lists known findings ("BASE SEED CLASS", # comments): they are
XFAIL, not failures; a listed one that no longer happens is XPASS. The exit
status is 1 when a finding is not listed or a listed one passes, else 0.
Reproduce one: see the "repro" line printed for each finding.
"""
import argparse, hashlib, json, os, re, shutil, subprocess, sys, tempfile, time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
ANDROID = 'extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,lost_found,quota'
PEER = os.environ.get('PEER_DIR', '/usr/sbin')
UUID = '01234567-89ab-cdef-0123-456789abcdef'
SAN_ENV = {
    'ASAN_OPTIONS': 'exitcode=99:detect_leaks=0:abort_on_error=0',
    'UBSAN_OPTIONS': 'halt_on_error=1:exitcode=99:print_stacktrace=1',
}
SAN_RE = re.compile(r'AddressSanitizer|UndefinedBehaviorSanitizer|runtime error:|LeakSanitizer')


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=dict(os.environ, **SAN_ENV), **kw)


def make_tree(d):
    r = sh(['bash', '-c', '. "$1/common.sh"; make_tree "$2"', 'x',
            os.path.join(SRC, 'tests', 'fsck'), d])
    if r.returncode:
        sys.exit('make_tree failed: ' + r.stderr.decode())
    # every time fixed, so that our mkfs --rootdir makes the same base on
    # every run (a seed names the same mutant)
    sh(['find', d, '-exec', 'touch', '-h', '-d', '@1700000000', '{}', '+'])


def make_base(name, img, build, tmp):
    tree = os.path.join(tmp, 'tree')
    if not os.path.isdir(tree):
        make_tree(tree)
    mkfs = os.path.join(build, 'mkfs', 'mkfs.f2fs')
    if os.path.exists(img):
        os.unlink(img)
    if name in ('ours', 'ours-default'):
        cmd = [mkfs, '-q', '-T', '1700000000', '-U', UUID]
        if name == 'ours':
            cmd += ['-O', ANDROID]
        r = sh(cmd + ['--rootdir', tree, '-S', img, '131072'])
        return None if r.returncode == 0 else 'mkfs: ' + r.stderr.decode()[-300:]
    if name.startswith('sload-'):
        for t in ('mkfs.f2fs', 'sload.f2fs'):
            if not os.access(os.path.join(PEER, t), os.X_OK):
                return "f2fs-tools' %s missing" % t
        with open(img, 'wb') as f:
            f.truncate(128 << 20)
        cmd = [os.path.join(PEER, 'mkfs.f2fs'), '-q', '-f', '-r', '-T', '1700000000', '-U', UUID]
        if name == 'sload-android':
            cmd += ['-O', ANDROID]
        r = sh(cmd + [img])
        if r.returncode:
            return 'mkfs.f2fs: ' + r.stderr.decode()[-300:]
        r = sh([os.path.join(PEER, 'sload.f2fs'), '-f', tree, '-T', '1700000000', img])
        ok = r.returncode == 0 or (r.returncode == 1 and name == 'sload-android')
        return None if ok else 'sload.f2fs exit %d' % r.returncode
    bz = os.path.join(SRC, 'tests', 'fsck', 'matrix-bases', name + '.img.bz2')
    if not os.path.exists(bz):
        return 'no such base'
    with open(img, 'wb') as f:
        r = subprocess.run(['bzip2', '-dc', bz], stdout=f)
    return None if r.returncode == 0 else 'bzip2 failed'


def digest(path):
    h = hashlib.sha1()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            h.update(chunk)
    return h.hexdigest()


def manifest(root):
    """relative path -> sha1 of every regular file under root"""
    out = {}
    for d, _, files in os.walk(root):
        for n in files:
            p = os.path.join(d, n)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            out['/' + os.path.relpath(p, root)] = digest(p)
    return out


class Base:
    def __init__(self, name, img, ref, deps):
        self.name, self.img, self.ref, self.deps = name, img, ref, deps


def prepare_bases(names, build, work):
    bdir = os.path.join(work, 'bases')
    os.makedirs(bdir, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=work)
    dump = os.path.join(build, 'dump', 'dump.f2fs')
    mut = os.path.join(build, 'tests', 'fuzz', 'f2fs-mutate')
    bases = []
    try:
        for n in names:
            img = os.path.join(bdir, n + '.img')
            if not os.path.exists(img):
                why = make_base(n, img, build, tmp)
                if why:
                    print('base %s: not made: %s' % (n, why.strip()))
                    if os.path.exists(img):
                        os.unlink(img)
                    continue
            x = os.path.join(tmp, 'x-' + n)
            r = sh([dump, '--extract', '/', '-o', x, img])
            if r.returncode:
                print('base %s: dump.f2fs --extract failed: %s' % (n, r.stderr.decode()[-200:]))
                continue
            ref = manifest(x)
            r = sh([mut, '--files', img])
            if r.returncode:
                print('base %s: f2fs-mutate --files failed: %s' % (n, r.stderr.decode()))
                continue
            deps = {}
            for line in r.stdout.decode().splitlines():
                path, _, blocks = line.split('\t')
                deps[path] = set(int(b) for b in blocks.split(',') if b)
            bases.append(Base(n, img, ref, deps))
            print('base %s: %d files' % (n, len(ref)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return bases


def run(cmd, timeout):
    env = dict(os.environ, **SAN_ENV)
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None, ''
    return r.returncode, (r.stdout + r.stderr).decode(errors='replace')


def crashed(rc, out):
    return rc < 0 or rc not in (0, 1, 4, 8) or SAN_RE.search(out) is not None


def first_line(out, pat):
    for l in out.splitlines():
        if re.search(pat, l):
            return l.strip()[:300]
    return ''


def one(base, seed, args, wdir):
    """-> (class, mutation line, detail)"""
    fsck = os.path.join(args.build, 'fsck', 'fsck.f2fs')
    dump = os.path.join(args.build, 'dump', 'dump.f2fs')
    mut = os.path.join(args.build, 'tests', 'fuzz', 'f2fs-mutate')
    img = os.path.join(wdir, 'm.img')
    shutil.copyfile(base.img, img)
    r = sh([mut, img, str(seed)])
    line = r.stdout.decode().strip()
    if r.returncode:
        return 'nomutant', '', r.stderr.decode().strip()
    touched = set(int(b) for b in line.rsplit('| blocks ', 1)[1].split(',') if b)
    steps = (('check', ['-n']), ('repair', ['-y']), ('recheck', ['-n']))
    rcs = []
    for name, opt in steps:
        rc, out = run([fsck] + opt + [img], args.timeout)
        if rc is None:
            return 'timeout', line, '%s took over %d s' % (name, args.timeout)
        if crashed(rc, out):
            return 'crash', line, '%s exit %d: %s' % (
                name, rc, first_line(out, SAN_RE.pattern + '|SUMMARY|Assertion') or out[-300:].replace('\n', ' '))
        rcs.append(rc)
        if name == 'check' and rc == 8:
            return 'unopened', line, first_line(out, 'fsck.f2fs:')
        if name == 'repair':
            repair_out = out
    rc1, rc2, rc3 = rcs
    if rc2 == 8:
        return 'exit8', line, first_line(repair_out, 'fsck.f2fs:') or repair_out[-200:]
    if rc2 == 4:
        why = first_line(repair_out, r': not fixed')
        if not why:
            return 'exit4-noreason', line, 'recheck exit %d' % rc3
        return 'exit4', line, why
    if rc3 != 0:
        return 'nonconv', line, 'repair exit %d, recheck exit %d: %s' % (
            rc2, rc3, first_line(out, r'^(ERROR|WARNING) '))
    # files kept
    x = os.path.join(wdir, 'x')
    shutil.rmtree(x, ignore_errors=True)
    try:
        r = subprocess.run([dump, '--extract', '/', '-o', x, img], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=args.timeout, env=dict(os.environ, **SAN_ENV))
    except subprocess.TimeoutExpired:
        return 'timeout', line, 'dump.f2fs --extract took over %d s' % args.timeout
    if crashed(r.returncode, r.stderr.decode(errors='replace')) and r.returncode not in (1, 2):
        return 'crash', line, 'dump.f2fs --extract exit %d' % r.returncode
    if r.returncode:
        return 'extract', line, r.stderr.decode(errors='replace').strip()[-200:]
    got = manifest(x)
    have = set(got.values())
    lost = []
    for path, sha in base.ref.items():
        dep = base.deps.get(path)
        if dep is None or dep & touched:
            continue
        if got.get(path) == sha or sha in have:
            continue
        lost.append(path if path in got else path + ' (missing)')
    shutil.rmtree(x, ignore_errors=True)
    if lost:
        return 'lost', line, '%d file(s): %s' % (len(lost), ' '.join(sorted(lost)[:5]))
    return 'converged', line, 'exit %d/%d/%d' % (rc1, rc2, rc3)


FINDINGS = ('crash', 'timeout', 'nonconv', 'exit4-noreason', 'exit8', 'lost', 'extract')


def signature(cls, line):
    """a finding's kind, for grouping: the class and the mutation without
    its numbers"""
    m = line.split(' ', 1)[1] if ' ' in line else line
    m = m.split(' | ')[0]
    m = re.sub(r'0x[0-9a-f]+->0x[0-9a-f]+', '', m)
    m = re.sub(r'\b(blk|nid|seg|dir|copy|slot|entry) \d+', r'\1', m)
    m = re.sub(r'\[\d+\]', '[]', m)
    m = re.sub(r'\(random \d+\.\.\d+\)|\(byte \d+ flipped\)|byte \d+', '', m)
    return cls + ': ' + re.sub(r'\s+', ' ', m).strip()


def build_id(build):
    """the programs a campaign runs, by content: a resumed campaign runs
    the same ones"""
    h = hashlib.sha256()
    for rel in ('fsck/fsck.f2fs', 'tests/fuzz/f2fs-mutate', 'dump/dump.f2fs'):
        with open(os.path.join(build, rel), 'rb') as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def save_state(path, st):
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        json.dump(st, f)
    os.replace(tmp, path)


def summarize(st, bucket):
    """the campaign so far, from its state: classes, convergence, and per
    bucket the failing mutants and the new kinds among them"""
    counts, el = st['counts'], st['elapsed']
    done = sum(counts.values())
    opened = done - counts.get('unopened', 0) - counts.get('nomutant', 0)
    conv = counts.get('converged', 0)
    rate = 100.0 * conv / opened if opened else 100.0
    nb = int(el // (bucket * 60)) + 1

    def per(key):
        v = [0] * nb
        for m, n in st[key].items():
            v[min(int(m) // int(max(bucket, 1)), nb - 1)] += n
        return ' '.join(str(x) for x in v)
    lines = ['campaign: %d mutants in %.0f s (%.2f h) over %s, build %s' % (
        done, el, el / 3600, ','.join(st['bases']), st['build'])]
    if len(st['sessions']) > 1:
        lines.append('runs (elapsed seconds from, to): ' + ', '.join(
            '%s-%s' % (a, b) for a, b in st['sessions']))
    lines.append('classes: ' + ', '.join('%s %d' % kv for kv in sorted(counts.items())))
    lines.append('convergence: %d of %d that open (%.2f%%); exit 4 with a reason: %d' % (
        conv, opened, rate, counts.get('exit4', 0)))
    lines.append('failing mutants per %g min: %s' % (bucket, per('buckets')))
    lines.append('new kinds of finding per %g min: %s' % (bucket, per('newclass')))
    for sg, where in sorted(st['sigs'].items(), key=lambda kv: -len(kv[1])):
        lines.append('  %3d  %s  (e.g. %s seed %d)' % (len(where), sg, where[0][0], where[0][1]))
    return '\n'.join(lines)


def load_xfail(path):
    xf = {}
    if path and os.path.exists(path):
        for l in open(path):
            l = l.split('#', 1)[0].split()
            if len(l) >= 3:
                xf[(l[0], int(l[1]))] = l[2]
    return xf


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', default=None)
    ap.add_argument('--work', required=True)
    ap.add_argument('--bases', default='ours,ours-default,sload-default,sload-android,kernel-ssr')
    ap.add_argument('--seeds', default=None, help='A:B, the seeds A..B-1 on every base')
    ap.add_argument('--minutes', type=float, default=None)
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--timeout', type=int, default=60)
    ap.add_argument('--bucket', type=float, default=60, help='minutes of a line of the summary')
    ap.add_argument('--xfail', default=None)
    ap.add_argument('--extra', default=None, help='file of "BASE SEED" pairs to run too')
    ap.add_argument('--resume', action='store_true',
                    help='go on with the campaign WORK/state.json records (same build)')
    ap.add_argument('--report', action='store_true',
                    help='print the summary of WORK/state.json and stop')
    args = ap.parse_args()
    if not args.report and not args.build:
        ap.error('--build is needed')
    args.build = os.path.abspath(args.build) if args.build else None
    os.makedirs(args.work, exist_ok=True)
    spath = os.path.join(args.work, 'state.json')
    if args.report:
        st = json.load(open(spath))
        print(summarize(st, args.bucket))
        return 0
    bases = prepare_bases(args.bases.split(','), args.build, args.work)
    if not bases:
        print('campaign: no base')
        return 77
    byname = {b.name: b for b in bases}
    xfail = load_xfail(args.xfail)

    def jobs():
        if args.extra and os.path.exists(args.extra):
            for l in open(args.extra):
                l = l.split('#', 1)[0].split()
                if len(l) >= 2 and l[0] in byname:
                    yield byname[l[0]], int(l[1]), True
        if args.seeds:
            a, b = (int(x) for x in args.seeds.split(':'))
            for s in range(a, b):
                for base in bases:
                    yield base, s, False
        else:
            s = st['next_seed'] if st['next_seed'] is not None else int(time.time()) % 1000000 * 1000
            while True:
                for base in bases:
                    yield base, s, False
                s += 1

    bid = build_id(args.build)
    if args.resume:
        st = json.load(open(spath))
        if st['build'] != bid:
            print('campaign: %s holds a campaign of another build (fsck.f2fs and '
                  'f2fs-mutate differ): not resumed' % spath)
            return 2
        if args.seeds:
            print('campaign: --resume goes on with the seeds it left: no --seeds')
            return 2
    else:
        st = {'build': bid, 'bases': [b.name for b in bases], 'elapsed': 0.0, 'sessions': [],
              'counts': {}, 'buckets': {}, 'newclass': {}, 'sigs': {}, 'next_seed': None}
    # elapsed time goes on from where a resumed campaign stopped
    start = time.time() - st['elapsed']
    st['sessions'].append([round(st['elapsed']), None])
    deadline = time.time() + args.minutes * 60 if args.minutes else None
    ftsv = open(os.path.join(args.work, 'findings.tsv'), 'a')
    e4tsv = open(os.path.join(args.work, 'exit4.tsv'), 'a')
    counts, sigs = st['counts'], st['sigs']
    fails, xfails, xpass = [], [], []
    seen_x = set()
    wdirs = [tempfile.mkdtemp(dir=args.work) for _ in range(args.jobs)]

    def work(i, base, seed, replay):
        cls, line, detail = one(base, seed, args, wdirs[i])
        return base, seed, cls, line, detail, replay

    it = jobs()
    done = 0
    with ThreadPoolExecutor(args.jobs) as ex:
        pending = {}
        def submit(i):
            if deadline and time.time() > deadline:
                return False
            try:
                base, seed, replay = next(it)
            except StopIteration:
                return False
            pending[ex.submit(work, i, base, seed, replay)] = i
            return True
        for i in range(args.jobs):
            submit(i)
        while pending:
            fut = next(iter(pending))
            for f in list(pending):
                if f.done():
                    fut = f
                    break
            else:
                time.sleep(0.02)
                continue
            i = pending.pop(fut)
            base, seed, cls, line, detail, replay = fut.result()
            el = time.time() - start
            # the replayed units (--extra) are checked, not counted
            if not replay:
                done += 1
                counts[cls] = counts.get(cls, 0) + 1
                if seed + 1 > (st['next_seed'] or 0) and args.seeds is None:
                    st['next_seed'] = seed + 1
            key = (base.name, seed)
            if cls == 'exit4':
                e4tsv.write('%s\t%d\t%s\t%s\n' % (base.name, seed, line, detail))
                e4tsv.flush()
            if cls in FINDINGS or key in xfail:
                seen_x.add(key)
                if key in xfail and xfail[key] == cls:
                    xfails.append((base.name, seed, cls, line, detail))
                elif key in xfail and cls not in FINDINGS:
                    xpass.append((base.name, seed, xfail[key], line))
                else:
                    b = str(int(el // 60))
                    sg = signature(cls, line)
                    if not replay:
                        st['buckets'][b] = st['buckets'].get(b, 0) + 1
                        if sg not in sigs:
                            st['newclass'][b] = st['newclass'].get(b, 0) + 1
                    sigs.setdefault(sg, []).append((base.name, seed))
                    fails.append((base.name, seed, cls, line, detail))
                    ftsv.write('%.0f\t%d\t%s\t%s\t%s\t%s\n' % (el, seed, base.name, cls, line, detail))
                    ftsv.flush()
                    print('FINDING %s: %s seed %d: %s\n    %s\n    repro: cp %s m.img && '
                          '%s/tests/fuzz/f2fs-mutate m.img %d && %s/fsck/fsck.f2fs -y m.img; '
                          '%s/fsck/fsck.f2fs -n m.img' % (
                              cls, base.name, seed, line, detail, base.img, args.build, seed,
                              args.build, args.build), flush=True)
            if not replay:
                st['elapsed'] = time.time() - start
                st['sessions'][-1][1] = round(st['elapsed'])
                save_state(spath, st)
            submit(i)
    for w in wdirs:
        shutil.rmtree(w, ignore_errors=True)
    st['elapsed'] = time.time() - start
    st['sessions'][-1][1] = round(st['elapsed'])
    save_state(spath, st)
    lines = [summarize(st, args.bucket)]
    for b, s, cls, line, _ in xfails:
        lines.append('XFAIL: %s %d %s' % (b, s, cls))
    for b, s, cls, line in xpass:
        lines.append('XPASS: %s %d (listed as %s) passes: take it off the list' % (b, s, cls))
    for key, cls in sorted(xfail.items()):
        if key not in seen_x and key[0] in byname and args.extra:
            pass
    text = '\n'.join(lines)
    print(text)
    with open(os.path.join(args.work, 'summary.txt'), 'w') as f:
        f.write(text + '\n')
    return 1 if fails or xpass else 0


if __name__ == '__main__':
    sys.exit(main())
