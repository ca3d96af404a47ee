#!/bin/sh
# sparse: the "sparse" mount option.  New regular files are sparse: a file
# grown by truncate or written far past its end takes clusters only where
# data was written (st_blocks and free space, with ours), also when it
# was created resident and moved out after a remount; directories and
# symlinks are not touched.  Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh
OPTS=$OPTS,sparse

workload() {
	d=$1
	x OK "mkdir sp" mkdir "$d/sp"
	# made first: a new record may grow $MFT, which is not what is counted
	x OK "a new file big" create "$d/sp/big"
	x OK "a new file far" create "$d/sp/far"
	if on_volume; then
		sync
		free0=$("$FSOPS" free "$d")
	fi
	x OK "big grown to 64 MiB by truncate" truncate "$d/sp/big" 67108864
	ours_is 0 "ours: it takes no cluster" "$FSOPS" blocks "$d/sp/big"
	x OK "4 KiB written at 10 MiB" pwrite "$d/sp/big" 10485760 4096 1
	x OK "4 KiB written at its end" pwrite "$d/sp/big" 67104768 4096 2
	ours_is 16 "ours: two clusters taken" "$FSOPS" blocks "$d/sp/big"
	x OK "far written at 1 MiB only" pwrite "$d/sp/far" 1048576 100 3
	ours_is 8 "ours: one cluster taken" "$FSOPS" blocks "$d/sp/far"
	if on_volume && [ "$DRIVER" = ours ]; then
		sync
		free1=$("$FSOPS" free "$d")
		check "ours: free space went down by the three clusters written" \
			test $((free0 - free1)) = $((3 * 4096))
		echo "# free before: $free0, after: $free1"
	fi
	x OK "a small file (resident)" pwrite "$d/sp/small" 0 200 4
	remount
	x OK "it is written at 2 MiB after a remount" pwrite "$d/sp/small" 2097152 10 5
	ours_is 16 "ours: its first and its last cluster taken" "$FSOPS" blocks "$d/sp/small"
	x OK "a hole punched in big" punch "$d/sp/big" 10485760 4096
	x OK "big cut to 20 MiB" truncate "$d/sp/big" 20971520
	ours_is 0 "ours: big takes no cluster" "$FSOPS" blocks "$d/sp/big"
	x OK "a directory" mkdir "$d/sp/dir"
	x OK "a symlink" symlink big "$d/sp/link"
}

run_workload sparse
write_done
