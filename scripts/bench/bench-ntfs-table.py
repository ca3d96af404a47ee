#!/usr/bin/env python3
"""bench-ntfs-table.py BENCH-FILE: the NTFS benchmark's "BENCH ntfs.ROW.DRIVER
value unit higher|lower" lines as a Markdown table, one row per workload,
with the ratios ours/in-tree, ours/ntfs-3g and ours/raw (> 1 is always
better: for "lower" rows the ratio is theirs/ours), then the issue's
targets and whether each is met:
  - ours at least the in-tree ntfs3 on every row;
  - ours at least 3x ntfs-3g on the metadata rows (METADATA below);
  - ours' sequential read within 90 % of the raw device;
and for the writing rows:
  - ours at least 2x the in-tree ntfs3 on the 4-process write (par4);
  - ours at least 3x ntfs-3g on the writing metadata rows (WMETADATA);
  - ours' sequential write within 90 % of the raw device.
A run that failed is "failed:ERRNO" in the BENCH line and "failed (ERRNO)"
in the table; its ratios are "-" and its targets not met.
"tmpfs" is the floor: the same command on a copy of the tree in a tmpfs
(a file system that costs nothing); floor/ntfs-3g is the most any driver
could reach against ntfs-3g on that row.
Ours and in-tree within TIE of each other count as equal: under -icount
repeat runs of one driver differ by about 0.3 % (at worst about 1 %)."""
import sys

ROWS = [
    ('seqread', 'sequential read, 1 GiB file'),
    ('randread', 'random 4 KiB reads (cold)'),
    ('smallfiles', 'read 10 000 files of 1-8 KiB'),
    ('ls_lR', '`ls -lR`, 100 079 objects'),
    ('find_stat', '`find -type f | xargs stat`, 100 075 files'),
    ('mount', 'mount 1 TiB sparse volume'),
    ('mount_statfs', 'mount 1 TiB volume + statfs'),
    ('untar', 'untar 3 000 kernel source files + sync'),
    ('rm_rf', '`rm -rf` of them + sync'),
    ('seqwrite', 'sequential write, 64 MiB + fsync'),
    ('par4', '4 processes x 32 MiB at once + sync'),
    ('par4_extents', 'extents of those 4 files (FIEMAP)'),
    ('randwrite', 'random 4 KiB writes in 32 MiB + fsync'),
    ('files1k', 'create + unlink 1 000 empty files, one dir'),
    ('files10k', 'create + unlink 10 000 empty files, one dir'),
    ('files100k', 'create + unlink 100 000 empty files, one dir'),
    ('fsync', 'create, write 4 KiB, fsync: 500 files'),
    ('fsync3', 'fsync floor with 3 pages a file (raw device only)'),
]
METADATA = ('smallfiles', 'ls_lR', 'find_stat', 'mount')
WMETADATA = ('untar', 'rm_rf', 'files1k', 'files10k', 'files100k', 'fsync')
WRITING = ('untar', 'rm_rf', 'seqwrite', 'par4', 'par4_extents', 'randwrite',
           'files1k', 'files10k', 'files100k', 'fsync')
DRIVERS = ('ours', 'intree', 'ntfs-3g', 'raw', 'tmpfs')
TIE = 0.005


def load(path):
    rows = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 5 and parts[0] == 'BENCH' and parts[1].startswith('ntfs.'):
                _, row, drv = parts[1].split('.', 2)
                try:
                    v = float(parts[2])
                except ValueError:	# failed:ERRNO
                    v = parts[2]
                rows.setdefault(row, {})[drv] = (v, parts[3], parts[4])
    return rows


def ratio(ours, other):
    """ours relative to other, > 1 better."""
    if not ours or not other:
        return None
    (o, _, better), (t, _, _) = ours, other
    if isinstance(o, str) or isinstance(t, str):
        return None
    if better == 'higher':
        return o / t if t else None
    return t / o if o else None


def failed(cell):
    return cell is not None and isinstance(cell[0], str)


def against(ours, other, need, digits=2):
    """(met, text) of "ours at least need x other": a driver that failed
    where ours worked is beaten; ours failing meets nothing."""
    if ours is None or other is None:
        return None
    if failed(ours):
        return False, fmt(ours[0])
    if failed(other):
        return True, 'the other ' + fmt(other[0])
    r = ratio(ours, other)
    return r >= need, f'{r:.{digits}f}x'


def fmt(v):
    if v is None:
        return '-'
    if isinstance(v, str):
        return 'failed (' + v.split(':', 1)[-1] + ')'
    return f'{v:.3g}' if v < 1000 else f'{v:.0f}'


def fmt_ratio(r, digits=2):
    return '-' if r is None else f'{r:.{digits}f}'


def io_bound(r):
    """For fsync: files/s of the raw device's I/O for a file plus the
    tmpfs floor's VFS work, against ntfs-3g: no driver can do better."""
    vals = [r.get(d) for d in ('raw', 'tmpfs', 'ntfs-3g')]
    if any(v is None or isinstance(v[0], str) or v[0] <= 0 for v in vals):
        return None
    raw, tmpfs, n3g = (v[0] for v in vals)
    return 1 / (1 / raw + 1 / tmpfs) / n3g


rows = load(sys.argv[1])
print('| workload | unit | ours | in-tree | ntfs-3g | raw device | tmpfs floor | ours/in-tree | ours/ntfs-3g | ours/raw | floor/ntfs-3g |')
print('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
targets = []
notes = []
for key, title in ROWS + [(k, k) for k in rows if k not in dict(ROWS)]:
    if key not in rows:
        continue
    r = rows[key]
    unit = next(iter(r.values()))[1]
    better = next(iter(r.values()))[2]
    ours = r.get('ours')
    vi, v3, vr = (ratio(ours, r.get(d)) for d in ('intree', 'ntfs-3g', 'raw'))
    ceiling = ratio(r.get('tmpfs'), r.get('ntfs-3g'))
    cells = [fmt(r[d][0]) if d in r else '-' for d in DRIVERS]
    print(f'| {title} (`{key}`) | {unit}, {better} is better | ' + ' | '.join(cells) +
          f' | {fmt_ratio(vi, 3)} | {fmt_ratio(v3)} | {fmt_ratio(vr)} | {fmt_ratio(ceiling)} |')
    for d in r:
        if d not in DRIVERS:
            notes.append(f'- `{key}.{d}`: {fmt(r[d][0])} {unit}; ours/{d}: {fmt_ratio(ratio(ours, r[d]))}')
    if vi is not None:
        targets.append((f'{key}: ours >= in-tree', vi >= 1.0 - TIE,
                        f'{vi:.3f}x' + (' (equal within 0.5 %)' if abs(vi - 1) < TIE else '')))
    elif key in WRITING and against(ours, r.get('intree'), 1.0):
        ok, got = against(ours, r.get('intree'), 1.0)
        targets.append((f'{key}: ours >= in-tree', ok, got))
    # the floor against the reference: the most any driver could reach
    floor_vi = ratio(r.get('tmpfs'), r.get('intree'))
    if key == 'par4' and against(ours, r.get('intree'), 2.0):
        ok, got = against(ours, r.get('intree'), 2.0)
        targets.append((f'{key}: ours >= 2x in-tree', ok, got +
                        (f' (tmpfs: {floor_vi:.2f}x)' if floor_vi is not None else '')))
    if key in WMETADATA and against(ours, r.get('ntfs-3g'), 3.0):
        ok, got = against(ours, r.get('ntfs-3g'), 3.0)
        bound = io_bound(r)
        targets.append((f'{key}: ours >= 3x ntfs-3g', ok, got +
                        (f' (tmpfs: {ceiling:.2f}x)' if ceiling is not None else '') +
                        (f' (raw I/O + tmpfs: {bound:.2f}x)' if bound is not None else '')))
    elif key in METADATA and v3 is not None:
        targets.append((f'{key}: ours >= 3x ntfs-3g', v3 >= 3.0, f'{v3:.2f}x' +
                        (f' (tmpfs: {ceiling:.2f}x)' if ceiling is not None else '')))
    if key in ('seqread', 'seqwrite') and 'raw' in r:
        targets.append((f'{key}: ours >= 90 % of raw', vr is not None and vr >= 0.9,
                        '-' if vr is None else f'{vr * 100:.0f} %'))
# O(log n) per directory entry: the cost of one operation in a directory
# of 10 000 and of 100 000 against one of 1 000 (1.00: no growth)
for big, words in (('files10k', '10 000'), ('files100k', '100 000')):
    if 'files1k' not in rows or big not in rows:
        continue
    for d in DRIVERS:
        a, b = rows['files1k'].get(d), rows[big].get(d)
        if a and b and not isinstance(a[0], str) and not isinstance(b[0], str):
            notes.append(f'- per-operation cost, {words} files vs 1 000 (`{big}`/`files1k`), {d}: {b[0] / a[0]:.2f}')
if notes:
    print()
    print('\n'.join(notes))
print()
print('| target | result | met |')
print('|---|---:|---|')
for what, ok, got in targets:
    print(f'| {what} | {got} | {"yes" if ok else "**no**"} |')
met = sum(ok for _, ok, _ in targets)
print()
print(f'{met} of {len(targets)} targets met.')
