#!/bin/sh
# check-series.sh: every patch of patches/series must build on its own and
# pass checkpatch --strict.  Walks a worktree through the series commit by
# commit, building each (incrementally, ccache) for SERIES_VARIANTS.
set -eu
. "$(dirname "$0")/lib.sh"
VARIANTS=${SERIES_VARIANTS:-series}
"$TOP/scripts/tree.sh"

commits=$(git -C "$SRC" rev-list --reverse pristine..series)
total=$(echo "$commits" | grep -c . || true)
[ "$total" -gt 0 ] || {
	say SERIES "patches/series is empty: nothing to check"
	echo "0 passed, 0 failed"
	exit 0
}
if [ ! -e "$SERIES_SRC/.git" ]; then
	git -C "$SRC" worktree prune
	git -C "$SRC" worktree add -q --detach "$SERIES_SRC" pristine
fi

passed=0
failed=0
i=0
for c in $commits; do
	i=$((i + 1))
	subj=$(git -C "$SRC" log -1 --format=%s "$c")
	say SERIES "[$i/$total] $subj"
	git -C "$SERIES_SRC" checkout -q --detach "$c"
	git -C "$SRC" format-patch -q --stdout -1 "$c" >"$LOGS/series-$i.patch"
	if (cd "$SERIES_SRC" && ./scripts/checkpatch.pl --strict --quiet \
		"$LOGS/series-$i.patch") >"$LOGS/checkpatch-$i.log" 2>&1; then
		passed=$((passed + 1))
	else
		cat "$LOGS/checkpatch-$i.log" >&2
		echo "checkpatch --strict: patch $i ($subj) has issues; log: $LOGS/checkpatch-$i.log" >&2
		failed=$((failed + 1))
	fi
	for v in $VARIANTS; do
		if "$TOP/scripts/build-kernel.sh" "$v"; then
			passed=$((passed + 1))
		else
			echo "build ($v) fails at patch $i: $subj" >&2
			failed=$((failed + 1))
		fi
	done
done
echo "$passed passed, $failed failed"
[ $failed = 0 ]
