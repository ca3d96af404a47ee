#!/bin/sh
# build-modules.sh VARIANT: build our out-of-tree modules against the kernel
# of VARIANT: ntfs3/ and every tests/modules/NAME/.  Sources are copied to
# build/modules-VARIANT/ first, so the repository stays free of objects and
# each variant keeps its own incremental state.
set -eu
. "$(dirname "$0")/../lib.sh"

V=${1:?usage: build-modules.sh VARIANT}
kout=$(kernel_out "$V")
out=$BUILD/modules-$V
[ -f "$kout/Module.symvers" ] || die "kernel $V is not built; run 'make kernel VARIANT=$V'"

build_one() {
	name=$1
	srcdir=$2
	mkdir -p "$out/$name"
	# By content, and a copied file gets the time of the copy: a source
	# older than its object (another tree, a checkout) is still rebuilt.
	rsync -rlpD --checksum --delete --exclude '*.o' --exclude '*.ko' --exclude '.*.cmd' \
		--exclude '*.mod*' --exclude 'Module.symvers' --exclude 'modules.order' \
		--filter 'P *.o' --filter 'P *.ko' --filter 'P .*.cmd' --filter 'P *.mod*' \
		--filter 'P Module.symvers' --filter 'P modules.order' \
		"$srcdir/" "$out/$name/"
	run_logged "module $name ($V)" "$LOGS/module-$name-$V.log" \
		make -C "$kout" M="$out/$name" CC="ccache gcc" W=1 C=1 -j"$JOBS" modules
	if grep -q 'warning:' "$LOGS/module-$name-$V.log"; then
		grep 'warning:' "$LOGS/module-$name-$V.log" >&2
		die "module $name ($V) builds with warnings; log: $LOGS/module-$name-$V.log"
	fi
}

say MODULES "$V: ntfs3 $(ls "$TOP/tests/modules" 2>/dev/null | tr '\n' ' ')"
build_one ntfs3 "$TOP/ntfs3"
for d in "$TOP"/tests/modules/*/; do
	[ -d "$d" ] || continue
	build_one "test-$(basename "$d")" "$d"
done
