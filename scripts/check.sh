#!/bin/sh
# check.sh: the whole test suite.  Host-side tests, then one boot per entry
# of BOOTS, "VARIANT:suite,suite ...", e.g. "debug:smoke,futex".
# Ends with "N passed, N failed, N skipped"; exits 1 when anything failed.
set -eu
. "$(dirname "$0")/lib.sh"
BOOTS=${BOOTS:-debug:smoke}
S=$TOP/scripts
tally=$LOGS/tally
start=$(date +%s)

for boot in $BOOTS; do
	"$S/prepare.sh" "${boot%%:*}"
done
: >"$tally"
status=0

# Host-side tests: tests/host/*.sh, framed like the in-VM ones.
mkdir -p "$LOGS/host"
rm -f "$LOGS/host/results.log.new"
for t in "$TOP"/tests/host/*.sh; do
	[ -f "$t" ] || continue
	name=host/$(basename "$t" .sh)
	{
		echo "# HX-TEST $name"
		sh "$t" 2>&1
		echo "# HX-END $name exit=$?"
	} >>"$LOGS/host/results.log.new"
done
mv "$LOGS/host/results.log.new" "$LOGS/host/results.log" 2>/dev/null || : >"$LOGS/host/results.log"
say HOST "$(grep -c '^# HX-TEST' "$LOGS/host/results.log") host-side tests"
"$S/results.py" --name host --results "$LOGS/host/results.log" --tally "$tally" || status=1

# The NTFS suites read the test images: attach them, and put their
# manifests into the guest at /ntfs-images.
ntfs_disks() {
	"$S/make-ntfs-images.sh"
	ov=$BUILD/ntfs-overlay
	rm -rf "$ov"
	mkdir -p "$ov/ntfs-images"
	DISKS="" DISK_NAMES=""
	for name in $NTFS_IMAGES; do
		DISKS="$DISKS $BUILD/ntfs-images/$name.img:ro"
		DISK_NAMES="$DISK_NAMES $name"
		cp "$BUILD/ntfs-images/$name".* "$ov/ntfs-images/" 2>/dev/null || :
	done
	rm -f "$ov"/ntfs-images/*.img
	export DISKS DISK_NAMES EXTRA_OVERLAY=$ov
}
NTFS_IMAGES=${NTFS_IMAGES:-c4k-r1k c512 c64k c2m s4k-r4k bigdir}

# The VM boots.  KASAN kernels under TCG may stall a minute in early boot.
for boot in $BOOTS; do
	V=${boot%%:*}
	suites=$(echo "${boot#*:}" | tr ',' ' ')
	unset DISKS DISK_NAMES EXTRA_OVERLAY
	case " $suites " in *" ntfs-read "*) ntfs_disks ;; esac
	set +e
	MODE=check SUITES="$suites" NAME="check-$V" \
		TIMEOUT="${TIMEOUT:-1500}" "$S/vm.sh" "$V"
	rc=$?
	set -e
	"$S/results.py" --name "vm-$V" --results "$LOGS/boot-check-$V/results.log" \
		--console "$LOGS/boot-check-$V/console.log" --vm-status $rc --expect-done \
		--tally "$tally" || status=1
done

say TIME "$(($(date +%s) - start)) s"
awk '{ p += $2; f += $3; s += $4 } END { printf "%d passed, %d failed, %d skipped\n", p, f, s }' "$tally"
exit $status
