#!/bin/sh
# Prepare the kernel trees under build/src:
#   linux  git tree: tag "pristine" = Debian's linux-source-6.12, branch
#          "series" = pristine + patches/series applied with git am
#   stock  git worktree of the pristine tag (for the stock-* variants)
# Unpacks again only when the Debian package version changes; re-applies
# the series only when patches/ changes.
set -eu
. "$(dirname "$0")/../lib.sh"

ver=$(pkg_version)
[ -n "$ver" ] && [ -f "$TARBALL" ] ||
	die "$SRC_PKG is not installed; run scripts/build/deps.sh (as root)"

git_src() {
	git -C "$SRC" "$@"
}

unpack() {
	say TREE "unpacking $SRC_PKG $ver (about a minute)"
	rm -rf "$BUILD/src"
	mkdir -p "$BUILD/src"
	tar -xJf "$TARBALL" -C "$BUILD/src"
	mv "$BUILD/src/linux-source-6.12" "$SRC"
	git_src init -q -b series
	git_src config user.name "ntfs-rt-futex harness"
	git_src config user.email "harness@localhost"
	git_src config gc.auto 0
	git_src add -A -f .
	git_src commit -q -m "Debian $SRC_PKG $ver (pristine)"
	git_src tag pristine
	echo "$ver" >"$BUILD/src/pkg-version"
}

series_hash() {
	(cd "$TOP/patches" && cat series &&
		grep -v '^[[:space:]]*\(#\|$\)' series | xargs -r cat) |
		sha256sum | cut -d' ' -f1
}

apply_series() {
	if [ -n "$(git_src status --porcelain --untracked-files=no)" ]; then
		die "$SRC has uncommitted changes; commit them and run 'make export-patches', or discard them with 'git -C $SRC reset --hard'"
	fi
	git_src checkout -q -f -B series pristine
	n=0
	for p in $(grep -v '^[[:space:]]*\(#\|$\)' "$TOP/patches/series"); do
		[ -f "$TOP/patches/$p" ] || die "patches/series names $p, which does not exist"
		if ! git_src am -q "$TOP/patches/$p" >"$LOGS/git-am.log" 2>&1; then
			git_src am --abort >/dev/null 2>&1 || true
			cat "$LOGS/git-am.log" >&2
			die "patch $p does not apply to $SRC_PKG $ver"
		fi
		n=$((n + 1))
	done
	say TREE "applied $n patches from patches/series"
}

if [ ! -d "$SRC/.git" ] || [ "$(cat "$BUILD/src/pkg-version" 2>/dev/null)" != "$ver" ]; then
	unpack
	rm -f "$BUILD/src/series-applied"
fi

h=$(series_hash)
if [ "${1:-}" = --stamp-only ]; then
	echo "$h" >"$BUILD/src/series-applied"
	exit 0
fi
if [ "$(cat "$BUILD/src/series-applied" 2>/dev/null)" != "$h" ]; then
	apply_series
	echo "$h" >"$BUILD/src/series-applied"
fi

if [ ! -e "$STOCK_SRC/.git" ]; then
	git_src worktree prune
	git_src worktree add -q --detach "$STOCK_SRC" pristine
fi

[ "${QUIET:-0}" = 1 ] || say TREE "$SRC_PKG $ver, $(git_src rev-list --count pristine..series) patches on top"
