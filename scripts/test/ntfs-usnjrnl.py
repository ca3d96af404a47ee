#!/usr/bin/env python3
"""ntfs-usnjrnl.py: the change journal $Extend\\$UsnJrnl, for the write tests
(tests/ntfs-write/89-usnjrnl.sh, scripts/test/ntfs-write-verify.sh).

  ntfs-usnjrnl.py make IMG MNT    give volume IMG (not mounted) a journal
                                  through ntfs-3g, mounted on MNT: $J a
                                  sparse stream of 1 MiB of hole and 4 KiB
                                  of records, $Max its parameters (32 MiB,
                                  4 MiB, journal id ID0, lowest valid 0)
  ntfs-usnjrnl.py show IMG        $Max's fields and $J's size
  ntfs-usnjrnl.py check BLANK IMG IMG's journal was stamped as a driver
                                  that writes no USN records must stamp it
                                  (docs/design/ntfs3.md, "$Extend after
                                  this driver wrote"): a new journal id, an
                                  NTFS time within a day of now, and the
                                  size of $J as the lowest valid USN; $J and
                                  the other fields of $Max as in BLANK.
                                  --unjudged: say what changed, exit 0

$Max ($DATA:$Max, resident): maximum size, allocation delta, journal id,
lowest valid USN, 8 bytes each.  Format facts: [MS-FSCC] (USN_JOURNAL_DATA),
the libyal NTFS document.  Exit 0 when fine, 1 when not, 2 when the
volume has no journal this tool reads (none, or $Max or $J not in the
base record)."""
import os
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "images"))
from ntfs_image import Corrupt, VolumeFile, attr_name, attr_offsets, u16, u32, u64  # noqa: E402

EXTEND = 11
ID0 = 0x01D0000000000000
J_SIZE = (1 << 20) + 4096
NTFS_EPOCH = 11644473600	# seconds from 1601 to 1970


def journal(img):
    """(max_size, alloc_delta, journal_id, lowest_valid, size of $J)."""
    v = VolumeFile(img)
    n = v.dir_lookup(EXTEND, "$UsnJrnl")
    if n is None:
        raise Corrupt("no $Extend\\$UsnJrnl")
    rec = v.record(n)
    mx = js = None
    for t, o, _ in attr_offsets(rec):
        if t == 0x80 and attr_name(rec, o) == "$Max" and not rec[o + 8] and u32(rec, o + 0x10) >= 32:
            mx = struct.unpack_from("<QQQQ", rec, o + u16(rec, o + 0x14))
        if t == 0x80 and attr_name(rec, o) == "$J" and rec[o + 8] and u64(rec, o + 0x10) == 0:
            js = u64(rec, o + 0x30)
    if mx is None or js is None:
        raise Corrupt("record %d: $Max or $J not in the base record" % n)
    return mx + (js,)


def cmd_make(img, mnt):
    subprocess.run(["ntfs-3g", "-o", "show_sys_files,streams_interface=windows", img, mnt], check=True)
    try:
        f = os.path.join(mnt, "$UsnJrnl")
        open(f, "wb").close()
        with open(f + ":$J", "wb") as j:
            j.seek(J_SIZE - 4096)		# a hole, as Windows leaves the start
            j.write(b"\x01" * 4096)
        with open(f + ":$Max", "wb") as m:
            m.write(struct.pack("<QQQQ", 32 << 20, 4 << 20, ID0, 0))
        # ntfs-3g creates nothing in $Extend, but moves a file there
        os.rename(f, os.path.join(mnt, "$Extend", "$UsnJrnl"))
    finally:
        subprocess.run(["fusermount", "-u", mnt], check=True)
    return 0


def cmd_show(img):
    print("max size %d, allocation delta %d, journal id 0x%x, lowest valid USN %d; $J %d bytes" %
          journal(img))
    return 0


def cmd_check(blank, img, judged=True):
    b, w = journal(blank), journal(img)
    now = int((time.time() + NTFS_EPOCH) * 10**7)
    bad = []
    if w[2] == b[2]:
        bad.append("the journal id is the blank volume's")
    if abs(w[2] - now) > 86400 * 10**7:
        bad.append("the journal id 0x%x is not an NTFS time within a day of now (0x%x)" % (w[2], now))
    if w[3] != b[4]:
        bad.append("the lowest valid USN is %d, not the size of $J (%d)" % (w[3], b[4]))
    if (w[0], w[1], w[4]) != (b[0], b[1], b[4]):
        bad.append("$Max's sizes or $J's size changed: %s, was %s" % ((w[0], w[1], w[4]), (b[0], b[1], b[4])))
    for line in bad:
        print(line)
    print("journal id 0x%x -> 0x%x, lowest valid USN %d -> %d, $J %d bytes" % (b[2], w[2], b[3], w[3], w[4]))
    return 1 if bad and judged else 0


def main(argv):
    try:
        if len(argv) == 4 and argv[1] == "make":
            return cmd_make(argv[2], argv[3])
        if len(argv) == 3 and argv[1] == "show":
            return cmd_show(argv[2])
        if len(argv) in (4, 5) and argv[1] == "check":
            return cmd_check(argv[2], argv[3], "--unjudged" not in argv[4:])
    except Corrupt as e:
        print("no journal read: %s" % e)
        return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
