#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# How the test vectors in this directory were made.  Not run by the tests
# (it needs root, FUSE and ntfs-3g); run it by hand to remake them:
#
#   sudo sh tests/host/ntfs-units/vectors/make-vectors.sh [WORKDIR]
#
# It creates NTFS images with mkntfs, writes files through ntfs-3g (FUSE,
# never the host kernel's ntfs3 driver) into a directory marked compressed,
# and takes from the images:
#
#   *.lznt1      the raw clusters of one compression unit that ntfs-3g
#                stored compressed (an LZNT1 stream followed by the rest of
#                its last cluster)
#   SHA256SUMS   per unit: its file name, the number of file bytes in the
#                unit, and the sha256 of those bytes as ntfscat reads them
#   *.mp         the mapping pairs of one attribute extent, as stored in its
#                MFT record (from the mapping pairs offset to the end of the
#                attribute, so with the bytes after the 0x00 terminator)
#   *.runs       for a set of .mp files: the volume size, the VCN range of
#                every extent, and the runs that ntfsinfo lists
set -eu

here=$(cd "$(dirname "$0")" && pwd)
work=${1:-$(mktemp -d)}
mnt=$work/mnt
mkdir -p "$mnt"

for t in mkntfs ntfs-3g ntfsinfo ntfscat setfattr getfattr python3; do
	command -v $t >/dev/null || { echo "missing $t" >&2; exit 1; }
done

# Deterministic file contents.
python3 - "$work" <<'EOF'
import random, sys
w = sys.argv[1]
r = random.Random(1234)
words = ("the of and to in is that for it as with was on be by this are "
         "from at or an not which have but they his her one all were can "
         "there been if more when will would who so no out up into than "
         "them only its about time some could these two may first then do "
         "any like my now over such our man me even most made after also "
         "did many before must through back years where much your way well "
         "down should because each just those people how too little state "
         "good very make world still own see men work long get here "
         "between both life being under never day same another know while "
         "last might us great old year off come since against go came "
         "right used take three").split()
def text(n):
    out, k = [], 0
    while k < n:
        line = " ".join(r.choice(words) for _ in range(r.randint(3, 14)))
        line = line.capitalize() + ".\n"
        out.append(line)
        k += len(line)
    return "".join(out).encode()[:n]
def rand(n):
    return bytes(r.getrandbits(8) for _ in range(n))
t = text(100000)
open(w + "/text.txt", "wb").write(t)
open(w + "/rand.bin", "wb").write(rand(20000))
open(w + "/mixed.bin", "wb").write(t[:30000] + rand(9000) + bytes(40000) +
                                   b"ABCDEFG\x00\x01" * 3000 + b"tail!")
# Many units of different kinds: many runs, several attribute extents.
big = []
for u in range(360):
    k = r.randrange(4)
    if k == 0:
        big.append(text(65536))
    elif k == 1:
        big.append(rand(r.randrange(1, 65536)))
    elif k == 2:
        big.append(bytes(65536))
    else:
        big.append(text(r.randrange(1, 65536)))
    big[-1] = (big[-1] + bytes(65536))[:65536]
open(w + "/units.bin", "wb").write(b"".join(big))
EOF

# Image 1: compressed files.
rm -f "$work/c.img"
truncate -s 128M "$work/c.img"
mkntfs -F -f -q "$work/c.img" 2>/dev/null
ntfs-3g "$work/c.img" "$mnt"
mkdir "$mnt/c"
# system.ntfs_attrib_be is the FILE_ATTRIBUTE_* word as a big-endian
# number (a new directory reads 0x00000030, DIRECTORY | ARCHIVE): add
# FILE_ATTRIBUTE_COMPRESSED (0x800) to it, so files created inside are
# compressed.
attr=$(getfattr -n system.ntfs_attrib_be -e hex "$mnt/c" | sed -n 's/.*=0x//p')
setfattr -n system.ntfs_attrib_be -v "$(printf '0x%08x' $((0x$attr | 0x800)))" \
	"$mnt/c"
getfattr -n system.ntfs_attrib_be -e hex "$mnt/c"
cp "$work/text.txt" "$work/rand.bin" "$work/mixed.bin" "$work/units.bin" \
	"$mnt/c/"
umount "$mnt"

# Image 2: a fragmented plain file (negative LCN offsets): fill the volume
# with 8 KiB files, delete every other one, then write a 3 MiB file.
rm -f "$work/f.img"
truncate -s 32M "$work/f.img"
mkntfs -F -f -q "$work/f.img" 2>/dev/null
ntfs-3g "$work/f.img" "$mnt"
python3 - "$mnt" <<'EOF'
import os, random, sys
m = sys.argv[1]
os.mkdir(m + "/d")
n = 0
try:
    while True:
        with open("%s/d/f%d" % (m, n), "wb") as f:
            f.write(b"a" * 8192)
        n += 1
except OSError:
    pass
for i in range(0, n, 2):
    os.unlink("%s/d/f%d" % (m, i))
r = random.Random(5)
with open(m + "/frag.bin", "wb") as f:
    f.write(bytes(r.getrandbits(8) for _ in range(3 << 20)))
EOF
umount "$mnt"

python3 - "$work" "$here" <<'EOF'
import hashlib, re, struct, subprocess, sys

work, out = sys.argv[1], sys.argv[2]

def info(img, path):
    return subprocess.run(["ntfsinfo", "-F", path, "-v", img],
                          capture_output=True, text=True, check=True).stdout

class Vol:
    def __init__(self, img):
        self.f = open(img, "rb")
        b = self.f.read(512)
        self.bps = struct.unpack_from("<H", b, 0x0b)[0]
        self.csize = self.bps * b[0x0d]
        self.clusters = struct.unpack_from("<q", b, 0x28)[0] * self.bps // self.csize
        mft = struct.unpack_from("<q", b, 0x30)[0]
        c = struct.unpack_from("<b", b, 0x40)[0]
        self.rsize = 1 << -c if c < 0 else c * self.csize
        self.mft_runs = [(0, mft, 1 << 40)]
        rec = self.record(0)
        self.mft_runs = decode(attr(rec, 0)[0])

    def read(self, off, n):
        self.f.seek(off)
        return self.f.read(n)

    def record(self, no):
        pos = no * self.rsize
        vcn = pos // self.csize
        for v, l, n in self.mft_runs:
            if v <= vcn < v + n:
                off = (l + vcn - v) * self.csize + pos % self.csize
                break
        rec = bytearray(self.read(off, self.rsize))
        assert rec[:4] == b"FILE"
        uo, uc = struct.unpack_from("<HH", rec, 4)
        for i in range(1, uc):
            e = i * self.bps - 2
            assert rec[e:e + 2] == rec[uo:uo + 2]
            rec[e:e + 2] = rec[uo + 2 * i:uo + 2 * i + 2]
        return rec

def attr(rec, lowest):
    """Mapping pairs (to the attribute end), lowest, highest of $DATA."""
    off = struct.unpack_from("<H", rec, 0x14)[0]
    while True:
        t, n = struct.unpack_from("<II", rec, off)
        assert t != 0xffffffff
        a = rec[off:off + n]
        if t == 0x80 and a[8] == 1 and a[9] == 0:
            lo, hi = struct.unpack_from("<qq", a, 0x10)
            if lo == lowest:
                mp = struct.unpack_from("<H", a, 0x20)[0]
                return bytes(a[mp:]), lo, hi, a[0x22], \
                    struct.unpack_from("<q", a, 0x30)[0]
        off += n

def decode(mp):
    runs, p, vcn, lcn = [], 0, 0, 0
    while mp[p]:
        ls, os_ = mp[p] & 15, mp[p] >> 4
        n = int.from_bytes(mp[p + 1:p + 1 + ls], "little")
        if os_:
            lcn += int.from_bytes(mp[p + 1 + ls:p + 1 + ls + os_], "little",
                                  signed=True)
        runs.append((vcn, lcn if os_ else None, n))
        vcn += n
        p += 1 + ls + os_
    return runs

def extents(img, path):
    """[(record, lowest, highest)] of $DATA, and ntfsinfo's runs."""
    s = info(img, path)
    ext = []
    for m in re.finditer(r"Dumping attribute \$DATA \(0x80\) from mft record "
                         r"(\d+).*?Lowest VCN\s+(\d+).*?Highest VCN:\s+(\d+)",
                         s, re.S):
        ext.append(tuple(int(x) for x in m.groups()))
    runs = []
    # Only the runlists printed for $DATA (not the one of a non-resident
    # $ATTRIBUTE_LIST); an extension extent lists the VCNs before it as
    # <RL_NOT_MAPPED>, which the pattern skips.
    for sec in s.split("Dumping attribute ")[1:]:
        if not sec.startswith("$DATA "):
            continue
        for m in re.finditer(r"^\s+0x([0-9a-f]+)\s+(0x[0-9a-f]+|<HOLE>)\s+"
                             r"0x([0-9a-f]+)\s*$", sec, re.M):
            runs.append((int(m.group(1), 16),
                         -1 if m.group(2) == "<HOLE>" else int(m.group(2), 16),
                         int(m.group(3), 16)))
    return ext, runs

def mapping_pairs(img, path, name):
    v = Vol(img)
    ext, runs = extents(img, path)
    lines = ["# %s %s: $DATA runs as listed by ntfsinfo -v" % (img.split("/")[-1], path),
             "clusters %d" % v.clusters]
    for i, (rec, lo, hi) in enumerate(ext):
        mp, lo2, hi2, _, _ = attr(v.record(rec), lo)
        assert (lo2, hi2) == (lo, hi)
        fn = "%s.e%d.mp" % (name, i)
        open("%s/%s" % (out, fn), "wb").write(mp)
        lines.append("extent %d %d %s" % (lo, hi, fn))
    for r in runs:
        lines.append("run %d %d %d" % r)
    open("%s/%s.runs" % (out, name), "w").write("\n".join(lines) + "\n")
    print(name, len(ext), "extents", len(runs), "runs")

def units(img, path, name, which, sums):
    v = Vol(img)
    ext, runs = extents(img, path)
    ref = subprocess.run(["ntfscat", img, path], capture_output=True,
                         check=True).stdout
    cu = 16
    for u in which:
        data, holes = b"", 0
        for vcn in range(u * cu, (u + 1) * cu):
            for rv, rl, rn in runs:
                if rv <= vcn < rv + rn:
                    if rl < 0:
                        holes += 1
                    else:
                        data += v.read((rl + vcn - rv) * v.csize, v.csize)
        assert 0 < holes < cu, (path, u, "not a compressed unit")
        fn = "%s-u%d.lznt1" % (name, u)
        open("%s/%s" % (out, fn), "wb").write(data)
        want = ref[u * cu * v.csize:(u + 1) * cu * v.csize]
        sums.append("%s %d %s" % (fn, len(want),
                                  hashlib.sha256(want).hexdigest()))

c = work + "/c.img"
sums = []
units(c, "/c/text.txt", "text", [0, 1], sums)
units(c, "/c/rand.bin", "rand", [0], sums)
units(c, "/c/mixed.bin", "mixed", [0, 1], sums)
open(out + "/SHA256SUMS", "w").write("\n".join(sums) + "\n")
mapping_pairs(c, "/c/text.txt", "text")
mapping_pairs(c, "/c/units.bin", "units")
mapping_pairs(work + "/f.img", "/frag.bin", "frag")
EOF
ls -l "$here"
