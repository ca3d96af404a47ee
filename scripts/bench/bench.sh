#!/bin/sh
# bench.sh: run bench/ programs on our kernel and on the stock Debian
# kernel (same config) in the same run, and print ours/stock ratios.
# A benchmark program prints lines "BENCH <key> <value> <unit> higher|lower"
# (which direction is better); everything else it prints is kept in the log.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$S/vm/harness.sh"
OURS=${BENCH_OURS:-${VARIANT:-default}}
STOCK=${BENCH_STOCK:-stock}

if [ -z "$(find "$TOP/bench" -maxdepth 1 -name '*.c')" ]; then
	say BENCH "no benchmarks in bench/ yet"
	exit 0
fi
quiet() { cat >/dev/null; }
for v in $OURS $STOCK; do
	prepare_boots "$v"
	TIMEOUT=${TIMEOUT:-3600} ICOUNT=${ICOUNT:-1} BOOT_OUT=quiet \
		boot_judge "bench-$v" "$v" bench >/dev/null ||
		die "benchmark boot of $v failed; see $LOGS/boot-bench-$v/"
	grep '^BENCH ' "$LOGS/boot-bench-$v/results.log" | tr -d '\r' >"$LOGS/bench-$v.txt"
done
"$S/bench/bench-table.py" "$LOGS/bench-$OURS.txt" "$LOGS/bench-$STOCK.txt" | tee "$LOGS/bench.md"
