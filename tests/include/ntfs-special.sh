# Helpers for the ntfs3 feature tests (tests/ntfs-read/feat-*.sh).  Sourced.
# The special volumes (scripts/images/make-ntfs-special.sh) are partitions of the
# disk named "special" (GPT partition name = volume name) and the disk
# "special-4k"; what they hold is in /ntfs-images/special.meta.
# shellcheck shell=sh
. /hx/env
SPECIAL_META=/ntfs-images/special.meta
. /tests/include/disks.sh

# vol_dev VOLUME: the block device of a special volume.
vol_dev() {
	if [ "$1" = 4k ]; then
		disk_dev special-4k
		return
	fi
	_d=$(disk_dev special) || return 1
	for _u in /sys/class/block/"${_d#/dev/}"*/uevent; do
		if grep -qx "PARTNAME=$1" "$_u" 2>/dev/null; then
			echo "/dev/$(sed -n 's/^DEVNAME=//p' "$_u")"
			return 0
		fi
	done
	return 1
}

# meta VOLUME KEY: the fields of the matching special.meta lines.
meta() {
	awk -F '\t' -v v="$1" -v k="$2" 'BEGIN { OFS = "\t" }
		$1 == v && $2 == k { $1 = $2 = ""; sub(/^\t\t/, ""); print }' "$SPECIAL_META"
}

# meta_sha VOLUME PATH: the SHA-256 the host read for PATH.
meta_sha() {
	awk -F '\t' -v v="$1" -v p="$2" '$1 == v && $2 == "file" && $3 == p { print $5 }' "$SPECIAL_META"
}

use_driver() {	# ours | intree
	rmmod ntfs3 2>/dev/null
	insmod "/lib/modules/$1/ntfs3.ko"
}

# Kernel messages: mark, act, then kmsg_since prints what came after.
_mark=0
kmsg_mark() {
	_mark=$((_mark + 1))
	echo "<7>hx-mark $$-$_mark" >/dev/kmsg
}
kmsg_since() {
	dmesg | sed -n "/hx-mark $$-$_mark\$/,\$p" | sed 1d
}

# same WHAT GOT WANT: compare two strings, show both when they differ.
same() {
	[ "$2" = "$3" ] && return 0
	echo "#   $1: got '$2', want '$3'"
	return 1
}
