#!/bin/sh
# deb-kernel.sh VARIANT: a Debian package of our patched kernel, for users
# who want futex2 sizes (VARIANT=default) or our PREEMPT_RT layer
# (VARIANT=rt), made by the tree's own "make bindeb-pkg".
# The config is Debian's: the config of Debian's linux-image of the same
# 6.12 version as the tree (amd64 for default, rt-amd64 for rt; downloaded
# with apt-get download, never installed), with only these changes:
#   LOCALVERSION=-hx-VARIANT   the kernel never takes the name of Debian's
#   SYSTEM_TRUSTED_KEYS=""      Debian's certificate file is not in the tree
#   SYSTEM_REVOCATION_KEYS=""   (modules are signed with a key made at build)
#   DEBUG_INFO_NONE=y           no -dbg package (Debian's is 1 GB and hours
#                               of extra build here); so no BTF either
# DEB_KERNEL_TRIM=1 also runs localmodconfig with the modules a test boot
# needs (virtio, loop, NLS, ntfs3, ext4, vfat; fuse is built in): 17
# modules instead of about 4000, for a quick check that the packaging
# works, not for users.
# Host packages: deps.sh's list plus debhelper (bindeb-pkg's
# Build-Depends), installed with apt by scripts/build/deps.sh.
# The tree is exported from build/src/linux's "series" branch into
# build/deb-kernel/VARIANT/src, so builds elsewhere (make check,
# check-series, which walks that tree) cannot change it under this one;
# output in build/deb-kernel/VARIANT/ (linux-image-, linux-headers- and
# linux-libc-dev .debs), log in build/logs/deb-kernel-VARIANT.log; runs
# under nice -n 19.  Measured (docs/install.md): DEB_KERNEL_TRIM=1 rt,
# 44 min on 2 shared cores with an empty ccache (about 2700 objects); the
# full Debian config is about 15 000 objects, estimated at 2.5-5 hours.
# "make deb-kernel-boot" (deb-kernel-boot.sh) then boots the package's
# kernel and modules in QEMU.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/distro-lib.sh"

V=${1:-default}
case "$V" in
default) fl=amd64 ;;
rt) fl=rt-amd64 ;;
*) die "deb-kernel: VARIANT must be default (futex2 sizes) or rt (PREEMPT_RT layer), not '$V'" ;;
esac
dk=$BUILD/deb-kernel/$V
out=$dk/build
log=$LOGS/deb-kernel-$V.log

# bindeb-pkg's dpkg-buildpackage checks the Build-Depends that the tree's
# scripts/package/mkdebian writes: debhelper-compat (= 12), i.e. debhelper,
# besides bc, bison, cpio, flex, gcc, kmod, libelf-dev, libssl-dev, rsync
# (all in deps.sh's own list); its debian/rules runs the dh_* commands.
"$TOP/scripts/build/deps.sh" debhelper
QUIET=1 "$TOP/scripts/build/tree.sh"
pv=$(pkg_version)		# e.g. 6.12.118-1~deb12u1
up=${pv%%-*}			# 6.12.118
abi=$(distro_versions "$fl" | grep -x "$up+deb[0-9]*" | tail -n 1 || true)
if [ -z "$abi" ]; then
	abi=$(distro_abi "$fl")
	say CONFIG "apt offers no $fl kernel $up (the tree's version); using the config of $abi"
fi
k=$abi-$fl
distro_fetch "$k" image
dconf=$DROOT/boot/config-$k
[ -f "$dconf" ] || die "Debian's image $k has no /boot/config-$k"

series=$(git -C "$SRC" rev-parse series)
if [ "$(cat "$dk/src/.hx-series" 2>/dev/null)" != "$series" ]; then
	say TREE "exporting the series ($(git -C "$SRC" log -1 --format=%h series)) into ${dk#"$TOP/"}/src"
	rm -rf "$dk/src"
	mkdir -p "$dk/src"
	git -C "$SRC" archive series | tar -x -C "$dk/src" || die "git archive of $SRC failed"
	echo "$series" >"$dk/src/.hx-series"
fi

# The headers package carries programs (objtool: libelf, zlib; sign-file:
# libcrypto) but mkdebian gives it no Depends, so a minimal Debian 12
# could not build a module against it (make deb-kernel-install found it;
# Debian's own linux-kbuild package depends on the same libraries).
mkdeb=$dk/src/scripts/package/mkdebian
if ! grep -q '^Depends: libc6, libelf1, libssl3, zlib1g$' "$mkdeb"; then
	sed -i '/^Package: linux-headers-\$version$/{n;s/^\(Architecture: .*\)$/\1\nDepends: libc6, libelf1, libssl3, zlib1g/}' \
		"$mkdeb"
	grep -q '^Depends: libc6, libelf1, libssl3, zlib1g$' "$mkdeb" ||
		die "could not give the headers package its Depends in $mkdeb"
fi

mkdir -p "$out"
kmake() {
	nice -n 19 make -C "$dk/src" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}
export KBUILD_BUILD_USER=ntfs3 KBUILD_BUILD_HOST=deb-kernel
export CCACHE_SLOPPINESS=time_macros CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}

say CONFIG "$V: Debian's config-$k, LOCALVERSION=-hx-$V${DEB_KERNEL_TRIM:+, trimmed (localmodconfig)}"
cp "$dconf" "$out/.config"
"$dk/src/scripts/config" --file "$out/.config" \
	--set-str LOCALVERSION "-hx-$V" --disable LOCALVERSION_AUTO \
	--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
	--set-str MODULE_SIG_KEY "certs/signing_key.pem" \
	--disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT --disable DEBUG_INFO_DWARF4 \
	--disable DEBUG_INFO_DWARF5 --enable DEBUG_INFO_NONE --disable DEBUG_INFO_BTF
if [ "${DEB_KERNEL_TRIM:-0}" = 1 ]; then
	lsmod=$dk/lsmod
	echo "Module Size Used" >"$lsmod"
	for m in virtio_blk virtio_pci loop fuse ntfs3 nls_utf8 nls_iso8859_1 nls_cp437 \
		virtio_net ext4 vfat; do
		echo "$m 0 0" >>"$lsmod"
	done
	run_logged "localmodconfig ($V)" "$log" kmake LSMOD="$lsmod" localmodconfig
fi
run_logged "olddefconfig ($V)" "$log" kmake olddefconfig
for want in "CONFIG_LOCALVERSION=\"-hx-$V\"" CONFIG_DEBUG_INFO_NONE=y; do
	grep -qx "$want" "$out/.config" || die "config ($V): $want did not survive olddefconfig"
done
if [ "$V" = rt ]; then
	grep -qx CONFIG_PREEMPT_RT=y "$out/.config" || die "config ($V): CONFIG_PREEMPT_RT is not set"
fi

kver=$(kmake -s kernelrelease)
say BUILD "$V: bindeb-pkg of $kver in ${out#"$TOP/"} (log: ${log#"$TOP/"}; hours with the full config)"
start=$(date +%s)
rm -f "$dk"/*.deb "$dk"/*.buildinfo "$dk"/*.changes
build_progress "bindeb-pkg ($V)" 60 "$log" kmake -j"$JOBS" KDEB_PKGVERSION="$pv+hx1" bindeb-pkg
for f in "$dk"/linux-image-"$kver"_*.deb "$dk"/linux-headers-"$kver"_*.deb; do
	[ -f "$f" ] || die "bindeb-pkg ($V) made no $(basename "$f"); log: $log"
	say DEB "${f#"$TOP/"} ($(du -h "$f" | cut -f1))"
done
say BUILD "$V: done in $(($(date +%s) - start)) s"
