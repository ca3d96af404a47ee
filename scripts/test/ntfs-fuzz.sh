#!/bin/sh
# ntfs-fuzz.sh: the ntfs3 corruption fuzzer (tests/ntfs-fuzz/).
#
#   ntfs-fuzz.sh overlay DIR   put the base images and the cases (the regression
#                              set, then FUZZ_N random ones) into DIR/ntfs-fuzz
#                              (scripts/test/check.sh, for a boot with suite ntfs-fuzz)
#   ntfs-fuzz.sh               a boot of VARIANT (default debug) running only
#                              the fuzzer (make fuzz)
#
# Settings from the environment:
#   FUZZ_SEED     seed of the cases                      (default 1)
#   FUZZ_N        number of cases      (default 300; 1000 for make fuzz)
#   FUZZ_TIMEOUT  seconds one case may take in the VM    (default 60)
#   FUZZ_SKIP     case ids to skip ("17 42" or "17,42"); they stay numbered
#   FUZZ_CASES    the only case ids to run (to reproduce one)
#   FUZZ_WALK     parts of the walk to run, a mask (tests/tools/ntfs-mutate.c;
#                 for timing them; default all)
#   FUZZ_WRITE    0: no write phase (by default each case that mounts is
#                 also mounted read-write and given a short workload; clean
#                 over seed 1 on 2026-12-06, 46 s more for 300 cases)
#
# The base images (scripts/images/make-fuzz-base.sh) travel in the boot's overlay,
# not as virtio disks: ntfs-read walks every attached disk.
set -eu
. "$(dirname "$0")/../lib.sh"

overlay() {	# overlay DIR
	d=$1/ntfs-fuzz
	"$S/images/make-fuzz-base.sh"
	rm -rf "$d"
	mkdir -p "$d"
	imgs=""
	for i in base base-c512 base-s4k; do
		cp "$BUILD/fuzz/$i.img" "$d/"
		imgs=$imgs${imgs:+,}$BUILD/fuzz/$i.img
	done
	python3 "$S/images/ntfs-fuzz-gen.py" "${FUZZ_SEED:-1}" "${FUZZ_N:-300}" "$imgs" "$d/cases"
	# The structural mutator's regression set (ids 1000001 on) runs
	# first, in every boot, after the header line of the random cases.
	python3 "$S/images/ntfs-fuzz-gen.py" --regress "$imgs" "$d/regress"
	# (grep finds nothing when FUZZ_CASES names random cases only.)
	{ head -n 1 "$d/cases"; grep -v '^#' "$d/regress" || :; tail -n +2 "$d/cases"; } >"$d/cases.all"
	mv "$d/cases.all" "$d/cases"
	rm -f "$d/regress"
	{
		echo "FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-60}"
		echo "FUZZ_WALK=${FUZZ_WALK:-}"
		echo "FUZZ_WRITE=${FUZZ_WRITE:-1}"
	} >"$d/env"
	cp "$d/cases" "$BUILD/fuzz/cases"	# for replaying a case by hand
}

if [ "${1:-}" = overlay ]; then
	overlay "${2:?usage: ntfs-fuzz.sh overlay DIR}"
	exit 0
fi

# make fuzz: one boot of VARIANT (default debug: KASAN, UBSAN, lockdep)
# with the fuzzer only, judged by scripts/vm/harness.sh.
. "$S/vm/harness.sh"
V=${VARIANT:-debug}
FUZZ_N=${FUZZ_N:-1000}
export FUZZ_N
prepare_boots "$V"
ov=$BUILD/fuzz/overlay
rm -rf "$ov"
overlay "$ov"
name=fuzz-$V
TALLY=$LOGS/tally-fuzz
: >"$TALLY"
start=$(date +%s)
status=0
# About 2 s per case on the debug kernel under TCG; the limits allow 3x.
EXTRA_OVERLAY=$ov TEST_TIMEOUT="${TEST_TIMEOUT:-$((300 + 6 * FUZZ_N))}" \
	TIMEOUT="${TIMEOUT:-$((600 + 6 * FUZZ_N))}" \
	boot_judge "$name" "$V" ntfs-fuzz || status=1
echo "  FUZZ    summary:"
grep -E "^(not ok|# ntfs-fuzz|#  )" "$LOGS/boot-$name/results.log" || true
say TIME "$(($(date +%s) - start)) s (seed ${FUZZ_SEED:-1}, $FUZZ_N cases; log: ${LOGS#"$TOP"/}/boot-$name/results.log)"
tally_summary
exit $status
