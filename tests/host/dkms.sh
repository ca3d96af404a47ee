#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ntfs3/ installs with DKMS: "dkms add" and "dkms build" of ntfs3/dkms.conf
# against a kernel built here (kernel-debug, else kernel-default), in a
# private DKMS tree under build/dkms (nothing is installed on the host, and
# nothing is loaded into the host's kernel).  TAP on stdout.
. "$(dirname "$0")/../include/tap.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
t=$top/build/dkms
kdir=""
for v in debug default; do
	[ -f "$top/build/kernel-$v/Module.symvers" ] && { kdir=$top/build/kernel-$v; break; }
done
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/ntfs3/dkms.conf")

dkms_private() {
	dkms "$@" --dkmstree "$t/tree" --sourcetree "$t/src" --installtree "$t/inst" \
		-m ntfs3 -v "$ver" >>"$t/log" 2>&1
}

setup() {
	rm -rf "$t"
	mkdir -p "$t/src" "$t/tree" "$t/inst"
	cp -r "$top/ntfs3" "$t/src/ntfs3-$ver"
	rm -f "$t/src/ntfs3-$ver"/*.o "$t/src/ntfs3-$ver"/*.ko
}

built_module() {
	ko=$(find "$t/tree" -name 'ntfs3.ko*' | head -n 1)
	[ -n "$ko" ] && modinfo "$ko" | grep -q '^alias: *fs-ntfs3$'
}

if [ -z "$kdir" ]; then
	check "a kernel is built to run DKMS against" false
elif ! command -v dkms >/dev/null; then
	check "dkms is installed (scripts/build/deps.sh)" false
else
	kver=$(cat "$kdir/include/config/kernel.release")
	setup
	check "dkms.conf names package version $ver" test -n "$ver"
	check "dkms add" dkms_private add
	check "dkms build against $kver" dkms_private build -k "$kver" --kernelsourcedir "$kdir"
	check "the built module is our ntfs3 (alias fs-ntfs3)" built_module
	[ "$tap_failed" = 0 ] || sed 's/^/# /' "$t/log" | tail -n 20
fi
tap_done
