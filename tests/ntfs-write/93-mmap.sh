#!/bin/sh
# mmap: data stored through shared writable mappings (page_mkwrite), then
# msync.  Checked by contents (the tmpfs reference stores the same bytes):
# a file grown by truncate (nothing written: its valid size stays 0) and
# stored into far past its valid size; stores into a punched hole, into
# the last partial page of a file, into a small (resident) file, next to
# bytes written with pwrite; a remount between, then stores again.  And
# O_DIRECT writes (fsops dwrite: each read back with O_DIRECT and
# compared): into a new (resident) file, over allocated data below the
# valid size (straight to the device), past the end of a file, into a
# hole, then a buffered read of what a direct write wrote.  One mapping
# kept across a truncation and a growth (stores after the growth stay),
# and the bytes past the end in the last page of a file whose last block
# was written with O_DIRECT and then cut (they map as zeros).  Processes
# that extend one file at once, each syncing and reading its block back
# with O_DIRECT.
# Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

workload() {
	d=$1
	x OK "mkdir m" mkdir "$d/m"
	x OK "an empty file" create "$d/m/grown"
	x OK "grown to 1 MB by truncate" truncate "$d/m/grown" 1000000
	x OK "3000 bytes stored at 500000" mwrite "$d/m/grown" 500000 3000 1
	x OK "100 bytes stored at its start" mwrite "$d/m/grown" 0 100 2

	x OK "a file of 300 KB" pwrite "$d/m/holed" 0 300000 3
	x OK "a hole punched at 100000" punch "$d/m/holed" 100000 100000
	x OK "5000 bytes stored inside the hole" mwrite "$d/m/holed" 150000 5000 4

	x OK "a file of 10000 bytes" pwrite "$d/m/tail" 0 10000 5
	x OK "its last 1000 bytes stored" mwrite "$d/m/tail" 9000 1000 6

	x OK "a file of 300 bytes" pwrite "$d/m/small" 0 300 7
	x OK "40 bytes stored in it" mwrite "$d/m/small" 10 40 8

	x OK "a file of 64 KiB" pwrite "$d/m/mixed" 0 65536 9
	x OK "a page stored in its middle" mwrite "$d/m/mixed" 8192 4096 10
	x OK "and written next to it" pwrite "$d/m/mixed" 12288 100 11
	remount
	x OK "stored again after the remount" mwrite "$d/m/grown" 999000 1000 12
	x OK "grown by a write past its end" pwrite "$d/m/tail" 20000 10 13
	x OK "stored into the gap" mwrite "$d/m/tail" 15000 100 14

	x OK "O_DIRECT: 8 KiB into a new file" dwrite "$d/m/direct" 0 8192 15
	x OK "O_DIRECT: 64 KiB over its end" dwrite "$d/m/direct" 4096 65536 16
	x OK "O_DIRECT: 16 KiB inside allocated data" dwrite "$d/m/direct" 8192 16384 17
	x OK "O_DIRECT: 4 KiB far past the end" dwrite "$d/m/direct" 1048576 4096 18
	x OK "a hole punched" punch "$d/m/direct" 262144 262144
	x OK "O_DIRECT: 8 KiB into the hole" dwrite "$d/m/direct" 393216 8192 19
	x OK "a buffered write after them" pwrite "$d/m/direct" 20000 100 20
	x OK "O_DIRECT: over the buffered bytes" dwrite "$d/m/direct" 16384 8192 21

	# fstests generic/029 and 091: one mapping across a cut and a growth,
	# and the tail of a last block whose folio was never cached
	x OK "a file of 5120 bytes" pwrite "$d/m/regrow" 0 5120 22
	x OK "stores after a cut to 2048 and a growth back stay" mregrow "$d/m/regrow" 5120 2048 23
	x OK "a file of 9000 bytes" pwrite "$d/m/regrow2" 0 9000 24
	x OK "the same across 5000 and 12000" mregrow "$d/m/regrow2" 12000 5000 25
	x OK "O_DIRECT: 64 KiB for a cut" dwrite "$d/m/cut" 0 65536 26
	x OK "cut to 9000 bytes" truncate "$d/m/cut" 9000
	x OK "past its end its last page maps as zeros" mtail "$d/m/cut"

	# fstests generic/616: a write into the cut block reads it from disk,
	# and a growth then shows what lay past the cut unless it was zeroed
	x OK "O_DIRECT: 64 KiB for a second cut" dwrite "$d/m/cut2" 0 65536 27
	x OK "cut to 9000 bytes" truncate "$d/m/cut2" 9000
	x OK "100 bytes written into the cut block" pwrite "$d/m/cut2" 8500 100 28
	x OK "grown to 20000 bytes (past 9000 zeros, not the old bytes)" truncate "$d/m/cut2" 20000

	# fstests generic/418: writers at once extend a file that writeback
	# settles (fsync), each reads its block back with O_DIRECT
	x OK "8 processes write 512 bytes each, fsync, O_DIRECT read (8 rounds)" \
		dioread "$d/m/dio8" 8 512 8
	x OK "3 processes write 1024 bytes each, the same (8 rounds)" dioread "$d/m/dio3" 3 1024 8
}

run_workload mmap
write_done
