#!/bin/sh
# sizes: files of 0, 1, 511, 512, 4095, 4096, 4097 bytes and 1 MiB + 3,
# written in one call and in odd pieces (across resident/non-resident and
# page boundaries); grown and shrunk across those sizes; sparse files made
# by truncate and by writing far past the end, with data in the middle,
# then cut into their holes.  Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

SIZES="0 1 511 512 4095 4096 4097 1048579"

workload() {
	d=$1
	x OK "mkdir one" mkdir "$d/one"
	x OK "mkdir pieces" mkdir "$d/pieces"
	seed=100
	for s in $SIZES; do
		seed=$((seed + 1))
		x OK "$s bytes in one write" pwrite "$d/one/f-$s" 0 "$s" $seed
		# the same bytes in odd pieces (1000 bytes, 100 003 for the
		# big one: a fork per piece is slow on the debug kernel), last
		# piece first
		p=1000
		[ "$s" -lt 100000 ] || p=100003
		off=$(((s - 1) / p * p))
		[ "$s" = 0 ] && x OK "an empty file" create "$d/pieces/f-$s"
		while [ "$s" -gt 0 ] && [ "$off" -ge 0 ]; do
			len=$((s - off))
			[ $len -gt $p ] && len=$p
			"$FSOPS" pwrite "$d/pieces/f-$s" $off $len $seed >/dev/null
			off=$((off - p))
		done
		is "$s" "$s bytes in pieces of $p written backwards: size" stat -c %s "$d/pieces/f-$s"
	done

	# grow one file through every size, shrink another through them
	x OK "mkdir steps" mkdir "$d/steps"
	for s in $SIZES; do
		x OK "grow by writing to $s" pwrite "$d/steps/grown" 0 "$s" 200
	done
	x OK "a 1 MiB + 3 file to shrink" pwrite "$d/steps/shrunk" 0 1048579 201
	for s in 1048579 4097 4096 4095 512 511 1; do
		x OK "truncate down to $s" truncate "$d/steps/shrunk" "$s"
	done
	x OK "then append 6000 bytes" append "$d/steps/shrunk" 6000 202
	x OK "a file truncated up across sizes" create "$d/steps/up"
	for s in 1 511 4097 1048579; do
		x OK "truncate up to $s" truncate "$d/steps/up" "$s"
	done

	# sparse
	x OK "mkdir sparse" mkdir "$d/sparse"
	x OK "a new empty file" create "$d/sparse/holes"
	x OK "truncate it to 8 MiB" truncate "$d/sparse/holes" 8388608
	x OK "write 4 KiB at 5 MiB" pwrite "$d/sparse/holes" 5242880 4096 300
	x OK "write 3 bytes at 8 MiB - 3" pwrite "$d/sparse/holes" 8388605 3 301
	x OK "write 100 bytes far past the end (20 MiB)" pwrite "$d/sparse/far" 20971520 100 302
	x OK "a sparse file with data at the start" pwrite "$d/sparse/cut" 0 10000 303
	x OK "make it 16 MiB" truncate "$d/sparse/cut" 16777216
	x OK "data at 12 MiB" pwrite "$d/sparse/cut" 12582912 5000 304
	x OK "cut it back into its hole (9 MiB)" truncate "$d/sparse/cut" 9437184
	x OK "cut it into its first data (5000)" truncate "$d/sparse/cut" 5000
	x OK "grow it again to 3 MiB" truncate "$d/sparse/cut" 3145728
}

run_workload sizes
write_done
