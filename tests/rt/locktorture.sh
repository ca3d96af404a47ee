#!/bin/sh
# locktorture as a module, one lock type per load for LT_SECONDS (default
# 12) each: rmmod prints the verdict, which must be "End of test: SUCCESS"
# with no "!!!" (a writer or reader found the lock held by someone else);
# lock_busted, a lock that does not lock, must end in FAILURE.  Its
# expected WARN (lock_torture_writer) is framed by "hx-expect-warn" markers
# that scripts/vm/results.py accepts for that one function and nothing else.
# LT_TYPES overrides the list; LT_SECONDS the time per type (make rt-soak).
. /tests/include/tap.sh
[ -f /hx/lt-env ] && . /hx/lt-env
secs=${LT_SECONDS:-12}
types=${LT_TYPES:-"spin_lock spin_lock_irq rw_lock rw_lock_irq mutex_lock ww_mutex_lock rtmutex_lock rwsem_lock percpu_rwsem_lock mutex_lock:nested_locks=8 rtmutex_lock:nested_locks=8 lock_busted"}
mods=/lib/modules/kernel

check "torture.ko loads" insmod $mods/torture.ko

# run TYPE PARAMS: load, wait, unload; the kernel messages of this run
# end up in /tmp/lt.log
run() {
	tag="hx-locktorture: begin $1${2:+ $2}"
	echo "$tag" >/dev/kmsg
	insmod $mods/locktorture.ko torture_type="$1" $2 || return 1
	sleep "$secs"
	rmmod locktorture || return 1
	dmesg | sed -n "/$tag\$/,\$p" >/tmp/lt.log
}

verdict() {
	grep -- "-torture:--- End of test: $1" /tmp/lt.log >/dev/null
}

# The statistics lines: "Writes:  Total: N  Max/Min: a/b  Fail: F !!!"
no_fail_marks() {
	! grep -E 'Fail: *[0-9]+ *!!!' /tmp/lt.log >/dev/null
}

fail_marks() {
	grep -E 'Fail: *[0-9]+ *!!!' /tmp/lt.log >/dev/null
}

for spec in $types; do
	type=${spec%%:*}
	params=""
	[ "$type" = "$spec" ] || params=$(echo "${spec#*:}" | tr ',' ' ')
	what="$type${params:+ $params}"
	: >/tmp/lt.log
	if [ "$type" = lock_busted ]; then
		echo "hx-expect-warn: begin lock_torture_writer" >/dev/kmsg
		check "locktorture $what: loads, runs ${secs} s, unloads" run "$type" "$params"
		echo "hx-expect-warn: end lock_torture_writer" >/dev/kmsg
		check "locktorture $what: End of test: FAILURE (the broken lock is caught)" verdict FAILURE
		check "locktorture $what: the failure shows as !!!" fail_marks
	else
		check "locktorture $what: loads, runs ${secs} s, unloads" run "$type" "$params"
		check "locktorture $what: End of test: SUCCESS" verdict SUCCESS
		check "locktorture $what: no !!! (lock never found held by another)" no_fail_marks
	fi
	grep -E '(Writes|Reads) *: *Total:' /tmp/lt.log | tail -n 2 | sed 's/^/# /'
done
tap_done
