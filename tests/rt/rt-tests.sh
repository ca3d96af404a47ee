#!/bin/sh
# rt-tests 2.4 (Debian's package, copied into the initramfs) as bounded
# smoke runs.  Under TCG latency figures are host jitter: only exit
# statuses and the programs' own verdicts are checked, never latencies.
. /tests/include/tap.sh

have() {
	command -v "$1" >/dev/null 2>&1
}

# quiet TIMEOUT CMD...: run with a hard bound, output into the log as comments
bounded() {
	t=$1
	shift
	timeout -s KILL "$t" "$@" >/tmp/rt-out.txt 2>&1
	rc=$?
	sed 's/^/# /' /tmp/rt-out.txt | tail -n 12
	return $rc
}

pi_stress_ok() {
	bounded 120 pi_stress --duration=15 --mlockall --quiet || return 1
	! grep -q WATCHDOG /tmp/rt-out.txt
}

hackbench_ok() {
	bounded 300 hackbench "$@" || return 1
	grep -q '^Time:' /tmp/rt-out.txt
}

for p in pi_stress pip_stress cyclictest signaltest hackbench; do
	check "rt-tests: $p is in the initramfs" have $p
done
check "pi_stress --duration=15: exit 0, no watchdog (PI mutex inversions resolved)" pi_stress_ok
check "pip_stress: exit 0" bounded 120 pip_stress
check "cyclictest -m -S -p 95 -i 1000 -D 10s: exit 0 (smoke; latencies not judged)" \
	bounded 60 cyclictest -m -S -p 95 -i 1000 -D 10s -q
check "signaltest -m -p 90 -D 10s: exit 0 (smoke; latencies not judged)" \
	bounded 60 signaltest -m -p 90 -D 10s -q
check "hackbench -g 2 -l 50 (processes): exit 0, prints Time:" hackbench_ok -g 2 -l 50
check "hackbench -T -g 2 -l 50 (threads): exit 0, prints Time:" hackbench_ok -T -g 2 -l 50
tap_done
