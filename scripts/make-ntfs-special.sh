#!/bin/sh
# make-ntfs-special.sh: small NTFS volumes in special states for the feature
# tests tests/ntfs-read/feat-*, in build/ntfs-special/:
#
#   special.img     a GPT disk, one NTFS volume per partition; the GPT
#                   partition name is the volume's name (the guest finds it
#                   as PARTNAME in /sys/class/block/*/uevent):
#     opts      mount options: attributes, Latin-1 and non-Latin-1 names,
#               case twins (TWIN.TXT, Twin.Txt, twin.txt)
#     sys       syscalls: label, fragmented/sparse/compressed files, WOF, EFS,
#               a file whose initialized size is below its size
#     small     512-byte clusters: a fragmented file and the same
#               initialized-size file (pages that span several runs)
#     bootbak   sector 0 zeroed: only the backup boot sector is left
#     noboot    both boot sectors zeroed
#     dirty     $Volume's VOLUME_INFORMATION flags with 0x0001 (dirty)
#     hiber     hiberfil.sys in the root starting with "hibr"
#     logfile   $LogFile restart pages with a client in use, not clean
#     mirr      $MFTMirr's copy of record 0 differs from $MFT's
#     upcase    $UpCase's data zeroed
#     v12       $Volume's version patched to 1.2
#     forms     valid forms ntfs-3g reads but never writes (FORMS below):
#               non-resident streams with no runs (unnamed and named
#               $DATA, one with its old mapping pairs left in place,
#               sparse, compressed, in a file with an attribute list,
#               $EA), directories with an empty $INDEX_ALLOCATION
#   special-4k.img  a volume with 4096-byte sectors, to be attached with
#                   4096-byte logical blocks (DISKS "path:ro:4k", vm.sh)
#   special.meta    what the tests expect, tab-separated (see the end)
#
# Each volume: mkntfs on a file, filled through ntfs-3g (FUSE; never the
# host kernel's ntfs3), read back through a fresh read-only ntfs-3g mount,
# then patched byte-wise (python3; MFT records with their update sequence
# applied and re-applied) into its special state.  Partition 1 (opts) is a
# healthy volume: images.sh walks partition 1 of an unknown disk with both
# drivers.
#
# Idempotent: build/ntfs-special/stamp holds a hash of this script and the
# ntfs-3g version.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ntfs-3g.sh"
OUT=$BUILD/ntfs-special
SELF=$TOP/scripts/make-ntfs-special.sh

for t in mkntfs ntfs-3g ntfsinfo ntfscat setfattr getfattr python3 fallocate mountpoint; do
	command -v "$t" >/dev/null 2>&1 || die "make-ntfs-special: $t missing (scripts/deps.sh)"
done
key=$( (cat "$SELF"; dpkg-query -W -f='${Version}' ntfs-3g 2>/dev/null || true) |
	sha256sum | cut -d' ' -f1)
if [ "$(cat "$OUT/stamp" 2>/dev/null)" = "$key" ] && [ -f "$OUT/special.img" ] &&
	[ -f "$OUT/special-4k.img" ] && [ -f "$OUT/special.meta" ]; then
	say NTFS "special images up to date: ${OUT#"$TOP"/}"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "make-ntfs-special: needs root (FUSE mounts)"
[ -c /dev/fuse ] || die "make-ntfs-special: /dev/fuse missing"

NEW=$OUT.new
LOG=$LOGS/ntfs-special.log
MNT=$NEW/mnt
trap 'fuse_abandon "$NEW"' EXIT
trap 'exit 1' INT TERM HUP
rm -rf "$NEW"
mkdir -p "$NEW/vol" "$MNT"
: >"$LOG"
say NTFS "building special images in ${OUT#"$TOP"/} (log: ${LOG#"$TOP"/})"
start=$(date +%s)

H=$NEW/h.py
cat >"$H" <<'EOF'
"""Helpers: deterministic content, the fragmenter, NTFS patching, GPT."""
import hashlib, os, struct, sys, uuid, zlib

CHUNK = 1 << 16

def block(seed, i, kind):
    if kind == "rand":
        return hashlib.shake_256(b"%s:%d" % (seed, i)).digest(CHUNK)
    line = b"%s line %06d: the quick brown fox jumps over the lazy dog\n"
    out, n = b"", i * 1000
    while len(out) < CHUNK:
        out += line % (seed, n)
        n += 1
    return out[:CHUNK]

def data(seed, size, kind="rand"):
    seed = seed.encode()
    out = b"".join(block(seed, i, kind) for i in range((size + CHUNK - 1) // CHUNK))
    return out[:size]

def write_at(path, off, size, kind, seed=None):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    os.pwrite(fd, data(seed or os.path.basename(path), size, kind), off)
    os.close(fd)

def fragment(path, runs):
    """Fill the volume, give back 2*runs + 400 clusters at the end of the
    filler, then grow PATH and a partner one cluster at a time in turn:
    each allocation goes to the next free cluster after the file's last
    one, so the two interleave and PATH gets about RUNS extents."""
    d = os.path.dirname(path)
    cl = os.statvfs(d).f_bsize
    filler, partner = d + "/.filler", d + "/.partner"
    content = data("frag", (runs + 1) * cl)
    ft = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    fp = os.open(partner, os.O_WRONLY | os.O_CREAT, 0o644)
    os.pwrite(ft, content[:cl], 0)
    os.pwrite(fp, bytes(cl), 0)
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    pos, step, zero = 0, 1 << 20, bytes(1 << 20)
    while True:
        try:
            pos += os.pwrite(fd, zero[:step], pos)
        except OSError:
            if step == cl:
                break
            step = cl
    os.ftruncate(fd, max(0, pos - (2 * runs + 400) * cl))
    os.close(fd)
    for i in range(1, runs + 1):
        os.pwrite(ft, content[i * cl:(i + 1) * cl], i * cl)
        os.pwrite(fp, bytes(cl), i * cl)
    os.close(ft)
    os.close(fp)
    os.unlink(partner)
    os.unlink(filler)

def wof_reparse():
    """[MS-FSCC] 2.1.2.1 with IO_REPARSE_TAG_WOF: WOF_EXTERNAL_INFO
    (version 1, provider 2 = file) + FILE_PROVIDER_EXTERNAL_INFO_V1
    (version 1, algorithm 0 = XPRESS4K)."""
    body = struct.pack("<IIII", 1, 2, 1, 0)
    return struct.pack("<IHH", 0x80000017, len(body), 0) + body

def wof_stream(content):
    """WofCompressedData for XPRESS4K: a table of the end offsets of the
    chunks but the last (relative to the end of the table), then the
    chunks; a chunk whose stored size equals its size is stored raw."""
    chunks = [content[i:i + 4096] for i in range(0, len(content), 4096)]
    ends, e = [], 0
    for c in chunks[:-1]:
        e += len(c)
        ends.append(e)
    return struct.pack("<%dI" % len(ends), *ends) + b"".join(chunks)

# ---- NTFS, for patching ----------------------------------------------------

def runlist(mp):
    """Decode mapping pairs: [(vcn, lcn or None, length)]."""
    out, i, vcn, lcn = [], 0, 0, 0
    while i < len(mp) and mp[i]:
        ls, os_ = mp[i] & 15, mp[i] >> 4
        ln = int.from_bytes(mp[i + 1:i + 1 + ls], "little")
        if os_:
            lcn += int.from_bytes(mp[i + 1 + ls:i + 1 + ls + os_], "little", signed=True)
            out.append((vcn, lcn, ln))
        else:
            out.append((vcn, None, ln))
        vcn += ln
        i += 1 + ls + os_
    return out

class Vol:
    def __init__(self, path):
        self.f = open(path, "r+b")
        b = self.read(0, 512)
        bps = struct.unpack_from("<H", b, 0x0b)[0]
        spc = b[0x0d] if b[0x0d] <= 0x80 else 1 << (256 - b[0x0d])
        self.cs = bps * spc
        self.mft_lcn, self.mirr_lcn = struct.unpack_from("<QQ", b, 0x30)
        c = struct.unpack_from("<b", b, 0x40)[0]
        self.rs = c * self.cs if c > 0 else 1 << -c
        self.mft = [(0, self.mft_lcn, 1 << 40)]
        rec = self.record(0)
        self.mft = self.data_runs(rec)

    def read(self, off, n):
        self.f.seek(off)
        return bytearray(self.f.read(n))

    def write(self, off, b):
        self.f.seek(off)
        self.f.write(b)

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
        b = self.read(self.rec_off(n, mirror), self.rs)
        assert b[:4] == b"FILE", (n, bytes(b[:4]))
        uo, uc = struct.unpack_from("<HH", b, 4)
        stride = self.rs // (uc - 1)
        usn = b[uo:uo + 2]
        for i in range(1, uc):
            p = i * stride - 2
            assert b[p:p + 2] == usn, "record %d: bad fixup" % n
            b[p:p + 2] = b[uo + 2 * i:uo + 2 * i + 2]
        return b

    def put_record(self, n, b, mirror=False):
        b = bytearray(b)
        uo, uc = struct.unpack_from("<HH", b, 4)
        stride = self.rs // (uc - 1)
        usn = b[uo:uo + 2]
        for i in range(1, uc):
            p = i * stride - 2
            b[uo + 2 * i:uo + 2 * i + 2] = b[p:p + 2]
            b[p:p + 2] = usn
        self.write(self.rec_off(n, mirror), b)

    @staticmethod
    def attrs(rec):
        o = struct.unpack_from("<H", rec, 0x14)[0]
        while o + 8 <= len(rec):
            t, ln = struct.unpack_from("<II", rec, o)
            if t == 0xffffffff or ln == 0:
                return
            yield t, o, ln
            o += ln

    def attr(self, rec, typ):
        for t, o, ln in self.attrs(rec):
            if t == typ and rec[o + 9] == 0:	# unnamed
                return o
        raise SystemExit("no attribute 0x%x" % typ)

    def data_runs(self, rec):
        o = self.attr(rec, 0x80)
        assert rec[o + 8], "resident"
        mo = struct.unpack_from("<H", rec, o + 0x20)[0]
        return runlist(rec[o + mo:o + struct.unpack_from("<I", rec, o + 4)[0]])

    def resident_value(self, rec, typ):
        o = self.attr(rec, typ)
        vl, vo = struct.unpack_from("<IH", rec, o + 0x10)
        return o + vo, vl

    def find(self, name, parent=5):
        """The base record of the file NAME in directory record PARENT."""
        for n in range(16, 4096):
            try:
                rec = self.record(n)
            except AssertionError:
                continue
            if not struct.unpack_from("<H", rec, 0x16)[0] & 1:
                continue
            for t, o, ln in self.attrs(rec):
                if t != 0x30:
                    continue
                vo = o + struct.unpack_from("<H", rec, o + 0x14)[0]
                pr = struct.unpack_from("<Q", rec, vo)[0] & ((1 << 48) - 1)
                nl = rec[vo + 0x40]
                nm = rec[vo + 0x42:vo + 0x42 + 2 * nl].decode("utf-16-le")
                if nm == name and pr == parent:
                    return n
        raise SystemExit("%s not found" % name)

def volume_info(v, fn):
    """Change $Volume's VOLUME_INFORMATION in $MFT and in $MFTMirr."""
    for mirror in (False, True):
        rec = v.record(3, mirror)
        o, _ = v.resident_value(rec, 0x70)
        fn(rec, o)
        v.put_record(3, rec, mirror)

def restart_page(page, file_size):
    """A $LogFile restart page (RSTR, version 1.1) whose restart area has
    client 0 ("NTFS") in use and no RESTART_VOLUME_IS_CLEAN (0x0002)."""
    p = bytearray(page)
    uc = page // 512 + 1
    ra = (0x1e + 2 * uc + 7) & ~7
    struct.pack_into("<4sHHQIIHhh", p, 0, b"RSTR", 0x1e, uc, 0, page, page, ra, 1, 1)
    lsn = 0x400000
    struct.pack_into("<QHHHHIHHQIHHI", p, ra, lsn, 1, 0xffff, 0x0000, 0x0000,
                     67 - file_size.bit_length(), 0x30 + 0xa0, 0x30, file_size, 0, 0x30, 0x40, 1)
    name = "NTFS".encode("utf-16-le")
    struct.pack_into("<QQHHH6xI", p, ra + 0x30, lsn, lsn, 0xffff, 0xffff, 1, len(name))
    p[ra + 0x30 + 0x20:ra + 0x30 + 0x20 + len(name)] = name
    usn = b"\x01\x00"
    p[0x1e:0x20] = usn
    for i in range(1, uc):
        q = i * 512 - 2
        p[0x1e + 2 * i:0x20 + 2 * i] = p[q:q + 2]
        p[q:q + 2] = usn
    return p

def patch(img, what, arg=None):
    v = Vol(img)
    if what == "bootbak":		# sector 0 only
        v.write(0, bytes(512))
    elif what == "noboot":		# and the backup in the last sector
        v.write(0, bytes(512))
        v.f.seek(0, 2)
        v.write(v.f.tell() - 512, bytes(512))
    elif what == "dirty":
        def f(rec, o):
            struct.pack_into("<H", rec, o + 10, struct.unpack_from("<H", rec, o + 10)[0] | 1)
        volume_info(v, f)
    elif what == "v12":
        def f(rec, o):
            rec[o + 8], rec[o + 9] = 1, 2
        volume_info(v, f)
    elif what == "mirr":		# one byte of record 0's $STANDARD_INFORMATION
        rec = v.record(0, True)
        o, _ = v.resident_value(rec, 0x10)
        rec[o + 1] ^= 0x5a
        v.put_record(0, rec, True)
    elif what == "upcase":
        for vcn, lcn, ln in v.data_runs(v.record(10)):
            v.write(lcn * v.cs, bytes(ln * v.cs))
    elif what == "logfile":
        rec = v.record(2)
        runs = v.data_runs(rec)
        o = v.attr(rec, 0x80)
        size = struct.unpack_from("<Q", rec, o + 0x30)[0]
        for off in (0, 4096):
            v.write(v.vcn_off(runs, off), restart_page(4096, size))
    elif what == "efs":		# $DATA attribute header flags |= 0x4000
        n = v.find(arg)
        rec = v.record(n)
        o = v.attr(rec, 0x80)
        struct.pack_into("<H", rec, o + 12, struct.unpack_from("<H", rec, o + 12)[0] | 0x4000)
        v.put_record(n, rec)
        print(n)
    elif what == "valid":		# $DATA initialized size cut to 5000 bytes
        n = v.find(arg)
        rec = v.record(n)
        o = v.attr(rec, 0x80)
        size = struct.unpack_from("<Q", rec, o + 0x30)[0]
        runs = v.data_runs(rec)
        content = b"".join(bytes(v.read(v.vcn_off(runs, off), v.cs))
                           for off in range(0, size, v.cs))[:size]
        valid = 5000
        struct.pack_into("<Q", rec, o + 0x38, valid)
        v.put_record(n, rec)
        # what a reader must see: zeros from the initialized size on
        print(size, hashlib.sha256(content[:valid] + bytes(size - valid)).hexdigest())
    else:
        raise SystemExit("unknown patch " + what)
    v.f.close()

def gpt(out, parts):
    """A GPT disk (512-byte sectors) with one partition per image, 1 MiB
    aligned, named after the image, type "Microsoft basic data"."""
    S, MiB = 512, 1 << 20
    layout, lba = [], MiB // S
    for spec in parts:
        path, name = spec.split("=", 1)
        n = os.path.getsize(path) // S
        layout.append((path, name, lba, n))
        lba += (n * S + MiB - 1) // MiB * MiB // S
    total = lba + MiB // S
    last = total - 1
    ent = bytearray(128 * 128)
    btype = uuid.UUID("EBD0A0A2-B9E5-4433-87C0-68B6B72699C7").bytes_le
    for i, (path, name, start, n) in enumerate(layout):
        uid = uuid.uuid5(uuid.NAMESPACE_URL, "hx-ntfs-special/" + name).bytes_le
        struct.pack_into("<16s16sQQQ72s", ent, i * 128, btype, uid, start, start + n - 1, 0,
                         name.encode("utf-16-le"))
    ecrc = zlib.crc32(ent)
    disk = uuid.uuid5(uuid.NAMESPACE_URL, "hx-ntfs-special").bytes_le

    def header(cur, other, entries):
        h = bytearray(struct.pack("<8sIIIIQQQQ16sQIII", b"EFI PART", 0x10000, 92, 0, 0,
                                  cur, other, 34, last - 33, disk, entries, 128, 128, ecrc))
        struct.pack_into("<I", h, 16, zlib.crc32(h))
        return bytes(h).ljust(S, b"\0")
    mbr = bytearray(S)
    struct.pack_into("<B3sB3sII", mbr, 446, 0, b"\x00\x02\x00", 0xee, b"\xff\xff\xff", 1,
                     min(total - 1, 0xffffffff))
    mbr[510:512] = b"\x55\xaa"
    with open(out, "wb") as f:
        f.truncate(total * S)
        f.write(mbr + header(1, last, 2) + ent)
        f.seek((last - 32) * S)
        f.write(ent + header(last, 1, last - 32))
        for path, name, start, n in layout:
            f.seek(start * S)
            with open(path, "rb") as src:
                while True:
                    b = src.read(MiB)
                    if not b:
                        break
                    if b.count(0) == len(b):
                        f.seek(len(b), 1)
                    else:
                        f.write(b)

# ---- the "forms" volume: valid attribute forms, made byte-wise ------------

def u16(b, o):
    return struct.unpack_from("<H", b, o)[0]

def u32(b, o):
    return struct.unpack_from("<I", b, o)[0]

def u64(b, o):
    return struct.unpack_from("<Q", b, o)[0]

def attr_name(rec, o):
    nl, no = rec[o + 9], u16(rec, o + 10)
    return bytes(rec[o + no:o + no + 2 * nl]).decode("utf-16-le")

def find_attr(rec, typ, name=""):
    for t, o, ln in Vol.attrs(rec):
        if t == typ and attr_name(rec, o) == name:
            return o
    raise SystemExit("no attribute 0x%x %r" % (typ, name))

def replace_attr(rec, o, new):
    """Put NEW (a whole attribute) in place of the attribute at O; what
    follows it moves, bytes in use follow."""
    ln, used, alloc = u32(rec, o + 4), u32(rec, 0x18), u32(rec, 0x1c)
    tail = bytes(rec[o + ln:used])
    end = o + len(new) + len(tail)
    assert len(new) % 8 == 0 and end <= alloc, "record full"
    rec[o:end] = bytes(new) + tail
    if end < used:
        rec[end:used] = bytes(used - end)
    struct.pack_into("<I", rec, 0x18, end)

def insert_attr(rec, new):
    """Insert NEW after the attributes of its type, with the record's next
    instance number."""
    new = bytearray(new)
    pos = u32(rec, 0x18) - 8			# the end marker
    for t, o, ln in Vol.attrs(rec):
        if t > u32(new, 0):
            pos = o
            break
    inst = u16(rec, 0x28)
    struct.pack_into("<H", new, 14, inst)
    struct.pack_into("<H", rec, 0x28, inst + 1)
    used = u32(rec, 0x18)
    assert used + len(new) <= u32(rec, 0x1c), "record full"
    rec[pos:used + len(new)] = bytes(new) + bytes(rec[pos:used])
    struct.pack_into("<I", rec, 0x18, used + len(new))

def nonres_empty(typ, name="", instance=0, flags=0, cu=0):
    """A non-resident attribute with no runs, the form of a stream cut to
    zero: lowest VCN 0, highest VCN -1, mapping pairs = the terminator
    only, allocated, data and initialized sizes 0.  Compressed or sparse
    (FLAGS 0x0001, 0x8000): the longer header, compressed size 0 too."""
    nm = name.encode("utf-16-le")
    hdr = 0x48 if flags & 0x8001 else 0x40
    mp = (hdr + len(nm) + 7) & ~7
    ln = (mp + 1 + 7) & ~7
    a = bytearray(ln)
    struct.pack_into("<IIBBHHH", a, 0, typ, ln, 1, len(nm) // 2, hdr, flags, instance)
    struct.pack_into("<QqHB", a, 0x10, 0, -1, mp, cu)
    a[hdr:hdr + len(nm)] = nm
    return a

def resident(typ, value, name=""):
    nm = name.encode("utf-16-le")
    vo = (0x18 + len(nm) + 7) & ~7
    a = bytearray((vo + len(value) + 7) & ~7)
    struct.pack_into("<IIBBHHHIH", a, 0, typ, len(a), 0, len(nm) // 2, 0x18, 0, 0,
                     len(value), vo)
    a[0x18:0x18 + len(nm)] = nm
    a[vo:vo + len(value)] = value
    return a

def attr_runs(rec, o):
    return runlist(rec[o + u16(rec, o + 0x20):o + u32(rec, o + 4)])

def free_clusters(v, runs):
    """Clear the $Bitmap bits of RUNS [(vcn, lcn or None, length)]."""
    bm = v.data_runs(v.record(6))
    for vcn, lcn, ln in runs:
        for c in range(lcn, lcn + ln) if lcn is not None else ():
            off = v.vcn_off(bm, c // 8)
            b = v.read(off, 1)
            b[0] &= ~(1 << (c % 8)) & 0xff
            v.write(off, b)

def lookup(v, path):
    """The base record of PATH ("dir/name"), by the $FILE_NAMEs of every
    record (one in an extension record names its base record)."""
    count = u64(v.record(0), v.attr(v.record(0), 0x80) + 0x30) // v.rs
    parent = 5
    for part in path.split("/"):
        hit = None
        for n in range(16, count):
            try:
                rec = v.record(n)
            except AssertionError:
                continue
            if not u16(rec, 0x16) & 1:
                continue
            for t, o, ln in Vol.attrs(rec):
                vo = o + u16(rec, o + 0x14)
                if (t == 0x30 and u64(rec, vo) & ((1 << 48) - 1) == parent and
                        rec[vo + 0x42:vo + 0x42 + 2 * rec[vo + 0x40]].decode("utf-16-le")
                        == part):
                    hit = u64(rec, 0x20) & ((1 << 48) - 1) or n
        if hit is None:
            raise SystemExit("%s not found" % path)
        parent = hit
    return parent

def shape(v, n):
    """What the base record N holds beyond its names and security: one
    "TYPE[:NAME] ..." item per attribute."""
    names = {0x20: "$ATTRIBUTE_LIST", 0x80: "$DATA", 0x90: "$INDEX_ROOT",
             0xa0: "$INDEX_ALLOCATION", 0xb0: "$BITMAP", 0xd0: "$EA_INFORMATION",
             0xe0: "$EA", 0xc0: "$REPARSE_POINT"}
    rec, out = v.record(n), []
    for t, o, ln in Vol.attrs(rec):
        if t not in names:
            continue
        s = names[t] + (":" + attr_name(rec, o) if rec[o + 9] else "")
        if rec[o + 8]:
            mo = u16(rec, o + 0x20)
            s += " non-resident vcn %d..%d sizes %d/%d/%d flags 0x%04x cu %d pairs %s" % (
                u64(rec, o + 0x10), struct.unpack_from("<q", rec, o + 0x18)[0],
                u64(rec, o + 0x28), u64(rec, o + 0x30), u64(rec, o + 0x38), u16(rec, o + 12),
                rec[o + 0x22], "0" if not rec[o + mo] else "%d-runs" % len(attr_runs(rec, o)))
        elif t == 0x90:
            vo = o + u16(rec, o + 0x14)
            s += " resident, %s index" % ("large" if rec[vo + 0x1c] & 1 else "small")
        else:
            s += " resident %d bytes" % u32(rec, o + 0x10)
        out.append(s)
    return "; ".join(out)

def make_form(v, n, what, name):
    rec = v.record(n)
    if what == "empty":	# the $DATA named NAME: non-resident, no runs
        o = find_attr(rec, 0x80, name)
        flags, cu = 0, 0
        if rec[o + 8]:
            assert u64(rec, o + 0x10) == 0 and \
                u64(rec, o + 0x18) + 1 == u64(rec, o + 0x28) // v.cs, "not one extent"
            free_clusters(v, attr_runs(rec, o))
            flags, cu = u16(rec, o + 12), rec[o + 0x22]
        replace_attr(rec, o, nonres_empty(0x80, name, u16(rec, o + 14), flags, cu))
    elif what == "stale":	# the same in place: the old mapping pairs stay
        o = find_attr(rec, 0x80, name)
        assert rec[o + 8] and u64(rec, o + 0x10) == 0 and \
            u64(rec, o + 0x18) + 1 == u64(rec, o + 0x28) // v.cs, "not one extent"
        free_clusters(v, attr_runs(rec, o))
        struct.pack_into("<q", rec, o + 0x18, -1)
        struct.pack_into("<QQQ", rec, o + 0x28, 0, 0, 0)
        if u16(rec, o + 12) & 0x8001:
            struct.pack_into("<Q", rec, o + 0x40, 0)
    elif what == "dir":	# a small index gets an empty $INDEX_ALLOCATION
        o = find_attr(rec, 0x90, "$I30")
        assert not rec[o + u16(rec, o + 0x14) + 0x1c] & 1, "a large index"
        insert_attr(rec, nonres_empty(0xa0, "$I30"))
        insert_attr(rec, resident(0xb0, bytes(8), "$I30"))
    elif what == "ea":	# no EA: $EA_INFORMATION zero, $EA non-resident, no runs
        insert_attr(rec, resident(0xd0, bytes(8)))
        insert_attr(rec, nonres_empty(0xe0))
    else:
        raise SystemExit("unknown form " + what)
    v.put_record(n, rec)

def forms(img, specs, make):
    """SPECS: "WHAT:PATH[:NAME]" (make the forms when MAKE); prints
    "PATH<TAB>shape" once for each PATH."""
    v, done = Vol(img), {}
    for spec in specs:
        what, path, name = (spec + "::").split(":")[:3]
        done.setdefault(path, lookup(v, path))
        if make:
            make_form(v, done[path], what, name)
    for path, n in done.items():
        print("%s\t%s" % (path, shape(v, n)))
    v.f.close()

cmd, a = sys.argv[1], sys.argv[2:]
if cmd == "gen":		# gen PATH SIZE rand|text [OFFSET [SEED]]
    write_at(a[0], int(a[3]) if len(a) > 3 else 0, int(a[1]), a[2], a[4] if len(a) > 4 else None)
elif cmd == "fragment":		# fragment PATH RUNS
    fragment(a[0], int(a[1]))
elif cmd == "wof":		# wof PATH SIZE: a WOF file with SIZE bytes of text
    content = data("wof", int(a[1]), "text")
    with open(a[0], "wb") as f:
        f.truncate(len(content))
    with open(a[0] + ":WofCompressedData", "wb") as f:
        f.write(wof_stream(content))
    os.setxattr(a[0], "system.ntfs_reparse_data", wof_reparse())
    print(hashlib.sha256(content).hexdigest())
elif cmd == "runs":		# runs VOLUME PATH < ntfsinfo -v -F PATH
    sec, out, info = None, [], {}
    for line in sys.stdin:
        f = line.split()
        if line.startswith("Dumping attribute"):
            sec = "data" if "$DATA" in line and sec is None else ("done" if sec else sec)
            continue
        if sec != "data" or not f:
            continue
        if line.strip().startswith("Name length:") and f[2] != "0":
            raise SystemExit("the first $DATA is named")
        for key, label in (("flags", "Attribute flags:"), ("size", "Data size:"),
                           ("init", "Initialized size:")):
            if line.strip().startswith(label):
                info[key] = f[len(label.split())]
        if len(f) == 3 and f[0].startswith("0x"):
            lcn = -1 if f[1] == "<HOLE>" else int(f[1], 16)
            out.append("%s\trun\t%s\t%d\t%d\t%d" % (a[0], a[1], int(f[0], 16), lcn, int(f[2], 16)))
    if not out:
        raise SystemExit("no runlist")
    print("\n".join(out))
    print("%s\tsizes\t%s\t%s\t%s\t%s" % (a[0], a[1], info["size"], info.get("init", info["size"]),
                                        info["flags"]))
elif cmd == "patch":		# patch IMG WHAT [ARG]
    patch(a[0], a[1], a[2] if len(a) > 2 else None)
elif cmd == "gpt":		# gpt OUT IMG=NAME...
    gpt(a[0], a[1:])
elif cmd == "forms":		# forms IMG make|check SPEC...
    forms(a[0], a[2:], a[1] == "make")
else:
    raise SystemExit("unknown command " + cmd)
EOF
h() {
	python3 "$H" "$@"
}

META=$NEW/special.meta
: >"$META"
meta() {	# VOLUME KEY FIELD...: one tab-separated line
	(IFS="$(printf '\t')"; echo "$*") >>"$META"
}

# volume NAME SIZE LABEL FILLER [MKNTFS-OPTIONS]: mkntfs, fill through
# ntfs-3g, run $POST IMG when set (patches that the files must be read
# back with), then record the geometry and every regular file's size and
# SHA-256 as a fresh read-only ntfs-3g mount reads them (SKIP: paths not
# read back).
SKIP=
POST=
volume() {
	img=$NEW/vol/$1.img
	truncate -s "$2" "$img"
	mkntfs -F -f -q -L "$3" ${5:+"$5"} "$img" >>"$LOG" 2>&1 || die "mkntfs $1 failed; log: $LOG"
	fuse_mount "$img" streams_interface=windows,noatime
	( cd "$MNT" && "$4" ) >>"$LOG" 2>&1 || die "filling $1 failed; log: $LOG"
	fuse_umount
	[ -z "$POST" ] || "$POST" "$img"
	fuse_mount "$img" ro,streams_interface=windows
	(cd "$MNT" && find . -type f | LC_ALL=C sort) | while IFS= read -r p; do
		case " $SKIP " in *" ${p#./} "*) continue ;; esac
		meta "$1" file "${p#./}" "$(stat -c %s "$MNT/$p")" "$(sha256sum <"$MNT/$p" | cut -d' ' -f1)"
	done
	fuse_umount
	ntfsinfo -m "$img" 2>/dev/null | awk -v v="$1" '
		/Cluster Size:/ { cs = $3 }
		/Volume Size in Clusters:/ { tot = $5 }
		/Free Clusters:/ { free = $3 }
		/Volume Flags:/ { flags = $3 }
		END { printf "%s\tgeometry\t%s\t%s\t%s\t%s\n", v, cs, tot, free, flags }' >>"$META"
	meta "$1" label "$3"
	SKIP=
	POST=
}

# runs NAME PATH: the runlist of PATH's unnamed $DATA as ntfsinfo shows it,
# one "run PATH VCN LCN LENGTH" line each (LCN -1: a hole), then "sizes
# PATH DATA-SIZE INITIALIZED-SIZE ATTRIBUTE-FLAGS".
runs() {
	ntfsinfo -v -F "/$2" "$NEW/vol/$1.img" 2>/dev/null | h runs "$1" "$2" >>"$META" ||
		die "no runlist for $2 on $1"
}

# ---- the volumes' contents (run in the mounted volume) ----

fill_opts() {
	printf 'Hello, NTFS!\n' >hello.txt
	mkdir Dir hiddendir names
	printf 'inner\n' >Dir/inner.txt
	printf 'read-only\n' >readonly.txt
	setfattr -n system.ntfs_attrib_be -v 0x00000001 readonly.txt
	printf 'hidden\n' >hidden.txt
	setfattr -n system.ntfs_attrib_be -v 0x00000002 hidden.txt
	printf 'in a hidden dir\n' >hiddendir/f.txt
	setfattr -n system.ntfs_attrib_be -v 0x00000012 hiddendir
	printf 'a system file\n' >system.txt
	setfattr -n system.ntfs_attrib_be -v 0x00000004 system.txt
	for n in café.txt Ünïcödé.txt plain.txt 日本語.txt Ωmega.txt 😀.txt 𝄞clef.txt; do
		printf '%s\n' "$n" >"names/$n"
	done
	mkdir 'names/🎵dir🎶'
	printf 'deep\n' >'names/🎵dir🎶/a😀b.txt'
	# POSIX-namespace names that differ in case only (nocase lookups)
	mkdir twins
	printf 'upper\n' >twins/TWIN.TXT
	printf 'mixed\n' >twins/Twin.Txt
	printf 'lower\n' >twins/twin.txt
}

fill_sys() {
	printf 'Hello from sys\n' >hello.txt
	mkdir -p dir/sub sparse compressed
	printf 'file in dir\n' >dir/file.txt
	printf 'deeper\n' >dir/sub/deep.txt
	h gen big.bin 4194304 rand
	# holes: [0,256K) [264K,1M) [1M+64K,2M)
	truncate -s 2097152 sparse/holes.bin
	h gen sparse/holes.bin 8192 rand 262144 holes-a
	h gen sparse/holes.bin 65536 rand 1048576 holes-b
	# data first, hole to the end
	h gen sparse/lead.bin 65536 rand
	truncate -s 1048576 sparse/lead.bin
	truncate -s 1048576 sparse/all-hole.bin
	setfattr -n system.ntfs_attrib_be -v 0x00000800 compressed
	h gen compressed/text.bin 300000 text
	h gen efs.bin 8192 rand
	h gen valid.bin 12288 rand
	h wof wof.bin 10000 >"$NEW/wof.sha"
	h fragment "$PWD/frag.bin" 40
}

# 512-byte clusters: pages span several runs (the folio-in-pieces path)
fill_small() {
	h gen valid.bin 12288 rand
	h fragment "$PWD/frag.bin" 40
}

fill_base() {
	printf 'Hello, NTFS!\n' >hello.txt
	mkdir Dir
	printf 'inner\n' >Dir/inner.txt
}

fill_hiber() {
	fill_base
	python3 -c 'import sys; sys.stdout.buffer.write(b"hibr" + bytes(8188))' >hiberfil.sys
}

fill_upcase() {
	fill_base
	mkdir names
	# Names whose order depends on case folding ("_" sorts after the
	# upper-case letters and before the lower-case ones), in a directory
	# of several index blocks.
	for i in $(seq 100 299); do
		: >"names/f$i.txt"
		: >"names/_u$i"
		: >"names/MiXeD$i.Txt"
	done
}

fill_4k() {
	printf 'Hello, 4K sectors!\n' >hello.txt
	h gen data.bin 300000 rand
}

# The forms volume: streams in forms ntfs-3g reads but never writes, made
# byte-wise after the fill (FORMS: "WHAT:PATH[:STREAM]", see make_form):
#   empty     the $DATA (unnamed, or the named STREAM) becomes non-resident
#             with no runs: lowest VCN 0, highest VCN -1, sizes 0, mapping
#             pairs = the terminator alone (what a writer leaves of a
#             non-resident stream cut to zero); its clusters are freed;
#             compressed and sparse streams keep their flags
#   stale     the same done in place, as the in-tree ntfs3 does it: highest
#             VCN -1 and sizes 0, but the mapping pairs still describe the
#             (freed) clusters: readers must not decode runs past VCN -1
#   dir       a directory whose entries all fit in $INDEX_ROOT (a small
#             index) gets $INDEX_ALLOCATION:$I30 non-resident with no runs
#             and $BITMAP:$I30 resident with 8 zero bytes
#   ea        $EA_INFORMATION (8 zero bytes: no EA) and an $EA
#             non-resident with no runs
# (empty-res.bin, ntfs-3g's own resident empty $DATA, is the control.)
LINK=links/empty-00-of-a-file-with-many-hard-links-and-a-long-name-to-overflow-its-record
FORMS="empty:empty-nr.bin stale:empty-stale.bin empty:empty-nr-ads.bin empty:empty-both.bin
	empty:empty-both.bin:gone empty:data-ads-empty.bin:gone empty:sparse-empty.bin
	empty:compressed/empty.bin empty:$LINK ea:ea-empty.txt dir:emptydir dir:dir-nr"
STREAMS="empty-nr-ads.bin:info empty-both.bin:gone data-ads-empty.bin:gone"
fill_forms() {
	: >empty-res.bin
	for f in empty-nr.bin empty-stale.bin empty-nr-ads.bin empty-both.bin; do
		yes "the bytes of $f" | head -c 20000 >"$f"
	done
	printf 'a stream on an empty file\n' >empty-nr-ads.bin:info
	yes gone | head -c 9000 >empty-both.bin:gone
	yes 'data with an empty stream' | head -c 9000 >data-ads-empty.bin
	yes gone | head -c 9000 >data-ads-empty.bin:gone
	truncate -s 1048576 sparse-empty.bin
	printf 'in a sparse file\n' | dd of=sparse-empty.bin bs=4096 seek=122 conv=notrunc 2>/dev/null
	mkdir compressed links emptydir dir-nr
	setfattr -n system.ntfs_attrib_be -v 0x00000800 compressed
	yes 'compressible text' | head -c 100000 >compressed/empty.bin
	# 12 long names: $FILE_NAMEs in extension records, an $ATTRIBUTE_LIST
	yes links | head -c 20000 >"$LINK"
	for i in 01 02 03 04 05 06 07 08 09 10 11; do
		ln "$LINK" "$(echo "$LINK" | sed "s/-00-/-$i-/")"
	done
	printf 'a file with an empty EA\n' >ea-empty.txt
	printf 'one\n' >dir-nr/one.txt
	printf 'two\n' >dir-nr/two.txt
}

# post_forms IMG: make the forms; a read-write ntfs-3g mount touches the
# files whose unnamed $DATA changed (their directory entries then carry
# size 0 as a writer's would) and must leave the forms as they are.
post_forms() {
	# shellcheck disable=SC2086
	h forms "$1" make $FORMS >"$NEW/forms.made" || die "making the forms failed"
	fuse_mount "$1" streams_interface=windows
	for f in $FORMS; do
		case $f in
		*:*:*) ;;
		empty:* | stale:*) touch -c "$MNT/${f#*:}" ;;
		esac
	done
	fuse_umount
	# shellcheck disable=SC2086
	h forms "$1" check $FORMS >"$NEW/forms.now" || die "reading the forms back failed"
	cmp -s "$NEW/forms.made" "$NEW/forms.now" ||
		die "ntfs-3g changed the forms: $(diff "$NEW/forms.made" "$NEW/forms.now")"
}

# verify_forms: ntfs-3g must read every form: each file with ntfscat (the
# bytes the read-back recorded, nothing on stderr) and through FUSE, each
# directory listed, each named stream read and listed in ntfs.streams.list;
# the streams and directories go to special.meta.
verify_forms() {
	img=$NEW/vol/forms.img
	awk -F '\t' '$1 == "forms" && $2 == "file" { print $3 "\t" $5 }' "$META" >"$NEW/forms.files"
	while IFS="$(printf '\t')" read -r p sum; do
		got=$(ntfscat "$img" "/$p" 2>"$NEW/err" | sha256sum | cut -d' ' -f1)
		if [ "$got" != "$sum" ] || [ -s "$NEW/err" ]; then
			die "forms: ntfscat /$p: $got, want $sum: $(cat "$NEW/err")"
		fi
	done <"$NEW/forms.files"
	fuse_mount "$img" ro,streams_interface=windows
	while IFS="$(printf '\t')" read -r p sum; do
		if ! ls -l "$MNT/$p" >/dev/null || ! cat "$MNT/$p" >/dev/null; then
			die "forms: ntfs-3g cannot read $p"
		fi
	done <"$NEW/forms.files"
	for d in . emptydir dir-nr links; do
		ls -la "$MNT/$d" >/dev/null || die "forms: ntfs-3g cannot list $d"
		meta forms dir "$d" "$(find "$MNT/$d" -mindepth 1 -maxdepth 1 | wc -l)"
	done
	for s in $STREAMS; do
		p=${s%%:*} name=${s#*:}
		sum=$(sha256sum <"$MNT/$p:$name") || die "forms: ntfs-3g cannot read $s"
		meta forms stream "$p" "$name" "$(stat -c %s "$MNT/$p:$name")" "${sum%% *}"
		getfattr --absolute-names --only-values -n ntfs.streams.list "$MNT/$p" | grep -qx "$name" ||
			die "forms: ntfs.streams.list of $p lacks $name"
	done
	fuse_umount
	while IFS="$(printf '\t')" read -r p form; do
		meta forms form "$p" "$form"
	done <"$NEW/forms.made"
}

LC_ALL=C.UTF-8
export LC_ALL
volume opts 16M HX-OPTS fill_opts
SKIP="efs.bin wof.bin valid.bin"
volume sys 48M "HX-Spécial" fill_sys
meta sys wof wof.bin 10000 "$(cat "$NEW/wof.sha")"
for p in frag.bin big.bin sparse/holes.bin sparse/lead.bin sparse/all-hole.bin compressed/text.bin; do
	runs sys "$p"
done
n=$(grep -c "^sys	run	frag.bin	" "$META")
[ "$n" -ge 20 ] || die "frag.bin has only $n runs"
meta sys efs efs.bin "$(h patch "$NEW/vol/sys.img" efs efs.bin)"
# valid.bin: 12 KiB of data with an initialized (valid) size of 5000
# bytes; its "file" line has the contents a reader must see
# shellcheck disable=SC2046
meta sys file valid.bin $(h patch "$NEW/vol/sys.img" valid valid.bin)
SKIP="valid.bin"
volume small 8M HX-SMALL fill_small -c512
# shellcheck disable=SC2046
meta small file valid.bin $(h patch "$NEW/vol/small.img" valid valid.bin)
volume base 8M HX-BASE fill_base
volume hiber 8M HX-HIBER fill_hiber
volume upcase 8M HX-UPCASE fill_upcase
h patch "$NEW/vol/upcase.img" upcase
volume 4k 16M HX-4K fill_4k -s4096
POST=post_forms
volume forms 8M HX-FORMS fill_forms
verify_forms
parts="opts sys small"
for v in bootbak noboot dirty hiber logfile mirr upcase v12; do
	if [ ! -f "$NEW/vol/$v.img" ]; then
		cp --sparse=always "$NEW/vol/base.img" "$NEW/vol/$v.img"
		h patch "$NEW/vol/$v.img" "$v"
		sed -n "s/^base\t/$v\t/p" "$META" >"$META.tmp"
		cat "$META.tmp" >>"$META"
		rm "$META.tmp"
	fi
	parts="$parts $v"
done
parts="$parts forms"
args=
for v in $parts; do
	args="$args $NEW/vol/$v.img=$v"
done
h gpt "$NEW/special.img" $args
mv "$NEW/vol/4k.img" "$NEW/special-4k.img"
rm -rf "$NEW/vol" "$NEW/mnt" "$H" "$NEW/wof.sha" "$NEW"/forms.* "$NEW/err"
fallocate -d "$NEW/special.img"
fallocate -d "$NEW/special-4k.img"

echo "$key" >"$NEW/stamp"
rm -rf "$OUT"
mv "$NEW" "$OUT"
say NTFS "special images done in $(($(date +%s) - start)) s, $(du -sm "$OUT" | cut -f1) MiB on disk"

# special.meta, one line per fact, VOLUME TAB KEY TAB fields:
#   V geometry CLUSTER-SIZE TOTAL-CLUSTERS FREE-CLUSTERS VOLUME-FLAGS  (ntfsinfo -m)
#   V label LABEL                       (mkntfs -L)
#   V file PATH SIZE SHA256             (read back through ntfs-3g)
#   V run PATH VCN LCN LENGTH           (ntfsinfo -v -F; LCN -1: a hole)
#   V sizes PATH SIZE INITIALIZED FLAGS (the same $DATA attribute)
#   sys wof PATH SIZE SHA256            (the WOF file's uncompressed contents)
#   sys efs PATH RECORD                 (the file with the encrypted flag)
#   sys|small file valid.bin SIZE SHA256  (initialized size 5000 < SIZE:
#                                        the contents with zeros from byte 5000)
#   forms form PATH SHAPE               (its attributes as made, for messages)
#   forms stream PATH NAME SIZE SHA256  (a named $DATA, read through ntfs-3g)
#   forms dir PATH ENTRIES              (names ntfs-3g lists, . and .. aside)
# Volume "4k" is special-4k.img; the others are partitions of special.img.
