#!/bin/sh
# make-ntfs-images.sh: the NTFS images the ntfs3 tests read, and their
# manifests, in build/ntfs-images/ (what they hold: tests/ntfs/README.md).
#
# Each image: a sparse file, mkntfs, then ntfs-3g (FUSE) mounts it and
# tests/ntfs/populate.sh fills it; the volume is mounted again read-only and
# read back through ntfs-3g into the manifests:
#   NAME.manifest  type path size sha256|- nlink target|-   (one object a line)
#   NAME.xattrs    path name hex|-                          (user.* in $EA)
#   NAME.streams   path stream size sha256                  (named $DATA)
#   NAME.reparse   path tag kind flags substitute print      (reparse points)
#   NAME.attrib    path 0xattributes dosname|-               (every object)
#   NAME.samples   path offset length sha256                 (files > 1 GiB)
# Tab-separated, sorted bytewise (LC_ALL=C sort).  Paths as "find ." gives.
#
# Idempotent: a stamp holds a hash of this script, populate.sh and the
# ntfs-3g version; when it matches, nothing is done.  Never mounts NTFS with
# the host kernel's driver.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/ntfs-3g.sh"
OUT=$BUILD/ntfs-images
POP=$TOP/tests/ntfs/populate.sh
SELF=$TOP/scripts/images/make-ntfs-images.sh

# name size profile mkntfs-option lane: the two lanes build in parallel
# (about 70 s each on 2 cores); with one CPU they run one after the other.
IMAGES="
c4k-r1k 256M full - 1
c512 128M full -c512 2
c64k 256M full -c65536 1
c2m 512M small -c2097152 2
s4k-r4k 256M full -s4096 1
bigdir 512M bigdir - 2
sparse1t 1T sparse1t - 2
"

for t in mkntfs ntfs-3g setfattr getfattr python3 fallocate mountpoint; do
	command -v "$t" >/dev/null 2>&1 || die "make-ntfs-images: $t missing (scripts/build/deps.sh)"
done
key=$( (cat "$SELF" "$POP"; dpkg-query -W -f='${Version}' ntfs-3g 2>/dev/null || true) |
	sha256sum | cut -d' ' -f1)

uptodate() {
	[ "$(cat "$OUT/stamp" 2>/dev/null)" = "$key" ] || return 1
	echo "$IMAGES" | while read -r name _; do
		[ -z "$name" ] && continue
		for s in img manifest xattrs streams reparse attrib samples; do
			[ -f "$OUT/$name.$s" ] || exit 1
		done
	done
}
if uptodate; then
	say NTFS "images up to date: ${OUT#"$TOP"/}"
	exit 0
fi

[ "$(id -u)" = 0 ] || die "make-ntfs-images: needs root (FUSE mounts of the images)"
[ -c /dev/fuse ] || die "make-ntfs-images: /dev/fuse missing"

NEW=$OUT.new
LOGDIR=$LOGS/ntfs-images
MNT=		# the lane's mount point
LOG=		# the image's log
lanes=

# Main shell: stop the lanes (unmounting first makes their populate.sh
# fail at once), wait for them; a failed build leaves only its logs.
cleanup() {
	for m in "$NEW"/mnt*; do
		if mountpoint -q "$m" 2>/dev/null; then
			umount -l "$m" 2>/dev/null || true
		fi
	done
	for p in $lanes; do
		kill "$p" 2>/dev/null || true
	done
	for p in $lanes; do
		wait "$p" 2>/dev/null || true
	done
	lanes=
	if [ -d "$NEW" ] && ! grep -q " $NEW/" /proc/mounts; then
		rm -rf "$NEW"
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# manifest IMG-BASENAME: read the mounted volume back into the manifests.
manifest() {
	python3 - "$MNT" "$1" <<'EOF'
import concurrent.futures, ctypes, errno, hashlib, os, stat, struct, sys, threading

root, base = os.fsencode(sys.argv[1]), sys.argv[2]
HUGE = 1 << 30		# bigger files: "-" in the manifest, windows in .samples
MiB = 1 << 20
out = {k: [] for k in ("manifest", "xattrs", "streams", "reparse", "attrib", "samples")}

libc = ctypes.CDLL(None, use_errno=True)
tls = threading.local()

def xattr(p, name):
    """lgetxattr with a buffer of the largest xattr size: ntfs-3g answers a
    too-small buffer (os.getxattr starts with 128 bytes) with too much data,
    which the kernel turns into EIO."""
    if not hasattr(tls, "buf"):
        tls.buf = ctypes.create_string_buffer(65536)
    xbuf = tls.buf
    got = libc.lgetxattr(p, name.encode(), xbuf, len(xbuf))
    if got >= 0:
        return xbuf.raw[:got]
    e = ctypes.get_errno()
    if e in (errno.ENODATA, errno.EOPNOTSUPP):
        return None
    raise OSError(e, os.strerror(e), p)

def sha(p, off=0, length=None):
    h = hashlib.sha256()
    with open(p, "rb") as f:
        f.seek(off)
        left = length
        while left is None or left > 0:
            b = f.read(MiB if left is None else min(MiB, left))
            if not b:
                break
            h.update(b)
            if left is not None:
                left -= len(b)
    return h.hexdigest().encode()

def u16(b):
    return b.decode("utf-16-le").encode()

def reparse(rel, data):
    """Decode a reparse buffer; return the symlink target for the manifest.
    Absolute targets on the volume (\\??\\C:\\x) are written @MNT@/x: ntfs-3g
    shows them under its mount point."""
    tag, dlen = struct.unpack_from("<IH", data)
    body = data[8:8 + dlen]
    kind, flags, sub, pr, target = b"other", b"-", b"-", b"-", None
    if tag in (0xA0000003, 0xA000000C):
        so, sl, po, pl = struct.unpack_from("<HHHH", body)
        pb = 8 if tag == 0xA0000003 else 12
        sub = u16(body[pb + so:pb + so + sl])
        pr = u16(body[pb + po:pb + po + pl])
        if tag == 0xA000000C:
            fl = struct.unpack_from("<I", body, 8)[0]
            flags = b"0x%x" % fl
            kind = b"symlink"
        else:
            kind = b"junction"
        if tag == 0xA000000C and fl & 1:
            target = sub.replace(b"\\", b"/")
        else:
            t = sub[4:] if sub.startswith(b"\\??\\") else sub
            if len(t) >= 2 and t[1:2] == b":":
                t = b"@MNT@" + t[2:]
            target = t.replace(b"\\", b"/")
    elif tag == 0xA000001D:
        kind, target = b"wsl-symlink", body[4:]
        sub = target
    out["reparse"].append(b"\t".join((rel, b"0x%08x" % tag, kind, flags, sub, pr)))
    return target

def visit(rel):
    """Record one object; True for a directory to descend into."""
    p = root + rel[1:]
    st = os.lstat(p)
    m = st.st_mode
    for c in b"\t\n":
        assert c not in rel, rel
    rp = xattr(p, "system.ntfs_reparse_data")
    target = reparse(rel, rp) if rp else None
    if stat.S_ISDIR(m):
        typ, size, digest, nlink = b"d", b"-", b"-", b"-"
    elif stat.S_ISREG(m):
        typ, size, nlink = b"f", b"%d" % st.st_size, b"%d" % st.st_nlink
        if st.st_size > HUGE:
            digest = b"-"
            mid = max(0, st.st_size // 2 // MiB * MiB - MiB // 2)
            for off in (0, mid, st.st_size - MiB):
                out["samples"].append(b"\t".join(
                    (rel, b"%d" % off, b"%d" % MiB, sha(p, off, MiB))))
        else:
            digest = sha(p)
    elif stat.S_ISLNK(m):
        typ, digest, nlink = b"l", b"-", b"%d" % st.st_nlink
        if target is None:
            target = os.readlink(p)
        size = b"%d" % len(target)
    else:
        raise SystemExit("unexpected file type %o: %r" % (m, rel))
    out["manifest"].append(b"\t".join((typ, rel, size, digest, nlink, target or b"-")))

    a = xattr(p, "system.ntfs_attrib_be")
    dos = xattr(p, "system.ntfs_dos_name") if rel != b"." else None	# EPERM
    out["attrib"].append(b"\t".join((rel, b"0x%08x" % struct.unpack(">I", a)[0],
                                     dos if dos else b"-")))
    if typ == b"l":
        return False
    ea = xattr(p, "system.ntfs_ea")
    off = 0
    while ea and off + 8 <= len(ea):
        size, fl, nl, vl = struct.unpack_from("<IBBH", ea, off)
        name = ea[off + 8:off + 8 + nl]
        val = ea[off + 9 + nl:off + 9 + nl + vl]
        if name.startswith(b"user."):
            out["xattrs"].append(b"\t".join((rel, name, val.hex().encode() or b"-")))
        if size == 0:
            break
        off += size
    names = xattr(p, "ntfs.streams.list")
    for s in (names or b"").split(b"\0"):
        if s:
            sp = p + b":" + s
            out["streams"].append(b"\t".join(
                (rel, s, b"%d" % os.stat(sp).st_size, sha(sp))))
    return typ == b"d"

# Level by level, each level's objects in 8 threads: ntfs-3g answers one
# request at a time, but with one request in flight the round trips
# dominate (bigdir: 4 times faster than one thread).
with concurrent.futures.ThreadPoolExecutor(8) as pool:
    level = [b"."]
    while level:
        dirs = [r for r, d in zip(level, pool.map(visit, level)) if d]
        lists = pool.map(lambda r: os.listdir(root + r[1:]), dirs)
        level = [r + b"/" + n for r, names in zip(dirs, lists) for n in names]
for k, lines in out.items():
    with open("%s.%s" % (base, k), "wb") as f:
        f.writelines(l + b"\n" for l in sorted(lines))
EOF
}

# image NAME SIZE PROFILE MKNTFS-OPTION
image() {
	t0=$(date +%s)
	img=$NEW/$1.img
	LOG=$LOGDIR/$1.log
	: >"$LOG"
	truncate -s "$2" "$img"
	opt=
	[ "$4" = - ] || opt=$4
	mkntfs -F -f -q -L "$1" ${opt:+"$opt"} "$img" >>"$LOG" 2>&1 ||
		die "mkntfs for $1 failed; log: $LOG"
	fuse_mount "$img" streams_interface=windows,big_writes,noatime
	if ! sh "$POP" "$MNT" "$3" >>"$LOG" 2>&1; then
		tail -n 20 "$LOG" >&2
		die "populate.sh $3 failed on $1; log: $LOG"
	fi
	fuse_umount
	t1=$(date +%s)
	# Read back what reached the disk, through a fresh read-only mount.
	fuse_mount "$img" ro,streams_interface=windows,posix_nlink
	manifest "$NEW/$1" >>"$LOG" 2>&1 || die "manifest of $1 failed; log: $LOG"
	fuse_umount
	fallocate -d "$img"	# zeros the volume wrote become holes
	t2=$(date +%s)
	say NTFS "$1: $3, $((t2 - t0)) s (make+fill $((t1 - t0)) s, read back $((t2 - t1)) s), $(du -m "$img" | cut -f1) MiB on disk, $(wc -l <"$NEW/$1.manifest") objects"
}

# lane N: build the images of lane N one after the other, with the lane's
# own mount point and ntfs-3g.
lane() {
	MNT=$NEW/mnt$1
	mkdir -p "$MNT"
	# not "echo | while": the loop must run in this shell (traps, die)
	while read -r name size profile opt l; do
		[ "$l" = "$1" ] || continue
		image "$name" "$size" "$profile" "$opt" </dev/null
	done <<EOF
$IMAGES
EOF
	rmdir "$MNT"
}

say NTFS "building images in ${OUT#"$TOP"/} (logs: ${LOGDIR#"$TOP"/})"
start=$(date +%s)
rm -rf "$NEW" "$LOGDIR"
mkdir -p "$NEW" "$LOGDIR"
if [ "$JOBS" -ge 2 ]; then
	for n in 1 2; do
		(
			trap fuse_reap EXIT
			trap 'exit 1' INT TERM HUP
			lane $n
		) &
		lanes="$lanes $!"
	done
	failed=0
	for p in $lanes; do
		wait "$p" || failed=1
	done
	lanes=
	[ $failed = 0 ] || die "building the NTFS images failed (logs: $LOGDIR)"
else
	trap 'fuse_reap; cleanup' EXIT
	lane 1
	lane 2
fi
echo "$key" >"$NEW/stamp"
rm -rf "$OUT"
mv "$NEW" "$OUT"
say NTFS "done in $(($(date +%s) - start)) s, $(du -sm "$OUT" | cut -f1) MiB on disk"
