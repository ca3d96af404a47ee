# Common settings and helpers for the host-side scripts.  Sourced, not run.
# shellcheck shell=sh

# TOP: the checkout, the first directory above the running script that
# holds scripts/lib.sh (scripts sit in scripts/GROUP/, tests elsewhere).
TOP=$(cd "$(dirname "$0")" && while [ ! -f scripts/lib.sh ] && [ "$PWD" != / ]; do cd ..; done && pwd)
[ -f "$TOP/scripts/lib.sh" ] || {
	echo "error: no scripts/lib.sh above $0" >&2
	exit 1
}
BUILD=${BUILD:-$TOP/build}
SRC=$BUILD/src/linux		# patched tree (pristine tag + patches/series)
STOCK_SRC=$BUILD/src/stock	# git worktree of the pristine tag
LOGS=$BUILD/logs
TARBALL=/usr/src/linux-source-6.12.tar.xz
SRC_PKG=linux-source-6.12
JOBS=${JOBS:-$(nproc)}
S=$TOP/scripts

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

# build_progress WHAT SECONDS LOGFILE CMD...: run a kernel build command
# in the background with its output in a log, saying every SECONDS how many
# files kbuild has compiled for variant $V (it prints thousands of lines);
# on failure print its error lines and die naming WHAT and the log.
build_progress() {
	_bp_what=$1
	_bp_every=$2
	_bp_log=$3
	shift 3
	_bp_start=$(date +%s)
	"$@" >"$_bp_log" 2>&1 &
	_bp_pid=$!
	while kill -0 $_bp_pid 2>/dev/null; do
		sleep "$_bp_every"
		kill -0 $_bp_pid 2>/dev/null || break
		say BUILD "$V: $(grep -c '^  CC' "$_bp_log") files compiled, $(($(date +%s) - _bp_start)) s"
	done
	if ! wait $_bp_pid; then
		grep -E 'error|Error' "$_bp_log" | head -20 >&2
		die "$_bp_what failed; full log: $_bp_log"
	fi
}

# The kernel to boot is VARIANT everywhere; the old per-target names would
# now be ignored without a word, so they stop the run instead.
for _old in RT_BOOTS_VARIANT RT_SOAK_VARIANT BENCH_NTFS_VARIANT; do
	eval "_val=\${$_old:-}"
	[ -z "$_val" ] || die "$_old is gone: say VARIANT=$_val instead"
done

# copy_program PROG STAGE: /usr/bin/PROG with its shared libraries and ELF
# loader under STAGE (a root tree for the guest).
copy_program() {
	[ -x "/usr/bin/$1" ] || return 1
	mkdir -p "$2/usr/bin"
	cp "/usr/bin/$1" "$2/usr/bin/"
	for _lib in $(ldd "/usr/bin/$1" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		mkdir -p "$2$(dirname "$_lib")"
		cp -L "$_lib" "$2$_lib"
	done
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
	default|stock) echo "base thp" ;;
	debug) echo "base thp debug" ;;
	rt|stock-rt) echo "base rt" ;;
	# bench/rt: PREEMPT_RT without lock debugging
	rt-nodebug|stock-rt-nodebug) echo "base rt-bench" ;;
	*) die "unknown VARIANT '$1'" ;;
	esac
}

kernel_out() {
	echo "$BUILD/kernel-$1"
}
