#!/usr/bin/env python3
"""bench-table.py OURS STOCK: join two "BENCH key value unit dir" files into
a Markdown table with the ratio ours/stock, where > 1 is always better.
load() and ratio() also serve scripts/bench/bench-rounds.py."""
import sys


def load(path):
    """The rows of a BENCH file: key -> (value, unit, 'higher' or 'lower')."""
    rows = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 5:
                _, key, value, unit, better = parts
                rows[key] = (float(value), unit, better)
    return rows


def ratio(o, s, better):
    """ours/stock, or stock/ours for lower-is-better rows: > 1 is better."""
    if better == 'higher':
        return o / s if s else float('inf')
    return s / o if o else float('inf')


def main(argv):
    ours, stock = load(argv[1]), load(argv[2])
    print('| benchmark | ours | stock | unit | ours/stock (>1 better) |')
    print('|---|---:|---:|---|---:|')
    for key in ours:
        o, unit, better = ours[key]
        if key not in stock:
            print(f'| {key} | {o:.4g} | - | {unit} | - |')
            continue
        s = stock[key][0]
        print(f'| {key} | {o:.4g} | {s:.4g} | {unit} | {ratio(o, s, better):.2f} |')


if __name__ == '__main__':
    main(sys.argv)
