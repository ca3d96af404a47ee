#!/bin/sh
# distro-deb-test.sh KVER: the ntfs3-dkms package on a Debian 12 system with
# Debian's kernel KVER, the way a user installs it, in a chroot (nothing is
# installed on the host, nothing is loaded into any kernel):
#   a bookworm minbase tree (debootstrap, once: build/distro/chroot) with
#   dkms and the compilers; KVER's linux-image and linux-headers installed
#   in it from the .debs check-distro.sh downloaded; then
#   apt install ./ntfs3-dkms_*.deb  -> DKMS builds and installs our module
#   modinfo -k KVER ntfs3             -> updates/dkms/ntfs3.ko, our version
#   apt purge ntfs3-dkms              -> modinfo finds the stock module again
# TAP framed as one harness test (distro/dkms-deb) on stdout; exits 1 on a
# failure.  Needs build/deb (make deb) and build/distro/KVER (check-distro).
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/distro-lib.sh"
. "$TOP/tests/include/tap.sh"

k=${1:?usage: distro-deb-test.sh KVER}
R=$DISTRO/chroot
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
PKGS="dkms,kmod,linux-base,initramfs-tools,gcc,gcc-12,make,dpkg-dev,patch,dwarves,libelf1,libssl3,zlib1g,apt"
ver=$(cat "$TOP/VERSION")
deb=$(ls "$BUILD/deb/ntfs3-dkms_${ver}_all.deb" 2>/dev/null) || die "no build/deb/ntfs3-dkms_${ver}_all.deb: run make deb"
log=$LOGS/distro-deb-chroot.log
: >"$log"

if [ "$(cat "$R/.hx-bootstrapped" 2>/dev/null)" != "$PKGS" ]; then
	command -v debootstrap >/dev/null 2>&1 ||
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >>"$log" 2>&1 ||
		die "apt-get install debootstrap failed; log: $log"
	say ROOTFS "debootstrap bookworm into ${R#"$TOP/"} (a few minutes; log: ${log#"$TOP/"})" >&2
	rm -rf "$R.new"
	mkdir -p "$DISTRO/bootstrap-debs"
	debootstrap --variant=minbase --cache-dir="$DISTRO/bootstrap-debs" --include="$PKGS" \
		bookworm "$R.new" "$MIRROR" >>"$log" 2>&1 || {
		tail -n 20 "$log" >&2
		die "debootstrap failed; log: $log"
	}
	echo "$PKGS" >"$R.new/.hx-bootstrapped"
	rm -rf "$R"
	mv "$R.new" "$R"
fi

# /proc for dkms and apt's scripts, unmounted whatever happens.
mount -t proc proc "$R/proc"
trap 'umount "$R/proc" 2>/dev/null || true' EXIT INT TERM

in_chroot() {
	echo "+ $*" >>"$log"
	chroot "$R" env DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@" >>"$log" 2>&1
}

# The kernel, installed as Debian's own packages (the .debs check-distro.sh
# downloaded), unless it is already there.
distro_fetch "$k" image
if ! chroot "$R" dpkg-query -W -f='${Status}\n' "linux-headers-$k" 2>/dev/null | grep -q 'ok installed'; then
	say APT "installing Debian's $k image and headers in the chroot" >&2
	rm -rf "$R/tmp/debs"
	mkdir -p "$R/tmp/debs"
	# shellcheck disable=SC2086
	cp $DEBS_USED "$R/tmp/debs/"
	in_chroot sh -c 'apt-get install -y --no-install-recommends /tmp/debs/*.deb' || {
		tail -n 20 "$log" >&2
		die "installing the kernel packages in the chroot failed; log: $log"
	}
fi
in_chroot apt-get purge -y ntfs3-dkms || true
cp "$deb" "$R/tmp/"
b=$(basename "$deb")

filename() {
	chroot "$R" modinfo -k "$k" -F filename ntfs3 2>/dev/null
}

# module_in DIR: modinfo resolves ntfs3 to DIR/ntfs3.ko (maybe compressed).
module_in() {
	f=$(filename)
	echo "# modinfo -k $k ntfs3: $f"
	case "$f" in "/lib/modules/$k/$1/ntfs3.ko"*) return 0 ;; esac
	return 1
}

our_version() {
	v=$(chroot "$R" modinfo -k "$k" -F version ntfs3 2>/dev/null)
	echo "# version: '$v'"
	[ "$v" = "$ver" ]
}

same_as_private() {
	a=$(chroot "$R" modinfo -k "$k" -F srcversion ntfs3 2>/dev/null)
	p=$(find "$DISTRO/$k/dkms/tree" -name ntfs3.ko | head -n 1)
	[ -n "$p" ] || return 0
	echo "# srcversion $a, private DKMS build $(modinfo -F srcversion "$p")"
	[ "$a" = "$(modinfo -F srcversion "$p")" ]
}

dkms_installed() {
	s=$(chroot "$R" dkms status ntfs3 2>&1)
	echo "# dkms status: $s"
	case "$s" in *"$ver"*"$k"*installed*) return 0 ;; esac
	return 1
}

modprobe_resolves_ours() {
	chroot "$R" modprobe -S "$k" --show-depends ntfs3 2>/dev/null | grep -q "/updates/dkms/ntfs3.ko"
}


no_leftovers() {
	[ -z "$(find "$R/lib/modules/$k/updates" -name 'ntfs3.ko*' 2>/dev/null)" ] &&
		[ ! -e "$R/usr/src/ntfs3-$ver" ] && [ ! -e "$R/var/lib/dkms/ntfs3" ]
}

echo "# HX-TEST distro/dkms-deb"
check "stock ntfs3 before: kernel/fs/ntfs3" module_in kernel/fs/ntfs3
check "apt install ./$b (DKMS builds for $k)" in_chroot apt-get install -y "/tmp/$b"
check "dkms status: ntfs3 $ver installed for $k" dkms_installed
check "modinfo -k $k ntfs3 is updates/dkms/ntfs3.ko" module_in updates/dkms
check "its version is $ver" our_version
check "modprobe --show-depends ntfs3 resolves to ours" modprobe_resolves_ours
check "same srcversion as the private DKMS build" same_as_private
check "apt purge ntfs3-dkms" in_chroot apt-get purge -y ntfs3-dkms
check "modinfo -k $k ntfs3 is the stock module again" module_in kernel/fs/ntfs3
check "nothing left in updates/, /usr/src, /var/lib/dkms" no_leftovers
[ "$tap_failed" = 0 ] || tail -n 30 "$log" | sed 's/^/# /'
set +e
tap_done
rc=$?
echo "# HX-END distro/dkms-deb exit=$rc"
exit $rc
