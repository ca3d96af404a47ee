#!/bin/sh
# holes: fallocate PUNCH_HOLE.  The whole clusters inside a range lose
# their clusters (the file becomes sparse: its first extent gets the
# sparse header, $STANDARD_INFORMATION the sparse flag), the bytes of the
# clusters at the edges become zeros, the size stays.  Checked: contents
# (the tmpfs reference punches the same ranges), the blocks and free
# space given back with ours, writes into a punched hole, a hole in a file
# of many extents, a whole file punched, a remount between (then an
# aligned hole in a file with nothing cached).  Frame:
# tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh
# Clusters taken as the data is written (not at writeback): interleaved
# writes then fragment the files, which is what this workload needs.
OURS_OPTS=nodelalloc

workload() {
	d=$1
	x OK "mkdir h" mkdir "$d/h"
	x OK "a file of 1 MB" pwrite "$d/h/one" 0 1000000 1
	if on_volume; then
		sync
		free0=$("$FSOPS" free "$d")
	fi
	x OK "a hole punched at 100000 (200000 bytes)" punch "$d/h/one" 100000 200000
	if on_volume && [ "$DRIVER" = ours ]; then
		sync
		free1=$("$FSOPS" free "$d")
		# clusters 25..72 are whole inside [100000, 300000)
		check "ours: the 48 whole clusters of the range are free again" \
			test $((free1 - free0)) = $((48 * 4096))
		echo "# free before: $free0, after: $free1"
	fi
	ours_is 1576 "ours: st_blocks of the punched file (245 clusters less 48)" \
		"$FSOPS" blocks "$d/h/one"
	x OK "a hole inside one cluster (bytes zeroed only)" punch "$d/h/one" 500010 100
	x OK "a hole from the start, cluster-aligned" punch "$d/h/one" 0 8192
	x OK "a hole past the end (nothing changes)" punch "$d/h/one" 2000000 4096
	x OK "a hole over the end of the file" punch "$d/h/one" 990000 100000
	x OK "a write into the first hole" pwrite "$d/h/one" 150000 5000 2
	remount
	# nothing of the file cached: the page after an aligned hole must be
	# read, not taken as it is in memory (an empty zeroing once did that)
	x OK "an aligned hole right after the remount" punch "$d/h/one" 409600 8192
	x OK "a write at the start again" pwrite "$d/h/one" 100 3000 3
	x OK "a small file (resident) punched" pwrite "$d/h/small" 0 300 4
	x OK "punch in it" punch "$d/h/small" 10 50

	# a file of many extents made sparse: its later extents are written
	# again with the sparse header
	x OK "frag and other written a cluster at a time in turn, 1500 each" \
		interleave "$d/h/frag" "$d/h/other" 1500 4096 5 6
	x OK "a hole in the middle of frag" punch "$d/h/frag" 3000000 500000
	x OK "a hole near its end" punch "$d/h/frag" 6000000 4096
	x OK "other removed" unlink "$d/h/other"
	remount
	x OK "frag written into its middle hole" pwrite "$d/h/frag" 3100000 10000 7

	x OK "a file of 3 MB" pwrite "$d/h/whole" 0 3000000 8
	x OK "all of it punched" punch "$d/h/whole" 0 3000000
	ours_is 0 "ours: st_blocks of a file punched whole" "$FSOPS" blocks "$d/h/whole"
	x OK "it is written at 1 MB" pwrite "$d/h/whole" 1048576 4096 9
	ours_is 8 "ours: st_blocks after one cluster written into it" "$FSOPS" blocks "$d/h/whole"
}

run_workload holes
write_done
