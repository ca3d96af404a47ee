#!/bin/sh
# build-tests.sh: compile the in-VM test programs on the host, statically.
#   tests/SUITE/NAME.c      -> build/tests/SUITE/NAME       (x86_64)
#   tests/SUITE/NAME.m32.c  -> build/tests/SUITE/NAME.m32   (i386, -m32)
#   tests/SUITE/NAME.sh     -> build/tests/SUITE/NAME       (copied)
# A C file may ask for libraries with a line "// LDLIBS: -luring".
# Shared headers live in tests/include.  Only changed sources are rebuilt.
set -eu
. "$(dirname "$0")/../lib.sh"

out=$BUILD/tests
CFLAGS="-O2 -g -Wall -Wextra -Werror -static -pthread -D_GNU_SOURCE -I$TOP/tests/include"
n=0

compile() {
	src=$1
	dst=$2
	arch=$3
	libs=$(sed -n 's|^// LDLIBS: ||p' "$src")
	if [ "$dst" -nt "$src" ] && [ -z "$(find "$TOP/tests/include" -newer "$dst" 2>/dev/null)" ]; then
		return 0
	fi
	# shellcheck disable=SC2086
	gcc $CFLAGS $arch -o "$dst" "$src" $libs -lrt >"$LOGS/cc.log" 2>&1 || {
		cat "$LOGS/cc.log" >&2
		die "test program ${src#"$TOP/"} does not compile"
	}
	n=$((n + 1))
}

for dir in "$TOP"/tests/*/; do
	suite=$(basename "$dir")
	case "$suite" in include|vm|host|modules) continue ;; esac
	mkdir -p "$out/$suite"
	for f in "$dir"*; do
		base=$(basename "$f")
		case "$base" in
		*.m32.c) compile "$f" "$out/$suite/${base%.c}" -m32 ;;
		*.c) compile "$f" "$out/$suite/${base%.c}" "" ;;
		*.sh) install -m 755 "$f" "$out/$suite/${base%.sh}" ;;
		esac
	done
done
# Benchmark programs: bench/*.c, same rules, as the "bench" suite.
mkdir -p "$out/bench"
for f in "$TOP"/bench/*.c; do
	[ -f "$f" ] || continue
	base=$(basename "$f" .c)
	compile "$f" "$out/bench/$base" ""
done
# Benchmarks with a boot of their own: bench/NAME/*.sh -> suite bench-NAME
# (bench/ntfs: make bench-ntfs).  Their C helpers live in tests/tools.
for dir in "$TOP"/bench/*/; do
	[ -d "$dir" ] || continue
	suite=bench-$(basename "$dir")
	mkdir -p "$out/$suite"
	for f in "$dir"*.sh; do
		[ -f "$f" ] && install -m 755 "$f" "$out/$suite/$(basename "$f" .sh)"
	done
done
mkdir -p "$out/include"
install -m 644 "$TOP"/tests/include/*.sh "$out/include/"
[ $n = 0 ] || say CC "$n test programs"
