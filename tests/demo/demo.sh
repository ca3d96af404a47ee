#!/bin/sh
# The scripted demo of "make run" without a terminal: one short section per
# feature.  Disks: /dev/vda demo.img, /dev/vdb forensics.img (MBR, vdb1).
section() {
	echo
	echo "=== $* ==="
}

section "kernel"
uname -a
grep -q PREEMPT_RT /proc/version && echo "PREEMPT_RT kernel" || echo "non-RT kernel"

section "futex_waitv"
/tests/smoke/futex_syscalls

section "ntfs3 (ours)"
grep -w ntfs3 /proc/filesystems
mkdir -p /mnt/ours /mnt/ref
if mount -t ntfs3 -o ro /dev/vda /mnt/ours; then
	ls -la /mnt/ours
	umount /mnt/ours
else
	echo "our driver refused the mount:"
	dmesg | grep 'ntfs3:' | tail -n 1
fi

section "in-tree ntfs3 on the same disks, for comparison"
rmmod ntfs3
insmod /lib/modules/intree/ntfs3.ko
mount -t ntfs3 -o ro,iocharset=utf8 /dev/vda /mnt/ref && {
	ls -laR /mnt/ref | head -n 30
	sha256sum /mnt/ref/hello.txt
	umount /mnt/ref
}
mount -t ntfs3 -o ro,iocharset=utf8 /dev/vdb1 /mnt/ref && {
	ls -la /mnt/ref | head -n 25
	umount /mnt/ref
}
rmmod ntfs3
exit 0
