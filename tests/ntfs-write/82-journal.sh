#!/bin/sh
# journal: a volume whose $LogFile is as Windows leaves it after a clean
# shutdown (clean restart pages, its last log pages after them; made by
# scripts/images/ntfs_special.py patch logclean).  Ours mounts it
# read-write and must empty the whole journal before its first change
# (docs/design/ntfs3.md, "$LogFile until journaling exists"): the host
# checks that $LogFile reads as 0xff throughout, as on every volume ours
# wrote.  A remount in the middle: the journal is then found empty and
# left alone.  Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

# volume journal journal - -

workload() {
	d=$1
	x OK "mkdir j" mkdir "$d/j"
	x OK "j/a: 20 000 bytes" pwrite "$d/j/a" 0 20000 1
	remount
	x OK "j/b: 5000 bytes" pwrite "$d/j/b" 0 5000 2
	x OK "j/a renamed to j/c" rename "$d/j/a" "$d/j/c"
}

run_workload journal
write_done
