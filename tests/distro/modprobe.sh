#!/bin/sh
# Debian's own kernel (make check-distro): our ntfs3, installed by DKMS
# under updates/dkms next to the stock kernel/fs/ntfs3/ntfs3.ko, is the one
# modprobe loads; nothing loaded the stock one before; it mounts a volume.
# /hx/distro-env (from scripts/distro/check-distro.sh) says which version to expect.
. /tests/include/tap.sh
. /hx/env
. /hx/distro-env
kver=$(uname -r)
MNT=/mnt/distro

not_loaded() {
	! grep -q '^ntfs3 ' /proc/modules
}

both_installed() {
	[ -f "/lib/modules/$kver/updates/dkms/ntfs3.ko" ] &&
		[ -f "/lib/modules/$kver/kernel/fs/ntfs3/ntfs3.ko" ]
}

modinfo_ours() {
	f=$(modinfo -F filename ntfs3 2>/dev/null)
	echo "# modinfo ntfs3: $f"
	case "$f" in */updates/dkms/ntfs3.ko) return 0 ;; esac
	return 1
}

version_ours() {
	v=$(cat /sys/module/ntfs3/version 2>/dev/null)
	echo "# /sys/module/ntfs3/version: '$v', expected '$HX_NTFS3_VERSION'"
	[ "$v" = "$HX_NTFS3_VERSION" ]
}

srcversion_ours() {
	s=$(cat /sys/module/ntfs3/srcversion 2>/dev/null)
	[ -n "$s" ] && [ "$s" = "$(modinfo -F srcversion "/lib/modules/$kver/updates/dkms/ntfs3.ko")" ]
}

# The first test image (HX_DISK_NAMES order: /dev/vda), read-only.
mount_one() {
	mkdir -p "$MNT"
	mount -t ntfs3 -o ro /dev/vda "$MNT" || return 1
	n=$(ls -A "$MNT" | wc -l)
	umount "$MNT"
	echo "# /dev/vda ($(echo $HX_DISK_NAMES | cut -d' ' -f1)): $n entries at the root"
	[ "$n" -gt 0 ]
}

check "kernel $kver is Debian's ($HX_DISTRO_KVER)" test "$kver" = "$HX_DISTRO_KVER"
check "no ntfs3 loaded before the test" not_loaded
check "ours (updates/dkms) and the stock ntfs3 both installed" both_installed
check "modinfo ntfs3 names updates/dkms/ntfs3.ko" modinfo_ours
check "modprobe ntfs3" modprobe ntfs3
check "the loaded ntfs3 is version $HX_NTFS3_VERSION" version_ours
check "its srcversion is the DKMS-built module's" srcversion_ours
check "mount -t ntfs3 -o ro a test image" mount_one
check "rmmod ntfs3" rmmod ntfs3
tap_done
