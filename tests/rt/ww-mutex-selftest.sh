#!/bin/sh
# The tree's test-ww_mutex module: loads (its init runs every sub-test) and
# reports "All ww mutex selftests passed"; unloads.
. /tests/include/tap.sh
ko=/lib/modules/kernel/test-ww_mutex.ko

echo "hx: test-ww_mutex begin" >/dev/kmsg
loaded() {
	insmod "$ko"
}

reported() {
	dmesg | sed -n '/hx: test-ww_mutex begin/,$p' | grep -q 'All ww mutex selftests passed'
}

check "test-ww_mutex.ko is in the initramfs" [ -f "$ko" ]
start=$(date +%s)
check "insmod test-ww_mutex (init runs the self-tests, returns 0)" loaded
echo "# test-ww_mutex took $(($(date +%s) - start)) s"
check "test-ww_mutex reports: All ww mutex selftests passed" reported
check "rmmod test-ww_mutex" rmmod test_ww_mutex
dmesg | sed -n '/hx: test-ww_mutex begin/,$p' | grep -i 'ww' | sed 's/^/# /' | tail -n 5
tap_done
