#!/bin/sh
# objid: files with object ids ($OBJECT_ID, listed in $Extend\$ObjId:$O,
# where Windows' link tracking finds them) removed by ours.  The volume
# comes from the host (objid_volume in scripts/test/ntfs-write-verify.sh:
# ntfs-3g gave 30 files object ids); the host copies the files out for
# the tmpfs reference.  Files are unlinked, one is renamed over another,
# a hard-linked one loses a name and then its last, a directory of ten is
# removed with rm -rf, with a remount between; files that keep their ids
# are renamed and written to.  The host's fsck.ntfs3 then checks that $O
# lists exactly the object ids of the files left (each entry naming its
# file's record and sequence).  Frame: tests/include/ntfs-write.sh.
#
# volume objid objid - -
. /tests/include/ntfs-write.sh

workload() {
	d=$1
	if ! on_volume; then
		cp -a /ntfs-write/tree-objid/. "$d/" || report 1 "the files with object ids copied to tmpfs"
	fi
	i=0
	while [ $i -lt 6 ]; do
		x OK "unlink f$i" unlink "$d/ids/f$i"
		i=$((i + 1))
	done
	x OK "rename f6 over f7 (f7 goes)" rename "$d/ids/f6" "$d/ids/f7"
	x OK "link f8" link "$d/ids/f8" "$d/ids/f8-link"
	x OK "unlink its first name (the id stays)" unlink "$d/ids/f8"
	x OK "write to f9 (keeps its id)" pwrite "$d/ids/f9" 0 5000 1
	x OK "rename f10 into sub" rename "$d/ids/f10" "$d/ids/sub/f10"
	remount
	x OK "unlink the last name of f8" unlink "$d/ids/f8-link"
	rmrf "rm -rf of a directory of 11 files with object ids" "$d/ids/sub"
	x OK "unlink f11" unlink "$d/ids/f11"
}

run_workload objid
write_done
