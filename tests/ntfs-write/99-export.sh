#!/bin/sh
# export: what the workloads left in /tmp/ntfs-write-out (expected trees,
# listings, facts) goes as a tar archive onto disk "write-out", where
# scripts/test/ntfs-write-verify.sh finds it after the boot to check the
# written volumes on the host with ntfs-3g and fsck.ntfs3.
. /tests/include/ntfs-write.sh
dev=$(disk_dev write-out)
check "disk write-out is attached (a block device: $dev)" test -b "$dev"
if [ -b "$dev" ]; then
	echo "# $(ls "$OUT" | wc -l) files: $(ls "$OUT" | tr '\n' ' ' | cut -c1-300)"
	check "the expected trees are written to write-out (tar)" \
		sh -c "tar -cf /tmp/ntfs-write-out.tar -C '$OUT' . && dd if=/tmp/ntfs-write-out.tar of='$dev' bs=64k conv=fsync 2>/dev/null"
	sync
fi
write_done
