#!/usr/bin/env python3
"""Outcomes of fstests runs made by scripts/test/xfstests.sh.

  xfstests-report.py summary RUNDIR
      one line per test that did not pass, then "N passed, N failed,
      N skipped"; exit status 1 when a test failed
  xfstests-report.py doc [-o FILE] [RUNDIR...]
      docs/test/xfstests.md: every run (default: build/xfstests/*/), our
      driver and the in-tree one side by side per selection

A RUNDIR holds run.info (written by the host script) and results/ (fstests'
RESULT_BASE, brought back from the VM).  Outcomes come from fstests' own
xunit report: results/result.xml when check finished, else the per-test
entries it had written so far (results/partial.xunit.xml, a snapshot taken
in the guest every two minutes), so a run cut off by its timeout still
counts what it finished.  Tests excluded by tests/xfstests/exclude appear in
check's output (results/check.out) as "[expunged]".
"""
import argparse
import datetime
import glob
import html
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTCASE = re.compile(r'<testcase\b[^>]*\bname="([^"]+)"[^>]*\btime="([^"]*)"[^>]*?(/?)>')
SKIPPED = re.compile(r'<skipped(?:\s+message="([^"]*)")?\s*/>')
FAILURE = re.compile(r'<failure\s+message="([^"]*)"')


def read_info(run):
    info = {}
    try:
        with open(os.path.join(run, 'run.info')) as f:
            for line in f:
                k, _, v = line.rstrip('\n').partition('=')
                info[k] = v
    except OSError:
        pass
    return info


def xsrc(run):
    """The fstests tree the run used (run.info's src=), for expected outputs."""
    return read_info(run).get('src') or os.path.join(TOP, 'build/xfstests-src')


def group_size(run, groups):
    """How many tests of tests/generic belong to any of GROUPS (a,b)."""
    want = set(groups.split(','))
    n = 0
    for t in glob.glob(os.path.join(xsrc(run), 'tests/generic/[0-9]*')):
        if not re.fullmatch(r'\d+', os.path.basename(t)):
            continue
        with open(t, errors='replace') as f:
            m = re.search(r'^_begin_fstest\s+(.*)$', f.read(), re.M)
        if m and want & set(m.group(1).split()):
            n += 1
    return n


def parse_xunit(text):
    """{test: (status, seconds, reason)} from fstests' xunit testcases."""
    out = {}
    cases = list(TESTCASE.finditer(text))
    for i, m in enumerate(cases):
        name, secs = m.group(1), m.group(2)
        end = cases[i + 1].start() if i + 1 < len(cases) else len(text)
        body = '' if m.group(3) else text[m.end():end]
        body = body.split('</testcase>')[0]
        s, f = SKIPPED.search(body), FAILURE.search(body)
        if f:
            out[name] = ('fail', secs, html.unescape(f.group(1)))
        elif s:
            out[name] = ('notrun', secs, html.unescape(s.group(1) or ''))
        else:
            out[name] = ('pass', secs, '')
    return out


def detail_mismatch(run, res, out):
    # "output mismatch" says little: add the first line of the test's
    # output that the expected output (from the fstests tree of the run)
    # does not have, e.g. "touch: cannot touch 'f': Read-only file system".
    for t, (st, secs, why) in out.items():
        bad = os.path.join(res, t + '.out.bad')
        if st != 'fail' or 'output mismatch' not in why or not os.path.exists(bad):
            continue
        want = set()
        # T.out, or T.out.default and variants chosen by T.cfg
        for exp in glob.glob(os.path.join(xsrc(run), 'tests', t + '.out*')):
            with open(exp, errors='replace') as f:
                want |= set(f.read().splitlines())
        with open(bad, errors='replace') as f:
            extra = [ln for ln in f.read().splitlines() if ln.strip() and ln not in want]
        if extra:
            out[t] = (st, secs, 'output mismatch: ' + extra[0].strip())


def outcomes(run):
    """({test: (status, seconds, reason)}, complete) for one run."""
    res = os.path.join(run, 'results')
    # complete: check ended and the guest reported its status (fstests may
    # write a result.xml before that, so the file alone does not say)
    info = read_info(run)
    complete = (os.path.exists(os.path.join(res, 'result.xml')) and
                info.get('vm_status', '0') != '124' and
                info.get('guest_status', 'none') != 'none')
    text = ''
    for name in ('result.xml', 'partial.xunit.xml'):
        p = os.path.join(res, name)
        if os.path.exists(p):
            with open(p, errors='replace') as f:
                text = f.read()
            break
    out = parse_xunit(text)
    # check's output as the host saw it live (output.log), else as saved in
    # the guest: the tests that ended after the last snapshot of a cut-off
    # run, the excluded ones, and the test that was running at the end.
    lines = []
    for p in (os.path.join(run, 'output.log'), os.path.join(res, 'check.out')):
        try:
            with open(p, errors='replace') as f:
                lines = f.read().splitlines()
            break
        except OSError:
            pass
    last = None
    for line in lines:
        m = re.match(r'^(\w+/\d+)\s+(.*)$', line)
        if not m:
            continue
        t, rest = m.group(1), m.group(2).strip()
        last = t
        if '[expunged]' in rest:
            out[t] = ('excluded', '', '')
        elif t in out:
            continue
        elif rest.startswith('[not run]'):
            out[t] = ('notrun', '', rest[len('[not run]'):].strip())
        elif 'output mismatch' in rest or '[failed' in rest:
            out[t] = ('fail', '', rest)
        elif re.fullmatch(r'(\d+s \.\.\.\s+)?\d+s', rest):
            out[t] = ('pass', rest.split()[-1][:-1], '')
    detail_mismatch(run, res, out)
    if not complete and last and last not in out:
        # the host's time limit ended the VM during this test: slow or hung,
        # it has no outcome; counted with the skipped ones
        out[last] = ('cut', '', 'still running when the time limit of the run ended it')
    return out, complete


def counts(out):
    p = sum(1 for s in out.values() if s[0] == 'pass')
    f = sum(1 for s in out.values() if s[0] == 'fail')
    n = sum(1 for s in out.values() if s[0] in ('notrun', 'cut'))
    x = sum(1 for s in out.values() if s[0] == 'excluded')
    return p, f, n, x


def testkey(name):
    d, _, n = name.partition('/')
    return (d, int(n) if n.isdigit() else 0, n)


def summary(run):
    out, complete = outcomes(run)
    if not out:
        print(f'xfstests: no results in {run}/results (see {run}/output.log)')
    for t in sorted(out, key=testkey):
        st, secs, why = out[t]
        if st in ('fail', 'notrun', 'cut'):
            word = {'fail': 'FAIL', 'notrun': 'not run', 'cut': 'cut off'}[st]
            print(f'  {t:<14} {word}: {why.strip()}')
    p, f, n, x = counts(out)
    if not complete:
        print('xfstests: partial results (check did not finish)')
    print(f'results: {os.path.relpath(run, TOP)}/results; excluded by tests/xfstests/exclude: {x}')
    print(f'{p} passed, {f} failed, {n} skipped')
    return 1 if f else 0


def cell(o):
    if o is None:
        return '—'
    st, secs, why = o
    why = ' '.join(why.split()).replace('|', '\\|')
    if len(why) > 110:
        why = why[:107] + '...'
    if st == 'pass':
        return f'pass ({secs} s)' if secs else 'pass'
    if st == 'fail':
        return f'**fail**: {why}' if why else '**fail**'
    if st == 'notrun':
        return f'not run: {why}' if why else 'not run'
    if st == 'cut':
        return f'cut off: {why}'
    return 'excluded'


def doc(runs, path):
    runs = [r for r in runs if os.path.exists(os.path.join(r, 'run.info'))]
    groups = {}
    for r in runs:
        info = read_info(r)
        key = (info.get('label', '?'), info.get('variant', '?'))
        groups.setdefault(key, {})[info.get('driver', '?')] = (r, info)
    o = []
    w = o.append
    w('# fstests (xfstests) on ntfs3: our driver and the in-tree one')
    w('')
    w(f'Generated by `scripts/test/xfstests-report.py doc` on {datetime.date.today()} from the')
    w('result directories of `make xfstests` runs (`build/xfstests/DRIVER-VARIANT-LABEL/`).')
    w('How to run it, and how the guest is set up: docs/testing.md, *fstests*;')
    w('`scripts/test/xfstests.sh`, `tests/xfstests/`.')
    w('')
    w('Setup: fstests has no `ntfs3` entry, so `FSTYP=ntfs3` takes its generic')
    w('paths: `mkfs -t ntfs3` is `mkntfs -F -f -q`, `fsck -t ntfs3 -n` is the')
    w("project's `fsck.ntfs3` (or a stub that checks nothing, named in the run")
    w('table when used), `mount -t ntfs3` is whichever ntfs3 module the guest')
    w('loaded.  Test and scratch volumes: fresh sparse images on virtio disks.')
    w('Both drivers mount read-write.  The tables show the runs whose result')
    w('directories are on this machine; a driver without a run of a selection')
    w('shows a dash (runs are hours under TCG, so not every pairing is kept).')
    w('')
    w("Both drivers run on the project's kernels (tinyconfig plus `configs/`),")
    w('which have no device-mapper, AIO, quota or inotify: tests that need those')
    w('are *not run* for either driver (*requires dm flakey support*...).')
    w('')
    w('*time* is the wall clock of the whole run (kernel and initramfs check, boot,')
    w('unpacking the guest, the tests) under QEMU TCG on 2 host cores shared with')
    w("other jobs; fstests' own per-test seconds are in the test tables.")
    w('')
    w('Counts: *passed*, *failed*, *not run* (fstests decided the test cannot run')
    w('here, reason given; a partial run also counts here the one test that was')
    w('still running when its time limit ended it, marked *cut off*), *excluded*')
    w('(`tests/xfstests/exclude`, every entry says why it cannot apply to NTFS).')
    for (label, variant) in sorted(groups, key=lambda k: (k[0] != 'smoke', k)):
        g = groups[(label, variant)]
        w('')
        w(f'## {label} ({variant} kernel)')
        w('')
        w('| driver | date | fstests commit | fsck | time | complete | passed | failed | not run | excluded |')
        w('|---|---|---|---|---|---|---|---|---|---|')
        res = {}
        for drv in ('ours', 'intree'):
            if drv not in g:
                continue
            r, info = g[drv]
            out, complete = outcomes(r)
            res[drv] = out
            p, f, n, x = counts(out)
            el = int(info.get('elapsed', '0') or 0)
            comp = 'yes' if complete else f'**partial** (cut off after {el // 60} min)'
            w(f'| {"ours" if drv == "ours" else "in-tree"} | {info.get("date", "?")} | '
              f'`{info.get("fstests", "?")[:12]}` | {info.get("fsck", "?")} | '
              f'{el // 60} min {el % 60} s | {comp} | {p} | {f} | {n} | {x} |')
        sel = next(iter(g.values()))[1].get('selection', '')
        if sel.startswith('-g '):
            n = group_size(next(iter(g.values()))[0], sel[3:].split()[0])
            if n:
                w('')
                w(f'The group has {n} tests for `FSTYP=ntfs3` (tests/generic); a partial run')
                w('lists only those it reached, in fstests\' order.')
        w('')
        w(f'Selection: `{next(iter(g.values()))[1].get("selection", "?")}`; '
          f'fstests commit `{next(iter(g.values()))[1].get("fstests", "?")}`.')
        w('')
        tests = sorted(set().union(*[set(v) for v in res.values()]) if res else [], key=testkey)
        w('| test | ours | in-tree |')
        w('|---|---|---|')
        for t in tests:
            w(f'| {t} | {cell(res.get("ours", {}).get(t))} | {cell(res.get("intree", {}).get(t))} |')
    w('')
    w('## Excluded tests')
    w('')
    w('From `tests/xfstests/exclude` (`check -E`): tests that cannot apply to NTFS.')
    w('')
    try:
        with open(os.path.join(TOP, 'tests/xfstests/exclude')) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith('#'):
                    t, _, why = line.partition('#')
                    w(f'- `{t.strip()}`: {why.strip()}')
    except OSError:
        pass
    w('')
    with open(path, 'w') as f:
        f.write('\n'.join(o))
    print(f'wrote {path}')


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    s = sub.add_parser('summary')
    s.add_argument('run')
    d = sub.add_parser('doc')
    d.add_argument('-o', default=os.path.join(TOP, 'docs/test/xfstests.md'))
    d.add_argument('runs', nargs='*')
    a = ap.parse_args()
    if a.cmd == 'summary':
        sys.exit(summary(a.run))
    runs = a.runs or sorted(glob.glob(os.path.join(TOP, 'build/xfstests/*/')))
    doc([r.rstrip('/') for r in runs], a.o)


if __name__ == '__main__':
    main()
