#!/usr/bin/env python3
"""ntfs-quota.py: the quota control entries of $Extend\\$Quota:$Q, for the
write tests (tests/ntfs-write/88-quota.sh, scripts/test/ntfs-write-verify.sh).

  ntfs-quota.py list IMG          one line per entry: owner id, flags, and
                                  the entry's data in hex
  ntfs-quota.py track IMG         turn quota tracking on in the defaults
                                  entry (owner id 1), as Windows' "enable
                                  quota management" leaves it
  ntfs-quota.py malform IMG       the defaults entry given version 3 (no
                                  Windows writes it), tracking left as is
  ntfs-quota.py check BLANK IMG   IMG's entries are BLANK's, but for the
                                  out-of-date flag (0x200) of the defaults
                                  entry, which must be set exactly when
                                  BLANK tracks quotas (flags 0x10, 0x20 or
                                  0x40); --unjudged: say what changed, exit 0

$Q: keys are le32 owner ids (ULONG collation); the data is a quota control
entry: version (2), flags, bytes used, change time, threshold, limit,
exceeded time, then the owner's SID (none in the defaults entry).  Format
facts: the Linux-NTFS documentation ($Quota), the libyal NTFS document.
Exit 0 when fine, 1 when not, 2 when the volume has no readable $Q."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "images"))
from ntfs_image import Corrupt, VolumeFile, u16, u32  # noqa: E402

EXTEND = 11
DEFAULTS = 1
TRACKING, ENFORCING, REQUESTED, OUT_OF_DATE = 0x10, 0x20, 0x40, 0x200
IN_USE = TRACKING | ENFORCING | REQUESTED


def quota_record(v):
    """The number of $Extend\\$Quota's base record."""
    n = v.dir_lookup(EXTEND, "$Quota")
    if n is None:
        raise Corrupt("no $Extend\\$Quota")
    return n


def entries(v):
    """The record of $Quota, its bytes and every $Q entry, in the order of
    the walk: (owner, data, in the root?, offset of the data in its node's
    bytes)."""
    n = quota_record(v)
    out, rec = [], None
    for d, hdr in v.index_nodes(n, "$Q"):
        rec = d if rec is None else rec
        off, end = hdr + u32(d, hdr), hdr + u32(d, hdr + 4)
        while off + 0x10 <= end:
            ln, kl, fl = u16(d, off + 8), u16(d, off + 10), u16(d, off + 12)
            if fl & 2:
                break
            do, dl = u16(d, off), u16(d, off + 2)
            if kl != 4 or do + dl > ln:
                raise Corrupt("$Q: an entry's key or data runs past it")
            out.append((u32(d, off + 0x10), bytes(d[off + do:off + do + dl]), d is rec, off + do))
            off += ln
    return n, rec, out


def flags(data):
    return u32(data, 4) if len(data) >= 8 else None


def cmd_list(img):
    for owner, data, in_root, _ in sorted(entries(VolumeFile(img))[2]):
        print("%d 0x%x %s %s" % (owner, flags(data) or 0, "root" if in_root else "block", data.hex()))
    return 0


def cmd_track(img, version=None):
    v = VolumeFile(img)
    n, rec, ents = entries(v)
    hit = [e for e in ents if e[0] == DEFAULTS]
    if len(hit) != 1 or not hit[0][2] or len(hit[0][1]) < 0x30:
        raise SystemExit("%s: no defaults entry of $Q in the root to patch" % img)
    at = hit[0][3]
    if version is None:
        struct.pack_into("<I", rec, at + 4, u32(rec, at + 4) | TRACKING)
    else:
        struct.pack_into("<I", rec, at, version)
    v.put_record(n, rec)
    v.close()
    return 0


def cmd_check(blank, img, judged=True):
    b = sorted(e[:2] for e in entries(VolumeFile(blank))[2])
    w = sorted(e[:2] for e in entries(VolumeFile(img))[2])
    want = []
    for owner, data in b:
        f = flags(data)
        if owner == DEFAULTS and f is not None and f & IN_USE and not f & OUT_OF_DATE:
            data = data[:4] + struct.pack("<I", f | OUT_OF_DATE) + data[8:]
        want.append((owner, data))
    bad = 0
    if len(w) != len(want) or [o for o, _ in w] != [o for o, _ in want]:
        print("owner ids: %s, expected %s" % ([o for o, _ in w], [o for o, _ in want]))
        bad = 1
    for (o1, d1), (o2, d2) in zip(want, w):
        if o1 == o2 and d1 != d2:
            print("owner %d: flags 0x%x, expected 0x%x; data %s, expected %s" %
                  (o1, flags(d2) or 0, flags(d1) or 0, d2.hex(), d1.hex()))
            bad = 1
    d = [e for e in w if e[0] == DEFAULTS]
    print("%d entries; defaults flags 0x%x (blank 0x%x)" %
          (len(w), flags(d[0][1]) if d else 0,
           flags([e for e in b if e[0] == DEFAULTS][0][1]) if d else 0))
    return bad if judged else 0


def main(argv):
    try:
        if len(argv) == 3 and argv[1] == "list":
            return cmd_list(argv[2])
        if len(argv) == 3 and argv[1] == "track":
            return cmd_track(argv[2])
        if len(argv) == 3 and argv[1] == "malform":
            return cmd_track(argv[2], version=3)
        if len(argv) in (4, 5) and argv[1] == "check":
            return cmd_check(argv[2], argv[3], "--unjudged" not in argv[4:])
    except Corrupt as e:
        print("no readable $Q: %s" % e)
        return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
