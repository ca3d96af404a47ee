#!/bin/sh
# feat-volumes: volumes in special states (scripts/images/make-ntfs-special.sh)
# mounted with our ntfs3:
#
#   bootbak   sector 0 zeroed: mounts from the backup boot sector, a kernel
#             message says so, statfs and contents as before
#   noboot    both boot sectors zeroed: mount refused, a message names the
#             boot sector
#   dirty     VOLUME_INFORMATION flag 0x0001: a read-write mount request
#             (on a writable loop copy) gives a read-only mount, with
#             exactly one kernel message containing "dirty"; contents read
#   hiber     hiberfil.sys starting with "hibr": the same, one message
#             about hibernation
#   logfile   $LogFile restart area with a client in use, not clean: the
#             same, one message naming $LogFile (or the journal)
#   v12       $Volume version 1.2: the same, one message naming 1.2
#   mirr      $MFTMirr differs from $MFT: mounts, a warning names $MFTMirr
#   upcase    $UpCase zeroed: mounts, a warning names $UpCase, every name of
#             a 600-name directory is found (an upcase table that really
#             folds case: "_" sorts between upper and lower case), also
#             case-insensitively with nocase
#   4k        4096-byte sectors on a disk with 4096-byte logical blocks
#   opts      a healthy volume: none of these messages, not read-only for
#             any reason given
#
# Each state is also mounted with the in-tree ntfs3; what it does is shown
# as "# in-tree:" diagnostics, not judged.
. /tests/include/tap.sh
. /tests/include/ntfs-special.sh
MNT=/mnt/feat-vol
COPY=/tmp/feat-vol.img
mkdir -p "$MNT"
LOOP=

cleanup() {
	umount "$MNT" 2>/dev/null
	[ -z "$LOOP" ] || losetup -d "$LOOP" 2>/dev/null
	LOOP=
	rm -f "$COPY"
}

# writable VOLUME: a loop device over a copy of the volume in /tmp, so that
# a read-write mount can be asked for (the disks are attached read-only).
writable() {
	cleanup
	dd if="$(vol_dev "$1")" of="$COPY" bs=1M 2>/dev/null || return 1
	LOOP=$(losetup -f) && losetup "$LOOP" "$COPY" && echo "$LOOP"
}

# try_mount DEV OPTIONS: mount, keeping the kernel messages in $KMSG and
# mount's complaint in $MERR.
try_mount() {
	umount "$MNT" 2>/dev/null
	kmsg_mark
	mount -t ntfs3 ${2:+-o "$2"} "$1" "$MNT" 2>/tmp/feat-mount.err
	_rc=$?
	KMSG=$(kmsg_since)
	MERR=$(cat /tmp/feat-mount.err)
	return $_rc
}

show_kmsg() {
	echo "$KMSG" | grep -v '^$' | head -n "${1:-4}" | sed 's/^/#     kmsg: /'
}

is_ro() {
	_o=$(awk -v m="$MNT" '$2 == m { print $4 }' /proc/mounts)
	case ",$_o," in *,ro,*) return 0 ;; esac
	echo "#   /proc/mounts: ${_o:-not mounted}"
	return 1
}

# msgs REGEX COUNT: exactly COUNT kernel lines since the mount match REGEX
# (case-insensitive); "+" as COUNT: at least one.
msgs() {
	_n=$(echo "$KMSG" | grep -ciE -- "$1")
	if [ "$2" = + ] && [ "$_n" -ge 1 ] || [ "$_n" = "$2" ]; then
		return 0
	fi
	echo "#   $_n kernel lines match /$1/, want $2:"
	show_kmsg 6
	return 1
}

reads() {	# reads VOLUME PATH
	same "sha256 of $2" "$(sha256sum <"$MNT/$2" 2>&1 | cut -d' ' -f1)" "$(meta_sha "$1" "$2")"
}

mounts() {	# for check: the last try_mount succeeded
	[ "$MOUNTED" = 1 ] && return 0
	echo "#   mount: $MERR"
	show_kmsg
	return 1
}

statfs_is() {	# statfs_is VOLUME: blocks and free as ntfsinfo -m
	set -- $(meta "$1" geometry)
	_got=$(stat -f -c '%S %b %f' "$MNT")
	same "statfs bytes: block size x blocks, x free" \
		"$(echo "$_got" | awk '{ print $1 * $2, $1 * $3 }')" "$(($1 * $2)) $(($1 * $3))"
}

mount_ok() {	# mount_ok DEV OPTIONS: try_mount, MOUNTED=1|0
	MOUNTED=0
	try_mount "$@" && MOUNTED=1
}

# readonly_state VOLUME REGEX WHAT
readonly_state() {
	if ! dev=$(writable "$1"); then
		check "$1: a writable copy on a loop device" false
		return
	fi
	mount_ok "$dev" ""
	check "$1 ($3): a read-write mount request succeeds" mounts
	check "$1: the mount is read-only" is_ro
	check "$1: exactly one kernel message matches /$2/" msgs "$2" 1
	check "$1: hello.txt reads" reads "$1" hello.txt
	check "$1: Dir/inner.txt reads" reads "$1" Dir/inner.txt
	cleanup
}

warned_state() {	# warned_state VOLUME REGEX WHAT
	mount_ok "$(vol_dev "$1")" ro
	check "$1 ($3): mounts" mounts
	check "$1: a kernel message matches /$2/" msgs "$2" +
	check "$1: hello.txt reads" reads "$1" hello.txt
}

# in_tree VOLUME OPTIONS [writable]: what the in-tree ntfs3 does.
in_tree() {
	if [ "${3:-}" = writable ]; then
		dev=$(writable "$1") || return
	else
		dev=$(vol_dev "$1")
	fi
	if try_mount "$dev" "$2"; then
		echo "# in-tree: $1: mounted ($(awk -v m="$MNT" '$2 == m { print $4 }' /proc/mounts)), hello.txt $(reads "$1" hello.txt >/dev/null && echo reads || echo differs), $(find "$MNT" | wc -l) objects"
	else
		echo "# in-tree: $1: mount failed: $MERR"
	fi
	show_kmsg 3
	cleanup
}

if ! vol_dev opts >/dev/null; then
	check "the special disk is attached (check.sh ntfs_disks)" false
	tap_done
	exit
fi
use_driver ours

# healthy
if dev=$(writable opts); then
	mount_ok "$dev" ""
	check "opts (healthy): a read-write mount request succeeds" mounts
	check "opts: no message about dirty, hibernation, \$LogFile, backup boot sector, \$MFTMirr, \$UpCase" \
		msgs 'dirty|hibernat|logfile|backup|mftmirr|upcase' 0
	cleanup
fi

# boot sectors
mount_ok "$(vol_dev bootbak)" ro
check "bootbak (sector 0 zeroed): mounts from the backup boot sector" mounts
check "bootbak: a kernel message says the backup boot sector is used" msgs backup +
check "bootbak: statfs as ntfsinfo -m" statfs_is bootbak
check "bootbak: hello.txt reads" reads bootbak hello.txt
umount "$MNT" 2>/dev/null
try_mount "$(vol_dev noboot)" ro
rc=$?
check "noboot (both boot sectors zeroed): mount refused" [ "$rc" != 0 ]
check "noboot: a kernel message names the boot sector" msgs 'boot sector' +
umount "$MNT" 2>/dev/null

# states that make a volume read-only
readonly_state dirty 'dirty' "VOLUME_IS_DIRTY"
readonly_state hiber 'hibernat' "hiberfil.sys with hibr"
readonly_state logfile 'logfile|journal' "unclean \$LogFile"
readonly_state v12 '1\.2' "NTFS 1.2"

# states that only warn
warned_state mirr 'mftmirr' "\$MFTMirr differs"
warned_state upcase 'upcase' "\$UpCase zeroed"
meta upcase file | cut -f1 | LC_ALL=C sort >/tmp/feat.names
n=$(wc -l </tmp/feat.names)
found=$(cd "$MNT" && tr '\n' '\0' </tmp/feat.names | xargs -0 stat -c %n 2>/dev/null | wc -l)
check "upcase: all $n names found by lookup (got $found)" [ "$found" = "$n" ]
for f in "$MNT"/names/*; do
	[ -e "$f" ] || [ "${f##*/}" != '*' ] || continue
	echo "${f##*/}"
done | LC_ALL=C sort >/tmp/feat.got
sed -n 's|^names/||p' /tmp/feat.names | LC_ALL=C sort >/tmp/feat.want
check "upcase: names/ lists its $(wc -l </tmp/feat.want) names" cmp -s /tmp/feat.want /tmp/feat.got
mount_ok "$(vol_dev upcase)" ro,nocase
found=$(cd "$MNT" && stat -c %n NAMES/F150.TXT names/mixed150.txt NAMES/_U150 hello.TXT 2>/dev/null | wc -l)
check "upcase, nocase: NAMES/F150.TXT, names/mixed150.txt, NAMES/_U150, hello.TXT found (got $found of 4)" \
	[ "$found" = 4 ]
umount "$MNT" 2>/dev/null

# 4096-byte sectors
if d4=$(vol_dev 4k); then
	lbs=$(cat "/sys/block/${d4#/dev/}/queue/logical_block_size")
	check "4k: the disk has 4096-byte logical blocks (got $lbs)" [ "$lbs" = 4096 ]
	mount_ok "$d4" ro
	check "4k (4096-byte sectors): mounts" mounts
	check "4k: hello.txt reads" reads 4k hello.txt
	check "4k: data.bin reads" reads 4k data.bin
	check "4k: statfs as ntfsinfo -m" statfs_is 4k
	umount "$MNT" 2>/dev/null
else
	check "4k: the disk special-4k is attached" false
fi

echo "# the in-tree ntfs3 on the same volumes (reference, not judged):"
use_driver intree
for v in bootbak noboot mirr upcase 4k; do
	in_tree "$v" ro
done
for v in dirty hiber logfile v12; do
	in_tree "$v" "" writable
done
cleanup
use_driver ours
tap_done
