# harness.sh: the one routine that boots test suites and judges them.
# Sourced after lib.sh by every script that boots suites (check.sh,
# rt-boots.sh, rt-soak.sh, ntfs-fuzz.sh, the benchmarks, check-distro.sh,
# selftest-harness.sh), so that every boot is judged the same way: its
# tests' TAP, its console (oops, BUG, WARNING, KASAN, UBSAN, lockdep), and
# whether it powered off in time.
#
#   prepare_boots SPEC...  build what the boots need (each variant once)
#   boot_spec SPEC [NAME]  one boot from "VARIANT[+icount]:suite,suite[@SECONDS]"
#   boot_judge NAME VARIANT SUITES
#                          one boot of VARIANT running SUITES, judged
#   tally_summary          "N passed, N failed, N skipped" of $TALLY
#
# boot_judge takes vm.sh's settings from the environment (MODE, TIMEOUT,
# TEST_TIMEOUT, ICOUNT, DISKS, DISK_NAMES, EXTRA_OVERLAY, MEM, QEMU_EXTRA)
# and adds the verdict to the tally file $TALLY when it is set.  Its output
# (the test channel, live) goes through the command named by BOOT_OUT
# (default cat), e.g. a function that keeps the progress lines only.
# shellcheck shell=sh

# spec_variant SPEC: the kernel variant a spec boots ("rt" of "rt+icount:x@9").
spec_variant() {
	_sv=${1%%:*}
	echo "${_sv%+icount}"
}

prepare_boots() {
	_done=" "
	for _spec in "$@"; do
		_pv=$(spec_variant "$_spec")
		case "$_done" in *" $_pv "*) continue ;; esac
		_t0=$(date +%s)
		"$S/build/prepare.sh" "$_pv"
		say TIME "$(($(date +%s) - _t0)) s: prepared $_pv"
		_done="$_done$_pv "
	done
}

# boot_judge NAME VARIANT SUITES: boot, judge, tally; returns 1 when the
# boot failed.  A QEMU that cannot start because another boot on this
# machine holds an image's lock ("Failed to get ... lock") is started again
# a minute later, up to 5 times.
boot_judge() {
	_bn=$1 _bv=$2 _bs=$3
	_err=$LOGS/qemu-$_bn.err
	_try=1
	while :; do
		# vm.sh's status through the pipe: sh has no pipefail.
		{
			_rc=0
			# Every setting explicitly: sh does not say whether
			# "VAR=x function" exports VAR.
			MODE=${MODE:-check} SUITES="$_bs" NAME="$_bn" TIMEOUT="${TIMEOUT:-2700}" \
				TEST_TIMEOUT="${TEST_TIMEOUT:-900}" ICOUNT="${ICOUNT:-0}" \
				DISKS="${DISKS:-}" DISK_NAMES="${DISK_NAMES:-}" \
				EXTRA_OVERLAY="${EXTRA_OVERLAY:-}" MEM="${MEM:-}" QEMU_EXTRA="${QEMU_EXTRA:-}" \
				"$S/vm/vm.sh" "$_bv" 2>"$_err" || _rc=$?
			echo $_rc >"$_err.rc"
		} | ${BOOT_OUT:-cat}
		_rc=$(cat "$_err.rc")
		cat "$_err" >&2
		if ! grep -q 'Failed to get .* lock' "$_err" || [ $_try -ge 5 ]; then
			break
		fi
		say QEMU "an image is locked by another QEMU on this machine; trying again in 60 s ($_try of 5)"
		_try=$((_try + 1))
		sleep 60
	done
	rm -f "$_err" "$_err.rc"
	# shellcheck disable=SC2086
	"$S/vm/results.py" --name "$_bn" --results "$LOGS/boot-$_bn/results.log" \
		--console "$LOGS/boot-$_bn/console.log" --vm-status "$_rc" --expect-done \
		${TALLY:+--tally "$TALLY"}
}

# write_suite SUITES: which of the write suites (volumes checked on the host
# afterwards) SUITES has.
write_suite() {
	case " $1 " in *" ntfs-geometry "*) echo ntfs-geometry ;; *) echo ntfs-write ;; esac
}

# suite_setup SUITES: attach what the suites read.  The NTFS suites get the
# test images as disks (scripts/test/ntfs-disks.sh); the corruption fuzzer its
# base images and cases in the overlay (not on a disk: ntfs-read walks every
# attached disk).  Sets TEST_TIMEOUT when the suites need more than 900 s.
suite_setup() {
	case " $1 " in *" ntfs-read "* | *" ntfs-big "*)
		. "$S/test/ntfs-disks.sh"
		ntfs_disks ;;
	esac
	case " $1 " in *" ntfs-fuzz "*)
		export EXTRA_OVERLAY=${EXTRA_OVERLAY:-$BUILD/fuzz/overlay}
		"$S/test/ntfs-fuzz.sh" overlay "$EXTRA_OVERLAY"
		# the 300 cases and the regression set
		TEST_TIMEOUT=${TEST_TIMEOUT:-1200} ;;
	esac
	case " $1 " in *" ntfs-write "* | *" ntfs-geometry "*)
		. "$S/test/ntfs-disks.sh"
		ntfs_write_disks "$(write_suite "$1")"
		# 2 000-entry directories on the debug kernel
		TEST_TIMEOUT=${TEST_TIMEOUT:-1800} ;;
	esac
}

# suite_verify SUITES NAME: host-side checks after the boot, judged and
# tallied as boot NAME-verify: the volumes ntfs-write wrote, read by
# ntfs-3g and fsck.ntfs3 (scripts/test/ntfs-write-verify.sh).
suite_verify() {
	case " $1 " in *" ntfs-write "* | *" ntfs-geometry "*) ;; *) return 0 ;; esac
	export NTFS_WRITE_SUITE
	NTFS_WRITE_SUITE=$(write_suite "$1")
	mkdir -p "$LOGS/boot-$2"
	{
		echo "# HX-TEST host/ntfs-write-verify"
		_rc=0
		"$S/test/ntfs-write-verify.sh" verify 2>&1 || _rc=$?
		echo "# HX-END host/ntfs-write-verify exit=$_rc"
	} | tee "$LOGS/boot-$2/verify.log" | ${BOOT_OUT:-cat}
	# shellcheck disable=SC2086
	"$S/vm/results.py" --name "$2-verify" --results "$LOGS/boot-$2/verify.log" \
		${TALLY:+--tally "$TALLY"}
}

# boot_spec SPEC [NAME]: "VARIANT+icount" boots with QEMU -icount (guest
# time counts instructions, so fixed short timeouts in tests hold on a slow
# KASAN kernel under TCG); "@SECONDS" bounds the boot instead of TIMEOUT.
# NAME defaults to check-VARIANT[-icount] (-write appended for a boot that
# runs ntfs-write).  Runs in a subshell: the disks
# and overlay of one boot do not leak into the next.
boot_spec() (
	_spec=$1
	case "$_spec" in *@*) TIMEOUT=${_spec##*@} _spec=${_spec%@*} ;; esac
	_vs=${_spec%%:*}
	_v=${_vs%+icount}
	ICOUNT=0
	[ "$_v" = "$_vs" ] || ICOUNT=1
	_suites=$(echo "${_spec#*:}" | tr ',' ' ')
	suite_setup "$_suites"
	_name=${2:-check-$(echo "$_vs" | tr '+' '-')}
	# the write suite boots on its own: its logs do not replace the others'
	case " $_suites " in
	*" ntfs-write "*) [ -n "${2:-}" ] || _name=$_name-write ;;
	*" ntfs-geometry "*) [ -n "${2:-}" ] || _name=$_name-geometry ;;
	esac
	_ok=0
	boot_judge "$_name" "$_v" "$_suites" || _ok=1
	suite_verify "$_suites" "$_name" || _ok=1
	return $_ok
)

tally_summary() {
	awk '{ p += $2; f += $3; s += $4 } END { printf "%d passed, %d failed, %d skipped\n", p, f, s }' "$TALLY"
}
