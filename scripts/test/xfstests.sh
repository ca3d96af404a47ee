#!/bin/sh
# xfstests.sh: fstests (xfstests) in QEMU against our ntfs3 module or the
# in-tree one.  Settings come from the environment (make xfstests passes them):
#   TESTS='generic/001 generic/013'  these tests   } neither: GROUP=quick
#   GROUP=quick                      this group    } both: both
#   XFSTESTS_SMOKE=1                 the list in tests/xfstests/smoke
#   DRIVER=ours|intree               (default ours)
#   VARIANT=default|rt|debug|...     the kernel (default default)
#   XFSTESTS_SRC=path                an fstests tree (default build/xfstests-src,
#                                    cloned from git.kernel.org when missing)
#   TIMEOUT=seconds                  hard limit of the boot (default: 1 h, or
#                                    6 h for a group)
#   XFSTESTS_SIZE=2G                 size of the test and scratch volumes
#   XFSTESTS_MOUNT=sparse,acl        mount options for both volumes (fstests'
#                                    MOUNT_OPTIONS; default none); the run's
#                                    label gets "-o-OPTIONS"
# The guest side is tests/xfstests/guest.sh; the root filesystem comes from
# scripts/test/make-xfstests-rootfs.sh.  Results: build/xfstests/DRIVER-VARIANT-LABEL/
# (LABEL: smoke, the group, or "tests"); scripts/test/xfstests-report.py turns them
# into docs/test/xfstests.md.  Ends with "N passed, N failed, N skipped"
# (skipped: fstests' "not run", or not reached before the timeout); exits 1
# when a test failed, 2 when the run itself did not complete.
set -eu
. "$(dirname "$0")/../lib.sh"
X=$TOP/tests/xfstests
V=${VARIANT:-default}
DRIVER=${DRIVER:-ours}
UPSTREAM=git://git.kernel.org/pub/scm/fs/xfs/xfstests-dev.git
start=$(date +%s)

case "$DRIVER" in
ours|intree) ;;
*) die "DRIVER must be 'ours' or 'intree', not '$DRIVER'" ;;
esac

# What to run.
if [ "${XFSTESTS_SMOKE:-0}" = 1 ]; then
	sel=$(sed 's/#.*//' "$X/smoke" | tr -s ' \n\t' '   ' | sed 's/^ //; s/ $//')
	label=smoke
	[ -n "$sel" ] || die "tests/xfstests/smoke lists no tests"
else
	TESTS=${TESTS:-} GROUP=${GROUP:-}
	[ -n "$TESTS" ] || [ -n "$GROUP" ] || GROUP=quick
	sel=$TESTS label=tests
	if [ -n "$GROUP" ]; then
		sel="-g $GROUP${TESTS:+ $TESTS}"
		label=$(echo "$GROUP" | tr ',' '+')
		[ -z "$TESTS" ] || label=$label+tests
	fi
fi
case "$label" in
smoke|tests) tmo=${TIMEOUT:-3600} ;;
*) tmo=${TIMEOUT:-21600} ;;
esac
mopts=${XFSTESTS_MOUNT:-}
case "$mopts" in
*[!a-z0-9_,=]*) die "XFSTESTS_MOUNT takes mount options like sparse,acl, not '$mopts'" ;;
esac
[ -z "$mopts" ] || label=$label-o-$mopts

# The fstests source.
if [ -n "${XFSTESTS_SRC:-}" ]; then
	XSRC=$(realpath "$XFSTESTS_SRC")
else
	XSRC=$BUILD/xfstests-src
	if [ ! -d "$XSRC" ]; then
		say GIT "cloning fstests from $UPSTREAM"
		git clone -q "$UPSTREAM" "$XSRC.new" ||
			die "could not clone $UPSTREAM (no network?); pass XFSTESTS_SRC=/path/to/an/fstests/tree (a checkout of xfstests-dev)"
		mv "$XSRC.new" "$XSRC"
	fi
fi
{ [ -f "$XSRC/check" ] && [ -d "$XSRC/tests/generic" ]; } ||
	die "$XSRC is not an fstests tree (no check or tests/generic); pass XFSTESTS_SRC=/path/to/xfstests-dev"
commit=$(git -C "$XSRC" log -1 --format='%H %cs' 2>/dev/null || echo "unknown (not a git tree: $XSRC)")
say FSTESTS "$XSRC at $commit"

# Kernel, modules, initramfs; then the guest's root filesystem.
"$S/build/prepare.sh" "$V"
"$S/test/make-xfstests-rootfs.sh" "$XSRC"

run=$BUILD/xfstests/$DRIVER-$V-$label
rm -rf "$run"
mkdir -p "$run/overlay/xfstests" "$run/results"
ov=$run/overlay/xfstests

# Fresh volumes each run: sparse files, formatted on the host (mkntfs is
# userspace; nothing here touches the host's kernel).  fstests formats the
# scratch volume again itself, with mkntfs in the guest.
size=${XFSTESTS_SIZE:-2G}
for d in test scratch; do
	truncate -s "$size" "$run/$d.img"
	mkntfs -F -f -q -L "$d" "$run/$d.img" >/dev/null 2>&1 ||
		die "mkntfs could not format $run/$d.img"
done
truncate -s 512M "$run/results.img"

# The checker: the project's fsck.ntfs3 when make tools has built it, else
# a stub that accepts every volume (and says so in every run's log).
if [ -x "$BUILD/tools/fsck.ntfs3" ]; then
	cp "$BUILD/tools/fsck.ntfs3" "$ov/fsck.ntfs3"
	fsck_used="build/tools/fsck.ntfs3"
else
	cp "$X/fsck.ntfs3-stub" "$ov/fsck.ntfs3"
	fsck_used="STUB (build/tools/fsck.ntfs3 missing: make tools)"
	echo "warning: build/tools/fsck.ntfs3 does not exist (make tools); volumes are NOT checked, a stub answers for fsck.ntfs3" >&2
fi
cp "$X/guest.sh" "$X/local.config" "$X/exclude" "$ov/"
printf '%s\n' "$sel" >"$ov/selection"
{
	echo "DRIVER='$DRIVER'"
	echo "SELECTION='$sel'"
	echo "MOUNT_OPTS='$mopts'"
} >"$ov/env"
{
	echo "driver=$DRIVER"
	echo "variant=$V"
	echo "label=$label"
	echo "selection=$sel"
	echo "mount_options=${mopts:-none}"
	echo "fstests=$commit"
	echo "src=$XSRC"
	echo "fsck=$fsck_used"
	echo "date=$(date -u +%Y-%m-%d)"
	echo "timeout=$tmo"
} >"$run/run.info"

say RUN "fstests $label ($sel) on $DRIVER ntfs3${mopts:+ -o $mopts}, $V kernel, ${size} volumes, timeout ${tmo}s"
set +e
MODE=cmd CMD="sh /xfstests/guest.sh" NAME="xfstests-$DRIVER-$V" \
	DISKS="$BUILD/xfstests-rootfs.cpio:ro $run/test.img $run/scratch.img $run/results.img" \
	DISK_NAMES="rootfs test scratch results" EXTRA_OVERLAY="$run/overlay" \
	MEM=${MEM:-3072} TIMEOUT="$tmo" "$S/vm/vm.sh" "$V"
vmrc=$?
set -e
boot=$LOGS/boot-xfstests-$DRIVER-$V
cp "$boot/results.log" "$run/output.log" 2>/dev/null || :
cp "$boot/console.log" "$run/console.log" 2>/dev/null || :
elapsed=$(($(date +%s) - start))
echo "elapsed=$elapsed" >>"$run/run.info"
echo "vm_status=$vmrc" >>"$run/run.info"

# The results archive; a run cut off mid-snapshot leaves a truncated one,
# of which tar extracts what is whole.
tar -x -f "$run/results.img" -C "$run" 2>/dev/null || :
rm -f "$run/results.img" "$run/test.img" "$run/scratch.img"
gexit=$(sed -n 's/^HX-EXIT=\([0-9]*\).*/\1/p' "$run/output.log" | tail -n 1)
echo "guest_status=${gexit:-none}" >>"$run/run.info"

"$S/vm/results.py" --name console --results /dev/null --console "$run/console.log" >/dev/null 2>&1 ||
	echo "warning: the kernel console shows problem reports (oops, WARNING, BUG...); see $run/console.log" >&2

say TIME "$elapsed s"
set +e
"$S/test/xfstests-report.py" summary "$run"
rrc=$?
set -e
if [ "$vmrc" = 124 ]; then
	echo "error: the VM did not finish within ${tmo}s; the results above are partial (TIMEOUT=seconds for more time; console: $run/console.log)" >&2
	exit 2
fi
if [ -z "$gexit" ] || [ "$gexit" = 2 ]; then
	echo "error: the guest did not run fstests to the end (guest status ${gexit:-none}); see $run/output.log and $run/console.log" >&2
	exit 2
fi
exit $rrc
