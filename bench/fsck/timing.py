#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The timing half of bench/fsck/run.sh (which builds what it needs and
explains the rows).  Usage:

    timing.py --rev REV NAME=IMAGE...      the table (markdown) on stdout
    timing.py --update-doc DOC TABLE       TABLE into DOC's results block

Environment: FSCK (the binary), ROWS, RUNS, OUT (logs of each program).
"""
import datetime
import os
import platform
import re
import resource
import struct
import subprocess
import sys
import time

MiB = 1 << 20
BEGIN, END = "<!-- bench-fsck results -->", "<!-- /bench-fsck results -->"


def drop_caches():
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def geometry(img):
    """Cluster size, record size and clusters from the boot sector."""
    with open(img, "rb") as f:
        boot = f.read(512)
    sector, spc = struct.unpack_from("<HB", boot, 0x0B)
    if spc > 0x80:			# 2^(256 - n) sectors, large clusters
        spc = 1 << (256 - spc)
    cluster = sector * spc
    per_rec = struct.unpack_from("<b", boot, 0x40)[0]
    record = 1 << -per_rec if per_rec < 0 else per_rec * cluster
    sectors = struct.unpack_from("<Q", boot, 0x28)[0]
    return cluster, record, sectors * sector // cluster


def mft_extents(img, cluster):
    """$MFT:$DATA's extents (byte offset, length) and its data size, as
    ntfsinfo prints them: an independent reader, not our own decoder."""
    out = subprocess.run(["ntfsinfo", "-v", "-i", "0", img], capture_output=True,
                         text=True, check=True).stdout
    data = out[out.index("Dumping attribute $DATA"):]
    data = data[:data.find("Dumping attribute", 10)]
    size = int(re.search(r"Data size:\s+(\d+)", data).group(1))
    runs = []
    body = data[data.index("Runlist:"):].splitlines()
    for line in body:
        m = re.findall(r"0x[0-9a-fA-F]+", line)
        if len(m) == 3:
            _, lcn, length = (int(x, 16) for x in m)
            runs.append((lcn * cluster, length * cluster))
    return runs, size


def read_mft(img, runs, size, record, count=False):
    """Read the extents sequentially, 1 MiB per call; with COUNT, count the
    base records in use (signature FILE, in-use flag, no base reference)."""
    buf = bytearray(MiB)
    view = memoryview(buf)
    used = 0
    left = size
    fd = os.open(img, os.O_RDONLY)
    try:
        for off, length in runs:
            length = min(length, left)
            while length > 0:
                n = os.preadv(fd, [view[:min(MiB, length)]], off)
                if n <= 0:
                    break
                for r in range(0, n - record + 1 if count else 0, record):
                    if buf[r:r + 4] == b"FILE" and buf[r + 0x16] & 1 and \
                            not any(buf[r + 0x20:r + 0x28]):
                        used += 1
                off += n
                length -= n
                left -= n
    finally:
        os.close(fd)
    return used


def run_cmd(cmd, log, out=subprocess.DEVNULL):
    """One run of a program: wall seconds, CPU seconds (user + system) and
    exit status."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=out, stderr=log)
    _, status, ru = os.wait4(p.pid, 0)
    t = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    return t, ru.ru_utime + ru.ru_stime, p.returncode


def max_rss(cmd):
    """The program's peak RSS in KiB, from GNU time in a run of its own (a
    child forked by this process would count this process's RSS)."""
    with open(os.devnull, "w") as null:
        r = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=null,
                           stderr=subprocess.PIPE, text=True)
    return int(r.stderr.strip().splitlines()[-1])


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2


class Volume:
    def __init__(self, name, img):
        self.name, self.img = name, img
        self.cluster, self.record, self.clusters = geometry(img)
        self.runs, self.mft_size = mft_extents(img, self.cluster)
        self.files = read_mft(img, self.runs, self.mft_size, self.record, True)

    def row_cmd(self, row):
        return {
            "fsck": [os.environ["FSCK"], "-n", self.img],
            "ntfsfix": ["ntfsfix", "-n", self.img],
            "ntfsls": ["ntfsls", "-R", self.img],
            "ntfsls-l": ["ntfsls", "-R", "-l", self.img],
        }[row]

    def once(self, row, log, keep):
        """One run of ROW: (wall seconds, CPU seconds, exit status)."""
        if row == "mft-read":
            r0 = resource.getrusage(resource.RUSAGE_SELF)
            t0 = time.perf_counter()
            read_mft(self.img, self.runs, self.mft_size, self.record)
            t = time.perf_counter() - t0
            r1 = resource.getrusage(resource.RUSAGE_SELF)
            return t, r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime, 0
        if keep:
            with open(keep, "w") as out:
                return run_cmd(self.row_cmd(row), log, out)
        return run_cmd(self.row_cmd(row), log)


def measure(vol, rows, runs, outdir):
    """{row: {"cold": s, "warm": s, "rss": KiB, "rc": set of statuses}}"""
    res = {}
    mtime = os.stat(vol.img).st_mtime_ns
    for row in rows:
        logname = os.path.join(outdir, "%s.%s.log" % (vol.name, row))
        keep = os.path.join(outdir, "%s.fsck.out" % vol.name) if row == "fsck" else None
        r = {"cold": [], "warm": [], "cpu": [], "rss": 0, "rc": set()}
        with open(logname, "w") as log:
            for mode in ("cold", "warm"):
                if mode == "warm":
                    vol.once(row, log, None)	# fills the page cache
                for i in range(runs):
                    if mode == "cold":
                        drop_caches()
                    t, cpu, rc = vol.once(row, log, keep if i == 0 and mode == "cold" else None)
                    r[mode].append(t)
                    if mode == "warm":
                        r["cpu"].append(cpu)
                    r["rc"].add(rc)
            if row != "mft-read":
                r["rss"] = max_rss(vol.row_cmd(row))
        r["cold"], r["warm"], r["cpu"] = median(r["cold"]), median(r["warm"]), median(r["cpu"])
        res[row] = r
        print("  %-7s %s %s: cold %.3f s, warm %.3f s" % ("BENCH", vol.name, row, r["cold"], r["warm"]),
              file=sys.stderr)
    if os.stat(vol.img).st_mtime_ns != mtime:
        sys.exit("error: %s changed while it was benchmarked" % vol.img)
    return res


def host():
    cpu = "unknown CPU"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    return "%s, %d CPUs, Linux %s, load average %s at the start" % (
        cpu, os.cpu_count(), platform.release(), load)


def fmt_s(t):
    return "%.3f" % t if t < 10 else "%.1f" % t


def table(rev, vols):
    rows, runs = os.environ["ROWS"].split(), int(os.environ["RUNS"])
    outdir = os.environ["OUT"]
    print("fsck.ntfs3: tools/fsck.ntfs3 at %s; %s; %s; median of %d runs, "
          "wall clock." % (rev, datetime.datetime.now(datetime.timezone.utc)
                          .strftime("%Y-%m-%d %H:%M UTC"), host(), runs))
    print()
    vols = [Volume(name, img) for name, img in vols]
    print("| volume | base records in use | $MFT | clusters |")
    print("|---|---:|---:|---:|")
    for v in vols:
        print("| %s | %d | %.1f MiB, %d records of %d bytes | %d of %d bytes |" % (
            v.name, v.files, v.mft_size / MiB, v.mft_size // v.record, v.record,
            v.clusters, v.cluster))
    print()
    print("| volume | row | cold s | warm s | warm CPU s | fsck / row, cold | fsck / row, warm "
          "| fsck / row, CPU | max RSS |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    notes = []
    for vol in vols:
        res = measure(vol, rows, runs, outdir)
        f = res.get("fsck")
        for row in rows:
            r = res[row]
            ratio = lambda m: "-" if row == "fsck" or f is None else "%.1f" % (f[m] / r[m])
            rss = "%.0f MiB" % (r["rss"] / 1024) if r["rss"] else "-"
            print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                vol.name, row, fmt_s(r["cold"]), fmt_s(r["warm"]), fmt_s(r["cpu"]),
                ratio("cold"), ratio("warm"), ratio("cpu"), rss))
            if r["rc"] != {0}:
                notes.append("%s on %s exited %s (log: %s)" % (
                    row, vol.name, "/".join(map(str, sorted(r["rc"]))),
                    os.path.join(outdir, "%s.%s.log" % (vol.name, row))))
        if f is not None:
            with open(os.path.join(outdir, "%s.fsck.out" % vol.name)) as out:
                lines = out.read().splitlines()
            last = lines[-1].replace(vol.img, os.path.basename(vol.img)) if lines else ""
            notes.append("fsck.ntfs3 on %s: `%s`" % (vol.name, last))
    if notes:
        print()
        for n in notes:
            print("- " + n)


def update_doc(doc, tablefile):
    with open(doc) as f:
        text = f.read()
    with open(tablefile) as f:
        new = f.read().strip()
    a, b = text.index(BEGIN) + len(BEGIN), text.index(END)
    with open(doc, "w") as f:
        f.write(text[:a] + "\n" + new + "\n" + text[b:])


def main():
    args = sys.argv[1:]
    if args and args[0] == "--update-doc":
        update_doc(args[1], args[2])
        return
    if len(args) < 3 or args[0] != "--rev":
        sys.exit(__doc__)
    table(args[1], [a.split("=", 1) for a in args[2:]])


if __name__ == "__main__":
    main()
