#!/bin/sh
# bench/fsck/run.sh: how long fsck.ntfs3 -n takes on volumes of 100 000
# files, on the host, next to other programs that read the same metadata
# (results and method: docs/bench/fsck.md).
#
# Volumes:
#   bigdir    build/ntfs-images/bigdir.img (scripts/images/make-ntfs-images.sh):
#             100 004 files in one directory, 100 079 objects, 512 MiB
#   tree100k  build/bench-fsck/tree100k.img (made here, cached): 100 000
#             files in 100 directories, every 10th with 5 000 bytes of data
#             (non-resident), every 100th with a second hard link, every
#             1 000th with a named stream, 1 GiB
# Rows, each on the same image:
#   fsck        fsck.ntfs3 -n (tools/, built into build/tools/)
#   ntfsfix     ntfsfix -n: opens the volume (boot sector, $MFT and $MFTMirr
#               records 0-3, $Volume) and writes nothing; the least any
#               checker reads
#   mft-read    a sequential read of $MFT:$DATA's extents, 1 MiB at a time,
#               in this script: the I/O fsck.ntfs3 cannot avoid
#   ntfsls      ntfsls -R: every directory index, through libntfs-3g
#   ntfsls-l    ntfsls -R -l: every index and every file's record (sizes,
#               times), through libntfs-3g
# Each row runs cold (sync, echo 3 > /proc/sys/vm/drop_caches before each
# run) and warm (after one untimed run); a value is the median of the runs
# (FSCK_BENCH_RUNS, default 3).  Ratios are fsck's time over the row's.
#
# Output: the table on stdout and in build/logs/bench-fsck.md; with
# FSCK_BENCH_DOC=1 also the results block of docs/bench/fsck.md.
# Settings: FSCK_BENCH_VOLUMES (default "bigdir tree100k"),
# FSCK_BENCH_ROWS (default "fsck ntfsfix mft-read ntfsls ntfsls-l"),
# FSCK_BENCH_RUNS (3), FSCK_BENCH_REV (build fsck.ntfs3 from this commit,
# default: the work tree).  Needs root (drop_caches, FUSE to build tree100k).
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
OUT=$BUILD/bench-fsck
LOGS=$BUILD/logs
FSCK=$BUILD/tools/fsck.ntfs3
VOLUMES=${FSCK_BENCH_VOLUMES:-bigdir tree100k}
ROWS=${FSCK_BENCH_ROWS:-fsck ntfsfix mft-read ntfsls ntfsls-l}
RUNS=${FSCK_BENCH_RUNS:-3}

say() {
	printf '  %-7s %s\n' "$1" "$2"
}

die() {
	echo "error: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "bench/fsck: needs root (drop_caches)"
for t in ntfsfix ntfsls ntfsinfo mkntfs ntfs-3g python3 make; do
	command -v "$t" >/dev/null 2>&1 || die "bench/fsck: $t missing (scripts/build/deps.sh)"
done
mkdir -p "$OUT" "$LOGS"

# fsck.ntfs3 from the work tree, or with FSCK_BENCH_REV from that commit
# (others' uncommitted edits then do not count).
tools=$TOP/tools
if [ -n "${FSCK_BENCH_REV:-}" ]; then
	rev=$(git -C "$TOP" log -1 --format='%h %cs' "$FSCK_BENCH_REV" -- tools/fsck.ntfs3) ||
		die "no commit $FSCK_BENCH_REV"
	rm -rf "$OUT/src"
	mkdir -p "$OUT/src"
	git -C "$TOP" archive "$FSCK_BENCH_REV" tools ntfs3/ntfs.h VERSION | tar -x -C "$OUT/src"
	tools=$OUT/src/tools
	FSCK=$OUT/tools/fsck.ntfs3
else
	rev=$(git -C "$TOP" log -1 --format='%h %cs' -- tools/fsck.ntfs3 2>/dev/null || echo unknown)
	[ -z "$(git -C "$TOP" status --porcelain -- tools/fsck.ntfs3 2>/dev/null)" ] ||
		rev="$rev + uncommitted changes"
fi
case " $ROWS " in
*" fsck "*)
	say MAKE "fsck.ntfs3 ($rev)"
	make -s -C "$tools" O="$(dirname "$FSCK")" >"$LOGS/bench-fsck-build.log" 2>&1 ||
		{ tail -n 20 "$LOGS/bench-fsck-build.log" >&2; die "fsck.ntfs3 does not build"; }
	;;
esac

# tree100k: made once; the stamp is a hash of the recipe below.
MNT=$OUT/mnt
LOG=$LOGS/bench-fsck-ntfs-3g.log
. "$TOP/scripts/images/ntfs-3g.sh"
trap 'fuse_reap' EXIT
trap 'exit 1' INT TERM HUP

populate_tree() {
	python3 - "$1" <<'EOF'
import os, sys
root = sys.argv[1]
for d in range(100):
    os.mkdir("%s/d%03d" % (root, d))
for i in range(100000):
    p = "%s/d%03d/file%06d.txt" % (root, i % 100, i)
    with open(p, "w") as f:
        f.write("x" * 5000 if i % 10 == 0 else "f%06d\n" % i)
    if i % 100 == 1:		# a second name, in the next directory
        os.link(p, "%s/d%03d/link%06d" % (root, (i + 1) % 100, i))
    if i % 1000 == 2:		# a named stream (ntfs-3g: streams_interface)
        with open(p + ":ads", "w") as f:
            f.write("stream %d\n" % i)
EOF
}

make_tree() {
	img=$OUT/tree100k.img
	key=$( (sed -n '/^populate_tree()/,/^}/p' "$0"; ntfs-3g --version 2>&1 | head -1) |
		sha256sum | cut -d' ' -f1)
	[ -f "$img" ] && [ "$(cat "$OUT/tree100k.stamp" 2>/dev/null)" = "$key" ] && return 0
	say NTFS "tree100k.img: 100 000 files in 100 directories (ntfs-3g, about 2 min)"
	rm -f "$img" "$OUT/tree100k.stamp"
	truncate -s 1G "$img.new"
	mkntfs -q -F -Q -L tree100k "$img.new" >>"$LOG" 2>&1 || die "mkntfs failed; log: $LOG"
	mkdir -p "$MNT"
	fuse_mount "$img.new" "streams_interface=windows"
	populate_tree "$MNT" || die "populating tree100k failed"
	fuse_umount
	mv "$img.new" "$img"
	echo "$key" >"$OUT/tree100k.stamp"
}

images=
for vol in $VOLUMES; do
	case $vol in
	bigdir)
		img=$BUILD/ntfs-images/bigdir.img
		[ -f "$img" ] || "$TOP/scripts/images/make-ntfs-images.sh"
		;;
	tree100k)
		make_tree
		img=$OUT/tree100k.img
		;;
	*) die "unknown volume '$vol' (bigdir, tree100k)" ;;
	esac
	images="$images $vol=$img"
done

export FSCK ROWS RUNS OUT
# shellcheck disable=SC2086 # one argument per volume
python3 "$TOP/bench/fsck/timing.py" --rev "$rev" $images >"$LOGS/bench-fsck.md.new"
mv "$LOGS/bench-fsck.md.new" "$LOGS/bench-fsck.md"
cat "$LOGS/bench-fsck.md"
if [ "${FSCK_BENCH_DOC:-0}" = 1 ]; then
	python3 "$TOP/bench/fsck/timing.py" --update-doc "$TOP/docs/bench/fsck.md" "$LOGS/bench-fsck.md"
	say DOC docs/bench/fsck.md
fi
