#!/bin/sh
# mftlist: $MFT outgrows record 0.  A file fills the volume and every
# other cluster of it is punched out, so that each growth of $MFT (64
# records, 16 clusters) takes 16 runs of one cluster; 2000 empty files make
# it grow until its runs need an attribute list in record 0 and extents
# in the records kept for them (16-23, which lie in $MFT's first run, so
# that a reader finds them from record 0 alone).  The names are counted
# after a remount; the filler and half the files go, 300 more are made in
# the freed records.  Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

# volume mftlist 16M 4096 -

many() {	# DIR PREFIX FROM TO: empty files DIR/PREFIXi for i in FROM..TO
	_i=$3
	while [ "$_i" -le "$4" ]; do
		: >"$1/$2$_i" || return 1
		_i=$((_i + 1))
	done
}

evens() {	# DIR: remove DIR/f2, f4, ..., f2000
	for _i in $(seq 2 2 2000); do
		rm "$1/f$_i" || return 1
	done
}

# mft_rec_has RECORD TYPE: "yes" when MFT record RECORD holds an attribute
# of TYPE (hex) in the raw volume
mft_rec_has() {
	case " $("$FSOPS" rectypes "$dev" "$1") " in
	*" $2 "*) echo yes ;;
	*) echo no ;;
	esac
}

workload() {
	d=$1
	if on_volume; then
		sync
		free=$("$FSOPS" free "$d")
		x OK "a file takes all but 64 KiB of the free space" \
			pwrite "$d/filler" 0 $((free - 65536)) 84
		sync
		x OK "every other cluster of it punched out" comb "$d/filler" 4096
		sync
		echo "# free: $free bytes, then $("$FSOPS" free "$d") in single clusters"
	fi
	x OK "mkdir many" mkdir "$d/many"
	v "2000 empty files" many "$d/many" f 1 2000
	if on_volume; then
		sync
		is yes "\$MFT has an attribute list in record 0" mft_rec_has 0 20
		is yes "an extent of \$MFT:\$DATA is in record 16" mft_rec_has 16 80
	fi
	remount
	is 2000 "2000 names after a remount" "$FSOPS" count "$d/many"
	if on_volume; then
		x OK "the filler removed" unlink "$d/filler"
	fi
	v "every other file removed" evens "$d/many"
	v "300 new files in the freed records" many "$d/many" g 1 300
	remount
	is 1300 "1300 names after a remount" "$FSOPS" count "$d/many"
}

run_workload mftlist
write_done
