#!/bin/sh
# bench-rt.sh: the RT locking benchmark (make bench-rt; also run by make
# bench).  One boot each of our non-debug RT kernel and the stock one
# (pristine tree, same config: configs/rt-bench.config) runs bench/rt/rt.sh:
# locktorture acquisitions per second per lock type and hackbench times.
# Prints the ours/stock table (scripts/bench-table.py) and, per kernel, the
# RT spin_lock / raw_spin_lock ratio.  docs/bench/rt.md explains it.
# Settings (environment):
#   BENCH_RT_OURS, BENCH_RT_STOCK  variants (rt-nodebug, stock-rt-nodebug)
#   BR_SECONDS   seconds per lock type (30); BR_WRITERS writers (4)
#   BR_TYPES     lock types; BR_HACKBENCH hackbench options ("-g 4 -l 100")
#   BR_LT_PARAMS extra locktorture parameters
#   ICOUNT=1     QEMU -icount (default 0: wall clock, as in the issue's
#                figures; -icount runs the vCPUs round-robin, no real
#                lock contention between CPUs)
set -eu
. "$(dirname "$0")/lib.sh"
S=$TOP/scripts
OURS=${BENCH_RT_OURS:-rt-nodebug}
STOCK=${BENCH_RT_STOCK:-stock-rt-nodebug}
start=$(date +%s)

ov=$BUILD/bench-rt/overlay
rm -rf "$ov"
mkdir -p "$ov/hx"
for var in BR_SECONDS BR_WRITERS BR_TYPES BR_HACKBENCH BR_LT_PARAMS; do
	eval "val=\${$var:-}"
	[ -z "$val" ] || printf "%s='%s'\n" "$var" "$val" >>"$ov/hx/bench-rt-env"
done

for v in $OURS $STOCK; do
	"$S/prepare.sh" "$v"
	set +e
	MODE=check SUITES=bench-rt NAME="bench-rt-$v" EXTRA_OVERLAY=$ov \
		TIMEOUT=${TIMEOUT:-3600} TEST_TIMEOUT=3300 ICOUNT=${ICOUNT:-0} \
		"$S/vm.sh" "$v" >/dev/null
	rc=$?
	set -e
	"$S/results.py" --name "bench-rt-$v" --results "$LOGS/boot-bench-rt-$v/results.log" \
		--console "$LOGS/boot-bench-rt-$v/console.log" --vm-status $rc --expect-done >/dev/null ||
		die "benchmark boot of $v failed; see $LOGS/boot-bench-rt-$v/"
	grep '^BENCH ' "$LOGS/boot-bench-rt-$v/results.log" | tr -d '\r' >"$LOGS/bench-rt-$v.txt"
	# RT spinlock (rtmutex based) against raw spinlock on the same kernel
	awk '$2 == "lt_spin_lock_writes" { s = $3 } $2 == "lt_raw_spin_lock_writes" { r = $3 }
		END { if (s && r) printf "BENCH spin_lock/raw_spin_lock %.4f ratio higher\n", s / r }' \
		"$LOGS/bench-rt-$v.txt" >>"$LOGS/bench-rt-$v.txt"
done
{
	echo "RT locking, ours ($OURS) vs stock ($STOCK), $(date -u +%F)"
	echo
	"$S/bench-table.py" "$LOGS/bench-rt-$OURS.txt" "$LOGS/bench-rt-$STOCK.txt"
} | tee "$LOGS/bench-rt.md"
say TIME "$(($(date +%s) - start)) s"
