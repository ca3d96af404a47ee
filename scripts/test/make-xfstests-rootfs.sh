#!/bin/sh
# make-xfstests-rootfs.sh SRC: the guest userspace of `make xfstests`, a
# Debian bookworm tree with fstests built from the source tree SRC, packed
# as build/xfstests-rootfs.cpio (uncompressed: the guest unpacks it into a
# tmpfs from a virtio disk; our kernels have no ext4, squashfs or 9p to
# mount a root filesystem from, but tmpfs and a raw disk always work).
#
# Two trees, both made by debootstrap from Debian's archive (the .debs are
# downloaded once, into build/xfstests-debs):
#   build/xfstests-buildroot  runtime + compilers and -dev packages; fstests
#                             is built there (in a chroot, so it links
#                             against bookworm's libraries, not the host's)
#   build/xfstests-rootfs     runtime packages only, plus /var/lib/xfstests
#                             copied from the build tree: what the VM gets
# Each stage is skipped when its stamp is newer than its inputs; a changed
# fstests commit (or tree) rebuilds fstests and the cpio only.
set -eu
. "$(dirname "$0")/../lib.sh"

XSRC=${1:?usage: make-xfstests-rootfs.sh XFSTESTS_SRC}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
R=$BUILD/xfstests-rootfs
B=$BUILD/xfstests-buildroot
DEBS=$BUILD/xfstests-debs
OUT=$BUILD/xfstests-rootfs.cpio
XLOG=$LOGS/xfstests-rootfs
mkdir -p "$DEBS" "$XLOG"

# What fstests runs in the guest (README of fstests, minus the parts our
# kernels cannot use: lvm2/dm, quota, dump/xfsdump, other filesystems'
# tools).  mkntfs comes with ntfs-3g.  minbase has neither mount nor procps.
RUNTIME_PKGS="bash perl gawk sed grep acl attr bc psmisc procps mount
util-linux kmod file xfsprogs e2fsprogs ntfs-3g fio uuid-runtime time
libcap2-bin libaio1 libgdbm6 libgdbm-compat4 liburing2 libacl1 libattr1
libuuid1 libcap2 python3"
BUILD_PKGS="build-essential autoconf automake libtool libtool-bin pkg-config
gettext xfslibs-dev uuid-dev libacl1-dev libattr1-dev libaio-dev libcap-dev
libgdbm-dev libgdbm-compat-dev liburing-dev"

command -v debootstrap >/dev/null 2>&1 || {
	say DEPS "installing debootstrap"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap \
		>"$XLOG/apt.log" 2>&1 || die "apt-get install debootstrap failed; log: $XLOG/apt.log"
}

# bootstrap DIR PKGS: a bookworm minbase tree with PKGS, unless DIR is done.
bootstrap() {
	dir=$1 pkgs=$(echo "$2" | tr -s ' \n' ',,' | sed 's/,$//')
	[ -f "$dir/.hx-bootstrapped" ] && [ "$(cat "$dir/.hx-bootstrapped")" = "$pkgs" ] && return
	say ROOTFS "debootstrap bookworm into ${dir#"$TOP/"} (a few minutes; log: ${XLOG#"$TOP/"}/$(basename "$dir").log)"
	rm -rf "$dir.new"
	run_logged debootstrap "$XLOG/$(basename "$dir").log" \
		debootstrap --variant=minbase --cache-dir="$DEBS" --include="$pkgs" \
		bookworm "$dir.new" "$MIRROR"
	# apt's lists and caches: not needed in the guest
	rm -rf "$dir.new/var/cache/apt/archives"/*.deb "$dir.new/var/lib/apt/lists"/*
	echo "$pkgs" >"$dir.new/.hx-bootstrapped"
	rm -rf "$dir"
	mv "$dir.new" "$dir"
}

bootstrap "$R" "$RUNTIME_PKGS"
bootstrap "$B" "$RUNTIME_PKGS $BUILD_PKGS"

# The fstests source: its commit (or, for a tree that is not a git
# checkout, the tree's newest file time) decides whether to rebuild.
if git -C "$XSRC" rev-parse HEAD >/dev/null 2>&1; then
	ver=$(git -C "$XSRC" rev-parse HEAD)
	[ -z "$(git -C "$XSRC" status --porcelain --untracked-files=no)" ] || ver="$ver-dirty-$(date +%s)"
else
	ver="tree-$(find "$XSRC" -type f -newer "$B/.hx-bootstrapped" | wc -l)-$(date -r "$XSRC" +%s)"
fi
if [ ! -f "$B/.hx-fstests" ] || [ "$(cat "$B/.hx-fstests")" != "$ver" ]; then
	say ROOTFS "building fstests $ver in the chroot (log: ${XLOG#"$TOP/"}/build.log)"
	rm -rf "$B/root/fstests" "$B/var/lib/xfstests" "$B/.hx-fstests"
	mkdir -p "$B/root/fstests"
	(cd "$XSRC" && tar -c --exclude=.git .) | tar -x -C "$B/root/fstests"
	# Plain chroot: the build needs no /proc or /dev beyond debootstrap's.
	run_logged "fstests build" "$XLOG/build.log" chroot "$B" /bin/sh -c \
		"cd /root/fstests && make -j$JOBS && make install"
	[ -x "$B/var/lib/xfstests/check" ] || die "fstests built but /var/lib/xfstests/check is missing; log: $XLOG/build.log"
	echo "$ver" >"$B/.hx-fstests"
fi

if [ ! -f "$OUT" ] || [ "$(cat "$OUT.version" 2>/dev/null)" != "$ver" ] ||
	[ -n "$(find "$R/.hx-bootstrapped" "$0" -newer "$OUT")" ]; then
	say ROOTFS "packing ${OUT#"$TOP/"}"
	rm -rf "$R/var/lib/xfstests"
	cp -a "$B/var/lib/xfstests" "$R/var/lib/xfstests"
	echo "$ver" >"$R/var/lib/xfstests/.hx-fstests-commit"
	# mkfs -t ntfs3 (fstests' generic mkfs path runs "mkfs -t $FSTYP --
	# $MKFS_OPTIONS DEV") is mkntfs: -F for a whole disk, -f (quick) so an
	# mkfs does not zero 1 GiB under TCG, -q.
	cat >"$R/usr/sbin/mkfs.ntfs3" <<'EOF'
#!/bin/sh
# fstests' mkfs for FSTYP=ntfs3 (scripts/test/make-xfstests-rootfs.sh)
exec /usr/sbin/mkntfs -F -f -q "$@"
EOF
	chmod 755 "$R/usr/sbin/mkfs.ntfs3"
	# The unprivileged users fstests' _require_user and friends look for.
	for u in fsgqa:1000 fsgqa2:1001 123456-fsgqa:123456; do
		grep -q "^${u%%:*}:" "$R/etc/passwd" && continue
		echo "${u%%:*}:x:${u#*:}:${u#*:}::/home/${u%%:*}:/bin/bash" >>"$R/etc/passwd"
		echo "${u%%:*}:x:${u#*:}:" >>"$R/etc/group"
		echo "${u%%:*}:*:20000:0:99999:7:::" >>"$R/etc/shadow"
		mkdir -p "$R/home/${u%%:*}"
		chown "${u#*:}:${u#*:}" "$R/home/${u%%:*}"
	done
	echo xfstests >"$R/etc/hostname"
	# Documentation and locales: not needed, and the guest holds all of it
	# in RAM.
	rm -rf "$R/usr/share/doc" "$R/usr/share/man" "$R/usr/share/info" \
		"$R/usr/share/locale" "$R/var/cache/debconf"/*-old
	(cd "$R" && find . -xdev | LC_ALL=C sort | cpio -o -H newc --quiet) >"$OUT.new"
	# a virtio disk's size is whole 512-byte sectors; cpio ignores the tail
	truncate -s %512 "$OUT.new"
	mv "$OUT.new" "$OUT"
	echo "$ver" >"$OUT.version"
fi
say ROOTFS "${OUT#"$TOP/"}: $(du -h "$OUT" | cut -f1), fstests $ver"
