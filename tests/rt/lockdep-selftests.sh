#!/bin/sh
# lockdep's boot-time locking API self-tests (DEBUG_LOCKING_API_SELFTESTS)
# passed: "Good, all N testcases passed!" with N > 0, and no failure line.
. /tests/include/tap.sh

# /dev/kmsg, not dmesg: an earlier test may have cleared the syslog buffer
# (dmesg -c), which /dev/kmsg readers do not see.  It blocks at the end.
timeout 5 cat /dev/kmsg >/tmp/lockdep-boot.txt 2>/dev/null
n=$(sed -n 's/.*Good, all \([0-9][0-9]*\) testcases passed.*/\1/p' /tmp/lockdep-boot.txt | head -n 1)
echo "# lockdep self-tests: ${n:-no} testcases reported passed"

all_passed() {
	[ -n "$n" ] && [ "$n" -gt 0 ]
}

no_failures() {
	! grep -Eq 'unexpected failures|testcases failed' /tmp/lockdep-boot.txt
}

lockdep_on() {
	[ -e /proc/lockdep ]
}

check "lockdep self-tests: Good, all N testcases passed, N > 0 (N=${n:-none})" all_passed
check "lockdep self-tests: no failed or unexpected testcases" no_failures
check "lockdep is compiled in (/proc/lockdep)" lockdep_on
tap_done
