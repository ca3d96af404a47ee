#!/usr/bin/env python3
"""ntfs-fuzz-gen.py SEED N BASEIMG[,BASEIMG...] OUT: seeded metadata
corruptions of valid NTFS volumes, for the in-VM fuzzer (tests/ntfs-fuzz/).

Parses each BASEIMG with ntfs_image.py (boot sector, $MFT records with
their update sequence arrays, attribute headers, mapping pairs,
$INDEX_ROOT and INDX blocks, attribute lists, $EA, reparse points,
$Secure:$SDS) and writes N mutation cases to OUT, one a line:

    case_id <TAB> category <TAB> offset:hexbytes[,offset:hexbytes...] <TAB> image <TAB> what

Offsets are byte offsets in the image (decimal); the bytes replace what is
there.  "image" is the base image's file name (the first one gets half the
cases, the others share the rest); "what" names the target (record, path,
attribute, field) for humans.  A field that lies in a fixed-up record is written where the disk
keeps it: bytes at the end of a sector live in the update sequence array.

Case K depends only on SEED, K and the images: "N=3000" starts with the
cases of "N=300".  Every mutation lands in metadata (boot sectors, MFT
records of system and user files, index blocks, attribute lists, $EA,
reparse data, $SDS headers), never in plain file data.

About one case in three (chosen from SEED and K) comes from the
structural mutator, scripts/images/ntfs_fuzz_struct.py: consistent edits (fixups,
$MFTMirr, runlists with their sizes) whose categories start with "s-"; the
other cases are the byte mutations of this file, case K the same as before
the structural mutator existed.

Options (environment): FUZZ_SKIP / FUZZ_CASES, comma or space separated
case ids: cases to skip (written as "skip" lines, so the numbering stays),
or the only cases to write.

"ntfs-fuzz-gen.py --regress BASEIMG[,...] OUT" writes the structural
regression set (ids 1000001 on; FUZZ_SKIP / FUZZ_CASES apply).
"ntfs-fuzz-gen.py --check CASES BASEIMG[,...]" applies each structural case
in memory and parses the result (exit status 1 when one is not as meant).
"ntfs-fuzz-gen.py --info BASEIMG" prints what the parser found.

Format facts: the libyal NTFS document and the Linux-NTFS project's
documentation; this is an independent implementation.
"""
import hashlib
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ntfs_fuzz_struct as nfs  # noqa: E402  (the structural mutator)

# ---------------------------------------------------------------- layout

# The volume parser: ntfs_image.py, shared with the other image scripts.
from ntfs_image import (AT_NAMES, SYSTEM_NAMES, Corrupt, Stream, Rec, Attr,  # noqa: E402,F401
                        File, Index, Volume, u16, u32, u64, s64)


def u8(b, o):
    return b[o]


def encode_runs(runs):
    """[(length, lcn or None)] -> mapping pairs (with the terminator); an
    LCN delta longer than 8 bytes keeps its low 8."""
    return nfs.pack_runs(runs, clip=True)


# ---------------------------------------------------------------- mutations

def values(rng, width, cur, extra=()):
    """A new value for an unsigned field of width bytes, != cur."""
    top = (1 << (8 * width)) - 1
    cands = [0, top, cur + 1, cur - 1, cur ^ (1 << rng.randrange(8 * width)),
             cur * 2, cur // 2, top >> 1, (top >> 1) + 1, rng.randrange(top + 1),
             cur + 8, cur - 8] + list(extra)
    for _ in range(20):
        v = rng.choice(cands) & top
        if v != cur:
            return v
    return cur ^ 1


def le(v, width):
    return (v & ((1 << (8 * width)) - 1)).to_bytes(width, "little")


class Gen:
    def __init__(self, vol):
        self.vol = vol
        v = vol
        files = list(v.files.values())
        self.system = [f for f in files if f.num < 16 or (f.flags & 4)]
        self.dirs = [f for f in files if f.flags & 2 and f not in self.system]
        self.ext = [f for f in files if f.base and f.base != f.num]
        special = []
        for f in files:
            if f in self.system or f in self.dirs or f in self.ext:
                continue
            types = {a.type for a in f.attrs}
            if (types & {0x20, 0xC0, 0xE0} or any(a.nonres for a in f.attrs)
                    or any(a.flags for a in f.attrs) or any(a.type == 0x80 and a.name for a in f.attrs)):
                special.append(f)
        self.special = special
        self.plain = [f for f in files if f not in self.system and f not in self.dirs
                      and f not in self.ext and f not in special]

    # -- helpers

    def pick_file(self, rng, want=None):
        groups = [(self.system, 25), (self.dirs, 25), (self.special, 30), (self.ext, 10), (self.plain, 10)]
        for _ in range(50):
            g = rng.choices([g for g, _ in groups], [w for _, w in groups])[0]
            if not g:
                continue
            f = rng.choice(g)
            if want is None or want(f):
                return f
        return None

    def field(self, rng, rec, off, width, what, extra=()):
        cur = int.from_bytes(rec.data[off:off + width], "little")
        v = values(rng, width, cur, extra)
        return rec.patch(off, le(v, width)), "%s=0x%x (was 0x%x)" % (what, v, cur)

    def mirror(self, rng, f, patches):
        """Records 0-3 also live in $MFTMirr: sometimes corrupt both."""
        v = self.vol
        if f.num >= 4 or rng.random() < 0.5:
            return patches
        delta = v.mirr_lcn * v.cs - v.mft_lcn * v.cs
        extra = [(o + delta, b) for o, b in patches
                 if v.mft_lcn * v.cs <= o < v.mft_lcn * v.cs + 4 * v.rs]
        return patches + extra

    # -- categories: each returns (patches, what) or None

    def boot(self, rng):
        v = self.vol
        fields = [  # name, offset, width, interesting values
            ("oem-id", 3, 8, [int.from_bytes(b"NTFS  \0\0", "little"), int.from_bytes(b"MSDOS5.0", "little")]),
            ("bytes-per-sector", 0x0B, 2, [0, 256, 511, 1024, 4096, 8192, 0x8000, 0xFFFF]),
            ("sectors-per-cluster", 0x0D, 1, [0, 3, 0x80, 0x81, 0xF4, 0xEF, 0xFF, 128, 64]),
            ("reserved-sectors", 0x0E, 2, [1, 0xFFFF]),
            ("media", 0x15, 1, [0, 0xF0]),
            ("total-sectors", 0x28, 8, [0, 1, v.total_sectors * 2, 1 << 63, (1 << 64) - 1, 16]),
            ("mft-lcn", 0x30, 8, [0, 1, v.clusters, v.clusters - 1, v.mirr_lcn, 1 << 62, 2]),
            ("mftmirr-lcn", 0x38, 8, [0, v.mft_lcn, v.clusters, 1 << 62]),
            ("record-size", 0x40, 1, [0, 1, 2, 0xF6, 0xF5, 0xF9, 0xF7, 0xE0, 0x80, 0x7F, 0xFF, 0xC]),
            ("index-size", 0x44, 1, [0, 4, 0xF4, 0xF6, 0xF9, 0xE0, 0x80, 0x7F, 0xFF, 0x10]),
            ("signature", 0x1FE, 2, [0, 0xAA55]),
        ]
        name, off, w, extra = rng.choice(fields)
        cur = int.from_bytes(v.img[off:off + w], "little")
        val = values(rng, w, cur, extra * 3)
        patches = [(off, le(val, w))]
        where = "primary"
        if v.backup is not None and rng.random() < 0.5:
            patches.append((v.backup + off, le(val, w)))
            where = "both copies"
        return patches, "boot %s=0x%x (was 0x%x), %s" % (name, val, cur, where)

    def rec_header(self, rng):
        f = self.pick_file(rng)
        fields = [("magic", 0, 4, [int.from_bytes(b"BAAD", "little"), int.from_bytes(b"INDX", "little"), 0]),
                  ("usa-offset", 4, 2, [0, 0x2A, 0x31, 0x3FE, 0x400, 0xFFFF]),
                  ("usa-count", 6, 2, [0, 1, 2, 4, 0x100, 0xFFFF]),
                  ("sequence", 0x10, 2, [0]),
                  ("link-count", 0x12, 2, [0, 0xFFFF]),
                  ("attrs-offset", 0x14, 2, [0, 0x10, 0x31, 0x36, f.used, f.rec.size - 8, f.rec.size, 0xFFFF]),
                  ("flags", 0x16, 2, [0, 1, 2, 3, 5, 9, 0xFFFF]),
                  ("bytes-in-use", 0x18, 4, [0, 0x30, f.attr_off, f.used - 8, f.used + 1, f.rec.size + 8, 0xFFFFFFFF]),
                  ("bytes-allocated", 0x1C, 4, [0, 512, 4096, 0xFFFFFFFF]),
                  ("base-ref", 0x20, 8, [f.num, 5, 0, 1 << 40, (1 << 48) | 5, 0xFFFFFFFFFFFF]),
                  ("record-number", 0x2C, 4, [0, f.num + 1, 0xFFFFFFFF])]
        name, off, w, extra = rng.choice(fields)
        p, what = self.field(rng, f.rec, off, w, name, extra * 2)
        return self.mirror(rng, f, p), "rec %d %s: %s" % (f.num, f.path, what)

    def fixup(self, rng):
        """Torn sectors and broken update sequence arrays, in FILE records
        and INDX blocks."""
        if rng.random() < 0.6 or not self.vol.blocks:
            f = self.pick_file(rng)
            rec, label = f.rec, "rec %d %s" % (f.num, f.path)
        else:
            f, a, rec, idx = rng.choice(self.vol.blocks)
            label = "INDX vcn-off %d of %s" % (rec.soff, f.path)
        ss = 512
        k = rng.randrange(1, rec.usa_cnt)
        kind = rng.choice(["torn", "usn", "saved"])
        if kind == "torn":	# one sector's check value differs
            raw = rec.stream.disk(rec.soff + k * ss - 2) if rec.stream else rec.soff + k * ss - 2
            cur = self.vol.img[raw]
            p = [(raw, bytes([cur ^ (1 << rng.randrange(8))]))]
            what = "sector %d torn" % k
        elif kind == "usn":	# the update sequence number itself
            raw = rec.raw_off(rec.usa_ofs)
            p = [(raw, bytes([self.vol.img[raw] ^ 0xFF]))]
            what = "update sequence number changed"
        else:			# the saved bytes of sector k (contents change)
            p = rec.patch(k * ss - 2, bytes([rng.randrange(256), rng.randrange(256)]))
            what = "saved bytes of sector %d" % k
        if rec.kind == "FILE":
            p = self.mirror(rng, f, p)
        return p, "%s: %s" % (label, what)

    def pick_attr(self, rng, want=lambda a: True):
        for _ in range(50):
            f = self.pick_file(rng, lambda f: any(want(a) for a in f.attrs))
            if f:
                return f, rng.choice([a for a in f.attrs if want(a)])
        return None, None

    def attr_header(self, rng):
        f, a = self.pick_attr(rng)
        if not a:
            return None
        rs, o = f.rec.size, a.off
        room = f.rec.size - a.off
        common = [("type", 0, 4, [0, 0xFFFFFFFF, 0x80, 0x30, 0x20, 0x90, 0xA0, 0x100, 0x1000]),
                  ("length", 4, 4, [0, 8, 0x10, a.length + 1, a.length + 4, a.length + 8, a.length - 8,
                                    room, room + 8, 0x7FFFFFFF, 0x80000000, rs]),
                  ("non-resident", 8, 1, [a.nonres ^ 1, 2, 0xFF]),
                  ("name-length", 9, 1, [0, 1, 0x7F, 0xFF, a.name_len + 1]),
                  ("name-offset", 10, 2, [0, 1, a.length, a.length - 1, 0xFFFF, 0x17]),
                  ("flags", 12, 2, [0, 1, 0x4000, 0x8000, 0x8001, 0xFFFF, 0x00FF]),
                  ("id", 14, 2, [0, 0xFFFF])]
        if a.nonres:
            spec = [("lowest-vcn", 0x10, 8, [1, a.highest, a.highest + 1, 1 << 62, (1 << 64) - 1]),
                    ("highest-vcn", 0x18, 8, [0, a.lowest, a.highest + 1, a.highest + 100, 1 << 40, (1 << 64) - 1]),
                    ("mapping-pairs-offset", 0x20, 2, [0, 8, 0x3F, 0x41, a.length, a.length - 1, 0xFFFF]),
                    ("compression-unit", 0x22, 1, [0, 1, 4, 8, 16, 31, 0xFF])]
        else:
            spec = [("value-length", 0x10, 4, [0, 1, a.vlen + 1, a.length - a.voff + 1, room, 0x7FFFFFFF, 0xFFFFFFFF]),
                    ("value-offset", 0x14, 2, [0, 1, 0x17, a.length, a.length - 1, 0xFFFF, a.voff + 1]),
                    ("indexed-flag", 0x16, 1, [1, 0xFF])]
        name, off, w, extra = rng.choice(common + spec * 2)
        p, what = self.field(rng, f.rec, o + off, w, name, extra * 2)
        return self.mirror(rng, f, p), "rec %d %s %s: %s" % (f.num, f.path, a.label(), what)

    def attr_sizes(self, rng):
        """Inconsistent sizes of non-resident attributes."""
        f, a = self.pick_attr(rng, lambda a: a.nonres and a.lowest == 0)
        if not a:
            return None
        cs = self.vol.cs
        kind = rng.choice(["data>alloc", "valid>data", "alloc-unaligned", "alloc<runs", "huge-data",
                           "huge-valid", "zero-alloc", "total-size", "alloc>runs"])
        o = a.off
        if kind == "data>alloc":
            pp = [(0x30, a.alloc + rng.choice([1, cs, 100 * cs]))]
        elif kind == "valid>data":
            pp = [(0x38, a.dsize + rng.choice([1, cs, 1 << 40]))]
        elif kind == "alloc-unaligned":
            pp = [(0x28, a.alloc + rng.choice([1, 511, cs - 1]))]
        elif kind == "alloc<runs":
            pp = [(0x28, max(0, a.alloc - cs)), (0x30, max(0, a.alloc - cs)), (0x38, max(0, a.alloc - cs))]
        elif kind == "alloc>runs":
            pp = [(0x28, a.alloc + 64 * cs), (0x30, a.alloc + 64 * cs)]
        elif kind == "huge-data":
            big = rng.choice([1 << 62, (1 << 63) - 1, (1 << 64) - 1, 1 << 44])
            pp = [(0x28, big), (0x30, big)]
        elif kind == "huge-valid":
            pp = [(0x38, rng.choice([1 << 62, (1 << 64) - 1]))]
        elif kind == "zero-alloc":
            pp = [(0x28, 0)]
        else:
            if a.mp_off < 0x48:
                return None
            pp = [(0x40, rng.choice([0, 1, 1 << 62, a.alloc * 2]))]
        p = []
        for off, v in pp:
            p += f.rec.patch(o + off, le(v, 8))
        what = ", ".join("%s=0x%x" % ({0x28: "alloc", 0x30: "data", 0x38: "valid", 0x40: "total"}[k], v)
                         for k, v in pp)
        return self.mirror(rng, f, p), "rec %d %s %s: %s (%s)" % (f.num, f.path, a.label(), kind, what)

    def runlist(self, rng):
        f, a = self.pick_attr(rng, lambda a: a.nonres and a.runs)
        if not a:
            return None
        v, rec = self.vol, f.rec
        mp0 = a.off + a.mp_off
        room = a.length - a.mp_off
        kind = rng.choice(["bytes", "nibble", "nibble", "huge-length", "zero-length", "negative-lcn",
                           "beyond-volume", "overlap", "overlap-mft", "sparse-flip", "extra-run",
                           "drop-run", "no-terminator", "length-past-highest"])
        runs = [(n, l) for _, l, n in a.runs]
        new = None
        i = rng.randrange(len(runs))
        if kind == "bytes":
            k = rng.randrange(1, 4)
            p = []
            for _ in range(k):
                off = mp0 + rng.randrange(max(1, a.mp_len + 1))
                p += rec.patch(off, bytes([rng.randrange(256)]))
            return self.mirror(rng, f, p), "rec %d %s %s: %d random mapping-pairs bytes" % (
                f.num, f.path, a.label(), k)
        if kind == "nibble":
            h = a.heads[i]
            cur = rec.data[mp0 + h]
            nv = rng.choice([cur & 0x0F | rng.randrange(16) << 4, cur & 0xF0 | rng.randrange(16),
                             0x09, 0x90, 0xFF, 0x88, 0x08 | (cur & 0xF0), 0x01, 0x10])
            if nv == cur:
                nv ^= 0x11
            return self.mirror(rng, f, rec.patch(mp0 + h, bytes([nv]))), \
                "rec %d %s %s: run %d header 0x%02x -> 0x%02x" % (f.num, f.path, a.label(), i, cur, nv)
        if kind == "no-terminator":
            end = mp0 + a.mp_len
            if end >= a.off + a.length:
                return None
            fill = bytes(rng.choice([0x11, 0x21, 0x44, 0xFF]) for _ in range(a.off + a.length - end))
            return self.mirror(rng, f, rec.patch(end, fill)), \
                "rec %d %s %s: terminator and padding overwritten" % (f.num, f.path, a.label())
        n, l = runs[i]
        if kind == "huge-length":
            runs[i] = (rng.choice([1 << 40, (1 << 63) - 1, v.clusters, a.highest + 2, 1 << 32]), l)
        elif kind == "zero-length":
            runs[i] = (0, l)
        elif kind == "negative-lcn":
            runs[i] = (n, rng.choice([-1, -5, -(1 << 40)]))
        elif kind == "beyond-volume":
            runs[i] = (n, rng.choice([v.clusters, v.clusters - n + 1, v.clusters + 1000, 1 << 50]))
        elif kind == "overlap":
            other = [r[1] for r in runs if r[1] is not None] or [v.mft_lcn]
            runs[i] = (n, rng.choice(other) + rng.randrange(0, 2))
        elif kind == "overlap-mft":
            runs[i] = (n, rng.choice([v.mft_lcn, 0, v.mirr_lcn]))
        elif kind == "sparse-flip":
            runs[i] = (n, None if l is not None else rng.randrange(1, v.clusters))
        elif kind == "extra-run":
            runs.insert(rng.randrange(len(runs) + 1), (rng.randrange(1, 9), rng.randrange(v.clusters)))
        elif kind == "drop-run":
            if len(runs) < 2 and rng.random() < 0.5:
                runs = []
            else:
                del runs[i]
        elif kind == "length-past-highest":
            runs[-1] = (runs[-1][0] + rng.randrange(1, 5), runs[-1][1])
        new = encode_runs(runs)
        if len(new) > room:
            # Does not fit: change the run's length bytes in place instead.
            h = a.heads[i]
            ll = rec.data[mp0 + h] & 15
            b = bytes([0xFF] * ll)
            return self.mirror(rng, f, rec.patch(mp0 + h + 1, b)), \
                "rec %d %s %s: run %d length all ones (%s did not fit)" % (f.num, f.path, a.label(), i, kind)
        new = new + bytes(max(0, min(room, a.mp_len + 1) - len(new)))
        return self.mirror(rng, f, rec.patch(mp0, new)), "rec %d %s %s: %s (run %d of %d)" % (
            f.num, f.path, a.label(), kind, i, len(a.runs))

    def index_entry(self, rng, rec, idx, label, vcns):
        if not idx.entries:
            return None
        off, ln, kl, fl = rng.choice(idx.entries)
        d = rec.data
        kind = rng.choice(["length", "length", "key-length", "flags", "child-vcn", "file-ref",
                           "fn-name-length", "fn-parent", "fn-attrib", "fn-namespace", "key-bytes"])
        nblocks = max(vcns) + 1 if vcns else 1
        if kind == "length":
            p, what = self.field(rng, rec, off + 8, 2, "entry-length",
                                 [0, 8, 0x10, ln + 1, ln + 2, ln + 8, ln - 8, 0xFFFF, 0x1000, rec.size])
        elif kind == "key-length":
            p, what = self.field(rng, rec, off + 10, 2, "key-length",
                                 [0, 1, ln, ln - 0x10 + 1, 0xFFFF, kl + 2, kl - 2, 0x42])
        elif kind == "flags":
            p, what = self.field(rng, rec, off + 12, 2, "entry-flags",
                                 [fl ^ 1, fl ^ 2, fl | 2, fl & ~2, 3, 0xFFFF, 0])
        elif kind == "child-vcn" and fl & 1:
            bad = [nblocks * 8, (1 << 64) - 1, 1 << 40, 1, vcns[0] if vcns else 0]
            if vcns:
                bad += [vcns[-1] + 1, rng.choice(vcns)]
            p, what = self.field(rng, rec, off + ln - 8, 8, "child-vcn", bad * 3)
        elif kind in ("file-ref", "child-vcn"):
            ref = u64(d, off)
            rn, sq = ref & ((1 << 48) - 1), ref >> 48
            cands = [(sq << 48) | 0x7FFFFFFF, ((sq + 1) & 0xFFFF) << 48 | rn, (sq << 48) | 5, 0,
                     (sq << 48) | (rn + 1), 1 << 40, (sq << 48) | 11, (sq << 48) | 9]
            cands += [(self.vol.files[x].seq << 48) | x for x in rng.sample(sorted(self.vol.files), 2)]
            p, what = self.field(rng, rec, off, 8, "file-ref", cands * 2)
        elif kl >= 0x42 and kind.startswith("fn-"):
            k = off + 0x10
            if kind == "fn-name-length":
                p, what = self.field(rng, rec, k + 0x40, 1, "name-length", [0, 1, 0xFF, d[k + 0x40] + 1, 0x80])
            elif kind == "fn-parent":
                p, what = self.field(rng, rec, k, 8, "parent-ref", [0, 5, 1 << 40, u64(d, k) + (1 << 48)])
            elif kind == "fn-attrib":
                p, what = self.field(rng, rec, k + 0x38, 4, "file-attributes",
                                     [u32(d, k + 0x38) ^ 0x10000000, 0x400, 0x800, 0xFFFFFFFF, 0])
            else:
                p, what = self.field(rng, rec, k + 0x41, 1, "namespace", [0, 1, 2, 3, 4, 0xFF])
        else:
            k = off + rng.randrange(0x10, max(0x11, ln))
            p = rec.patch(k, bytes([rng.randrange(256)]))
            what = "key byte at +0x%x" % (k - off)
        return p, "%s entry at 0x%x: %s" % (label, off, what)

    def index_root(self, rng):
        roots = [r for r in self.vol.roots if r[0] not in self.plain]
        if not roots:
            return None
        f, a, idx = rng.choice(roots)
        v0 = a.vstart
        label = "rec %d %s %s" % (f.num, f.path, a.label())
        vcns = self.block_vcns(f, a.name)
        r = rng.random()
        if r < 0.3:
            fields = [("indexed-type", 0, 4, [0, 0x80, 0x10, 0xFFFFFFFF]),
                      ("collation", 4, 4, [0, 2, 0x10, 0x13, 0xFF]),
                      ("block-size", 8, 4, [0, 512, 1024, 4097, 0x8000, 1 << 20, 0xFFFFFFFF, 2048]),
                      ("clusters-per-block", 12, 1, [0, 2, 0x80, 0xF7, 0xF4, 0xFF]),
                      ("entries-offset", 0x10, 4, [0, 8, idx.first + 8, idx.first + 1, idx.ilen, 0xFFFF, 0xFFFFFFFF]),
                      ("index-length", 0x14, 4, [0, idx.first, idx.ilen + 8, idx.alloc + 8, 0xFFFFFFFF, 0x10]),
                      ("allocated-size", 0x18, 4, [0, idx.ilen - 8, 0xFFFFFFFF]),
                      ("node-flags", 0x1C, 1, [idx.nflags ^ 1, 0xFF])]
            name, off, w, extra = rng.choice(fields)
            p, what = self.field(rng, f.rec, v0 + off, w, name, extra * 2)
            return self.mirror(rng, f, p), "%s: %s" % (label, what)
        res = self.index_entry(rng, f.rec, idx, label, vcns)
        if not res:
            return None
        return self.mirror(rng, f, res[0]), res[1]

    def block_vcns(self, f, name):
        cs = self.vol.cs
        return sorted({rec.soff // cs for g, a, rec, _ in self.vol.blocks if g is f and a.name == name}) or [0]

    def index_block(self, rng):
        if not self.vol.blocks:
            return None
        f, a, rec, idx = rng.choice(self.vol.blocks)
        label = "INDX vcn %d of %s %s" % (rec.soff // self.vol.cs, f.path, a.label())
        vcns = self.block_vcns(f, a.name)
        if rng.random() < 0.3:
            fields = [("magic", 0, 4, [int.from_bytes(b"BAAD", "little"), int.from_bytes(b"FILE", "little"), 0]),
                      ("usa-offset", 4, 2, [0, 0x29, 0xFFFF, rec.size]),
                      ("usa-count", 6, 2, [0, 1, 0xFF, 0xFFFF]),
                      ("block-vcn", 0x10, 8, [0, 1, max(vcns) + 1, 1 << 40]),
                      ("entries-offset", 0x18, 4, [0, 8, idx.first + 8, idx.first + 1, rec.size, 0xFFFFFFFF]),
                      ("index-length", 0x1C, 4, [0, idx.first, idx.ilen + 8, rec.size, rec.size + 8, 0xFFFFFFFF]),
                      ("allocated-size", 0x20, 4, [0, idx.ilen - 8, rec.size * 2, 0xFFFFFFFF]),
                      ("node-flags", 0x24, 1, [idx.nflags ^ 1, 0xFF])]
            name, off, w, extra = rng.choice(fields)
            p, what = self.field(rng, rec, off, w, name, extra * 2)
            return p, "%s: %s" % (label, what)
        return self.index_entry(rng, rec, idx, label, vcns)

    def attr_list(self, rng):
        if not self.vol.alists:
            return None
        f, a, st, ents = rng.choice(self.vol.alists)
        if not ents:
            return None
        off, ln, typ, ref = rng.choice(ents)
        files = self.vol.files
        exts = [g for g in files.values() if g.base and g.base == f.num and g.num != f.num]
        rn, sq = ref & ((1 << 48) - 1), ref >> 48
        fields = [("length", 4, 2, [0, 8, 0x19, 0x1A, ln + 1, ln + 8, ln - 8, 0xFFFF, 0x100]),
                  ("type", 0, 4, [0, 0xFFFFFFFF, 0x80, 0x30, 0x20, 0x10, 0xA0]),
                  ("name-length", 6, 1, [0, 1, 4, 0xFF]),
                  ("name-offset", 7, 1, [0, 0x1A, 0x1B, ln, 0xFF]),
                  ("start-vcn", 8, 8, [0, 1, 0x10, 1 << 40, (1 << 64) - 1]),
                  ("record-ref", 0x10, 8, [(sq << 48) | f.num, 0, (sq << 48) | 0x7FFFFF, ((sq + 1) & 0xFFFF) << 48 | rn,
                                            (sq << 48) | 5, (sq << 48) | (rn + 1), 1 << 47]
                   + [(g.seq << 48) | g.num for g in exts] * 2),
                  ("attr-id", 0x18, 2, [0, 0xFFFF])]
        name, foff, w, extra = rng.choice(fields + fields[4:6] * 2)
        label = "rec %d %s $ATTRIBUTE_LIST entry at 0x%x (%s)" % (f.num, f.path, off, AT_NAMES.get(typ, hex(typ)))
        if st is None:
            p, what = self.field(rng, f.rec, off + foff, w, name, extra * 2)
            return self.mirror(rng, f, p), "%s: %s" % (label, what)
        data = st.read(off + foff, w)
        cur = int.from_bytes(data, "little")
        val = values(rng, w, cur, extra * 2)
        bs = le(val, w)
        return [(st.disk(off + foff + i), bs[i:i + 1]) for i in range(w)], \
            "%s (non-resident): %s=0x%x (was 0x%x)" % (label, name, val, cur)

    def attr_value(self, rng):
        """Fields inside attribute values: $STANDARD_INFORMATION,
        $FILE_NAME, $EA, $EA_INFORMATION, $REPARSE_POINT,
        $VOLUME_INFORMATION, $VOLUME_NAME."""
        f, a = self.pick_attr(rng, lambda a: not a.nonres and a.type in (0x10, 0x30, 0x60, 0x70, 0xB0, 0xC0, 0xD0,
                                                                         0xE0) and a.vlen > 0)
        if not a:
            return None
        d, s = f.rec.data, a.vstart
        t = a.type
        if t == 0x10:
            fields = [("file-attributes", 0x20, 4, [0x10000000, 0x400, 0x800, 0x4000, 0x200, 0xFFFFFFFF, 0]),
                      ("max-versions", 0x24, 4, [0xFFFFFFFF])]
            if a.vlen >= 0x48:
                fields += [("security-id", 0x34, 4, [0, 1, 0xFFFF, 0xFFFFFFFF, 0x100])] * 3
        elif t == 0x30:
            fields = [("parent-ref", 0, 8, [0, 5 | 5 << 48, 1 << 40, u64(d, s) + (1 << 48)]),
                      ("name-length", 0x40, 1, [0, 1, 0xFF, d[s + 0x40] + 1]),
                      ("namespace", 0x41, 1, [2, 3, 0xFF]),
                      ("file-attributes", 0x38, 4, [0x10000000, 0x400, 0xFFFFFFFF]),
                      ("data-size", 0x30, 8, [1 << 62, (1 << 64) - 1])]
        elif t == 0x60:
            fields = [("volume-name", 0, min(4, a.vlen), [0xFFFFFFFF, 0xD800D800])]
        elif t == 0x70:
            fields = [("major-version", 8, 1, [0, 1, 2, 4, 0xFF]), ("minor-version", 9, 1, [0, 2, 0xFF]),
                      ("volume-flags", 10, 2, [1, 0x8000, 0x4000, 0x10, 0xFFFF])]
        elif t == 0xC0:
            fields = [("reparse-tag", 0, 4, [0xA000000C, 0xA0000003, 0xA000001D, 0x80000017, 0, 0xFFFFFFFF]),
                      ("reparse-data-length", 4, 2, [0, 1, a.vlen, 0xFFFF, u16(d, s + 4) + 2])]
            if a.vlen >= 16:
                fields += [("substitute-offset", 8, 2, [0xFFFF, 1, a.vlen]),
                           ("substitute-length", 10, 2, [0, 1, 0xFFFF, 0x1000]),
                           ("print-offset", 12, 2, [0xFFFF, 1]), ("print-length", 14, 2, [0xFFFF, 3])]
        elif t == 0xB0:	# which index blocks (or MFT records) are in use
            fields = [("bitmap-byte", rng.randrange(a.vlen), 1, [0, 0xFF, d[s] ^ 1])]
        elif t == 0xD0:
            fields = [("packed-ea-size", 0, 2, [0, 0xFFFF]), ("need-ea-count", 2, 2, [0xFFFF]),
                      ("unpacked-ea-size", 4, 4, [0, 0xFFFFFFFF])]
        else:  # $EA: walk its entries
            ents, o = [], 0
            v = a.value()
            while o + 8 <= len(v):
                ents.append(o)
                nxt = u32(v, o)
                if nxt == 0 or o + nxt >= len(v):
                    break
                o += nxt
            o = rng.choice(ents)
            fields = [("ea-next-offset", o, 4, [0, 1, 2, 7, 0xFFFFFFFF, a.vlen, u32(v, o) + 1]),
                      ("ea-flags", o + 4, 1, [0x80, 0xFF]),
                      ("ea-name-length", o + 5, 1, [0, 0xFF, v[o + 5] + 1, a.vlen]),
                      ("ea-value-length", o + 6, 2, [0, 0xFFFF, u16(v, o + 6) + 1, a.vlen])]
        fields = [x for x in fields if x[1] + x[2] <= a.vlen]
        if not fields:
            return None
        name, off, w, extra = rng.choice(fields)
        p, what = self.field(rng, f.rec, s + off, w, name, extra * 2)
        return self.mirror(rng, f, p), "rec %d %s %s: %s" % (f.num, f.path, a.label(), what)

    def system_data(self, rng):
        """Metadata kept in system files' data: $SDS entry headers and
        security descriptors, $Volume is in attr_value, $UpCase entries,
        $AttrDef entries, the $LogFile restart area."""
        v = self.vol
        kind = rng.choice(["sds", "sds", "upcase", "attrdef", "logfile"])
        if kind == "sds":
            sec = v.files.get(9)
            st = sec and v.stream_of(sec, 0x80, "$SDS")
            if not st:
                return None
            ents, o = [], 0
            while o + 20 <= min(st.size, 0x40000):
                h = st.read(o, 20)
                ln = u32(h, 16)
                if ln < 20 or u32(h, 4) == 0:
                    break
                ents.append((o, ln))
                o = (o + ln + 15) & ~15
            if not ents:
                return None
            o, ln = rng.choice(ents)
            fields = [("sds-id", 4, 4, [0, 0xFFFFFFFF]), ("sds-offset", 8, 8, [0, 1 << 40, o + 16]),
                      ("sds-length", 16, 4, [0, 19, 20, 21, 0xFFFF, 0xFFFFFFFF, ln + 8]),
                      ("sd-revision", 20, 1, [0, 2]), ("sd-control", 22, 2, [0, 0xFFFF]),
                      ("sd-owner-offset", 24, 4, [0xFFFFFFF0, ln, 1]), ("sd-group-offset", 28, 4, [0xFFFFFFF0, ln]),
                      ("sd-sacl-offset", 32, 4, [0xFFFFFFF0, 3]), ("sd-dacl-offset", 36, 4, [0xFFFFFFF0, ln - 20])]
            name, off, w, extra = rng.choice(fields)
            cur = int.from_bytes(st.read(o + off, w), "little")
            val = values(rng, w, cur, extra * 2)
            bs = le(val, w)
            p = [(st.disk(o + off + i), bs[i:i + 1]) for i in range(w)]
            # The $SDS stream keeps a mirror copy 256 KiB further on.
            if st.size > o + 0x40000 + off + w and rng.random() < 0.5:
                p += [(st.disk(0x40000 + o + off + i), bs[i:i + 1]) for i in range(w)]
            return p, "$Secure:$SDS entry at 0x%x: %s=0x%x (was 0x%x)" % (o, name, val, cur)
        if kind == "upcase":
            f = v.files.get(10)
            st = f and v.stream_of(f, 0x80)
            if not st:
                return None
            ch = rng.choice([ord('a') + rng.randrange(26), ord('A') + rng.randrange(26), rng.randrange(0x10000)])
            val = rng.choice([0, 0xFFFF, ord('Z'), ch ^ 0x20])
            return [(st.disk(2 * ch), le(val, 2)[:1]), (st.disk(2 * ch + 1), le(val, 2)[1:])], \
                "$UpCase[0x%04x]=0x%04x" % (ch, val)
        if kind == "attrdef":
            f = v.files.get(4)
            st = f and v.stream_of(f, 0x80)
            if not st:
                return None
            o = 160 * rng.randrange(min(16, st.size // 160))
            fields = [("type", 0x80, 4, [0, 0xFFFFFFFF]), ("flags", 0x8C, 4, [0xFFFFFFFF, 0]),
                      ("min-size", 0x90, 8, [1 << 20, (1 << 64) - 1]), ("max-size", 0x98, 8, [0, 1])]
            name, off, w, extra = rng.choice(fields)
            cur = int.from_bytes(st.read(o + off, w), "little")
            val = values(rng, w, cur, extra * 2)
            bs = le(val, w)
            return [(st.disk(o + off + i), bs[i:i + 1]) for i in range(w)], \
                "$AttrDef entry %d: %s=0x%x" % (o // 160, name, val)
        f = v.files.get(2)
        st = f and v.stream_of(f, 0x80)
        if not st:
            return None
        off = rng.choice([0, 0, 4, 6, 0x10, 0x18, 0x1A, 0x1C, 0x1E, 0x20, 0x30, 0x32, 0x34, 0x38])
        page = rng.choice([0, 4096])
        b = rng.randrange(256)
        return [(st.disk(page + off), bytes([b]))], "$LogFile restart page %d byte 0x%x=0x%02x" % (page, off, b)

    def random_flip(self, rng):
        """A few random bits or bytes of one metadata structure."""
        v = self.vol
        r = rng.random()
        if r < 0.1:
            base, size, label = 0, 512, "boot sector"
            offs = [base + rng.randrange(size) for _ in range(rng.randrange(1, 5))]
        elif r < 0.35 and v.blocks:
            f, a, rec, idx = rng.choice(v.blocks)
            label = "INDX vcn %d of %s" % (rec.soff // v.cs, f.path)
            offs = [rec.raw_off(rng.randrange(min(rec.size, 0x18 + idx.ilen + 8)))
                    for _ in range(rng.randrange(1, 5))]
        else:
            f = self.pick_file(rng)
            label = "rec %d %s" % (f.num, f.path)
            offs = [f.rec.raw_off(rng.randrange(min(f.rec.size, f.used))) for _ in range(rng.randrange(1, 5))]
        p = []
        bits = rng.random() < 0.5
        for o in offs:
            cur = v.img[o]
            nv = cur ^ (1 << rng.randrange(8)) if bits else rng.randrange(256)
            p.append((o, bytes([nv if nv != cur else cur ^ 0x80])))
        return p, "%s: %d random %s" % (label, len(offs), "bit flips" if bits else "bytes")

    def combo(self, rng):
        """Two or three mutations of other kinds at once."""
        p, what = [], []
        for _ in range(rng.randrange(2, 4)):
            cat = rng.choices([c for c, _ in self.CATEGORIES[:-1]], [w for _, w in self.CATEGORIES[:-1]])[0]
            try:
                res = getattr(self, cat.replace("-", "_"))(rng)
            except (IndexError, ValueError, KeyError, struct.error, Corrupt):
                res = None
            if res:
                p += res[0]
                what.append("%s: %s" % (cat, res[1]))
        return p, " + ".join(what)

    CATEGORIES = [("boot", 5), ("rec-header", 10), ("fixup", 6), ("attr-header", 16), ("attr-sizes", 8),
                  ("runlist", 14), ("index-root", 7), ("index-block", 12), ("attr-list", 8),
                  ("attr-value", 6), ("system-data", 4), ("random-flip", 9), ("combo", 5)]

    def case(self, seed, k):
        rng = random.Random("ntfs-fuzz:%s:%d" % (seed, k))
        for _ in range(100):
            cat = rng.choices([c for c, _ in self.CATEGORIES], [w for _, w in self.CATEGORIES])[0]
            try:
                res = getattr(self, cat.replace("-", "_"))(rng)
            except (IndexError, ValueError, KeyError, struct.error, Corrupt):
                res = None	# the target does not fit this mutation
            if res and res[0]:
                p = [(o, b) for o, b in res[0] if o is not None]
                if p and any(self.vol.img[o:o + len(b)] != b for o, b in p):
                    return cat, p, res[1]
        raise SystemExit("case %d: no mutation found" % k)


def merge(patches):
    """Sort and join adjacent single-byte patches (later ones win)."""
    byte = {}
    for o, b in patches:
        for i, x in enumerate(b):
            byte[o + i] = x
    out = []
    for o in sorted(byte):
        if out and out[-1][0] + len(out[-1][1]) == o:
            out[-1][1].append(byte[o])
        else:
            out.append([o, bytearray([byte[o]])])
    return ",".join("%d:%s" % (o, b.hex()) for o, b in out)


def ids(env):
    return {int(x) for x in os.environ.get(env, "").replace(",", " ").split()}


def info(path):
    v = Volume(path)
    print("sector %d cluster %d record %d index %d clusters %d mft@%d mirr@%d backup@%s" % (
        v.bps, v.cs, v.rs, v.ixs, v.clusters, v.mft_lcn, v.mirr_lcn, v.backup))
    for n, f in sorted(v.files.items()):
        print("%5d %-40s flags %x base %d: %s" % (n, f.path, f.flags, f.base, " ".join(
            a.label() + ("[nr %d runs vcn %d-%d]" % (len(a.runs), a.lowest, a.highest) if a.nonres else "")
            for a in f.attrs)))
    print("unparsable records:", v.bad[:10])
    print("index roots %d, INDX blocks %d, attribute lists %d" % (len(v.roots), len(v.blocks), len(v.alists)))
    for f, a, st, ents in v.alists:
        print("  alist of %d %s: %d entries, %s" % (f.num, f.path, len(ents), "non-resident" if st else "resident"))
    s = nfs.Struct(v)
    print("structural targets: %d single-extent non-resident attributes, %d directories, %d files; "
          "sparse-tail streams: %s" % (len(s.single), len(s.dirs), len(s.regular), ", ".join(
              "%s %d" % (k, len(t)) for k, t in sorted(s.tail_groups().items()))))


def line(k, cat, spec, image, what):
    return "%s\t%s\t%s\t%s\t%s\n" % (k, cat, spec, image, what.replace("\t", " ").replace("\n", " "))


def generate(seed, n, bases, out):
    """N cases, about one in three structural (ntfs_fuzz_struct): case K
    is structural or not, and which, from SEED and K alone; a byte case
    K is the same as before the structural mutator existed."""
    vols = [Volume(b) for b in bases]
    gens, structs = [Gen(v) for v in vols], [nfs.Struct(v) for v in vols]
    names = [os.path.basename(b) for b in bases]
    weights = [2] + [1] * (len(bases) - 1)	# the first image: half the cases
    skip, only = ids("FUZZ_SKIP"), ids("FUZZ_CASES")
    counts = {}
    with open(out + ".new", "w") as f:
        f.write("# ntfs-fuzz-gen seed=%s n=%d %s\n" % (seed, n, " ".join(
            "%s:sha256=%s" % (nm, hashlib.sha256(v.img).hexdigest()[:16]) for nm, v in zip(names, vols))))
        for k in range(1, n + 1):
            if only and k not in only:
                continue
            i = random.Random("ntfs-fuzz-image:%s:%d" % (seed, k)).choices(range(len(bases)), weights)[0]
            if k in skip:
                f.write(line(k, "skip", "-", names[i], "skipped (FUZZ_SKIP)"))
                continue
            if random.Random("ntfs-fuzz-kind:%s:%d" % (seed, k)).random() < STRUCT_SHARE:
                cat, p, what = structs[i].case(random.Random("ntfs-fuzz-struct:%s:%d" % (seed, k)))
                spec = nfs.spec(p)
            else:
                cat, p, what = gens[i].case(seed, k)
                spec = merge(p)
            counts[cat] = counts.get(cat, 0) + 1
            f.write(line(k, cat, spec, names[i], what))
    os.replace(out + ".new", out)
    print("  FUZZ    %d cases (seed %s, %s): %s" % (sum(counts.values()), seed, " ".join(names),
                                                  ", ".join("%s %d" % kv for kv in sorted(counts.items()))))


STRUCT_SHARE = 1 / 3	# of the random cases, structural


def regress(bases, out):
    """The regression set: fixed structural cases (nfs.REGRESS), ids from
    nfs.REGRESS_BASE + 1 on, on the images given (an entry for an image
    that is not given is left out, its id unused)."""
    names = [os.path.basename(b) for b in bases]
    structs = {}
    skip, only = ids("FUZZ_SKIP"), ids("FUZZ_CASES")
    n = 0
    with open(out + ".new", "w") as f:
        f.write("# ntfs-fuzz-gen regression set (%d entries)\n" % len(nfs.REGRESS))
        for k, (image, cat, kind, focus, want) in enumerate(nfs.REGRESS, nfs.REGRESS_BASE + 1):
            if image not in names or (only and k not in only):
                continue
            if k in skip:
                f.write(line(k, "skip", "-", image, "skipped (FUZZ_SKIP)"))
                continue
            if image not in structs:
                structs[image] = nfs.Struct(Volume(bases[names.index(image)]))
            try:
                cat, p, what = structs[image].regress_case(cat, kind, focus, want)
            except nfs.NoTarget as e:	# the base images changed: say so, go on
                print("ntfs-fuzz-gen: regression case %d left out: %s" % (k, e), file=sys.stderr)
                continue
            f.write(line(k, cat, nfs.spec(p), image, "regress: " + what))
            n += 1
    os.replace(out + ".new", out)
    print("  FUZZ    %d regression cases" % n)


def check(cases, bases):
    """Apply every structural case of a cases file in memory and parse
    the result: fixups, $MFTMirr, runlist arithmetic, indexes, EAs (see
    nfs.check).  Exit status 1 when a case is not what it should be."""
    vols = {os.path.basename(b): Volume(b) for b in bases}
    bad = n = 0
    for ln in open(cases):
        if ln.startswith("#"):
            continue
        k, cat, spec, image, what = ln.rstrip("\n").split("\t", 4)
        if not cat.startswith("s-") or image not in vols:
            continue
        base = vols[image]
        img = bytearray(base.img)
        for part in spec.split(","):
            o, h = part.split(":")
            img[int(o):int(o) + len(h) // 2] = bytes.fromhex(h)
        probs = nfs.check(sys.modules[__name__], base, bytes(img), cat, what)
        n += 1
        if probs:
            bad += 1
            print("case %s %s on %s: %s\n    [%s]" % (k, cat, image, "; ".join(probs), what[:200]))
    print("  FUZZ    %d structural cases checked, %d with problems" % (n, bad))
    return 1 if bad else 0


def main():
    a = sys.argv[1:]
    if len(a) == 2 and a[0] == "--info":
        info(a[1])
    elif len(a) == 3 and a[0] == "--regress":
        regress(a[1].split(","), a[2])
    elif len(a) == 3 and a[0] == "--check":
        sys.exit(check(a[1], a[2].split(",")))
    elif len(a) == 4:
        generate(a[0], int(a[1]), a[2].split(","), a[3])
    else:
        raise SystemExit("usage: ntfs-fuzz-gen.py SEED N BASEIMG[,BASEIMG...] OUT\n"
                         "       ntfs-fuzz-gen.py --regress BASEIMG[,BASEIMG...] OUT\n"
                         "       ntfs-fuzz-gen.py --check CASES BASEIMG[,BASEIMG...]\n"
                         "       ntfs-fuzz-gen.py --info BASEIMG")


if __name__ == "__main__":
    main()
