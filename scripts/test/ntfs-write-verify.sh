#!/bin/sh
# ntfs-write-verify.sh: the host side of the write tests (tests/ntfs-write,
# docs/test/ntfs-write.md).
#
#   ntfs-write-verify.sh prepare [DIR]
#       a fresh writable copy of a blank mkntfs volume per workload
#       (DIR/write-NAME.img, NAME from tests/ntfs-write/NN-NAME.sh), an empty
#       output disk DIR/write-out.img, and DIR/overlay/ntfs-write/env naming
#       the driver under test (NTFS_WRITE_DRIVER or DRIVER: ours or intree;
#       default ours).  NTFS_WRITE_ONLY="NAME..." limits the workloads
#       (make stress-ntfs); NTFS_STRESS_SECONDS and NTFS_STRESS_SEED go to
#       the guest for tests/ntfs-write/96-stress.sh.
#       Prints one "PATH NAME" line per disk, in the order to attach them.
#   ntfs-write-verify.sh verify [DIR]
#       after the boot: unpacks what the VM left on write-out (expected
#       trees, the in-VM listings), then per workload volume:
#         - build/tools/fsck.ntfs3 -n must exit 0;
#         - scripts/test/ntfs-dupinfo.py: the size each directory entry
#           keeps of its file equals the file's $DATA size (ours only);
#         - scripts/test/ntfs-quota.py: $Extend\$Quota:$Q as on the blank
#           volume, but for the out-of-date flag of its defaults entry,
#           set when the blank one tracks quotas (ours only);
#         - scripts/test/ntfs-usnjrnl.py: a change journal (when the
#           volume has one) stamped with a new id and $J's size as its
#           lowest valid USN (ours only);
#         - ntfs-3g (FUSE, read-only) lists it: names, types, sizes,
#           SHA-256, link counts, symlink targets and user.* xattrs ($EA)
#           must equal the expected tree the VM computed on tmpfs.
#       TAP on stdout, ending with "N passed, N failed"; exit 1 on a failure.
# DIR defaults to build/ntfs-write.  Runs alone after a boot, e.g. after
# "make check-write", to look at one volume again.  Never mounts NTFS with
# the host kernel's driver.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$S/images/ntfs-3g.sh"

cmd=${1:?usage: ntfs-write-verify.sh prepare|verify [DIR]}
SUITE=${NTFS_WRITE_SUITE:-ntfs-write}
DIR=${2:-$BUILD/$SUITE}
SIZE=${NTFS_WRITE_SIZE:-128M}

# volumes: "NAME SIZE CLUSTER SECTOR" for each volume the suite writes.  A
# test declares its volumes with lines "# volume NAME SIZE CLUSTER
# [SECTOR]" (tests/ntfs-geometry); without any it writes one, named after
# the file, of mkntfs' defaults (cluster and sector "-").
volumes() {
	for t in "$TOP/tests/$SUITE"/[0-9]*-*.sh; do
		n=${t##*/[0-9]*-}
		n=${n%.sh}
		[ "$n" != export ] || continue
		# a workload marked "# opt-in" runs only when NTFS_WRITE_ONLY names it
		if grep -q '^# opt-in' "$t"; then
			case " ${NTFS_WRITE_ONLY:-} " in *" $n "*) ;; *) continue ;; esac
		fi
		# "# volume NAME SIZE CLUSTER [SECTOR]" alone on its line (prose
		# that starts a line with "volume" is not one)
		_decl='^# volume [a-z0-9-]* [^ ]* [^ ]*\( [^ ]*\)\{0,1\}$'
		if grep -q "$_decl" "$t"; then
			grep "$_decl" "$t" | sed 's/^# volume //'
		else
			echo "$n $SIZE - -"
		fi
	done | while read -r n size cl sec; do
		case " ${NTFS_WRITE_ONLY:-$n} " in *" $n "*) echo "$n $size $cl ${sec:--}" ;; esac
	done
}

# windows_volume: the path of the NTFS volume that Debian ships as
# forensics-samples-ntfs (49 MiB, NTFS 3.1, clean, 19 media and text files
# in 4 directories), cut out of its MBR disk once and kept, with a
# directory dosname/ added by ntfs-3g: files and a directory that carry a
# Win32 name and a DOS 8.3 name, as Windows gives them.
windows_volume() {
	_w=$DIR/windows-forensics.img
	if [ ! -f "$_w" ]; then
		[ -f "$BUILD/demo/forensics.img" ] || "$S/images/make-demo-disk.sh" >&2
		# the partition: MBR entry 0, from sector 2048, 100 352 sectors
		dd if="$BUILD/demo/forensics.img" of="$_w.new" bs=512 skip=2048 count=100352 \
			status=none || die "could not cut the volume out of $BUILD/demo/forensics.img"
		MNT=$DIR/mnt LOG=$DIR/ntfs-3g.log
		mkdir -p "$MNT"
		fuse_mount "$_w.new" rw
		mkdir "$MNT/dosname" "$MNT/dosname/Directory With Long Name"
		printf 'long name with a short alias\n' >"$MNT/dosname/Long File Name Document.txt"
		printf 'another\n' >"$MNT/dosname/another-long-name.data"
		printf 'third\n' >"$MNT/dosname/Third Long Name.txt"
		setfattr -n system.ntfs_dos_name -v LONGFI~1.TXT "$MNT/dosname/Long File Name Document.txt" &&
			setfattr -n system.ntfs_dos_name -v ANOTHE~1.DAT "$MNT/dosname/another-long-name.data" &&
			setfattr -n system.ntfs_dos_name -v THIRDL~1.TXT "$MNT/dosname/Third Long Name.txt" &&
			setfattr -n system.ntfs_dos_name -v DIRECT~1 "$MNT/dosname/Directory With Long Name" ||
			{ fuse_reap; die "ntfs-3g could not give DOS names on $_w.new"; }
		fuse_umount
		mv "$_w.new" "$_w"
	fi
	echo "$_w"
}

# ntfs3g_volume IMG LABEL FILL: the path IMG of a blank volume
# (patched_volume) that the function FILL (given the mount point) filled
# through ntfs-3g; made once and kept.
ntfs3g_volume() {
	patched_volume "$1" "$2" ntfs3g_fill "$3"
}

# ntfs3g_fill FILL IMG: mount IMG with ntfs-3g, run FILL MNT, unmount.
ntfs3g_fill() {
	MNT=$DIR/mnt LOG=$DIR/ntfs-3g.log
	mkdir -p "$MNT"
	fuse_mount "$2" rw
	"$1" "$MNT" || { fuse_reap; echo "could not fill $2 through ntfs-3g; log: $LOG" >&2; return 1; }
	fuse_umount
}

# fill_compressed MNT: a directory c/ with the compressed attribute, whose
# files ntfs-3g compresses in LZNT1 units of 16 clusters: compressible text
# of one unit, several units and 2 MiB; random bytes (units stored
# uncompressed); a file with holes between compressed units; mixed text
# and random; an empty and a small (resident) file.
fill_compressed() {
	mkdir "$1/c" && setfattr -n system.ntfs_attrib_be -v 0x00000800 "$1/c" &&
		python3 - "$1/c" <<-'PY'
		import hashlib, os, sys
		d = sys.argv[1]
		def text(n, word):
		    return ((word + " %d\n") * (n // len(word) + 1)).encode()[:n]
		def rand(n, seed):
		    return hashlib.shake_256(seed.encode()).digest(n)
		def put(name, data, at=0):
		    with open(os.path.join(d, name), "r+b" if at else "wb") as f:
		        f.seek(at)
		        f.write(data)
		put("unit.bin", text(65536, "one unit of text"))
		put("text.bin", text(300000, "compressible text line"))
		put("big.txt", text(2 << 20, "two megabytes of text"))
		put("rand.bin", rand(200000, "rand"))
		put("holey.bin", text(5000, "head"))
		put("holey.bin", text(5000, "tail"), 400000)
		put("mixed.bin", text(100000, "mixed") + rand(70000, "mixed") + text(100000, "more"))
		put("odd.bin", text(65537, "odd size"))
		put("empty.bin", b"")
		put("small.txt", b"small file in a compressed directory\n")
		PY
}

# compressed_volume: the path of a 64 MiB volume filled by fill_compressed.
compressed_volume() {
	ntfs3g_volume "$DIR/compressed-lznt1.img" compressed fill_compressed
}

# fill_objid MNT: files with object ids (given by ntfs-3g through
# system.ntfs_object_id, which lists them in $Extend\$ObjId:$O, as Windows'
# link tracking does): ids/ with 20 files, ids/sub/ with 10 more.
fill_objid() {
	mkdir -p "$1/ids/sub" || return 1
	i=0
	while [ $i -lt 30 ]; do
		f=$1/ids/f$i
		[ $i -lt 20 ] || f=$1/ids/sub/f$i
		printf 'file %d with an object id\n' $i >"$f" &&
			setfattr -n system.ntfs_object_id \
				-v "0x$(printf '%02x' $i)0102030405060708090a0b0c0d0e0f" "$f" || return 1
		i=$((i + 1))
	done
}

# objid_volume: the path of a 64 MiB volume filled by fill_objid.
objid_volume() {
	ntfs3g_volume "$DIR/objid.img" objid fill_objid
}

# patched_volume IMG LABEL CMD...: the path IMG of a blank 64 MiB mkntfs
# volume labelled LABEL that "CMD... IMG" changed, made once and kept.
patched_volume() {
	_p=$1 _l=$2
	shift 2
	if [ ! -f "$_p" ]; then
		rm -f "$_p.new"
		truncate -s 64M "$_p.new"
		mkntfs -F -f -q -L "$_l" "$_p.new" >/dev/null 2>&1 || die "mkntfs could not make $_p"
		"$@" "$_p.new" || die "could not make $_p ($*)"
		mv "$_p.new" "$_p"
	fi
	echo "$_p"
}

# quota_volume: the path of a blank volume whose quotas are tracked: the
# defaults entry of $Extend\$Quota:$Q (owner id 1) given the tracking flag
# (scripts/test/ntfs-quota.py track), as Windows leaves it when quota
# management is turned on (tests/ntfs-write/88-quota.sh).
quota_volume() {
	patched_volume "$DIR/quota-tracked.img" quota python3 "$S/test/ntfs-quota.py" track
}

# usnjrnl_volume: the path of a blank volume with a change journal,
# $Extend\$UsnJrnl (mkntfs and ntfs-3g make none: ntfs-3g gives a file the
# streams $J and $Max, and moves it into $Extend;
# scripts/test/ntfs-usnjrnl.py make), for tests/ntfs-write/89-usnjrnl.sh.
usnjrnl_volume() {
	patched_volume "$DIR/usnjrnl.img" usnjrnl usnjrnl_make
}

usnjrnl_make() {
	mkdir -p "$DIR/mnt"
	python3 "$S/test/ntfs-usnjrnl.py" make "$1" "$DIR/mnt"
}

# journal_volume: the path of a blank volume whose $LogFile is as Windows
# leaves it after a clean shutdown: clean restart pages, old log pages
# after them (scripts/images/ntfs_special.py patch logclean), for
# tests/ntfs-write/82-journal.sh.
journal_volume() {
	patched_volume "$DIR/journal-clean.img" journal journal_make
}

journal_make() {
	python3 "$S/images/ntfs_special.py" patch "$1" logclean
}

# validtail_volume: the path of a blank volume with three files v1, v2 and
# v3 of 20 000 random bytes (written by ntfs-3g) whose initialized size
# was then cut to 5000 (scripts/images/ntfs_special.py patch valid): the
# disk still holds the old bytes after it, as Windows' SetFileValidData
# leaves them, for tests/ntfs-write/81-validtail.sh.
validtail_volume() {
	patched_volume "$DIR/validtail.img" validtail validtail_make
}

validtail_make() {
	ntfs3g_fill fill_validtail "$1" || return 1
	for _n in v1 v2 v3; do
		python3 "$S/images/ntfs_special.py" patch "$1" valid $_n >/dev/null || return 1
	done
}

# fill_validtail MNT: v1, v2 and v3 of 20 000 random bytes each.
fill_validtail() {
	for _n in v1 v2 v3; do
		head -c 20000 /dev/urandom >"$1/$_n" || return 1
	done
}

# bigdir_volume: the path of the 100 000-entry volume of the read tests,
# written by ntfs-3g (build/ntfs-images/bigdir.img; its /big has a
# non-resident $BITMAP:$I30), made by make-ntfs-images.sh when missing.
bigdir_volume() {
	"$S/images/make-ntfs-images.sh" >&2 || die "could not make the NTFS test images"
	echo "$BUILD/ntfs-images/bigdir.img"
}

# volume_tree IMG DEST: the files of volume IMG, copied out by ntfs-3g (the
# reference run on tmpfs starts from them: tests/ntfs-write/91-windows.sh,
# 86-compressed.sh).
volume_tree() {
	MNT=$DIR/mnt LOG=$DIR/ntfs-3g.log
	mkdir -p "$MNT" "$2"
	fuse_mount "$1" ro
	cp -a "$MNT/." "$2/" || { fuse_reap; die "could not copy the files of $1"; }
	fuse_umount
}

# template SIZE CLUSTER SECTOR: the path of a blank volume of that shape,
# made by mkntfs once and kept (a sector of 4096 gives records of 4096).
# SIZE "windows" is the volume Windows wrote (windows_volume), SIZE
# "compressed" the one with LZNT1-compressed files (compressed_volume),
# "objid" the one whose files have object ids (objid_volume), "quota" the
# one whose quotas are tracked (quota_volume), "bigdir" the 100 000-entry
# one (bigdir_volume), "usnjrnl" the one with a change journal
# (usnjrnl_volume).
template() {
	[ "$1" != windows ] || { windows_volume; return; }
	[ "$1" != compressed ] || { compressed_volume; return; }
	[ "$1" != objid ] || { objid_volume; return; }
	[ "$1" != quota ] || { quota_volume; return; }
	[ "$1" != usnjrnl ] || { usnjrnl_volume; return; }
	[ "$1" != bigdir ] || { bigdir_volume; return; }
	[ "$1" != journal ] || { journal_volume; return; }
	[ "$1" != validtail ] || { validtail_volume; return; }
	_t=$DIR/blank-$1
	[ "$2" = - ] || _t=$_t-c$2
	[ "$3" = - ] || _t=$_t-s$3
	_t=$_t.img
	if [ ! -f "$_t" ]; then
		rm -f "$_t.new"
		truncate -s "$1" "$_t.new"
		# shellcheck disable=SC2046
		mkntfs -F -f -q -L write $([ "$2" = - ] || echo "-c $2") $([ "$3" = - ] || echo "-s $3") \
			"$_t.new" >/dev/null 2>&1 || die "mkntfs could not make $_t (size $1, cluster $2, sector $3)"
		mv "$_t.new" "$_t"
	fi
	echo "$_t"
}

# source_tar: the path of a plain tar of include/ of Debian's Linux source
# (for tests/ntfs-write/98-untar.sh, attached read-only as disk
# "untar-src": busybox tar reads it from the device), made once and kept.
source_tar() {
	_t=$BUILD/ntfs-write-src/linux-include.tar
	_src=/usr/src/linux-source-6.12.tar.xz
	if [ ! -f "$_t" ]; then
		[ -f "$_src" ] || die "$_src missing: apt-get install linux-source-6.12 (scripts/build/deps.sh)"
		rm -rf "$_t.d" && mkdir -p "$_t.d"
		xz -dc "$_src" | tar -x -C "$_t.d" linux-source-6.12/include ||
			die "could not unpack include/ from $_src"
		tar -c --format=gnu --owner=0 --group=0 --numeric-owner -f "$_t.new" \
			-C "$_t.d/linux-source-6.12" include || die "could not make $_t"
		rm -rf "$_t.d"
		mv "$_t.new" "$_t"
	fi
	echo "$_t:ro"
}

prepare() {
	command -v mkntfs >/dev/null || die "mkntfs missing (scripts/build/deps.sh)"
	drv=${NTFS_WRITE_DRIVER:-${DRIVER:-ours}}
	case $drv in ours | intree) ;; *) die "NTFS_WRITE_DRIVER=$drv: ours or intree" ;; esac
	mkdir -p "$DIR"
	rm -rf "$DIR/out" "$DIR/overlay" "$DIR"/write-*.img
	: >"$DIR/volumes"
	volumes | while read -r n size cl sec; do
		tmpl=$(template "$size" "$cl" "$sec")
		cp --sparse=always "$tmpl" "$DIR/write-$n.img"
		echo "$n $tmpl" >>"$DIR/volumes"
		# a disk of 4096-byte logical blocks for a volume of such sectors
		echo "$DIR/write-$n.img$([ "$sec" != 4096 ] || echo :4k) write-$n"
	done
	if grep -q '^windows ' "$DIR/volumes"; then
		volume_tree "$(windows_volume)" "$DIR/overlay/ntfs-write/tree-windows"
	fi
	if grep -q '^compressed ' "$DIR/volumes"; then
		volume_tree "$(compressed_volume)" "$DIR/overlay/ntfs-write/tree-compressed"
	fi
	if grep -q '^objid ' "$DIR/volumes"; then
		volume_tree "$(objid_volume)" "$DIR/overlay/ntfs-write/tree-objid"
	fi
	if grep -q '^bigdir ' "$DIR/volumes"; then
		volume_tree "$(bigdir_volume)" "$DIR/overlay/ntfs-write/tree-bigdir"
	fi
	# for 88-quota: a tracked volume whose defaults entry is of version 3,
	# which ours must leave alone with one message (not in $DIR/volumes:
	# fsck.ntfs3 rightly reports it)
	if grep -q '^quota ' "$DIR/volumes"; then
		cp --sparse=always "$(quota_volume)" "$DIR/write-quota-bad.img"
		python3 "$S/test/ntfs-quota.py" malform "$DIR/write-quota-bad.img" ||
			die "could not make $DIR/write-quota-bad.img"
		echo "$DIR/write-quota-bad.img write-quota-bad"
	fi
	if grep -q '^untar ' "$DIR/volumes"; then
		echo "$(source_tar) untar-src"
	fi
	# Debian's fio for tests/ntfs-write/95-fio.sh (64 libraries, 80 MB:
	# in this suite's overlay only, not in every initramfs)
	if grep -q '^fio ' "$DIR/volumes"; then
		copy_program fio "$DIR/overlay" || die "fio missing (scripts/build/deps.sh)"
	fi
	# the expected trees and listings (make check-write-big: 100 000s of lines)
	truncate -s "${NTFS_WRITE_OUT_SIZE:-16M}" "$DIR/write-out.img"
	echo "$DIR/write-out.img write-out"
	mkdir -p "$DIR/overlay/ntfs-write"
	{
		echo "NTFS_WRITE_DRIVER=$drv"
		# make stress-ntfs: one workload, for a time
		echo "NTFS_WRITE_ONLY='${NTFS_WRITE_ONLY:-}'"
		echo "NTFS_STRESS_SECONDS='${NTFS_STRESS_SECONDS:-}'"
		echo "NTFS_STRESS_SEED='${NTFS_STRESS_SEED:-}'"
		# make check-write-big: tests/ntfs-write/40-many.sh at 100 000
		echo "NTFS_MANY_N='${NTFS_MANY_N:-}'"
	} >"$DIR/overlay/ntfs-write/env"
}

# listing IMG PREFIX: PREFIX.manifest (walk's format) and PREFIX.xattrs of
# the volume, read through ntfs-3g.
listing() {
	fuse_mount "$1" ro,posix_nlink
	rc=0
	python3 - "$MNT" "$2" <<'EOF' || rc=$?
import ctypes, errno, hashlib, os, stat, struct, sys

root, out = os.fsencode(sys.argv[1]), sys.argv[2]
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(65536)

def xattr(p, name):
    # a buffer of the largest size: ntfs-3g answers a small one wrongly
    got = libc.lgetxattr(p, name.encode(), buf, len(buf))
    if got >= 0:
        return buf.raw[:got]
    e = ctypes.get_errno()
    if e in (errno.ENODATA, errno.EOPNOTSUPP):
        return None
    raise OSError(e, os.strerror(e), p)

def sha(p):
    h = hashlib.sha256()
    with open(p, "rb") as f:
        while True:
            b = f.read(1 << 20)
            if not b:
                return h.hexdigest().encode()
            h.update(b)

def symlink_target(p, rel):
    """The target as stored in the reparse point (IO_REPARSE_TAG_SYMLINK:
    the substitute name, "\\" as "/"; an absolute one loses "\\??\\" and
    its drive letter, the volume's root being "/"), and what ntfs-3g's
    readlink makes of it, listed apart: it cannot follow every form."""
    r = os.readlink(p)
    rp = xattr(p, "system.ntfs_reparse_data")
    t = None
    if rp and len(rp) >= 20 and struct.unpack_from("<I", rp)[0] == 0xA000000C:
        so, sl, po, pl, fl = struct.unpack_from("<HHHHI", rp, 8)
        t = rp[20 + so:20 + so + sl].decode("utf-16-le").encode()
        if not fl & 1:
            if t.startswith(b"\\??\\"):
                t = t[4:]
            if t[1:2] == b":":
                t = t[2:]
        t = t.replace(b"\\", b"/")
    elif rp and len(rp) >= 12 and struct.unpack_from("<I", rp)[0] == 0xA000001D:
        t = rp[12:]			# WSL symlink: UTF-8 after a version word
    if r.startswith(root + b"/"):
        r = b"@MNT@" + r[len(root):]	# ntfs-3g: absolute under its mount point
    links.append(b"\t".join((rel, t if t is not None else b"-", r)))
    return t if t is not None else r

man, xat, links = [], [], []
def visit(rel):
    p = root + rel[1:]
    st = os.lstat(p)
    m = st.st_mode
    if stat.S_ISDIR(m):
        man.append(b"\t".join((b"d", rel, b"-", b"-", b"-", b"-")))
    elif stat.S_ISREG(m):
        man.append(b"\t".join((b"f", rel, b"%d" % st.st_size, sha(p), b"%d" % st.st_nlink, b"-")))
    elif stat.S_ISLNK(m):
        t = symlink_target(p, rel)
        man.append(b"\t".join((b"l", rel, b"%d" % len(t), b"-", b"%d" % st.st_nlink, t)))
    else:
        kind = b"%o" % stat.S_IFMT(m)
        if stat.S_ISCHR(m) or stat.S_ISBLK(m):
            kind += b":%d,%d" % (os.major(st.st_rdev), os.minor(st.st_rdev))
        man.append(b"\t".join((b"o", rel, b"%d" % st.st_size, b"-", b"%d" % st.st_nlink, kind)))
    if not stat.S_ISLNK(m):
        ea = xattr(p, "system.ntfs_ea")
        off = 0
        while ea and off + 8 <= len(ea):
            size, fl, nl, vl = struct.unpack_from("<IBBH", ea, off)
            name = ea[off + 8:off + 8 + nl]
            val = ea[off + 9 + nl:off + 9 + nl + vl]
            if name.startswith(b"user."):
                xat.append(b"\t".join((rel, name, val.hex().encode() or b"-")))
            if size == 0:
                break
            off += size
    if stat.S_ISDIR(m):
        for n in os.listdir(p):
            visit_safe(rel + b"/" + n)

def visit_safe(rel):
    # an error on one object is one line of the listing, as walk writes it
    try:
        visit(rel)
    except OSError as e:
        man.append(b"\t".join((b"?", rel, b"ERROR:%d" % e.errno, b"-", b"-", b"-")))

visit_safe(b".")
for suffix, lines in (("manifest", man), ("xattrs", xat), ("links", links)):
    with open(out + "." + suffix, "wb") as f:
        f.writelines(l + b"\n" for l in sorted(lines))
EOF
	fuse_umount
	return $rc
}

# same EXPECTED FOUND: compare, show the first differences as TAP comments.
same() {
	cmp -s "$1" "$2" && return 0
	echo "#   $(diff -u "$1" "$2" | grep -c '^[-+][^-+]') lines differ (- expected, + ntfs-3g), first ones:"
	diff -u "$1" "$2" | grep '^[-+][^-+]' | head -n 12 | cut -c1-200 | sed 's/^/#   /'
	return 1
}

# free_mft IMG: "FREE MFT": free bytes (statvfs through ntfs-3g, from
# $Bitmap) and the bytes allocated to $MFT.
free_mft() {
	fuse_mount "$1" ro,show_sys_files
	python3 -c 'import os, sys
s = os.statvfs(sys.argv[1])
print(s.f_bfree * s.f_frsize, os.lstat(sys.argv[1] + "/$MFT").st_blocks * 512)' "$MNT"
	fuse_umount
}

# space NAME IMG EXPECTED-PREFIX DRIVER BLANK: for a workload that recorded the
# driver's free count after deleting everything (space): ntfs-3g finds the
# same free space in $Bitmap, and what the volume lost since it was blank
# is exactly $MFT's growth (records are never given back).
space() {
	[ -f "$3.free-after" ] || return 0
	_blank=$(free_mft "$5") || return 1
	_now=$(free_mft "$2") || return 1
	set -- "$1" "$2" "$3" "$4" $_blank $_now
	check "$1 ($4 wrote it): ntfs-3g's free space (\$Bitmap) equals $4's statfs after the delete" \
		test "$7" = "$(cat "$3.free-after")"
	echo "#   ntfs-3g: $7 bytes free, $4: $(cat "$3.free-after")"
	check "$1 ($4 wrote it): free space lost since the blank volume = \$MFT's growth" \
		test $(($5 - $7)) = $(($8 - $6))
	echo "#   free $5 -> $7 bytes, \$MFT $6 -> $8 bytes"
}

# extend_file WHAT NAME IMG BLANK DRIVER CLAIM: judge one $Extend file of
# IMG against the blank volume BLANK with scripts/test/ntfs-WHAT.py check,
# as the design says ("$Extend after this driver wrote"): "quota" checks
# that $Quota:$Q is BLANK's but for the out-of-date flag of the defaults
# entry, set exactly when BLANK tracks quotas; "usnjrnl" that a change
# journal was stamped (a new id, the size of $J as the lowest valid USN).
# Exit 2 means the volume has no such file (NTFS 1.2, or mkntfs made no
# journal): said, not judged; so is the in-tree driver's result.
extend_file() {
	_j=
	[ "$5" != intree ] || _j=--unjudged
	_rc=0
	python3 "$S/test/ntfs-$1.py" check "$4" "$3" $_j </dev/null >"$DIR/host/$2.$1" 2>&1 || _rc=$?
	if [ $_rc = 2 ]; then
		echo "# $2: $(tail -n 1 "$DIR/host/$2.$1")"
	elif [ "$5" = intree ]; then
		echo "# $2 (intree wrote it): $1: $(tail -n 1 "$DIR/host/$2.$1")"
	else
		check "$2 ($5 wrote it): $6" test $_rc = 0
		sed 's/^/#   /' "$DIR/host/$2.$1"
	fi
}

verify() {
	. "$TOP/tests/include/tap.sh"
	fsck=$BUILD/tools/fsck.ntfs3
	[ -x "$fsck" ] || make -s -C "$TOP/tools" O="$BUILD/tools" >/dev/null 2>&1 || true
	mkdir -p "$DIR/out" "$DIR/host"
	rm -rf "$DIR/out"/* "$DIR/host"/*
	check "the VM left its expected trees on write-out" \
		tar -xf "$DIR/write-out.img" -C "$DIR/out"
	MNT=$DIR/mnt
	LOG=$DIR/ntfs-3g.log
	: >"$LOG"
	mkdir -p "$MNT"
	trap 'fuse_reap' EXIT
	# the workloads this boot had disks for (prepare's list)
	while read -r n blank; do
		img=$DIR/write-$n.img
		exp=$DIR/out/$n
		drv=$(cat "$exp.driver" 2>/dev/null || echo "?")
		if [ ! -f "$exp.manifest" ] || [ ! -f "$img" ]; then
			check "$n: the VM ran the workload (expected tree on write-out)" false
			continue
		fi
		rc=0
		"$fsck" -n "$img" </dev/null >"$DIR/host/$n.fsck" 2>&1 || rc=$?
		check "$n ($drv wrote it): fsck.ntfs3 -n exits 0" test $rc = 0
		[ $rc = 0 ] || { echo "#   exit $rc"; head -n 12 "$DIR/host/$n.fsck" | sed 's/^/#   /'; }
		# the copies of each file's size in its directory entries
		# (Windows lists directories from them): ours keeps them; the
		# in-tree driver's result is shown, not judged
		rc=0
		python3 "$S/test/ntfs-dupinfo.py" "$img" </dev/null >"$DIR/host/$n.dupinfo" 2>&1 || rc=$?
		if [ "$drv" = intree ]; then
			echo "# $n (intree wrote it): $(tail -n 1 "$DIR/host/$n.dupinfo")"
		else
			check "$n ($drv wrote it): each directory entry's copy of a file's size is the file's size" \
				test $rc = 0
			[ $rc = 0 ] || head -n 6 "$DIR/host/$n.dupinfo" | sed 's/^/#   /'
		fi
		# no log record of an earlier session may survive our changes
		# (ntfs_logfile_reset()): the journal reads as 0xff throughout
		if [ "$drv" = ours ]; then
			_left=$(ntfscat -f -i 2 "$img" 2>/dev/null | tr -d '\377' | wc -c)
			check "$n (ours wrote it): \$LogFile is emptied (0xff throughout; $_left other bytes)" \
				test "$_left" = 0
		fi
		extend_file quota "$n" "$img" "$blank" "$drv" \
			"\$Quota:\$Q as blank, out of date exactly when quotas are tracked"
		extend_file usnjrnl "$n" "$img" "$blank" "$drv" \
			"\$UsnJrnl stamped: a new journal id, \$J's size the lowest valid USN"
		if ( listing "$img" "$DIR/host/$n" ) </dev/null >"$DIR/host/$n.err" 2>&1; then
			check "$n ($drv wrote it), ntfs-3g: every name, type, size, SHA-256, link count and symlink target as written" \
				same "$exp.manifest" "$DIR/host/$n.manifest"
			check "$n ($drv wrote it), ntfs-3g: every user.* xattr as written" \
				same "$exp.xattrs" "$DIR/host/$n.xattrs"
			# symlinks whose target ntfs-3g's readlink does not give as stored
			awk -F '\t' '$2 != $3' "$DIR/host/$n.links" >"$DIR/host/$n.links-differ"
			if [ -s "$DIR/host/$n.links-differ" ]; then
				echo "# $n: ntfs-3g's readlink differs from the stored target (path, stored, ntfs-3g):"
				sed 's/^/#   /' "$DIR/host/$n.links-differ"
			fi
		else
			check "$n ($drv wrote it): ntfs-3g mounts and lists the volume" false
			tail -n 5 "$DIR/host/$n.err" | sed 's/^/#   /'
		fi
		space "$n" "$img" "$exp" "$drv" "$blank"
	done <"$DIR/volumes"
	f=$tap_failed
	tap_done || :
	echo "$((tap_n - f)) passed, $f failed"
	[ "$f" = 0 ]
}

case $cmd in
prepare) prepare ;;
verify) verify ;;
*) die "usage: ntfs-write-verify.sh prepare|verify [DIR]" ;;
esac
