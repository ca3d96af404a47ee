#!/bin/sh
# phases: persistence between phases.  A tree is written, the volume is
# unmounted and mounted again, and the next phase changes what the earlier
# mount wrote: appends, overwrites, truncates, renames across directories,
# new and removed hard links, xattrs replaced and removed, a directory of
# 500 entries half emptied, then fully removed after another remount.
# Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

workload() {
	d=$1
	# phase 1
	x OK "mkdir a" mkdir "$d/a"
	x OK "mkdir b" mkdir "$d/b"
	x OK "mkdir half" mkdir "$d/half"
	x OK "mkdir later" mkdir "$d/later"
	for s in 10 4097 300000; do
		x OK "a/f-$s" pwrite "$d/a/f-$s" 0 $s $((700 + s % 97))
	done
	x OK "a hard link b/l to a/f-4097" link "$d/a/f-4097" "$d/b/l"
	x OK "user.phase on a/f-10" setxattr "$d/a/f-10" user.phase one
	x OK "user.keep on a/f-10" setxattr "$d/a/f-10" user.keep kept
	x OK "a symlink b/s" symlink ../a/f-10 "$d/b/s"
	i=0
	while [ $i -lt 500 ]; do
		echo "half $i" >"$d/half/entry-number-$i"
		echo "later $i" >"$d/later/entry-number-$i"
		i=$((i + 1))
	done
	remount
	# phase 2: change what phase 1 wrote
	x OK "append to a/f-10" append "$d/a/f-10" 5000 710
	x OK "overwrite the middle of a/f-300000" pwrite "$d/a/f-300000" 100000 50000 711
	x OK "truncate a/f-4097 (2 links) to 100" truncate "$d/b/l" 100
	x OK "rename a/f-300000 to b/big" rename "$d/a/f-300000" "$d/b/big"
	x OK "a third link" link "$d/b/l" "$d/a/l3"
	x OK "replace user.phase" setxattr "$d/a/f-10" user.phase two
	x OK "remove user.keep" rmxattr "$d/a/f-10" user.keep
	i=0
	while [ $i -lt 500 ]; do
		rm -f "$d/half/entry-number-$i"
		i=$((i + 2))
	done
	is 250 "half/ lists 250 entries after removing every second one" "$FSOPS" count "$d/half"
	remount
	# phase 3
	x OK "unlink a/f-4097 (one of 3 links)" unlink "$d/a/f-4097"
	is 2 "link count 2" stat -c %h "$d/b/l"
	rmrf "rm -rf later (500 entries written two mounts ago)" "$d/later"
	x OK "rename directory b to a/b" rename "$d/b" "$d/a/b"
	x OK "grow a/b/big by truncate" truncate "$d/a/b/big" 2000000
	x OK "write at its end" pwrite "$d/a/b/big" 1999000 1000 712
}

run_workload phases
write_done
