#!/bin/sh
# fragments: streams whose runs do not fit in one MFT record.  Two files
# written a cluster at a time in turn get their clusters alternately from
# a driver that allocates as it writes (8000 fragments each on the
# 128 MiB volume): their mapping pairs (about 24 KiB each) are split into
# extents in extension records, named by an attribute list that moves to
# clusters.  Then, with remounts between the phases: one file cut (its
# last extents go), appended, the other removed and the first appended
# again; a second pair, one cut to a single cluster and grown again; a
# third pair written and removed, after which the free space is what it
# was before.  Frame:
# tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh
# Clusters taken as the data is written (not at writeback): interleaved
# writes then fragment the files, which is what this workload needs.
OURS_OPTS=nodelalloc

workload() {
	d=$1
	x OK "mkdir f" mkdir "$d/f"
	x OK "a and b written a cluster at a time in turn, 8000 clusters each" \
		interleave "$d/f/a" "$d/f/b" 8000 4096 1 2
	extents_are "$d/f/a" -ge 7000
	remount
	x OK "a cut to 20 MB" truncate "$d/f/a" 20000000
	x OK "a appended 2 MB" append "$d/f/a" 2000000 5
	remount
	x OK "b removed" unlink "$d/f/b"
	x OK "a appended 30 MB" append "$d/f/a" 30000000 6
	extents_are "$d/f/a" -ge 4800
	remount
	x OK "c and e written in turn, 3000 clusters each" \
		interleave "$d/f/c" "$d/f/e" 3000 4096 3 4
	x OK "c cut to one cluster" truncate "$d/f/c" 4000
	if on_volume; then
		is 1 "c has one extent (FIEMAP)" "$FSOPS" extents "$d/f/c"
	fi
	x OK "c grown again by 1 MB" append "$d/f/c" 1000000 7
	remount
	# Their entries are made first: the directory's index may take a
	# block for them, which stays when they go.
	x OK "g created" create "$d/f/g"
	x OK "h created" create "$d/f/h"
	if on_volume; then
		sync
		free0=$("$FSOPS" free "$d")
	fi
	x OK "g and h written in turn, 2000 clusters each" \
		interleave "$d/f/g" "$d/f/h" 2000 4096 8 9
	x OK "g removed" unlink "$d/f/g"
	x OK "h removed" unlink "$d/f/h"
	if on_volume; then
		sync
		free1=$("$FSOPS" free "$d")
		check "free space after g and h are gone is what it was before them" test "$free0" = "$free1"
		echo "# free before g and h: $free0 bytes, after: $free1"
	fi
}

run_workload fragments
write_done
