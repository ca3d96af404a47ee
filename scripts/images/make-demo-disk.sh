#!/bin/sh
# make-demo-disk.sh: the NTFS volumes that "make run" attaches.
#   build/demo/demo.img        64 MiB, made by mkntfs, filled by ntfs-3g
#   build/demo/forensics.img   Debian's forensics-samples-ntfs volume (MBR)
set -eu
. "$(dirname "$0")/../lib.sh"
d=$BUILD/demo
mkdir -p "$d"

populate_fuse() {
	mnt=$d/mnt
	mkdir -p "$mnt"
	ntfs-3g -o streams_interface=windows "$d/demo.img.new" "$mnt" 2>/dev/null || return 1
	echo "Hello from an NTFS volume made by mkntfs and ntfs-3g." >"$mnt/hello.txt"
	mkdir -p "$mnt/docs/deep/deeper"
	seq 1 20000 >"$mnt/docs/numbers.txt"
	echo "unicode" >"$mnt/docs/Grüße – 日本語.txt"
	truncate -s 32M "$mnt/sparse.bin"
	echo "data at 16 MiB" | dd of="$mnt/sparse.bin" bs=1 seek=16777216 conv=notrunc 2>/dev/null
	ln "$mnt/hello.txt" "$mnt/docs/hello-hardlink.txt"
	ln -s ../hello.txt "$mnt/docs/hello-symlink"
	echo "alternate stream" >"$mnt/hello.txt:stream"
	setfattr -n user.demo -v "an extended attribute" "$mnt/hello.txt" 2>/dev/null || true
	umount "$mnt"
}

populate_ntfscp() {
	echo "Hello from an NTFS volume made by mkntfs and ntfscp." >"$d/hello.txt"
	ntfscp -q "$d/demo.img.new" "$d/hello.txt" hello.txt
}

if [ ! -f "$d/demo.img" ]; then
	say DISK "demo.img: mkntfs + ntfs-3g"
	rm -f "$d/demo.img.new"
	truncate -s 64M "$d/demo.img.new"
	mkntfs -F -f -q -L demo "$d/demo.img.new" >"$LOGS/mkntfs.log" 2>&1 ||
		die "mkntfs failed; log: $LOGS/mkntfs.log"
	populate_fuse || populate_ntfscp
	mv "$d/demo.img.new" "$d/demo.img"
fi
if [ ! -f "$d/forensics.img" ]; then
	say DISK "forensics.img from forensics-samples-ntfs"
	xz -dc /usr/share/forensics-samples/fs.ntfs.xz >"$d/forensics.img.new"
	mv "$d/forensics.img.new" "$d/forensics.img"
fi
