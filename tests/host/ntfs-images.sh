#!/bin/sh
# Host-side test of the NTFS test images (scripts/images/make-ntfs-images.sh): the
# manifests, read back through ntfs-3g, must agree with what independent
# readers find on the image -- ntfsls and ntfscat (libntfs-3g without FUSE)
# and fsntfsinfo (libfsntfs) -- and each image must hold the on-disk
# structures it is there for (runs, attribute lists, compression, holes,
# geometry).  Builds the images first (quietly; a no-op when up to date).
. "$(dirname "$0")/../include/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${BUILD:-$top/build}/ntfs-images
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
export LC_ALL=C.UTF-8	# ntfsls/ntfscat convert names with the locale

build() {
	sh "$top/scripts/images/make-ntfs-images.sh" >"$w/build.log" 2>&1
}
check "make-ntfs-images.sh builds the images" build
# shellcheck disable=SC2154 # set by tap.sh
if [ "$tap_failed" != 0 ]; then
	tail -n 20 "$w/build.log" | sed 's/^/# /'
	tap_done
	exit 1
fi

cat >"$w/x.py" <<'EOF'
import collections, hashlib, os, re, struct, subprocess, sys

def tsv(path):
    with open(path, "rb") as f:
        return [l.rstrip(b"\n").split(b"\t") for l in f]

def manifest(img):
    return {l[1]: l for l in tsv(img + ".manifest")}

def say(*a):
    print("#", *(x.decode(errors="replace") if isinstance(x, bytes) else x for x in a))

def same(what, want, got):
    """Compare two sets; print a few differences."""
    if want == got:
        return True
    for p in sorted(want - got)[:8]:
        say(what, "missing:", p)
    for p in sorted(got - want)[:8]:
        say(what, "extra:", p)
    return False

class Failed(Exception):
    pass

def run(*cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode:
        for l in r.stderr.decode(errors="replace").splitlines()[:10]:
            say(l)
        raise Failed("%s exited with %d" % (" ".join(cmd), r.returncode))
    return r.stdout

def ntfsls(img):
    """Paths from ntfsls -R -a, as ./a/b."""
    paths, d = set(), None
    for l in run("ntfsls", "-R", "-a", img + ".img").split(b"\n"):
        if l.startswith(b"/") and l.endswith(b":"):
            d = b"." + l[:-1].rstrip(b"/")
        elif l and l not in (b".", b".."):
            paths.add(d + b"/" + l)
    m = set(manifest(img)) - {b"."}
    return same("ntfsls", m, paths)

def bmp_fix(b):
    # libfsntfs 20200921 (libuna) decodes a surrogate pair 0x3ff too low
    s = b.decode()
    return "".join(chr(ord(c) + 0x3FF) if ord(c) >= 0x10000 else c
                   for c in s).encode()

def body(img):
    """fsntfsinfo -H -B: {path: (mft, size)}, {(path, stream): size}."""
    bf = os.environ["W"] + "/body"
    run("fsntfsinfo", "-H", "-B", bf, img + ".img")
    files, streams = {}, {}
    for l in open(bf, "rb"):
        f = l.rstrip(b"\n").split(b"|")
        name = f[1]
        if name.endswith(b" ($FILE_NAME)") or name == b"\\\\":
            continue
        name = bmp_fix(name).replace(b"\\\\", b"/")
        if name.startswith(b"/$"):
            continue		# system files
        p, _, s = name.partition(b":")
        if s:
            streams[(b"." + p, s)] = int(f[6])
        else:
            files[b"." + p] = (int(f[2]), int(f[6]))
    return files, streams

def fsntfsinfo(img):
    files, streams = body(img)
    m = manifest(img)
    ok = same("fsntfsinfo names", set(m) - {b"."}, set(files))
    bad = [p for p, l in m.items() if l[0] == b"f" and p in files
           and files[p][1] != int(l[2])]
    for p in bad[:8]:
        say("fsntfsinfo size differs:", p, files[p][1], "manifest", m[p][2])
    ms = {(l[0], l[1]): int(l[2]) for l in tsv(img + ".streams")}
    ok &= same("fsntfsinfo streams", set(ms), set(streams))
    sbad = [k for k in ms if k in streams and ms[k] != streams[k]]
    for k in sbad[:8]:
        say("fsntfsinfo stream size differs:", *k)
    # names sharing an MFT record = the manifest's link count
    names = collections.Counter(v[0] for v in files.values())
    lbad = [p for p, l in m.items() if l[0] == b"f" and p in files
            and names[files[p][0]] != int(l[4])]
    for p in lbad[:8]:
        say("link count differs:", p, names[files[p][0]], "manifest", m[p][4])
    return ok and not bad and not sbad and not lbad

def pick(items, n):
    items = sorted(items)
    step = max(1, len(items) // n)
    return items[::step]

def ntfscat(img):
    """Contents by ntfscat = manifest and .streams hashes (a sample of at
    most ~150 files and ~150 streams of up to 64 MiB)."""
    m = manifest(img)
    files = [p for p, l in m.items() if l[0] == b"f" and l[3] != b"-"
             and int(l[2]) <= 64 << 20]
    bad = 0
    for p in pick(files, 150):
        h = hashlib.sha256(run("ntfscat", img + ".img", p[1:])).hexdigest().encode()
        if h != m[p][3]:
            say("ntfscat content differs:", p)
            bad += 1
    st = [l for l in tsv(img + ".streams") if int(l[2]) <= 64 << 20]
    for l in pick(st, 150):
        data = run("ntfscat", "-a", "0x80", "-n", l[1], img + ".img", l[0][1:])
        if hashlib.sha256(data).hexdigest().encode() != l[3]:
            say("ntfscat stream differs:", l[0], l[1])
            bad += 1
    return bad == 0

def eas_reparse(img):
    """$EA and $REPARSE_POINT read raw by ntfscat = .xattrs and .reparse."""
    want = {tuple(l) for l in tsv(img + ".xattrs")}
    got = set()
    for p in {l[0] for l in want}:
        ea = run("ntfscat", "-a", "0xe0", img + ".img", p[1:])
        off = 0
        while off + 8 <= len(ea):
            size, _, nl, vl = struct.unpack_from("<IBBH", ea, off)
            name = ea[off + 8:off + 8 + nl]
            val = ea[off + 9 + nl:off + 9 + nl + vl]
            got.add((p, name, val.hex().encode() or b"-"))
            off += size or len(ea)
    ok = same("$EA", want, got)
    for l in tsv(img + ".reparse"):
        rp = run("ntfscat", "-a", "0xc0", img + ".img", l[0][1:])
        tag, n = struct.unpack_from("<IH", rp)
        names = [b"-", b"-"]
        if tag in (0xA0000003, 0xA000000C):
            pb = 16 if tag == 0xA0000003 else 20
            so, sl, po, pl = struct.unpack_from("<HHHH", rp, 8)
            names = [rp[pb + so:pb + so + sl].decode("utf-16-le").encode(),
                     rp[pb + po:pb + po + pl].decode("utf-16-le").encode()]
        elif tag == 0xA000001D:
            names[0] = rp[12:8 + n]
        if b"0x%08x" % tag != l[1] or names[0] != l[4] or \
                (names[1] != l[5] and l[5] != b"-"):
            say("$REPARSE_POINT differs:", l[0], hex(tag), *names)
            ok = False
    return ok

def info(img, path):
    return subprocess.run(["ntfsinfo", "-v", "-F", path, img + ".img"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout.decode()

def runs(img, path):
    r = re.search(r"Total runs: (\d+)", info(img, path))
    return int(r.group(1)) if r else 0

def has(img, path, what):
    return what in info(img, path)

def data_flags(img, path):
    t = info(img, path)
    i = t.find("Dumping attribute $DATA")
    r = re.search(r"Attribute flags:\s+0x([0-9a-f]+)", t[i:])
    return int(r.group(1), 16) if i >= 0 and r else -1

def geometry(img, sector, cluster, record):
    t = run("ntfsinfo", "-m", img + ".img").decode()
    g = {k: int(re.search(k + r":\s+(\d+)", t).group(1))
         for k in ("Sector Size", "Cluster Size", "MFT Record Size")}
    flags = re.search(r"Volume Flags: (0x[0-9a-f]+)", t).group(1)
    say(img, g, "volume flags", flags)
    return (g["Sector Size"], g["Cluster Size"], g["MFT Record Size"]) == \
        (sector, cluster, record) and flags == "0x0000"

def structures(img, cluster, records):
    """The objects of the full profile are what they are meant to be."""
    ok = True
    def want(desc, cond):
        nonlocal ok
        if not cond:
            say(img, "not so:", desc)
            ok = False
    n = runs(img, "/frag/fragmented.bin")
    say(img, "fragmented.bin:", n, "runs")
    want("fragmented.bin has > 50 runs", n > 50)
    if cluster <= 4096:	# 64 KiB clusters: 300 runs, may still fit
        want("fragmented.bin has an attribute list",
             has(img, "/frag/fragmented.bin", "$ATTRIBUTE_LIST"))
    for p in ("/many-links/name-000-of-a-file-with-many-hard-links",
              "/streams/many-streams.bin"):
        want(p + " has an attribute list", has(img, p, "$ATTRIBUTE_LIST"))
    comp = data_flags(img, "/compressed/text.txt")
    if cluster <= 4096:
        want("compressed/text.txt is compressed", comp & 0x0001)
        want("compressed/holey.bin has holes",
             "<HOLE>" in info(img, "/compressed/holey.bin"))
    else:
        want("compressed/text.txt is stored plain (clusters > 4 KiB)", comp == 0)
    want("sparse/hole-middle.bin is sparse with a hole",
         data_flags(img, "/sparse/hole-middle.bin") & 0x8000 and
         "<HOLE>" in info(img, "/sparse/hole-middle.bin"))
    want("dosname file has a DOS name",
         "Namespace:\t\t DOS" in info(img, "/dosname/Long File Name Document.txt"))
    for p in ("junction", "symlink-abs-file", "symlink-rel-file", "wsl-symlink"):
        want(p + " is a reparse point", has(img, "/reparse/" + p, "$REPARSE_POINT"))
    want("xattrs/file-with-ea.txt has $EA",
         has(img, "/xattrs/file-with-ea.txt", "$EA (0xe0)"))
    want("many/ has an index allocation",
         has(img, "/many", "$INDEX_ALLOCATION"))
    return ok

def full_alike(*imgs):
    """The full profile is deterministic: its manifests are the same on
    every geometry, but for fragmented.bin (its size follows the cluster)."""
    ok = True
    for kind in ("manifest", "xattrs", "streams", "reparse"):
        base = None
        for img in imgs:
            lines = {tuple(l) for l in tsv(img + "." + kind)
                     if not l[1].startswith(b"./frag/")}
            if base is not None and lines != base:
                say(kind, "of", img, "differs from", imgs[0])
                ok = False
            base = lines
    return ok

def bigdir(img):
    m = manifest(img)
    n = sum(1 for p in m if p.startswith(b"./big/"))
    deep = b"./deep/" + b"/".join(b"d%02d" % i for i in range(1, 65)) + b"/leaf.txt"
    say(img, n, "entries in big/")
    return n == 100004 and deep in m and has(img, "/big", "$INDEX_ALLOCATION")

def sparse1t(img):
    m = manifest(img)
    st = os.stat(img + ".img")
    say(img, "apparent", st.st_size, "on disk", st.st_blocks * 512)
    samples = tsv(img + ".samples")
    return (st.st_size == 1 << 40 and st.st_blocks * 512 < 256 << 20 and
            int(m[b"./huge.bin"][2]) == 768 << 30 and len(samples) == 3 and
            "<HOLE>" in info(img, "/huge.bin"))

fn = globals()[sys.argv[1]]
a = [int(x) if x.isdigit() else x for x in sys.argv[2:]]
try:
    sys.exit(0 if fn(*a) else 1)
except (Failed, OSError, KeyError, ValueError) as e:
    say("error:", repr(e))
    sys.exit(1)
EOF
export W="$w"

x() {
	python3 "$w/x.py" "$@" </dev/null
}

ntfsfix_n() {
	ntfsfix -n "$1" >"$w/fix.log" 2>&1 </dev/null || { sed 's/^/# /' "$w/fix.log"; return 1; }
}

cd "$out" || exit 1

# skip DESCRIPTION REASON
skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

# name sector cluster record profile
while read -r img sector cluster record profile; do
	check "$img: ntfsls -R names = manifest" x ntfsls "$img"
	if [ "$cluster" != 4096 ] && [ "$profile" = full ]; then
		# With clusters other than the 4 KiB index block, index block
		# VCNs count 512-byte units (0, 8, 16, ...: checked on the
		# images); libfsntfs multiplies them by the cluster size and
		# lists duplicates and gaps (512) or fails (64 KiB).  The small
		# profile (c2m) has no index blocks, so it is checked.
		skip "$img: fsntfsinfo names, sizes, streams, links = manifests" \
			"libfsntfs 20200921 misreads index blocks unless clusters are 4 KiB"
	else
		check "$img: fsntfsinfo names, sizes, streams, links = manifests" x fsntfsinfo "$img"
	fi
	check "$img: ntfscat contents = manifest hashes" x ntfscat "$img"
	check "$img: ntfscat \$EA, \$REPARSE_POINT = .xattrs, .reparse" x eas_reparse "$img"
	check "$img: ${sector}-byte sectors, ${cluster}-byte clusters, ${record}-byte records, clean" \
		x geometry "$img" "$sector" "$cluster" "$record"
	check "$img: ntfsfix -n finds nothing to fix" ntfsfix_n "$img.img"
	case $profile in
	full) check "$img: fragmented, attribute lists, compressed, sparse, DOS name, reparse points" \
		x structures "$img" "$cluster" "$record" ;;
	bigdir) check "$img: 100004 names in one directory, a tree 64 deep" x bigdir "$img" ;;
	sparse1t) check "$img: 1 TiB apparent, under 256 MiB on disk, 768 GiB sparse file" \
		x sparse1t "$img" ;;
	esac
done <<EOF
c4k-r1k 512 4096 1024 full
c512 512 512 1024 full
c64k 512 65536 1024 full
c2m 512 2097152 1024 small
s4k-r4k 4096 4096 4096 full
bigdir 512 4096 1024 bigdir
sparse1t 512 4096 1024 sparse1t
EOF

check "full profile is the same on every geometry" x full_alike c4k-r1k c512 c64k s4k-r4k
nomount() {
	! grep -q "$out" /proc/mounts
}
check "no FUSE mount left behind" nomount
tap_done
