#!/bin/sh
# distro-initramfs.sh KVER NTFS3_KO: the initramfs that boots Debian's own
# kernel KVER (unpacked by check-distro.sh under build/distro/KVER/root):
# our usual test userspace (busybox, tests/vm, build/tests) plus the image's
# own modules a test boot needs (virtio_blk, loop, the NLS tables and their
# dependencies, decompressed) in /lib/modules/KVER, the stock ntfs3 at its
# place (kernel/fs/ntfs3) and ours where DKMS installs it (updates/dkms),
# with modules.dep from the host's depmod, which ranks updates/ first as on
# a Debian system.  Also /lib/modules/ours and /lib/modules/intree as the
# NTFS suites expect them.  Writes build/initramfs-distro-KVER.cpio and
# build/kernel-distro-KVER/arch/x86/boot/bzImage (Debian's vmlinuz), the
# names scripts/vm/vm.sh boots as VARIANT distro-KVER.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/distro-lib.sh"

k=${1:?usage: distro-initramfs.sh KVER NTFS3_KO}
ko=${2:?usage: distro-initramfs.sh KVER NTFS3_KO}
root=$BUILD/distro/$k/root
mods=$root/lib/modules/$k
stage=$BUILD/distro/$k/stage
[ -f "$root/boot/vmlinuz-$k" ] || die "no Debian kernel image unpacked in $root (scripts/distro/check-distro.sh unpacks it)"
BOOT_MODULES="virtio_blk loop"

# modules.dep of the image itself (Debian's postinst makes it on install)
[ -f "$mods/modules.dep" ] || depmod -b "$root" "$k" || die "depmod -b $root $k failed"

rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/sbin" "$stage/hx" "$stage/tests" "$stage/proc" "$stage/sys" \
	"$stage/dev" "$stage/tmp" "$stage/mnt" "$stage/root" \
	"$stage/lib/modules/ours" "$stage/lib/modules/intree" "$stage/lib/modules/test" \
	"$stage/lib/modules/$k/updates/dkms"
cp /bin/busybox "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
# request_module() runs /sbin/modprobe (iocharset= loads nls_*)
ln -s ../bin/busybox "$stage/sbin/modprobe"
install -m 755 "$TOP/tests/vm/init-distro" "$stage/init"
install -m 755 "$TOP/tests/vm/init" "$stage/hx/init-vm"
install -m 755 "$TOP/tests/vm/run-tests" "$TOP/tests/vm/load-modules" "$stage/hx/"
cp -a "$BUILD/tests/." "$stage/tests/"
echo "$BOOT_MODULES" >"$stage/hx/boot-modules"
{
	echo "HX_DISTRO_KVER='$k'"
	echo "HX_NTFS3_VERSION='$(modinfo -F version "$ko")'"
} >"$stage/hx/distro-env"

# The modules, with everything they depend on, decompressed (busybox's
# modprobe and insmod hand the file to init_module as it is).
want="$BOOT_MODULES ntfs3"
for f in "$mods"/kernel/fs/nls/*.ko*; do
	want="$want $(basename "${f%%.ko*}")"
done
# shellcheck disable=SC2086
stage_modules "$root" "$k" "$stage" $want
cp "$ko" "$stage/lib/modules/$k/updates/dkms/ntfs3.ko"
cp "$ko" "$stage/lib/modules/ours/ntfs3.ko"
cp "$stage/lib/modules/$k/kernel/fs/ntfs3/ntfs3.ko" "$stage/lib/modules/intree/ntfs3.ko"
depmod -b "$stage" "$k" || die "depmod -b $stage $k failed"
grep -q '^updates/dkms/ntfs3.ko:' "$stage/lib/modules/$k/modules.dep" ||
	die "depmod did not rank updates/dkms/ntfs3.ko first in $stage/lib/modules/$k/modules.dep"
n=$(find "$stage/lib/modules/$k" -name '*.ko' | wc -l)

(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) \
	>"$BUILD/initramfs-distro-$k.cpio"
mkdir -p "$BUILD/kernel-distro-$k/arch/x86/boot"
cp "$root/boot/vmlinuz-$k" "$BUILD/kernel-distro-$k/arch/x86/boot/bzImage"
say INITRD "distro-$k: $(du -h "$BUILD/initramfs-distro-$k.cpio" | cut -f1), $n of Debian's modules + ours"
