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

# "VARIANT+icount:suites" boots VARIANT with QEMU -icount: guest time then
# counts instructions, so tests with short timeouts (the tree's
# futex_requeue waits 30 ms) do not fail on a slow KASAN kernel under TCG.
# A trailing "@SECONDS" ("rt:smoke,rt@1200") bounds that boot instead of
# TIMEOUT (default 2700 s).
for boot in $BOOTS; do
	boot=${boot%@*}
	V=${boot%%:*}
	"$S/prepare.sh" "${V%+icount}"
done
: >"$tally"
status=0

# Host-side tests: tests/host/*.sh, framed like the in-VM ones.
mkdir -p "$LOGS/host"
rm -f "$LOGS/host/results.log.new"
for t in "$TOP"/tests/host/*.sh; do
	[ -f "$t" ] || continue
	name=host/$(basename "$t" .sh)
	# A failing host test is counted, not fatal (set -e would stop here).
	rc=0
	{
		echo "# HX-TEST $name"
		sh "$t" 2>&1 || rc=$?
		echo "# HX-END $name exit=$rc"
	} >>"$LOGS/host/results.log.new"
done
mv "$LOGS/host/results.log.new" "$LOGS/host/results.log" 2>/dev/null || : >"$LOGS/host/results.log"
say HOST "$(grep -c '^# HX-TEST' "$LOGS/host/results.log") host-side tests"
"$S/results.py" --name host --results "$LOGS/host/results.log" --tally "$tally" || status=1

# The NTFS suites read the test images: ntfs_disks (scripts/ntfs-disks.sh)
# attaches them and puts their manifests into the guest at /ntfs-images.
. "$S/ntfs-disks.sh"
NTFS_IMAGES=${NTFS_IMAGES:-c4k-r1k c512 c64k c2m s4k-r4k bigdir}

# The VM boots.  KASAN kernels under TCG may stall a minute in early boot.
for boot in $BOOTS; do
	tmo=${TIMEOUT:-2700}
	case "$boot" in *@*) tmo=${boot##*@} boot=${boot%@*} ;; esac
	spec=${boot%%:*}
	V=${spec%+icount}
	ic=0
	[ "$V" = "$spec" ] || ic=1
	suites=$(echo "${boot#*:}" | tr ',' ' ')
	unset DISKS DISK_NAMES EXTRA_OVERLAY
	case " $suites " in *" ntfs-read "* | *" ntfs-big "*) ntfs_disks ;; esac
	# The corruption fuzzer: base images and cases (FUZZ_SEED, FUZZ_N, see
	# scripts/ntfs-fuzz.sh) go into the overlay, not onto a disk.
	case " $suites " in *" ntfs-fuzz "*)
		export EXTRA_OVERLAY=${EXTRA_OVERLAY:-$BUILD/fuzz/overlay}
		"$S/ntfs-fuzz.sh" overlay "$EXTRA_OVERLAY" ;;
	esac
	# Per test; the fuzzer's 300 cases and regression set need more.
	tt=${TEST_TIMEOUT:-900}
	case " $suites " in *" ntfs-fuzz "*) tt=${TEST_TIMEOUT:-1200} ;; esac
	set +e
	name=check-$(echo "$spec" | tr '+' '-')
	MODE=check SUITES="$suites" NAME="$name" ICOUNT=$ic \
		TIMEOUT="$tmo" TEST_TIMEOUT="$tt" "$S/vm.sh" "$V"
	rc=$?
	set -e
	"$S/results.py" --name "vm-$spec" --results "$LOGS/boot-$name/results.log" \
		--console "$LOGS/boot-$name/console.log" --vm-status $rc --expect-done \
		--tally "$tally" || status=1
done

say TIME "$(($(date +%s) - start)) s"
awk '{ p += $2; f += $3; s += $4 } END { printf "%d passed, %d failed, %d skipped\n", p, f, s }' "$tally"
exit $status
