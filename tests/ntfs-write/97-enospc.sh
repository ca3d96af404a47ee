#!/bin/sh
# enospc: the volume filled to its last cluster.  A file is written past
# the free space (ENOSPC, never EIO), empty files are created until the
# directory index or $MFT finds no room (ENOSPC), a write to an existing
# file gets ENOSPC; everything is removed, after which the free space is
# back (less what $MFT grew by, which it keeps) and a new file of 1 MiB is
# written and read back.  Only on the volume: the tmpfs reference would
# fill memory, so the expected tree is what is left, one file.
# Frame: tests/include/ntfs-write.sh.
. /tests/include/ntfs-write.sh

workload() {
	d=$1
	x OK "mkdir fill" mkdir "$d/fill"
	if on_volume; then
		sync
		free0=$("$FSOPS" free "$d")
		echo "# free before: $free0 bytes"
		x ENOSPC "a file written 1 MiB past the free space" \
			pwrite "$d/fill/big" 0 $((free0 + 1048576)) 970
		sync
		free1=$("$FSOPS" free "$d")
		echo "# free after the big file: $free1 bytes, its size $(stat -c %s "$d/fill/big")"
		check "less than 64 KiB left free" test "$free1" -lt 65536
		i=0
		got=OK
		while [ $i -lt 3000 ] && [ "$got" = OK ]; do
			got=$("$FSOPS" create "$d/fill/empty-file-with-a-long-name-$i")
			i=$((i + 1))
		done
		echo "# $((i - 1)) empty files created before: $got"
		check "creating files ends with ENOSPC (got $got after $((i - 1)))" \
			test "$got" = ENOSPC
		x ENOSPC "a write of 1 MiB more to the big file" \
			pwrite "$d/fill/big" "$(stat -c %s "$d/fill/big")" 1048576 971
		rmrf "rm -rf of the full directory" "$d/fill"
		sync
		free2=$("$FSOPS" free "$d")
		echo "# free after the delete: $free2 bytes ($((free0 - free2)) less than before)"
		check "the free space is back, but for up to 2 MiB of \$MFT growth" \
			test $((free0 - free2)) -ge 0 -a $((free0 - free2)) -le 2097152
	else
		rm -rf "$d/fill"
	fi
	x OK "a file of 1 MiB after the delete" pwrite "$d/after" 0 1048576 972
}

run_workload enospc
write_done
