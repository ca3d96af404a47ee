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
#   full/     a directory whose base record a 350-byte xattr fills, so
#             its $BITMAP:$I30 must move out of the record into clusters
#             (at about 2 700 of its 5 000 entries of 230-character
#             names; the driver refused the next entry with ENOSPC
#             before); every other name is removed and 500 more made,
#             reusing freed index blocks; fullgone/, the same, goes by
#             rm -rf (fsck.ntfs3 in the verify step finds leaked clusters)
#   DDD...D/  a 250-character name and an xattr fill the record: the name
#             moves out when the first index block comes (renamed -r)
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

LONG=$(printf '%0230d' 0 | tr 0 n)

fill_full() {	# DIR FROM TO: files $LONG-FROM .. $LONG-(TO-1)
	i=$2
	while [ $i -lt $3 ]; do
		echo "long entry $i" >"$1/$LONG-$i" || return 1
		i=$((i + 1))
	done
}

drop_every_other() {	# DIR N
	i=0
	while [ $i -lt $2 ]; do
		unlink "$1/$LONG-$i" || return 1
		i=$((i + 2))
	done
}

# A directory with a full base record: $BITMAP:$I30 goes to clusters.
full_record() {
	d=$1
	x OK "mkdir full" mkdir "$d/full"
	x OK "a 350-byte xattr fills full/'s record" setxattr "$d/full" user.pad \
		"$(printf '%0350d' 0)"
	v "create 5 000 files of 230-character names in full/" fill_full "$d/full" 0 5000
	is 5000 "one readdir pass of full/ returns 5 000 entries" "$FSOPS" count "$d/full"
	v "remove every other name in full/" drop_every_other "$d/full" 5000
	v "create 500 more in full/" fill_full "$d/full" 5000 5500
	is 3000 "one readdir pass of full/ returns 3 000 entries" "$FSOPS" count "$d/full"
	x OK "mkdir fullgone" mkdir "$d/fullgone"
	x OK "the same xattr on fullgone/" setxattr "$d/fullgone" user.pad \
		"$(printf '%0350d' 0)"
	v "create 5 000 files in fullgone/" fill_full "$d/fullgone" 0 5000
	rmrf "rm -rf fullgone/ (5 000 entries, bitmap in clusters) removes it" "$d/fullgone"
	long_name_record "$d"
}

# A directory whose 250-character name and a 200-byte xattr fill its base
# record: its first index block needs $INDEX_ALLOCATION and $BITMAP there,
# so its name moves to an extension record (ENOSPC at the first entry
# before).
long_name_record() {
	ld=$1/$(printf '%0250d' 0 | tr 0 D)
	x OK "mkdir of a 250-character name" mkdir "$ld"
	x OK "a 200-byte xattr fills its record" setxattr "$ld" user.pad "$(printf '%0200d' 0)"
	v "create 300 files of 230-character names in it" fill_full "$ld" 0 300
	is 300 "one readdir pass of it returns 300 entries" "$FSOPS" count "$ld"
	x OK "rename it (its name in the extension record)" rename "$ld" "$ld-r"
	is 300 "the renamed directory still lists 300 entries" "$FSOPS" count "$ld-r"
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
	[ "$N" -gt 2000 ] || full_record "$d"
}

run_workload many
write_done
