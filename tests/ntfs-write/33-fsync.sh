#!/bin/sh
# fsync: what fsync promises, shown by a crash.  After a sync, every change
# is followed by an fsync of the file, or of the directory for names
# (rename, unlink, mkdir): new files (one resident, one of 1 MiB, 40 in a
# directory whose index outgrows its record), an append, a truncation, a
# resident file moving out of its record.  Then FS_IOC_SHUTDOWN without
# flushing (ours: nothing more reaches the device, as in a crash), and what
# the device holds must be the whole tree: a plain mount comes up
# read-only (the dirty flag stays, as after a crash) and lists every file
# with its contents.  A mount with "force" and one change leave it clean;
# then a shutdown that writes everything first (a file never fsynced must
# be there after it; no WARNING from the flush).  The frame then compares
# the tree again live, after a remount, through the in-tree driver,
# ntfs-3g and fsck.ntfs3: an fsync that left a record, an index block or
# a bitmap bit behind shows there.
# The in-tree driver (DRIVER=intree) runs the workload without the crash.
# Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

# many DIR N SEED: N files DIR/mI of 3000 bytes, each fsynced
many() {
	_i=1
	while [ "$_i" -le "$2" ]; do
		[ "$("$FSOPS" pwrite "$1/m$_i" 0 3000 $(($3 + _i)))" = OK ] &&
			[ "$("$FSOPS" fsync "$1/m$_i")" = OK ] || return 1
		_i=$((_i + 1))
	done
}

# crash DIR: on ours, shut the volume down at once and check what the
# device holds; then mount it read-write (force) and change it once, so
# that its unmount leaves it clean.
crash() {
	on_volume || return 0
	if [ "$DRIVER" != ours ]; then
		echo "# $DRIVER: no crash (the shutdown ioctl is ours)"
		return 0
	fi
	is OK "ours: shut down without writing anything more (a crash)" \
		"$FSOPS" shutdown "$MNT" 2
	is EIO "ours: a create after the shutdown fails with EIO" "$FSOPS" create "$1/late"
	is EIO "ours: so does a write into a file" "$FSOPS" pwrite "$1/base/old" 0 10 9
	check "ours: unmount after the shutdown" umount "$MNT"
	mount -t ntfs3 -o "$OPTS" "$dev" "$MNT"
	check "ours: after the crash the volume is still dirty (mounted read-only)" \
		grep -q " $MNT ntfs3 ro[, ]" /proc/mounts
	listing "$MNT" /tmp/crash-$NAME
	compare "ours, what the device held after the crash" /tmp/crash-$NAME
	check "ours: unmount the crashed volume" umount "$MNT"
	force_clean "$1"
	# the other kind: everything is written first, then nothing more
	is OK "ours: a file written without fsync" "$FSOPS" pwrite "$1/base/late" 0 7000 11
	is OK "ours: shut down after writing everything (FS_IOC_SHUTDOWN default)" \
		"$FSOPS" shutdown "$MNT" 0
	is EIO "ours: an unlink after it fails with EIO" "$FSOPS" unlink "$1/base/late"
	check "ours: unmount after the second shutdown" umount "$MNT"
	check "ours: mount read-only to look" mount -t ntfs3 -o "ro,$OPTS" "$dev" "$MNT"
	is 7000 "ours: the file written without fsync was written by the shutdown" \
		stat -c %s "$1/base/late"
	check "ours: unmount" umount "$MNT"
	force_clean "$1"
	is OK "ours: that file goes" "$FSOPS" unlink "$1/base/late"
}

# force_clean DIR: mount the dirty volume read-write with force and change
# it once, so that its unmount clears the dirty flag for the frame.
force_clean() {
	check "ours: mount it read-write with force" \
		mount -t ntfs3 -o "$OPTS,force" "$dev" "$MNT"
	is OK "ours: one change (the unmount then clears the dirty flag)" \
		"$FSOPS" create "$1/after"
	is OK "ours: and back" "$FSOPS" unlink "$1/after"
}

workload() {
	d=$1
	x OK "mkdir base" mkdir "$d/base"
	x OK "base/old: 300 000 bytes" pwrite "$d/base/old" 0 300000 1
	x OK "base/tiny: 100 bytes (resident)" pwrite "$d/base/tiny" 0 100 2
	x OK "base/gone: 5000 bytes" pwrite "$d/base/gone" 0 5000 3
	! on_volume || sync
	x OK "new: 12 345 bytes" pwrite "$d/base/new" 0 12345 4
	x OK "fsync new" fsync "$d/base/new"
	x OK "old: 70 000 bytes appended" append "$d/base/old" 70000 5
	x OK "fsync old" fsync "$d/base/old"
	x OK "old: cut to 123 457 bytes" truncate "$d/base/old" 123457
	x OK "fsync old again" fsync "$d/base/old"
	x OK "tiny: grows to 5000 bytes (out of its record)" pwrite "$d/base/tiny" 100 4900 6
	x OK "fsync tiny" fsync "$d/base/tiny"
	x OK "mkdir base/sub" mkdir "$d/base/sub"
	x OK "fsync base (the directory)" fsync "$d/base"
	x OK "sub/f: 1 MiB" pwrite "$d/base/sub/f" 0 1048576 7
	x OK "fsync sub/f" fsync "$d/base/sub/f"
	x OK "mkdir base/many" mkdir "$d/base/many"
	x OK "fsync base" fsync "$d/base"
	v "40 files in base/many, each fsynced (its index outgrows the record)" \
		many "$d/base/many" 40 100
	x OK "new renamed to renamed" rename "$d/base/new" "$d/base/renamed"
	x OK "gone unlinked" unlink "$d/base/gone"
	x OK "fsync base" fsync "$d/base"
	crash "$d"
}

run_workload fsync
write_done
