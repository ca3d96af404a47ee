#!/bin/sh
# Our targeted RT locking tests (tests/modules/rt-locks, hx_rtlocks.ko):
# one load per group (hung threads keep the module loaded: the later
# groups then fail to load and say so); each "hx_rtlocks: RESULT pass|fail|skip NAME: DETAIL"
# kernel message becomes one TAP result.
ko=/lib/modules/test/hx_rtlocks.ko
n=0
bad=0

# ww twice: SCHED_OTHER contexts, then half of them SCHED_FIFO (on RT the
# ww_mutex orders contexts by priority before age), the latter 30 times:
# a livelock of two contexts spinning on each other showed in about one
# run in 15 (fixed by "locking/rtmutex: Keep ww_mutex contexts from spinning
# on each other"), a Wait-Die deadlock in about one in 100 (fixed by
# "locking/ww_mutex: Check every waiting context on PREEMPT_RT"), a
# Wound-Wait deadlock (a requeued waiter missed by the fast path) in about
# one in 250 (fixed by "locking/ww_mutex: Look for PREEMPT_RT waiters in the
# owner word").  A hang prints who waits for whom.
for group in wake pi fair ww ww:ww_rt=1:ww_repeat=30; do
	echo "hx-rtlocks: begin $group" >/dev/kmsg
	start=$(date +%s)
	# shellcheck disable=SC2046
	insmod "$ko" tests=${group%%:*} $(echo "${group#"${group%%:*}"}" | tr ':' ' ')
	rc=$?
	[ $rc != 0 ] || rmmod hx_rtlocks
	echo "# group $group: insmod status $rc, $(($(date +%s) - start)) s"
	got=0
	dmesg | sed -n "/hx-rtlocks: begin $group\$/,\$p" | sed -n 's/.*hx_rtlocks: RESULT //p' >/tmp/rtlocks.$group
	while read -r status rest; do
		n=$((n + 1))
		got=$((got + 1))
		case $status in
		pass) echo "ok $n - $rest" ;;
		skip) echo "ok $n - ${rest%%:*} # SKIP ${rest#*: }" ;;
		*) echo "not ok $n - $rest"; bad=1 ;;
		esac
	done </tmp/rtlocks.$group
	if [ $got = 0 ]; then
		n=$((n + 1))
		echo "not ok $n - group $group printed no results (insmod status $rc)"
		bad=1
	fi
done
echo "1..$n"
exit $bad
