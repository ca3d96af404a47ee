#!/bin/sh
# check-distro.sh: our ntfs3 on Debian's own 6.12 kernel (docs/install.md).
#  1. apt-get download (no install on the host) linux-image-KVER-unsigned
#     and linux-headers-KVER of the newest 6.12 amd64 kernel apt offers, or
#     of DISTRO_KERNEL (e.g. 6.12.115), and unpack them under build/distro/;
#  2. build ntfs3/ with DKMS against those headers in a private DKMS tree
#     (no warnings allowed); DISTRO_FLAVOUR=rt-amd64 takes the PREEMPT_RT
#     kernel instead (then the package test is skipped);
#  3. boot Debian's vmlinuz in QEMU with an initramfs of the image's own
#     modules plus ours in updates/dkms (scripts/distro/distro-initramfs.sh) and run
#     the suites in DISTRO_SUITES (default "distro ntfs-read") on the NTFS
#     test images, judged like make check;
#  4. compare the NTFS results with those of our kernel (the last make check
#     boot, build/logs/boot-check-debug; DISTRO_REF=default boots our
#     default kernel for a fresh reference instead);
#  5. the Debian package test (scripts/distro/distro-deb-test.sh): in a bookworm
#     chroot with that kernel installed, "apt install ./ntfs3-dkms_*.deb"
#     builds and installs our module, modinfo/modprobe resolve ntfs3 to it,
#     removing the package brings the stock module back (DISTRO_DEB=0
#     skips it).
# Ends with "N passed, N failed, N skipped" like make check.
# "check-distro.sh prepare" stops after step 3's initramfs (see below).
set -eu
. "$(dirname "$0")/../lib.sh"
. "$S/distro/distro-lib.sh"
. "$S/test/ntfs-disks.sh"
. "$S/vm/harness.sh"
SUITES=${DISTRO_SUITES:-distro ntfs-read}
start=$(date +%s)
status=0

"$S/build/deps.sh"
fl=${DISTRO_FLAVOUR:-amd64}
abi=$(distro_abi "$fl" "${DISTRO_KERNEL:-}")
k=$abi-$fl
TALLY=$LOGS/distro-tally-$k
: >"$TALLY"
pv=$(apt-cache show --no-all-versions "linux-headers-$k" | sed -n 's/^Version: //p')
say DISTRO "Debian kernel $k (package version $pv); offered: $(distro_versions "$fl" | tr '\n' ' ')"
distro_fetch "$k" image
distro_dkms_build "$k"
say DKMS "$(modinfo -F version "$DKO") for $(modinfo -F vermagic "$DKO" | cut -d' ' -f1): ${DKO#"$TOP/"}"
"$S/build/build-tests.sh"
"$S/distro/distro-initramfs.sh" "$k" "$DKO"

# "check-distro.sh prepare": only the above, for a boot of VARIANT
# "distro" by scripts/test/check.sh (CHECK_BOOTS="... distro:distro,ntfs-read";
# scripts/build/prepare.sh calls this): build/kernel-distro and
# build/initramfs-distro.cpio name this kernel's.
if [ "${1:-}" = prepare ]; then
	ln -sfn "kernel-distro-$k" "$BUILD/kernel-distro"
	ln -sf "initramfs-distro-$k.cpio" "$BUILD/initramfs-distro.cpio"
	say DISTRO "VARIANT distro is Debian's $k"
	exit 0
fi

# The NTFS test images, attached as in make check (same disks, same
# order: the suites find the same devices and print the same results).
ntfs_disks

boot_judge "distro-$k" "distro-$k" "$SUITES" || status=1
grep -m1 'Linux version' "$LOGS/boot-distro-$k/console.log" | sed 's/^\[[^]]*\] /  BOOTED  /' || true

# Same results as on our kernel?
ref=$LOGS/boot-check-debug/results.log
if [ "${DISTRO_REF:-}" = default ]; then
	prepare_boots default
	boot_judge distro-ref-default default ntfs-read || status=1
	ref=$LOGS/boot-distro-ref-default/results.log
fi
prefixes=$(echo "$SUITES" | tr ' ' '\n' | grep -v '^distro$' | sed 's|$|/|' | tr '\n' ' ')
if [ -z "$prefixes" ]; then
	say COMPARE "no NTFS suite in DISTRO_SUITES: nothing to compare"
elif [ ! -f "$ref" ] || ! grep -q "^# HX-TEST ntfs-read/" "$ref"; then
	echo "error: no results of our kernel to compare with ($ref): run make check first, or DISTRO_REF=default" >&2
	echo "distro-compare 0 1 0" >>"$TALLY"
	status=1
else
	say COMPARE "$prefixes: our kernel (${ref#"$TOP/"}, $(date -r "$ref" '+%F %H:%M')) vs Debian's $k"
	# shellcheck disable=SC2086
	if "$S/vm/compare-results.py" "$ref" "$LOGS/boot-distro-$k/results.log" $prefixes; then
		echo "distro-compare 1 0 0" >>"$TALLY"
	else
		echo "error: the NTFS results on Debian's $k differ from our kernel's (above)" >&2
		echo "distro-compare 0 1 0" >>"$TALLY"
		status=1
	fi
fi

if [ "${DISTRO_DEB:-1}" = 1 ] && [ "$fl" = amd64 ]; then
	"$S/distro/deb.sh"
	say DEBTEST "apt install ./ntfs3-dkms_*.deb in a bookworm chroot with Debian's $k (minutes; log: build/logs/distro-deb.log)"
	"$S/distro/distro-deb-test.sh" "$k" >"$LOGS/distro-deb.log" || true
	"$S/vm/results.py" --name "distro-deb-$k" --results "$LOGS/distro-deb.log" --tally "$TALLY" || status=1
fi

say TIME "$(($(date +%s) - start)) s"
say DISTRO "tested Debian's $k ($pv)"
tally_summary
exit $status
