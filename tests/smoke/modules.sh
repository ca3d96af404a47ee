#!/bin/sh
# Our ntfs3 module and the in-tree reference load, register the fs type and
# unload; ours refuses a device without NTFS on it with a clear message.
. /tests/include/tap.sh

has_fs() {
	grep -qw ntfs3 /proc/filesystems
}

no_fs() {
	! has_fs
}

mount_refused() {
	truncate -s 16M /tmp/blank.img
	dev=$(losetup -f) && losetup "$dev" /tmp/blank.img || return 1
	mkdir -p /mnt/t
	dmesg -c >/dev/null
	! mount -t ntfs3 "$dev" /mnt/t 2>/tmp/mount.err
	rc=$?
	losetup -d "$dev"
	[ $rc = 0 ] && dmesg | grep -q "ntfs3 (.*): no valid NTFS boot sector"
}

check "insmod our ntfs3.ko" insmod /lib/modules/ours/ntfs3.ko
check "ntfs3 listed in /proc/filesystems" has_fs
check "our ntfs3 refuses a blank device, saying why" mount_refused
check "rmmod our ntfs3" rmmod ntfs3
check "ntfs3 gone from /proc/filesystems" no_fs
check "insmod the in-tree ntfs3.ko" insmod /lib/modules/intree/ntfs3.ko
check "in-tree ntfs3 registered" has_fs
check "rmmod the in-tree ntfs3" rmmod ntfs3
tap_done
