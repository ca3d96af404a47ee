#!/bin/sh
# clusters: the same workload on volumes mkntfs made with every cluster
# size from 512 bytes to 2 MiB, and with 4 KiB sectors (4 KiB MFT records,
# on a disk of 4 KiB logical blocks).  The 4 KiB-cluster volume of mkntfs'
# defaults is what tests/ntfs-write writes.  Per volume: files around the
# resident limit, the page and the cluster size, written in pieces; cut
# and grown across a cluster boundary; a sparse file; holes punched;
# ranges collapsed and inserted on cluster boundaries; 400 entries in one
# directory (index blocks smaller, equal to or larger than a cluster),
# half removed; a write far past the end over clusters allocated past it;
# links, a symlink, xattrs; a remount; then two processes of
# seeded random operations (tests/tools/randops) with the cluster as the
# alignment of their collapses and inserts.
# The host attaches one disk per "# volume NAME SIZE CLUSTER [SECTOR]"
# line (scripts/test/ntfs-write-verify.sh) and checks each like the write
# suite: ntfs-3g, fsck.ntfs3.  Frame: tests/include/ntfs-write.sh.
#
# volume c512 128M 512
# volume c1k 128M 1024
# volume c2k 128M 2048
# volume c8k 128M 8192
# volume c16k 128M 16384
# volume c32k 128M 32768
# volume c64k 256M 65536
# volume c128k 256M 131072
# volume c256k 512M 262144
# volume c512k 512M 524288
# volume c1m 1G 1048576
# volume c2m 1G 2097152
# volume s4k 128M - 4096
# volume s4k-c64k 256M 65536 4096
. /tests/include/ntfs-write.sh

# cluster NAME: the cluster size of volume NAME, from the lines above (the
# reference on tmpfs must make the same choices as the volume)
cluster() {
	set -- $(sed -n "s/^# volume $1 [^ ]* \([^ ]*\).*/\1/p" "$0")
	[ "$1" = - ] && echo 4096 || echo "$1"
}

workload() {
	d=$1
	c=$(cluster "$NAME")
	echo "# cluster size $c"
	x OK "mkdir f" mkdir "$d/f"
	seed=10
	for s in 0 1 700 4095 4097 $((c - 1)) $c $((c + 1)) $((3 * c + 5)) 1000003; do
		seed=$((seed + 1))
		x OK "$s bytes" pwrite "$d/f/s-$s" 0 $s $seed
	done
	# in pieces of 3000 bytes, last piece first
	off=30000
	while [ $off -ge 0 ]; do
		"$FSOPS" pwrite "$d/f/pieces" $off 3000 20 >/dev/null
		off=$((off - 3000))
	done
	is 33000 "a file written backwards in pieces: size" stat -c %s "$d/f/pieces"
	x OK "cut inside its second cluster" truncate "$d/f/s-$((3 * c + 5))" $((c + 7))
	x OK "grown past the next cluster" truncate "$d/f/s-$((3 * c + 5))" $((2 * c + 9))
	x OK "and written at its end" append "$d/f/s-$((3 * c + 5))" 100 21
	x OK "a sparse file: 100 bytes at 5 MiB" pwrite "$d/f/sparse" 5242880 100 22
	x OK "and 10 bytes at its start" pwrite "$d/f/sparse" 0 10 23

	# holes and moved ranges on cluster boundaries
	big=$((8 * c))
	[ $big -ge 1048576 ] || big=1048576
	x OK "a file of $big bytes" pwrite "$d/f/holes" 0 $big 24
	x OK "punch 3 clusters and a bit from its second cluster" punch "$d/f/holes" $c $((3 * c + 100))
	x OK "write into the hole" pwrite "$d/f/holes" $((2 * c + 1)) 50 25
	x OK "a file to move ranges in" pwrite "$d/f/shift" 0 $big 26
	if on_volume; then
		x OK "collapse one cluster at its second" collapse "$d/f/shift" $c $c
		x OK "insert two clusters at its first" insert "$d/f/shift" 0 $((2 * c))
	else
		x OK "collapse (by copying)" collapse-copy "$d/f/shift" $c $c
		x OK "insert (by copying)" insert-copy "$d/f/shift" 0 $((2 * c))
	fi
	x OK "write into the inserted hole" pwrite "$d/f/shift" 100 200 27

	# A write pages past the end of a sparse file whose clusters past the
	# end were allocated (KEEP_SIZE) over old data, a hole after them:
	# the gap must read as zeros after the remount (writeback once dropped
	# the zeroed blocks past the end, iomap_zero_range() flushing at the
	# hole before the write moved the end).
	head=$((16 * c))
	[ $head -le 1048576 ] || head=$((2 * c))
	x OK "$head bytes and 8000" pwrite "$d/f/gap" 0 $((head + 8000)) 30
	sync
	x OK "cut to 8000 bytes" truncate "$d/f/gap" 8000
	sync
	x OK "its end written again" pwrite "$d/f/gap" 7900 100 31
	x OK "its first cluster punched" punch "$d/f/gap" 0 $c
	end=$(((8000 + c - 1) / c * c))
	x OK "3 clusters allocated past its end" keep "$d/f/gap" $end $((3 * c))
	x OK "100 bytes two pages further on" pwrite "$d/f/gap" $((end + 3 * c + 8192)) 100 32
	# A sparse file's write past its valid size into a hole allocates the
	# cluster whole: the part of it before the write (old data of the
	# file's punched clusters) must read as zeros once the valid size
	# moves over it (it did not when the cluster is larger than a page).
	x OK "4 clusters" pwrite "$d/f/head" 0 $((4 * c)) 33
	sync
	x OK "the last 3 punched" punch "$d/f/head" $c $((3 * c))
	sync
	x OK "cut inside its second cluster" truncate "$d/f/head" $((c + c / 4))
	x OK "grown to 3 clusters" truncate "$d/f/head" $((3 * c))
	x OK "162 bytes in the middle of its 4th cluster" pwrite "$d/f/head" $((3 * c + c / 2 + 15)) 162 34

	# a directory of 400 entries, half removed
	x OK "mkdir many" mkdir "$d/many"
	i=0
	while [ $i -lt 400 ]; do
		: >"$d/many/an-entry-with-a-longer-name-$i"
		i=$((i + 1))
	done
	i=0
	while [ $i -lt 400 ]; do
		rm "$d/many/an-entry-with-a-longer-name-$i"
		i=$((i + 2))
	done
	is 200 "one readdir pass finds the 200 left" "$FSOPS" count "$d/many"

	x OK "a link" link "$d/f/s-700" "$d/many/link"
	x OK "a symlink" symlink ../f/s-1 "$d/many/sym"
	x OK "an xattr" setxattr "$d/f/s-4097" user.geometry "cluster $c"
	remount
	x OK "append after the remount" append "$d/f/s-1000003" 5000 28
	x OK "unlink after the remount" unlink "$d/f/s-0"
	rmrf "rm -rf of the directory" "$d/many"

	# two processes of random operations
	mkdir -p "$d/r"
	if on_volume; then
		v "randops: 2 writers, 300 operations each, 1 reader" \
			"$RANDOPS" -p 2 -r 1 -s "$c" -n 300 -a "$c" "$d/r"
	else
		"$RANDOPS" -p 2 -r 0 -s "$c" -n 300 -a "$c" -e "$d/r" >/dev/null ||
			report 1 "randops on tmpfs"
	fi
}

RANDOPS=/tests/tools/randops
n=0
for vol in $(sed -n 's/^# volume \([^ ]*\) .*/\1/p' "$0"); do
	selected "$vol" || continue
	run_workload "$vol"
	n=$((n + 1))
done
[ $n -gt 0 ] || exit 77
write_done
