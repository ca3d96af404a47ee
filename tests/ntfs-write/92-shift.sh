#!/bin/sh
# shift: fallocate COLLAPSE_RANGE and INSERT_RANGE on whole clusters.  The
# tmpfs reference has neither: there the same bytes are moved by hand
# (fsops collapse-copy / insert-copy), which is what the calls must give.
# Checked: contents and sizes after collapses and inserts at the start, in
# the middle and near the end, of a small (resident) file, of a file of
# many extents (its extents written again), across a remount; EINVAL for
# unaligned ranges, a collapse reaching the end, an insert at the end.
# Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh
# Clusters taken as the data is written (not at writeback): interleaved
# writes then fragment the files, which is what this workload needs.
OURS_OPTS=nodelalloc

# shift collapse|insert PATH OFFSET LENGTH
shift_range() {
	if on_volume; then
		x OK "$1 of $4 bytes at $3 in $(basename "$2")" "$1" "$2" "$3" "$4"
	else
		"$FSOPS" "$1-copy" "$2" "$3" "$4" >/dev/null
	fi
}

# refused EXPECT DESCRIPTION ARGS...: on the volume only (tmpfs has no call)
refused() {
	on_volume || return 0
	x "$@"
}

workload() {
	d=$1
	x OK "mkdir s" mkdir "$d/s"
	x OK "a file of 1 MiB" pwrite "$d/s/a" 0 1048576 1
	shift_range collapse "$d/s/a" 40960 81920
	shift_range insert "$d/s/a" 8192 16384
	shift_range collapse "$d/s/a" 0 4096
	shift_range insert "$d/s/a" 0 8192
	is 987136 "its size: 1 MiB - 80 KiB + 16 KiB - 4 KiB + 8 KiB" stat -c %s "$d/s/a"
	refused EINVAL "collapse of an unaligned range" collapse "$d/s/a" 1000 4096
	refused EINVAL "insert of an unaligned length" insert "$d/s/a" 4096 1000
	refused EINVAL "collapse that reaches the end" collapse "$d/s/a" 983040 4096
	refused EINVAL "insert at the end" insert "$d/s/a" 987136 4096
	remount
	shift_range collapse "$d/s/a" 901120 8192
	x OK "a written into its inserted hole" pwrite "$d/s/a" 1000 3000 2
	x OK "a appended" append "$d/s/a" 10000 3

	x OK "a small file (resident)" pwrite "$d/s/small" 0 700 4
	shift_range insert "$d/s/small" 0 4096

	x OK "frag and other written a cluster at a time in turn, 1200 each" \
		interleave "$d/s/frag" "$d/s/other" 1200 4096 5 6
	shift_range collapse "$d/s/frag" 409600 1638400
	shift_range insert "$d/s/frag" 40960 409600
	x OK "other removed" unlink "$d/s/other"
	remount
	shift_range collapse "$d/s/frag" 4096 40960
	x OK "frag appended" append "$d/s/frag" 50000 7
}

run_workload shift
write_done
