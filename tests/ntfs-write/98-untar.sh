#!/bin/sh
# untar: a real source tree, include/ of Debian's Linux source (about
# 6 500 entries, 42 MB: headers, directories, a few symlinks), unpacked
# with tar from disk "untar-src" (a plain tar the host makes once,
# scripts/test/ntfs-write-verify.sh), checked after a remount, removed
# with rm -rf, and unpacked again: the free space it takes must be the same
# the second time (records and clusters given back exactly, $MFT grown
# once).  The second copy stays for the checks of the frame (live,
# remount, in-tree ntfs3, ntfs-3g, fsck.ntfs3).
# Frame: tests/include/ntfs-write.sh.
#
# volume untar 256M - -
. /tests/include/ntfs-write.sh

workload() {
	d=$1
	src=$(disk_dev untar-src) || {
		report 1 "the source tree's disk (untar-src) is attached"
		return
	}
	v "untar of include/" tar -xf "$src" -C "$d"
	remount
	if on_volume; then free1=$("$FSOPS" free "$d"); fi
	rmrf "rm -rf of it" "$d/include"
	v "untar of include/ again" tar -xf "$src" -C "$d"
	remount
	if on_volume && [ "$DRIVER" = ours ]; then
		free2=$("$FSOPS" free "$d")
		check "ours: the second copy leaves the free space of the first exactly" \
			test "$free2" = "$free1"
		echo "# free after the first copy: $free1, after the second: $free2"
	fi
}

run_workload untar
write_done
