#!/bin/sh
# make-fsck-images.sh: small fresh NTFS volumes for the fsck.ntfs3 host test
# (tests/host/fsck-ntfs3.sh, tests/fsck/README.md), in build/fsck-images/:
#
#   cC-sS.img   mkntfs -c C -s S, for every cluster size C from 512 bytes to
#               2 MiB with 512-byte sectors (1 KiB records), and from 4 KiB
#               to 2 MiB with 4096-byte sectors (4 KiB records), filled
#               through ntfs-3g with the same small tree
#
# The tree (populate below) holds what the checker and the damage generator
# (scripts/images/make-ntfs-damaged.py, which starts from c4k-s512.img) need:
# small resident files with names of equal length in dir/, two
# non-resident files of the same size in one run each (cross/), a
# directory with an index allocation (many/), a file with enough long
# hard links to need an $ATTRIBUTE_LIST (links/), a sparse file, a named
# stream, $EA, symbolic links, an empty file and an empty directory.
#
# Idempotent: build/fsck-images/stamp holds a hash of this script and the
# ntfs-3g version; when it matches nothing is done.  Never mounts NTFS with
# the host kernel's driver.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/ntfs-3g.sh"
OUT=$BUILD/fsck-images
SELF=$TOP/scripts/images/make-fsck-images.sh

# name size mkntfs-options: the volume is sized so that it has at least a
# few hundred clusters (mkntfs refuses fewer), sparse on the host.
IMAGES="
c512-s512 8M -c512
c1k-s512 8M -c1024
c2k-s512 8M -c2048
c4k-s512 8M -c4096
c8k-s512 16M -c8192
c16k-s512 16M -c16384
c32k-s512 32M -c32768
c64k-s512 64M -c65536
c128k-s512 128M -c131072
c256k-s512 256M -c262144
c512k-s512 512M -c524288
c1m-s512 1G -c1048576
c2m-s512 2G -c2097152
c4k-s4k 8M -c4096:-s4096
c8k-s4k 16M -c8192:-s4096
c16k-s4k 16M -c16384:-s4096
c32k-s4k 32M -c32768:-s4096
c64k-s4k 64M -c65536:-s4096
c128k-s4k 128M -c131072:-s4096
c256k-s4k 256M -c262144:-s4096
c512k-s4k 512M -c524288:-s4096
c1m-s4k 1G -c1048576:-s4096
c2m-s4k 2G -c2097152:-s4096
"

for t in mkntfs ntfs-3g setfattr mountpoint fallocate; do
	command -v "$t" >/dev/null 2>&1 || die "make-fsck-images: $t missing (scripts/build/deps.sh)"
done
key=$( (cat "$SELF"; dpkg-query -W -f='${Version}' ntfs-3g 2>/dev/null || true) |
	sha256sum | cut -d' ' -f1)
uptodate() {
	[ "$(cat "$OUT/stamp" 2>/dev/null)" = "$key" ] || return 1
	for name in $(echo "$IMAGES" | awk 'NF { print $1 }'); do
		[ -f "$OUT/$name.img" ] || return 1
	done
}
if uptodate; then
	say NTFS "fsck images up to date: ${OUT#"$TOP"/}"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "make-fsck-images: needs root (FUSE mounts)"
[ -c /dev/fuse ] || die "make-fsck-images: /dev/fuse missing"

NEW=$OUT.new
MNT=$NEW/mnt
LOG=$LOGS/fsck-images.log
trap 'fuse_abandon "$NEW"' EXIT
trap 'exit 1' INT TERM HUP
rm -rf "$NEW"
mkdir -p "$MNT"
: >"$LOG"

# text N: N bytes of repeated text.
text() {
	yes "fsck.ntfs3 test volume: the quick brown fox jumps over the lazy dog" |
		head -c "$1"
}

# populate M: the tree, the same on every volume.
populate() {
	M=$1
	echo "a small file at the root" >"$M/hello.txt"
	mkdir "$M/dir" "$M/cross" "$M/many" "$M/links" "$M/empty-dir"
	# Resident files whose names all have the same length (index-order
	# swaps two of them without changing any entry's size).
	for i in 1 2 3 4 5 6; do
		echo "resident file $i" >"$M/dir/file-$i.txt"
	done
	mkdir "$M/dir/sub"
	echo "deeper" >"$M/dir/sub/deep.txt"
	# Two non-resident files of the same size, each one run.
	text 12288 >"$M/cross/one.bin"
	text 12288 >"$M/cross/two.bin"
	text 100000 >"$M/big.txt"
	# A directory whose index needs INDX blocks.
	i=0
	while [ $i -lt 40 ]; do
		echo "$i" >"$M/many/entry-$(printf %03d $i)-with-a-name-long-enough-to-fill-index-blocks-quickly.txt"
		i=$((i + 1))
	done
	# Hard links with long names: the $FILE_NAMEs overflow the base
	# record (1 KiB and 4 KiB records), ntfs-3g adds an $ATTRIBUTE_LIST.
	long="name-of-a-file-with-many-hard-links-long-enough-to-overflow-its-mft-record-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	text 3000 >"$M/links/00-$long"
	i=1
	while [ $i -lt 16 ]; do
		ln "$M/links/00-$long" "$M/links/$(printf %02d $i)-$long"
		i=$((i + 1))
	done
	# Sparse: data at the start and at 2 MiB, a hole between.
	echo "start" >"$M/sparse.bin"
	echo "middle" | dd of="$M/sparse.bin" bs=1 seek=2097152 conv=notrunc 2>/dev/null
	truncate -s 4194304 "$M/sparse.bin"
	echo "a named stream" >"$M/hello.txt:stream"
	setfattr -n user.test -v "an extended attribute" "$M/hello.txt"
	ln -s hello.txt "$M/link-to-hello"
	ln "$M/hello.txt" "$M/dir/hello-again.txt"
	: >"$M/empty.txt"
}

# image NAME SIZE OPTIONS (colon-separated)
image() {
	img=$NEW/$1.img
	truncate -s "$2" "$img"
	# shellcheck disable=SC2046
	mkntfs -F -f -q -L "fsck-$1" $(echo "$3" | tr ':' ' ') "$img" >>"$LOG" 2>&1 ||
		die "mkntfs $3 for $1 failed; log: $LOG"
	fuse_mount "$img" streams_interface=windows
	populate "$MNT" >>"$LOG" 2>&1 || die "filling $1 failed; log: $LOG"
	fuse_umount
	fallocate -d "$img"
}

say NTFS "building fsck images in ${OUT#"$TOP"/} (log: ${LOG#"$TOP"/})"
start=$(date +%s)
# not "echo | while": the loop must run in this shell (traps, die)
while read -r name size opts; do
	[ -n "$name" ] || continue
	image "$name" "$size" "$opts" </dev/null
done <<EOF
$IMAGES
EOF
rmdir "$MNT"
echo "$key" >"$NEW/stamp"
rm -rf "$OUT"
mv "$NEW" "$OUT"
say NTFS "fsck images done in $(($(date +%s) - start)) s, $(du -sm "$OUT" | cut -f1) MiB on disk"
