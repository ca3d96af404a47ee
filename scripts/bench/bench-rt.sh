#!/bin/sh
# bench-rt.sh: the RT locking benchmark (make bench-rt; also run by make
# bench).  One boot each of our non-debug RT kernel and the stock one
# (pristine tree, same config: configs/rt-bench.config) runs bench/rt/rt.sh:
# locktorture acquisitions per second per lock type and hackbench times.
# Prints the ours/stock table (scripts/bench/bench-table.py) and, per kernel, the
# RT spin_lock / raw_spin_lock ratio.  docs/bench/rt.md explains it.
# Settings (environment):
#   VARIANT (or BENCH_RT_OURS), BENCH_RT_STOCK  the variants compared
#                (rt-nodebug, stock-rt-nodebug)
#   BR_SECONDS   seconds per lock type (30); BR_WRITERS writers (4)
#   BR_TYPES     lock types; BR_HACKBENCH hackbench options ("-g 4 -l 100")
#   BR_LT_PARAMS extra locktorture parameters
#   BR_STEADY=1  steady load: BR_LT_PARAMS defaults to "long_hold=0
#                stutter=0 shuffle_interval=0 rt_boost=0" (no occasional
#                100 ms holds, pauses, CPU shuffles or FIFO boosts)
#   BR_ROUNDS    boots of each kernel (1), alternating which boots first;
#                the table shows the median per row and the ratio per round
#   ICOUNT=1     QEMU -icount (default 0: wall clock, as in the issue's
#                figures; -icount runs the vCPUs round-robin, no real
#                lock contention between CPUs)
set -eu
. "$(dirname "$0")/../lib.sh"
. "$S/vm/harness.sh"
OURS=${BENCH_RT_OURS:-${VARIANT:-rt-nodebug}}
STOCK=${BENCH_RT_STOCK:-stock-rt-nodebug}
rounds=${BR_ROUNDS:-1}
# Each boot's rows are filed under its variant name: two names are needed.
[ "$OURS" != "$STOCK" ] || die "BENCH_RT_OURS and BENCH_RT_STOCK are both '$OURS'; compare two variants"
case $rounds in
''|*[!0-9]*|0) die "BR_ROUNDS must be a positive number, not '$rounds'" ;;
esac
start=$(date +%s)
# locktorture's random 100 ms holds, stutter pauses, CPU shuffles and
# SCHED_FIFO boosts add to the spread between boots (docs/bench/rt.md).
if [ "${BR_STEADY:-0}" = 1 ]; then
	BR_LT_PARAMS=${BR_LT_PARAMS:-"long_hold=0 stutter=0 shuffle_interval=0 rt_boost=0"}
fi

ov=$BUILD/bench-rt/overlay
rm -rf "$ov"
mkdir -p "$ov/hx"
for var in BR_SECONDS BR_WRITERS BR_TYPES BR_HACKBENCH BR_LT_PARAMS; do
	eval "val=\${$var:-}"
	[ -z "$val" ] || printf "%s='%s'\n" "$var" "$val" >>"$ov/hx/bench-rt-env"
done

quiet() { cat >/dev/null; }

# One boot of variant $1 in round $2: its BENCH rows in bench-rt-$1-r$2.txt.
bench_boot() {
	name=bench-rt-$1-r$2
	say BENCH "$1: round $2 of $rounds"
	EXTRA_OVERLAY=$ov TIMEOUT=${TIMEOUT:-3600} TEST_TIMEOUT=3300 ICOUNT=${ICOUNT:-0} \
		BOOT_OUT=quiet boot_judge "$name" "$1" bench-rt >/dev/null ||
		die "benchmark boot of $1 (round $2) failed; see $LOGS/boot-$name/"
	grep '^BENCH ' "$LOGS/boot-$name/results.log" | tr -d '\r' >"$LOGS/$name.txt"
	# RT spinlock (rtmutex based) against raw spinlock on the same kernel
	spin_ratio=$(awk '$2 == "lt_spin_lock_writes" { s = $3 } $2 == "lt_raw_spin_lock_writes" { r = $3 }
		END { if (s && r) printf "BENCH spin_lock/raw_spin_lock %.4f ratio higher\n", s / r }' \
		"$LOGS/$name.txt")
	[ -z "$spin_ratio" ] || echo "$spin_ratio" >>"$LOGS/$name.txt"
}

prepare_boots "$OURS" "$STOCK"
# Alternate which kernel boots first, so that a drift of the host's speed
# during the run does not always favour the same one.
r=0
while [ $r -lt "$rounds" ]; do
	r=$((r + 1))
	if [ $((r % 2)) = 1 ]; then
		bench_boot "$OURS" $r
		bench_boot "$STOCK" $r
	else
		bench_boot "$STOCK" $r
		bench_boot "$OURS" $r
	fi
done
files_ours=$(seq -f "$LOGS/bench-rt-$OURS-r%g.txt" 1 "$rounds")
files_stock=$(seq -f "$LOGS/bench-rt-$STOCK-r%g.txt" 1 "$rounds")
{
	clock=wall-clock
	[ "${ICOUNT:-0}" = 1 ] && clock=-icount
	echo "RT locking, ours ($OURS) vs stock ($STOCK), $(date -u +%F), $rounds round(s), $clock${BR_LT_PARAMS:+, locktorture $BR_LT_PARAMS}"
	echo
	# shellcheck disable=SC2086
	"$S/bench/bench-rounds.py" "$LOGS/bench-rt-$OURS.txt" "$LOGS/bench-rt-$STOCK.txt" \
		$files_ours $files_stock >"$LOGS/bench-rt-rounds.md"
	"$S/bench/bench-table.py" "$LOGS/bench-rt-$OURS.txt" "$LOGS/bench-rt-$STOCK.txt"
	if [ "$rounds" -gt 1 ]; then
		echo
		echo "Medians of $rounds rounds above; ours/stock per round:"
		echo
		cat "$LOGS/bench-rt-rounds.md"
	fi
} | tee "$LOGS/bench-rt.md"
say TIME "$(($(date +%s) - start)) s"
