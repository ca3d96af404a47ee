#!/bin/sh
# NTFS benchmark, in the VM (make bench-ntfs; scripts/bench/bench-ntfs.sh boots it,
# docs/bench/ntfs.md has the results).  For each driver, our ntfs3 ("ours"),
# the in-tree ntfs3 ("intree") and ntfs-3g (FUSE), and for the raw device
# where that makes sense ("raw"):
#
#   seqread     read bench:/seq.bin (1 GiB, one run of clusters)     MiB/s
#   randread    4 KiB pread()s at random offsets of seq.bin           reads/s
#   smallfiles  read every file of bench:/small (10 000 of 1-8 KiB)   files/s
#   ls_lR       ls -lR of bigdir (100 079 objects)                    s
#   find_stat   find -type f | xargs stat of bigdir                   s
#   mount       mount sparse1t (1 TiB) and stat its root              ms
#   mount_statfs  the same, then statfs (df: the free-cluster count)  ms
# The raw device: seqread (buffered, like dd bs=1M; and with O_DIRECT as
# "raw-direct") and randread of the bench volume's loop device.  The floor
# ("tmpfs"): smallfiles, ls_lR and find_stat on a copy of the same tree in
# a tmpfs.
#
# Each run starts cold: drop_caches, then a fresh mount (the mount rows:
# drop_caches, and the mount is what is timed).  A value is the median of
# the runs.  Output: "BENCH ntfs.ROW.DRIVER VALUE UNIT higher|lower".
#
# The volumes are copied from the virtio disks into a tmpfs and read
# through loop devices: under QEMU -icount guest time counts instructions,
# and a virtio read would let the clock jump to the next timer while the
# vCPUs wait; from RAM, reading costs instructions like everything else.
. /hx/env
B=/tests/tools/ntfsbench
META=/bench-ntfs
MNT=/mnt/bench
RAM=/ram
. "$META/env"	# RUNS_FAST RUNS_SLOW RAND_COUNT ROWS DRIVERS
status=0

say() {
	echo "# $*"
}

# The disk of NAME (HX_DISK_NAMES order: vda, vdb, ...).
disk_of() {
	set -- "$1" a b c d e f g h
	want=$1
	shift
	for n in $HX_DISK_NAMES; do
		[ "$n" = "$want" ] && { echo "/dev/vd$1"; return 0; }
		shift
	done
	return 1
}

# load NAME: the volume into RAM (data extents only), on a read-only loop
# device; prints the loop device.
# While the copy waits for the virtio disk, a busy loop keeps a vCPU
# running: with -icount,sleep=off, all vCPUs idle make the guest clock jump
# to the next timer, and the copy would take hours of guest time (the
# benchmark's own reads come from RAM and never wait like that).
load() {
	dev=$(disk_of "$1") || { say "no disk named $1"; return 1; }
	while :; do :; done &
	spin=$!
	"$B" load "$dev" "$RAM/$1.img" "$(cat "$META/$1.size")" "$META/$1.extents" >&2
	rc=$?
	kill "$spin"
	wait "$spin" 2>/dev/null
	[ $rc = 0 ] || return 1
	loop=$(losetup -f) || return 1
	losetup -r "$loop" "$RAM/$1.img" || return 1
	echo "$loop"
}

unload() {	# NAME LOOP
	losetup -d "$2"
	rm -f "$RAM/$1.img"
}

driver() {	# DRIVER: the ntfs3 module it needs, or none (ntfs-3g)
	rmmod ntfs3 2>/dev/null
	case $1 in
	ours | intree) insmod "/lib/modules/$1/ntfs3.ko" ;;
	esac
}

# The mount command of DRIVER for DEV on $MNT.  The in-tree ntfs3 takes
# iocharset=utf8 (its default cannot show the emoji name in bigdir); ours
# uses UTF-8 without being asked.
mount_cmd() {	# DRIVER DEV
	case $1 in
	ours) echo "mount -t ntfs3 -o ro $2 $MNT" ;;
	intree) echo "mount -t ntfs3 -o ro,iocharset=utf8 $2 $MNT" ;;
	ntfs-3g) echo "ntfs-3g -o ro $2 $MNT" ;;
	esac
}

mount_fs() {	# DRIVER DEV
	# shellcheck disable=SC2046
	set -- $(mount_cmd "$1" "$2")
	"$@"
}

umount_fs() {
	umount "$MNT" || return 1
	# ntfs-3g leaves after the unmount; wait, so that it neither runs
	# during the next measurement nor holds the device.
	n=0
	while pidof ntfs-3g >/dev/null; do
		n=$((n + 1))
		[ $n -lt 1000 ] || { say "ntfs-3g did not exit"; return 1; }
		sleep 0.01
	done
}

cold() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

wanted() {	# ROW: is it in $ROWS?
	case " $ROWS " in *" $1 "*) return 0 ;; esac
	return 1
}

# median of the numbers on stdin
median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# measure ROW DRIVER DEV RUNS UNIT BETTER CONVERT CMD...
# RUNS cold runs of CMD (after a fresh mount of DEV, unless DRIVER is raw
# or ROW is a mount row); CMD prints "seconds count [extra]"; CONVERT is an
# awk expression of s (seconds) and c (count) giving the value.
measure() {
	row=$1 drv=$2 dev=$3 runs=$4 unit=$5 better=$6 conv=$7
	shift 7
	: >/tmp/values
	r=0
	while [ $r -lt "$runs" ]; do
		r=$((r + 1))
		cold
		mounted=0
		case $drv/$row in
		raw*/* | tmpfs/* | */mount*) ;;
		*)
			mount_fs "$drv" "$dev" >/tmp/mount.err 2>&1 || {
				say "$row $drv: mount failed: $(cat /tmp/mount.err)"
				status=1
				return 1
			}
			mounted=1
			;;
		esac
		io0=$(cat "/sys/block/${dev#/dev/}/stat")
		cs0=$(awk '$1 == "ctxt" { print $2 }' /proc/stat)
		if ! out=$("$@" 2>/tmp/err); then
			say "$row $drv: run $r failed: $(cat /tmp/err)"
			[ $mounted = 0 ] || umount_fs
			! grep -q " $MNT " /proc/mounts || umount_fs
			status=1
			return 1
		fi
		[ $mounted = 0 ] || umount_fs
		case $row in mount*) umount_fs ;; esac
		echo "$out" >>"/tmp/runs.$row.$drv"
		v=$(echo "$out" | awk "{ s = \$1; c = \$2; print $conv }")
		# what the device saw during the run (mount included for the
		# mount rows): read requests and KiB
		io=$(echo "$io0 $(cat "/sys/block/${dev#/dev/}/stat")" |
			awk '{ n = NF / 2; printf "%d reads, %d KiB", $(n + 1) - $1, ($(n + 3) - $3) / 2 }')
		# context switches of the whole guest: a driver that makes
		# readers sleep more often pays for it in instructions
		cs=$(($(awk '$1 == "ctxt" { print $2 }' /proc/stat) - cs0))
		say "$row $drv run $r: $out -> $v $unit ($io, $cs context switches)"
		echo "$v" >>/tmp/values
	done
	echo "BENCH ntfs.$row.$drv $(median </tmp/values) $unit $better"
}

# floor DEV DIR NAME [contents]: copy DIR of the volume on DEV (mounted
# with ours) to $FLOOR/NAME, a tmpfs (without "contents": names, modes and
# sizes only, much faster for bigdir): the "tmpfs" rows run the same commands
# there, which is what they cost with a file system that costs nothing
# (every inode and dentry in memory).
FLOOR=$RAM/floor
floor() {
	driver ours
	mount_fs ours "$1" || return 1
	mkdir -p "$FLOOR"
	if [ "${4:-}" = contents ]; then
		cp -a "$MNT/$2" "$FLOOR/$3"
	else
		"$B" clone "$MNT/$2" "$FLOOR/$3"
	fi
	rc=$?
	umount_fs
	[ $rc = 0 ] || { say "copying $2 to tmpfs failed"; status=1; }
	return $rc
}

mkdir -p "$MNT" "$RAM"
mount -t tmpfs -o size=90% tmpfs "$RAM"
rm -f /tmp/runs.*
say "drivers: $DRIVERS; rows: $ROWS; runs: $RUNS_SLOW (seqread, ls_lR, find_stat), $RUNS_FAST (others)"

# bench: seqread, randread, smallfiles.
if wanted seqread || wanted randread || wanted smallfiles; then
	if loop=$(load bench); then
		size=$(cat "$META/seq.size")
		for d in $DRIVERS raw; do
			driver "$d"
			! wanted seqread || if [ "$d" = raw ]; then
				measure seqread raw "$loop" "$RUNS_SLOW" MiB/s higher "c / 1048576 / s" \
					"$B" seq "$loop" "$size"
				# O_DIRECT: the device alone (one copy, no page cache)
				measure seqread raw-direct "$loop" "$RUNS_SLOW" MiB/s higher "c / 1048576 / s" \
					"$B" seq -d "$loop" "$size"
			else
				measure seqread "$d" "$loop" "$RUNS_SLOW" MiB/s higher "c / 1048576 / s" \
					"$B" seq "$MNT/seq.bin"
			fi
			! wanted randread || if [ "$d" = raw ]; then
				measure randread raw "$loop" "$RUNS_FAST" reads/s higher "c / s" \
					"$B" rand "$loop" "$RAND_COUNT" "$size"
			else
				measure randread "$d" "$loop" "$RUNS_FAST" reads/s higher "c / s" \
					"$B" rand "$MNT/seq.bin" "$RAND_COUNT"
			fi
			[ "$d" = raw ] || ! wanted smallfiles ||
				measure smallfiles "$d" "$loop" "$RUNS_FAST" files/s higher "c / s" \
					"$B" tree "$MNT/small"
		done
		# The floor: the same files copied to a tmpfs, read the same way.
		if wanted smallfiles && floor "$loop" small small contents; then
			measure smallfiles tmpfs "$loop" "$RUNS_FAST" files/s higher "c / s" \
				"$B" tree "$FLOOR/small"
			rm -rf "$FLOOR"
		fi
		unload bench "$loop"
		# Every driver must have read the same number of files and bytes.
		if wanted smallfiles; then
			n=$(cat /tmp/runs.smallfiles.* | cut -d' ' -f2,3 | sort -u | wc -l)
			if [ "$n" != 1 ]; then
				say "smallfiles: the drivers read different file counts or bytes:"
				grep . /tmp/runs.smallfiles.* | sed 's/^/#   /'
				status=1
			fi
		fi
	else
		say "could not load the bench volume"
		status=1
	fi
fi

# bigdir_rows WHO DIR: the wanted ones of ls_lR and find_stat for WHO (a
# driver, or tmpfs for the floor) over the tree at DIR, bigdir on $loop.
bigdir_rows() {
	! wanted ls_lR ||
		measure ls_lR "$1" "$loop" "$RUNS_SLOW" s lower "s" \
			"$B" time ls -lR "$2"
	! wanted find_stat ||
		measure find_stat "$1" "$loop" "$RUNS_SLOW" s lower "s" \
			"$B" time sh -c "find $2 -type f | xargs stat"
}

# bigdir: ls_lR, find_stat.
if wanted ls_lR || wanted find_stat; then
	if loop=$(load bigdir); then
		for d in $DRIVERS; do
			driver "$d"
			bigdir_rows "$d" "$MNT"
		done
		if floor "$loop" . bigdir; then
			bigdir_rows tmpfs "$FLOOR/bigdir"
			rm -rf "$FLOOR"
		fi
		unload bigdir "$loop"
	else
		say "could not load bigdir"
		status=1
	fi
fi

# sparse1t: mount, mount_statfs.
if wanted mount || wanted mount_statfs; then
	if loop=$(load sparse1t); then
		for d in $DRIVERS; do
			driver "$d"
			# shellcheck disable=SC2046
			! wanted mount ||
				measure mount "$d" "$loop" "$RUNS_FAST" ms lower "s * 1000" \
					"$B" time -s "$MNT" $(mount_cmd "$d" "$loop")
			# shellcheck disable=SC2046
			! wanted mount_statfs ||
				measure mount_statfs "$d" "$loop" "$RUNS_FAST" ms lower "s * 1000" \
					"$B" time -f "$MNT" $(mount_cmd "$d" "$loop")
		done
		unload sparse1t "$loop"
	else
		say "could not load sparse1t"
		status=1
	fi
fi

driver ours
exit $status
