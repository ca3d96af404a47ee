#!/bin/sh
# run.sh VARIANT: boot VARIANT with our modules loaded and the demo NTFS
# disks attached (vda: demo.img, vdb: forensics.img, then IMG images).
#   CMD='...'     run it in the VM, print its output, exit with its status
#   IMG='a b'     attach your own images, read-only unless RW=1
#   (no CMD)      a shell on the console when stdin is a terminal,
#                 otherwise a short scripted demo of each feature
set -eu
. "$(dirname "$0")/../lib.sh"
V=${1:-default}

"$S/build/prepare.sh" "$V"
"$S/images/make-demo-disk.sh"

# A command gets the demo volume read-only: runs at once would fight over
# its write lock (IMG=... RW=1 is for volumes to write).
demo_rw=
[ -n "${CMD:-}" ] && demo_rw=:ro
DISKS="$BUILD/demo/demo.img$demo_rw $BUILD/demo/forensics.img:ro"
DISK_NAMES="demo forensics"
n=0
for img in ${IMG:-}; do
	[ -f "$img" ] || die "IMG: $img does not exist"
	img=$(realpath "$img")
	if [ "${RW:-0}" = 1 ]; then
		DISKS="$DISKS $img"
	else
		DISKS="$DISKS $img:ro"
	fi
	n=$((n + 1))
	DISK_NAMES="$DISK_NAMES img$n"
done
export DISKS DISK_NAMES

if [ -n "${CMD:-}" ]; then
	mode=cmd
elif [ -t 0 ] && [ -t 1 ]; then
	mode=interactive
else
	mode=demo
fi

set +e
case $mode in
interactive)
	MODE=run INTERACTIVE=1 NAME=run-$V TIMEOUT=${TIMEOUT:-86400} "$S/vm/vm.sh" "$V"
	exit $?
	;;
cmd)
	MODE=cmd CMD="$CMD" NAME=cmd-$V-$$ TIMEOUT=${TIMEOUT:-1800} "$S/vm/vm.sh" "$V" | grep -v '^HX-EXIT='
	;;
demo)
	MODE=run NAME=run-$V TIMEOUT=${TIMEOUT:-900} "$S/vm/vm.sh" "$V" | grep -v '^HX-EXIT='
	;;
esac
set -e
# Commands get a log directory per run: two at once must not share one.
dir=$LOGS/boot-$([ $mode = cmd ] && echo "cmd-$V-$$" || echo "run-$V")
"$S/vm/results.py" --name "console" --results /dev/null --console "$dir/console.log" >/dev/null ||
	echo "warning: the kernel console shows problem reports; see $dir/console.log" >&2
code=$(sed -n 's/^HX-EXIT=\([0-9]*\).*/\1/p' "$dir/results.log" | tail -n 1)
[ -n "$code" ] || die "the VM ended without reporting an exit status; console: $dir/console.log"
[ "$code" = 0 ] || echo "run: the command in the VM exited with status $code" >&2
exit "$code"
