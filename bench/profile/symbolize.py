#!/usr/bin/env python3
"""Turn hotpc profiles into per-function instruction counts.

    symbolize.py System.map[,KALLSYMS...] PROFILE [PROFILE2]

One profile: the top functions by instructions.  Two profiles (e.g. the
same benchmark with two drivers): the functions whose counts differ most,
PROFILE2 minus PROFILE.  Kernel addresses are looked up in System.map
(boot with nokaslr); module addresses are looked up in the KALLSYMS files
(lines of /proc/kallsyms for the module, from a boot that loaded it the same
way) or else count as "[modules]"; user space counts as "[user]".  TOP=N (environment) prints N lines instead of 60.
"""
import bisect
import os
import sys

TOP = int(os.environ.get("TOP", "60"))


def load_map(paths):
    syms = []
    for path in paths.split(","):
        for line in open(path):
            parts = line.split()
            if len(parts) >= 3 and parts[1] in "tTwW":
                syms.append((int(parts[0], 16), parts[2]))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def profile(path, addrs, names):
    out = {}
    for line in open(path):
        va, n = line.split()
        va, n = int(va, 16), int(n)
        if va < 0xffff800000000000:
            name = "[user]"
        else:
            i = bisect.bisect_right(addrs, va) - 1
            name = names[i] if i >= 0 else "[unknown]"
            if va >= 0xffffffffa0000000 and addrs[i] < 0xffffffffa0000000:
                name = "[modules]"
        out[name] = out.get(name, 0) + n
    return out


def main():
    addrs, names = load_map(sys.argv[1])
    a = profile(sys.argv[2], addrs, names)
    if len(sys.argv) == 3:
        total = sum(a.values())
        print(f"total {total}")
        for name, n in sorted(a.items(), key=lambda x: -x[1])[:TOP]:
            print(f"{n:14d} {100 * n / total:6.2f}% {name}")
        return
    b = profile(sys.argv[3], addrs, names)
    ta, tb = sum(a.values()), sum(b.values())
    print(f"total {ta} -> {tb} ({tb - ta:+d})")
    diff = {k: b.get(k, 0) - a.get(k, 0) for k in set(a) | set(b)}
    for name, d in sorted(diff.items(), key=lambda x: -abs(x[1]))[:TOP]:
        print(f"{d:+14d} {a.get(name, 0):14d} {b.get(name, 0):14d} {name}")


if __name__ == "__main__":
    main()
