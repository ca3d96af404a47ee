#!/bin/sh
# Host-side test of scripts/vm/results.py, the judge of every boot: canned test
# channels and consoles, each with the verdict the judge must give.
. "$(dirname "$0")/../include/tap.sh"
judge=$(dirname "$0")/../../scripts/vm/results.py
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# verdict NAME EXPECTED_STATUS EXPECTED_COUNTS RESULTS CONSOLE
verdict() {
	printf '%b' "$4" >"$w/res"
	printf '%b' "$5" >"$w/con"
	"$judge" --name t --results "$w/res" --console "$w/con" --expect-done \
		>"$w/out" 2>/dev/null
	rc=$?
	out=$(grep RESULT "$w/out")
	check "$1 (status $rc, '${out#*t: }')" same "$rc: ${out#*t: }" "$2: $3"
}

same() {
	[ "$1" = "$2" ]
}

ok_run='# HX-TEST s/a\nok 1 - x\nok 2 - y # SKIP no disk\n1..2\n# HX-END s/a exit=0\n# HX-DONE\n'
clean='[    0.1] Linux version 6.12\n[    0.2] Kernel command line: console=ttyS0 lockdep\n'

verdict "clean run passes" 0 "1 passed, 0 failed, 1 skipped" "$ok_run" "$clean"
verdict "failed TAP result fails" 1 "1 passed, 1 failed, 0 skipped" \
	'# HX-TEST s/a\nok 1 - x\nnot ok 2 - y\n# HX-END s/a exit=1\n# HX-DONE\n' "$clean"
verdict "oops on the console fails a green run" 1 "1 passed, 1 failed, 1 skipped" "$ok_run" \
	"$clean[    5.0] BUG: kernel NULL pointer dereference, address: 0\n[    5.0] Oops: 0002 [#1] SMP\n"
verdict "lockdep report fails" 1 "1 passed, 1 failed, 1 skipped" "$ok_run" \
	"$clean[    5.0] WARNING: possible circular locking dependency detected\n"
verdict "KASAN report fails" 1 "1 passed, 1 failed, 1 skipped" "$ok_run" \
	"$clean[    5.0] ==================\n[    5.0] BUG: KASAN: slab-out-of-bounds in f+0x1/0x2\n"
verdict "UBSAN report fails" 1 "1 passed, 1 failed, 1 skipped" "$ok_run" \
	"$clean[    5.0] UBSAN: shift-out-of-bounds in fs/x.c:1:2\n"
verdict "missing end of run fails" 1 "1 passed, 1 failed, 0 skipped" \
	'# HX-TEST s/a\nok 1 - x\n# HX-END s/a exit=0\n' "$clean"
verdict "test killed mid-way fails" 1 "0 passed, 2 failed, 0 skipped" \
	'# HX-TEST s/a\nok 1 - x\n' "$clean"
verdict "short of its plan fails" 1 "1 passed, 2 failed, 0 skipped" \
	'# HX-TEST s/a\n1..3\nok 1 - x\n# HX-END s/a exit=139\n# HX-DONE\n' "$clean"
verdict "non-zero exit without TAP fails" 1 "0 passed, 1 failed, 0 skipped" \
	'# HX-TEST s/a\n# HX-END s/a exit=2\n# HX-DONE\n' "$clean"
verdict "exit 77 without TAP is a skip" 0 "0 passed, 0 failed, 1 skipped" \
	'# HX-TEST s/a\n# HX-END s/a exit=77\n# HX-DONE\n' "$clean"
verdict "a timed end still counts its exit" 1 "0 passed, 1 failed, 0 skipped" \
	'# HX-TEST s/a\n# HX-END s/a exit=2 secs=40\n# HX-DONE\n' "$clean"
verdict "a timed clean end passes" 0 "1 passed, 0 failed, 0 skipped" \
	'# HX-TEST s/a\nok 1 - x\n# HX-END s/a exit=0 secs=3\n# HX-DONE\n' "$clean"
verdict "CRLF from the serial port is understood" 0 "1 passed, 0 failed, 0 skipped" \
	'# HX-TEST s/a\r\nok 1 - x\r\n# HX-END s/a exit=0\r\n# HX-DONE\r\n' "$clean"

# Expected reports: one WARN from lock_torture_writer inside its frame only.
busted_warn='[   60.0] ------------[ cut here ]------------\n[   60.0] WARNING: CPU: 1 PID: 99 at kernel/locking/locktorture.c:881 lock_torture_writer+0x1d6/0x3d0 [locktorture]\n[   60.0] Modules linked in: locktorture torture\n[   60.0] RIP: 0010:lock_torture_writer+0x1d6/0x3d0 [locktorture]\n[   60.0] Call Trace:\n[   60.0]  <TASK>\n[   60.0]  kthread+0xd1/0x100\n[   60.0] ---[ end trace 0000000000000000 ]---\n'
framed() {
	printf '[   59.0] hx-expect-warn: begin %s\n%b[   70.0] hx-expect-warn: end %s\n' "$1" "$2" "$1"
}
verdict "lock_busted WARN inside its frame is accepted" 0 "1 passed, 0 failed, 1 skipped" "$ok_run" \
	"$clean$(framed lock_torture_writer "$busted_warn")"
verdict "the WARN with the O= build's relative path is accepted too" 0 "1 passed, 0 failed, 1 skipped" "$ok_run" \
	"$clean$(framed lock_torture_writer "$(echo "$busted_warn" | sed 's| at kernel/| at ../src/linux/kernel/|')")"
verdict "the same WARN outside a frame fails" 1 "1 passed, 1 failed, 1 skipped" "$ok_run" \
	"$clean$busted_warn"
verdict "a frame for an unlisted function accepts nothing" 1 "1 passed, 1 failed, 1 skipped" "$ok_run" \
	"$clean$(framed rt_mutex_pre_schedule "$(echo "$busted_warn" | sed 's/locktorture.c:881 lock_torture_writer/sched\/core.c:7116 rt_mutex_pre_schedule/')")"
verdict "another WARN inside the frame fails" 1 "1 passed, 1 failed, 1 skipped" "$ok_run" \
	"$clean$(framed lock_torture_writer "$busted_warn[   61.0] WARNING: CPU: 0 PID: 5 at kernel/sched/core.c:7116 rt_mutex_pre_schedule+0x1/0x2\n")"
verdict "a second lock_torture_writer WARN fails" 1 "1 passed, 1 failed, 1 skipped" "$ok_run" \
	"$clean$(framed lock_torture_writer "$busted_warn$busted_warn")"
# Lockups, stalls and hung tasks fail a green run; the boot's note on the
# stall timeout does not.
verdict "RCU stall timeout note at boot passes" 0 "1 passed, 0 failed, 1 skipped" "$ok_run" \
	"$clean[    0.3] rcu: \tRCU CPU stall warnings timeout set to 300 (rcu_cpu_stall_timeout).\n"
verdict "soft lockup fails" 1 "1 passed, 1 failed, 1 skipped" "$ok_run" \
	"$clean[   90.0] watchdog: BUG: soft lockup - CPU#1 stuck for 26s! [ntfs-mutate:321]\n"
verdict "hard lockup fails" 1 "1 passed, 1 failed, 1 skipped" "$ok_run" \
	"$clean[   90.0] watchdog: CPU1: Watchdog detected hard LOCKUP on cpu 1\n"
verdict "RCU stall fails" 1 "1 passed, 1 failed, 1 skipped" "$ok_run" \
	"$clean[  400.0] rcu: INFO: rcu_preempt self-detected stall on CPU\n"
verdict "hung task fails" 1 "1 passed, 1 failed, 1 skipped" "$ok_run" \
	"$clean[  200.0] INFO: task ntfs-mutate:321 blocked for more than 122 seconds.\n"

# A sysrq dump after a hang (tests/tools/ntfs-mutate.c) is one report named
# by its reason, not one per task; a lockup inside it is a report of its own.
task_dump='[  100.0] sysrq: Show State\n[  100.0] task:swapper/0 state:R running task stack:0 pid:1\n[  100.0] Call Trace:\n[  100.0]  <TASK>\n[  100.0]  schedule+0x1/0x2\n[  100.0]  </TASK>\n[  100.0] task:ntfs-mutate state:D stack:0 pid:321\n[  100.0] Call Trace:\n[  100.0]  <TASK>\n[  100.0]  ntfs_readdir+0x1/0x2 [ntfs3]\n[  100.0]  </TASK>\n[  101.0] sysrq: Show backtrace of all active CPUs\n[  101.0] NMI backtrace for cpu 1\n[  101.0] RIP: 0010:ntfs_readdir+0x1/0x2 [ntfs3]\n[  101.0] Call Trace:\n'
dump() {
	printf '[   99.0] hx-sysrq-dump: begin hang: case 17 (seed 1, index-block, base.img) did not finish in 60 s in getdents64 /dir\n%b[  102.0] hx-sysrq-dump: end\n' "$1"
}
hung_run='# HX-TEST s/a\nok 1 - x\nnot ok 2 - hang: case 17 (seed 1, index-block, base.img) did not finish in 60 s\n# HX-END s/a exit=1\n# HX-DONE\n'
verdict "sysrq dump of a hang: the case and the console fail" 1 "1 passed, 2 failed, 0 skipped" \
	"$hung_run" "$clean$(dump "$task_dump")"
printf '%b' "$hung_run" >"$w/res"
printf '%b' "$clean$(dump "$task_dump")" >"$w/con"
"$judge" --name t --results "$w/res" --console "$w/con" --expect-done >/dev/null 2>"$w/err"
check "the console verdict counts the dump once and names its reason" \
	grep -q 'shows 1 problem lines.*1 of them sysrq dump of a hang already reported (first: hang: case 17 (seed 1, index-block, base.img)' "$w/err"
printf '%b' "$clean$(dump "$task_dump[  101.5] watchdog: BUG: soft lockup - CPU#1 stuck for 26s! [ntfs-mutate:321]\n")" >"$w/con"
"$judge" --name t --results "$w/res" --console "$w/con" --expect-done >/dev/null 2>"$w/err"
check "a soft lockup inside the dump is a report of its own" \
	grep -q 'shows 2 problem lines' "$w/err"
printf '%b' "$clean$task_dump" | grep -v 'sysrq:' >"$w/con"
"$judge" --name t --results "$w/res" --console "$w/con" --expect-done >/dev/null 2>"$w/err"
check "the same traces with no frame and no sysrq line count one by one" \
	grep -q 'shows 4 problem lines' "$w/err"
printf '%b' "$clean[  700.0] sysrq: Show Blocked State\n[  700.0] task:sh state:D stack:0 pid:1\n[  700.0] Call Trace:\n[  705.0] sysrq: Show State\n[  705.0] Call Trace:\n" >"$w/con"
"$judge" --name t --results "$w/res" --console "$w/con" --expect-done --vm-status 124 >/dev/null 2>"$w/err"
check "vm.sh's sysrq keys at its timeout: one report after the timeout's own" \
	grep -q 'shows 1 problem lines.*sysrq keys with no frame' "$w/err"
tap_done
