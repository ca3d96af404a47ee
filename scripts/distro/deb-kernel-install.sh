#!/bin/sh
# shellcheck disable=SC2016 # dpkg-query formats, sh -c scripts: quoted on purpose
# deb-kernel-install.sh VARIANT: install the packages that deb-kernel.sh made
# (build/deb-kernel/VARIANT/linux-image-*-hx-VARIANT_*.deb and its
# linux-headers; run "make deb-kernel VARIANT=..." first) the way a Debian 12
# user would, with apt-get install ./*.deb, in a chroot: never on this host.
#
# The chroot is a minimal Debian 12 (debootstrap --variant=minbase bookworm
# from http://deb.debian.org/debian) with initramfs-tools, kmod, gcc and make
# installed by apt-get; it is made once and kept in
# build/deb-kernel/chroot-bookworm (made again when missing: delete it to
# start over), and each run works on a fresh copy of it in
# build/deb-kernel/VARIANT/chroot (removed after a run that passes, kept
# for a look after one that fails).  /proc, /sys and /dev are mounted in it
# for the run and unmounted on every exit path; a policy-rc.d denies every
# service start.  TAP checks: the packages install, dpkg says so, /boot has
# the vmlinuz and config, /lib/modules has modules.dep and depmod reads the
# tree, the package's postinst made /boot/initrd.img-KVER through
# initramfs-tools and it holds lib/modules/KVER (lsinitramfs), the headers
# in /usr/src/linux-headers-KVER build a hello module (make M=...) that
# modinfo reads with the kernel's vermagic, apt-get remove --purge takes the
# kernel and its modules away again, and the host's /boot is unchanged.
# Ends with "N passed, N failed"; exits 1 on a failure.  Needs root.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

V=${1:-${VARIANT:-default}}
case "$V" in default | rt) ;; *) die "deb-kernel-install: VARIANT must be default or rt, not '$V'" ;; esac
[ "$(id -u)" = 0 ] || die "deb-kernel-install: needs root (debootstrap, chroot, mount)"
"$S/build/deps.sh"  # debootstrap is in its list
dk=$BUILD/deb-kernel/$V
img="" hdr=""
for f in "$dk"/linux-image-*-hx-"$V"_*.deb; do
	case "$f" in *-dbg_*) ;; *) [ -f "$f" ] && img=$f ;; esac
done
for f in "$dk"/linux-headers-*-hx-"$V"_*.deb; do
	[ -f "$f" ] && hdr=$f
done
if [ -z "$img" ] || [ -z "$hdr" ]; then
	die "no linux-image/linux-headers-*-hx-${V}_*.deb in ${dk#"$TOP/"}: run 'make deb-kernel VARIANT=$V' first"
fi
ipkg=$(dpkg-deb -f "$img" Package)
hpkg=$(dpkg-deb -f "$hdr" Package)
ver=$(dpkg-deb -f "$img" Version)
k=${ipkg#linux-image-}

MIRROR=http://deb.debian.org/debian
cache=$BUILD/deb-kernel/chroot-bookworm
R=$dk/chroot
log=$LOGS/deb-kernel-install-$V.log
mkdir -p "$LOGS"
: >"$log"
start=$(date +%s)

# mounts_under DIR: the mount points at or below DIR, deepest first.
mounts_under() {
	awk -v d="$1" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/mounts | sort -r
}
umount_under() {
	for _m in $(mounts_under "$1"); do
		umount "$_m" 2>/dev/null || umount -l "$_m" || echo "warning: cannot unmount $_m" >&2
	done
}
# rm_tree DIR: remove a chroot tree, never through a mount (a bound /dev).
rm_tree() {
	umount_under "$1"
	[ -z "$(mounts_under "$1")" ] || die "still mounted under $1; not removing it"
	rm -rf --one-file-system "$1"
}
cleanup() {
	umount_under "$cache.tmp"
	umount_under "$R"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

mount_api() {
	mount -t proc proc "$1/proc"
	mount -t sysfs sysfs "$1/sys"
	mount --bind /dev "$1/dev"
	mount --bind /dev/pts "$1/dev/pts"
}
# in_chroot DIR CMD...: run CMD in the chroot DIR, output to the log.
in_chroot() {
	_dir=$1
	shift
	LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		chroot "$_dir" "$@" >>"$log" 2>&1
}

# The cached chroot, made once.
if [ ! -f "$cache/.hx-ready" ]; then
	say CHROOT "debootstrap --variant=minbase bookworm -> ${cache#"$TOP/"} (log: ${log#"$TOP/"})"
	[ ! -e "$cache" ] || rm_tree "$cache"
	[ ! -e "$cache.tmp" ] || rm_tree "$cache.tmp"
	t0=$(date +%s)
	debootstrap --variant=minbase bookworm "$cache.tmp" "$MIRROR" >>"$log" 2>&1 ||
		die "debootstrap failed; log: $log"
	cat >"$cache.tmp/usr/sbin/policy-rc.d" <<'EOF'
#!/bin/sh
# deb-kernel-install.sh: no service starts in this chroot.
exit 101
EOF
	chmod 755 "$cache.tmp/usr/sbin/policy-rc.d"
	printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb http://deb.debian.org/debian-security bookworm-security main\n' \
		"$MIRROR" "$MIRROR" >"$cache.tmp/etc/apt/sources.list"
	mount_api "$cache.tmp"
	say CHROOT "apt-get install initramfs-tools kmod gcc make"
	in_chroot "$cache.tmp" apt-get update || die "apt-get update in the chroot failed; log: $log"
	in_chroot "$cache.tmp" apt-get install -y initramfs-tools kmod gcc make ||
		die "apt-get install initramfs-tools kmod gcc make in the chroot failed; log: $log"
	in_chroot "$cache.tmp" apt-get clean
	umount_under "$cache.tmp"
	touch "$cache.tmp/.hx-ready"
	mv "$cache.tmp" "$cache"
	say TIME "chroot made in $(($(date +%s) - t0)) s, $(du -sm "$cache" | cut -f1) MB"
fi

say CHROOT "fresh copy -> ${R#"$TOP/"}"
[ ! -e "$R" ] || rm_tree "$R"
cp -a "$cache" "$R"
mount_api "$R"
boot_state() { find /boot -xdev -printf '%p %s %T@ %m\n' 2>/dev/null | sort | md5sum; }
boot_before=$(boot_state)
mkdir -p "$R/root/debs" "$R/root/hello"
cp "$img" "$hdr" "$R/root/debs/"
bimg=/root/debs/${img##*/}
bhdr=/root/debs/${hdr##*/}
cat >"$R/root/hello/hello.c" <<'EOF'
#include <linux/module.h>
#include <linux/init.h>
static int __init hello_init(void) { pr_info("hello\n"); return 0; }
static void __exit hello_exit(void) { }
module_init(hello_init);
module_exit(hello_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("deb-kernel-install.sh: a module built against the installed headers");
EOF
echo 'obj-m := hello.o' >"$R/root/hello/Kbuild"

. "$TOP/tests/include/tap.sh"
say APT "apt-get install -y ./${img##*/} ./${hdr##*/} (in the chroot)"
t0=$(date +%s)
irc=0
in_chroot "$R" apt-get install -y "$bimg" "$bhdr" || irc=$?
t_install=$(($(date +%s) - t0))
echo "# apt-get install: exit $irc, $t_install s"
check "apt-get install ./$ipkg ./$hpkg ($ver)" test "$irc" = 0
installed() { [ "$(chroot "$R" dpkg-query -W -f='${Status} ${Version}' "$1" 2>/dev/null)" = "install ok installed $ver" ]; }
check "dpkg-query: $ipkg $ver is installed" installed "$ipkg"
check "dpkg-query: $hpkg $ver is installed" installed "$hpkg"
check "/boot/vmlinuz-$k exists" test -s "$R/boot/vmlinuz-$k"
check "/boot/config-$k exists" test -s "$R/boot/config-$k"
check "/lib/modules/$k/modules.dep exists" test -s "$R/lib/modules/$k/modules.dep"
nmod=$(find "$R/lib/modules/$k" -name '*.ko*' | wc -l)
echo "# $nmod modules in /lib/modules/$k"
check "depmod -n $k reads the tree (modinfo ntfs3 names its file)" \
	sh -c 'chroot "$1" depmod -n "$2" >/dev/null 2>&1 && chroot "$1" modinfo -k "$2" -n ntfs3 >/dev/null 2>&1' _ "$R" "$k"
initrd=$R/boot/initrd.img-$k
made_by_postinst() {
	[ -s "$initrd" ] && sed -n "/^Setting up $ipkg /,/^Setting up /p" "$log" |
		tr -d '\r' | grep -q "^update-initramfs: Generating /boot/initrd.img-$k\$"
}
check "/boot/initrd.img-$k made by the package's postinst (update-initramfs)" made_by_postinst
lsi=$R/root/lsinitramfs.txt
chroot "$R" lsinitramfs "/boot/initrd.img-$k" >"$lsi" 2>>"$log" || :
echo "# initramfs: $(du -k "$initrd" 2>/dev/null | cut -f1) KiB, $(wc -l <"$lsi") entries, $(grep -c '\.ko' "$lsi") modules"
check "the initramfs holds lib/modules/$k (lsinitramfs)" grep -q "^usr/lib/modules/$k/\|^lib/modules/$k/" "$lsi"
check "/usr/src/linux-headers-$k has Makefile, .config or include/config/auto.conf, scripts/" \
	sh -c 'd=$1/usr/src/linux-headers-$2; [ -f "$d/Makefile" ] && [ -d "$d/scripts" ] &&
		{ [ -f "$d/.config" ] || [ -f "$d/include/config/auto.conf" ]; }' _ "$R" "$k"
# The headers' host programs (fixdep, modpost, objtool...) must run on a
# plain Debian 12 with only what the package depends on installed.
nf=$R/root/ldd-not-found.txt
chroot "$R" sh -c 'find "$1/scripts" "$1/tools" -type f -perm -u+x 2>/dev/null | while read -r f; do
	ldd "$f" 2>/dev/null | sed -n "s|^[[:space:]]*\([^ ]*\) => not found|${f#"$1/"}: \1|p"; done' _ "/usr/src/linux-headers-$k" >"$nf" || :
sed 's/^/# not found: /' "$nf"
check "the headers' programs find their shared libraries (ldd, $(wc -l <"$nf") missing)" test ! -s "$nf"
libs=$(sed 's/.*: //' "$nf" | sort -u)
if [ -n "$libs" ]; then
	# Go on with the module build: install what provides them, by hand.
	pkgs=""
	for l in $libs; do
		case "$l" in libelf.so.*) pkgs="$pkgs libelf1" ;; *) echo "# no package known for $l" ;; esac
	done
	echo "# $hpkg does not depend on what provides $(echo "$libs" | tr '\n' ' ')(Depends: $(dpkg-deb -f "$hdr" Depends)); installing$pkgs by hand to test the module build"
	# shellcheck disable=SC2086
	[ -z "$pkgs" ] || in_chroot "$R" apt-get install -y $pkgs || :
fi
echo "# $(chroot "$R" gcc --version | head -n 1); the kernel: $(sed -n 's/^CONFIG_CC_VERSION_TEXT=//p' "$R/boot/config-$k")"
brc=0
in_chroot "$R" make -C "/usr/src/linux-headers-$k" M=/root/hello modules || brc=$?
check "make -C /usr/src/linux-headers-$k M=hello modules builds hello.ko (exit $brc)" test -s "$R/root/hello/hello.ko"
vm=$(chroot "$R" modinfo -F vermagic /root/hello/hello.ko 2>/dev/null || :)
echo "# hello.ko vermagic: $vm"
check "hello.ko's vermagic starts with $k" test "${vm%% *}" = "$k"

t0=$(date +%s)
rrc=0
in_chroot "$R" apt-get remove -y --purge "$ipkg" "$hpkg" || rrc=$?
t_remove=$(($(date +%s) - t0))
check "apt-get remove -y --purge $ipkg $hpkg (exit $rrc, $t_remove s)" test "$rrc" = 0
check "/boot/vmlinuz-$k is gone" test ! -e "$R/boot/vmlinuz-$k"
check "/lib/modules/$k is gone" test ! -e "$R/lib/modules/$k"
check "/boot/initrd.img-$k is gone (postrm)" test ! -e "$initrd"
check "/usr/src/linux-headers-$k is gone" test ! -e "$R/usr/src/linux-headers-$k"
gone() { ! chroot "$R" dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q ' installed$'; }
check "dpkg-query: $ipkg no longer installed" gone "$ipkg"
boot_after=$(boot_state)
check "the host's /boot is unchanged" test "$boot_before" = "$boot_after"

cleanup
f=$tap_failed
# The copy stays for a look when a check failed; the next run replaces it.
[ "$f" != 0 ] || rm_tree "$R"
tap_done || :
say TIME "$(($(date +%s) - start)) s in all (install $t_install s, remove $t_remove s); log: ${log#"$TOP/"}"
echo "$((tap_n - f)) passed, $f failed"
[ "$f" = 0 ]
