#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One version number: VERSION at the top of the tree.  The module's
# MODULE_VERSION (ntfs3/super.c), PACKAGE_VERSION of ntfs3/dkms.conf, the
# top entry of debian/changelog (a native package: no Debian revision) and
# fsck.ntfs3 -V (tools/Makefile reads VERSION) must all say the same.  To
# release: edit VERSION, then scripts/build/set-version.sh.  TAP on stdout.
. "$(dirname "$0")/../include/tap.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
v=$(cat "$top/VERSION")
modv=$(sed -n 's/^MODULE_VERSION("\(.*\)");/\1/p' "$top/ntfs3/super.c")
dkmsv=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/ntfs3/dkms.conf")
debv=$(sed -n '1s/^ntfs3 (\([^)]*\)).*/\1/p' "$top/debian/changelog")

agrees() {
	[ "$2" = "$v" ] && return 0
	echo "# $1 says '$2', VERSION says '$v' (scripts/build/set-version.sh fixes it)"
	return 1
}

fsck_agrees() {
	b=$top/build/tools/fsck.ntfs3
	# not built yet, or built before VERSION changed: build it here
	if [ ! -x "$b" ] || [ "$top/VERSION" -nt "$b" ]; then
		make -s -C "$top/tools" O="$top/build/tools" >/dev/null 2>&1 || {
			echo "# could not build fsck.ntfs3 (make tools)"
			return 1
		}
	fi
	out=$("$b" -V 2>&1)
	case "$out" in
	*"$v"*) return 0 ;;
	esac
	echo "# fsck.ntfs3 -V says '$out'"
	return 1
}

is_version() {
	expr "$v" : '[0-9][0-9]*\.[0-9][0-9.]*$' >/dev/null
}

check "VERSION is a version number ($v)" is_version
check "MODULE_VERSION in ntfs3/super.c" agrees MODULE_VERSION "$modv"
check "PACKAGE_VERSION in ntfs3/dkms.conf" agrees dkms.conf "$dkmsv"
check "debian/changelog's newest entry" agrees debian/changelog "$debv"
check "fsck.ntfs3 -V" fsck_agrees
tap_done
