#!/bin/sh
# fio: data integrity with Debian's fio (the host puts it and its
# libraries into this suite's overlay).  Each job writes its files with a
# checksum in every block (--verify=crc32c), reads them back and checks
# them, then runs again after a remount with --verify_only (nothing
# written: every block read from the disk must still carry its checksum).
# Jobs: sequential 64 KiB writes by two processes, 4 KiB random writes
# (seeded), O_DIRECT writes, writes through a shared mapping (fio's mmap
# engine).  The files go at the end; the frame then checks the volume
# (fsck.ntfs3, ntfs-3g, the in-tree ntfs3).  On the volume only: fio's own
# checks are the expected result, the tmpfs reference has nothing to do.
# Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

# job NAME FIO-OPTIONS...: the options of job NAME in directory $dir
job() {
	_n=$1
	shift
	set -- --name="$_n" --directory="$dir" --filename_format='$jobname.$jobnum' \
		--verify=crc32c --verify_fatal=1 --randrepeat=1 --randseed=7 \
		--group_reporting --output-format=terse "$@"
	printf '%s\n' "$@"
}

# run DESCRIPTION NAME [--verify_only]: fio with job NAME's options
run() {
	_d=$1 _n=$2
	shift 2
	# shellcheck disable=SC2046
	v "$_d" fio $(job "$_n" $(opts "$_n")) "$@"
}

opts() {
	case $1 in
	seq) echo --rw=write --bs=64k --size=24m --numjobs=2 --ioengine=psync ;;
	rand) echo --rw=randwrite --bs=4k --size=8m --ioengine=psync ;;
	direct) echo --rw=randwrite --bs=16k --size=8m --direct=1 --ioengine=psync ;;
	mmap) echo --rw=randwrite --bs=4k --size=8m --ioengine=mmap ;;
	esac
}

workload() {
	d=$1
	on_volume || return 0
	dir=$d/fio
	x OK "mkdir fio" mkdir "$dir"
	for j in seq rand direct mmap; do
		run "fio $j: written and verified" $j
	done
	is "25165824 25165824 8388608 8388608 8388608" "the five files have their sizes" \
		sh -c 'echo $(stat -c %s "$@")' sizes \
		"$dir/seq.0" "$dir/seq.1" "$dir/rand.0" "$dir/direct.0" "$dir/mmap.0"
	remount
	for j in seq rand direct mmap; do
		run "fio $j: verified again after a remount" $j --verify_only
	done
	rmrf "the files removed" "$dir"
}

run_workload fio
write_done
