#!/bin/sh
# A volume written by the in-tree ntfs3 inside this VM (on a blank mkntfs
# image, disk "blank"), then read by ours: the listing, file contents,
# links, symlinks and user.* xattrs must be what the in-tree driver saw.
. /tests/include/tap.sh
. /hx/env
WALK=/tests/tools/walk
MNT=/mnt/intree-written

find_disk() {	# NAME: its /dev/vdX
	set -- a b c d e f g h i j k l m n o p
	for n in $HX_DISK_NAMES; do
		[ "$n" = "$NAME" ] && { echo "/dev/vd$1"; return 0; }
		shift
	done
	return 1
}

use_driver() {
	rmmod ntfs3 2>/dev/null
	insmod "/lib/modules/$1/ntfs3.ko"
}

# Deterministic content: N bytes from an LCG seeded by the name and size.
gen() {
	awk -v n="$2" -v name="$1" 'BEGIN {
		x = (length(name) * 7919 + n) % 2147483647 + 1
		for (i = 0; i < n; i++) {
			x = (x * 16807) % 2147483647
			printf "%c", 32 + x % 90
		}
	}'
}

populate() {
	mkdir -p "$1/dir/sub/deeper" "$1/many" "$1/Ünïcödé ディレクトリ"
	for size in 0 1 511 512 4095 4096 4097 65543 300000; do
		gen "f$size" "$size" >"$1/dir/file-$size"
	done
	i=0
	while [ $i -lt 400 ]; do
		echo "entry $i" >"$1/many/name-$i.txt"
		i=$((i + 1))
	done
	gen big 2000000 >"$1/dir/sub/deeper/big.bin"
	echo unicode >"$1/Ünïcödé ディレクトリ/😀 émoji.txt"
	ln "$1/dir/file-4096" "$1/dir/sub/hardlink-4096"
	ln -s ../file-512 "$1/dir/sub/rel-link"
	ln -s /absolute/target "$1/dir/abs-link"
	truncate -s 5000000 "$1/dir/sparse"
	printf 'tail' | dd of="$1/dir/sparse" bs=1 seek=4000000 conv=notrunc 2>/dev/null
	"$WALK" setxattr "$1/dir/file-1" user.color blue
	"$WALK" setxattr "$1/many/name-7.txt" user.note "a longer value with spaces"
}

run() {
	NAME=blank
	dev=$(find_disk) || { echo "# no disk named blank"; return 1; }
	cp "$dev" /tmp/intree.img || return 1
	loop=$(losetup -f) && losetup "$loop" /tmp/intree.img || return 1
	mkdir -p "$MNT"
	use_driver intree
	mount -t ntfs3 -o iocharset=utf8 "$loop" "$MNT" || return 1
	populate "$MNT"
	umount "$MNT"
	mount -t ntfs3 -o ro,iocharset=utf8 "$loop" "$MNT" || return 1
	"$WALK" manifest "$MNT" | sort >/tmp/intree.manifest
	"$WALK" xattrs "$MNT" | sort >/tmp/intree.xattrs
	umount "$MNT"

	use_driver ours
	check "our ntfs3 mounts the volume the in-tree driver wrote" \
		mount -t ntfs3 -o ro "$loop" "$MNT"
	"$WALK" manifest "$MNT" | sort >/tmp/ours.manifest
	"$WALK" xattrs "$MNT" | sort >/tmp/ours.xattrs
	umount "$MNT"
	check "$(wc -l </tmp/intree.manifest) objects: listing, sizes, hashes, links as written" \
		cmp -s /tmp/intree.manifest /tmp/ours.manifest
	diff /tmp/intree.manifest /tmp/ours.manifest | grep '^[-+][^-+]' | head | sed 's/^/#   /'
	check "$(wc -l </tmp/intree.xattrs) user.* xattrs as written" \
		cmp -s /tmp/intree.xattrs /tmp/ours.xattrs
	diff /tmp/intree.xattrs /tmp/ours.xattrs | grep '^[-+][^-+]' | head | sed 's/^/#   /'
	losetup -d "$loop"
	rm -f /tmp/intree.img
}

run || check "setting up the in-tree-written volume" false
rmmod ntfs3 2>/dev/null
insmod /lib/modules/ours/ntfs3.ko
tap_done
