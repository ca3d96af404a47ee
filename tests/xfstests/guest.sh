#!/bin/sh
# The guest half of scripts/test/xfstests.sh, run by the initramfs's /init
# (busybox, MODE=cmd) from /xfstests, where the host put this file, env,
# local.config, exclude, fsck.ntfs3 and the test selection.
# Disks: vda the root filesystem as a cpio archive, vdb test, vdc scratch,
# vdd the results (a tar archive, read by the host after the run).
# The root filesystem (Debian bookworm with fstests built in it) is unpacked
# into a tmpfs, and fstests runs in a chroot there: our kernels have no
# disk filesystem to boot Debian from, and the modules stay loaded from the
# initramfs, so "mount -t ntfs3" in the chroot uses the one loaded here.
set -u
X=/xfstests
R=/xr
# shellcheck disable=SC1091 # written by scripts/test/xfstests.sh
. $X/env	# DRIVER, SELECTION, MOUNT_OPTS

fail() {
	echo "xfstests: error: $*"
	exit 2
}

mkdir -p $R
mount -t tmpfs -o size=85% tmpfs $R || fail "cannot mount a tmpfs for the root filesystem"
echo "xfstests: unpacking the root filesystem ($(($(cat /sys/block/vda/size) / 2048)) MiB)"
(cd $R && cpio -i -d -m </dev/vda 2>/dev/null)
[ -x $R/var/lib/xfstests/check ] || fail "the root filesystem on vda has no /var/lib/xfstests/check"

# The driver: /init loaded ours (/lib/modules/ours); the in-tree one
# replaces it.  /proc/modules shows the module's size, which differs
# between the two, as proof of which one is in.
case "$DRIVER" in
intree)
	rmmod ntfs3 2>/dev/null
	insmod /lib/modules/intree/ntfs3.ko || fail "insmod of the in-tree ntfs3.ko failed"
	;;
ours)
	grep -q '^ntfs3 ' /proc/modules || insmod /lib/modules/ours/ntfs3.ko ||
		fail "insmod of our ntfs3.ko failed"
	;;
*) fail "unknown DRIVER '$DRIVER'" ;;
esac
for d in ours intree; do
	echo "xfstests: $d ntfs3.ko: $(wc -c </lib/modules/$d/ntfs3.ko) bytes"
done
echo "xfstests: driver $DRIVER loaded: $(grep '^ntfs3 ' /proc/modules)"

mount -t proc proc $R/proc
mount -t sysfs sysfs $R/sys
mount -t devtmpfs devtmpfs $R/dev
# devtmpfs has no /dev/fd links (udev makes them); bash's <(...) needs them
ln -sf /proc/self/fd $R/dev/fd
ln -sf /proc/self/fd/0 $R/dev/stdin
ln -sf /proc/self/fd/1 $R/dev/stdout
ln -sf /proc/self/fd/2 $R/dev/stderr
mkdir -p $R/dev/shm $R/dev/pts $R/mnt/test $R/mnt/scratch
mount -t tmpfs tmpfs $R/dev/shm
mount -t devpts devpts $R/dev/pts
mount -t tmpfs tmpfs $R/tmp
mount -t debugfs debugfs $R/sys/kernel/debug 2>/dev/null
ln -sf ../proc/self/mounts $R/etc/mtab
cp /etc/resolv.conf $R/etc/ 2>/dev/null
cp $X/fsck.ntfs3 $R/usr/sbin/fsck.ntfs3 && chmod 755 $R/usr/sbin/fsck.ntfs3
F=$R/var/lib/xfstests
cp $X/local.config $X/exclude $X/selection $F/
if [ -n "${MOUNT_OPTS:-}" ]; then
	echo "export MOUNT_OPTIONS='-o $MOUNT_OPTS'" >>$F/local.config
	echo "export TEST_FS_MOUNT_OPTS='-o $MOUNT_OPTS'" >>$F/local.config
fi
mkdir -p $F/results

# Results leave the VM as a tar archive on vdd: a snapshot every 2 minutes,
# so a run cut off by the host's timeout still reports what it finished.
# check writes the xunit report (result.xml) at its end only; until then
# its per-test entries collect in $TMPDIR/PID.report.xunit.SECTION.xml.
snapshot() {
	for f in "$R"/tmp/*.report.xunit.*.xml; do
		[ -f "$f" ] && cp "$f" $F/results/partial.xunit.xml
	done
	tar -c -f /dev/vdd -C $F results 2>/dev/null
	sync
}
(while sleep 120; do snapshot; done) &
snap=$!

echo "xfstests: fstests $(cat $F/.hx-fstests-commit), FSTYP=ntfs3, driver $DRIVER, $SELECTION"
# shellcheck disable=SC2016
chroot $R /bin/bash -c '
	cd /var/lib/xfstests || exit 2
	. ./local.config
	# selection: "-g GROUP" or test names, one line
	read -r sel <selection
	# shellcheck disable=SC2086
	./check -R xunit-quiet -E exclude $sel 2>&1 | tee results/check.out
	exit "${PIPESTATUS[0]}"'
rc=$?
echo "xfstests: check exited with status $rc"
kill $snap 2>/dev/null
wait $snap 2>/dev/null
umount $R/mnt/test $R/mnt/scratch 2>/dev/null
snapshot
exit $rc
