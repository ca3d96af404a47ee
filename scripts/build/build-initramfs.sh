#!/bin/sh
# build-initramfs.sh VARIANT: busybox, /init, the test programs and the
# modules built for VARIANT, as an uncompressed cpio (no decompression cost
# under TCG): build/initramfs-VARIANT.cpio.  Per-boot settings are appended
# by scripts/vm/vm.sh as a second small archive.
set -eu
. "$(dirname "$0")/../lib.sh"

V=${1:?usage: build-initramfs.sh VARIANT}
kout=$(kernel_out "$V")
stage=$BUILD/initramfs-$V
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/hx" "$stage/tests" "$stage/proc" "$stage/sys" \
	"$stage/dev" "$stage/tmp" "$stage/mnt" "$stage/root" \
	"$stage/lib/modules/ours" "$stage/lib/modules/intree" \
	"$stage/lib/modules/test" "$stage/lib/modules/kernel"

cp /bin/busybox "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
file -L "$stage/bin/busybox" 2>/dev/null | grep -q 'statically linked' ||
	die "/bin/busybox is not static; install busybox-static"
install -m 755 "$TOP/tests/vm/init" "$stage/init"
install -m 755 "$TOP/tests/vm/run-tests" "$TOP/tests/vm/load-modules" "$stage/hx/"
cp -a "$BUILD/tests/." "$stage/tests/"

# rt-tests (Debian's package, dynamically linked) for tests/rt and
# bench/rt: the programs with their shared libraries and the ELF loader.
for prog in pi_stress pip_stress cyclictest signaltest hackbench; do
	copy_program "$prog" "$stage" || true
done

# In-tree modules of this kernel; ntfs3 apart, as the reference driver.
find "$kout" -name '*.ko' ! -path '*/modules-*' | while read -r ko; do
	case "$ko" in
	*/fs/ntfs3/ntfs3.ko) cp "$ko" "$stage/lib/modules/intree/" ;;
	*) cp "$ko" "$stage/lib/modules/kernel/" ;;
	esac
done
cp "$BUILD/modules-$V/ntfs3/ntfs3.ko" "$stage/lib/modules/ours/"
for ko in "$BUILD/modules-$V"/test-*/*.ko; do
	[ -f "$ko" ] && cp "$ko" "$stage/lib/modules/test/"
done

(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) \
	>"$BUILD/initramfs-$V.cpio"
say INITRD "$V: $(du -h "$BUILD/initramfs-$V.cpio" | cut -f1) ($(find "$stage/tests" -type f | wc -l) test files)"
