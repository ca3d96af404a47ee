#!/bin/sh
# distro-headers.sh [FLAVOUR...]: build ntfs3/ with W=1 against every
# linux-headers-6.12.*-FLAVOUR package apt offers (default flavours: amd64
# rt-amd64), downloaded with apt-get download and unpacked under
# build/distro/ (nothing is installed on the host).  A build that fails or
# prints a warning fails the run.  TAP on stdout, one line per kernel, then
# a summary; logs in build/logs/distro-headers-KVER.log.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/distro-lib.sh"
. "$TOP/tests/include/tap.sh"

flavours=${*:-amd64 rt-amd64}

build_against() {
	k=$1
	out=$DISTRO/$k/module
	log=$LOGS/distro-headers-$k.log
	rm -rf "$out"
	mkdir -p "$out"
	cp "$TOP"/ntfs3/*.c "$TOP"/ntfs3/*.h "$TOP/ntfs3/Kbuild" "$out/"
	if ! make -C "$KHDR" M="$out" W=1 -j"$JOBS" modules >"$log" 2>&1; then
		tail -n 20 "$log" | sed 's/^/# /'
		return 1
	fi
	if grep -q 'warning:' "$log"; then
		grep 'warning:' "$log" | sed 's/^/# /'
		return 1
	fi
	[ "$(modinfo -F vermagic "$out/ntfs3.ko" | cut -d' ' -f1)" = "$k" ]
}

for fl in $flavours; do
	for abi in $(distro_versions "$fl"); do
		k=$abi-$fl
		distro_fetch "$k" >&2
		say BUILD "ntfs3 against linux-headers-$k (W=1)" >&2
		check "builds without warnings against linux-headers-$k" build_against "$k"
	done
done
tap_done
