#!/bin/sh
# check-write.sh: the write tests alone (make check-write): one boot of
# BOOT (default debug:ntfs-write) running tests/ntfs-write with the driver
# DRIVER (ours or intree, default ours), then the host-side check of the
# volumes it wrote (scripts/test/ntfs-write-verify.sh verify: ntfs-3g and
# fsck.ntfs3), judged like make check.  Ends with "N passed, N failed,
# N skipped"; exits 1 when anything failed.  make stress-ntfs runs it
# with NTFS_WRITE_ONLY=stress (WRITE_BOOT_NAME names its logs).  docs/test/ntfs-write.md.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$S/vm/harness.sh"
BOOT=${BOOT:-debug:ntfs-write}
export NTFS_WRITE_DRIVER=${NTFS_WRITE_DRIVER:-${DRIVER:-ours}}
TALLY=$LOGS/tally-write
start=$(date +%s)
prepare_boots "$BOOT"
[ -x "$BUILD/tools/fsck.ntfs3" ] || make -s -C "$TOP/tools" O="$BUILD/tools"
: >"$TALLY"
status=0
say WRITE "driver under test: $NTFS_WRITE_DRIVER"
boot_spec "$BOOT" "${WRITE_BOOT_NAME:-write}-$NTFS_WRITE_DRIVER-$(spec_variant "$BOOT")" || status=1
say TIME "$(($(date +%s) - start)) s"
tally_summary
exit $status
