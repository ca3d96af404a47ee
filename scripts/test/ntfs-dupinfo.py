#!/usr/bin/env python3
"""ntfs-dupinfo.py IMG: compare the copies NTFS keeps of each file's size in
its directory entries (the $FILE_NAME key of every $I30 index entry) with the
file's unnamed $DATA size.  Windows lists directories from those copies.
Prints one line per entry that disagrees and a summary; exit 1 if any does.
Regular files only (directories, reparse points and metafiles are skipped)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "images"))
from ntfs_image import Stream, Volume, u32, u64  # noqa: E402

FIRST_USER = 24


def data_size(f, vol):
    """The unnamed $DATA size of file f: resident in its base record, or
    its first non-resident extent; None when there is none."""
    for a in f.attrs:
        if a.type == 0x80 and not a.name and not a.nonres:
            return a.vlen
    for a in vol.extents(f, 0x80):
        if not a.name and a.lowest == 0:
            return a.dsize
    return None


def i30_bitmap(f, vol):
    """The $BITMAP:$I30 of directory f (its blocks in use), None if none."""
    for a in f.attrs:
        if a.type == 0xB0 and a.name == "$I30":
            if not a.nonres:
                return a.value()
            return Stream(vol, a.runs, a.dsize).read(0, a.dsize)
    return None


BITMAPS = {}


def block_in_use(f, rec, vol):
    """Index blocks marked free in $BITMAP:$I30 keep stale entries: skip them."""
    if f.num not in BITMAPS:	# read once per directory, not once per block
        BITMAPS[f.num] = i30_bitmap(f, vol)
    bm = BITMAPS[f.num]
    n = rec.soff // vol.ixs
    return bm is not None and n // 8 < len(bm) and bm[n // 8] >> (n % 8) & 1


def main():
    vol = Volume(sys.argv[1])
    checked = stale = 0
    nodes = [(f, a, ix) for f, a, ix in vol.roots] + \
        [(f, a, ix) for f, a, rec, ix in vol.blocks if block_in_use(f, rec, vol)]
    for _, a, ix in nodes:
        if a.name != "$I30":
            continue
        d = ix.rec.data
        for off, ln, kl, fl in ix.entries:
            if fl & 2 or kl < 0x42:
                continue
            num = u64(d, off) & ((1 << 48) - 1)
            key = off + 0x10
            attrs = u32(d, key + 0x38)
            f = vol.files.get(num)
            if num < FIRST_USER or f is None or attrs & 0x10000400:
                continue
            size = data_size(f, vol)
            if size is None:
                continue
            checked += 1
            copy = u64(d, key + 0x30)
            if copy != size:
                stale += 1
                nl = d[key + 0x40]
                name = d[key + 0x42:key + 0x42 + 2 * nl].decode("utf-16-le", "replace")
                print("record %d %r: the directory entry says %d bytes, $DATA has %d" %
                      (num, name, copy, size))
    print("%d directory entries of files checked, %d with a stale size" % (checked, stale))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
