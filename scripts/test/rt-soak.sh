#!/bin/sh
# rt-soak.sh: every locktorture type of tests/rt/locktorture.sh for
# RT_SOAK_SECONDS (default 600) each, in one boot of VARIANT (default rt):
# make rt-soak.  The boot is judged like a make check boot
# (scripts/vm/harness.sh: SUCCESS per type, no "!!!", a clean console).  About
# 2 hours with the default types.
#   RT_SOAK_TYPES   locktorture types ("type:param=v,param=v" adds module
#                   parameters); default: those of make check but lock_busted
set -eu
. "$(dirname "$0")/../lib.sh"
. "$S/vm/harness.sh"
V=${VARIANT:-rt}
secs=${RT_SOAK_SECONDS:-600}
types=${RT_SOAK_TYPES:-"spin_lock spin_lock_irq rw_lock rw_lock_irq mutex_lock ww_mutex_lock rtmutex_lock rwsem_lock percpu_rwsem_lock mutex_lock:nested_locks=8 rtmutex_lock:nested_locks=8"}
n=$(echo "$types" | wc -w)
TALLY=$LOGS/rt-soak.tally

prepare_boots "$V"
ov=$BUILD/rt-soak/overlay
rm -rf "$ov"
mkdir -p "$ov/hx" "$ov/tests/rt-soak"
printf "LT_SECONDS='%s'\nLT_TYPES='%s'\n" "$secs" "$types" >"$ov/hx/lt-env"
install -m 755 "$TOP/tests/rt/locktorture.sh" "$ov/tests/rt-soak/locktorture"
say SOAK "$V: $n locktorture types x $secs s"
: >"$TALLY"
status=0
EXTRA_OVERLAY=$ov TIMEOUT=$((n * (secs + 60) + 600)) TEST_TIMEOUT=$((n * (secs + 60) + 300)) \
	boot_judge "rt-soak-$V" "$V" rt-soak || status=1
tally_summary
exit $status
