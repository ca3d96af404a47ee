"""ntfs_fuzz_struct.py: the structural mutator of the ntfs3 corruption
fuzzer, imported by scripts/images/ntfs-fuzz-gen.py.

The byte mutator of ntfs-fuzz-gen.py changes a few bytes in place, so
nearly every case it makes is caught by one consistency check (a torn
sector, sizes that disagree with the runlist, an entry length past the
node) before the driver's arithmetic and loops ever see it.  This one
edits the base volume the way a file system would, keeping everything
consistent except the one thing under test: the update sequence arrays of
every MFT record and INDX block it changes are applied again, records 0-3
are written to $MFTMirr too, a new runlist comes with its highest VCN, its
allocated, data and initialized sizes and the attribute's length, new
clusters are marked in $Bitmap, new attributes get fresh ids.

Each mutation works on an Image (a copy of the base image); the case's
patches are the bytes that differ from the base, in contiguous ranges, in
the format the byte mutator uses, so tests/tools/ntfs-mutate applies and
undoes them unchanged.

Classes (categories), each with its kinds (Struct.KINDS):
  s-runwrap      runlists whose lengths wrap 64 bits, sizes that agree modulo 2^64
  s-sparse-tail  metadata streams claiming petabytes through a hole run
  s-index-dag    INDX child pointers forming a DAG or a cycle
  s-names        index entries named ".", "..", with '/' or a NUL unit
  s-ea           WSL $LX* metadata EAs, huge and odd EA entries
  s-lznt1        damaged LZNT1 chunks inside compression units
  s-attrlist     new, bad and huge $ATTRIBUTE_LISTs
  s-forms        valid but unusual forms the driver must read (empty files)
  s-logfile      $LogFile restart pages with valid and damaged fixups

Format facts: the Linux-NTFS project's documentation and the libyal NTFS
document; this is an independent implementation.
"""
import random
import re
import struct

# The NTFS format (fields, runlists, fixups): ntfs_image.py, shared with
# the other image scripts.
from ntfs_image import (M64, SECTOR, Corrupt, u16, u32, u64, s64, align8, utf16,  # noqa: F401
                        signed_min, pack_runs, runs_of, unfixup, refixup)

END = 0xFFFFFFFF		# attribute type that ends a record's attribute list
AT_STANDARD_INFORMATION = 0x10
AT_ATTRIBUTE_LIST, AT_FILE_NAME, AT_DATA = 0x20, 0x30, 0x80
AT_INDEX_ROOT, AT_INDEX_ALLOCATION, AT_BITMAP = 0x90, 0xA0, 0xB0
AT_EA_INFORMATION, AT_EA = 0xD0, 0xE0
FL_COMPRESSED, FL_SPARSE = 0x0001, 0x8000
# Limits of tests/tools/ntfs-mutate: at most 4096 patches a case (MAX_PATCH);
# and "ntfs-mutate apply FILE SPEC", the way to replay a case by hand, gets
# the SPEC as one argument, which Linux caps at 128 KiB (MAX_ARG_STRLEN).
PATCH_MAX, SPEC_MAX = 4000, 120000


class NoTarget(Exception):
    """This mutation does not fit this volume, or this draw of it (no
    room in the record, no such object): the caller draws again."""


# ---------------------------------------------------------------- runlists

def unpack_runs(mp):
    """Mapping pairs -> [(length, lcn or None)], lengths unsigned: only
    used on runlists of the base image and on our own."""
    return [(n, lcn) for _, lcn, n in runs_of(mp)]


class Mapping:
    """Where the bytes of a non-resident stream live: runs [(length, lcn
    or None)] from VCN 0, in clusters of cs bytes."""

    def __init__(self, cs, runs):
        self.cs, self.runs = cs, runs

    def disk(self, off):
        """Image offset of stream offset off; None in a hole or past the
        end."""
        vcn, inner = divmod(off, self.cs)
        v = 0
        for length, lcn in self.runs:
            if v <= vcn < v + length:
                return None if lcn is None else (lcn + vcn - v) * self.cs + inner
            v += length
        return None


# ---------------------------------------------------------------- attributes

class Attr:
    """The fields of one attribute, parsed from its bytes (a record's
    attributes are kept as byte strings and rebuilt, see Record)."""

    def __init__(self, b):
        self.raw = bytes(b)
        self.type, self.length = u32(b, 0), u32(b, 4)
        self.nonres, name_len, name_off = b[8], b[9], u16(b, 10)
        self.flags, self.id = u16(b, 12), u16(b, 14)
        self.name = b[name_off:name_off + 2 * name_len].decode("utf-16-le", "surrogatepass")
        if self.nonres:
            self.lowest, self.highest = u64(b, 0x10), u64(b, 0x18)
            self.mp_off, self.cu = u16(b, 0x20), b[0x22]
            self.alloc, self.dsize, self.init = u64(b, 0x28), u64(b, 0x30), u64(b, 0x38)
            self.total = u64(b, 0x40) if self.mp_off >= 0x48 else None
            self.runs = unpack_runs(b[self.mp_off:self.length])
        else:
            vlen, voff = u32(b, 0x10), u16(b, 0x14)
            self.indexed = b[0x16]
            self.value = bytes(b[voff:voff + vlen])

    def clusters(self):
        """Clusters the runlist covers (holes included)."""
        return sum(n for n, _ in self.runs)

    def label(self):
        names = {0x10: "$STANDARD_INFORMATION", 0x20: "$ATTRIBUTE_LIST", 0x30: "$FILE_NAME",
                 0x50: "$SECURITY_DESCRIPTOR", 0x80: "$DATA", 0x90: "$INDEX_ROOT",
                 0xA0: "$INDEX_ALLOCATION", 0xB0: "$BITMAP", 0xC0: "$REPARSE_POINT",
                 0xD0: "$EA_INFORMATION", 0xE0: "$EA"}
        n = names.get(self.type, "0x%x" % self.type)
        return n + (":" + self.name if self.name else "")


def resident(atype, value, name="", ident=0, flags=0, indexed=0):
    """The bytes of a resident attribute."""
    nb = utf16(name)
    voff = align8(0x18 + len(nb))
    length = align8(voff + len(value))
    b = bytearray(length)
    struct.pack_into("<IIBBHHHIHBx", b, 0, atype, length, 0, len(name), 0x18, flags, ident,
                     len(value), voff, indexed)
    b[0x18:0x18 + len(nb)] = nb
    b[voff:voff + len(value)] = value
    return b


def nonresident(atype, runs, lowest, highest, alloc, dsize, init, name="", ident=0, flags=0, cu=0,
                total=None, mp=None):
    """The bytes of a non-resident attribute; total (the compressed size)
    is written only when given (compressed and sparse attributes have it).
    mp: mapping pairs to use instead of packing runs."""
    nb = utf16(name)
    hdr = 0x40 if total is None else 0x48
    mp = pack_runs(runs) if mp is None else mp
    mp_off = align8(hdr + len(nb))
    length = align8(mp_off + len(mp))
    b = bytearray(length)
    struct.pack_into("<IIBBHHHQQHB5xQQQ", b, 0, atype, length, 1, len(name), hdr, flags, ident,
                     lowest & M64, highest & M64, mp_off, cu, alloc & M64, dsize & M64, init & M64)
    if total is not None:
        struct.pack_into("<Q", b, 0x40, total & M64)
    b[hdr:hdr + len(nb)] = nb
    b[mp_off:mp_off + len(mp)] = mp
    return b


def with_runs(a, runs, highest, alloc, dsize, init, sparse=False, lowest=0):
    """Attribute a (non-resident, from Record.attr, which knows the
    cluster size) with a new runlist and sizes.  sparse:
    the runlist has holes, so the attribute gets the sparse flag (unless
    it is compressed) and the compressed-size field, which counts the
    clusters really allocated."""
    flags = a.flags
    if sparse and not flags & FL_COMPRESSED:
        flags |= FL_SPARSE
    total = None
    if flags & (FL_COMPRESSED | FL_SPARSE) or a.total is not None:
        total = a.cs * sum(n for n, lcn in runs if lcn is not None)
    return nonresident(a.type, runs, lowest, highest, alloc, dsize, init, a.name, a.id, flags, a.cu, total)


# ---------------------------------------------------------------- the image

class Image:
    """A copy of the base image being edited.  Writes are remembered, so
    that patches() finds what changed without comparing whole images."""

    def __init__(self, vol):
        self.vol = vol
        self.cs, self.rs = vol.cs, vol.rs
        self.buf = bytearray(vol.img)
        self.dirty = []
        self.mft = Mapping(vol.cs, [(n, lcn) for _, lcn, n in vol.mft.runs])
        mirr = vol.files[1]
        ma = [a for a in mirr.attrs if a.type == AT_DATA and not a.name][0]
        self.mirr = Mapping(vol.cs, [(n, lcn) for _, lcn, n in ma.runs])
        self.mirr_records = min(4, ma.dsize // vol.rs)
        self.bitmap = None

    # -- bytes

    def read(self, off, n):
        return bytes(self.buf[off:off + n])

    def write(self, off, data):
        if off is None or off < 0 or off + len(data) > len(self.buf):
            raise NoTarget("write outside the image")
        self.buf[off:off + len(data)] = data
        self.dirty.append((off, len(data)))

    def segments(self, m, soff, n):
        """(image offset, length) pieces of stream bytes [soff, soff+n)."""
        out = []
        while n > 0:
            k = min(n, m.cs - soff % m.cs)
            d = m.disk(soff)
            if d is None:
                raise NoTarget("stream bytes in a hole")
            out.append((d, k))
            soff += k
            n -= k
        return out

    def sread(self, m, soff, n):
        return b"".join(self.read(d, k) for d, k in self.segments(m, soff, n))

    def swrite(self, m, soff, data):
        pos = 0
        for d, k in self.segments(m, soff, len(data)):
            self.write(d, data[pos:pos + k])
            pos += k

    # -- fixup-protected records (FILE, INDX, RSTR)

    def read_protected(self, m, soff, size):
        """Logical bytes of the record at stream offset soff: the saved
        bytes of the update sequence array put back at sector ends."""
        try:
            return unfixup(self.sread(m, soff, size), size)
        except Corrupt as e:
            raise NoTarget("base record: %s" % e)

    def write_protected(self, m, soff, logical, torn=()):
        """Write a record with its fixups applied again (ntfs_image.refixup;
        torn: sectors left with a wrong check value, for the cases that
        want exactly that)."""
        self.swrite(m, soff, bytes(refixup(logical, torn)))

    def record(self, num):
        return self.read_protected(self.mft, num * self.rs, self.rs)

    def put_record(self, num, logical):
        """Write MFT record num; records 0-3 also to $MFTMirr."""
        self.write_protected(self.mft, num * self.rs, logical)
        if num < self.mirr_records:
            self.write_protected(self.mirr, num * self.rs, logical)

    # -- clusters

    def load_bitmap(self):
        bm = self.vol.files[6]
        a = [a for a in bm.attrs if a.type == AT_DATA and not a.name][0]
        self.bitmap = Mapping(self.cs, [(n, lcn) for _, lcn, n in a.runs])

    def cluster_used(self, lcn):
        return self.sread(self.bitmap, lcn // 8, 1)[0] >> (lcn % 8) & 1

    def alloc(self, n):
        """n contiguous free clusters, marked in use in $Bitmap; searched
        from the middle of the volume up (the base volumes are nearly
        empty there)."""
        if self.bitmap is None:
            self.load_bitmap()
        total = self.vol.clusters
        lcn = total // 2
        while lcn + n <= total:
            busy = [i for i in range(n) if self.cluster_used(lcn + i)]
            if not busy:
                for i in range(n):
                    c = lcn + i
                    byte = self.sread(self.bitmap, c // 8, 1)[0] | 1 << (c % 8)
                    self.swrite(self.bitmap, c // 8, bytes([byte]))
                return lcn
            lcn += busy[-1] + 1
        raise NoTarget("no %d free clusters" % n)

    def put_clusters(self, data):
        """Store data in newly allocated clusters: -> (lcn, clusters).
        The rest of the last cluster keeps what it had (past the
        initialized size nobody reads it)."""
        n = max(1, -(-len(data) // self.cs))
        lcn = self.alloc(n)
        if data:
            self.write(lcn * self.cs, bytes(data))
        return lcn, n

    # -- the result

    def patches(self, gap=16):
        """[(offset, bytes)]: the ranges that differ from the base,
        joined when fewer than gap equal bytes lie between them (so a
        rewritten record is one or two patches, not hundreds)."""
        base, buf = self.vol.img, self.buf
        spans = sorted(self.dirty)
        merged = []
        for o, n in spans:
            if merged and o <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], o + n)
            else:
                merged.append([o, o + n])
        out = []
        for lo, hi in merged:
            i = lo
            while i < hi:
                if base[i:i + 64] == buf[i:i + 64] and i + 64 <= hi:
                    i += 64
                    continue
                if base[i] == buf[i]:
                    i += 1
                    continue
                j = i + 1
                while j < hi and (base[j] != buf[j] or base[j:min(hi, j + gap)] != buf[j:min(hi, j + gap)]):
                    j += 1
                if out and i - out[-1][1] < gap:
                    out[-1][1] = j
                else:
                    out.append([i, j])
                i = j
        return [(a, bytes(buf[a:b])) for a, b in out]


def spec(patches):
    """The case's SPEC: offset:hexbytes,..."""
    return ",".join("%d:%s" % (o, b.hex()) for o, b in patches)


# ---------------------------------------------------------------- records

class Record:
    """An MFT record being edited: the header bytes, the attributes as
    byte strings; save() lays them out again (offsets, the end marker,
    bytes in use) and writes the record with fresh fixups."""

    def __init__(self, img, num):
        self.img, self.num = img, num
        d = img.record(num)
        if d[:4] != b"FILE":
            raise NoTarget("record %d is not a FILE record" % num)
        self.data = d
        self.seq, self.flags = u16(d, 0x10), u16(d, 0x16)
        self.attrs = []
        off = u16(d, 0x14)
        while off + 8 <= len(d) and u32(d, off) != END:
            ln = u32(d, off + 4)
            self.attrs.append(bytearray(d[off:off + ln]))
            off += ln

    def ref(self):
        return self.num | self.seq << 48

    def attr(self, i):
        a = Attr(self.attrs[i])
        a.cs = self.img.cs
        return a

    def find(self, atype, name=""):
        for i, b in enumerate(self.attrs):
            a = Attr(b)
            if a.type == atype and a.name == name:
                return i
        return None

    def get(self, atype, name=""):
        i = self.find(atype, name)
        if i is None:
            raise NoTarget("rec %d has no attribute 0x%x:%s" % (self.num, atype, name))
        return i, self.attr(i)

    def new_id(self):
        nid = u16(self.data, 0x28)
        struct.pack_into("<H", self.data, 0x28, (nid + 1) & 0xFFFF)
        return nid

    def insert(self, blob):
        """Add an attribute where the order (type, then name) wants it."""
        key = (u32(blob, 0), Attr(blob).name)
        i = 0
        while i < len(self.attrs) and (u32(self.attrs[i], 0), Attr(self.attrs[i]).name) <= key:
            i += 1
        self.attrs.insert(i, bytearray(blob))

    def save(self):
        """Lay the attributes out again and write the record; NoTarget
        when they do not fit."""
        d = self.data
        body = b"".join(bytes(a) for a in self.attrs) + struct.pack("<II", END, 0)
        start = u16(d, 0x14)
        used = start + len(body)
        usa_end = u16(d, 4) + 2 * u16(d, 6)
        if used > u32(d, 0x1C) or used > len(d) or start < usa_end:
            raise NoTarget("rec %d: %d bytes do not fit" % (self.num, used))
        d[start:used] = body
        struct.pack_into("<I", d, 0x18, used)	# bytes in use: the end marker and 4 more
        self.img.put_record(self.num, d)


def replace_attr(rec, i, blob):
    rec.attrs[i] = bytearray(blob)


# ---------------------------------------------------------------- indexes

class Entry:
    """One index entry: file reference, key, child VCN (or None); the
    last entry of a node has no key."""

    def __init__(self, ref, key, child=None, last=False):
        self.ref, self.key, self.child, self.last = ref, bytes(key), child, last

    def pack(self):
        ln = align8(0x10 + len(self.key)) + (8 if self.child is not None else 0)
        flags = (1 if self.child is not None else 0) | (2 if self.last else 0)
        b = bytearray(ln)
        struct.pack_into("<QHHI", b, 0, self.ref if not self.last else 0, ln, len(self.key), flags)
        b[0x10:0x10 + len(self.key)] = self.key
        if self.child is not None:
            struct.pack_into("<Q", b, ln - 8, self.child)
        return bytes(b)

    def name(self):
        """The $FILE_NAME key's name as UTF-16 units."""
        n = self.key[0x40]
        return list(struct.unpack_from("<%dH" % n, self.key, 0x42))


def parse_node(d, hdr):
    """Entries of the node whose index header is at hdr."""
    first, ilen = u32(d, hdr), u32(d, hdr + 4)
    off, end, out = hdr + first, hdr + ilen, []
    while off + 0x10 <= end:
        ln, kl, fl = u16(d, off + 8), u16(d, off + 10), u16(d, off + 12)
        child = u64(d, off + ln - 8) if fl & 1 else None
        out.append(Entry(u64(d, off), d[off + 0x10:off + 0x10 + kl], child, bool(fl & 2)))
        if fl & 2 or ln < 0x10:
            break
        off += ln
    return out


def pack_node(entries):
    return b"".join(e.pack() for e in entries)


class Dir:
    """A directory's $I30 index: the root node (in $INDEX_ROOT of the
    directory's record or of an extension record) and its INDX blocks by
    VCN.  Nodes are lists of Entry; save() writes back what changed."""

    def __init__(self, img, vol, num):
        self.img, self.vol, self.num = img, vol, num
        holders = [num] + sorted(g.num for g in vol.files.values() if g.base == num and g.num != num)
        for h in holders:
            rec = Record(img, h)
            if rec.find(AT_INDEX_ROOT, "$I30") is not None:
                self.root_num = h
                break
        else:
            raise NoTarget("no $INDEX_ROOT:$I30 in rec %d" % num)
        rec = Record(img, self.root_num)
        _, a = rec.get(AT_INDEX_ROOT, "$I30")
        self.root_info = a.value[:16]
        self.root = parse_node(a.value, 16)
        self.blocks, self.soff, self.raw = {}, {}, {}
        self.map, self.changed = None, set()
        base = Record(img, num)
        ia = base.find(AT_INDEX_ALLOCATION, "$I30")
        if ia is None:
            return
        a = base.attr(ia)
        if a.lowest != 0 or a.clusters() != a.highest + 1:
            raise NoTarget("split $INDEX_ALLOCATION")
        self.map = Mapping(img.cs, a.runs)
        self.alloc_size = a.dsize
        for soff in range(0, a.dsize, vol.ixs):
            try:
                d = img.read_protected(self.map, soff, vol.ixs)
            except NoTarget:
                continue
            if d[:4] != b"INDX":
                continue
            vcn = u64(d, 0x10)
            self.blocks[vcn] = parse_node(d, 0x18)
            self.soff[vcn], self.raw[vcn] = soff, d

    def vcns(self):
        return sorted(self.blocks)

    def node(self, nid):
        return self.root if nid == "root" else self.blocks[nid]

    def inorder(self):
        """[(node id, index)] of the keyed entries in key order (the walk
        of a valid tree; a cycle is not followed twice)."""
        out, seen = [], set()

        def walk(nid):
            if nid in seen or (nid != "root" and nid not in self.blocks):
                return
            seen.add(nid)
            for i, e in enumerate(self.node(nid)):
                if e.child is not None:
                    walk(e.child)
                if not e.last:
                    out.append((nid, i))
        walk("root")
        return out

    def set_node(self, nid, entries):
        if nid == "root":
            self.root = entries
        else:
            self.blocks[nid] = entries
        self.changed.add(nid)

    def save(self, mark=()):
        """Write the changed nodes (blocks with fresh fixups, the root
        through its record) and mark blocks in $BITMAP:$I30."""
        for vcn in sorted(x for x in self.changed if x != "root"):
            d = self.raw[vcn]
            es = pack_node(self.blocks[vcn])
            first, room = u32(d, 0x18), u32(d, 0x20)
            if first + len(es) > room:
                raise NoTarget("INDX vcn %d: %d bytes do not fit" % (vcn, first + len(es)))
            d[0x18 + first:0x18 + first + len(es)] = es
            struct.pack_into("<I", d, 0x1C, first + len(es))
            d[0x24] = 1 if any(e.child is not None for e in self.blocks[vcn]) else 0
            self.img.write_protected(self.map, self.soff[vcn], d)
        if "root" in self.changed:
            rec = Record(self.img, self.root_num)
            i, a = rec.get(AT_INDEX_ROOT, "$I30")
            es = pack_node(self.root)
            large = 1 if any(e.child is not None for e in self.root) else 0
            hdr = struct.pack("<IIIB3x", 0x10, 0x10 + len(es), 0x10 + len(es), large)
            replace_attr(rec, i, resident(AT_INDEX_ROOT, self.root_info + hdr + es, "$I30", a.id, a.flags))
            rec.save()
        if mark:
            self.mark(mark)

    def mark(self, vcns):
        """Set the $BITMAP:$I30 bits of these blocks (resident bitmap)."""
        rec = Record(self.img, self.num)
        i = rec.find(AT_BITMAP, "$I30")
        if i is None:
            raise NoTarget("no $BITMAP:$I30")
        a = rec.attr(i)
        if a.nonres:
            raise NoTarget("non-resident $BITMAP:$I30")
        bits = bytearray(a.value)
        for vcn in vcns:
            k = self.soff[vcn] // self.vol.ixs
            if k // 8 >= len(bits):
                raise NoTarget("bitmap too short")
            bits[k // 8] |= 1 << (k % 8)
        if bytes(bits) != a.value:
            replace_attr(rec, i, resident(AT_BITMAP, bits, "$I30", a.id, a.flags))
            rec.save()


# ---------------------------------------------------------------- EAs, lists, LZNT1

def ea_entry(name, value, flags=0, last_next=None):
    """One $EA entry (next-entry offset, flags, name length, value
    length, name, NUL, value), padded to 4 bytes.  last_next: the
    next-entry offset to write when this is the last entry (its size
    and 0 are both seen in the wild)."""
    size = (8 + len(name) + 1 + len(value) + 3) & ~3
    nxt = size if last_next is None else last_next
    b = struct.pack("<IBBH", nxt, flags, len(name), len(value)) + name + b"\0" + value
    return b + bytes(size - len(b))


def ea_pack(entries, last_zero=False):
    """[(name, value, flags)] -> ($EA value, $EA_INFORMATION value).  The
    information's packed size counts each EA without the next-entry
    offset and padding (it is 16 bits: huge EAs wrap it), the need-EA
    count the entries flagged 0x80, the unpacked size the $EA length."""
    out = b""
    for k, (name, value, flags) in enumerate(entries):
        last = k == len(entries) - 1
        out += ea_entry(name, value, flags, 0 if last and last_zero else None)
    packed = sum(4 + len(n) + 1 + len(v) for n, v, _ in entries)
    need = sum(1 for _, _, f in entries if f & 0x80)
    return out, struct.pack("<HHI", packed & 0xFFFF, need, len(out))


def ea_parse(v):
    """[(name, value, flags)] of an $EA value (base image EAs)."""
    out, o = [], 0
    while o + 8 <= len(v):
        nxt, fl, nl, vl = struct.unpack_from("<IBBH", v, o)
        out.append((bytes(v[o + 8:o + 8 + nl]), bytes(v[o + 9 + nl:o + 9 + nl + vl]), fl))
        if nxt == 0 or o + nxt >= len(v):
            break
        o += nxt
    return out


def alist_entry(atype, name, vcn, ref, ident):
    """One $ATTRIBUTE_LIST entry, name after the 0x1A fixed bytes."""
    nb = utf16(name)
    ln = align8(0x1A + len(nb))
    b = bytearray(ln)
    struct.pack_into("<IHBBQQH", b, 0, atype, ln, len(name), 0x1A, vcn & M64, ref, ident)
    b[0x1A:0x1A + len(nb)] = nb
    return bytes(b)


def phrase(pos, disp, length):
    """An LZNT1 back-reference token at uncompressed position pos of a
    chunk: the displacement takes max(4, bits of pos-1) bits at the top,
    the length (minus 3) the rest."""
    k = max(4, (pos - 1).bit_length()) if pos > 0 else 4
    lbits = 16 - k
    return struct.pack("<H", ((disp - 1) << lbits | ((length - 3) & ((1 << lbits) - 1))) & 0xFFFF)


def lznt1_chunks(data):
    """[(offset, total size, header)] of the chunks of a compression
    unit's data, up to a zero header."""
    out, pos = [], 0
    while pos + 2 <= len(data):
        h = u16(data, pos)
        if h == 0:
            break
        size = (h & 0xFFF) + 3
        out.append((pos, size, h))
        pos += size
    return out


def logfile_restart(page, file_size, lsn, open_count):
    """A clean $LogFile restart page (RSTR header, update sequence array,
    a restart area with one free "NTFS" client), before fixups."""
    d = bytearray(page)
    usa_cnt = page // SECTOR + 1
    ra = align8(0x1E + 2 * usa_cnt)
    struct.pack_into("<4sHHqIIHhh", d, 0, b"RSTR", 0x1E, usa_cnt, 0, page, page, ra, 1, 1)
    struct.pack_into("<H", d, 0x1E, 1)	# update sequence number
    seq_bits = 67 - file_size.bit_length()
    struct.pack_into("<QHHHHIHHqIHHI", d, ra, lsn, 1, 0, 0xFFFF, 0x0002, seq_bits, 0x30 + 0xA0, 0x30,
                     file_size, 0, 0x30, align8(0x28 + 2 * usa_cnt), open_count)
    c = ra + 0x30
    name = utf16("NTFS")
    struct.pack_into("<QQHHH6xI", d, c, lsn, lsn, 0xFFFF, 0xFFFF, 1, len(name))
    d[c + 0x20:c + 0x20 + len(name)] = name
    return d


# ---------------------------------------------------------------- the mutator

class Struct:
    """Structural mutations of one base volume (a Volume of
    ntfs-fuzz-gen.py).  Each category method edits an Image and returns
    what it did; NoTarget sends the caller to draw again."""

    KINDS = {
        "s-runwrap": ["len-wrap", "len-wrap", "vcn-wrap", "zero-sum"],
        "s-sparse-tail": ["tail", "tail", "tail-init", "inflate"],
        "s-index-dag": ["chain", "ladder", "self-cycle", "ancestor-cycle", "shared-child", "all-to-one"],
        "s-names": ["dot", "dotdot", "slash", "nul"],
        "s-ea": ["wsl-chr", "wsl-blk", "wsl-odd", "huge-value", "many", "odd-names", "need-ea"],
        "s-lznt1": ["size-big", "size-small", "signature", "flag-flip", "backref-start", "overrun",
                    "truncated", "random", "random-all", "garbage-tail"],
        "s-attrlist": ["bad-seq", "self-ghost", "dup", "foreign", "missing", "empty-resident", "empty-nonres",
                       "empty-alloc", "existing-self", "grow-dup", "grow-ghosts", "grow-extents"],
        "s-forms": ["empty-nonres-data", "empty-named-stream", "alist-resident", "alist-nonres", "nonres-data"],
        "s-logfile": ["valid", "torn-first", "torn-both", "usa-count", "usa-offset", "page-size", "ra-offset",
                      "clients"],
    }
    WEIGHTS = {"s-runwrap": 3, "s-sparse-tail": 3, "s-index-dag": 2, "s-names": 2, "s-ea": 2, "s-lznt1": 2,
               "s-attrlist": 2, "s-forms": 2, "s-logfile": 1}

    def __init__(self, vol):
        self.vol = vol
        self.cs = vol.cs
        self.up = None
        self.focus = None
        files = sorted(vol.files.values(), key=lambda f: f.num)
        self.base_files = [f for f in files if not f.base or f.base == f.num]
        self.user = [f for f in self.base_files if f.num >= 16 and f.name is not None
                     and not f.path.startswith("/$Extend")]
        self.dirs = [f for f in self.user if f.flags & 2] + [vol.files[5]]
        self.regular = [f for f in self.user if not f.flags & 2]
        # Non-resident attributes in one extent of a base record: (num, type, name).
        self.single = []
        for f in self.base_files:
            for a in f.attrs:
                if a.nonres and a.lowest == 0 and sum(n for _, _, n in a.runs) == a.highest + 1:
                    self.single.append((f.num, a.type, a.name))

    # -- helpers

    def upcase(self):
        """The volume's $UpCase table (for collation)."""
        if self.up is None:
            img = Image(self.vol)
            rec = Record(img, 10)
            _, a = rec.get(AT_DATA)
            raw = img.sread(Mapping(self.cs, a.runs), 0, 131072)
            self.up = struct.unpack("<65536H", raw)
        return self.up

    def coll(self, units):
        """Sort key of a name in a $I30 index: upcased units first, then
        the units themselves (names that differ only in case)."""
        up = self.upcase()
        return (tuple(up[u] for u in units), tuple(units))

    def path(self, num):
        f = self.vol.files.get(num)
        return f.path if f else "rec%d" % num

    def pick(self, rng, cands):
        """A random candidate; one whose name contains self.focus when
        there is one (the regression set steers its targets so)."""
        if not cands:
            raise NoTarget("no candidates")
        if self.focus:
            hit = [c for c in cands if self.focus in self.name_of(c)]
            cands = hit or cands
        return rng.choice(cands)

    def name_of(self, c):
        """"rec N PATH:" of a file, "rec N PATH ATTRIBUTE" of (num, type,
        name) of an attribute, as the descriptions have them."""
        if hasattr(c, "path"):
            return "rec %d %s:" % (c.num, c.path)
        if isinstance(c, tuple) and len(c) == 3 and isinstance(c[2], str):
            lab = Attr(resident(c[1], b"", c[2])).label()
            return "rec %d %s %s" % (c[0], self.path(c[0]), lab)
        return str(c)

    # -- the case

    def case(self, rng):
        """A random structural case: (category, patches, what)."""
        cats = sorted(self.WEIGHTS)
        for _ in range(200):
            cat = rng.choices(cats, [self.WEIGHTS[c] for c in cats])[0]
            kind = rng.choice(self.KINDS[cat])
            res = self.make(cat, kind, rng)
            if res:
                return res
        raise NoTarget("no structural mutation found")

    def make(self, cat, kind, rng):
        """One mutation of category cat and kind: (cat, patches, what)
        or None when it does not fit."""
        img = Image(self.vol)
        try:
            what = getattr(self, cat[2:].replace("-", "_"))(img, rng, kind)
        except NoTarget as e:
            self.why = str(e)
            return None
        p = img.patches()
        if not p or len(p) > PATCH_MAX or len(spec(p)) > SPEC_MAX:
            self.why = "no change" if not p else "patch too big"
            return None
        return cat, p, "%s: %s" % (kind, what)

    def regress_case(self, cat, kind, focus, want=""):
        """The regression case (cat, kind) on a target whose name contains
        focus (if the volume has one) and whose description contains
        want: the first of a fixed series of seeds that makes one (any
        case of that kind if none does, say after the base images
        changed)."""
        fallback = None
        self.focus = focus
        try:
            for t in range(300):
                res = self.make(cat, kind, random.Random("ntfs-fuzz-regress:%s:%s:%s:%d" % (cat, kind, focus, t)))
                if res and focus in res[2] and want in res[2]:
                    return res
                fallback = fallback or res
        finally:
            self.focus = None
        if fallback:
            return fallback
        raise NoTarget("regression case %s %s: no mutation fits" % (cat, kind))

    def sparse_flag(self, rng, num):
        """Whether a runlist given holes gets the sparse flag: always in
        user files; in system files half the time, as some drivers (ntfs-3g)
        refuse the flag on $MFT or $Bitmap before looking at the sizes."""
        return num >= 16 or rng.random() < 0.5

    # -- s-runwrap

    def runwrap(self, img, rng, kind):
        """Runlists whose cluster counts wrap 64 bits while the sizes agree
        modulo 2^64: allocated size == (highest VCN + 1) * cluster size
        and the run lengths sum to highest VCN + 1, both only after the
        wrap, so a naive size check passes."""
        num, atype, name = self.pick(rng, self.single)
        rec = Record(img, num)
        i, a = rec.get(atype, name)
        cs, n, runs = self.cs, a.clusters(), list(a.runs)
        wrap = (1 << 64) // cs		# clusters whose bytes are 2^64
        if kind == "len-wrap":
            k = rng.choice([0, 0, 1, 2, 7])
            at = rng.choice(["end", "start", "middle"] if len(runs) > 1 else ["end", "start"])
            pos = len(runs) if at == "end" else 0 if at == "start" else rng.randrange(1, len(runs))
            runs.insert(pos, (wrap + k, None))
            total = n + wrap + k
            how = "hole run of 2^%d+%d clusters at the %s" % (64 - cs.bit_length() + 1, k, at)
        elif kind == "vcn-wrap":
            m = rng.randrange(3, 9)
            pieces = [(1 << 63) - 1, (1 << 63) - 1, m]
            runs += [(p, None) for p in pieces]
            total = (n + sum(pieces)) & M64
            how = "hole runs 2^63-1, 2^63-1, %d appended: the VCNs wrap" % m
        else:
            j = rng.randrange(1, 64)
            pieces = rng.choice([[(1 << 63) - 1, (1 << 63) - 1, 2], [(1 << 64) - j, j]])
            at = rng.choice(["end", "start"])
            runs = runs + [(p, None) for p in pieces] if at == "end" else [(p, None) for p in pieces] + runs
            total = n
            how = "hole runs %s at the %s sum to 2^64: sizes unchanged" % (
                "+".join("0x%x" % p for p in pieces), at)
        highest, alloc = (total - 1) & M64, total * cs & M64
        dsize = min(a.dsize, alloc) if rng.random() < 0.7 else alloc
        init = min(a.init, dsize)
        sparse = self.sparse_flag(rng, num)
        replace_attr(rec, i, with_runs(a, runs, highest, alloc, dsize, init, sparse))
        rec.save()
        return "rec %d %s %s: %s; highest VCN 0x%x, allocated 0x%x, data 0x%x%s" % (
            num, self.path(num), a.label(), how, highest, alloc, dsize, "" if sparse else ", no sparse flag")

    # -- s-sparse-tail

    def tail_groups(self):
        """Metadata streams by kind, for s-sparse-tail: (num, type, name)
        of single-extent non-resident attributes, and resident $EAs (made
        non-resident first)."""
        g = {"index": [], "sds": [], "mft": [], "bitmap": [], "alist": [], "data": [], "ea": []}
        for num, t, name in self.single:
            if t == AT_INDEX_ALLOCATION:
                g["index"].append((num, t, name))
            elif num == 9 and name == "$SDS":
                g["sds"].append((num, t, name))
            elif num == 0 and t == AT_DATA:
                g["mft"].append((num, t, name))
            elif num == 6 and t == AT_DATA:
                g["bitmap"].append((num, t, name))
            elif t == AT_ATTRIBUTE_LIST:
                g["alist"].append((num, t, name))
            elif t == AT_DATA and num >= 16:
                g["data"].append((num, t, name))
        for f in self.user:
            if any(a.type == AT_EA and not a.nonres for a in f.attrs):
                g["ea"].append((f.num, AT_EA, ""))
        return {k: v for k, v in g.items() if v}

    def to_nonresident(self, img, rec, i):
        """Move resident attribute i of rec into new clusters."""
        a = rec.attr(i)
        lcn, n = img.put_clusters(a.value)
        replace_attr(rec, i, nonresident(a.type, [(n, lcn)], 0, n - 1, n * self.cs, len(a.value), len(a.value),
                                         a.name, a.id, a.flags))
        return rec.attr(i)

    def sparse_tail(self, img, rng, kind):
        """A metadata stream claiming petabytes: a hole run appended, with
        highest VCN, allocated and data size (and sometimes initialized
        size) following; or ("inflate") data and initialized size raised
        to the allocated size."""
        groups = self.tail_groups()
        group = rng.choice(sorted(groups))
        if self.focus and any(self.focus in self.name_of(t) for g in groups.values() for t in g):
            group = [g for g in sorted(groups) if any(self.focus in self.name_of(t) for t in groups[g])][0]
        num, atype, name = self.pick(rng, groups[group])
        rec = Record(img, num)
        i, a = rec.get(atype, name)
        if not a.nonres:
            a = self.to_nonresident(img, rec, i)
        cs, n = self.cs, a.clusters()
        if kind == "inflate":
            if a.alloc <= a.dsize and a.alloc <= a.init:
                raise NoTarget("nothing to inflate")
            init = a.alloc if rng.random() < 0.7 else min(a.init, a.alloc)
            b = bytearray(rec.attrs[i])
            struct.pack_into("<QQ", b, 0x30, a.alloc, init)
            replace_attr(rec, i, b)
            rec.save()
            return "rec %d %s %s (%s): data size 0x%x -> 0x%x, initialized 0x%x -> 0x%x (= allocated)" % (
                num, self.path(num), a.label(), group, a.dsize, a.alloc, a.init, init)
        tail = rng.choice([1 << 38 if cs >= 4096 else 1 << 41, (1 << 50) // cs, (1 << 52) // cs,
                           (1 << 62) // cs - n, (1 << 63) // cs - n - 1])
        total = n + tail
        alloc = total * cs
        dsize = alloc if rng.random() < 0.6 else alloc - rng.randrange(1, cs)
        init = dsize if kind == "tail-init" else a.init
        sparse = self.sparse_flag(rng, num)
        replace_attr(rec, i, with_runs(a, a.runs + [(tail, None)], total - 1, alloc, dsize, init, sparse))
        rec.save()
        return "rec %d %s %s (%s): hole of 0x%x clusters appended; highest VCN 0x%x, alloc 0x%x, " \
               "data 0x%x, initialized 0x%x%s%s" % (num, self.path(num), a.label(), group, tail, total - 1,
                                                    alloc, dsize, init, "" if sparse else ", no sparse flag",
                                                    self.use_sds(img) if group == "sds" else "")

    def use_sds(self, img):
        """The base volumes keep a $SECURITY_DESCRIPTOR in every file, so
        nothing would read $SDS: give the first regular file a security id
        (0x100), and reading its system.ntfs_security indexes $SDS."""
        f = self.regular[0]
        rec = Record(img, f.num)
        i, a = rec.get(AT_STANDARD_INFORMATION)
        if a.nonres or len(a.value) < 0x30:
            return ""
        # The 72-byte (NTFS 3.x) form: owner id, security id, quota, USN.
        value = a.value[:0x30] + struct.pack("<IIQQ", 0, 0x100, 0, 0)
        old = rec.attrs[i]
        voff = u16(old, 0x14)
        b = bytearray(old[:voff]) + value
        b += bytes(align8(len(b)) - len(b))
        struct.pack_into("<I", b, 4, len(b))
        struct.pack_into("<I", b, 0x10, len(value))
        replace_attr(rec, i, b)
        rec.save()
        return "; rec %d %s: security id 0x100, so its system.ntfs_security reads $SDS" % (f.num, f.path)

    # -- s-forms

    def forms(self, img, rng, kind):
        """Valid but unusual forms the driver must read: empty
        non-resident streams without runs, an attribute list where none
        is needed, a small file moved out of its record.  (ntfs-3g reads
        all of them; an empty attribute list it refuses, so that is in
        s-attrlist.)"""
        if kind in ("empty-nonres-data", "nonres-data"):
            f = self.pick(rng, [f for f in self.regular if any(
                a.type == AT_DATA and not a.name and not a.nonres for a in f.attrs)
                and not any(a.type == 0xC0 for a in f.attrs)])
            rec = Record(img, f.num)
            i, a = rec.get(AT_DATA)
            if kind == "nonres-data":
                self.to_nonresident(img, rec, i)
                rec.save()
                return "rec %d %s: resident $DATA (%d bytes) moved to a cluster" % (f.num, f.path, len(a.value))
            replace_attr(rec, i, nonresident(AT_DATA, [], 0, M64, 0, 0, 0, "", a.id, 0, mp=b"\0"))
            rec.save()
            return "rec %d %s: $DATA non-resident without runs (highest VCN -1, sizes 0): an empty file" % (
                f.num, f.path)
        if kind == "empty-named-stream":
            f = self.pick(rng, self.regular)
            rec = Record(img, f.num)
            named = [k for k, b in enumerate(rec.attrs) if Attr(b).type == AT_DATA and Attr(b).name]
            if named and rng.random() < 0.7:
                i = named[0]
                a = rec.attr(i)
                replace_attr(rec, i, nonresident(AT_DATA, [], 0, M64, 0, 0, 0, a.name, a.id, 0, mp=b"\0"))
                how = "named stream %s made non-resident, size 0, no runs" % a.name
            else:
                rec.insert(nonresident(AT_DATA, [], 0, M64, 0, 0, 0, "fuzz-empty", rec.new_id(), 0, mp=b"\0"))
                how = "new non-resident named stream fuzz-empty, size 0, no runs"
            rec.save()
            return "rec %d %s: %s" % (f.num, f.path, how)
        f = self.pick(rng, [f for f in self.user if not any(a.type == AT_ATTRIBUTE_LIST for a in f.attrs)])
        rec = Record(img, f.num)
        value = b"".join(self.list_of(rec))
        how = "$ATTRIBUTE_LIST listing its %d attributes" % len(self.list_of(rec))
        self.add_list(img, rec, value, kind.endswith("nonres"))
        rec.save()
        return "rec %d %s: %s, %s" % (f.num, f.path, how, "non-resident" if kind.endswith("nonres") else "resident")

    def list_of(self, rec):
        """Attribute list entries for the attributes of rec."""
        out = []
        for k in range(len(rec.attrs)):
            a = rec.attr(k)
            if a.type != AT_ATTRIBUTE_LIST:
                out.append(alist_entry(a.type, a.name, a.lowest if a.nonres else 0, rec.ref(), a.id))
        return out

    def add_list(self, img, rec, value, nonres, alloc_empty=False):
        """Give rec an $ATTRIBUTE_LIST with this value: resident, or in
        new clusters (no runs at all when empty)."""
        ident = rec.new_id()
        if not nonres:
            rec.insert(resident(AT_ATTRIBUTE_LIST, value, "", ident))
        elif not value and not alloc_empty:
            rec.insert(nonresident(AT_ATTRIBUTE_LIST, [], 0, M64, 0, 0, 0, "", ident, mp=b"\0"))
        else:
            lcn, n = img.put_clusters(value)
            rec.insert(nonresident(AT_ATTRIBUTE_LIST, [(n, lcn)], 0, n - 1, n * self.cs, len(value), len(value),
                                   "", ident))

    # -- s-index-dag

    def index_dag(self, img, rng, kind):
        """Index blocks whose child pointers form a DAG or a cycle; every
        block keeps valid fixups, sorted entries and its $BITMAP bit, so
        only the shape is wrong."""
        cands = [f for f in self.dirs if any(a.type == AT_INDEX_ALLOCATION for a in f.attrs)]
        f = self.pick(rng, cands)
        d = Dir(img, self.vol, f.num)
        vcns = d.vcns()
        if not vcns:
            raise NoTarget("no index blocks")
        if kind in ("chain", "ladder"):
            how = self.reshape(d, rng, kind)
        else:
            how = self.rewire(d, rng, kind)
        d.save(mark=vcns)
        return "%s (%d INDX blocks): %s" % (f.path, len(vcns), how)

    def reshape(self, d, rng, kind):
        """All entries of the directory spread over the root and every
        block in key order; chain: each node's entries all point to the
        next block; ladder: blocks in pairs, each pointing alternately to
        both blocks of the next pair (shared subtrees, 2^levels paths)."""
        keyed = [d.node(n)[i] for n, i in d.inorder()]
        vcns = d.vcns()
        if kind == "ladder" and len(vcns) < 3:
            raise NoTarget("a ladder needs three blocks")
        # One block: the root's entries (at least one) must all point to it.
        r = min(len(keyed), 1 if kind == "ladder" or len(vcns) == 1 else rng.choice([0, 1, 1]))
        rest = keyed[r:]
        per = [len(rest) * (k + 1) // len(vcns) - len(rest) * k // len(vcns) for k in range(len(vcns))]
        slices, pos = [], 0
        for k in per:
            slices.append(rest[pos:pos + k])
            pos += k
        if kind == "chain":
            levels = [[v] for v in vcns]
        else:
            levels = [vcns[k:k + 2] for k in range(0, len(vcns), 2)]
        below = {"root": levels[0]}
        for lv, nxt in zip(levels, levels[1:]):
            for v in lv:
                below[v] = nxt
        for nid, ents in [("root", keyed[:r])] + list(zip(vcns, slices)):
            kids = below.get(nid)
            out = []
            for k, e in enumerate(ents + [None]):
                child = kids[k % len(kids)] if kids else None
                out.append(Entry(0, b"", child, True) if e is None else Entry(e.ref, e.key, child))
            d.set_node(nid, out)
        return "%s: root %d entries, blocks %s entries, %d levels" % (
            kind, r, "/".join(str(len(s)) for s in slices), len(levels))

    def rewire(self, d, rng, kind):
        """Child pointers of the base tree redirected: to the block
        itself, to an ancestor, two parents to one child, or every
        pointer to one block."""
        vcns = d.vcns()
        parent = {}
        for nid in ["root"] + vcns:
            for e in d.node(nid):
                if e.child is not None and e.child not in parent:
                    parent[e.child] = nid

        def ancestors(v):
            out, seen = [], set()
            while v in parent and parent[v] != "root" and v not in seen:
                seen.add(v)
                v = parent[v]
                out.append(v)
            return out

        if kind == "self-cycle":
            x = rng.choice(vcns)
            self.point(d, x, x)
            return "every entry of block %d points to block %d itself" % (x, x)
        if kind == "ancestor-cycle":
            deep = [v for v in vcns if ancestors(v)]
            if not deep:
                raise NoTarget("no block below another")
            x = rng.choice(deep)
            to = rng.choice(ancestors(x))
            self.point(d, x, to)
            return "every entry of block %d points to its ancestor block %d" % (x, to)
        ptrs = [(nid, k, e.child) for nid in ["root"] + vcns for k, e in enumerate(d.node(nid))
                if e.child is not None]
        if kind == "shared-child":
            pairs = [(p, q) for p in ptrs for q in ptrs if p[2] != q[2]]
            if not pairs:
                raise NoTarget("one child pointer only")
            (nid, k, old), (_, _, to) = rng.choice(pairs)
            ents = d.node(nid)
            ents[k] = Entry(ents[k].ref, ents[k].key, to, ents[k].last)
            d.set_node(nid, ents)
            return "entry %d of %s points to block %d (was %d): two parents share it" % (
                k, nid if nid == "root" else "block %d" % nid, to, old)
        to = rng.choice(vcns)
        for nid in sorted({p[0] for p in ptrs}, key=str):
            ents = [Entry(e.ref, e.key, to if e.child is not None else None, e.last) for e in d.node(nid)]
            d.set_node(nid, ents)
        return "every child pointer of the tree points to block %d" % to

    def point(self, d, x, to):
        """All entries of block x (the end entry too) point to block to."""
        d.set_node(x, [Entry(e.ref, e.key, to, e.last) for e in d.node(x)])

    # -- s-names

    def names(self, img, rng, kind):
        """A directory entry (and the $FILE_NAME in the file's record)
        renamed ".", "..", with a '/' or a NUL unit inside, placed where
        it keeps the index in collation order."""
        f = self.pick(rng, [f for f in self.dirs if f.num != 5 or rng.random() < 0.3])
        d = Dir(img, self.vol, f.num)
        order = d.inorder()
        mask = (1 << 48) - 1
        user = [j for j, (n, i) in enumerate(order) if d.node(n)[i].ref & mask >= 16]
        if not user:
            raise NoTarget("no user entries")
        keys = [self.coll(d.node(n)[i].name()) for n, i in order]

        def fits(j, k):
            return (j == 0 or keys[j - 1] < k) and (j == len(keys) - 1 or k < keys[j + 1])
        for _ in range(30):
            j = rng.choice(user)
            nid, i = order[j]
            new = self.new_name(rng, kind, d.node(nid)[i].name())
            resort = not fits(j, self.coll(new))
            if not resort:
                break
        else:
            # No place keeps the order: only a directory held in one leaf
            # node can be sorted again.
            if len({n for n, _ in order}) != 1 or any(e.child is not None for e in d.node(nid)):
                raise NoTarget("no place keeps the order")
        ents = d.node(nid)
        e = ents[i]
        old = e.name()
        key = e.key[:0x40] + bytes([len(new), e.key[0x41]]) + struct.pack("<%dH" % len(new), *new)
        ents[i] = Entry(e.ref, key, e.child, e.last)
        if resort:
            ents = sorted(ents[:-1], key=lambda x: self.coll(x.name())) + ents[-1:]
        d.set_node(nid, ents)
        d.save()
        fnum = e.ref & mask
        in_rec = self.rename_fn(img, fnum, f.num, old, new)
        return "%s: entry of rec %d renamed to \"%s\"%s%s" % (
            f.path, fnum, self.show(new), " (and its $FILE_NAME)" if in_rec else " (index entry only)",
            ", the node sorted again" if resort else "")

    @staticmethod
    def show(units):
        """A name for the case's description: around its first '/' or
        NUL when it is long."""
        text = "".join(chr(u) if 0x20 < u < 0x7F else "\\u%04x" % u for u in units)
        if len(text) <= 60:
            return text
        p = min([k for k, u in enumerate(units) if u in (0, 0x2F)] or [0])
        return ("..." if p > 16 else "") + text[max(0, p - 16):p + 24] + "..."

    def new_name(self, rng, kind, old):
        """UTF-16 units of the hostile name for kind."""
        if kind == "dot":
            return [0x2E]
        if kind == "dotdot":
            return [0x2E, 0x2E]
        c = 0x2F if kind == "slash" else 0
        p = rng.randrange(len(old))
        if rng.random() < 0.7:
            return old[:p] + [c] + old[p + 1:]
        return old[:p] + [c] + old[p:]

    def rename_fn(self, img, num, parent, old, new):
        """Rename the $FILE_NAME of record num (or of its extension
        records) that names it in directory parent."""
        holders = [num] + sorted(g.num for g in self.vol.files.values() if g.base == num and g.num != num)
        for h in holders:
            rec = Record(img, h)
            for k in range(len(rec.attrs)):
                a = rec.attr(k)
                if a.type != AT_FILE_NAME or a.nonres or len(a.value) < 0x42:
                    continue
                v = a.value
                units = list(struct.unpack_from("<%dH" % v[0x40], v, 0x42))
                if u64(v, 0) & ((1 << 48) - 1) == parent and units == old:
                    nv = v[:0x40] + bytes([len(new), v[0x41]]) + struct.pack("<%dH" % len(new), *new)
                    replace_attr(rec, k, resident(AT_FILE_NAME, nv, "", a.id, a.flags, a.indexed))
                    rec.save()
                    return True
        return False

    # -- s-ea

    S_IFIFO, S_IFCHR, S_IFDIR, S_IFBLK, S_IFREG, S_IFLNK, S_IFSOCK = \
        0o010000, 0o020000, 0o040000, 0o060000, 0o100000, 0o120000, 0o140000

    def ea(self, img, rng, kind):
        """$EA entries with WSL metadata ($LXUID, $LXGID, $LXMOD, $LXDEV)
        or huge, many or oddly named EAs, with $EA_INFORMATION agreeing;
        non-resident when they do not fit the record."""
        f = self.pick(rng, self.user)
        rec = Record(img, f.num)
        old = []
        i = rec.find(AT_EA)
        if i is not None:
            a = rec.attr(i)
            if a.nonres:
                raise NoTarget("non-resident $EA in the base")
            if rng.random() < 0.6:
                old = ea_parse(a.value)
        p32 = lambda v: struct.pack("<I", v & 0xFFFFFFFF)
        isdir = bool(f.flags & 2)
        if kind in ("wsl-chr", "wsl-blk"):
            ftype = self.S_IFCHR if kind == "wsl-chr" else self.S_IFBLK
            mode = ftype | rng.choice([0o6755, 0o4755, 0o2755, 0o7777, 0o6644])
            dev = rng.choice([(1, 3), (8, 0), (4, 64), (0xFFF, 0xFFFFF), (0xFFFFFFFF, 0xFFFFFFFF)])
            new = [(b"$LXUID", p32(rng.choice([0, 1000, 0xFFFFFFFF]))), (b"$LXGID", p32(rng.choice([0, 6, 1000]))),
                   (b"$LXMOD", p32(mode)), (b"$LXDEV", p32(dev[0]) + p32(dev[1]))]
            how = "WSL %s mode 0%o dev %d:%d" % ("char" if kind == "wsl-chr" else "block", mode, dev[0], dev[1])
        elif kind == "wsl-odd":
            mode = rng.choice([self.S_IFDIR | 0o755 if not isdir else self.S_IFREG | 0o644, self.S_IFLNK | 0o777,
                               self.S_IFSOCK | 0o777, self.S_IFIFO | 0o644, 0o170000 | 0o7777, 0xFFFFFFFF, 0])
            uid = rng.choice([p32(0xFFFFFFFF), b"\0\0", b"\1" * 8, b""])
            new = [(b"$LXUID", uid), (b"$LXGID", p32(0xFFFFFFFE)), (b"$LXMOD", p32(mode))]
            extra = []
            if rng.random() < 0.5:
                new.append((b"$LXMOD", p32(self.S_IFCHR | 0o4755)))
                extra.append("$LXMOD twice")
            if rng.random() < 0.5:
                new.append((b"$LXDEV", b"\xff" * rng.choice([0, 4, 12])))
                extra.append("$LXDEV of %d bytes" % len(new[-1][1]))
            how = "WSL odd: mode 0x%x, $LXUID of %d bytes%s" % (mode, len(uid), "".join(", " + e for e in extra))
        elif kind == "huge-value":
            n = rng.choice([65535, 65000, 0x10000 - 9])
            # Mostly zeros: new clusters are zero in the base images, so
            # the patch stays small (SPEC_MAX).
            new = [(b"user.huge", bytes(0 if k % 4096 else 0xA5 for k in range(n - 4)) + b"end!")]
            how = "one EA value of %d bytes (the packed size wraps 16 bits)" % n
        elif kind == "many":
            n = rng.choice([300, 600, 1200])
            new = [(b"user.n%04d" % k, b"v%d" % k) for k in range(n)]
            how = "%d EAs" % n
        elif kind == "odd-names":
            new = [(b"user." + b"x" * 250, b""), (b"", b"empty name"), (b"user.\xff\xfe\x80", b"\0" * 3),
                   (b"user.a\0b", b"nul in the name"), (b"USER.UPPER", b"1")]
            rng.shuffle(new)
            new = new[:rng.randrange(2, 6)]
            how = "odd names: %s" % ", ".join(repr(n)[2:-1][:20] for n, _ in new)
        else:
            new = [(b"user.need%d" % k, b"x" * k) for k in range(rng.randrange(1, 6))]
            how = "%d EAs flagged NEED_EA" % len(new)
        flags = 0x80 if kind == "need-ea" else 0
        entries = [(n, v, fl) for n, v, fl in old] + [(n, v, flags) for n, v in new]
        value, info = ea_pack(entries, last_zero=rng.random() < 0.3)
        where = self.set_ea(img, f.num, value, info, kind in ("huge-value", "many") or rng.random() < 0.15)
        return "rec %d %s: %s%s; $EA %d bytes %s, $EA_INFORMATION packed %d need %d" % (
            f.num, f.path, how, " after %d old EAs" % len(old) if old else "", len(value), where,
            u16(info, 0), u16(info, 2))

    def set_ea(self, img, num, value, info, nonres):
        """Put $EA_INFORMATION and $EA into record num (replacing old
        ones): $EA resident when asked and it fits, else in clusters."""
        for res in ([False] if nonres else [True, False]):
            rec = Record(img, num)
            for t in (AT_EA_INFORMATION, AT_EA):
                k = rec.find(t)
                if k is not None:
                    del rec.attrs[k]
            rec.insert(resident(AT_EA_INFORMATION, info, "", rec.new_id()))
            if res:
                rec.insert(resident(AT_EA, value, "", rec.new_id()))
            else:
                lcn, n = img.put_clusters(value)
                rec.insert(nonresident(AT_EA, [(n, lcn)], 0, n - 1, n * self.cs, len(value), len(value), "",
                                       rec.new_id()))
            try:
                rec.save()
                return "resident" if res else "non-resident"
            except NoTarget:
                if not res:
                    raise
        return None

    # -- s-lznt1

    def lznt1(self, img, rng, kind):
        """Damaged LZNT1 chunks inside a compression unit of a compressed
        file; only the unit's data clusters change, the runlist stays."""
        f = self.pick(rng, [f for f in self.regular if any(
            a.type == AT_DATA and not a.name and a.nonres and a.flags & FL_COMPRESSED and a.cu for a in f.attrs)])
        rec = Record(img, f.num)
        _, a = rec.get(AT_DATA)
        unit, cs = 1 << a.cu, self.cs
        lcns = []
        for n, lcn in a.runs:
            lcns += [None] * n if lcn is None else list(range(lcn, lcn + n))
        units = []
        for u in range(0, len(lcns), unit):
            real = [x for x in lcns[u:u + unit] if x is not None]
            if 0 < len(real) < unit and None not in lcns[u:u + len(real)]:
                units.append((u, real))
        u, real = self.pick(rng, units)
        data = bytearray(b"".join(img.read(x * cs, cs) for x in real))
        chunks = lznt1_chunks(data)
        if not chunks:
            raise NoTarget("no chunks")
        pos, size, h = rng.choice(chunks)
        how = self.damage_chunks(rng, kind, data, chunks, pos, size, h)
        for k, x in enumerate(real):
            img.write(x * cs, bytes(data[k * cs:(k + 1) * cs]))
        return "rec %d %s: unit at VCN %d (%d clusters, %d chunks): %s" % (
            f.num, f.path, u, len(real), len(chunks), how)

    def damage_chunks(self, rng, kind, data, chunks, pos, size, h):
        """Edit the unit's bytes in data for one kind; returns what."""
        def header(v):
            struct.pack_into("<H", data, pos, v & 0xFFFF)
            return "chunk at 0x%x header 0x%04x -> 0x%04x" % (pos, h, v & 0xFFFF)
        if kind == "size-big":
            return header(h | 0xFFF)
        if kind == "size-small":
            return header((h & 0xF000) | rng.choice([0, 1, 2, max(0, size - 3 - rng.randrange(1, 16))]))
        if kind == "signature":
            return header((h & 0x8FFF) | rng.choice([0, 1, 2, 4, 7]) << 12)
        if kind == "flag-flip":
            return header(h ^ 0x8000)
        body = pos + 2
        if kind == "backref-start":
            p = rng.randrange(0, 8)
            disp = p + rng.randrange(1, 16)
            toks = bytes([1 << p]) + bytes(b"abcdefgh"[:p]) + phrase(p, disp, rng.randrange(3, 19))
            data[body:body + len(toks)] = toks
            header(h | 0xB000)
            return "chunk at 0x%x: back-reference %d bytes back at position %d" % (pos, disp, p)
        if kind == "overrun":
            toks = bytes([0x02]) + b"A" + phrase(1, 1, 4098) + phrase(1, 1, 4098)
            data[body:body + len(toks)] = toks
            header(h | 0xB000)
            return "chunk at 0x%x: one literal, then a 4098-byte back-reference (past the 4096-byte chunk)" % pos
        if kind == "truncated":
            last, lsize, lh = chunks[-1]
            if rng.random() < 0.5 and last + 2 + 0xFFF > len(data) - 3:
                pos, h = last, lh
                return header((lh & 0xF000) | 0xFFF) + " (the last chunk, past the unit's data)"
            k = rng.randrange(1, 4)
            data[body:body + k] = bytes([0xFF, 0x01, 0x02][:k])
            data[body + k:body + k + 2] = b"\0\0"
            return header(0xB000 | (k - 1)) + " (%d body bytes: a token cut, then the end)" % k
        if kind == "random":
            n = rng.randrange(1, 17)
            for _ in range(n):
                q = rng.randrange(body, min(len(data), pos + size))
                data[q] = rng.randrange(256)
            return "chunk at 0x%x: %d random body bytes" % (pos, n)
        if kind == "random-all":
            data[:] = bytes(rng.randrange(256) for _ in range(len(data)))
            return "the unit's %d bytes random" % len(data)
        end = chunks[-1][0] + chunks[-1][1]
        if end + 2 > len(data):
            raise NoTarget("no room after the last chunk")
        n = min(len(data) - end, rng.choice([2, 16, 4096]))
        data[end:end + n] = bytes(rng.choice([0xB0, 0x3F, 0xFF]) for _ in range(n))
        return "%d garbage bytes after the last chunk (at 0x%x)" % (n, end)

    # -- s-attrlist

    def attrlist(self, img, rng, kind):
        """Attribute lists added (entries with wrong sequence numbers, for
        attributes that are not there, duplicated, in another file's
        record, missing) or grown to hundreds of entries."""
        if kind.startswith("existing") or kind.startswith("grow"):
            return self.grow_list(img, rng, kind)
        f = self.pick(rng, [f for f in self.user if not any(a.type == AT_ATTRIBUTE_LIST for a in f.attrs)])
        rec = Record(img, f.num)
        ents = self.list_of(rec)
        k = rng.randrange(len(ents))
        nonres = rng.random() < 0.7
        if kind == "bad-seq":
            e = bytearray(ents[k])
            struct.pack_into("<H", e, 0x16, (u16(e, 0x16) + rng.choice([1, 0xFFFF, 0x100])) & 0xFFFF)
            ents[k] = bytes(e)
            how = "entry %d (type 0x%x) with a wrong sequence number" % (k, u32(e, 0))
        elif kind == "self-ghost":
            t, name = rng.choice([(AT_DATA, "ghost"), (AT_INDEX_ROOT, "$I30"), (AT_DATA, ""), (0x100, "")])
            ents.append(alist_entry(t, name, rng.choice([0, 0, 5]), rec.ref(), 0x7F))
            ents.sort(key=lambda e: (u32(e, 0), e[0x1A:], u64(e, 8)))
            how = "an entry for 0x%x:%s in itself, which it does not have" % (t, name)
        elif kind == "dup":
            ents.insert(k, ents[k])
            how = "entry %d (type 0x%x) twice" % (k, u32(ents[k], 0))
        elif kind == "foreign":
            others = [g for g in self.regular if g.num != f.num and any(
                a.type == AT_DATA and not a.name for a in g.attrs)]
            g = self.pick(rng, others)
            data = [x for x, e in enumerate(ents) if u32(e, 0) == AT_DATA and e[6] == 0]
            if not data:
                raise NoTarget("no $DATA")
            x = data[0]
            e = bytearray(ents[x])
            struct.pack_into("<Q", e, 0x10, g.num | g.seq << 48)
            ents[x] = bytes(e)
            drop = rng.random() < 0.7
            if drop:
                del rec.attrs[rec.find(AT_DATA)]
            how = "$DATA listed in rec %d %s (another file's base record)%s" % (
                g.num, g.path, ", its own $DATA removed" if drop else "")
        elif kind == "missing":
            t = u32(ents[k], 0)
            del ents[k]
            how = "attribute 0x%x not listed" % t
        elif kind == "empty-alloc":
            ents, nonres = [], True
            how = "empty, one cluster allocated"
        else:
            ents, nonres = [], kind == "empty-nonres"
            how = "empty" + (" (no runs, highest VCN -1)" if nonres else "")
        self.add_list(img, rec, b"".join(ents), nonres, alloc_empty=kind == "empty-alloc")
        rec.save()
        return "rec %d %s: new %s $ATTRIBUTE_LIST: %s" % (
            f.num, f.path, "non-resident" if nonres else "resident", how)

    def grow_list(self, img, rng, kind):
        """An existing (non-resident) attribute list: an entry pointed at
        the base record itself, or hundreds of entries added."""
        f = self.pick(rng, [f for f in self.user if any(a.type == AT_ATTRIBUTE_LIST for a in f.attrs)])
        rec = Record(img, f.num)
        i, a = rec.get(AT_ATTRIBUTE_LIST)
        m = Mapping(self.cs, a.runs) if a.nonres else None
        value = img.sread(m, 0, a.dsize) if a.nonres else a.value
        ents, o = [], 0
        while o + 0x1A <= len(value) and u16(value, o + 4) >= 0x1A:
            ents.append(bytes(value[o:o + u16(value, o + 4)]))
            o += u16(value, o + 4)
        me = rec.ref()
        if kind == "existing-self":
            away = [k for k, e in enumerate(ents) if u64(e, 0x10) != me]
            k = self.pick(rng, away)
            e = bytearray(ents[k])
            was = u64(e, 0x10) & ((1 << 48) - 1)
            struct.pack_into("<Q", e, 0x10, me)
            ents[k] = bytes(e)
            how = "entry %d (type 0x%x, in rec %d) pointed at the base record itself" % (k, u32(e, 0), was)
        elif kind == "grow-dup":
            n = rng.choice([100, 300, 600])
            k = rng.randrange(len(ents))
            ents[k + 1:k + 1] = [ents[k]] * n
            how = "entry %d (type 0x%x) repeated %d times" % (k, u32(ents[k], 0), n)
        elif kind == "grow-ghosts":
            n = rng.choice([100, 400, 1000])
            ents += [alist_entry(AT_DATA, "s%04d" % x, 0, me, 0x100 + x) for x in range(n)]
            ents.sort(key=lambda e: (u32(e, 0), e[0x1A:0x1A + 2 * e[6]].decode("utf-16-le"), u64(e, 8)))
            how = "%d entries for named streams that do not exist" % n
        else:
            n = rng.choice([50, 200, 500])
            data = [e for e in ents if u32(e, 0) == AT_DATA and e[6] == 0] or [
                e for e in ents if u32(e, 0) == AT_INDEX_ROOT] or ents
            tmpl = rng.choice(data)
            step = rng.choice([1, 3, 1 << 20])
            ents += [bytes(tmpl[:8]) + struct.pack("<Q", (x + 1) * step) + bytes(tmpl[16:]) for x in range(n)]
            ents.sort(key=lambda e: (u32(e, 0), e[0x1A:0x1A + 2 * e[6]].decode("utf-16-le"), u64(e, 8)))
            how = "%d extents of type 0x%x added (start VCNs every %d), none of them exists" % (
                n, u32(tmpl, 0), step)
        value = b"".join(ents)
        if a.nonres and len(value) <= a.alloc:
            img.swrite(m, 0, value)
            b = bytearray(rec.attrs[i])
            struct.pack_into("<QQ", b, 0x30, len(value), len(value))
            replace_attr(rec, i, b)
        elif a.nonres:
            lcn, n = img.put_clusters(value)
            replace_attr(rec, i, nonresident(AT_ATTRIBUTE_LIST, [(n, lcn)], 0, n - 1, n * self.cs, len(value),
                                             len(value), "", a.id, a.flags))
        else:
            replace_attr(rec, i, resident(AT_ATTRIBUTE_LIST, value, "", a.id, a.flags))
        rec.save()
        return "rec %d %s: $ATTRIBUTE_LIST of %d entries (%d bytes): %s" % (
            f.num, f.path, len(ents), len(value), how)

    # -- s-logfile

    def logfile(self, img, rng, kind):
        """$LogFile restart pages (the base's log is empty, all 0xFF):
        two clean restart pages written with fixups, then damaged in
        their update sequence arrays or in fields the fixups cover."""
        rec = Record(img, 2)
        _, a = rec.get(AT_DATA)
        m = Mapping(self.cs, a.runs)
        page = 4096
        lsn = rng.choice([0, 0x2000, 0x123456])
        pages = [logfile_restart(page, a.dsize, lsn, rng.randrange(1 << 32)) for _ in range(2)]
        torn = [(), ()]
        late = []		# (page, offset, bytes) written over the fixed-up page
        how = "two clean restart pages"
        if kind in ("torn-first", "torn-both"):
            k = rng.randrange(1, page // SECTOR + 1)
            torn = [(k,), (k,) if kind == "torn-both" else ()]
            how = "sector %d torn in %s" % (k, "both restart pages" if kind == "torn-both" else "the first page")
        elif kind == "usa-count":
            v = rng.choice([0, 1, 8, 10, 0x100, 0xFFFF])
            late = [(p, 6, struct.pack("<H", v)) for p in range(rng.choice([1, 2]))]
            how = "update sequence count %d after the fixups (%d pages)" % (v, len(late))
        elif kind == "usa-offset":
            v = rng.choice([0x1F, 0, 0xFF8, 0x1000, 0xFFFF, 0x30])
            late = [(p, 4, struct.pack("<H", v)) for p in range(rng.choice([1, 2]))]
            how = "update sequence offset 0x%x after the fixups (%d pages)" % (v, len(late))
        else:
            field = {"page-size": [(0x10, "<I", [0, 512, 2048, 4097, 0x2000, 0x10000, 0xFFFFFFFF]),
                                   (0x14, "<I", [0, 512, 0x2000, 4095, 0xFFFFFFFF])],
                     "ra-offset": [(0x18, "<H", [0, 0x20, 0xFF8, 0x1000, 0xFFFF, 0x31])],
                     "clients": [(0x30 + 0x08, "<H", [0, 2, 0xFFFF]), (0x30 + 0x0C, "<H", [0, 1, 0x7FFF]),
                                 (0x30 + 0x16, "<H", [0xF00, 0xFFF8, 0xFFFF, 0x2F]),
                                 (0x30 + 0x14, "<H", [0, 0xFFFF, 0x1000]),
                                 (0x30 + 0x26, "<H", [0, 0x1000, 0xFFFF])]}.get(kind)
            if field:
                off, fmt, vals = rng.choice(field)
                v = rng.choice(vals)
                for d in pages[:rng.choice([1, 2])]:
                    struct.pack_into(fmt, d, off, v)
                how = "restart page field at 0x%x = 0x%x, fixups valid" % (off, v)
        for p in range(2):
            img.write_protected(m, p * page, pages[p], torn[p])
        for p, off, b in late:
            img.swrite(m, p * page + off, b)
        return "$LogFile: %s" % how


# ---------------------------------------------------------------- the regression set

# (image, category, kind, target, more): each class, on the targets the
# brief of this mutator names; "target" is part of the target's name ("rec
# N PATH ATTRIBUTE", or just a path), which the case's description then
# contains, with "more" too.  Case ids are REGRESS_BASE + 1 on, in this
# order (ntfs-fuzz-gen.py --regress).
REGRESS_BASE = 1000000
REGRESS = [
    ("base.img", "s-runwrap", "len-wrap", "/sparse.bin $DATA", "middle"),
    ("base.img", "s-runwrap", "len-wrap", "rec 0 $MFT $DATA", "at the end; highest VCN 0x1000000000002a,"),
    ("base-c512.img", "s-runwrap", "len-wrap", "/many $INDEX_ALLOCATION", "at the start"),
    ("base.img", "s-runwrap", "vcn-wrap", "/dir-b/two-clusters.bin $DATA", ""),
    ("base.img", "s-runwrap", "zero-sum", "/compressed/text.txt $DATA", ""),
    ("base.img", "s-sparse-tail", "tail", "/many $INDEX_ALLOCATION", ""),
    ("base.img", "s-sparse-tail", "tail", "rec 0 $MFT $DATA", "no sparse flag"),
    ("base.img", "s-sparse-tail", "tail", "$Secure $DATA:$SDS", ""),
    ("base.img", "s-sparse-tail", "tail-init", "rec 6 $Bitmap $DATA", "no sparse flag"),
    ("base.img", "s-sparse-tail", "tail", "/many $ATTRIBUTE_LIST", ""),
    ("base.img", "s-sparse-tail", "tail", "/dir-a $EA", ""),
    ("base-c512.img", "s-sparse-tail", "inflate", "rec 0 $MFT $DATA", ""),
    ("base.img", "s-index-dag", "chain", "/many", ""),
    ("base.img", "s-index-dag", "ladder", "/many", ""),
    ("base.img", "s-index-dag", "self-cycle", "/many", ""),
    ("base.img", "s-index-dag", "ancestor-cycle", "/many", ""),
    ("base.img", "s-index-dag", "shared-child", "/many", ""),
    ("base.img", "s-names", "dot", "/dir-b:", ""),
    ("base.img", "s-names", "dotdot", "/compressed:", ""),
    ("base.img", "s-names", "slash", "/many:", ""),
    ("base.img", "s-names", "nul", "/dir-a:", ""),
    ("base.img", "s-ea", "wsl-chr", "/dir-a/text.txt", "dev 1:3"),
    ("base.img", "s-ea", "wsl-blk", "/sparse.bin", ""),
    ("base.img", "s-ea", "huge-value", "/dir-b/hello-again.txt:", ""),
    ("base.img", "s-lznt1", "backref-start", "/compressed/text.txt", ""),
    ("base.img", "s-lznt1", "overrun", "/compressed/sub/nested.txt", ""),
    ("base.img", "s-lznt1", "truncated", "/compressed/random.bin", ""),
    ("base.img", "s-attrlist", "bad-seq", "/dir-a/text.txt", ""),
    ("base.img", "s-attrlist", "foreign", "/dir-b/two-clusters.bin", "removed"),
    ("base.img", "s-attrlist", "existing-self", "/many:", ""),
    ("base.img", "s-attrlist", "grow-ghosts", "/fragmented.bin", ""),
    ("base.img", "s-attrlist", "empty-nonres", "/dir-b:", ""),
    ("base.img", "s-forms", "empty-nonres-data", "/dir-b/hello-again.txt", ""),
    ("base.img", "s-forms", "empty-named-stream", "/dir-b/two-clusters.bin", ""),
    ("base.img", "s-forms", "alist-resident", "/dir-a/text.txt", ""),
    ("base.img", "s-forms", "alist-nonres", "/dir-b:", ""),
    ("base.img", "s-logfile", "valid", "", ""),
    ("base.img", "s-logfile", "torn-first", "", ""),
]


# ---------------------------------------------------------------- checking cases

def check(g, base, data, cat, what):
    """What is wrong with a mutated image besides the intended damage
    (a list of problems, empty when the case is as meant): every record
    and INDX block parses with its fixups, $MFTMirr agrees, every runlist
    agrees with its sizes modulo 2^64, plus a check per category.
    g: the module ntfs-fuzz-gen.py (its Volume, Rec and File parse).
    A case that moves $MFT's own data (a hole run before it) is checked
    on record 0 alone."""
    try:
        v = g.Volume(None, data)
    except Exception as e:	# the parser's own errors: the case broke more than meant
        return ["the volume does not parse: %r" % e]
    img = Image(base)
    img.buf = bytearray(data)
    probs = []
    for n in range(img.mirr_records):
        if img.sread(img.mft, n * v.rs, v.rs) != img.sread(img.mirr, n * v.rs, v.rs):
            probs.append("$MFTMirr record %d differs" % n)
    if "rec 0 $MFT $DATA" in what and 1 not in v.files:
        v.files = {0: g.File(0, g.Rec(v, None, v.mft_lcn * v.cs, v.rs, "FILE"))}
        v.files[0].path = "$MFT"
        b0 = base.files[0]
        base = type("Base", (), {"files": {0: b0}})
    else:
        # Records past $MFT's old data size may be anything (s-sparse-tail).
        bad = [b for b in v.bad if b[0] * v.rs < base.mft.size]
        if bad:
            probs.append("records that do not parse: %s" % bad[:4])
        if sorted(v.files) != sorted(base.files):
            probs.append("records in use changed")
        if cat not in ("s-sparse-tail", "s-runwrap") and len(v.blocks) != len(base.blocks):
            probs.append("INDX blocks parsed: %d, base %d" % (len(v.blocks), len(base.blocks)))
    probs += check_runlists(v)
    per = {"s-runwrap": check_wrap, "s-sparse-tail": check_tail, "s-index-dag": check_dag,
           "s-names": check_names, "s-ea": check_eas, "s-lznt1": check_same_mft,
           "s-attrlist": check_lists, "s-forms": check_lists, "s-logfile": check_logfile}
    return probs + per[cat](v, base, what)


def target(v, what):
    m = re.search(r"rec (\d+) ", what)
    return v.files.get(int(m.group(1))) if m else None


def check_runlists(v):
    """Single-extent non-resident attributes: the run lengths sum to
    highest VCN + 1 and allocated size = (highest VCN + 1) * cluster
    size, both modulo 2^64; allocated >= data >= initialized."""
    out = []
    for f in v.files.values():
        for a in f.attrs:
            if not a.nonres or a.lowest != 0 or len([e for e in v.extents(f, a.type) if e.name == a.name]) > 1 \
                    or f.base and f.base != f.num:
                continue
            total = sum(n for _, _, n in a.runs)
            if (total - a.highest - 1) & M64:
                out.append("rec %d %s: runs sum to 0x%x, highest VCN 0x%x" % (f.num, a.label(), total, a.highest))
            if a.alloc != (a.highest + 1) * v.cs & M64:
                out.append("rec %d %s: allocated 0x%x for highest VCN 0x%x" % (f.num, a.label(), a.alloc, a.highest))
            if not a.alloc >= a.dsize >= a.valid:
                out.append("rec %d %s: sizes 0x%x/0x%x/0x%x" % (f.num, a.label(), a.alloc, a.dsize, a.valid))
    return out


def changed_attrs(v, base, f):
    b = base.files[f.num]
    return [a for a in f.attrs if not any(x.type == a.type and x.name == a.name and x.nonres == a.nonres and
                                          (x.runs, x.alloc, x.dsize, x.valid) == (a.runs, a.alloc, a.dsize, a.valid)
                                          for x in b.attrs if x.nonres)]


def check_wrap(v, base, what):
    f = target(v, what)
    if not f:
        return ["no target record"]
    wraps = [a for a in changed_attrs(v, base, f) if a.nonres and
             (sum(n for _, _, n in a.runs) * v.cs >= 1 << 64 or max(n for _, _, n in a.runs) >= 1 << 63)]
    return [] if wraps else ["no runlist wraps"]


def check_tail(v, base, what):
    f = target(v, what)
    if not f:
        return ["no target record"]
    big = [a for a in changed_attrs(v, base, f) if a.nonres and (a.alloc >= 1 << 40 or a.dsize == a.alloc)]
    return [] if big else ["no stream grew"]


def index_graph(v, path):
    """{node: [child VCNs]} of the directory at path ("root" and VCNs)."""
    f = [g for g in v.files.values() if g.path == path and not (g.base and g.base != g.num)]
    if not f:
        return None
    f = f[0]
    g = {}
    for h, a, idx in v.roots:
        if a.name == "$I30" and (h is f or h.base == f.num):
            g["root"] = [u64(h.rec.data, o + ln - 8) for o, ln, kl, fl in idx.entries if fl & 1]
    for h, a, rec, idx in v.blocks:
        if h is f:
            g[u64(rec.data, 0x10)] = [u64(rec.data, o + ln - 8) for o, ln, kl, fl in idx.entries if fl & 1]
    return g


def check_dag(v, base, what):
    """The index is no tree: a block with two parents or a cycle."""
    m = re.search(r"(/\S*) \(\d+ INDX blocks\)", what)
    g = m and index_graph(v, m.group(1))
    if g is None:
        return ["directory not found"]
    incoming = {}
    for n, kids in g.items():
        for c in set(kids):
            incoming[c] = incoming.get(c, 0) + 1
        if len(kids) != len(set(kids)) and kids:
            incoming[kids[0]] = incoming.get(kids[0], 0) + 1
    missing = [c for kids in g.values() for c in kids if c not in g]
    if missing:
        return ["child VCNs without a block: %s" % missing[:4]]
    return [] if max(incoming.values() or [0]) > 1 or cycle(g) else ["still a tree"]


def cycle(g):
    """Whether the graph {node: [children]} has a cycle."""
    state = {}

    def visit(n):
        state[n] = 1
        for c in g.get(n, []):
            if state.get(c) == 1 or (c not in state and visit(c)):
                return True
        state[n] = 2
        return False
    return any(visit(n) for n in list(g) if n not in state)


def check_names(v, base, what):
    """A hostile name is in an index and the keys of every node are in
    order."""
    hostile = 0
    for rec, hdr in [(f.rec, idx) for f, a, idx in v.roots if a.name == "$I30"] + \
                    [(rec, idx) for f, a, rec, idx in v.blocks]:
        names = []
        for o, ln, kl, fl in hdr.entries:
            if fl & 2 or kl < 0x42:
                continue
            d = rec.data
            units = list(struct.unpack_from("<%dH" % d[o + 0x50], d, o + 0x52))
            names.append(units)
            if (u64(d, o) & ((1 << 48) - 1)) != 5 and (units in ([0x2E], [0x2E, 0x2E]) or 0 in units or
                                                        0x2F in units):
                hostile += 1
        up = [[x if not 0x61 <= x <= 0x7A else x - 0x20 for x in n] for n in names]
        if up != sorted(up):
            return ["a node out of order"]
    return [] if hostile else ["no hostile name"]


def check_eas(v, base, what):
    """Every $EA chains to its end and agrees with its
    $EA_INFORMATION."""
    out = []
    for f in v.files.values():
        ea = [a for a in f.attrs if a.type == AT_EA]
        info = [a for a in f.attrs if a.type == AT_EA_INFORMATION]
        if not ea:
            continue
        a = ea[0]
        val = a.value() if not a.nonres else v.stream_of(f, AT_EA).read(0, a.dsize)
        o, packed, need = 0, 0, 0
        while True:
            nxt, fl, nl, vl = struct.unpack_from("<IBBH", val, o)
            size = (8 + nl + 1 + vl + 3) & ~3
            packed += 4 + nl + 1 + vl
            need += fl >> 7
            if o + size == len(val) and nxt in (0, size):
                break
            if nxt != size:
                out.append("rec %d $EA entry at %d: next %d, size %d" % (f.num, o, nxt, size))
                break
            o += size
        if not info or info[0].value() != struct.pack("<HHI", packed & 0xFFFF, need, len(val)):
            out.append("rec %d $EA_INFORMATION disagrees" % f.num)
    return out


def check_same_mft(v, base, what):
    same = all(n in v.files and v.files[n].rec.data == base.files[n].rec.data for n in base.files)
    return [] if same else ["MFT records changed"]


def check_lists(v, base, what):
    """The target's attribute list parses to its end."""
    f = target(v, what)
    if not f:
        return ["no target record"]
    for g, a, st, ents in v.alists:
        if g is f:
            size = a.dsize if a.nonres else a.vlen
            return [] if sum(ln for _, ln, _, _ in ents) == size else ["attribute list entries do not fill it"]
    if "$ATTRIBUTE_LIST" in what and "empty" not in what:
        return ["no attribute list"]
    return []


def check_logfile(v, base, what):
    """Restart pages: which ones pass their fixups."""
    f = v.files[2]
    st = v.stream_of(f, AT_DATA)
    ok = []
    for p in range(2):
        d = st.read(p * 4096, 4096)
        uo, uc = u16(d, 4), u16(d, 6)
        good = d[:4] == b"RSTR" and uc == 9 and uo + 18 <= 4096 and all(
            d[i * 512 - 2:i * 512] == d[uo:uo + 2] for i in range(1, 9))
        ok.append(good)
    want = {"torn-first": [False, True], "torn-both": [False, False]}
    kind = what.split(":")[0].replace("regress", "").strip(" :") or what
    for k, w in want.items():
        if k in what:
            return [] if ok == w else ["restart pages pass fixups: %s" % ok]
    if any(k in what for k in ("count", "offset 0x")):
        return [] if not all(ok) else ["fixups still pass"]
    return [] if all(ok) else ["restart pages pass fixups: %s (%s)" % (ok, kind)]
