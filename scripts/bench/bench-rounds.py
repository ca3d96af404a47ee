#!/usr/bin/env python3
"""bench-rounds.py OUT_OURS OUT_STOCK OURS_1..OURS_N STOCK_1..STOCK_N

Merge the "BENCH key value unit dir" files of several boots of each kernel
(one file per round, same order on both sides) into one file per kernel
holding the median of each row, and print a Markdown table of the ratio
ours/stock per round (> 1 better), so that the spread between rounds is
visible next to the median."""
import importlib.util
import os
import statistics
import sys

_spec = importlib.util.spec_from_file_location(
    'bench_table', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'bench-table.py'))
bench_table = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_table)
load, ratio = bench_table.load, bench_table.ratio


def merge(runs, out):
    with open(out, 'w') as f:
        for key, (_, unit, better) in runs[0].items():
            vals = [r[key][0] for r in runs if key in r]
            f.write(f'BENCH {key} {statistics.median(vals):.6g} {unit} {better}\n')


def main(argv):
    out_ours, out_stock, files = argv[1], argv[2], argv[3:]
    if not files or len(files) % 2:
        sys.exit('bench-rounds.py: need the same number (>0) of files per kernel')
    half = len(files) // 2
    ours = [load(p) for p in files[:half]]
    stock = [load(p) for p in files[half:]]
    merge(ours, out_ours)
    merge(stock, out_stock)
    n = len(ours)
    print('| benchmark | ' + ' | '.join(f'round {i + 1}' for i in range(n)) +
          ' | rounds ours >= stock |')
    print('|---|' + '---:|' * (n + 1))
    for key, (_, _, better) in ours[0].items():
        cells, wins = [], 0
        for o, s in zip(ours, stock):
            if key not in o or key not in s:
                cells.append('-')
                continue
            r = ratio(o[key][0], s[key][0], better)
            wins += r >= 1
            cells.append(f'{r:.2f}')
        print(f'| {key} | ' + ' | '.join(cells) + f' | {wins} of {n} |')


if __name__ == '__main__':
    main(sys.argv)
