#!/bin/sh
# rt-boots.sh: boot the rt kernel RT_BOOTS times (default 10) and run the
# whole tests/rt suite in each boot (lockdep's boot self-tests, every
# locktorture type for RT_BOOTS_LT_SECONDS each, default 3, test-ww_mutex,
# hx_rtlocks, rt-tests): make rt-boots.  Some failures of the RT lock
# layer show only on some boots (the stock tree's lockdep report on the
# ww_mutex wait_lock did), so one make check boot proves little.  Each
# boot is judged like a make check boot (its tests, and a console without
# WARN, BUG, oops or lockdep report); its logs stay in
# build/logs/boot-rt-boot-N/.  Ends with the count of clean boots.
#   RT_BOOTS_VARIANT   kernel variant (default rt; stock-rt for comparison)
set -eu
. "$(dirname "$0")/lib.sh"
S=$TOP/scripts
V=${RT_BOOTS_VARIANT:-rt}
n=${RT_BOOTS:-10}
secs=${RT_BOOTS_LT_SECONDS:-3}

"$S/prepare.sh" "$V"
ov=$BUILD/rt-boots/overlay
rm -rf "$ov"
mkdir -p "$ov/hx"
printf "LT_SECONDS='%s'\n" "$secs" >"$ov/hx/lt-env"
tally=$LOGS/rt-boots.tally
: >"$tally"
clean=0
start=$(date +%s)
i=0
while [ $i -lt "$n" ]; do
	i=$((i + 1))
	say BOOT "$V: boot $i of $n (locktorture $secs s per type)"
	set +e
	MODE=check SUITES="smoke rt" NAME=rt-boot-$i EXTRA_OVERLAY=$ov \
		TIMEOUT=1200 TEST_TIMEOUT=900 "$S/vm.sh" "$V"
	rc=$?
	"$S/results.py" --name "vm-$V-boot-$i" --results "$LOGS/boot-rt-boot-$i/results.log" \
		--console "$LOGS/boot-rt-boot-$i/console.log" --vm-status $rc --expect-done \
		--tally "$tally"
	ok=$?
	set -e
	[ $ok != 0 ] || clean=$((clean + 1))
done
say TIME "$(($(date +%s) - start)) s: $clean of $n boots clean"
awk '{ p += $2; f += $3; s += $4 } END { printf "%d passed, %d failed, %d skipped\n", p, f, s }' "$tally"
[ "$clean" = "$n" ]
