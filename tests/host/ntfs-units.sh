#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host unit tests of ntfs3/lznt1.c, ntfs3/runlist.c, ntfs3/attrrec.c,
# ntfs3/attrlist.c and ntfs3/idxnode.c: builds the kernel sources against
# the user-space shim in tests/host/ntfs-units/include with
# AddressSanitizer and UBSan into build/host-units/, runs the test programs
# and checks the compression units and mapping pairs that ntfs-3g wrote
# (tests/host/ntfs-units/vectors, made by its make-vectors.sh).
#
#   sh tests/host/ntfs-units.sh        (from the top of the repository)
#
# TAP on stdout; exit status 0 only if every test passed.  CC overrides the
# compiler (default gcc).
. "$(dirname "$0")/../include/tap.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
src=$top/tests/host/ntfs-units
vec=$src/vectors
out=$top/build/host-units
cc=${CC:-gcc}
cflags="-O2 -g -Wall -Wextra -Werror -fsanitize=address,undefined"
cflags="$cflags -fno-sanitize-recover=all -fno-omit-frame-pointer"
mkdir -p "$out" || exit 1

# build NAME SOURCES...: compile into $out/NAME, compiler output in NAME.log.
build() {
	name=$1
	shift
	rm -f "$out/$name"
	# shellcheck disable=SC2086
	if ! $cc $cflags -I "$src/include" -I "$top/ntfs3" -I "$src" \
		-o "$out/$name" "$@" >"$out/$name.log" 2>&1; then
		sed 's/^/# /' "$out/$name.log"
		return 1
	fi
}

# run_tap NAME ARGS...: run $out/NAME, which prints TAP, and fold its
# results into ours (renumbered, prefixed with NAME); then one more result
# that the program exited with 0 after running all it planned.
run_tap() {
	name=$1
	shift
	if [ ! -x "$out/$name" ]; then
		check "$name: not built, not run" false
		return
	fi
	"$out/$name" "$@" >"$out/$name.tap" 2>"$out/$name.err"
	rc=$?
	plan=
	seen=0
	while IFS= read -r line; do
		case $line in
		"ok "*)
			tap_n=$((tap_n + 1))
			seen=$((seen + 1))
			echo "ok $tap_n - $name: ${line#* - }"
			;;
		"not ok "*)
			tap_n=$((tap_n + 1))
			seen=$((seen + 1))
			tap_failed=$((tap_failed + 1))
			echo "not ok $tap_n - $name: ${line#* - }"
			;;
		"1.."*)
			plan=${line#1..}
			;;
		"#"*)
			echo "$line"
			;;
		esac
	done <"$out/$name.tap"
	if [ "$rc" != 0 ]; then
		sed 's/^/# /' "$out/$name.err" | head -n 40
	fi
	check "$name: exit status $rc, ran $seen of ${plan:-no} planned tests" \
		[ "$rc" = 0 -a "$seen" = "${plan:--1}" ]
}

# unit_ok FILE LEN SHA256: the compression unit FILE decompresses to LEN
# bytes of file data with that sha256 (the caller's zero fill included), and
# whatever it produced past LEN is zeros.
unit_ok() {
	o=$out/$1.out
	"$out/lznt1_test" decompress "$vec/$1" "$o" || return 1
	got=$({ cat "$o"; head -c "$2" /dev/zero; } | head -c "$2" |
		sha256sum | cut -d' ' -f1)
	extra=$(tail -c +"$(($2 + 1))" "$o" | tr -d '\000' | wc -c)
	echo "# $1: $(wc -c <"$o") bytes produced, sha256 of the first $2 $got"
	[ "$got" = "$3" ] && [ "$extra" = 0 ]
}

check "build lznt1_test (ntfs3/lznt1.c with $cc, ASan + UBSan)" \
	build lznt1_test "$top/ntfs3/lznt1.c" "$src/lznt1_compress.c" \
	"$src/lznt1_test.c"
check "build runlist_test (ntfs3/runlist.c with $cc, ASan + UBSan)" \
	build runlist_test "$top/ntfs3/runlist.c" "$src/runlist_test.c"

check "build attrrec_test (ntfs3/attrrec.c with $cc, ASan + UBSan)" \
	build attrrec_test "$top/ntfs3/attrrec.c" "$src/attrrec_test.c"
check "build attrlist_test (ntfs3/attrlist.c with $cc, ASan + UBSan)" \
	build attrlist_test "$top/ntfs3/attrlist.c" "$top/ntfs3/attrrec.c" \
	"$src/attrlist_test.c"
# idxnode_test.c includes ntfs3/idxnode.c itself.
check "build idxnode_test (ntfs3/idxnode.c with $cc, ASan + UBSan)" \
	build idxnode_test "$src/idxnode_test.c"

run_tap lznt1_test
run_tap runlist_test "$vec"
run_tap attrrec_test
run_tap attrlist_test
run_tap idxnode_test

if [ -x "$out/lznt1_test" ]; then
	n=0
	while read -r file len sum; do
		n=$((n + 1))
		check "ntfs-3g compression unit $file decompresses to the $len bytes ntfscat read" \
			unit_ok "$file" "$len" "$sum"
	done <"$vec/SHA256SUMS"
	check "compression unit vectors found ($n)" [ "$n" -gt 0 ]
else
	check "ntfs-3g compression units: lznt1_test not built" false
fi

tap_done
