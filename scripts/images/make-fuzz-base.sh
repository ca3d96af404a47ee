#!/bin/sh
# make-fuzz-base.sh: the small valid NTFS volumes the corruption fuzzer
# (scripts/images/ntfs-fuzz-gen.py, tests/ntfs-fuzz/) mutates, in build/fuzz/:
#   base.img        6 MiB, 512-byte sectors, 4 KiB clusters, 1 KiB records
#   base-c512.img   6 MiB, 512-byte clusters: records and index blocks span
#                   clusters
#   base-s4k.img    8 MiB, 4 KiB sectors, clusters and records (one fixup
#                   per record)
# (4 KiB index blocks in all.)  Each is made by mkntfs and filled
# through ntfs-3g (FUSE, streams_interface=windows) with what gives the
# metadata parsers work, in about 110 objects (each costs time in the
# emulated VM, for every case):
#   - nested directories, an empty one, a compressed one (LZNT1 files);
#   - /many: 64 files with 240-character names, so that few entries need
#     21 INDX blocks in three levels, and the directory's $INDEX_ROOT moves
#     to an extension record ($ATTRIBUTE_LIST on a directory);
#   - /fragmented.bin: 240 one-cluster runs, $DATA split into two extents
#     in the base and an extension record;
#   - files with 12 and 7 hard links: $FILE_NAMEs in extension records;
#   - a sparse file, symlinks (ntfs-3g's and a reparse point), $EA user
#     xattrs on a file and a directory, a named stream, a hard link.
# (ntfs-3g makes every $ATTRIBUTE_LIST non-resident.)  File data is small:
# the fuzzer corrupts metadata.
#
# Idempotent: a stamp holds a hash of this script, ntfs_image.py and the
# ntfs-3g version.
# Never mounts NTFS with the host kernel's driver.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/ntfs-3g.sh"
OUT=$BUILD/fuzz
IMAGES="base:6M:-c4096 base-c512:6M:-c512 base-s4k:8M:-s4096:-c4096"
SELF=$TOP/scripts/images/make-fuzz-base.sh

for t in mkntfs ntfs-3g setfattr python3 mountpoint; do
	command -v "$t" >/dev/null 2>&1 || die "make-fuzz-base: $t missing (scripts/build/deps.sh)"
done
key=$( (cat "$SELF" "$S/images/ntfs_image.py"; dpkg-query -W -f='${Version}' ntfs-3g 2>/dev/null || true) |
	sha256sum | cut -d' ' -f1)
if [ "$(cat "$OUT/stamp" 2>/dev/null)" = "$key" ] &&
	[ -f "$OUT/base.img" ] && [ -f "$OUT/base-c512.img" ] && [ -f "$OUT/base-s4k.img" ]; then
	exit 0
fi
[ "$(id -u)" = 0 ] || die "make-fuzz-base: needs root (FUSE mount)"
[ -c /dev/fuse ] || die "make-fuzz-base: /dev/fuse missing"

say FUZZ "base images: mkntfs + ntfs-3g (${OUT#"$TOP"/}/base*.img)"
mkdir -p "$OUT"
rm -f "$OUT/stamp"
NEW=
MNT=$OUT/mnt
LOG=$LOGS/make-fuzz-base.log
: >"$LOG"
cleanup() {
	fuse_reap
	[ -z "$NEW" ] || rm -f "$NEW"
	rm -f "$OUT/helper.py"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

cat >"$OUT/helper.py" <<'EOF'
import hashlib, os, sys
from ntfs_image import ea_value, symlink_reparse

def data(seed, size, kind="text"):
    """Deterministic bytes: repeated text (compressible) or SHAKE-256."""
    if kind == "rand":
        return hashlib.shake_256(seed.encode()).digest(size)
    line = ("%s: the quick brown fox jumps over the lazy dog\n" % seed).encode()
    return (line * (size // len(line) + 1))[:size]

cmd, args = sys.argv[1], sys.argv[2:]
if cmd == "gen":		# gen PATH SIZE [KIND]
    with open(args[0], "wb") as f:
        f.write(data(os.path.basename(args[0]), int(args[1]), *args[2:]))
elif cmd == "at":		# at PATH OFFSET SIZE KIND
    fd = os.open(args[0], os.O_WRONLY | os.O_CREAT, 0o644)
    os.pwrite(fd, data(args[0] + args[1], int(args[2]), args[3]), int(args[1]))
    os.close(fd)
elif cmd == "many":		# many DIR COUNT: small resident files, long names
    for i in range(int(args[1])):
        name = ("file-%03d-" % i + "in-a-directory-with-long-names-" * 8)[:240]
        with open("%s/%s.txt" % (args[0], name), "w") as f:
            f.write("%d\n" % i)
elif cmd == "fragment":		# fragment PATH CLUSTERS
    # Written backwards, one cluster at a time: ntfs-3g gives each cluster
    # its own run, the runlist overflows the record, the $DATA attribute is
    # split into extents in extension records ($ATTRIBUTE_LIST).
    path, n = args[0], int(args[1])
    cl = os.statvfs(os.path.dirname(path)).f_bsize
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    for i in reversed(range(n)):
        os.pwrite(fd, data("%s:%d" % (path, i), cl, "rand"), i * cl)
    os.close(fd)
elif cmd == "ea":		# ea NAME VALUE...: $EA contents as hex for setfattr
    print("0x" + ea_value(zip(args[0::2], args[1::2])).hex())
elif cmd == "symlink":		# symlink TARGET: relative symlink reparse buffer
    print("0x" + symlink_reparse(args[0]).hex())
EOF
# (the $EA and reparse point formats: ntfs_image.py)
h() {
	PYTHONPATH="$S/images" python3 "$OUT/helper.py" "$@"
}

# populate M: the tree (the same in every image).
populate() {
	M=$1
	echo "a small file at the root" >"$M/hello.txt"
	mkdir -p "$M/dir-a/sub/deeper" "$M/dir-b" "$M/empty"
	h gen "$M/dir-a/text.txt" 5000
	h gen "$M/dir-a/sub/deeper/leaf.bin" 9000 rand
	h gen "$M/dir-b/two-clusters.bin" 8192 rand
	mkdir "$M/many"
	h many "$M/many" 64
	h fragment "$M/fragmented.bin" 240
	mkdir "$M/compressed"
	setfattr -n system.ntfs_attrib_be -v 0x00000800 "$M/compressed"
	h gen "$M/compressed/text.txt" 100000
	h gen "$M/compressed/random.bin" 9000 rand
	h at "$M/compressed/holey.bin" 0 5000 text
	h at "$M/compressed/holey.bin" 200000 5000 text
	mkdir "$M/compressed/sub"
	h gen "$M/compressed/sub/nested.txt" 70000
	h at "$M/sparse.bin" 0 4096 rand
	h at "$M/sparse.bin" 520000 4096 rand
	truncate -s 1048576 "$M/sparse.bin"
	ln -s hello.txt "$M/link-to-hello"
	ln -s dir-a/sub "$M/link-to-dir"
	: >"$M/reparse-link"
	setfattr -n system.ntfs_reparse_data -v "$(h symlink 'dir-a\text.txt')" "$M/reparse-link"
	setfattr -n system.ntfs_ea -v "$(h ea user.one "first value" user.two "second")" "$M/hello.txt"
	setfattr -n system.ntfs_ea -v "$(h ea user.on-dir "an EA on a directory")" "$M/dir-a"
	echo "a named stream" >"$M/dir-b/two-clusters.bin:stream"
	ln "$M/hello.txt" "$M/dir-b/hello-again.txt"
	mkdir "$M/links"
	h gen "$M/links/name-00-of-a-file-with-many-hard-links-to-overflow-its-record" 3000
	i=1
	while [ $i -lt 12 ]; do
		ln "$M/links/name-00-of-a-file-with-many-hard-links-to-overflow-its-record" \
			"$M/links/name-$(printf %02d $i)-of-a-file-with-many-hard-links-to-overflow-its-record"
		i=$((i + 1))
	done
	h gen "$M/links/few-links-00-with-a-name-long-enough-to-need-more-room-in-the-record" 100
	for i in 1 2 3 4 5 6; do
		ln "$M/links/few-links-00-with-a-name-long-enough-to-need-more-room-in-the-record" \
			"$M/links/few-links-0$i-with-a-name-long-enough-to-need-more-room-in-the-record"
	done
}

# build NAME SIZE MKNTFS-OPTION...
build() {
	name=$1 size=$2
	shift 2
	NEW=$OUT/$name.img.new
	rm -f "$NEW"
	truncate -s "$size" "$NEW"
	mkntfs -F -f -q "$@" -L fuzz-base "$NEW" >>"$LOG" 2>&1 ||
		die "mkntfs $* failed; log: $LOG"
	mkdir -p "$MNT"
	fuse_mount "$NEW" streams_interface=windows
	populate "$MNT" >>"$LOG" 2>&1 || die "filling $name.img failed; log: $LOG"
	fuse_umount
	mv "$NEW" "$OUT/$name.img"
	NEW=
}

for spec in $IMAGES; do
	# shellcheck disable=SC2046
	build $(echo "$spec" | tr ':' ' ')
done
echo "$key" >"$OUT/stamp"
