#!/usr/bin/env python3
"""make-ntfs-damaged.py: one class of damage done to a clean NTFS volume,
for the fsck.ntfs3 host test (tests/host/fsck-ntfs3.sh, tests/fsck/README.md).

    make-ntfs-damaged.py --class CLASS SRC DST    DST = SRC with that damage
    make-ntfs-damaged.py --all SRC DIR            DIR/CLASS.img for every class
    make-ntfs-damaged.py --list                   the classes, one a line

CLASS is the problem class fsck.ntfs3 must report, and only that class
("[CLASS] ..." lines, exit 4): each damage changes exactly one thing and
keeps everything else consistent.  The edits go through the structural
mutator of the corruption fuzzer (scripts/images/ntfs_fuzz_struct.py) and the
volume parser of scripts/images/ntfs_image.py: MFT records and INDX blocks
are written back with their update sequence arrays applied again, records
0-3 also to $MFTMirr (but for the damage that is the mirror), and a
record's attributes are laid out again with their sizes after an edit.

SRC is meant to be a volume of scripts/images/make-fsck-images.sh (it has the
files named below: /dir/file-N.txt, /dir/sub/deep.txt, /cross/one.bin and
two.bin, /big.txt, /links/ with an $ATTRIBUTE_LIST); the whole image is
held in memory, so keep it small.  Prints what it did on stdout.

Format facts: the Linux-NTFS project's documentation and the libyal NTFS
document; this is an independent implementation.
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ntfs_fuzz_struct as nfs  # noqa: E402  (records, fixups, indexes)
import ntfs_image as gen  # noqa: E402  (the volume parser: Volume, File)

u16, u32, u64 = nfs.u16, nfs.u32, nfs.u64
MFT_RECORD_IN_USE = 0x0001
SDS_MIRROR = 0x40000		# $SDS keeps every descriptor twice, 256 KiB apart


class Damage:
    """The source volume, parsed, and an Image (a copy being edited)."""

    def __init__(self, vol):
        self.vol = vol
        self.img = nfs.Image(self.vol)
        self.img.load_bitmap()

    # -- lookups

    def num(self, path):
        """Record number of the base record of the file at path."""
        for f in self.vol.files.values():
            if f.path == path and not (f.base and f.base != f.num):
                return f.num
        raise SystemExit("make-ntfs-damaged: %s not on the volume" % path)

    def nonres(self, num, atype=nfs.AT_DATA, name=""):
        """(Record, index, Attr) of a non-resident attribute in one run."""
        rec = nfs.Record(self.img, num)
        i, a = rec.get(atype, name)
        if not a.nonres or len(a.runs) != 1 or a.runs[0][1] is None:
            raise SystemExit("make-ntfs-damaged: rec %d 0x%x is not one run" % (num, atype))
        return rec, i, a

    # -- bitmaps (plain streams: no fixups)

    def bit(self, m, n):
        return self.img.sread(m, n // 8, 1)[0] >> (n % 8) & 1

    def set_bit(self, m, n, value):
        byte = self.img.sread(m, n // 8, 1)[0]
        byte = byte | 1 << (n % 8) if value else byte & ~(1 << (n % 8))
        self.img.swrite(m, n // 8, bytes([byte]))

    def cluster_bits(self, lcn, n, value):
        for c in range(lcn, lcn + n):
            self.set_bit(self.img.bitmap, c, value)

    def mft_bitmap(self):
        """$MFT:$BITMAP (non-resident in every volume mkntfs makes)."""
        rec = nfs.Record(self.img, 0)
        _, a = rec.get(nfs.AT_BITMAP)
        if not a.nonres:
            raise SystemExit("make-ntfs-damaged: resident $MFT:$BITMAP")
        return nfs.Mapping(self.img.cs, a.runs)

    def save(self, dst):
        with open(dst + ".new", "wb") as f:
            f.write(self.img.buf)
        os.replace(dst + ".new", dst)


# ---------------------------------------------------------------- the damages
# Each takes a Damage and returns what it did.  Their names (underscores
# for dashes) are the classes fsck.ntfs3 prints.

def leaked_cluster(d):
    """A free cluster's $Bitmap bit set: a cluster in use that no file owns."""
    total = d.vol.clusters
    for lcn in list(range(total // 2, total)) + list(range(total // 2)):
        if not d.bit(d.img.bitmap, lcn):
            d.cluster_bits(lcn, 1, 1)
            return "$Bitmap bit of free cluster %d set" % lcn
    raise SystemExit("make-ntfs-damaged: no free cluster")


def cross_linked_cluster(d):
    """/cross/one.bin's run pointed at /cross/two.bin's clusters (the same
    count); its own clusters freed in $Bitmap, so only the sharing is wrong."""
    one, two = d.num("/cross/one.bin"), d.num("/cross/two.bin")
    rec, i, a = d.nonres(one)
    _, _, b = d.nonres(two)
    (n, old), (m, lcn) = a.runs[0], b.runs[0]
    if n != m:
        raise SystemExit("make-ntfs-damaged: one.bin and two.bin differ in clusters")
    nfs.replace_attr(rec, i, nfs.with_runs(a, [(n, lcn)], a.highest, a.alloc, a.dsize, a.init))
    rec.save()
    d.cluster_bits(old, n, 0)
    return "rec %d /cross/one.bin: run of %d clusters moved from LCN %d to LCN %d (rec %d's), " \
        "clusters %d-%d freed in $Bitmap" % (one, n, old, lcn, two, old, old + n - 1)


def cluster_bitmap(d):
    """The $Bitmap bit of /big.txt's first cluster cleared."""
    num = d.num("/big.txt")
    _, _, a = d.nonres(num)
    lcn = a.runs[0][1]
    if not d.bit(d.img.bitmap, lcn):
        raise SystemExit("make-ntfs-damaged: cluster %d already free" % lcn)
    d.cluster_bits(lcn, 1, 0)
    return "$Bitmap bit of cluster %d (rec %d /big.txt) cleared" % (lcn, num)


def mft_bitmap(d):
    """The $MFT:$BITMAP bit of /dir/file-4.txt's record (in use) cleared."""
    num = d.num("/dir/file-4.txt")
    m = d.mft_bitmap()
    if not d.bit(m, num):
        raise SystemExit("make-ntfs-damaged: $MFT:$BITMAP bit %d already clear" % num)
    d.set_bit(m, num, 0)
    return "$MFT:$BITMAP bit of rec %d /dir/file-4.txt cleared" % num


def orphan(d):
    """/dir/sub/deep.txt's entry removed from /dir/sub's $INDEX_ROOT (the
    index header and the attribute's sizes follow): only the entry is gone."""
    parent, num = d.num("/dir/sub"), d.num("/dir/sub/deep.txt")
    ix = nfs.Dir(d.img, d.vol, parent)
    if ix.map is not None:
        raise SystemExit("make-ntfs-damaged: /dir/sub has INDX blocks")
    keep = [e for e in ix.root if e.last or e.ref & ((1 << 48) - 1) != num]
    if len(keep) != len(ix.root) - 1:
        raise SystemExit("make-ntfs-damaged: deep.txt not once in /dir/sub's root")
    ix.set_node("root", keep)
    ix.save()
    return "entry of rec %d deep.txt removed from rec %d /dir/sub's $INDEX_ROOT" % (num, parent)


def index_order(d):
    """/cross/one.bin's and two.bin's entries (names of equal length)
    swapped in /cross's $INDEX_ROOT."""
    parent = d.num("/cross")
    ix = nfs.Dir(d.img, d.vol, parent)
    names = ["".join(map(chr, e.name())) if not e.last else None for e in ix.root]
    try:
        i, j = names.index("one.bin"), names.index("two.bin")
    except ValueError:
        raise SystemExit("make-ntfs-damaged: /cross's root lacks one.bin or two.bin")
    root = list(ix.root)
    root[i], root[j] = root[j], root[i]
    ix.set_node("root", root)
    ix.save()
    return "entries one.bin and two.bin swapped in rec %d /cross's $INDEX_ROOT" % parent


def index_entry(d):
    """/dir/sub/deep.txt's record (resident only) freed: the in-use flag
    and its $MFT:$BITMAP bit cleared; /dir/sub's entry still names it."""
    num = d.num("/dir/sub/deep.txt")
    rec = d.img.record(num)
    if any(a.nonres for a in d.vol.files[num].attrs):
        raise SystemExit("make-ntfs-damaged: deep.txt has non-resident attributes")
    struct.pack_into("<H", rec, 0x16, u16(rec, 0x16) & ~MFT_RECORD_IN_USE)
    d.img.put_record(num, rec)
    d.set_bit(d.mft_bitmap(), num, 0)
    return "rec %d /dir/sub/deep.txt: in-use flag and $MFT:$BITMAP bit cleared" % num


def link_count(d):
    """/dir/file-2.txt's header link count 1 -> 2 (one $FILE_NAME)."""
    num = d.num("/dir/file-2.txt")
    rec = d.img.record(num)
    old = u16(rec, 0x12)
    struct.pack_into("<H", rec, 0x12, old + 1)
    d.img.put_record(num, rec)
    return "rec %d /dir/file-2.txt: link count %d -> %d" % (num, old, old + 1)


def mftmirr(d):
    """One byte of $MFTMirr's copy of record 1 changed (a time in its
    $STANDARD_INFORMATION), fixups valid; $MFT's record 1 unchanged."""
    img, rs = d.img, d.img.rs
    rec = img.read_protected(img.mirr, 1 * rs, rs)
    off = u16(rec, 0x14)
    while u32(rec, off) != nfs.AT_STANDARD_INFORMATION:
        off += u32(rec, off + 4)
    val = off + u16(rec, off + 0x14)
    rec[val + 1] ^= 0x5A		# creation time, second byte
    img.write_protected(img.mirr, 1 * rs, rec)
    return "$MFTMirr's copy of rec 1: byte %d (in $STANDARD_INFORMATION) changed" % (val + 1)


def fixup(d):
    """/dir/file-3.txt's record (resident only) with its first sector's
    check value differing from the update sequence number."""
    num = d.num("/dir/file-3.txt")
    if any(a.nonres for a in d.vol.files[num].attrs):
        raise SystemExit("make-ntfs-damaged: file-3.txt has non-resident attributes")
    rec = d.img.record(num)
    d.img.write_protected(d.img.mft, num * d.img.rs, rec, torn=(1,))
    return "rec %d /dir/file-3.txt: the end of sector 1 differs from the update sequence number" % num


def runlist(d):
    """/big.txt's mapping pairs terminator replaced by an invalid header
    byte (a length field of 9 bytes): the one run before it is intact."""
    num = d.num("/big.txt")
    rec, i, a = d.nonres(num)
    blob = bytearray(rec.attrs[i])
    end = a.mp_off + len(nfs.pack_runs(a.runs)) - 1
    if blob[end] != 0 or end >= a.length:
        raise SystemExit("make-ntfs-damaged: /big.txt's terminator not where expected")
    blob[end] = 0x09
    rec.attrs[i] = blob
    rec.save()
    return "rec %d /big.txt $DATA: mapping pairs terminator at attribute offset %d -> 0x09" % (num, end)


def attr_list(d):
    """One entry of the $ATTRIBUTE_LIST of the many-named file in /links
    that names an extension record pointed at /dir/file-1.txt's record
    instead."""
    f = [g for g in d.vol.files.values() if g.path.startswith("/links/") and not g.flags & 2 and
         not (g.base and g.base != g.num) and any(a.type == nfs.AT_ATTRIBUTE_LIST for a in g.attrs)]
    if not f:
        raise SystemExit("make-ntfs-damaged: no file in /links with an attribute list")
    f = f[0]
    wrong = d.vol.files[d.num("/dir/file-1.txt")]
    for g, a, st, ents in d.vol.alists:
        if g is not f:
            continue
        for off, ln, atype, ref in ents:
            if ref & ((1 << 48) - 1) == f.num:
                continue
            new = struct.pack("<Q", wrong.num | wrong.seq << 48)
            if st is None:		# resident: off is in the record
                rec = d.img.record(f.num)
                rec[off + 0x10:off + 0x18] = new
                d.img.put_record(f.num, rec)
            else:
                d.img.swrite(nfs.Mapping(d.img.cs, [(n, lcn) for _, lcn, n in st.runs]), off + 0x10, new)
            return "rec %d %s: $ATTRIBUTE_LIST entry at %d (type 0x%x in rec %d) -> rec %d /dir/file-1.txt" % (
                f.num, f.path, off, atype, ref & ((1 << 48) - 1), wrong.num)
    raise SystemExit("make-ntfs-damaged: no attribute list entry naming an extension record")


def sdh_hash(d):
    """One byte of the first security descriptor in $Secure:$SDS (the
    first ACE's access mask of its DACL) changed in both copies: the
    stored hash no longer matches."""
    rec = nfs.Record(d.img, 9)
    _, a = rec.get(nfs.AT_DATA, "$SDS")
    m = nfs.Mapping(d.img.cs, a.runs)
    if a.dsize <= SDS_MIRROR:
        raise SystemExit("make-ntfs-damaged: $SDS has no second copy")
    hdr = d.img.sread(m, 0, 20)
    sid, off, ln = u32(hdr, 4), u64(hdr, 8), u32(hdr, 16)
    sd = d.img.sread(m, off + 20, ln - 20)
    dacl = u32(sd, 16)
    # control: self-relative (0x8000) with a DACL present (0x0004)
    if u16(sd, 2) & 0x8004 != 0x8004 or not dacl or dacl + 8 + 8 > len(sd):
        raise SystemExit("make-ntfs-damaged: first descriptor has no usable DACL")
    pos = off + 20 + dacl + 8 + 4		# ACL header, ACE header, mask
    for copy in (pos, pos + SDS_MIRROR):
        b = d.img.sread(m, copy, 1)[0]
        d.img.swrite(m, copy, bytes([b ^ 0x01]))
    return "$SDS descriptor id 0x%x: DACL's first ACE mask byte at %d (and %d) changed" % (
        sid, pos, pos + SDS_MIRROR)


def boot(d):
    """One byte of the backup boot sector's volume serial number changed:
    the backup disagrees with the primary."""
    if d.vol.backup is None:
        raise SystemExit("make-ntfs-damaged: no backup boot sector")
    off = d.vol.backup + 0x48
    d.img.write(off, bytes([d.img.read(off, 1)[0] ^ 0x5A]))
    return "backup boot sector at byte %d: serial number byte 0x48 changed" % d.vol.backup


def sizes(d):
    """/big.txt's $DATA initialized size one byte above its data size
    (still within the allocated size)."""
    num = d.num("/big.txt")
    rec, i, a = d.nonres(num)
    if a.dsize + 1 > a.alloc:
        raise SystemExit("make-ntfs-damaged: /big.txt has no slack in its last cluster")
    blob = bytearray(rec.attrs[i])
    struct.pack_into("<Q", blob, 0x38, a.dsize + 1)
    rec.attrs[i] = blob
    rec.save()
    return "rec %d /big.txt $DATA: initialized size %d, data size %d" % (num, a.dsize + 1, a.dsize)


def record(d):
    """/dir/file-5.txt's header field "this record's number" changed (a
    resident-only file, so nothing else depends on the record)."""
    num = d.num("/dir/file-5.txt")
    rec = d.img.record(num)
    struct.pack_into("<I", rec, 0x2C, num + 1000)
    d.img.put_record(num, rec)
    return "rec %d /dir/file-5.txt: record number field %d" % (num, num + 1000)


def attribute(d):
    """/dir/file-6.txt's resident $DATA claims a value longer than the
    attribute (a resident-only file)."""
    num = d.num("/dir/file-6.txt")
    rec = nfs.Record(d.img, num)
    i, a = rec.get(nfs.AT_DATA)
    if a.nonres:
        raise SystemExit("make-ntfs-damaged: file-6.txt's $DATA is non-resident")
    blob = bytearray(rec.attrs[i])
    struct.pack_into("<I", blob, 0x10, 0x1000)
    rec.attrs[i] = blob
    rec.save()
    return "rec %d /dir/file-6.txt $DATA: resident value length 0x1000 in a %d-byte attribute" % (
        num, a.length)


def volume(d):
    """$Volume's $VOLUME_INFORMATION version 3.1 -> 4.1 (unknown)."""
    rec = nfs.Record(d.img, 3)
    i, a = rec.get(0x70)
    blob = bytearray(rec.attrs[i])
    voff = u16(blob, 0x14)
    old = blob[voff + 8]
    blob[voff + 8] = 4
    rec.attrs[i] = blob
    rec.save()
    return "rec 3 $Volume: major version %d -> 4" % old


def upcase(d):
    """$UpCase maps 'a' to itself instead of to 'A'."""
    rec = nfs.Record(d.img, 10)
    _, a = rec.get(nfs.AT_DATA)
    m = nfs.Mapping(d.img.cs, a.runs)
    if d.img.sread(m, 2 * 0x61, 2) != b"A\0":
        raise SystemExit("make-ntfs-damaged: $UpCase does not map 'a' to 'A'")
    d.img.swrite(m, 2 * 0x61, b"a\0")
    return "$UpCase entry 0x61 ('a'): 'A' -> 'a'"


def index(d):
    """The $BITMAP:$I30 bit of the last INDX block in use of /many
    cleared: a block the index uses is marked free."""
    num = d.num("/many")
    rec = nfs.Record(d.img, num)
    i, a = rec.get(nfs.AT_BITMAP, "$I30")
    if a.nonres:
        raise SystemExit("make-ntfs-damaged: /many's $BITMAP:$I30 is non-resident")
    bits = bytearray(a.value)
    used = [k for k in range(8 * len(bits)) if bits[k // 8] >> (k % 8) & 1]
    if not used:
        raise SystemExit("make-ntfs-damaged: /many has no INDX block in use")
    k = used[-1]
    bits[k // 8] &= ~(1 << (k % 8))
    nfs.replace_attr(rec, i, nfs.resident(nfs.AT_BITMAP, bits, "$I30", a.id, a.flags))
    rec.save()
    return "rec %d /many $BITMAP:$I30: bit %d (of %d set) cleared" % (num, k, len(used))


def secure(d):
    """The length that $Secure's $SII entry of the second security id
    gives its descriptor raised by 4: it no longer matches $SDS."""
    rec = d.img.record(9)
    f = d.vol.files[9]
    for h, a, idx in d.vol.roots:
        if h is not f or a.name != "$SII":
            continue
        keyed = [e for e in idx.entries if not e[3] & 2]
        if len(keyed) < 2:
            raise SystemExit("make-ntfs-damaged: $SII has fewer than 2 entries")
        o = keyed[1][0]
        doff = u16(rec, o)
        pos = o + doff + 16		# data: hash, id, offset (8), length (4)
        old = u32(rec, pos)
        struct.pack_into("<I", rec, pos, old + 4)
        d.img.put_record(9, rec)
        return "rec 9 $Secure $SII: id 0x%x's descriptor length %d -> %d" % (
            u32(rec, o + doff + 4), old, old + 4)
    raise SystemExit("make-ntfs-damaged: no resident $SII")


FILE_ATTRIBUTE_REPARSE_POINT = 0x400
FILE_ATTRIBUTE_DUP_DIRECTORY = 0x10000000


NS_WIN32 = 1


def set_entry_attrs(d, parent, name, bits, namespace=None):
    """OR bits into the file attributes of the $FILE_NAME copy in the
    entry named name of parent's $INDEX_ROOT (and set its namespace);
    returns the entry's record."""
    ix = nfs.Dir(d.img, d.vol, parent)
    root = list(ix.root)
    for k, e in enumerate(root):
        if not e.last and "".join(map(chr, e.name())) == name:
            key = bytearray(e.key)
            struct.pack_into("<I", key, 0x38, u32(key, 0x38) | bits)
            if namespace is not None:
                key[0x41] = namespace
            root[k] = nfs.Entry(e.ref, key, e.child, e.last)
            ix.set_node("root", root)
            ix.save()
            return e.ref & ((1 << 48) - 1)
    raise SystemExit("make-ntfs-damaged: no entry %s in rec %d's root" % (name, parent))


def dup_info(d):
    """/cross's entry of one.bin (a file) claims a directory: the
    directory bit of its copy of the $FILE_NAME data set."""
    parent = d.num("/cross")
    num = set_entry_attrs(d, parent, "one.bin", FILE_ATTRIBUTE_DUP_DIRECTORY)
    return "rec %d /cross's entry of rec %d one.bin: file attributes |= 0x%x" % (
        parent, num, FILE_ATTRIBUTE_DUP_DIRECTORY)


def reparse(d):
    """/cross/two.bin marked a reparse point (0x400 in its
    $STANDARD_INFORMATION) without a $REPARSE_POINT attribute.  Its
    directory entry keeps its bit clear: that copy follows the
    attribute (fsck.ntfs3 compares it with the $REPARSE_POINT)."""
    num = d.num("/cross/two.bin")
    rec = nfs.Record(d.img, num)
    i, a = rec.get(nfs.AT_STANDARD_INFORMATION)
    blob = bytearray(rec.attrs[i])
    pos = u16(blob, 0x14) + 0x20
    struct.pack_into("<I", blob, pos, u32(blob, pos) | FILE_ATTRIBUTE_REPARSE_POINT)
    rec.attrs[i] = blob
    rec.save()
    return "rec %d /cross/two.bin: attributes |= 0x400 in $STANDARD_INFORMATION" % num


def dos_name(d):
    """/cross/one.bin's only name (POSIX namespace, as ntfs-3g writes it)
    made a Win32-only name, in its $FILE_NAME and in its directory entry:
    a Win32 name without its DOS name."""
    parent = d.num("/cross")
    num = set_entry_attrs(d, parent, "one.bin", 0, NS_WIN32)
    rec = nfs.Record(d.img, num)
    i, a = rec.get(nfs.AT_FILE_NAME)
    blob = bytearray(rec.attrs[i])
    pos = u16(blob, 0x14) + 0x41
    old = blob[pos]
    blob[pos] = NS_WIN32
    rec.attrs[i] = blob
    rec.save()
    return "rec %d /cross/one.bin: $FILE_NAME namespace %d -> 1 (Win32), in the entry too" % (num, old)


AT_OBJECT_ID = 0x40


def objid(d):
    """/cross/one.bin given an $OBJECT_ID (a 16-byte GUID) that
    $Extend\\$ObjId:$O does not list, as a driver that forgets the index
    would leave it."""
    num = d.num("/cross/one.bin")
    rec = nfs.Record(d.img, num)
    guid = bytes(range(0x40, 0x50))
    rec.insert(nfs.resident(AT_OBJECT_ID, guid, ident=rec.new_id()))
    rec.save()
    return "rec %d /cross/one.bin: an $OBJECT_ID not in $O" % num


def quota(d):
    """The defaults entry (owner id 1) of $Extend\\$Quota:$Q given version
    3: a quota entry of a version no Windows writes."""
    num = d.num("/$Extend/$Quota")
    rec = nfs.Record(d.img, num)
    i, a = rec.get(nfs.AT_INDEX_ROOT, "$Q")
    blob = bytearray(rec.attrs[i])
    hdr = u16(blob, 0x14) + 0x10
    off, end = hdr + u32(blob, hdr), hdr + u32(blob, hdr + 4)
    while off + 0x14 <= end and not u16(blob, off + 12) & 2:
        if u32(blob, off + 0x10) == 1:
            pos = off + u16(blob, off)
            struct.pack_into("<I", blob, pos, 3)
            rec.attrs[i] = blob
            rec.save()
            return "rec %d $Extend\\$Quota: $Q's defaults entry, version 2 -> 3" % num
        off += u16(blob, off + 8)
    raise SystemExit("make-ntfs-damaged: no defaults entry in $Q's root")


CLASSES = {name.replace("_", "-"): fn for name, fn in [
    ("leaked_cluster", leaked_cluster), ("cross_linked_cluster", cross_linked_cluster),
    ("cluster_bitmap", cluster_bitmap), ("mft_bitmap", mft_bitmap), ("orphan", orphan),
    ("index_order", index_order), ("index_entry", index_entry), ("link_count", link_count),
    ("mftmirr", mftmirr), ("fixup", fixup), ("runlist", runlist), ("attr_list", attr_list),
    ("sdh_hash", sdh_hash), ("boot", boot), ("sizes", sizes), ("record", record),
    ("attribute", attribute), ("volume", volume), ("upcase", upcase), ("index", index),
    ("secure", secure), ("dup_info", dup_info), ("reparse", reparse),
    ("dos_name", dos_name), ("objid", objid), ("quota", quota)]}


def make(vol, cls, dst):
    """DST = the volume vol (parsed) with damage cls; prints what it did."""
    d = Damage(vol)
    what = CLASSES[cls](d)
    d.save(dst)
    print("%s: %s" % (cls, what))


def main():
    a = sys.argv[1:]
    if a == ["--list"]:
        for name, fn in CLASSES.items():
            print("%-22s %s" % (name, " ".join(fn.__doc__.split())))
    elif len(a) == 4 and a[0] == "--class" and a[1] in CLASSES:
        make(gen.Volume(a[2]), a[1], a[3])
    elif len(a) == 3 and a[0] == "--all":
        vol = gen.Volume(a[1])		# parsed once: Damage copies its bytes
        for cls in CLASSES:
            make(vol, cls, os.path.join(a[2], cls + ".img"))
    else:
        raise SystemExit("usage: make-ntfs-damaged.py --class CLASS SRC DST\n"
                         "       make-ntfs-damaged.py --all SRC DIR    (DIR/CLASS.img for each)\n"
                         "       make-ntfs-damaged.py --list\n"
                         "classes: " + " ".join(CLASSES))


if __name__ == "__main__":
    main()
