#!/bin/sh
# compressed: writes into LZNT1-compressed files that another system made.
# The volume comes from the host (compressed_volume in
# scripts/test/ntfs-write-verify.sh): ntfs-3g compressed the files of c/
# in units of 16 clusters; the host copies them out into the overlay
# (tree-compressed), and the reference on tmpfs starts from that copy.
# Ours stores a unit it writes into uncompressed (all 16 clusters, valid
# NTFS) and leaves the others packed: writes inside a unit, across units,
# into holes, past the end and far past it, through a shared mapping;
# cuts inside a unit and growth after; a remount between phases.  The
# files keep their compressed attribute; holes and shifts are refused
# (EOPNOTSUPP).  The frame then checks the whole volume live, after a
# remount, with the in-tree ntfs3, ntfs-3g and fsck.ntfs3.
# Frame: tests/include/ntfs-write.sh.
#
# volume compressed compressed - -
. /tests/include/ntfs-write.sh

# compressed_flag PATH: 1 when the file has FILE_ATTRIBUTE_COMPRESSED
# (0x800: bit 3 of the second byte of system.ntfs_attrib, little-endian)
compressed_flag() {
	_h=$(/tests/tools/wsl-probe getx "$1" system.ntfs_attrib) || return 1
	echo $(((0x$(echo "$_h" | cut -c3-4) >> 3) & 1))
}

workload() {
	d=$1
	if ! on_volume; then
		cp -a /ntfs-write/tree-compressed/. "$d/" || report 1 "the compressed files copied to tmpfs"
	fi
	c=$d/c
	x OK "50 bytes into the first unit of text.bin" pwrite "$c/text.bin" 100 50 1
	x OK "4 KiB into its second unit" pwrite "$c/text.bin" 70000 4096 2
	x OK "across the boundary of units 3 and 4" pwrite "$c/text.bin" 196600 20 3
	x OK "append 10 000 bytes" append "$c/text.bin" 10000 4
	x OK "20 bytes across a unit boundary of random bytes" pwrite "$c/rand.bin" 65530 20 5
	x OK "into the hole of holey.bin" pwrite "$c/holey.bin" 200000 100 6
	x OK "past its end, a gap of units" pwrite "$c/holey.bin" 600000 100 7
	x OK "cut mixed.bin inside a unit" truncate "$c/mixed.bin" 150000
	x OK "write past the cut" pwrite "$c/mixed.bin" 200000 3000 8
	x OK "cut unit.bin to 30 000" truncate "$c/unit.bin" 30000
	x OK "grow it to 100 000" truncate "$c/unit.bin" 100000
	x OK "write into the grown part" pwrite "$c/unit.bin" 90000 10 9
	x OK "a store through a shared mapping" mwrite "$c/text.bin" 140000 5000 10
	x OK "the resident file grows out of its record" pwrite "$c/small.txt" 2000 3000 11
	x OK "the empty file gets 70 000 bytes" pwrite "$c/empty.bin" 0 70000 12
	x OK "a new file in the compressed directory" pwrite "$c/new.bin" 0 100000 13
	v "one byte into every 64 KiB of big.txt" sh -c "i=0; while [ \$i -lt 32 ]; do
		$FSOPS pwrite '$c/big.txt' \$((i * 65536 + 777)) 1 \$((20 + i)) | grep -qx OK || exit 1
		i=\$((i + 1)); done"
	if on_volume; then
		x EOPNOTSUPP "PUNCH_HOLE in a compressed file is refused" punch "$c/odd.bin" 0 65536
		x EOPNOTSUPP "COLLAPSE_RANGE too" collapse "$c/odd.bin" 0 65536
		is 1 "text.bin keeps its compressed attribute" compressed_flag "$c/text.bin"
	fi
	remount
	x OK "after a remount: into a unit written before" pwrite "$c/text.bin" 70100 100 14
	x OK "and into one still packed" pwrite "$c/text.bin" 250000 100 15
	x OK "1 MiB over the middle of big.txt" pwrite "$c/big.txt" 500000 1048576 16
	x OK "odd.bin cut to 0" truncate "$c/odd.bin" 0
	x OK "and written again" pwrite "$c/odd.bin" 0 65537 17
	x OK "rename a compressed file" rename "$c/rand.bin" "$d/rand-moved.bin"
	x OK "link one" link "$c/mixed.bin" "$c/mixed-link.bin"
	x OK "remove one" unlink "$c/holey.bin"
	if on_volume; then
		is 1 "big.txt keeps its compressed attribute" compressed_flag "$c/big.txt"
	fi
}

run_workload compressed
write_done
