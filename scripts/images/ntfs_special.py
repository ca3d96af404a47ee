"""ntfs_special.py: the helpers of make-ntfs-special.sh (deterministic
content, the fragmenter, WOF files, runlists from ntfsinfo, NTFS patching,
GPT, the "forms" volume).  The NTFS format comes from ntfs_image.py.

    ntfs_special.py gen PATH SIZE rand|text [OFFSET [SEED]]
    ntfs_special.py fragment PATH RUNS
    ntfs_special.py wof PATH SIZE
    ntfs_special.py runs VOLUME PATH < ntfsinfo -v -F PATH
    ntfs_special.py patch IMG WHAT [ARG]
    ntfs_special.py gpt OUT IMG=NAME...
    ntfs_special.py forms IMG make|check SPEC...
"""
import hashlib
import os
import struct
import sys
import uuid
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ntfs_image import VolumeFile, attr_offsets, attr_name, runs_of, u16, u32, u64  # noqa: E402

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

# ---- NTFS, for patching (the volume: ntfs_image.VolumeFile) ----------------

def volume_info(v, fn):
    """Change $Volume's VOLUME_INFORMATION in $MFT and in $MFTMirr."""
    for mirror in (False, True):
        rec = v.record(3, mirror)
        o, _ = v.resident_value(rec, 0x70)
        fn(rec, o)
        v.put_record(3, rec, mirror)

def restart_page(page, file_size, clean=False):
    """A $LogFile restart page (RSTR, version 1.1) whose restart area has
    client 0 ("NTFS") in use and no RESTART_VOLUME_IS_CLEAN (0x0002); with
    @clean, the client free and the clean flag set, as Windows leaves it
    after a clean shutdown."""
    p = bytearray(page)
    uc = page // 512 + 1
    ra = (0x1e + 2 * uc + 7) & ~7
    struct.pack_into("<4sHHQIIHhh", p, 0, b"RSTR", 0x1e, uc, 0, page, page, ra, 1, 1)
    lsn = 0x400000
    free, in_use, flags = (0x0000, 0xffff, 0x0002) if clean else (0xffff, 0x0000, 0x0000)
    struct.pack_into("<QHHHHIHHQIHHI", p, ra, lsn, 1, free, in_use, flags,
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
    v = VolumeFile(img)
    if what == "bootbak":		# sector 0 only
        v.write(0, bytes(512))
    elif what == "noboot":		# and the backup in the last sector
        v.write(0, bytes(512))
        v.write(v.size() - 512, bytes(512))
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
    elif what in ("logfile", "logclean"):	# logclean: clean, old log pages after
        rec = v.record(2)
        runs = v.data_runs(rec)
        o = v.attr(rec, 0x80)
        size = struct.unpack_from("<Q", rec, o + 0x30)[0]
        clean = what == "logclean"
        for off in (0, 4096):
            v.write(v.vcn_off(runs, off), restart_page(4096, size, clean))
        if clean:
            for off in range(8192, size, 4096):
                v.write(v.vcn_off(runs, off), b"RCRD" + bytes([off >> 12 & 0xff]) * 4092)
    elif what == "efs":		# $DATA attribute header flags |= 0x4000
        n = v.lookup(arg)
        rec = v.record(n)
        o = v.attr(rec, 0x80)
        struct.pack_into("<H", rec, o + 12, struct.unpack_from("<H", rec, o + 12)[0] | 0x4000)
        v.put_record(n, rec)
        print(n)
    elif what == "valid":		# $DATA initialized size cut to 5000 bytes
        n = v.lookup(arg)
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
    v.close()

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

def find_attr(rec, typ, name=""):
    for t, o, ln in attr_offsets(rec):
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
    for t, o, ln in attr_offsets(rec):
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
    return runs_of(rec[o + u16(rec, o + 0x20):o + u32(rec, o + 4)])

def free_clusters(v, runs):
    """Clear the $Bitmap bits of RUNS [(vcn, lcn or None, length)]."""
    bm = v.data_runs(v.record(6))
    for vcn, lcn, ln in runs:
        for c in range(lcn, lcn + ln) if lcn is not None else ():
            off = v.vcn_off(bm, c // 8)
            b = v.read(off, 1)
            b[0] &= ~(1 << (c % 8)) & 0xff
            v.write(off, b)

def shape(v, n):
    """What the base record N holds beyond its names and security: one
    "TYPE[:NAME] ..." item per attribute."""
    names = {0x20: "$ATTRIBUTE_LIST", 0x80: "$DATA", 0x90: "$INDEX_ROOT",
             0xa0: "$INDEX_ALLOCATION", 0xb0: "$BITMAP", 0xd0: "$EA_INFORMATION",
             0xe0: "$EA", 0xc0: "$REPARSE_POINT"}
    rec, out = v.record(n), []
    for t, o, ln in attr_offsets(rec):
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
    v, done = VolumeFile(img), {}
    for spec in specs:
        what, path, name = (spec + "::").split(":")[:3]
        done.setdefault(path, v.lookup(path))
        if make:
            make_form(v, done[path], what, name)
    for path, n in done.items():
        print("%s\t%s" % (path, shape(v, n)))
    v.close()

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
