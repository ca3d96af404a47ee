#!/bin/sh
# delalloc: delayed allocation (ours; docs/design/ntfs3.md, "Writeback and
# delayed allocation").  Two files written a cluster at a time in turn
# each end up in few extents (a driver that allocates as it writes
# alternates their clusters: 85-fragments relies on that with nodelalloc);
# 2 000 small appends to a log too.  Free space (statfs) and st_blocks
# count delayed data as soon as it is written, before any sync, and a file
# deleted before writeback gives its reservation back.  Delayed data
# changed before it reaches the disk: cut by truncate and appended, written
# again with O_DIRECT and through a shared mapping, grown past a gap, read
# at its end with SEEK_DATA; then a remount (the frame compares the tree
# with the tmpfs reference through ours, ntfs-3g, the in-tree driver and
# fsck.ntfs3).  Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

# free_now PATH: statfs free bytes, without a sync.
free_now() {
	"$FSOPS" free "$1"
}

workload() {
	d=$1
	x OK "mkdir da" mkdir "$d/da"
	x OK "a and b written a cluster at a time in turn, 2000 clusters each" \
		interleave "$d/da/a" "$d/da/b" 2000 4096 1 2
	extents_are "$d/da/a" -le 4
	extents_are "$d/da/b" -le 4
	i=0
	while [ $i -lt 2000 ]; do
		echo "line $i of a log written one line at a time" >>"$d/da/log"
		i=$((i + 1))
	done
	extents_are "$d/da/log" -le 4

	x OK "c created" create "$d/da/c"
	x OK "e created" create "$d/da/e"
	if on_volume && [ "$DRIVER" = ours ]; then
		sync
		f0=$(free_now "$d")
	fi
	x OK "c: 4 MiB written" pwrite "$d/da/c" 0 4194304 3
	ours_is 8192 "ours: c counts its 4 MiB in st_blocks before any sync" \
		"$FSOPS" blocks "$d/da/c"
	x OK "e: 3 MiB written" pwrite "$d/da/e" 0 3145728 4
	if on_volume && [ "$DRIVER" = ours ]; then
		f1=$(free_now "$d")
		echo "# free: $f0 before c and e, $f1 after them (no sync)"
		check "ours: free space went down by their 7 MiB before any sync" \
			test $((f0 - f1)) = 7340032
	fi
	x OK "e removed before writeback" unlink "$d/da/e"
	if on_volume && [ "$DRIVER" = ours ]; then
		f2=$(free_now "$d")
		check "ours: e's 3 MiB are free again at once" test $((f0 - f2)) = 4194304
		sync
		f3=$(free_now "$d")
		check "ours: after a sync, c took its 4 MiB and nothing else" test $((f0 - f3)) = 4194304
		echo "# free after e went: $f2, after a sync: $f3"
	fi

	x OK "f: 1 MiB written" pwrite "$d/da/f" 0 1048576 5
	x OK "f cut to 100 000 bytes before writeback" truncate "$d/da/f" 100000
	x OK "f appended 50 000 bytes" append "$d/da/f" 50000 6
	x OK "g: 1 MiB written" pwrite "$d/da/g" 0 1048576 7
	x OK "g: 64 KiB at 512 KiB written again with O_DIRECT" dwrite "$d/da/g" 524288 65536 8
	x OK "g: 4 MiB more" append "$d/da/g" 4194304 9
	x OK "g: 8 KiB at 3 MiB stored through a shared mapping" mwrite "$d/da/g" 3145728 8192 10
	x OK "g: 4 KiB written at 8 MiB, past a gap" pwrite "$d/da/g" 8388608 4096 11
	x OK "h: 2 MiB written" pwrite "$d/da/h" 0 2097152 12
	is 0 "h: SEEK_DATA from 0 finds data at 0" "$FSOPS" seekdata "$d/da/h" 0
	remount
	x OK "log appended after the remount" append "$d/da/log" 3000 13
	x OK "h appended after the remount" append "$d/da/h" 100000 14
}

run_workload delalloc
write_done
