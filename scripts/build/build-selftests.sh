#!/bin/sh
# build-selftests.sh VARIANT: the kernel tree's own futex selftests
# (tools/testing/selftests/futex/functional), built statically on the host,
# unchanged, into the "futex-selftests" suite: the binaries in bin/ and one
# wrapper per invocation of the tree's run.sh.
set -eu
. "$(dirname "$0")/../lib.sh"

V=${1:?usage: build-selftests.sh VARIANT}
src=$(variant_src "$V")
kout=$(kernel_out "$V")
out=$BUILD/selftests-$V/futex
suite=$BUILD/tests/futex-selftests
fdir=$src/tools/testing/selftests/futex/functional

run_logged "uapi headers ($V)" "$LOGS/headers-$V.log" \
	make -C "$src" O="$kout" headers
mkdir -p "$out"
run_logged "futex selftests ($V)" "$LOGS/selftests-$V.log" \
	make -C "$fdir" OUTPUT="$out" KHDR_INCLUDES="-isystem $kout/usr/include" \
	LDFLAGS=-static

rm -rf "$suite"
mkdir -p "$suite/bin"
cp "$out"/futex_* "$suite/bin/"
# One wrapper per line of run.sh that runs a test binary.
grep -E '^\./futex_' "$fdir/run.sh" | sed 's/ \$COLOR//' | while read -r bin args; do
	name=$(echo "${bin#./} $args" | tr -c 'A-Za-z0-9_\n-' '_' | sed 's/__*/_/g; s/_$//')
	printf '#!/bin/sh\nexec /tests/futex-selftests/bin/%s %s\n' "${bin#./}" "$args" >"$suite/$name"
	chmod 755 "$suite/$name"
done
say SELFTEST "futex: $(ls "$suite" | grep -vc bin) invocations of $(ls "$suite/bin" | wc -l) programs"
