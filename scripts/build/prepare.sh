#!/bin/sh
# prepare.sh VARIANT: everything a boot of VARIANT needs, each step
# incremental: host packages, kernel tree, kernel, our modules, test
# programs, initramfs.
set -eu
. "$(dirname "$0")/../lib.sh"
V=${1:?usage: prepare.sh VARIANT}

# VARIANT distro: Debian's own kernel with our module built by DKMS
# (scripts/distro/check-distro.sh; nothing of ours to build but the tests).
case "$V" in distro) exec "$S/distro/check-distro.sh" prepare ;; esac

"$S/build/deps.sh"
QUIET=1 "$S/build/tree.sh"
say TREE "$(git -C "$(variant_src "$V")" log -1 --format=%s) (+ $(git -C "$SRC" rev-list --count pristine..series) patches in the patched tree)"
"$S/build/build-kernel.sh" "$V"
"$S/build/build-modules.sh" "$V"
"$S/build/build-tests.sh"
"$S/build/build-selftests.sh" "$V"
"$S/build/build-initramfs.sh" "$V"
