#!/bin/sh
# deb.sh: the Debian packages ntfs3-dkms (the module's source for DKMS) and
# ntfs3-tools (fsck.ntfs3), built with Debian's tooling (dpkg-buildpackage,
# debhelper, dh-dkms) from debian/, then checked with lintian.
# Output: build/deb/*.deb, the .changes and the lintian report
# (build/logs/deb-lintian.log).  A lintian error or warning that is not
# explained in debian/*.lintian-overrides fails the build.
set -eu
. "$(dirname "$0")/../lib.sh"

ver=$(cat "$TOP/VERSION")
out=$BUILD/deb
log=$LOGS/deb-build.log

need=""
for p in dpkg-dev debhelper dh-dkms lintian fakeroot build-essential; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" || need="$need $p"
done
if [ -n "$need" ]; then
	say DEPS "installing:$need"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive run_logged "apt-get install$need" "$LOGS/deb-apt.log" \
		apt-get install -y -qq --no-install-recommends $need
fi

# The versions must agree before anything is packaged.
sh "$TOP/tests/host/version.sh" >"$LOGS/deb-version.log" 2>&1 || {
	cat "$LOGS/deb-version.log" >&2
	die "the version numbers disagree (VERSION is $ver); fix them first"
}

# A clean copy of what the packages are built from (tracked files of
# ntfs3/, tools/, debian/, the man page and VERSION), named as
# dpkg-source wants it.
rm -rf "$out"
src=$out/ntfs3-$ver
mkdir -p "$src"
(cd "$TOP" && git ls-files -co --exclude-standard ntfs3 tools debian docs/man/fsck.ntfs3.8 VERSION |
	while read -r f; do [ -f "$f" ] && echo "$f"; done | cpio -pdm --quiet "$src") ||
	die "could not copy the sources into $src"

say DEB "dpkg-buildpackage ntfs3 $ver (log: ${log#"$TOP/"})"
(cd "$src" && run_logged dpkg-buildpackage "$log" dpkg-buildpackage -us -uc -j"$JOBS")
for p in ntfs3-dkms ntfs3-tools; do
	ls "$out"/${p}_"$ver"_*.deb >/dev/null 2>&1 || die "dpkg-buildpackage made no $p package; log: $log"
done

say LINTIAN "ntfs3_${ver}_$(dpkg --print-architecture).changes (log: build/logs/deb-lintian.log)"
lintian --info --display-info --pedantic --fail-on error,warning \
	"$out/ntfs3_${ver}_$(dpkg --print-architecture).changes" >"$LOGS/deb-lintian.log" 2>&1 || {
	cat "$LOGS/deb-lintian.log" >&2
	die "lintian reports errors or warnings (above); fix them or explain them in debian/*.lintian-overrides"
}
n=$(grep -c '^[EWIPX]:' "$LOGS/deb-lintian.log" || true)
[ "$n" = 0 ] || sed 's/^/    /' "$LOGS/deb-lintian.log"
for d in "$out"/*.deb; do
	say DEB "${d#"$TOP/"} ($(du -h "$d" | cut -f1))"
done
