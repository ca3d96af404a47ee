#!/bin/sh
# reparse: symlinks and WSL's special files (each a reparse point, listed
# in $Extend\$Reparse:$R) made and removed by four processes at once, each
# in its own directory, so that no directory lock orders their changes of
# $R.  Before $R's lock was held to the commit, two such transactions
# could each change a copy of the same $R block and the later commit
# undid the earlier (fstests generic/011 showed entries missing at
# removal).  The kernel log must carry no "$R does not list / already
# lists" line, and the host's fsck.ntfs3 checks that $R lists exactly the
# reparse points left.  Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

# make DIR: 120 symlinks, 20 FIFOs and 20 character devices in DIR
make_points() {
	mkdir "$1" || return 1
	_i=0
	while [ $_i -lt 120 ]; do
		ln -s "target-$_i" "$1/l$_i" || return 1
		[ $((_i % 6)) != 0 ] || mknod "$1/p$_i" p || return 1
		[ $((_i % 6)) != 3 ] || mknod "$1/c$_i" c 1 3 || return 1
		_i=$((_i + 1))
	done
}

# thin DIR: remove every second symlink and every FIFO of DIR
thin_points() {
	for _i in $(seq 0 2 118); do
		rm "$1/l$_i" || return 1
	done
	rm "$1"/p* || return 1
}

# at_once FUNCTION DIR...: FUNCTION on every DIR in parallel; all must succeed
at_once() {
	_f=$1 _pids=
	shift
	for _dir in "$@"; do
		$_f "$_dir" &
		_pids="$_pids $!"
	done
	_bad=0
	for _p in $_pids; do
		wait "$_p" || _bad=1
	done
	return $_bad
}

# rm_all DIR: rm -rf DIR, which must be gone
rm_all() {
	rm -rf "$1" && [ ! -e "$1" ]
}

r_complaints() {
	dmesg | grep -c '\$R does not list\|\$R already lists'
}

workload() {
	d=$1
	on_volume && dmesg -c >/dev/null
	v "four processes make 160 reparse points each" at_once make_points "$d/a" "$d/b" "$d/c" "$d/e"
	v "four processes remove 80 of them each" at_once thin_points "$d/a" "$d/b" "$d/c" "$d/e"
	remount
	v "two rm -rf at once" at_once rm_all "$d/a" "$d/b"
	v "two more directories made at once" at_once make_points "$d/f" "$d/g"
	on_volume || return 0
	is 0 "no complaint of \$R in the kernel log" r_complaints
}

run_workload reparse
write_done
