#!/bin/sh
# Install the host packages the build and the tests need, from Debian's apt
# archive only.  Quiet when everything is already there.
# deps.sh PKG...: also these, for a target that alone needs them (e.g.
# deb-kernel.sh: debhelper for the tree's bindeb-pkg).
set -eu

PKGS="build-essential flex bison bc libelf-dev libssl-dev dwarves ccache cpio
kmod git rsync xz-utils file python3 sparse gcc-multilib
qemu-system-x86 busybox-static linux-source-6.12
ntfs-3g libfsntfs-utils fuse3 attr forensics-samples-ntfs liburing-dev python3-ply python3-git
dkms rt-tests fio debootstrap
$*"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "  DEPS    installing:$missing"
if [ "$(id -u)" != 0 ]; then
	echo "deps: need root to apt-get install:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || apt-get update
# shellcheck disable=SC2086
if ! apt-get install -y -qq --no-install-recommends $missing >/tmp/deps-apt.log 2>&1; then
	tail -20 /tmp/deps-apt.log >&2
	echo "deps: apt-get install failed; full log in /tmp/deps-apt.log" >&2
	exit 1
fi
