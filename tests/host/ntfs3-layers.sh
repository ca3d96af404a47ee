#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The files of ntfs3/ call each other in layers, without cycles
# (scripts/test/ntfs3-layers.sh; the layers are in docs/design/ntfs3.md,
# "Files").  First the checker itself is tried on two tiny objects built
# here, one pair with a cycle and one with a call that goes up; then it
# checks ntfs3/, built against kernel-debug (else kernel-default) in
# build/ntfs3-layers.  TAP on stdout.
. "$(dirname "$0")/../include/tap.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
layers=$top/scripts/test/ntfs3-layers.sh
t=$top/build/ntfs3-layers-selftest
cc=${CC:-gcc}

# fixture DIR A_CALLS_B B_CALLS_A: objects a.o and b.o in DIR, a Kbuild
# naming them; a.o calls b() when A_CALLS_B is 1, b.o calls a() likewise.
fixture() {
	rm -rf "$1"
	mkdir -p "$1"
	printf 'ntfs3-y := a.o \\\n\tb.o\n' >"$1/Kbuild"
	if [ "$2" = 1 ]; then
		printf 'int b(void);\nint a(void) { return b(); }\n' >"$1/a.c"
	else
		printf 'int a(void) { return 1; }\n' >"$1/a.c"
	fi
	if [ "$3" = 1 ]; then
		printf 'int a(void);\nint b(void) { return a(); }\n' >"$1/b.c"
	else
		printf 'int b(void) { return 2; }\n' >"$1/b.c"
	fi
	$cc -c -o "$1/a.o" "$1/a.c" && $cc -c -o "$1/b.o" "$1/b.c"
}

# expect DIR A_CALLS_B B_CALLS_A LAYERS STATUS PATTERN: on that fixture,
# the checker with LAYERS exits with STATUS and prints a line matching
# PATTERN.
expect() {
	fixture "$1" "$2" "$3" || return 1
	LAYERS=$4 sh "$layers" "$1" >"$1/out" 2>&1
	rc=$?
	sed 's/^/# /' "$1/out"
	[ "$rc" = "$5" ] && grep -q "$6" "$1/out"
}

check "the checker finds a cycle (a -> b -> a)" \
	expect "$t/cycle" 1 1 "$(printf 'b\na')" 1 '^cycle: a b$'
check "the checker finds a call that goes up a layer (a -> b, b above a)" \
	expect "$t/up" 1 0 "$(printf 'a\nb')" 1 '^up: a -> b (layer 0 -> 1)$'
check "the checker passes a call that goes down (a -> b, a above b)" \
	expect "$t/down" 1 0 "$(printf 'b\na')" 0 '^ok$'

out=$top/build/ntfs3-layers.out
sh "$layers" >"$out" 2>&1
rc=$?
sed 's/^/# /' "$out"
check "ntfs3/ builds and its objects are read (scripts/test/ntfs3-layers.sh)" [ "$rc" != 2 ]
no_cycle() {
	[ "$rc" != 2 ] && ! grep -q '^cycle:' "$out"
}
check "the ntfs3/ file graph has no cycle" no_cycle
check "every call between ntfs3/ files goes down a layer" [ "$rc" = 0 ]
tap_done
