#!/bin/sh
# bench/rt (make bench-rt, docs/bench/rt.md): in the VM, locktorture
# acquisitions per second per lock type (BR_WRITERS writers, BR_SECONDS
# each, one type per module load) and hackbench times.  Prints
# "BENCH key value unit higher|lower" lines for scripts/bench/bench-table.py.
[ -f /hx/bench-rt-env ] && . /hx/bench-rt-env
secs=${BR_SECONDS:-30}
writers=${BR_WRITERS:-4}
types=${BR_TYPES:-"spin_lock raw_spin_lock spin_lock_irq raw_spin_lock_irq rw_lock rw_lock_irq mutex_lock ww_mutex_lock rtmutex_lock rwsem_lock percpu_rwsem_lock"}
hb=${BR_HACKBENCH:-"-g 4 -l 100"}
mods=/lib/modules/kernel
status=0

uptime_s() {
	cut -d' ' -f1 /proc/uptime
}

echo "# kernel: $(uname -v)"
insmod $mods/torture.ko || exit 1
for type in $types; do
	tag="hx-bench-rt: begin $type"
	echo "$tag" >/dev/kmsg
	if ! insmod $mods/locktorture.ko torture_type="$type" nwriters_stress="$writers" ${BR_LT_PARAMS:-}; then
		echo "# $type: insmod failed"
		status=1
		continue
	fi
	t0=$(uptime_s)
	sleep "$secs"
	t1=$(uptime_s)
	rmmod locktorture || status=1
	dmesg | sed -n "/$tag\$/,\$p" >/tmp/bench-lt.log
	grep -q -- '-torture:--- End of test: SUCCESS' /tmp/bench-lt.log || {
		echo "# $type: no SUCCESS verdict"
		status=1
	}
	grep -E '(Writes|Reads) *: *Total:' /tmp/bench-lt.log | tail -n 2 | sed 's/^/# /'
	for kind in Writes Reads; do
		total=$(grep -E "$kind *: *Total:" /tmp/bench-lt.log | tail -n 1 |
			sed 's/.*Total: *\([0-9]*\).*/\1/')
		[ -n "$total" ] || continue
		k=$(echo "$kind" | tr 'A-Z' 'a-z')
		echo "$total $t0 $t1" | awk -v key="lt_${type}_$k" \
			'{ printf "BENCH %s %.0f acq/s higher\n", key, $1 / ($3 - $2) }'
	done
done
rmmod torture

# hackbench: processes, then threads; its own "Time:" line is the result.
for mode in proc thread; do
	flag=""
	[ $mode = thread ] && flag=-T
	# shellcheck disable=SC2086
	if timeout -s KILL 900 hackbench $flag $hb >/tmp/hb.txt 2>&1; then
		sed 's/^/# /' /tmp/hb.txt
		t=$(sed -n 's/^Time: *//p' /tmp/hb.txt)
		echo "BENCH hackbench_$mode $t s lower"
	else
		sed 's/^/# /' /tmp/hb.txt
		echo "# hackbench $mode failed"
		status=1
	fi
done
exit $status
