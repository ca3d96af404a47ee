#!/usr/bin/env python3
"""compare-results.py REF NEW PREFIX...: the TAP results of the tests whose
names start with a PREFIX (e.g. "ntfs-read/") in two results.log files of
the harness, side by side.  A result is (test, description, which
occurrence of that description in the test): pass, fail or skip (TAP
numbers are not compared: one missing result would shift all the others); a test without TAP counts by its exit code.  Prints
every difference and exits 1 when there is one, 0 when the two runs agree.
"""
import re
import sys

TAP_RE = re.compile(r'^(not )?ok\b\s*(\d+)?\s*(?:-\s*)?(.*)$')
SKIP_RE = re.compile(r'#\s*(SKIP|TODO)\b', re.I)


def results(path, prefixes):
    out = {}
    seen = {}
    test = None
    tap = False
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('# HX-TEST '):
            test = line.split()[2]
            tap = False
            if not test.startswith(tuple(prefixes)):
                test = None
            continue
        if test is None:
            continue
        if line.startswith('# HX-END '):
            if not tap:
                code = int(line.rsplit('exit=', 1)[1].split()[0])
                out[(test, '', 'exit status')] = (
                    'pass' if code == 0 else 'skip' if code in (4, 77) else 'fail')
            test = None
            continue
        m = TAP_RE.match(line)
        if m:
            tap = True
            desc = SKIP_RE.split(m.group(3))[0].strip()
            status = 'skip' if SKIP_RE.search(m.group(3)) else (
                'fail' if m.group(1) else 'pass')
            n = seen[(test, desc)] = seen.get((test, desc), 0) + 1
            out[(test, '#%d' % n if n > 1 else '', desc)] = status
    return out


def main():
    ref, new, prefixes = sys.argv[1], sys.argv[2], sys.argv[3:]
    a, b = results(ref, prefixes), results(new, prefixes)
    diff = 0
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            diff += 1
            print('  differs: %s - %s%s: ours %s, Debian\'s %s'
                  % (key[0], key[2], key[1] and ' (' + key[1] + ')', a.get(key, 'absent'), b.get(key, 'absent')))
    count = lambda r, s: sum(1 for v in r.values() if v == s)
    for name, r in (('our kernel', a), ("Debian's kernel", b)):
        print('  %-16s %d passed, %d failed, %d skipped' % (
            name + ':', count(r, 'pass'), count(r, 'fail'), count(r, 'skip')))
    if not a:
        print('  no results for %s in %s' % (' '.join(prefixes), ref))
        return 1
    return 1 if diff else 0


sys.exit(main())
