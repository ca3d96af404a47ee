# Common settings and helpers for the host-side scripts.  Sourced, not run.
# shellcheck shell=sh

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
SRC=$BUILD/src/linux		# patched tree (pristine tag + patches/series)
STOCK_SRC=$BUILD/src/stock	# git worktree of the pristine tag
LOGS=$BUILD/logs
TARBALL=/usr/src/linux-source-6.12.tar.xz
SRC_PKG=linux-source-6.12
JOBS=${JOBS:-$(nproc)}

mkdir -p "$BUILD" "$LOGS"

# One line per stage, kbuild style: "  STAGE   what".
say() {
	printf '  %-7s %s\n' "$1" "$2"
}

die() {
	echo "error: $*" >&2
	exit 1
}

# run_logged STAGE LOGFILE CMD...: run a command with its output in a log;
# on failure print the log's tail and where the whole log is.
run_logged() {
	_rl_stage=$1
	_rl_log=$2
	shift 2
	if ! "$@" >"$_rl_log" 2>&1; then
		tail -n 30 "$_rl_log" >&2
		die "$_rl_stage failed; full log: $_rl_log"
	fi
}

pkg_version() {
	dpkg-query -W -f='${Version}' "$SRC_PKG" 2>/dev/null
}

# Kernel variants: which tree they build and which config fragments they use.
variant_src() {
	case "$1" in
	stock|stock-rt|stock-rt-nodebug) echo "$STOCK_SRC" ;;
	default|debug|rt|rt-nodebug) echo "$SRC" ;;
	*) die "unknown VARIANT '$1' (default, debug, rt, rt-nodebug, stock, stock-rt, stock-rt-nodebug)" ;;
	esac
}

variant_fragments() {
	case "$1" in
	default|stock) echo base ;;
	debug) echo "base debug" ;;
	rt|stock-rt) echo "base rt" ;;
	# bench/rt: PREEMPT_RT without lock debugging
	rt-nodebug|stock-rt-nodebug) echo "base rt-bench" ;;
	*) die "unknown VARIANT '$1'" ;;
	esac
}

kernel_out() {
	echo "$BUILD/kernel-$1"
}
