#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The short form of make check-distro, for make check: ntfs3/ built by DKMS
# (private tree) against the headers of Debian's newest 6.12 amd64 kernel,
# downloaded with apt-get download and unpacked under build/distro (nothing
# installed on the host); no warnings; the module's vermagic and version.
# About a minute.  Skipped when apt offers no 6.12 headers (no
# bookworm-backports/-security in sources.list).  TAP on stdout.
. "$(dirname "$0")/../include/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
# lib.sh and distro-lib.sh as the scripts use them; lib.sh takes TOP from
# $0's directory, which is tests/ here: set BUILD before, TOP after.
BUILD=$top/build
. "$top/scripts/lib.sh"
TOP=$top
. "$top/scripts/distro/distro-lib.sh"

abi=$(distro_versions amd64 | tail -n 1)
if [ -z "$abi" ]; then
	echo "ok 1 - DKMS build against Debian's 6.12 headers # SKIP apt offers no linux-headers-6.12.*-amd64"
	echo "1..1"
	exit 0
fi
k=$abi-amd64
out=$LOGS/host-distro-dkms.log
# its own DKMS tree: make check-distro may be using the other one
DISTRO_DKMS_TREE=$BUILD/distro/host-dkms-$k

dkms_build() {
	(distro_fetch "$k" && distro_dkms_build "$k" &&
		echo "$DKO" >"$out.ko") >"$out" 2>&1
}

version_is_ours() {
	ko=$(cat "$out.ko") &&
		[ "$(modinfo -F version "$ko")" = "$(cat "$top/VERSION")" ] &&
		[ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$k" ]
}

check "dkms build (private tree) against Debian's linux-headers-$k, no warnings" dkms_build
check "the module is version $(cat "$top/VERSION") with vermagic $k" version_is_ours
[ "$tap_failed" = 0 ] || tail -n 20 "$out" | sed 's/^/# /'
tap_done
