#!/bin/sh
# validtail: files whose initialized (valid) size ends inside a block with
# other bytes on the disk after it, as Windows' SetFileValidData leaves
# them (v1, v2, v3: 20 000 random bytes each, valid size cut to 5000 on
# the host).  Bytes past the valid size read as zeros, also after a write
# that covers part of that block: iomap reads such a block from the disk
# (ntfs_hold_valid_end()).  v1 is written inside the valid data in that
# block, v2 past the valid size in it, v3 appended in a later block; each
# must read zeros from 5000 on except what was written, live and after a
# remount (what went to the disk).  The files are removed at the end: the
# tmpfs reference has none.  Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

# volume validtail validtail - -

# nonzero FILE FROM COUNT: how many of COUNT bytes of FILE from byte FROM
# are not zero
nonzero() {
	tail -c +"$(($2 + 1))" "$1" | head -c "$3" | tr -d '\000' | wc -c
}

tails() {
	is 0 "v1: bytes 5000-19999 read as zeros" nonzero "$1/v1" 5000 15000
	is 20000 "v1: size" stat -c %s "$1/v1"
	is 0 "v2: bytes 5000-5999 read as zeros" nonzero "$1/v2" 5000 1000
	is 0 "v2: bytes 6010-19999 read as zeros" nonzero "$1/v2" 6010 13990
	is 0 "v3: bytes 5000-19999 read as zeros" nonzero "$1/v3" 5000 15000
	is 20100 "v3: size" stat -c %s "$1/v3"
}

workload() {
	d=$1
	x OK "mkdir keep" mkdir "$d/keep"
	x OK "keep/f: 9000 bytes" pwrite "$d/keep/f" 0 9000 1
	on_volume || return 0
	if [ "$DRIVER" != ours ]; then
		echo "# $DRIVER: not checked (the test is of ours' write path)"
		rm -f "$d/v1" "$d/v2" "$d/v3"
		return 0
	fi
	is OK "v1: 10 bytes written at 4500 (inside the valid data)" \
		"$FSOPS" pwrite "$d/v1" 4500 10 2
	is OK "v2: 10 bytes written at 6000 (past the valid size, same block)" \
		"$FSOPS" pwrite "$d/v2" 6000 10 3
	is OK "v3: 100 bytes appended" "$FSOPS" append "$d/v3" 100 4
	tails "$d"
	remount
	tails "$d"
	is OK "v1 removed" "$FSOPS" unlink "$d/v1"
	is OK "v2 removed" "$FSOPS" unlink "$d/v2"
	is OK "v3 removed" "$FSOPS" unlink "$d/v3"
}

run_workload validtail
write_done
