#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The RT lock layer keeps every exported symbol modules use: each symbol in
# tests/host/rt-exports.list (what the stock RT build exports from the
# files our series changes; scripts/build/rt-exports-list.sh) must be exported by
# our rt kernel (build/kernel-rt, which make check builds), and no more
# restrictively: a plain EXPORT_SYMBOL of stock must not become _GPL.
# TAP on stdout.
. "$(dirname "$0")/../include/tap.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
list=$top/tests/host/rt-exports.list
symvers=$top/build/kernel-rt/Module.symvers

# missing_or_stricter: the list's lines that our Module.symvers lacks or
# exports only to GPL modules where stock did not.
missing_or_stricter() {
	awk 'NR == FNR { kind[$2] = $4; next }
	     /^#/ { next }
	     !($1 in kind) { print $1 " not exported"; next }
	     $2 == "EXPORT_SYMBOL" && kind[$1] != "EXPORT_SYMBOL" {
		print $1 " is " kind[$1] ", stock: " $2 }' "$symvers" "$list"
}

if [ ! -f "$symvers" ]; then
	echo "ok 1 - rt kernel exports # SKIP no build/kernel-rt (make kernel VARIANT=rt)"
	echo "1..1"
	exit 0
fi
n=$(grep -vc '^#' "$list")
bad=$(missing_or_stricter)
check "the list has the lock API ($n symbols, rt_spin_lock and rt_write_lock among them)" \
	sh -c "grep -q '^rt_spin_lock ' '$list' && grep -q '^rt_write_lock ' '$list'"
check "our rt kernel exports all $n symbols at least as openly as stock${bad:+: $(echo "$bad" | tr '\n' ';')}" \
	test -z "$bad"
tap_done
