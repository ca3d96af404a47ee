#!/bin/sh
# many: directories of 2 000 entries (names of varied length, so the index
# splits into several blocks):
#   keep/     2 000 files that stay (every name and content is compared);
#             one readdir pass must return each exactly once
#   gone/     2 000 files, then "rm -rf gone" (readdir and unlink
#             interleaved, busybox rm): must succeed and leave nothing
#   emptied/  2 000 files, then every name removed (rm of the glob), a
#             readdir pass must find it empty and rmdir must work on a
#             second emptied directory; emptied/ itself stays, empty
# make check-write-big runs it with the 100 000 entries per
# directory (NTFS_MANY_N) on the default kernel.
# Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh
N=${NTFS_MANY_N:-2000}

fill() {	# DIR: N files, no fork per file
	i=0
	while [ $i -lt $N ]; do
		case $((i % 4)) in
		0) n=f$i ;;
		1) n=file-number-$i.txt ;;
		2) n=a-rather-long-name-to-fill-index-blocks-faster-$i.data ;;
		3) n=Mixed_Case_$i ;;
		esac
		echo "entry $i in ${1##*/}" >"$1/$n" || return 1
		i=$((i + 1))
	done
}

workload() {
	d=$1
	x OK "mkdir keep" mkdir "$d/keep"
	v "create $N files in keep/" fill "$d/keep"
	is $N "one readdir pass of keep/ returns $N entries" "$FSOPS" count "$d/keep"
	is $N "ls keep/ lists $N distinct names" sh -c "ls -A '$d/keep' | sort -u | wc -l"
	x OK "unlink one of them" unlink "$d/keep/f1000"
	x OK "and create it again" pwrite "$d/keep/f1000" 0 100 500

	x OK "mkdir gone" mkdir "$d/gone"
	v "create $N files in gone/" fill "$d/gone"
	rmrf "rm -rf gone/ ($N entries) succeeds and removes it" "$d/gone"
	x ENOENT "gone/ does not exist any more" rmdir "$d/gone"

	x OK "mkdir emptied" mkdir "$d/emptied"
	v "create $N files in emptied/" fill "$d/emptied"
	v "remove every name in emptied/ (rm of the glob)" sh -c "rm -f '$d/emptied'/* '$d/emptied'/.??* 2>&1"
	is 0 "one readdir pass of emptied/ finds no entry" "$FSOPS" count "$d/emptied"
	x OK "mkdir emptied2" mkdir "$d/emptied2"
	v "create $N files in emptied2/" fill "$d/emptied2"
	v "remove every name in emptied2/" sh -c "rm -f '$d/emptied2'/* 2>&1"
	x OK "rmdir of the emptied directory" rmdir "$d/emptied2"
}

run_workload many
write_done
