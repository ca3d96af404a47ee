#!/bin/sh
# A volume written by the in-tree ntfs3 inside this VM (on a blank mkntfs
# image, disk "blank"), then read by ours: the listing, file contents,
# links, symlinks and user.* xattrs must be what the in-tree driver saw.
#
# cut/: files of several MiB cut to zero (truncate -s 0, and ": >"): the
# in-tree driver leaves their $DATA non-resident with no runs (lowest VCN
# 0, highest -1, sizes 0, mapping pairs = the terminator), which is
# checked in its MFT records (read through its own showmeta mount); ours
# must list them (ls -l), stat them as size 0 and read them as empty.
# emptied/: a directory that needed index blocks, all entries removed;
# what the in-tree driver left is shown, ours must list it empty.  Named
# streams are not written: the in-tree ntfs3 has no interface for them.
. /tests/include/tap.sh
. /hx/env
WALK=/tests/tools/walk
MNT=/mnt/intree-written

disk_dev() {	# NAME: its /dev/vdX
	set -- a b c d e f g h i j k l m n o p
	for n in $HX_DISK_NAMES; do
		[ "$n" = "$NAME" ] && { echo "/dev/vd$1"; return 0; }
		shift
	done
	return 1
}

use_driver() {
	rmmod ntfs3 2>/dev/null
	insmod "/lib/modules/$1/ntfs3.ko"
}

# Deterministic content: N bytes from an LCG seeded by the name and size.
gen() {
	awk -v n="$2" -v name="$1" 'BEGIN {
		x = (length(name) * 7919 + n) % 2147483647 + 1
		for (i = 0; i < n; i++) {
			x = (x * 16807) % 2147483647
			printf "%c", 32 + x % 90
		}
	}'
}

populate() {
	mkdir -p "$1/dir/sub/deeper" "$1/many" "$1/Ünïcödé ディレクトリ"
	for size in 0 1 511 512 4095 4096 4097 65543 300000; do
		gen "f$size" "$size" >"$1/dir/file-$size"
	done
	i=0
	while [ $i -lt 400 ]; do
		echo "entry $i" >"$1/many/name-$i.txt"
		i=$((i + 1))
	done
	gen big 2000000 >"$1/dir/sub/deeper/big.bin"
	echo unicode >"$1/Ünïcödé ディレクトリ/😀 émoji.txt"
	ln "$1/dir/file-4096" "$1/dir/sub/hardlink-4096"
	ln -s ../file-512 "$1/dir/sub/rel-link"
	ln -s /absolute/target "$1/dir/abs-link"
	truncate -s 5000000 "$1/dir/sparse"
	printf 'tail' | dd of="$1/dir/sparse" bs=1 seek=4000000 conv=notrunc 2>/dev/null
	"$WALK" setxattr "$1/dir/file-1" user.color blue
	"$WALK" setxattr "$1/many/name-7.txt" user.note "a longer value with spaces"
	mkdir "$1/cut" "$1/emptied"
	dd if=/dev/urandom of="$1/cut/truncated.bin" bs=1M count=4 2>/dev/null
	truncate -s 0 "$1/cut/truncated.bin"
	dd if=/dev/urandom of="$1/cut/redirected.bin" bs=1M count=3 2>/dev/null
	: >"$1/cut/redirected.bin"
	i=0
	while [ $i -lt 200 ]; do
		: >"$1/emptied/a-name-long-enough-to-need-index-blocks-$i.txt"
		i=$((i + 1))
	done
	rm "$1/emptied/"*
}

CUT="cut/truncated.bin cut/redirected.bin"

# record_form RECORD-FILE: from one raw MFT record (update sequence still
# applied), "DATA" and how the unnamed $DATA is stored ("resident SIZE" or
# "non-resident LOWEST-VCN HIGHEST-VCN ALLOCATED SIZE INITIALIZED pairs
# BYTES", the bytes from the mapping pairs offset to the end of the
# attribute in hex), then "ATTRS" and each attribute as TYPE(hex)/r|n.
record_form() {
	od -An -v -tu1 "$1" | awk '
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	function w(o) { return b[o] + 256 * b[o + 1] }
	function d(o) { return w(o) + 65536 * w(o + 2) }
	function q(o,   v, i) { v = 0; for (i = 7; i >= 0; i--) v = v * 256 + b[o + i]; return v }
	function sq(o,   i) { for (i = 0; i < 8; i++) if (b[o + i] != 255) return q(o); return -1 }
	END {
		if (b[0] != 70 || b[1] != 73 || b[2] != 76 || b[3] != 69) { print "not a record"; exit }
		uo = w(4); uc = w(6)
		for (i = 1; i < uc; i++) { b[i * 512 - 2] = b[uo + 2 * i]; b[i * 512 - 1] = b[uo + 2 * i + 1] }
		data = "DATA none"; attrs = "ATTRS"
		for (o = w(20); o + 8 <= n && d(o) != 4294967295 && d(o + 4) > 0; o += d(o + 4)) {
			attrs = attrs sprintf(" %x/%s", d(o), b[o + 8] ? "n" : "r")
			if (d(o) != 128 || b[o + 9])
				continue
			if (!b[o + 8])
				data = "DATA resident " d(o + 16)
			else {
				data = "DATA non-resident " q(o + 16) " " sq(o + 24) " " q(o + 40) " " \
					q(o + 48) " " q(o + 56) " pairs"
				for (i = o + w(o + 32); i < o + d(o + 4); i++)
					data = data sprintf(" %02x", b[i])
			}
		}
		print data "; " attrs
	}'
}

# mft_record PATH: the form of PATH's base record, read from $MFT of the
# showmeta mount on $MNT.
mft_record() {
	ino=$(stat -c %i "$MNT/$1") || return 1
	dd if="$MNT/\$MFT" of=/tmp/intree.rec bs="$RS" skip="$ino" count=1 2>/dev/null || return 1
	record_form /tmp/intree.rec
}

# The MFT record size from the boot sector of $1.
record_size() {
	# shellcheck disable=SC2046
	set -- $(od -An -tu1 -j11 -N3 "$1") $(od -An -td1 -j64 -N1 "$1")
	if [ "$4" -gt 0 ]; then
		echo $((($1 + 256 * $2) * $3 * $4))
	else
		echo $((1 << (0 - $4)))
	fi
}

# left_empty PATH: the in-tree driver left a non-resident $DATA with no
# runs (lowest VCN 0, highest -1, sizes 0; whatever its mapping pairs).
left_empty() {
	_f=$(mft_record "$1")
	echo "#   $1: $_f"
	case $_f in
	"DATA non-resident 0 -1 0 0 0 pairs"*) return 0 ;;
	esac
	return 1
}

ours_empty() {	# PATH: ls -l, stat and read through ours
	_r=0
	_out=$(ls -l "$MNT/$1" 2>&1) || { echo "#   ls -l: $_out"; _r=1; }
	_out=$(stat -c %s "$MNT/$1" 2>&1)
	[ "$_out" = 0 ] || { echo "#   stat size: $_out"; _r=1; }
	_out=$(wc -c <"$MNT/$1" 2>&1)
	[ "$_out" = 0 ] || { echo "#   read: $_out"; _r=1; }
	return $_r
}

ours_lists_empty() {	# DIR
	_out=$(ls -la "$MNT/$1" 2>&1) || { echo "#   ls -la: $_out"; return 1; }
	[ -z "$(ls -A "$MNT/$1")" ] || { echo "#   lists: $(ls -A "$MNT/$1" | head -n 3)"; return 1; }
}

run() {
	NAME=blank
	dev=$(disk_dev) || { echo "# no disk named blank"; return 1; }
	cp "$dev" /tmp/intree.img || return 1
	loop=$(losetup -f) && losetup "$loop" /tmp/intree.img || return 1
	mkdir -p "$MNT"
	use_driver intree
	mount -t ntfs3 -o iocharset=utf8 "$loop" "$MNT" || return 1
	populate "$MNT"
	umount "$MNT"
	mount -t ntfs3 -o ro,iocharset=utf8 "$loop" "$MNT" || return 1
	"$WALK" manifest "$MNT" | sort >/tmp/intree.manifest
	"$WALK" xattrs "$MNT" | sort >/tmp/intree.xattrs
	umount "$MNT"
	RS=$(record_size "$loop")
	if mount -t ntfs3 -o ro,showmeta "$loop" "$MNT"; then
		for f in $CUT; do
			check "the in-tree ntfs3 left $f as a non-resident \$DATA with no runs" \
				left_empty "$f"
		done
		echo "# in-tree: emptied/: $(mft_record emptied)"
		umount "$MNT"
	else
		check "the in-tree ntfs3 mounts with showmeta" false
	fi

	use_driver ours
	check "our ntfs3 mounts the volume the in-tree driver wrote" \
		mount -t ntfs3 -o ro "$loop" "$MNT"
	"$WALK" manifest "$MNT" | sort >/tmp/ours.manifest
	"$WALK" xattrs "$MNT" | sort >/tmp/ours.xattrs
	for f in $CUT; do
		check "ours: $f (cut to zero by the in-tree ntfs3): ls -l, stat size 0, reads empty" \
			ours_empty "$f"
	done
	check "ours: emptied/ (every entry removed by the in-tree ntfs3) lists empty" \
		ours_lists_empty emptied
	umount "$MNT"
	check "$(wc -l </tmp/intree.manifest) objects: listing, sizes, hashes, links as written" \
		cmp -s /tmp/intree.manifest /tmp/ours.manifest
	diff /tmp/intree.manifest /tmp/ours.manifest | grep '^[-+][^-+]' | head | sed 's/^/#   /'
	check "$(wc -l </tmp/intree.xattrs) user.* xattrs as written" \
		cmp -s /tmp/intree.xattrs /tmp/ours.xattrs
	diff /tmp/intree.xattrs /tmp/ours.xattrs | grep '^[-+][^-+]' | head | sed 's/^/#   /'
	losetup -d "$loop"
	rm -f /tmp/intree.img
}

run || check "setting up the in-tree-written volume" false
rmmod ntfs3 2>/dev/null
insmod /lib/modules/ours/ntfs3.ko
tap_done
