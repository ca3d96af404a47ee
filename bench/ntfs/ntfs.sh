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
# Writing (each driver on a fresh copy of an empty mkntfs volume, 1 GiB,
# mounted read-write; a row that fails prints "failed:ERRNO" instead):
#   untar       tar -xf of the kernel source slice (3 000 files), sync   s
#   rm_rf       rm -rf of that tree (fresh mount), sync                  s
#   seqwrite    one 64 MiB file, 1 MiB write()s, fsync (also raw)        MiB/s
#   par4        4 processes write 32 MiB each at once, sync               MiB/s
#               (par4_extents: extents of the 4 files, FIEMAP)
#   randwrite   4 KiB pwrite()s at random offsets of a 32 MiB file, fsync  writes/s
#   files1k, files10k, files100k  create then unlink N empty files in one
#               directory, sync                                          us/op
#   fsync       500 times: create a file, write 4 KiB, fsync              files/s
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
. "$META/env"	# RUNS_FAST RUNS_SLOW RAND_COUNT ROWS DRIVERS WRAND_COUNT
status=0
MODE=ro		# the mount mode; the writing rows mount read-write
SOFT=0		# 1: a failing run is a result (the writing rows), not an error

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
	ours) echo "mount -t ntfs3 -o $MODE $2 $MNT" ;;
	intree) echo "mount -t ntfs3 -o $MODE,iocharset=utf8 $2 $MNT" ;;
	ntfs-3g) echo "ntfs-3g -o $MODE $2 $MNT" ;;
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

# The errno a failed command reported in /tmp/err: our tools print its
# name; busybox tools print strerror().
errno_of() {
	e=$(sed -n 's/.*(\(E[A-Z0-9]*\))$/\1/p' /tmp/err | head -n 1)
	[ -n "$e" ] || case $(cat /tmp/err) in
	*"No space left"*) e=ENOSPC ;;
	*"Input/output error"*) e=EIO ;;
	*"Read-only file system"*) e=EROFS ;;
	*"Operation not permitted"*) e=EPERM ;;
	*"Permission denied"*) e=EACCES ;;
	*"Invalid argument"*) e=EINVAL ;;
	*"not supported"*) e=EOPNOTSUPP ;;
	*"No such file"*) e=ENOENT ;;
	*"Directory not empty"*) e=ENOTEMPTY ;;
	*"File exists"*) e=EEXIST ;;
	*"too long"*) e=ENAMETOOLONG ;;
	*) e=unknown ;;
	esac
	echo "$e"
}

# failed ROW DRIVER UNIT BETTER WHY: a writing row's failure is a result:
# its BENCH line says so, the kernel's last words go to the log.
failed() {
	say "$1 $2: dmesg tail:"
	dmesg | tail -n 8 | sed 's/^/#   /'
	echo "BENCH ntfs.$1.$2 failed:$5 $3 $4"
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
				[ $SOFT = 1 ] && failed "$row" "$drv" "$unit" "$better" mount || status=1
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
			[ $SOFT = 1 ] && failed "$row" "$drv" "$unit" "$better" "$(errno_of)" || status=1
			return 1
		fi
		[ $mounted = 0 ] || umount_fs
		case $row in mount*) umount_fs ;; esac
		echo "$out" >>"/tmp/runs.$row.$drv"
		v=$(echo "$out" | awk "{ s = \$1; c = \$2; print $conv }")
		# what the device saw during the run (mount included for the
		# mount rows): read requests and KiB; and writes, if any
		io=$(echo "$io0 $(cat "/sys/block/${dev#/dev/}/stat")" |
			awk '{ n = NF / 2; printf "%d reads, %d KiB", $(n + 1) - $1, ($(n + 3) - $3) / 2
				w = $(n + 5) - $5; if (w) printf ", %d writes, %d KiB", w, ($(n + 7) - $7) / 2 }')
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

# --- Writing ---------------------------------------------------------------

WRITING_ROWS="untar rm_rf seqwrite par4 randwrite files1k files10k files100k fsync"

# fresh: a new copy of the empty volume (write.img, kept in RAM as
# $RAM/write.pristine) on a writable loop device, $wloop.  Failing here is
# the benchmark's fault, not a driver's: the boot fails.
wloop=
fresh() {
	[ -z "$wloop" ] || losetup -d "$wloop"
	wloop=
	rm -f "$RAM/w.img"
	if "$B" load "$RAM/write.pristine" "$RAM/w.img" "$(cat "$META/write.size")" \
		"$META/write.extents" 2>/dev/null && wloop=$(losetup -f) &&
		losetup "$wloop" "$RAM/w.img"; then
		return 0
	fi
	say "no fresh copy of the write volume (RAM full?)"
	wloop=
	status=1
	return 1
}

# prep DRIVER CMD...: CMD on a read-write mount of $wloop (untimed set-up).
prep() {
	d=$1
	shift
	mount_fs "$d" "$wloop" >/tmp/err 2>&1 && {
		"$@" >/dev/null 2>>/tmp/err
		rc=$?
		umount_fs
		[ $rc = 0 ]
	}
}

# wmeasure ROW DRIVER UNIT BETTER CONVERT CMD...: one run on $wloop.
wmeasure() {
	row=$1 drv=$2
	shift 2
	measure "$row" "$drv" "$wloop" 1 "$@"
}

# tmpfs_rw: a fresh empty tmpfs on $MNT, for the floor of the writing rows.
tmpfs_rw() {
	! grep -q " $MNT " /proc/mounts || umount "$MNT"
	mount -t tmpfs -o size=1536m none "$MNT"
}

# The floor of the writing rows: the same work in a tmpfs, i.e. what the
# tools, the VFS and the page cache cost with no file system under them.
# A driver cannot do better; against the in-tree driver or ntfs-3g it
# bounds the ratios any driver can reach under this cost model.
floor_rows() {
	if (wanted untar || wanted rm_rf) && fresh && tmpfs_rw; then
		if wmeasure untar tmpfs s lower s \
			"$B" time sh -c "tar -xf $META/linux.tar -C $MNT && sync"; then
			! wanted rm_rf || wmeasure rm_rf tmpfs s lower s \
				"$B" time sh -c "rm -rf $MNT/linux-source-6.12 && sync"
		fi
	fi
	! wanted par4 || { fresh && tmpfs_rw && wmeasure par4 tmpfs MiB/s higher "c / 1048576 / s" \
		"$B" wpar "$MNT" 4 32; }
	! wanted files1k || { fresh && tmpfs_rw && wmeasure files1k tmpfs us/op lower \
		"s / c * 1000000" "$B" files "$MNT" 1000; }
	! wanted files10k || { fresh && tmpfs_rw && wmeasure files10k tmpfs us/op lower \
		"s / c * 1000000" "$B" files "$MNT" 10000; }
	! wanted files100k || { fresh && tmpfs_rw && wmeasure files100k tmpfs us/op lower \
		"s / c * 1000000" "$B" files "$MNT" 100000; }
	! wanted fsync || { fresh && tmpfs_rw && wmeasure fsync tmpfs files/s higher "c / s" \
		"$B" fsyncs "$MNT" 500; }
	! grep -q " $MNT " /proc/mounts || umount "$MNT"
	return 0
}

# The writing rows of DRIVER (raw: seqwrite only, on the bare device;
# tmpfs: the floor).  A row that fails has printed its BENCH line; the
# next rows still run.
write_rows() {
	d=$1
	if [ "$d" = tmpfs ]; then
		floor_rows
		return 0
	fi
	if [ "$d" = raw ]; then
		! wanted seqwrite || { fresh && wmeasure seqwrite raw MiB/s higher "c / 1048576 / s" \
			"$B" wseq "$wloop" 64; }
		# The fsync row's floor: 5 pages a file (data, MFT record, index,
		# $MFT and $Bitmap bits), one wait, one cache flush; fsync3
		# without the two bitmaps.
		! wanted fsync || { fresh && wmeasure fsync raw files/s higher "c / s" \
			"$B" fsyncs-raw "$wloop" 500 5; }
		! wanted fsync || { fresh && wmeasure fsync3 raw files/s higher "c / s" \
			"$B" fsyncs-raw "$wloop" 500 3; }
		return 0
	fi
	if (wanted untar || wanted rm_rf) && fresh; then
		if wmeasure untar "$d" s lower s \
			"$B" time sh -c "tar -xf $META/linux.tar -C $MNT && sync"; then
			! wanted rm_rf || wmeasure rm_rf "$d" s lower s \
				"$B" time sh -c "rm -rf $MNT/linux-source-6.12 && sync"
		elif wanted rm_rf; then
			echo "BENCH ntfs.rm_rf.$d failed:untar s lower"
		fi
	fi
	! wanted seqwrite || { fresh && wmeasure seqwrite "$d" MiB/s higher "c / 1048576 / s" \
		"$B" wseq "$MNT/seq" 64; }
	if wanted par4 && fresh && wmeasure par4 "$d" MiB/s higher "c / 1048576 / s" \
		"$B" wpar "$MNT" 4 32; then
		# FUSE has no FIEMAP: no extents row for ntfs-3g
		e=$(tail -n 1 "/tmp/runs.par4.$d" | cut -d' ' -f3)
		[ "$e" = - ] || echo "BENCH ntfs.par4_extents.$d $e extents lower"
	fi
	if wanted randwrite && fresh; then
		if prep "$d" "$B" wseq "$MNT/r" 32; then
			wmeasure randwrite "$d" writes/s higher "c / s" \
				"$B" wrand "$MNT/r" "$WRAND_COUNT"
		else
			failed randwrite "$d" writes/s higher "$(errno_of)"
		fi
	fi
	! wanted files1k || { fresh && wmeasure files1k "$d" us/op lower "s / c * 1000000" \
		"$B" files "$MNT" 1000; }
	! wanted files10k || { fresh && wmeasure files10k "$d" us/op lower "s / c * 1000000" \
		"$B" files "$MNT" 10000; }
	! wanted files100k || { fresh && wmeasure files100k "$d" us/op lower "s / c * 1000000" \
		"$B" files "$MNT" 100000; }
	! wanted fsync || { fresh && wmeasure fsync "$d" files/s higher "c / s" \
		"$B" fsyncs "$MNT" 500; }
	return 0
}

want_write=0
for r in $WRITING_ROWS; do wanted "$r" && want_write=1; done
if [ $want_write = 1 ]; then
	dev=$(disk_of write)
	while :; do :; done &
	spin=$!
	"$B" load "$dev" "$RAM/write.pristine" "$(cat "$META/write.size")" "$META/write.extents" >&2
	rc=$?
	kill "$spin"
	wait "$spin" 2>/dev/null
	if [ $rc = 0 ]; then
		MODE=rw SOFT=1
		for d in $DRIVERS raw tmpfs; do
			driver "$d"
			write_rows "$d"
		done
		MODE=ro SOFT=0
		[ -z "$wloop" ] || losetup -d "$wloop"
		rm -f "$RAM/w.img" "$RAM/write.pristine"
	else
		say "could not load the write volume"
		status=1
	fi
fi

driver ours
exit $status
