#!/bin/sh
# vm.sh VARIANT: boot build/kernel-VARIANT with its initramfs in QEMU.
# Settings come from the environment:
#   MODE      check | cmd | run | probe | hang           (default check)
#   SUITES    test suites to run in MODE=check
#   CMD       shell command to run in MODE=cmd
#   DISKS     images to attach as virtio disks, "path", "path:ro" (read-only),
#             "path:4k" (4096-byte logical blocks) or "path:ro:4k"
#   DISK_NAMES  names for them, in order, for the guest (HX_DISK_NAMES)
#   EXTRA_OVERLAY  directory copied into the guest's / for this boot
#   TIMEOUT   hard limit for the whole boot in seconds    (default 600)
#   NAME      name of this boot; logs go to build/logs/boot-NAME/
#   INTERACTIVE=1  console on the terminal (MODE=run)
#   ICOUNT=1  TCG with -icount: guest time counts instructions (benchmarks)
#   QEMU_EXTRA  more QEMU arguments (e.g. the bench/profile plugin)
#   MEM       guest memory in MiB                          (default 2048)
# The console goes to console.log, the test channel (ttyS1) to results.log
# and, unless interactive, to stdout as it arrives.  Exit status: QEMU's, or
# 124 when the VM outlived the hard timeout.  At the timeout, before the kill
# (25 s later), sysrq w, t and l go to the guest's PS/2 keyboard through the
# QEMU monitor (a socket in /tmp): the console shows the blocked tasks, every
# task's stack and every CPU's backtrace, unless the guest takes no
# interrupts any more.
set -eu
. "$(dirname "$0")/../lib.sh"

V=${1:?usage: vm.sh VARIANT}
MODE=${MODE:-check}
NAME=${NAME:-$MODE-$V}
TIMEOUT=${TIMEOUT:-600}
dir=$LOGS/boot-$NAME
kernel=$(kernel_out "$V")/arch/x86/boot/bzImage
initrd=$BUILD/initramfs-$V.cpio
[ -f "$kernel" ] || die "no kernel for $V; run 'make kernel VARIANT=$V'"
[ -f "$initrd" ] || die "no initramfs for $V; run 'make initramfs VARIANT=$V'"
rm -rf "$dir"
mkdir -p "$dir/overlay/hx"

# Per-boot settings, appended to the initramfs as a second cpio archive.
{
	echo "HX_MODE='$MODE'"
	echo "HX_SUITES='${SUITES:-}'"
	echo "HX_INTERACTIVE='${INTERACTIVE:-0}'"
	echo "HX_TEST_TIMEOUT='${TEST_TIMEOUT:-600}'"
	echo "HX_DISK_NAMES='${DISK_NAMES:-}'"
} >"$dir/overlay/hx/env"
printf '%s\n' "${CMD:-true}" >"$dir/overlay/hx/cmd"
# EXTRA_OVERLAY: a directory whose contents join the guest's / (test data).
[ -z "${EXTRA_OVERLAY:-}" ] || cp -a "$EXTRA_OVERLAY"/. "$dir/overlay/"
(cd "$dir/overlay" && find . | cpio -o -H newc -R 0:0 --quiet) >"$dir/overlay.cpio"
cat "$initrd" "$dir/overlay.cpio" >"$dir/initrd.cpio"

# KVM: /dev/kvm may exist without working (a guest hangs at "Booting from
# ROM" here).  Probe once with a short timeout and remember the answer.
accel() {
	if [ -f "$BUILD/accel" ]; then
		cat "$BUILD/accel"
		return
	fi
	a=tcg
	if [ -w /dev/kvm ]; then
		mkdir -p "$dir/probe/hx"
		echo "HX_MODE=probe" >"$dir/probe/hx/env"
		(cd "$dir/probe" && find hx | cpio -o -H newc -R 0:0 --quiet) |
			cat "$initrd" - >"$dir/probe.cpio"
		if timeout -k 2 20 qemu-system-x86_64 -accel kvm -m 256 -nodefaults \
			-display none -no-reboot -kernel "$kernel" \
			-initrd "$dir/probe.cpio" -append "console=ttyS0 panic=-1 quiet" \
			-serial null -serial "file:$dir/probe/out" </dev/null >/dev/null 2>&1 &&
			grep -q HX-PROBE-OK "$dir/probe/out" 2>/dev/null; then
			a=kvm
		fi
	fi
	if [ $a = kvm ]; then
		echo "  QEMU    KVM works: using it" >&2
	else
		echo "  QEMU    KVM does not work here (probe failed or timed out): using TCG" >&2
	fi
	echo $a >"$BUILD/accel"
	echo $a
}

ACCEL=$(accel)
if [ "${ICOUNT:-0}" = 1 ]; then
	# Virtual time = guest instructions (1 ns each): timings become a
	# repeatable cost measure instead of host scheduling noise.
	ACCEL=tcg-icount
	accel_args="-accel tcg -icount shift=0,sleep=off"
elif [ "$ACCEL" = kvm ]; then
	accel_args="-accel kvm -cpu host"
else
	accel_args="-accel tcg,thread=multi"
fi

# The machine's PCI bus has about 30 free slots: the first 24 disks go
# there, the rest behind PCI-PCI bridges of 30 each (added after those 24,
# so that the guest enumerates them after them: vda.. keeps DISKS order).
DISKS_ON_BUS0=24
DISKS_PER_BRIDGE=30
disk_args=""
i=0
for d in ${DISKS:-}; do
	# suffixes, in any order: ":ro" read-only, ":4k" 4096-byte logical
	# (and physical) blocks, as on a 4Kn disk
	path=$d ro="" bs=""
	while :; do
		case "$path" in
		*:ro) path=${path%:ro} ro=",readonly=on" ;;
		*:4k) path=${path%:4k} bs=4096 ;;
		*) break ;;
		esac
	done
	[ -f "$path" ] || die "disk image $path does not exist"
	# -drive if=none + -device (not if=virtio): devices made by -device keep
	# the command line's order, so the disks are vda, vdb, ... in DISKS order
	bus=""
	if [ "$i" -ge "$DISKS_ON_BUS0" ]; then
		br=$(((i - DISKS_ON_BUS0) / DISKS_PER_BRIDGE + 1))
		[ $(((i - DISKS_ON_BUS0) % DISKS_PER_BRIDGE)) != 0 ] ||
			disk_args="$disk_args -device pci-bridge,id=hxbr$br,chassis_nr=$br,shpc=off"
		bus=",bus=hxbr$br"
	fi
	disk_args="$disk_args -drive file=$path,if=none,id=disk$i,format=raw,cache=unsafe$ro"
	disk_args="$disk_args -device virtio-blk-pci,drive=disk$i$bus${bs:+,logical_block_size=$bs,physical_block_size=$bs}"
	i=$((i + 1))
done

# pci=noacpi: PCI interrupt routing from the BIOS table instead of ACPI's
# _PRT method, whose AML loop timeout fires on a slow KASAN kernel under
# TCG with many disks (devices then get no IRQ); it also cuts the debug
# kernel's boot from about 150 s to 10 s here.
cmdline="console=ttyS0 panic=-1 printk.time=1 rcupdate.rcu_cpu_stall_timeout=300 pci=noacpi ${APPEND:-}"
[ "$MODE" = probe ] && cmdline="$cmdline quiet"

# sysrq_at_timeout SOCKET: after TIMEOUT seconds, Alt-SysRq-w, -t and -l on
# the guest's keyboard through the QEMU monitor at SOCKET.  Killed when QEMU
# ends first.
sysrq_at_timeout() {
	end=$(($(date +%s) + TIMEOUT))
	while [ "$(date +%s)" -lt "$end" ]; do
		sleep 2
	done
	: >"$dir/timed-out"
	echo "error: VM '$NAME' still runs after ${TIMEOUT}s: sysrq w, t, l on its keyboard, killed in 25 s" >&2
	python3 - "$1" <<'EOF' >/dev/null 2>&1 || true
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
for key in "wtl":
    s.sendall(b"sendkey alt-sysrq-" + key.encode() + b"\n")
    time.sleep(5)
EOF
}

say QEMU "$NAME: $V kernel, $ACCEL, $i disks, timeout ${TIMEOUT}s (logs: ${dir#"$TOP/"}/)"
set +e
if [ "${INTERACTIVE:-0}" = 1 ]; then
	# shellcheck disable=SC2086
	timeout --foreground -k 5 "$TIMEOUT" qemu-system-x86_64 $accel_args \
		-smp 2 -m "${MEM:-2048}" -nodefaults -display none -no-reboot \
		-kernel "$kernel" -initrd "$dir/initrd.cpio" -append "$cmdline" \
		-chardev "stdio,id=con,signal=off,logfile=$dir/console.log" -serial chardev:con \
		-chardev "file,id=res,path=$dir/results.log" -serial chardev:res \
		$disk_args ${QEMU_EXTRA:-}
	rc=$?
else
	mon=$(mktemp -u /tmp/hx-monitor.XXXXXX)	# a unix socket's path: 107 bytes at most
	rm -f "$dir/timed-out"
	sysrq_at_timeout "$mon" &
	watcher=$!
	# shellcheck disable=SC2086
	timeout -k 5 "$((TIMEOUT + 25))" qemu-system-x86_64 $accel_args \
		-smp 2 -m "${MEM:-2048}" -nodefaults -display none -no-reboot \
		-kernel "$kernel" -initrd "$dir/initrd.cpio" -append "$cmdline" \
		-chardev "file,id=con,path=$dir/console.log" -serial chardev:con \
		-chardev "stdio,id=res,logfile=$dir/results.log" -serial chardev:res \
		-monitor "unix:$mon,server=on,wait=off" \
		$disk_args ${QEMU_EXTRA:-} </dev/null
	rc=$?
	kill "$watcher" 2>/dev/null
	wait "$watcher" 2>/dev/null
	rm -f "$mon"
	[ ! -f "$dir/timed-out" ] || rc=124
fi
set -e
[ $rc = 124 ] && echo "error: VM '$NAME' did not power off within ${TIMEOUT}s and was killed; console: $dir/console.log" >&2
exit $rc
