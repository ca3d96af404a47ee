#!/bin/sh
# rt-boots.sh: boot the rt kernel RT_BOOTS times (default 10) and run the
# whole tests/rt suite in each boot (lockdep's boot self-tests, every
# locktorture type for RT_BOOTS_LT_SECONDS each, default 3, test-ww_mutex,
# hx_rtlocks, rt-tests): make rt-boots.  Some failures of the RT lock
# layer show only on some boots (the stock tree's lockdep report on the
# ww_mutex wait_lock did), so one make check boot proves little.  Each
# boot is judged like a make check boot (scripts/vm/harness.sh); its logs
# stay in build/logs/boot-rt-boot-N/.  Ends with the count of clean boots.
#   VARIANT   kernel variant (default rt; stock-rt for comparison)
set -eu
. "$(dirname "$0")/../lib.sh"
. "$S/vm/harness.sh"
V=${VARIANT:-rt}
n=${RT_BOOTS:-10}
secs=${RT_BOOTS_LT_SECONDS:-3}
TALLY=$LOGS/rt-boots.tally

prepare_boots "$V"
ov=$BUILD/rt-boots/overlay
rm -rf "$ov"
mkdir -p "$ov/hx"
printf "LT_SECONDS='%s'\n" "$secs" >"$ov/hx/lt-env"
: >"$TALLY"
clean=0
start=$(date +%s)
i=0
while [ $i -lt "$n" ]; do
	i=$((i + 1))
	say BOOT "$V: boot $i of $n (locktorture $secs s per type)"
	if EXTRA_OVERLAY=$ov TIMEOUT=1200 boot_judge "rt-boot-$i" "$V" "smoke rt"; then
		clean=$((clean + 1))
	fi
done
say TIME "$(($(date +%s) - start)) s: $clean of $n boots clean"
tally_summary
[ "$clean" = "$n" ]
