#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host test of fsck.ntfs3 (tools/fsck.ntfs3; what each part proves:
# tests/fsck/README.md).  Builds the checker (make -C tools O=build/tools),
# then:
#   - clean: "fsck.ntfs3 -n" exits 0 and reports nothing on every volume
#     the project makes with mkntfs and ntfs-3g (build/ntfs-images,
#     build/fsck-images: every cluster size from 512 bytes to 2 MiB with
#     512- and 4096-byte sectors), on the Windows-made forensics volume, and
#     on the healthy partitions of build/ntfs-special/special.img; the
#     special partitions that are damaged on purpose give their one class;
#   - damage: for each problem class, scripts/images/make-ntfs-damaged.py damages a
#     clean volume of build/fsck-images, and the checker must exit 4 and
#     report that class and no other.
# TAP on stdout; exit status 0 only if every test passed.  Builds the images
# it needs first (each builder is a no-op when its stamp is up to date).
. "$(dirname "$0")/../include/tap.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BUILD:-$top/build}
S=$top/scripts
fsck=$B/tools/fsck.ntfs3
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# quoted FILE: FILE's first lines as TAP comments.
quoted() {
	head -n "${2:-20}" "$1" | sed 's/^/# /'
}

build_fsck() {
	make -C "$top/tools" O="$B/tools" >"$w/make.log" 2>&1 || { quoted "$w/make.log" 40; return 1; }
	[ -x "$fsck" ]
}
check "fsck.ntfs3 builds (make -C tools O=build/tools)" build_fsck
# shellcheck disable=SC2154 # set by tap.sh
if [ "$tap_failed" != 0 ]; then
	tap_done
	exit 1
fi

# images SCRIPT: run an image builder quietly.
images() {
	sh "$S/images/$1" >"$w/$1.log" 2>&1 </dev/null || { tail -n 20 "$w/$1.log" | sed 's/^/# /'; return 1; }
}
blank() {	# the blank volume scripts/test/check.sh makes for the VM tests
	[ -f "$B/ntfs-blank.img" ] && return 0
	truncate -s 32M "$B/ntfs-blank.img.new" &&
		mkntfs -F -f -q -L blank "$B/ntfs-blank.img.new" >/dev/null 2>&1 &&
		mv "$B/ntfs-blank.img.new" "$B/ntfs-blank.img"
}
check "the NTFS test images are built (make-ntfs-images.sh)" images make-ntfs-images.sh
check "the demo volumes are built (make-demo-disk.sh)" images make-demo-disk.sh
check "the special volumes are built (make-ntfs-special.sh)" images make-ntfs-special.sh
check "the fsck volumes are built (make-fsck-images.sh)" images make-fsck-images.sh
check "the blank volume is made (mkntfs)" blank
check "the fuzzer's base volumes are built (make-fuzz-base.sh)" images make-fuzz-base.sh

# run IMG [OFFSET SIZE]: fsck.ntfs3 -n (on the partition at OFFSET, SIZE
# bytes long); output in $w/out, exit status in $rc, the problem classes
# (sorted, unique, space-separated) in $classes.
run() {
	if [ -n "${2:-}" ]; then
		"$fsck" -n --offset "$2" --size "$3" "$1" >"$w/out" 2>"$w/err" </dev/null
	else
		"$fsck" -n "$1" >"$w/out" 2>"$w/err" </dev/null
	fi
	rc=$?
	classes=$(sed -n 's/^\[\([^]]*\)\].*/\1/p' "$w/out" | sort -u | tr '\n' ' ')
	classes=${classes% }
}

# show: what the checker said, as TAP comments.
show() {
	echo "# exit status $rc, classes: ${classes:-none}"
	quoted "$w/out" 12
	quoted "$w/err" 5
}

# clean IMG [OFFSET SIZE]: exit 0 and not one problem line.
clean() {
	if [ ! -f "$1" ]; then
		echo "# $1 missing"
		return 1
	fi
	run "$@"
	[ "$rc" = 0 ] && [ -z "$classes" ] && return 0
	show
	return 1
}

# only CLASS RC IMG [OFFSET SIZE]: exit RC, and every problem line of CLASS
# (at least one unless CLASS is "-").
only() {
	want=$1 wrc=$2
	shift 2
	run "$@"
	if [ "$want" = - ]; then
		[ "$rc" = "$wrc" ] && [ -z "$classes" ] && return 0
	else
		[ "$rc" = "$wrc" ] && [ "$classes" = "$want" ] && return 0
	fi
	echo "# want exit $wrc and only [$want]"
	show
	return 1
}

# --- clean volumes

for i in c4k-r1k c512 c64k c2m s4k-r4k bigdir sparse1t; do
	check "clean: ntfs-images/$i.img" clean "$B/ntfs-images/$i.img"
done
check "clean: ntfs-blank.img" clean "$B/ntfs-blank.img"
check "clean: demo/demo.img" clean "$B/demo/demo.img"
# The Windows-made volume is partition 1 of an MBR disk: "OFFSET SIZE".
part=$(python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read(512)
start, n = struct.unpack_from("<II", b, 446 + 8)
print(start * 512, n * 512)' "$B/demo/forensics.img" 2>/dev/null)
# shellcheck disable=SC2086 # two words
check "clean: demo/forensics.img (Windows, MBR partition: ${part:-?})" \
	clean "$B/demo/forensics.img" ${part:-0 0}

# The whole disk given instead of its partition: a usage error (exit 8)
# that says so, not problems found in the last partition's backup boot
# sector.
whole_disk() {
	"$fsck" -n "$1" >"$w/out" 2>"$w/err"
	rc=$?
	[ "$rc" = 8 ] && grep -q "partitioned disk" "$w/err" && ! [ -s "$w/out" ] && return 0
	echo "# exit $rc"
	sed 's/^/# /' "$w/out" "$w/err" | head -n 5
	return 1
}
check "demo/forensics.img whole (no --offset): exit 8, \"a partitioned disk\"" \
	whole_disk "$B/demo/forensics.img"

for img in "$B"/fuzz/base*.img; do
	check "clean: fuzz/$(basename "$img") (the fuzzer's base, mkntfs, ntfs-3g)" clean "$img"
done

for img in "$B"/fsck-images/*.img; do
	check "clean: fsck-images/$(basename "$img") (mkntfs, ntfs-3g)" clean "$img"
done

# The partitions of special.img (GPT): NAME OFFSET SIZE, in disk order.
python3 - "$B/ntfs-special/special.img" >"$w/parts" <<'EOF'
import struct, sys
f = open(sys.argv[1], "rb")
f.seek(512)
lba, n, size = struct.unpack_from("<QII", f.read(92), 72)
f.seek(lba * 512)
t = f.read(n * size)
for i in range(n):
    e = t[i * size:(i + 1) * size]
    if e[:16] != bytes(16):
        first, last = struct.unpack_from("<QQ", e, 32)
        print(e[56:128].decode("utf-16-le").rstrip("\0"), first * 512, (last - first + 1) * 512)
EOF
check "special.img has its 12 partitions" [ "$(wc -l <"$w/parts")" = 12 ]
# What each partition is (scripts/images/make-ntfs-special.sh): healthy ones, or
# damaged on purpose (want class and exit status).  A dirty flag, an
# unclean $LogFile, a hiberfil.sys and a version 1.2 $Volume are not
# problems (docs/man/fsck.ntfs3.8).
while read -r name offset size; do
	case $name in
	bootbak) check "special/$name (primary boot sector zeroed): only [boot], exit 4" \
		only boot 4 "$B/ntfs-special/special.img" "$offset" "$size" ;;
	noboot) check "special/$name (both boot sectors zeroed): exit 8, no problem line" \
		only - 8 "$B/ntfs-special/special.img" "$offset" "$size" ;;
	mirr) check "special/$name (\$MFTMirr's record 0 differs): only [mftmirr], exit 4" \
		only mftmirr 4 "$B/ntfs-special/special.img" "$offset" "$size" ;;
	upcase) check "special/$name (\$UpCase zeroed): only [upcase], exit 4" \
		only upcase 4 "$B/ntfs-special/special.img" "$offset" "$size" ;;
	*) check "clean: special/$name" clean "$B/ntfs-special/special.img" "$offset" "$size" ;;
	esac
done <"$w/parts"
check "clean: special-4k.img (4096-byte sectors)" clean "$B/ntfs-special/special-4k.img"

# --- damage: one class each

# generate SRC DIR: every damaged image of SRC into DIR (one python run:
# the interpreter's start costs more than a damage); what each damage did
# in DIR/what.
generate() {
	mkdir -p "$2"
	python3 "$S/images/make-ntfs-damaged.py" --all "$1" "$2" >"$2/what" 2>&1 ||
		{ quoted "$2/what"; return 1; }
}

# damaged CLASS SRC DIR: DIR/CLASS.img differs from SRC, and the checker
# reports that class only and exits 4.
damaged() {
	dst=$3/$1.img
	grep "^$1: " "$3/what" | sed 's/^/# /'
	if [ ! -f "$dst" ] || cmp -s "$2" "$dst"; then
		echo "# $dst missing or the same as its source"
		return 1
	fi
	only "$1" 4 "$dst"
}

# undamaged SRC: what "only CLASS 4" requires holds on SRC for no class
# (one run of the checker, its verdict held against each class).
undamaged() {
	run "$1"
	for c in $classes_all; do
		if [ "$rc" = 4 ] && [ "$classes" = "$c" ]; then
			echo "# only [$c], exit 4 holds for the undamaged $1"
			return 1
		fi
	done
}

classes_all=$(python3 "$S/images/make-ntfs-damaged.py" --list | awk '{ print $1 }')
# every class: one damage for each problem class fsck.h defines (P_*).
every_class() {
	want=$(sed -n 's/^#define P_[A-Z]*[[:space:]]*"\([^"]*\)".*/\1/p' \
		"$top/tools/fsck.ntfs3/fsck.h" | sort | tr '\n' ' ')
	got=$(echo "$classes_all" | sort | tr '\n' ' ')
	[ -n "$want" ] && [ "$want" = "$got" ] && return 0
	echo "# fsck.h: $want"
	echo "# make-ntfs-damaged.py: $got"
	return 1
}
check "make-ntfs-damaged.py has a damage for every class of fsck.h" every_class
# The default geometry, records and index blocks spanning clusters, and
# 4 KiB sectors and records.
for src in c4k-s512 c512-s512 c4k-s4k; do
	img=$B/fsck-images/$src.img
	check "make-ntfs-damaged.py --all $src" generate "$img" "$w/$src"
	for c in $classes_all; do
		check "damage $c on $src: exit 4, only [$c]" damaged "$c" "$img" "$w/$src"
	done
	rm -rf "${w:?}/$src"
	# The damage checks can fail: each fails on the undamaged source.
	check "$src undamaged: fails every damage check" undamaged "$img"
done

nomount() {	# no FUSE mount under build/ (the image builders' mounts)
	! awk -v b="$B/" '$3 ~ /^fuse/ && index($2, b) == 1' /proc/mounts | grep -q .
}
check "no FUSE mount left behind" nomount
tap_done
