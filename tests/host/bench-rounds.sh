#!/bin/sh
# Host-side test of scripts/bench/bench-rounds.py, which merges the rounds of
# make bench-rt (BR_ROUNDS): medians per kernel, ratio per round.
. "$(dirname "$0")/../include/tap.sh"
tool=$(dirname "$0")/../../scripts/bench/bench-rounds.py
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

same() {
	[ "$1" = "$2" ]
}

printf 'BENCH lt_a 10 acq/s higher\nBENCH hb 2 s lower\n' >"$w/o1"
printf 'BENCH lt_a 30 acq/s higher\nBENCH hb 4 s lower\n' >"$w/o2"
printf 'BENCH lt_a 12 acq/s higher\nBENCH hb 1 s lower\n' >"$w/o3"
printf 'BENCH lt_a 20 acq/s higher\nBENCH hb 2 s lower\n' >"$w/s1"
printf 'BENCH lt_a 20 acq/s higher\nBENCH hb 2 s lower\n' >"$w/s2"
printf 'BENCH lt_a 12 acq/s higher\nBENCH hb 3 s lower\n' >"$w/s3"
"$tool" "$w/mo" "$w/ms" "$w/o1" "$w/o2" "$w/o3" "$w/s1" "$w/s2" "$w/s3" >"$w/table"
rc=$?
check "bench-rounds.py exits 0" test $rc = 0
check "ours: median of each row" same "$(cat "$w/mo")" \
	"$(printf 'BENCH lt_a 12 acq/s higher\nBENCH hb 2 s lower')"
check "stock: median of each row" same "$(cat "$w/ms")" \
	"$(printf 'BENCH lt_a 20 acq/s higher\nBENCH hb 2 s lower')"
check "higher-is-better row: ratio ours/stock per round, wins counted" \
	grep -qx '| lt_a | 0.50 | 1.50 | 1.00 | 2 of 3 |' "$w/table"
check "lower-is-better row: ratio stock/ours per round" \
	grep -qx '| hb | 1.00 | 0.50 | 3.00 | 2 of 3 |' "$w/table"
"$tool" "$w/mo" "$w/ms" "$w/o1" "$w/o2" "$w/s1" >/dev/null 2>&1
rc=$?
check "an odd number of files is refused" test $rc != 0
tap_done
