#!/bin/sh
# set-version.sh [NEW]: make MODULE_VERSION (ntfs3/super.c), ntfs3/dkms.conf
# and debian/changelog follow VERSION (after writing NEW into VERSION, if
# given).  A new changelog entry is added with dch when the version changed;
# edit its text before committing.  tests/host/version.sh checks the result.
set -eu
. "$(dirname "$0")/../lib.sh"

[ $# = 0 ] || echo "$1" >"$TOP/VERSION"
v=$(cat "$TOP/VERSION")
expr "$v" : '[0-9][0-9]*\.[0-9][0-9.]*$' >/dev/null || die "VERSION '$v' is not a version number like 0.2.0"
sed -i "s/^MODULE_VERSION(\".*\");/MODULE_VERSION(\"$v\");/" "$TOP/ntfs3/super.c"
sed -i "s/^PACKAGE_VERSION=\".*\"/PACKAGE_VERSION=\"$v\"/" "$TOP/ntfs3/dkms.conf"
old=$(sed -n '1s/^ntfs3 (\([^)]*\)).*/\1/p' "$TOP/debian/changelog")
if [ "$old" != "$v" ]; then
	command -v dch >/dev/null || die "dch is missing: apt-get install devscripts"
	(cd "$TOP" && dch --newversion "$v" --distribution bookworm --force-distribution \
		"New version $v.")
	say VERSION "debian/changelog: new entry $v (edit its text before committing)"
fi
sh "$TOP/tests/host/version.sh"
