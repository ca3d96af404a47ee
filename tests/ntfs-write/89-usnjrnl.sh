#!/bin/sh
# usnjrnl: a volume with a change journal, $Extend\$UsnJrnl ($J a sparse
# stream of 1 MiB of hole and 4 KiB of records, $Max its parameters:
# usnjrnl_volume in scripts/test/ntfs-write-verify.sh).  Ours writes no
# USN records, so its first change of a mount stamps $Max with a new
# journal id (the mount time as an NTFS time) and the size of $J as the
# lowest valid USN: readers of the journal see that it missed changes.
# The workload writes and removes files over a remount; the host then
# checks the stamp (ntfs-usnjrnl.py check: the id new and within a day of
# now, the lowest valid USN 1 052 672, $J and $Max's sizes as they were).
# Frame: tests/include/ntfs-write.sh.
#
# volume usnjrnl usnjrnl - -
. /tests/include/ntfs-write.sh

workload() {
	d=$1
	x OK "mkdir j" mkdir "$d/j"
	i=0
	while [ $i -lt 10 ]; do
		x OK "j/f$i, $((i * 3000 + 7)) bytes" pwrite "$d/j/f$i" 0 $((i * 3000 + 7)) $((800 + i))
		i=$((i + 1))
	done
	remount
	x OK "unlink j/f1" unlink "$d/j/f1"
	x OK "rename j/f2 to g2" rename "$d/j/f2" "$d/g2"
	x OK "overwrite j/f3" pwrite "$d/j/f3" 100 2000 830
}

run_workload usnjrnl
write_done
