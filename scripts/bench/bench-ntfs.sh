#!/bin/sh
# bench-ntfs.sh: the NTFS benchmark (make bench-ntfs).  One boot of the
# default kernel under QEMU -icount with 4 GiB of memory runs
# bench/ntfs/ntfs.sh, which compares our ntfs3, the in-tree ntfs3 and
# ntfs-3g (FUSE, copied into the guest with its libraries) on the benchmark
# volume (scripts/images/make-bench-ntfs-images.sh), bigdir.img and sparse1t.img
# (scripts/images/make-ntfs-images.sh), plus the raw device; and the writing
# rows, each driver on a fresh copy of an empty mkntfs volume (write.img,
# made here) with a 3 000-file slice of Debian's kernel source tarball.
# Prints the table
# (scripts/bench/bench-ntfs-table.py); docs/bench/ntfs.md explains it.
# Settings (environment):
#   BENCH_NTFS_ROWS     rows to run (default: all)
#   BENCH_NTFS_DRIVERS  drivers (default: ours intree ntfs-3g)
#   BENCH_NTFS_RUNS     runs of the heavy rows: seqread, ls_lR, find_stat (1)
#   BENCH_NTFS_RUNS_FAST  runs of the others (3)
#   BENCH_NTFS_RAND     4 KiB reads per randread run (4096)
#   BENCH_NTFS_WRITE_ONLY=1  only the writing rows
#   BENCH_NTFS_WRAND    4 KiB writes per randwrite run (4096)
#   ICOUNT=0            wall clock instead of -icount (noisy: not recommended)
set -eu
. "$(dirname "$0")/../lib.sh"
. "$S/vm/harness.sh"
V=${VARIANT:-default}
NAME=bench-ntfs
start=$(date +%s)

prepare_boots "$V"
"$S/images/make-ntfs-images.sh"
"$S/images/make-bench-ntfs-images.sh"

# The writing rows' inputs: an empty 1 GiB volume (quick format: only the
# metadata is written, so it loads into guest RAM in no time) and the first
# 3 000 files of the kernel source tarball as an uncompressed tar (busybox
# tar in the guest; decompressing xz there would be timed as well).
wimg=$BUILD/bench-ntfs/write.img
if [ ! -s "$wimg" ]; then
	rm -f "$wimg.tmp"
	truncate -s 1G "$wimg.tmp"
	# mkntfs warns about geometry on a plain file: only a failure matters
	mkntfs -F -Q -q -c 4096 -L bench-write "$wimg.tmp" >"$LOGS/mkntfs-write.log" 2>&1 ||
		die "mkntfs of $wimg failed (see $LOGS/mkntfs-write.log; ntfs-3g installed? scripts/build/deps.sh)"
	mv "$wimg.tmp" "$wimg"
fi
slice=$BUILD/bench-ntfs/linux-3000.tar
src=/usr/src/linux-source-6.12.tar.xz
if [ ! -s "$slice" ]; then
	[ -r "$src" ] || die "$src missing: apt-get install linux-source-6.12"
	python3 - "$src" "$slice.tmp" <<'EOF'
import sys, tarfile
src = tarfile.open(sys.argv[1], 'r|xz')		# streamed: stops after 3 000 files
dst = tarfile.open(sys.argv[2], 'w', format=tarfile.GNU_FORMAT)
files = 0
for m in src:
    if m.isfile():
        if files == 3000:
            break
        dst.addfile(m, src.extractfile(m))
        files += 1
    elif m.isdir() or m.issym():
        dst.addfile(m)
dst.close()
EOF
	mv "$slice.tmp" "$slice"
fi

# The overlay: ntfs-3g with the shared libraries it needs and the ELF
# loader; for each volume its size and data extents (the guest copies only
# those into RAM: sparse1t is 1 TiB apparent, 68 MiB of data).
ov=$BUILD/bench-ntfs/overlay
rm -rf "$ov"
mkdir -p "$ov/bench-ntfs" "$ov/usr/bin"
ntfs3g=$(command -v ntfs-3g) || die "ntfs-3g missing (scripts/build/deps.sh)"
cp "$ntfs3g" "$ov/usr/bin/ntfs-3g"
for lib in $(ldd "$ntfs3g" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
	mkdir -p "$ov$(dirname "$lib")"
	cp -L "$lib" "$ov$lib"
done
IMAGES="bench=$BUILD/bench-ntfs/bench.img bigdir=$BUILD/ntfs-images/bigdir.img sparse1t=$BUILD/ntfs-images/sparse1t.img write=$wimg"
DISKS="" DISK_NAMES=""
for spec in $IMAGES; do
	name=${spec%%=*}
	img=${spec#*=}
	DISKS="$DISKS $img:ro"
	DISK_NAMES="$DISK_NAMES $name"
	stat -c %s "$img" >"$ov/bench-ntfs/$name.size"
	python3 - "$img" >"$ov/bench-ntfs/$name.extents" <<'EOF'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
size, off = os.fstat(fd).st_size, 0
while off < size:
    try:
        data = os.lseek(fd, off, os.SEEK_DATA)
    except OSError:		# ENXIO: no data after off
        break
    off = os.lseek(fd, data, os.SEEK_HOLE)
    print(data, off - data)
EOF
done
# seq.bin's size, for the raw rows (the same number of bytes).
cp "$BUILD/bench-ntfs/seq.size" "$ov/bench-ntfs/seq.size"
cp "$slice" "$ov/bench-ntfs/linux.tar"
READ_ROWS="seqread randread smallfiles ls_lR find_stat mount mount_statfs"
WRITE_ROWS="untar rm_rf seqwrite par4 randwrite files1k files10k files100k fsync"
if [ "${BENCH_NTFS_WRITE_ONLY:-0}" = 1 ]; then
	rows=$WRITE_ROWS
else
	rows="$READ_ROWS $WRITE_ROWS"
fi
cat >"$ov/bench-ntfs/env" <<EOF
ROWS='${BENCH_NTFS_ROWS:-$rows}'
DRIVERS='${BENCH_NTFS_DRIVERS:-ours intree ntfs-3g}'
RUNS_SLOW=${BENCH_NTFS_RUNS:-1}
RUNS_FAST=${BENCH_NTFS_RUNS_FAST:-3}
RAND_COUNT=${BENCH_NTFS_RAND:-4096}
WRAND_COUNT=${BENCH_NTFS_WRAND:-4096}
EOF
export DISKS DISK_NAMES

ic=${ICOUNT:-1}
# progress: the test channel's comment lines, with the host's time of day
progress() {
	while IFS= read -r line; do
		case $line in "# "*) printf '  %s %s\n' "$(date +%T)" "${line#\# }" ;; esac
	done
}
# TEST_TIMEOUT counts guest time, which -icount makes jump ahead while the
# volumes are copied; TIMEOUT (host time) is the real limit.
TIMEOUT=${TIMEOUT:-3600} ICOUNT=$ic TEST_TIMEOUT=360000 MEM=${MEM:-4096} EXTRA_OVERLAY=$ov \
	BOOT_OUT=progress boot_judge "$NAME" "$V" bench-ntfs >/dev/null ||
	die "benchmark boot failed; see $LOGS/boot-$NAME/results.log and console.log"
grep '^BENCH ' "$LOGS/boot-$NAME/results.log" | tr -d '\r' >"$LOGS/bench-ntfs.txt"
say TIME "$(($(date +%s) - start)) s (guest time: $([ "$ic" = 1 ] && echo "-icount, instructions" || echo "wall clock"))"
{
	rev=$(git -C "$TOP" log -1 --format='%h %cs' -- ntfs3 2>/dev/null || echo unknown)
	[ -z "$(git -C "$TOP" status --porcelain -- ntfs3 2>/dev/null)" ] || rev="$rev + uncommitted changes"
	echo "ours: ntfs3/ at $rev; $(date -u '+%Y-%m-%d %H:%M UTC'); $V kernel; $([ "$ic" = 1 ] && echo "QEMU TCG -icount (guest time = instructions)" || echo "QEMU TCG, wall clock")"
	echo
	"$S/bench/bench-ntfs-table.py" "$LOGS/bench-ntfs.txt"
} | tee "$LOGS/bench-ntfs.md"
