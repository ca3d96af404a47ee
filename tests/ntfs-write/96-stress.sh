#!/bin/sh
# stress: seeded random operations in four processes at once, each in its
# own directory (tests/tools/randops: create, write, append, truncate,
# renames in and across directories and over files, links, unlink, mkdir,
# rmdir, directory renames, fallocate including punch, collapse and
# insert, user.* xattrs, fsync), with two more processes walking the whole
# tree meanwhile (readdir, lstat, read, listxattr racing the renames and
# unlinks).  Every call must give what randops' model expects, and at the
# end each writer checks sizes, link counts, entries and xattrs against its
# model.  The expected tree for the frame's checks (live, after a remount,
# the other driver, ntfs-3g, fsck.ntfs3) is the same run replayed on tmpfs
# with the counts the volume's run printed: the writers' choices depend on
# the seed only, never on timing.
#
# NTFS_STRESS_SECONDS (make stress-ntfs DURATION=...): the writers run for
# that long instead of a fixed number of operations.
# Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh
RANDOPS=/tests/tools/randops
SEED=${NTFS_STRESS_SEED:-20261206}

# replay DIR COUNTS ALIGN: the writers' operations again, quietly.
replay() {
	"$RANDOPS" -p 4 -r 0 -s "$SEED" -n "$2" -a "$3" -e "$1" >/tmp/stress-replay.out 2>&1 && return 0
	sed 's/^/#   /' /tmp/stress-replay.out
	return 1
}

workload() {
	on_volume || return 0	# the reference is the replay below
	d=$1
	align=$(stat -f -c %S "$d")
	if [ -n "${NTFS_STRESS_SECONDS:-}" ]; then
		bound="-t $NTFS_STRESS_SECONDS"
		echo "# $NTFS_STRESS_SECONDS s of random operations (seed $SEED, cluster $align)"
	else
		bound="-n 700"
		echo "# 700 random operations per writer (seed $SEED, cluster $align)"
	fi
	mkdir -p "$d/s"
	# shellcheck disable=SC2086
	"$RANDOPS" -p 4 -r 2 -s "$SEED" $bound -a "$align" "$d/s" >/tmp/stress.out 2>&1
	_rc=$?
	sed 's/^/#   /' /tmp/stress.out | head -n 40
	check "4 writers and 2 readers: every call as randops' model expects, the tree as its model at the end" \
		test $_rc = 0
	counts=$(sed -n 's/^writer \([0-9]*\): \([0-9]*\) ops$/\1 \2/p' /tmp/stress.out |
		sort -n | awk '{ printf "%s%s", s, $2; s = "," }')
	check "every writer reported its count ($counts)" \
		test "$(echo "$counts" | tr ',' '\n' | grep -c .)" = 4
	# the expected tree: the same operations on tmpfs
	ref=/tmp/stress-ref
	rm -rf "$ref"
	mkdir -p "$ref/s"
	check "the replay on tmpfs succeeds" replay "$ref/s" "$counts" "$align"
	listing "$ref" "$OUT/$NAME" ||
		check "tmpfs replay: walk lists the expected tree" false
	echo "# expected tree: $(wc -l <"$OUT/$NAME.manifest") objects, $(wc -l <"$OUT/$NAME.xattrs") user.* xattrs"
	rm -rf "$ref"
}

run_workload stress
write_done
