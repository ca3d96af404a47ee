# TAP helpers for the in-VM shell tests.  Sourced.
# shellcheck shell=sh
tap_n=0
tap_failed=0

# check DESCRIPTION COMMAND...: run COMMAND, report ok/not ok.
check() {
	desc=$1
	shift
	tap_n=$((tap_n + 1))
	if "$@"; then
		echo "ok $tap_n - $desc"
	else
		echo "not ok $tap_n - $desc"
		tap_failed=$((tap_failed + 1))
	fi
}

tap_done() {
	echo "1..$tap_n"
	[ "$tap_failed" = 0 ]
}
