#!/bin/sh
# deb-kernel-boot.sh VARIANT: a smoke boot of the package that
# deb-kernel.sh made (build/deb-kernel/VARIANT/linux-image-*-hx-VARIANT_*.deb;
# run "make deb-kernel VARIANT=..." first).  The .deb is unpacked with
# dpkg-deb -x (never installed) into build/deb-kernel/VARIANT/root; its
# /boot/vmlinuz boots in QEMU with an initramfs of busybox and the package's
# own loop, virtio_blk and ntfs3 modules (with what they depend on,
# decompressed, modules.dep from the host's depmod).  The guest prints
# uname -r and -v, /sys/kernel/realtime, loads those modules with modprobe,
# counts the threaded-IRQ kernel threads and prints /proc/sys/kernel/tainted,
# then powers off.  Passes when: the release is the package's, each module
# loads, the kernel is not tainted (so the modules carry a signature made by
# the build's key: an unsigned one taints with E), nothing on the console
# says Oops/BUG/WARNING, and for VARIANT=rt the kernel is PREEMPT_RT
# (uname -v says PREEMPT_RT; /sys/kernel/realtime must be 1 if it exists:
# this 6.12 tree does not have it, that file came with the out-of-tree RT
# patch set) and its IRQs are threaded; for default it is not PREEMPT_RT.
# The VM runs under flock /tmp/vm.lock (one VM at a time on this machine),
# TCG unless build/accel says kvm; console in
# build/logs/boot-deb-kernel-VARIANT/console.log.  The boot takes seconds
# under TCG (3 s for the trimmed rt package), plus the wait for the lock.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/distro-lib.sh"

V=${1:-default}
case "$V" in default | rt) ;; *) die "deb-kernel-boot: VARIANT must be default or rt, not '$V'" ;; esac
dk=$BUILD/deb-kernel/$V
deb=""
for f in "$dk"/linux-image-*-hx-"$V"_*.deb; do
	case "$f" in *-dbg_*) ;; *) [ -f "$f" ] && deb=$f ;; esac
done
[ -n "$deb" ] || die "no linux-image-*-hx-$V_*.deb in ${dk#"$TOP/"}: run 'make deb-kernel VARIANT=$V' first"
pkg=$(dpkg-deb -f "$deb" Package)
k=${pkg#linux-image-}
root=$dk/root
stage=$dk/initramfs
dir=$LOGS/boot-deb-kernel-$V
initrd=$dk/initramfs.cpio
MODULES="loop virtio_blk ntfs3"

say UNPACK "${deb#"$TOP/"} -> ${root#"$TOP/"}"
rm -rf "$root" "$stage" "$dir"
mkdir -p "$root" "$dir"
dpkg-deb -x "$deb" "$root" || die "dpkg-deb -x $deb failed"
kernel=$root/boot/vmlinuz-$k
mods=$root/lib/modules/$k
[ -f "$kernel" ] || die "${deb#"$TOP/"} has no /boot/vmlinuz-$k"
[ -f "$mods/modules.dep" ] || depmod -b "$root" "$k" || die "depmod -b $root $k failed"

mkdir -p "$stage/bin" "$stage/sbin" "$stage/proc" "$stage/sys" "$stage/dev" "$stage/hx" \
	"$stage/lib/modules/$k"
cp /bin/busybox "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
ln -s ../bin/busybox "$stage/sbin/modprobe"
echo "$MODULES" >"$stage/hx/modules"
# shellcheck disable=SC2086
stage_modules "$root" "$k" "$stage" $MODULES
depmod -b "$stage" "$k" || die "depmod -b $stage $k failed"
cat >"$stage/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "HX-SMOKE uname-r $(uname -r)"
echo "HX-SMOKE uname-v $(uname -v)"
echo "HX-SMOKE realtime $(cat /sys/kernel/realtime 2>/dev/null || echo absent)"
for m in $(cat /hx/modules); do
	if modprobe "$m"; then
		echo "HX-SMOKE modprobe $m ok"
	else
		echo "HX-SMOKE modprobe $m FAILED"
	fi
done
echo "HX-SMOKE irq-threads $(cat /proc/[0-9]*/comm 2>/dev/null | grep -c '^irq/')"
echo "HX-SMOKE tainted $(cat /proc/sys/kernel/tainted)"
echo "HX-SMOKE end"
poweroff -f
EOF
chmod 755 "$stage/init"
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$initrd"
n=$(find "$stage/lib/modules/$k" -name '*.ko' | wc -l)

accel="-accel tcg,thread=multi"
[ "$(cat "$BUILD/accel" 2>/dev/null)" = kvm ] && accel="-accel kvm -cpu host"
say QEMU "deb-kernel-$V: $k from ${deb#"$TOP/"}, ${accel#-accel }, $n modules (waits for /tmp/vm.lock; console: ${dir#"$TOP/"}/console.log)"
start=$(date +%s)
set +e
# shellcheck disable=SC2086,SC2016
flock /tmp/vm.lock sh -c 'date +%s >"$0"; exec "$@"' "$dir/locked" \
	timeout -k 5 "${TIMEOUT:-600}" qemu-system-x86_64 $accel \
	-smp 2 -m 1024 -nodefaults -display none -no-reboot \
	-kernel "$kernel" -initrd "$initrd" -append "console=ttyS0 panic=-1 printk.time=1" \
	-serial "file:$dir/console.log" </dev/null
rc=$?
set -e
locked=$(cat "$dir/locked" 2>/dev/null || echo "$start")
say TIME "boot $(($(date +%s) - locked)) s, after $((locked - start)) s waiting for /tmp/vm.lock"

fails=0
# check WHAT WHY-NOT CMD...: PASS when CMD succeeds, else FAIL (WHY-NOT).
check() {
	_what=$1 _why=$2
	shift 2
	if "$@"; then
		echo "PASS: $_what"
	else
		echo "FAIL: $_what ($_why)"
		fails=$((fails + 1))
	fi
}
log=$dir/console.log
val() { sed -n "s/^HX-SMOKE $1 //p" "$log" | tr -d '\r' | head -n 1; }
check "QEMU exits (poweroff)" "status $rc" [ $rc = 0 ]
check "the guest's init ran to the end" "no HX-SMOKE end on the console" grep -q '^HX-SMOKE end' "$log"
r=$(val uname-r)
check "uname -r is $k" "'$r'" [ "$r" = "$k" ]
uv=$(val uname-v)
rtval=$(val realtime)
irq=$(val irq-threads)
is_rt() { case "$uv" in *PREEMPT_RT*) return 0 ;; esac; return 1; }
not_rt() { ! is_rt; }
rt_file_ok() { [ "$rtval" = 1 ] || [ "$rtval" = absent ]; }
clean_console() { ! grep -E -q 'Oops|BUG:|WARNING:|Kernel panic' "$log"; }
if [ "$V" = rt ]; then
	check "uname -v says PREEMPT_RT" "'$uv'" is_rt
	check "/sys/kernel/realtime is 1 or absent ($rtval)" "'$rtval'" rt_file_ok
	check "IRQs are threaded (${irq:-0} irq/* threads)" "none" [ "${irq:-0}" -gt 0 ]
else
	check "uname -v does not say PREEMPT_RT" "'$uv'" not_rt
fi
for m in $MODULES; do
	check "modprobe $m (the package's module)" "failed; see the console" grep -q "^HX-SMOKE modprobe $m ok" "$log"
done
t=$(val tainted)
check "not tainted (signed modules)" "tainted=$t" [ "$t" = 0 ]
grep -E -m 5 'Oops|BUG:|WARNING:|Kernel panic' "$log" || true
check "no Oops/BUG/WARNING/panic on the console" "see ${log#"$TOP/"}" clean_console
grep -m 1 'Linux version' "$log" | sed 's/^\[[^]]*\] /  BOOTED  /' || true
[ $fails = 0 ] || die "smoke boot of $k: $fails check(s) failed; console: ${log#"$TOP/"}"
say DEB "smoke boot of $k passed"
