#!/bin/sh
# selftest-harness.sh: prove the harness fails runs that must fail.  Three
# deliberately broken boots of the debug kernel; each must be judged failed,
# with the reason named, by the same routine that judges every boot
# (scripts/vm/harness.sh).  Passes (exit 0) when all three are caught.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$S/vm/harness.sh"
V=${VARIANT:-debug}
n=0
bad=0

prepare_boots "$V"

# boot NAME MODE SUITES TIMEOUT: boot and judge; the verdict lands in
# selftest-NAME.out (the judge's words) and selftest-NAME.verdict.
quiet() { cat >/dev/null; }
boot() {
	rc=0
	MODE=$2 TIMEOUT=$4 BOOT_OUT=quiet boot_judge "$1" "$V" "$3" \
		>"$LOGS/selftest-$1.out" 2>&1 || rc=$?
	echo $rc >"$LOGS/selftest-$1.verdict"
}

# expect_caught DESC PATTERN NAME: boot NAME must have been judged failed,
# with a message matching PATTERN.
expect_caught() {
	n=$((n + 1))
	out=$LOGS/selftest-$3.out
	if [ "$(cat "$LOGS/selftest-$3.verdict")" = 1 ] && grep -q "$2" "$out"; then
		echo "ok $n - harness catches $1"
		grep "$2" "$out" | sed 's/^ */    # /'
	else
		echo "not ok $n - harness did not catch $1 (see $out)"
		bad=$((bad + 1))
	fi
}

say SELFTEST "3 deliberately broken boots of the $V kernel"
boot selftest-fail check selftest-fail 900
boot selftest-oops check selftest-oops 900
boot selftest-hang hang "" "${HANG_TIMEOUT:-90}"
expect_caught "a failing test" "deliberate failure" selftest-fail
expect_caught "a test that crashes short of its plan" "planned 3 results" selftest-fail
expect_caught "an oops from a test module" "kernel console shows" selftest-oops
expect_caught "a VM that never powers off" "did not power off" selftest-hang
expect_caught "its tasks' stacks, by sysrq keys at the timeout" "sysrq keys with no frame" selftest-hang
echo "1..$n"
echo "$((n - bad)) passed, $bad failed"
[ $bad = 0 ]
