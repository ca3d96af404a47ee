#!/bin/sh
# quota: a volume whose quotas Windows tracks ($Extend\$Quota:$Q's
# defaults entry, owner id 1, has the tracking flag: quota_volume in
# scripts/test/ntfs-write-verify.sh turns it on in a blank mkntfs volume).
# Ours charges no owner, so its first change of a mount marks the
# defaults entry out of date (0x200), which makes Windows rebuild the
# charges.  The workload writes, renames and removes files over a
# remount (a second mount that changes the volume finds the flag set and
# leaves it).  The host then checks (ntfs-quota.py check) that the flag
# is set and every other byte of every $Q entry is as it was, on this
# volume, and that the volumes of the other workloads (tracking off)
# keep $Q exactly as it was.  Then disk write-quota-bad (the same volume,
# its defaults entry of version 3, made by the host's prepare): ours
# mounts it read-write, writes and removes, unmounts, says exactly one
# line about $Quota, and reads the file back after a new mount.  Frame:
# tests/include/ntfs-write.sh.
#
# volume quota quota - -
. /tests/include/ntfs-write.sh

workload() {
	d=$1
	x OK "mkdir q" mkdir "$d/q"
	i=0
	while [ $i -lt 20 ]; do
		x OK "q/f$i, $((i * 1000 + 1)) bytes" pwrite "$d/q/f$i" 0 $((i * 1000 + 1)) $((900 + i))
		i=$((i + 1))
	done
	remount
	x OK "append to q/f3" append "$d/q/f3" 70000 930
	x OK "rename q/f4 to f4-renamed" rename "$d/q/f4" "$d/f4-renamed"
	x OK "unlink q/f5" unlink "$d/q/f5"
	x OK "truncate q/f6 to 10" truncate "$d/q/f6" 10
}

run_workload quota

# malformed_quota: the volume whose $Q cannot be used still takes changes.
malformed_quota() {
	bad=$(disk_dev write-quota-bad) || {
		check "disk write-quota-bad is attached" false
		return
	}
	use_driver ours
	dmesg -c >/dev/null
	check "ours mounts the volume with a malformed \$Quota read-write" \
		mount -t ntfs3 -o "$OPTS" "$bad" "$MNT"
	check "a file written on it" test "$("$FSOPS" pwrite "$MNT/f" 0 5000 77)" = OK
	check "a directory made and removed on it" sh -c "mkdir '$MNT/d' && rmdir '$MNT/d'"
	check "it unmounts" umount "$MNT"
	n=$(dmesg | grep -c 'Quota')
	check "exactly one message about \$Quota (got $n)" test "$n" = 1
	dmesg | grep 'ntfs3' | sed 's/^/#   /'
	"$FSOPS" pwrite /tmp/quota-ref 0 5000 77 >/dev/null
	check "mounted again, the file reads back" sh -c \
		"mount -t ntfs3 -o ro,$OPTS $bad $MNT && cmp $MNT/f /tmp/quota-ref"
	umount "$MNT" 2>/dev/null
}
if [ "$DRIVER" = ours ] && selected quota >/dev/null; then
	malformed_quota
fi
write_done
