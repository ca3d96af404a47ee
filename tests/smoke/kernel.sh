#!/bin/sh
# The VM runs the kernel this harness built: 6.12, our build user and host.
. /tests/include/tap.sh

is_612() {
	case $(uname -r) in 6.12.*) true ;; *) false ;; esac
}

check "kernel is 6.12 ($(uname -r))" is_612
check "kernel built by the harness" grep -q "harness@qemu" /proc/version
check "2 CPUs online ($(nproc))" [ "$(nproc)" = 2 ]
check "test channel is the second serial port" [ -c /dev/ttyS1 ]
tap_done
