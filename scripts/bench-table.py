#!/usr/bin/env python3
"""bench-table.py OURS STOCK: join two "BENCH key value unit dir" files into
a Markdown table with the ratio ours/stock, where > 1 is always better."""
import sys


def load(path):
    rows = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 5:
                _, key, value, unit, better = parts
                rows[key] = (float(value), unit, better)
    return rows


ours, stock = load(sys.argv[1]), load(sys.argv[2])
print('| benchmark | ours | stock | unit | ours/stock (>1 better) |')
print('|---|---:|---:|---|---:|')
for key in ours:
    o, unit, better = ours[key]
    if key not in stock:
        print(f'| {key} | {o:.4g} | - | {unit} | - |')
        continue
    s = stock[key][0]
    if better == 'higher':
        ratio = o / s if s else float('inf')
    else:
        ratio = s / o if o else float('inf')
    print(f'| {key} | {o:.4g} | {s:.4g} | {unit} | {ratio:.2f} |')
