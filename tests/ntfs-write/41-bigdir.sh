#!/bin/sh
# bigdir: a 100 000-entry directory another system wrote, changed by ours.
# The volume is the read tests' bigdir.img (ntfs-3g wrote it): its big/
# keeps $BITMAP:$I30 in clusters, with a valid size short of its data
# size.  3 000 names are added, the first 20 000 in name order removed, a
# subdirectory made and 100 files moved into it, a remount, 1 000 more
# removed and 500 files rewritten; the frame then compares the whole
# volume live, after a remount, through the in-tree ntfs3, ntfs-3g and
# fsck.ntfs3 with the same changes made to a tmpfs copy of its files.
# Only in make check-write-big: the copy of 100 000 files into the guest
# and the walks of them take minutes, too long for the debug kernel.
# Frame: tests/include/ntfs-write.sh.
#
# opt-in
# volume bigdir bigdir - -
. /tests/include/ntfs-write.sh

add_names() {	# DIR N
	i=0
	while [ $i -lt "$2" ]; do
		echo "added by ours $i" >"$1/added-by-ours-$i" || return 1
		i=$((i + 1))
	done
}

drop_first() {	# DIR FROM N: remove names FROM .. FROM+N-1 in name order
	ls "$1" | sed -n "$2,$(($2 + $3 - 1))p" | while read -r n; do
		[ -d "$1/$n" ] || rm -f "$1/$n" || return 1
	done
}

move_some() {	# DIR TO N: the last N files (not directories) of DIR in name order
	ls "$1" | grep -v '^added-by-ours-' | while read -r n; do
		[ -f "$1/$n" ] && echo "$n"
	done | tail -n "$3" | while read -r n; do
		mv "$1/$n" "$2/" || return 1
	done
}

rewrite_some() {	# DIR N
	ls "$1" | head -n "$2" | while read -r n; do
		[ -f "$1/$n" ] || continue
		echo "rewritten by ours" >"$1/$n" || return 1
	done
}

workload() {
	d=$1
	if ! on_volume; then
		cp -a /ntfs-write/tree-bigdir/. "$d/" || report 1 "the volume's files copied to tmpfs"
	fi
	v "add 3 000 names to big/" add_names "$d/big" 3000
	v "remove the first 20 000 names of big/" drop_first "$d/big" 1 20000
	x OK "mkdir big/sub" mkdir "$d/big/sub"
	v "move 100 files into big/sub" move_some "$d/big" "$d/big/sub" 100
	remount
	v "remove 1 000 more names" drop_first "$d/big" 5000 1000
	v "rewrite 500 files" rewrite_some "$d/big" 500
	is 100 "big/sub holds 100 entries" "$FSOPS" count "$d/big/sub"
}

run_workload bigdir
write_done
