#!/bin/sh
# check-series.sh: every patch of patches/series must build on its own and
# pass checkpatch --strict.  Walks build/src/linux through the series one
# commit at a time and builds each SERIES_VARIANTS kernel there (incremental,
# ccache), then returns the tree to the tip of the series.
#   SERIES_VARIANTS  kernels to build at each patch (default: default)
#   SERIES_FROM      first patch to check, 1-based (default 1): after a
#                    change to the tail of the series, check only that tail
set -eu
. "$(dirname "$0")/../lib.sh"
VARIANTS=${SERIES_VARIANTS:-default}
FROM=${SERIES_FROM:-1}
case $FROM in
''|*[!0-9]*|0) die "SERIES_FROM must be a patch number (1 = the first patch), not '$FROM'" ;;
esac
"$TOP/scripts/build/tree.sh"

[ -z "$(git -C "$SRC" status --porcelain --untracked-files=no)" ] ||
	die "$SRC has uncommitted changes; commit or discard them first"
commits=$(git -C "$SRC" rev-list --reverse pristine..series)
total=$(echo "$commits" | grep -c . || true)
if [ "$total" = 0 ]; then
	say SERIES "patches/series is empty: nothing to check"
	echo "0 passed, 0 failed"
	exit 0
fi
trap 'git -C "$SRC" checkout -q series' EXIT

passed=0
failed=0
i=0
for c in $commits; do
	i=$((i + 1))
	[ $i -ge "$FROM" ] || continue
	subj=$(git -C "$SRC" log -1 --format=%s "$c")
	say SERIES "[$i/$total] $subj"
	git -C "$SRC" checkout -q --detach "$c"
	git -C "$SRC" format-patch -q --stdout -1 "$c" >"$LOGS/series-$i.patch"
	# checkpatch runs spdxcheck.py, which needs Debian python3 with python3-ply.
	# The tree is Debian's tarball with no mainline history, so checkpatch
	# cannot look up the mainline commits that Fixes: tags name and would
	# call every one unknown: that one check is left to a mainline clone.
	if (cd "$SRC" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --quiet \
		--ignore UNKNOWN_COMMIT_ID \
		"$LOGS/series-$i.patch") >"$LOGS/checkpatch-$i.log" 2>&1; then
		echo "ok - checkpatch --strict: $subj"
		passed=$((passed + 1))
	else
		cat "$LOGS/checkpatch-$i.log" >&2
		echo "not ok - checkpatch --strict: $subj (log: $LOGS/checkpatch-$i.log)"
		failed=$((failed + 1))
	fi
	for v in $VARIANTS; do
		if "$TOP/scripts/build/build-kernel.sh" "$v" >"$LOGS/series-build-$i-$v.log" 2>&1; then
			echo "ok - builds ($v): $subj"
			passed=$((passed + 1))
		else
			tail -20 "$LOGS/series-build-$i-$v.log" >&2
			echo "not ok - builds ($v): $subj (log: $LOGS/series-build-$i-$v.log)"
			failed=$((failed + 1))
		fi
	done
done
echo "$passed passed, $failed failed"
[ $failed = 0 ]
