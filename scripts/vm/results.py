#!/usr/bin/env python3
"""Judge one boot (or one host-side run) of the test harness.

Reads the test channel (TAP framed by "# HX-TEST name" / "# HX-END name
exit=N" lines) and, for VM boots, the kernel console.  Prints every failure
with the reason, appends "passed failed skipped" to the tally file, and
exits 1 when anything failed: a failed TAP result, a test exiting non-zero,
a run that never finished, or any oops/BUG/WARNING/KASAN/UBSAN/lockdep
report on the console, even when every test passed.
"""
import argparse
import re
import sys

TAP_RE = re.compile(r'^(not )?ok\b\s*(\d+)?\s*(?:-\s*)?(.*)$')
PLAN_RE = re.compile(r'^1\.\.(\d+)')
SKIP_RE = re.compile(r'#\s*(SKIP|TODO)\b', re.I)
SKIP_EXITS = (4, 77)

# Console lines that mean the kernel is unhappy.  Each match is a failure.
CONSOLE_RE = re.compile(
    r'(BUG:|Oops|WARNING:|kernel BUG at|general protection fault|'
    r'KASAN|UBSAN|Kernel panic|possible recursive locking|'
    r'possible circular locking|inconsistent lock state|'
    r'DEBUG_LOCKS_WARN_ON|ODEBUG:|detected stall|soft lockup|hard LOCKUP|'
    r'blocked for more than|Call Trace:|list_add corruption|'
    r'list_del corruption|stack-protector|RIP: )')
# Lines that match the above but are not reports.
CONSOLE_OK_RE = re.compile(
    r'(Kernel command line:|Good, all \d+ testcases passed|'
    r'lockdep: fixing up alternatives|'
    r'Lock dependency validator|LOCKDEP_|\.\.\. MAX_LOCKDEP|'
    r'\.\.\. CHAINHASH_SIZE|memory used by lock dependency info|'
    r'per task-struct memory footprint|KASAN init|kasan: KernelAddressSanitizer initialized|'
    r'UBSAN: none|Mount-cache|Unknown kernel command line)')


class Tally:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0
        self.failures = []

    def add(self, status, what):
        if status == 'pass':
            self.passed += 1
        elif status == 'skip':
            self.skipped += 1
        else:
            self.failed += 1
            self.failures.append(what)


def read_lines(path):
    try:
        with open(path, 'rb') as f:
            data = f.read().decode('utf-8', 'replace')
    except FileNotFoundError:
        return None
    return [l.rstrip('\r') for l in data.replace('\r\n', '\n').split('\n')]


def tap_status(line):
    """Return (status, text) for a top-level TAP result line, else None."""
    m = TAP_RE.match(line)
    if not m:
        return None
    if SKIP_RE.search(line):
        return 'skip', m.group(3)
    return ('fail' if m.group(1) else 'pass'), m.group(3)


class Block:
    def __init__(self, name):
        self.name = name
        self.results = []
        self.plan = None


def finish_block(tally, block, exit_code):
    if not block.results:
        if exit_code == 0:
            tally.add('pass', block.name)
        elif exit_code in SKIP_EXITS:
            tally.add('skip', block.name)
        else:
            tally.add('fail', f'{block.name}: exited with status {exit_code}')
        return
    for status, text in block.results:
        tally.add(status, f'{block.name}: {text}')
    if block.plan is not None and len(block.results) < block.plan:
        tally.add('fail', f'{block.name}: planned {block.plan} results, printed {len(block.results)}')
    if exit_code not in (0,) + SKIP_EXITS and all(s != 'fail' for s, _ in block.results):
        tally.add('fail', f'{block.name}: exited with status {exit_code}')


def parse_results(lines, tally, expect_done, times=None):
    block = None
    done = False
    loose = Block('(unframed)')
    for line in lines:
        if line.startswith('# HX-TEST '):
            if block:
                tally.add('fail', f'{block.name}: did not finish')
            block = Block(line[len('# HX-TEST '):].strip())
            continue
        m = re.match(r'^# HX-END (\S+) exit=(\d+)(?: secs=(\d+))?', line)
        if m and block:
            finish_block(tally, block, int(m.group(2)))
            if times is not None and m.group(3):
                times.append((int(m.group(3)), block.name))
            block = None
            continue
        if line.startswith('# HX-DONE'):
            done = True
            continue
        target = block or loose
        p = PLAN_RE.match(line)
        if p and target.plan is None:
            target.plan = int(p.group(1))
            continue
        r = tap_status(line)
        if r:
            target.results.append(r)
    for status, text in loose.results:
        tally.add(status, text)
    if block:
        tally.add('fail', f'{block.name}: did not finish (the VM died, hung or was killed during it)')
    if expect_done and not done:
        tally.add('fail', 'the run did not reach its end (no "# HX-DONE" on the test channel)')


# Reports a test provokes on purpose, announced on the console by the test
# ("hx-expect-warn: begin FUNC" ... "hx-expect-warn: end FUNC", written to
# /dev/kmsg).  Only the functions listed here can be announced; inside the
# frame one WARNING from that function is accepted, with the "RIP:" and
# "Call Trace:" lines of its report (up to "---[ end trace").  Anything else,
# in or out of a frame, still counts.
EXPECTED_WARNS = {
    # locktorture's lock_busted type, a lock that does not lock: the writer's
    # WARN_ON_ONCE on finding it held shows that the check can fail
    # (tests/rt/locktorture.sh).  O= builds print the path as
    # ../src/TREE/kernel/locking/locktorture.c.
    'lock_torture_writer': re.compile(
        r'WARNING: CPU: \d+ PID: \d+ at (?:\S*/)?kernel/locking/locktorture\.c:\d+ '
        r'lock_torture_writer\+'),
}
EXPECT_RE = re.compile(r'hx-expect-warn: (begin|end) (\S+)')
TRACE_RE = re.compile(r'(Call Trace:|RIP: )')
# A dump a test asks for when it has already failed a case for a hang
# (tests/tools/ntfs-mutate.c): "hx-sysrq-dump: begin REASON", sysrq w, t and
# l (every task's "Call Trace:", every CPU's "RIP:"), "hx-sysrq-dump: end".
# The dump counts as one report, named by its reason; the traces in it do
# not count one by one.  Other reports inside it (a soft lockup, an oops)
# still do.
DUMP_RE = re.compile(r'hx-sysrq-dump: (begin|end)\s*(.*)')
# sysrq output with no frame: vm.sh's keys at its hard timeout (the run has
# failed already); the dump runs to the end of the console.
SYSRQ_RE = re.compile(r'sysrq: (Show Blocked State|Show State|Show backtrace of all active CPUs)')


def scan_console(lines, tally, path):
    reports = 0
    shown = 0
    frame = None        # the function of the open expect frame
    in_report = False   # inside the accepted report's trace
    accepted = 0
    dumps = []          # the reasons of the sysrq dumps
    in_dump = False
    for i, line in enumerate(lines):
        m = DUMP_RE.search(line)
        if m:
            in_dump = m.group(1) == 'begin'
            if in_dump:
                dumps.append(m.group(2).strip())
                reports += 1
                if shown < 3:
                    print(f'    console line {i + 1}: sysrq dump requested by a test: '
                          f'{m.group(2).strip()}', file=sys.stderr)
                    shown += 1
            continue
        if not in_dump and SYSRQ_RE.search(line):
            in_dump = True
            dumps.append('sysrq keys with no frame (vm.sh sends them at its hard timeout)')
            reports += 1
            if shown < 3:
                print(f'    console line {i + 1}: sysrq dump with no frame (vm.sh at its hard '
                      f'timeout?): {line.strip()}', file=sys.stderr)
                shown += 1
        if in_dump and TRACE_RE.search(line) and not CONSOLE_RE.search(TRACE_RE.sub('', line)):
            continue
        m = EXPECT_RE.search(line)
        if m:
            frame = m.group(2) if m.group(1) == 'begin' and m.group(2) in EXPECTED_WARNS else None
            in_report = False
            continue
        if frame and accepted == 0 and EXPECTED_WARNS[frame].search(line):
            accepted += 1
            in_report = True
            print(f'    console line {i + 1}: expected report accepted ({frame}): '
                  f'{line.strip()}', file=sys.stderr)
            continue
        if in_report:
            if '---[ end trace' in line:
                in_report = False
                continue
            if TRACE_RE.search(line) and 'WARNING:' not in line:
                continue
        if CONSOLE_RE.search(line) and not CONSOLE_OK_RE.search(line):
            reports += 1
            if shown < 3:
                ctx = '\n      '.join(lines[max(0, i - 2):i + 8])
                print(f'    console line {i + 1}:\n      {ctx}', file=sys.stderr)
                shown += 1
    if reports:
        what = ''
        if dumps:
            what = (f', {len(dumps)} of them sysrq dump{"s" if len(dumps) > 1 else ""} '
                    f'of a hang already reported (first: {dumps[0]})')
        tally.add('fail', f'kernel console shows {reports} problem lines '
                          f'(oops/BUG/WARNING/KASAN/UBSAN/lockdep/lockup/stall/hang{what}): {path}')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--name', required=True)
    ap.add_argument('--results', required=True)
    ap.add_argument('--console')
    ap.add_argument('--vm-status', type=int, default=0)
    ap.add_argument('--expect-done', action='store_true')
    ap.add_argument('--tally')
    a = ap.parse_args()

    t = Tally()
    lines = read_lines(a.results)
    if lines is None:
        t.add('fail', f'no test output at {a.results}')
        lines = []
    if a.vm_status == 124:
        t.add('fail', 'VM did not power off before the hard timeout and was killed')
    elif a.vm_status not in (0,):
        t.add('fail', f'QEMU exited with status {a.vm_status}')
    times = []
    parse_results(lines, t, a.expect_done, times)
    if a.console:
        con = read_lines(a.console)
        if con is None:
            t.add('fail', f'no console log at {a.console}')
        else:
            scan_console(con, t, a.console)

    for f in t.failures:
        print(f'  FAIL    {a.name}: {f}', file=sys.stderr)
    if times:
        slow = ', '.join(f'{n} {s} s' for s, n in sorted(times, reverse=True)[:6])
        print(f'  SLOWEST {a.name}: {slow} (of {sum(s for s, _ in times)} s)')
    print(f'  RESULT  {a.name}: {t.passed} passed, {t.failed} failed, {t.skipped} skipped')
    if a.tally:
        with open(a.tally, 'a') as f:
            f.write(f'{a.name} {t.passed} {t.failed} {t.skipped}\n')
    return 1 if t.failed else 0


if __name__ == '__main__':
    sys.exit(main())
