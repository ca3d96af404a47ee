#!/bin/sh
# A tmpfs write/read round trip checked by hash, and ENOSPC on a full tmpfs.
. /tests/include/tap.sh

d=$(mktemp -d)
mount -t tmpfs -o size=1m tmpfs "$d"
seq 1 100000 >"$d/f"

same_hash() {
	[ "$(sha256sum <"$d/f" | cut -d' ' -f1)" = \
	  "$(seq 1 100000 | sha256sum | cut -d' ' -f1)" ]
}

fill_fails_enospc() {
	! dd if=/dev/zero of="$d/g" bs=64k count=32 2>/tmp/dd.err &&
		grep -q "No space left on device" /tmp/dd.err
}

check "seq 1..100000 reads back with the same sha256" same_hash
check "file size is 588895 bytes" [ "$(stat -c %s "$d/f")" = 588895 ]
check "writing past size=1m fails with ENOSPC" fill_fails_enospc
umount "$d"
tap_done
