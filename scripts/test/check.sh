#!/bin/sh
# check.sh: the whole test suite.  Host-side tests, then one boot per entry
# of BOOTS, "VARIANT[+icount]:suite,suite[@SECONDS] ...", e.g.
# "debug:smoke,futex" (scripts/vm/harness.sh says what the parts mean).
# Ends with "N passed, N failed, N skipped"; exits 1 when anything failed.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$S/vm/harness.sh"
BOOTS=${BOOTS:-debug:smoke}
TALLY=$LOGS/tally
start=$(date +%s)

# shellcheck disable=SC2086
prepare_boots $BOOTS
say TIME "$(($(date +%s) - start)) s: built what the boots need"
: >"$TALLY"
status=0

# Host-side tests: tests/host/*.sh, framed like the in-VM ones.
host_tests() {
	mkdir -p "$LOGS/host"
	rm -f "$LOGS/host/results.log.new"
	for t in "$TOP"/tests/host/*.sh; do
		[ -f "$t" ] || continue
		name=host/$(basename "$t" .sh)
		# A failing host test is counted, not fatal (set -e would stop here).
		rc=0
		{
			echo "# HX-TEST $name"
			sh "$t" 2>&1 || rc=$?
			echo "# HX-END $name exit=$rc"
		} >>"$LOGS/host/results.log.new"
	done
	mv "$LOGS/host/results.log.new" "$LOGS/host/results.log" 2>/dev/null || : >"$LOGS/host/results.log"
	say HOST "$(grep -c '^# HX-TEST' "$LOGS/host/results.log") host-side tests"
	"$S/vm/results.py" --name host --results "$LOGS/host/results.log" --tally "$TALLY"
}
t0=$(date +%s)
host_tests || status=1
say TIME "$(($(date +%s) - t0)) s: host-side tests"

for boot in $BOOTS; do
	t0=$(date +%s)
	boot_spec "$boot" || status=1
	say TIME "$(($(date +%s) - t0)) s: boot $boot"
done

say TIME "$(($(date +%s) - start)) s"
tally_summary
exit $status
