"""ntfs_image: the NTFS on-disk format, once, for the scripts that make and
mutate test images: the corruption fuzzer's case generator
(ntfs-fuzz-gen.py, ntfs_fuzz_struct.py), the damaged volumes of the fsck
tests (make-ntfs-damaged.py), the special-state volumes
(ntfs_special.py, run by make-ntfs-special.sh) and the fuzzer's base
volumes (make-fuzz-base.sh).

  little-endian fields      u16 u32 u64 s64, align8, utf16
  mapping pairs             decode_runs (checked), runs_of (trusted), pack_runs
  update sequence arrays    unfixup, refixup
  attributes of a record    attr_offsets
  boot sector               Geometry
  a whole volume in memory  Volume (records, attributes, names, indexes,
                            attribute lists), Stream, Rec, Attr, File, Index
  a volume file to patch    VolumeFile
  values ntfs-3g is given   ea_value, symlink_reparse

Format facts: the libyal NTFS document, the Linux-NTFS documentation,
[MS-FSCC].
"""
import struct

M64 = (1 << 64) - 1
SECTOR = 512			# update sequence stride, whatever the sector size

AT_NAMES = {
    0x10: "$STANDARD_INFORMATION", 0x20: "$ATTRIBUTE_LIST", 0x30: "$FILE_NAME",
    0x40: "$OBJECT_ID", 0x50: "$SECURITY_DESCRIPTOR", 0x60: "$VOLUME_NAME",
    0x70: "$VOLUME_INFORMATION", 0x80: "$DATA", 0x90: "$INDEX_ROOT",
    0xA0: "$INDEX_ALLOCATION", 0xB0: "$BITMAP", 0xC0: "$REPARSE_POINT",
    0xD0: "$EA_INFORMATION", 0xE0: "$EA", 0x100: "$LOGGED_UTILITY_STREAM",
}
SYSTEM_NAMES = ["$MFT", "$MFTMirr", "$LogFile", "$Volume", "$AttrDef", ".",
                "$Bitmap", "$Boot", "$BadClus", "$Secure", "$UpCase", "$Extend"]


class Corrupt(Exception):
    """The bytes do not hold what the format says they must."""


def u16(b, o):
    return struct.unpack_from("<H", b, o)[0]


def u32(b, o):
    return struct.unpack_from("<I", b, o)[0]


def u64(b, o):
    return struct.unpack_from("<Q", b, o)[0]


def s64(b, o):
    return struct.unpack_from("<q", b, o)[0]


def align8(n):
    return (n + 7) & ~7


def utf16(s):
    return s.encode("utf-16-le", "surrogatepass")


# ---------------------------------------------------------------- runlists

def decode_runs(mp, lowest=0):
    """Mapping pairs -> ([(vcn, lcn or None, length)], the offset of each
    run's header byte, the offset of the terminator).  Raises Corrupt on a
    header with no length bytes or more than 8 of either, or one that runs
    past the end."""
    runs, heads = [], []
    pos, vcn, lcn = 0, lowest, 0
    while pos < len(mp) and mp[pos]:
        h = mp[pos]
        ll, lo = h & 15, h >> 4
        if ll == 0 or ll > 8 or lo > 8 or pos + 1 + ll + lo > len(mp):
            raise Corrupt("bad mapping pairs header")
        length = int.from_bytes(mp[pos + 1:pos + 1 + ll], "little")
        if lo:
            lcn += int.from_bytes(mp[pos + 1 + ll:pos + 1 + ll + lo], "little", signed=True)
            runs.append((vcn, lcn, length))
        else:
            runs.append((vcn, None, length))
        heads.append(pos)
        vcn += length
        pos += 1 + ll + lo
    return runs, heads, pos


def runs_of(mp, lowest=0):
    """Mapping pairs -> [(vcn, lcn or None, length)], without checks: for
    runlists that mkntfs, ntfs-3g or this module wrote."""
    out, pos, vcn, lcn = [], 0, lowest, 0
    while pos < len(mp) and mp[pos]:
        ll, lo = mp[pos] & 15, mp[pos] >> 4
        length = int.from_bytes(mp[pos + 1:pos + 1 + ll], "little")
        if lo:
            lcn += int.from_bytes(mp[pos + 1 + ll:pos + 1 + ll + lo], "little", signed=True)
            out.append((vcn, lcn, length))
        else:
            out.append((vcn, None, length))
        vcn += length
        pos += 1 + ll + lo
    return out


def signed_min(v):
    """v in the fewest little-endian bytes that hold it as a signed
    number (mapping pairs store LCN deltas so)."""
    n = 1
    while not -(1 << (8 * n - 1)) <= v < (1 << (8 * n - 1)):
        n += 1
    return v.to_bytes(n, "little", signed=True)


def pack_runs(runs, clip=False):
    """[(length, lcn or None)] -> mapping pairs with the terminator.

    A length is written in the fewest bytes that keep it positive when
    read as signed; one of 2^63 or more gets its low 8 bytes, which a
    reader that takes lengths as signed sees as negative (deliberately:
    the fuzzer's wrap cases use both readings).  clip: an LCN delta that
    needs more than 8 bytes keeps its low 8 (the fuzzer's runlists may ask
    for one; a well-formed volume never needs it)."""
    out, prev = bytearray(), 0
    for length, lcn in runs:
        length &= M64
        lb = signed_min(length) if length < 1 << 63 else length.to_bytes(8, "little")
        ob = b""
        if lcn is not None:
            ob, prev = signed_min(lcn - prev), lcn
            if clip:
                ob = ob[:8]
        out.append(len(ob) << 4 | len(lb))
        out += lb + ob
    return bytes(out) + b"\0"


# ---------------------------------------------------------------- records

def unfixup(raw, size):
    """The logical bytes of a fixup-protected record (FILE, INDX, RSTR) of
    size bytes: the saved bytes of the update sequence array put back at
    the end of each 512-byte stride.  Raises Corrupt on an array that does
    not fit the record or a stride whose check value differs (torn)."""
    d = bytearray(raw[:size])
    uo, uc = u16(d, 4), u16(d, 6)
    if uc != size // SECTOR + 1 or uo + 2 * uc > size or uo & 1:
        raise Corrupt("bad update sequence array")
    usn = d[uo:uo + 2]
    for i in range(1, uc):
        end = i * SECTOR - 2
        if d[end:end + 2] != usn:
            raise Corrupt("torn record")
        d[end:end + 2] = d[uo + 2 * i:uo + 2 * i + 2]
    return d


def refixup(logical, torn=()):
    """A record's logical bytes with the fixups applied again: each
    stride's last two bytes go to the update sequence array and the
    sequence number takes their place.  torn: strides left with a wrong
    check value (for the cases that want exactly that)."""
    d = bytearray(logical)
    uo, uc = u16(d, 4), u16(d, 6)
    usn = d[uo:uo + 2]
    for i in range(1, min(uc, len(d) // SECTOR + 1)):
        end = i * SECTOR - 2
        if uo + 2 * i + 2 <= len(d):
            d[uo + 2 * i:uo + 2 * i + 2] = d[end:end + 2]
        d[end:end + 2] = usn if i not in torn else bytes([usn[0] ^ 0x5A, usn[1]])
    return d


def attr_offsets(rec):
    """(type, offset, length) of each attribute of a record's logical
    bytes, up to the end marker or a zero length."""
    o = u16(rec, 0x14)
    while o + 8 <= len(rec):
        t, ln = struct.unpack_from("<II", rec, o)
        if t == 0xFFFFFFFF or ln == 0:
            return
        yield t, o, ln
        o += ln


def attr_name(rec, o):
    nl, no = rec[o + 9], u16(rec, o + 10)
    return bytes(rec[o + no:o + no + 2 * nl]).decode("utf-16-le")


class Geometry:
    """What the boot sector says: bytes per sector (bps), cluster size
    (cs), MFT record size (rs), index block size (ixs), sectors, the LCNs
    of $MFT and $MFTMirr."""

    def __init__(self, b):
        self.bps, spc = u16(b, 0x0B), b[0x0D]
        self.cs = self.bps * (spc if spc <= 0x80 else 1 << (256 - spc))
        self.total_sectors = u64(b, 0x28)
        self.mft_lcn, self.mirr_lcn = u64(b, 0x30), u64(b, 0x38)
        r, i = struct.unpack_from("<bxxxb", b, 0x40)
        self.rs = self.cs * r if r > 0 else 1 << -r
        self.ixs = self.cs * i if i > 0 else 1 << -i


# ---------------------------------------------------------------- a volume in memory

class Stream:
    """A non-resident stream: runs [(vcn, lcn or None, length)]."""

    def __init__(self, vol, runs, size):
        self.vol, self.runs, self.size = vol, runs, size

    def disk(self, off):
        """Image offset of stream offset off (None in a hole)."""
        cs = self.vol.cs
        vcn, inner = divmod(off, cs)
        for v, l, n in self.runs:
            if v <= vcn < v + n:
                return None if l is None else (l + vcn - v) * cs + inner
        return None

    def read(self, off, n):
        out = bytearray()
        while n > 0:
            k = min(n, self.vol.cs - off % self.vol.cs)
            d = self.disk(off)
            out += bytes(k) if d is None else self.vol.img[d:d + k]
            off += k
            n -= k
        return bytes(out)


class Rec:
    """A fixup-protected record (FILE or INDX) of a stream: logical bytes
    after the fixups, and where each of them lives in the image."""

    def __init__(self, vol, stream, soff, size, kind):
        self.vol, self.stream, self.soff, self.size, self.kind = vol, stream, soff, size, kind
        raw = stream.read(soff, size) if stream else vol.img[soff:soff + size]
        if raw[:4] != kind.encode():
            raise Corrupt("no %s magic" % kind)
        self.usa_ofs, self.usa_cnt = u16(raw, 4), u16(raw, 6)
        self.data = bytes(unfixup(raw, size))

    def raw_off(self, off):
        """Image offset of the byte at logical offset off."""
        ss = SECTOR
        if off % ss >= ss - 2 and off < self.size:
            off = self.usa_ofs + 2 * (off // ss + 1) + (off % ss - (ss - 2))
        return self.stream.disk(self.soff + off) if self.stream else self.soff + off

    def raw_byte(self, off):
        return self.vol.img[self.raw_off(off)]

    def patch(self, off, data):
        """Patches writing data at logical offset off."""
        return [(self.raw_off(off + i), data[i:i + 1]) for i in range(len(data))]


class Attr:
    def __init__(self, rec, off):
        d = rec.data
        self.rec, self.off = rec, off
        self.type, self.length = u32(d, off), u32(d, off + 4)
        if self.length < 0x18 or off + self.length > rec.size or self.length & 7:
            raise Corrupt("bad attribute length")
        self.nonres, self.name_len, self.name_off = d[off + 8], d[off + 9], u16(d, off + 10)
        self.flags, self.id = u16(d, off + 12), u16(d, off + 14)
        self.name = d[off + self.name_off:off + self.name_off + 2 * self.name_len].decode("utf-16-le", "replace")
        if self.nonres:
            self.lowest, self.highest = u64(d, off + 0x10), u64(d, off + 0x18)
            self.mp_off, self.cu = u16(d, off + 0x20), d[off + 0x22]
            self.alloc, self.dsize, self.valid = u64(d, off + 0x28), u64(d, off + 0x30), u64(d, off + 0x38)
            mp = d[off + self.mp_off:off + self.length]
            self.runs, self.heads, self.mp_len = decode_runs(mp, self.lowest)
            self.vstart, self.vlen = None, 0
        else:
            self.vlen, self.voff = u32(d, off + 0x10), u16(d, off + 0x14)
            self.vstart = off + self.voff
            if self.voff + self.vlen > self.length:
                raise Corrupt("bad resident value")

    def value(self):
        return self.rec.data[self.vstart:self.vstart + self.vlen]

    def label(self):
        n = AT_NAMES.get(self.type, "0x%x" % self.type)
        return n + (":" + self.name if self.name else "")


class File:
    """One in-use MFT record and what the parser found in it."""

    def __init__(self, num, rec):
        d = rec.data
        self.num, self.rec = num, rec
        self.seq, self.flags = u16(d, 0x10), u16(d, 0x16)
        self.attr_off, self.used = u16(d, 0x14), u32(d, 0x18)
        self.base = u64(d, 0x20) & ((1 << 48) - 1)
        self.attrs = []
        off = self.attr_off
        while off + 8 <= rec.size and u32(d, off) != 0xFFFFFFFF:
            a = Attr(rec, off)
            self.attrs.append(a)
            off += a.length
        self.name, self.parent = None, None
        for a in self.attrs:
            if a.type == 0x30 and not a.nonres and a.vlen >= 0x42:
                v = a.value()
                ns = v[0x41]
                if self.name is None or ns != 2:
                    self.parent = u64(v, 0) & ((1 << 48) - 1)
                    self.name = v[0x42:0x42 + 2 * v[0x40]].decode("utf-16-le", "replace")


class Index:
    """Entries of an index node: (logical offset in rec, length, flags)."""

    def __init__(self, rec, hdr):
        d = rec.data
        self.rec, self.hdr = rec, hdr
        self.first, self.ilen, self.alloc, self.nflags = u32(d, hdr), u32(d, hdr + 4), u32(d, hdr + 8), d[hdr + 12]
        self.entries = []
        off, end = hdr + self.first, hdr + self.ilen
        if end > rec.size:
            raise Corrupt("index length")
        while off + 0x10 <= end:
            ln, kl, fl = u16(d, off + 8), u16(d, off + 10), u16(d, off + 12)
            if ln < 0x10 or off + ln > end:
                raise Corrupt("index entry")
            self.entries.append((off, ln, kl, fl))
            if fl & 2:
                break
            off += ln


class Volume:
    """A whole volume read into memory and parsed: every in-use record
    (files), the records that did not parse (bad), index nodes (roots,
    blocks) and attribute lists (alists)."""

    def __init__(self, path, img=None):
        if img is None:
            with open(path, "rb") as f:
                img = f.read()
        self.img = img
        b = self.img[:512]
        if b[3:11] != b"NTFS    ":
            raise SystemExit("%s: not an NTFS volume" % path)
        g = Geometry(b)
        self.bps, self.cs, self.rs, self.ixs = g.bps, g.cs, g.rs, g.ixs
        self.total_sectors = g.total_sectors
        self.clusters = self.total_sectors * self.bps // self.cs
        self.mft_lcn, self.mirr_lcn = g.mft_lcn, g.mirr_lcn
        self.backup = self.total_sectors * self.bps
        if self.img[self.backup + 3:self.backup + 11] != b"NTFS    ":
            self.backup = None
        rec0 = Rec(self, None, self.mft_lcn * self.cs, self.rs, "FILE")
        f0 = File(0, rec0)
        data = [a for a in f0.attrs if a.type == 0x80 and not a.name]
        self.mft = Stream(self, data[0].runs, data[0].dsize)
        self.files = {}
        self.bad = []
        for n in range(self.held(data[0]) // self.rs):
            try:
                rec = Rec(self, self.mft, n * self.rs, self.rs, "FILE")
                if not u16(rec.data, 0x16) & 1:
                    continue
                self.files[n] = File(n, rec)
            except Corrupt as e:
                self.bad.append((n, str(e)))
        for f in self.files.values():	# names kept in extension records
            b = self.files.get(f.base)
            if f.base and f.base != f.num and b and b.name is None and f.name is not None:
                b.name, b.parent = f.name, f.parent
        for f in self.files.values():
            f.path = self.path_of(f)
        # Index nodes: $INDEX_ROOT in records, INDX blocks of every index.
        self.roots, self.blocks = [], []
        for f in self.files.values():
            for a in f.attrs:
                if a.type == 0x90 and not a.nonres:
                    self.roots.append((f, a, Index(f.rec, a.vstart + 0x10)))
        for f in self.files.values():
            for a in self.extents(f, 0xA0):
                st = Stream(self, a.runs, a.dsize)
                for off in range(0, self.held(a), self.ixs):
                    try:
                        rec = Rec(self, st, off, self.ixs, "INDX")
                        self.blocks.append((f, a, rec, Index(rec, 0x18)))
                    except Corrupt:
                        pass
        # Attribute lists: (file, attr, stream or None, entries [(off, len)]).
        self.alists = []
        for f in self.files.values():
            for a in f.attrs:
                if a.type != 0x20:
                    continue
                if a.nonres:
                    st = Stream(self, a.runs, a.dsize)
                    data = st.read(0, self.held(a))
                    base = 0
                else:
                    st, data, base = None, a.value(), a.vstart
                ents, off = [], 0
                while off + 0x1A <= len(data):
                    ln = u16(data, off + 4)
                    if ln < 0x1A:
                        break
                    ents.append((base + off, ln, u32(data, off), u64(data, off + 0x10)))
                    off += ln
                self.alists.append((f, a, st, ents))

    def held(self, a):
        """Bytes of a non-resident attribute worth reading: its data size,
        but no more than its allocated clusters hold (a mutated volume
        may claim petabytes in a hole)."""
        return min(a.dsize, self.cs * sum(n for _, lcn, n in a.runs if lcn is not None))

    def extents(self, f, atype):
        """Non-resident attributes of type atype of file f, also those in
        its extension records."""
        out = [a for a in f.attrs if a.type == atype and a.nonres]
        if not hasattr(self, "_ext_of"):	# one pass over all records, not one per call
            self._ext_of = {}
            for g in self.files.values():
                if g.base and g.base != g.num:
                    self._ext_of.setdefault(g.base, []).append(g)
        for g in self._ext_of.get(f.num, ()):
            out += [a for a in g.attrs if a.type == atype and a.nonres]
        return out

    def path_of(self, f):
        if f.base and f.base != f.num:
            b = self.files.get(f.base)
            return (b.path if hasattr(b, "path") else "rec%d" % f.base) + "[ext]" if b else "ext-of-%d" % f.base
        if f.num < 12:
            return SYSTEM_NAMES[f.num] if f.num != 5 else "/"
        if f.name is None:
            return "rec%d" % f.num
        parts, g, seen = [], f, set()
        while g and g.num != 5 and g.num not in seen and g.name is not None:
            seen.add(g.num)
            parts.append(g.name)
            g = self.files.get(g.parent)
        short = [p if len(p) <= 40 else p[:32] + "..." for p in reversed(parts)]
        return "/" + "/".join(short)

    def stream_of(self, f, atype, name=""):
        for a in self.extents(f, atype):
            if a.name == name and a.lowest == 0:
                runs = []
                for e in self.extents(f, atype):
                    if e.name == name:
                        runs += e.runs
                return Stream(self, sorted(runs), a.dsize)
        return None


# ---------------------------------------------------------------- a volume file to patch

class VolumeFile:
    """A volume image opened for patching in place: MFT records read and
    written with their fixups, attributes found by type and name."""

    def __init__(self, path):
        self.f = open(path, "r+b")
        g = Geometry(self.read(0, 512))
        self.cs, self.rs = g.cs, g.rs
        self.mft_lcn, self.mirr_lcn = g.mft_lcn, g.mirr_lcn
        self.mft = [(0, self.mft_lcn, 1 << 40)]
        self.mft = self.data_runs(self.record(0))

    def close(self):
        self.f.close()

    def read(self, off, n):
        self.f.seek(off)
        return bytearray(self.f.read(n))

    def write(self, off, b):
        self.f.seek(off)
        self.f.write(b)

    def size(self):
        self.f.seek(0, 2)
        return self.f.tell()

    def vcn_off(self, runs, byte):
        v, r = divmod(byte, self.cs)
        for vcn, lcn, ln in runs:
            if vcn <= v < vcn + ln:
                return (lcn + v - vcn) * self.cs + r
        raise SystemExit("offset %d not mapped" % byte)

    def rec_off(self, n, mirror=False):
        if mirror:
            return self.mirr_lcn * self.cs + n * self.rs
        return self.vcn_off(self.mft, n * self.rs)

    def record(self, n, mirror=False):
        """Record n's logical bytes (of $MFTMirr when mirror); Corrupt when
        it is not a FILE record or its fixups do not match."""
        b = self.read(self.rec_off(n, mirror), self.rs)
        if b[:4] != b"FILE":
            raise Corrupt("record %d: no FILE magic" % n)
        return unfixup(b, self.rs)

    def put_record(self, n, b, mirror=False):
        self.write(self.rec_off(n, mirror), refixup(b))

    def attr(self, rec, typ, name=""):
        for t, o, ln in attr_offsets(rec):
            if t == typ and attr_name(rec, o) == name:
                return o
        raise SystemExit("no attribute 0x%x %r" % (typ, name))

    def data_runs(self, rec):
        o = self.attr(rec, 0x80)
        assert rec[o + 8], "resident"
        return runs_of(rec[o + u16(rec, o + 0x20):o + u32(rec, o + 4)])

    def resident_value(self, rec, typ):
        o = self.attr(rec, typ)
        vl, vo = struct.unpack_from("<IH", rec, o + 0x10)
        return o + vo, vl

    def records(self, first=16, count=None):
        """(number, logical bytes) of every in-use record from first on;
        count: records to look at (default: all that $MFT's data holds)."""
        if count is None:
            count = u64(self.record(0), self.attr(self.record(0), 0x80) + 0x30) // self.rs
        for n in range(first, count):
            try:
                rec = self.record(n)
            except Corrupt:
                continue
            if u16(rec, 0x16) & 1:
                yield n, rec

    def lookup(self, path, count=None):
        """The base record of PATH ("dir/name") by the $FILE_NAMEs of every
        record (one in an extension record names its base record)."""
        parent = 5
        for part in path.split("/"):
            hit = None
            for n, rec in self.records(count=count):
                for t, o, ln in attr_offsets(rec):
                    vo = o + u16(rec, o + 0x14)
                    if (t == 0x30 and u64(rec, vo) & ((1 << 48) - 1) == parent and
                            rec[vo + 0x42:vo + 0x42 + 2 * rec[vo + 0x40]].decode("utf-16-le")
                            == part):
                        hit = u64(rec, 0x20) & ((1 << 48) - 1) or n
            if hit is None:
                raise SystemExit("%s not found" % path)
            parent = hit
        return parent

    def index_nodes(self, n, name="$I30"):
        """(node bytes, header offset) of every node of index name of record
        n: its root, then the INDX blocks its entries point to (bounded,
        each once).  Raises Corrupt on a node that does not parse."""
        rec = self.record(n)
        root = alloc = None
        for t, o, _ in attr_offsets(rec):
            if t == 0x90 and attr_name(rec, o) == name and not rec[o + 8]:
                root = o + u16(rec, o + 0x14)
            if t == 0xA0 and attr_name(rec, o) == name and rec[o + 8]:
                alloc = runs_of(rec[o + u16(rec, o + 0x20):o + u32(rec, o + 4)])
        if root is None:
            raise Corrupt("record %d: no $INDEX_ROOT:%s" % (n, name))
        bs = u32(rec, root + 8)
        unit = self.cs if bs >= self.cs else 512	# what a VCN counts
        todo, seen = [(rec, root + 0x10)], set()
        while todo:
            d, hdr = todo.pop(0)
            yield d, hdr
            off, end = hdr + u32(d, hdr), hdr + u32(d, hdr + 4)
            while off + 0x10 <= end:
                ln, fl = u16(d, off + 8), u16(d, off + 12)
                if ln < 0x10 or off + ln > end:
                    raise Corrupt("record %d, %s: an entry runs past its node" % (n, name))
                if fl & 1:
                    vcn = u64(d, off + ln - 8)
                    if vcn in seen or alloc is None or len(seen) > 100000:
                        raise Corrupt("record %d, %s: a child twice or without an allocation" % (n, name))
                    seen.add(vcn)
                    blk = unfixup(self.read(self.vcn_off(alloc, vcn * unit), bs), bs)
                    if blk[:4] != b"INDX":
                        raise Corrupt("record %d, %s: block %d is not INDX" % (n, name, vcn))
                    todo.append((blk, 0x18))
                if fl & 2:
                    break
                off += ln

    def dir_lookup(self, n, name):
        """The record number directory n's $I30 index gives name, or None."""
        for d, hdr in self.index_nodes(n):
            off, end = hdr + u32(d, hdr), hdr + u32(d, hdr + 4)
            while off + 0x10 <= end:
                ln, kl, fl = u16(d, off + 8), u16(d, off + 10), u16(d, off + 12)
                if fl & 2:
                    break
                k = off + 0x10
                if kl >= 0x42 and k + 0x42 + 2 * d[k + 0x40] <= off + ln and \
                        d[k + 0x42:k + 0x42 + 2 * d[k + 0x40]].decode("utf-16-le", "replace") == name:
                    return u64(d, off) & ((1 << 48) - 1)
                off += ln
        return None


# ---------------------------------------------------------------- values for ntfs-3g

def ea_value(pairs):
    """$EA contents (setfattr -n system.ntfs_ea) for [(name, value)]: one
    entry each, 4-byte aligned, flags 0."""
    out = b""
    for name, value in pairs:
        n, v = name.encode(), value.encode()
        body = struct.pack("<BBH", 0, len(n), len(v)) + n + b"\0" + v
        size = (4 + len(body) + 3) & ~3
        out += (struct.pack("<I", size) + body).ljust(size, b"\0")
    return out


def symlink_reparse(target):
    """A relative symbolic link reparse point (IO_REPARSE_TAG_SYMLINK,
    flags 1) to target, substitute and print names alike."""
    t = target.encode("utf-16-le")
    body = struct.pack("<HHHHI", len(t), len(t), 0, len(t), 1) + t + t
    return struct.pack("<IHH", 0xA000000C, len(body), 0) + body
