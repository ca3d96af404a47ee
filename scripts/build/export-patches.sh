#!/bin/sh
# export-patches.sh: write the commits of build/src/linux (pristine..HEAD)
# back to patches/ as numbered git format-patch files, and patches/series.
set -eu
. "$(dirname "$0")/../lib.sh"

[ -d "$SRC/.git" ] || die "no kernel tree; run 'make tree' first"
[ -z "$(git -C "$SRC" status --porcelain --untracked-files=no)" ] ||
	die "$SRC has uncommitted changes; commit them first"
count=$(git -C "$SRC" rev-list --count pristine..HEAD)
rm -f "$TOP"/patches/*.patch
git -C "$SRC" format-patch -q --zero-commit --no-signature -o "$TOP/patches" pristine..HEAD
(cd "$TOP/patches" && ls -1 ./*.patch 2>/dev/null | sed 's|^\./||') >"$TOP/patches/series"
# The tree already holds exactly this series: do not re-apply it.
git -C "$SRC" branch -f series HEAD 2>/dev/null || true
QUIET=1 "$TOP/scripts/build/tree.sh" --stamp-only
say PATCHES "exported $count patches to patches/ (series updated)"
