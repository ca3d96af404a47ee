#!/bin/sh
# space: free space is exact.  statfs's free bytes before a workload
# (files of every size class, a sparse file, links, symlinks, xattrs, a
# directory of 300 entries) and after everything it created is deleted
# must be equal, after a sync and again after a remount (after a warm-up
# round that lets $MFT grow first: it never shrinks).  Everything lives
# in one directory that is removed at the end, so that no index block of
# the root stays allocated; the file count stays within the MFT records
# mkntfs preallocates.  The tree left is the empty root.
# Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

workload() {
	d=$1
	# Warm-up: $MFT grows in steps and never shrinks, so a first round of
	# 400 files (more records than the measured round uses) is created and
	# removed before the count starts.  The host checks the growth itself
	# (scripts/test/ntfs-write-verify.sh: free space against $MFT's size).
	x OK "warm-up: mkdir" mkdir "$d/warm"
	i=0
	while [ $i -lt 400 ]; do
		: >"$d/warm/warm-up-file-$i"
		i=$((i + 1))
	done
	n=0
	while [ -e "$d/warm" ] && [ $n -lt 20 ]; do
		rm -rf "$d/warm" 2>/dev/null
		n=$((n + 1))
	done
	[ $n -le 1 ] || echo "# warm-up: rm -rf needed $n passes"
	x ENOENT "warm-up: the directory is gone" rmdir "$d/warm"
	if on_volume; then
		sync
		free0=$("$FSOPS" free "$d")
		echo "$free0" >"$OUT/space.free-before"
		echo "# free before: $free0 bytes"
	fi
	x OK "mkdir w" mkdir "$d/w"
	seed=600
	for s in 0 1 4097 1048579 3000000; do
		seed=$((seed + 1))
		x OK "a file of $s bytes" pwrite "$d/w/f-$s" 0 $s $seed
	done
	x OK "a sparse file of 32 MiB with 2 data blocks" pwrite "$d/w/sparse" 33554431 1 610
	x OK "data at its start" pwrite "$d/w/sparse" 0 70000 611
	x OK "a link" link "$d/w/f-4097" "$d/w/l"
	x OK "a symlink" symlink f-1 "$d/w/s"
	x OK "an xattr" setxattr "$d/w/f-1" user.x "some value"
	x OK "mkdir w/dir" mkdir "$d/w/dir"
	i=0
	while [ $i -lt 300 ]; do
		: >"$d/w/dir/entry-with-a-name-of-some-length-$i"
		i=$((i + 1))
	done
	if on_volume; then
		sync
		echo "# free with the files: $("$FSOPS" free "$d") bytes"
	fi
	rmrf "rm -rf w" "$d/w"
	if on_volume; then
		sync
		free1=$("$FSOPS" free "$d")
		echo "$free1" >"$OUT/space.free-after"
		is "$free0" "free bytes after deleting everything equal those before" echo "$free1"
	fi
}

run_workload space
# after a remount, read-only: the same count again
WHERE=vol
if [ -f "$OUT/space.free-before" ] && dev=$(disk_dev write-space); then
	use_driver "$DRIVER"
	if check "$DRIVER mounts it once more (read-only) for the free count" \
		mount -t ntfs3 -o "ro,$OPTS" "$dev" "$MNT"; then
		is "$(cat "$OUT/space.free-before")" \
			"$DRIVER, after a remount: free bytes as before the workload" "$FSOPS" free "$MNT"
		umount "$MNT"
	fi
	use_driver ours
fi
write_done
