#!/bin/sh
# The corruption fuzzer: mutation cases of scripts/images/ntfs-fuzz-gen.py (in
# /ntfs-fuzz/cases, with the base images /ntfs-fuzz/*.img; scripts/test/check.sh
# puts them into the boot's overlay) applied one at a time to copies of the
# base images in /tmp, each mounted read-only with our ntfs3 and walked by
# /tests/tools/ntfs-mutate (one TAP line per case; a case fails only when it
# hangs, kills the walker, makes the walk fail (a listing without end, a
# file handle opening another inode) or cannot be unmounted; a hang puts
# sysrq's task states, stacks and CPU backtraces on the console).  Oopses,
# KASAN, UBSAN, lockdep, lockup and hung-task reports are judged on the
# console by the host.
. /hx/env
DIR=/ntfs-fuzz
[ ! -f "$DIR/env" ] || . "$DIR/env"
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-60}
# No case starts when the rest of this test's time limit could not hold it
# (a hang takes FUZZ_TIMEOUT, the sysrq dump and up to 20 s for the kill).
FUZZ_DEADLINE=$((${HX_TEST_TIMEOUT:-600} - FUZZ_TIMEOUT - 90))
export FUZZ_TIMEOUT FUZZ_DEADLINE
[ -z "${FUZZ_WALK:-}" ] || export FUZZ_WALK
export FUZZ_WRITE=${FUZZ_WRITE:-1}
if [ ! -s "$DIR/cases" ]; then
	echo "1..0 # SKIP no fuzz cases in this boot (scripts/test/check.sh puts them into the overlay)"
	exit 0
fi
rmmod ntfs3 2>/dev/null
insmod /lib/modules/ours/ntfs3.ko || { echo "not ok 1 - insmod our ntfs3"; echo "1..1"; exit 1; }
mkdir -p /tmp/fuzz
cp "$DIR"/*.img /tmp/fuzz/ || exit 1
echo "# $(head -n 1 "$DIR/cases" | sed 's/^# //')"
echo "# $(grep -c -v '^#' "$DIR/cases") cases, up to $FUZZ_TIMEOUT s each, none started after $FUZZ_DEADLINE s"
/tests/tools/ntfs-mutate run /tmp/fuzz "$DIR/cases" /mnt/fuzz "$DIR"
rc=$?
rm -rf /tmp/fuzz
exit $rc
